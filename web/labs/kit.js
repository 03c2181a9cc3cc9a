// labs/kit.js: what every lab draws besides its matrices (whose descriptions are steps.js's
// matrix()): a line plot of measured numbers, a table of numbers, names for numbered things,
// numbers too large or too small for decimals, and a panel drawn again under the focus.
// Drawing only: the numbers come from the core; the one piece of arithmetic is the plot's
// coordinates (and its log axis).
import { el, svg, tableFigure } from "../views.js";
import { fmt } from "../format.js";
import { fitHeatmaps, markWide } from "../ui/scroll-cue.js";

/** What the kit draws is styled by this stylesheet (a path from the page): a lab that draws
 * with the kit names it in its `styles`. */
export const kitStyles = "labs/kit.css";

/** 1-based names for n things: 1, 2, … or, with a prefix, k1, k2, … */
export const numbered = (n, prefix = "") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/**
 * A number as the page shows it, and Infinity and NaN as JavaScript writes them; one too large
 * for decimals in scientific notation at `digits` decimals (8.2184e+307).
 */
export const shown = (x, digits) =>
  Number.isNaN(x) || x === Infinity
    ? String(x)
    : Math.abs(x) >= 1e21
      ? x.toExponential(digits).replace("-", "−")
      : fmt(x, digits);

/** A small number in scientific notation: 1.1e-16 (0 as 0). */
export const tiny = (x) => (x === 0 ? "0" : x.toExponential(1).replace("-", "−"));

/**
 * A plot's picture and its two axes: an <svg> (width × height, `pad` around the plotting area)
 * named by `title` for screen readers, the x axis at `bottom` px, both axes labelled.
 */
export function plotFrame({ width, height, pad, title, xLabel, yLabel, bottom }) {
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "line-plot",
    role: "img",
    "aria-label": title,
  });
  picture.append(
    svg("line", { x1: pad.left, y1: bottom, x2: width - pad.right, y2: bottom, class: "axis" }),
    svg("line", { x1: pad.left, y1: bottom, x2: pad.left, y2: pad.top, class: "axis" }),
    svg("text", { x: width - pad.right, y: height - 4, class: "axis-label end", text: xLabel }),
    svg("text", { x: pad.left + 6, y: pad.top - 4, class: "axis-label", text: yLabel }),
  );
  return picture;
}

/**
 * A line plot: series of [x, y] points over a log₂ or linear x axis. `mark` highlights one x.
 * The caption and a table of the plotted numbers (for screen readers and for reading them off)
 * go with it.
 */
export function linePlot({ id, title, series, xLabel, yLabel, xTicks, yTicks, log, mark, table }) {
  const width = 420;
  const height = 240;
  const pad = { left: 46, right: 24, top: 16, bottom: 36 };
  // the x axis spans its ticks too: a plot still filling in (a run in progress) keeps its scale
  const xs = [...xTicks, ...series.flatMap((s) => s.points.map((p) => p[0]))];
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const tx = (x) => (log ? Math.log2(x) : x);
  const [x0, x1] = [Math.min(...xs.map(tx)), Math.max(...xs.map(tx))];
  const [y0, y1] = [Math.min(0, ...ys, ...yTicks), Math.max(...ys, ...yTicks)];
  const px = (x) => pad.left + ((tx(x) - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right);
  const py = (y) =>
    height - pad.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - pad.top - pad.bottom);
  const picture = plotFrame({ width, height, pad, title, xLabel, yLabel, bottom: py(y0) });
  for (const x of xTicks) {
    picture.append(
      svg("line", { x1: px(x), y1: py(y0), x2: px(x), y2: py(y0) + 4, class: "axis" }),
      svg("text", { x: px(x), y: py(y0) + 16, class: "tick middle", text: String(x) }),
    );
  }
  for (const y of yTicks) {
    picture.append(
      svg("line", { x1: pad.left - 4, y1: py(y), x2: width - pad.right, y2: py(y), class: "grid" }),
      svg("text", { x: pad.left - 6, y: py(y) + 4, class: "tick end", text: String(y) }),
    );
  }
  if (mark !== undefined) {
    picture.append(
      svg("line", { x1: px(mark), y1: py(y0), x2: px(mark), y2: pad.top, class: "mark" }),
    );
  }
  series.forEach((s, n) => {
    const d = s.points.map(([x, y], i) => `${i ? "L" : "M"}${px(x)},${py(y)}`).join(" ");
    picture.append(svg("path", { d, class: `series series-${n}` }));
    for (const [x, y] of s.points) {
      const on = x === mark;
      picture.append(svg("circle", { cx: px(x), cy: py(y), r: on ? 5 : 3, class: `series-${n}` }));
    }
  });
  const keys = series.map((s, n) => [s.label, n]);
  return plotFigure({ id, title, picture, keys, table });
}

/** A plot's figure: its caption, its picture, its keys ([label, series number]), its table. */
export function plotFigure({ id, title, picture, keys, table }) {
  const legend = el(
    "p",
    { class: "legend" },
    keys.map(([label, n]) => el("span", { class: `key series-${n}`, text: label })),
  );
  return el(
    "figure",
    { class: "why-plot", id },
    el("figcaption", { text: title }),
    picture,
    legend,
    table,
  );
}

/** Round ticks from 0 to at least `max` for a plot's y axis (drawing only). */
export function niceTicks(max) {
  const step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100].find((s) => max / s <= 5) ?? 200;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => Number((i * step).toFixed(1)));
}

/**
 * A captioned table of numbers (already formatted): heads, then rows of [label, …cells].
 * `stacked`: on a phone each row becomes a card whose cells name their column (a table too wide
 * for the screen otherwise shows two columns of six); the roles keep it a table to a reader.
 */
export function numbers(cls, caption, heads, rows, { stacked = false } = {}) {
  const role = (name) => (stacked ? { role: name } : {});
  const figure = tableFigure(
    stacked ? `${cls} stacked` : cls,
    caption,
    heads,
    rows.map(([name, ...cells]) =>
      el(
        "tr",
        role("row"),
        el("th", { scope: "row", text: name, ...role("rowheader") }),
        cells.map((c, k) => el("td", { text: c, ...role("cell"), "data-label": heads[k] })),
      ),
    ),
  );
  if (stacked) {
    figure.querySelector("table").setAttribute("role", "table");
    const header = figure.querySelector("tr");
    header.setAttribute("role", "row");
    const [corner, ...columns] = header.querySelectorAll("th");
    corner.setAttribute("role", "cell");
    for (const th of columns) th.setAttribute("role", "columnheader");
  }
  // A table that scrolls sideways on a phone can be scrolled from the keyboard too.
  const scroller = figure.querySelector(".scroll");
  scroller.tabIndex = 0;
  scroller.setAttribute("aria-label", caption);
  return figure;
}

/**
 * Signed numbers as a heatmap: blue for positive, red for negative, the stronger the larger
 * against the largest magnitude in the table (drawing only); each cell writes its number.
 */
export function signedHeatmap(values, rowLabels, colLabels, { title, digits }) {
  const largest = Math.max(...values.flat().map(Math.abs)) || 1;
  const shade = (x) => {
    const a = (Math.abs(x) / largest) * 0.75;
    return { background: x >= 0 ? `rgba(40, 90, 200, ${a})` : `rgba(200, 50, 50, ${a})` };
  };
  return tableFigure(
    "heatmap signed",
    title,
    colLabels,
    values.map((row, i) =>
      el(
        "tr",
        {},
        el("th", { scope: "row", text: rowLabels[i] }),
        row.map((x) => el("td", { style: shade(x), text: fmt(x, Math.min(digits, 3)) })),
      ),
    ),
  );
}

/** A lab's Start and Stop, side by side: one group, named for a screen reader. */
export const trainerButtons = (label, start, stop) =>
  el("div", { class: "trainer", role: "group", "aria-label": label }, start, stop);

// What the keyboard can reach in a part of the page.
const reachable = "a[href], button, input, select, textarea, [tabindex]";

/**
 * Draws `node`'s contents again with `draw()` (a panel redrawn while the learner reads it, as
 * the training's, every few frames): the focus stays on the control or table at the same place
 * among the node's, each table keeps how far it was scrolled sideways, and a table wider than
 * its column says so again (its fade and `hint`, the page's line to scroll sideways).
 */
export function redrawInPlace(node, draw, hint) {
  const active = node.getRootNode().activeElement;
  const at = [...node.querySelectorAll(reachable)].indexOf(active);
  const scrolled = [...node.querySelectorAll(".scroll")].map((s) => s.scrollLeft);
  draw();
  fitHeatmaps(node);
  node.querySelectorAll(".scroll").forEach((s, k) => scrolled[k] && (s.scrollLeft = scrolled[k]));
  markWide(node, hint);
  if (at >= 0) node.querySelectorAll(reachable)[at]?.focus({ preventScroll: true });
}
