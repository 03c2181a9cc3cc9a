// views.js: DOM and SVG for the page: matrix tables, the weights heatmap, token-to-token
// lines and the 2-d vector plot. No arithmetic on values: every number shown is handed in.
import { fmt, fmtColumns, cellRef } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (key === "style")
      Object.assign(node.style, value); // CSSOM: allowed by a strict CSP
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(
    ...children
      .flat(Infinity)
      .filter((c) => c !== undefined && c !== null && c !== false && c !== ""),
  );
  return node;
}

/** An SVG element, as el() makes HTML ones; `text` sets its text. */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/**
 * A token or a dimension name: Chinese text keeps lang="zh" in either language; `gloss`, its
 * meaning in the page's language, follows it in small type.
 */
export function label(text, gloss) {
  const name = /[\u3400-\u9fff]/.test(text)
    ? el("span", { lang: "zh", "data-token": "", text })
    : el("span", { text });
  return gloss ? el("span", {}, name, " ", el("small", { class: "gloss", text: gloss })) : name;
}

// The rows of a matrix drawn: all of them, or, for one with a `window` (a long line's tables,
// whose rows are the same tokens), that many around the row that matters: the picked cell's,
// the lit one's, or else the picked cell's row in another table of the step (so that a table
// with nothing lit shows the rows its neighbours show), or the last.
function rowsDrawn(m, lit, focus) {
  const rows = m.data.length;
  if (!m.window || rows <= m.window) return [0, rows];
  const own = focus?.m === m.id ? focus.i : undefined;
  const near = focus && focus.i < rows ? focus.i : undefined;
  const center = own ?? lit?.rows[0] ?? lit?.cells[0]?.[0] ?? near ?? rows - 1;
  const from = Math.min(rows - m.window, Math.max(0, center - Math.floor(m.window / 2)));
  return [from, from + m.window];
}

/**
 * A matrix as a table. `m` is { id, label, data, rowLabels, colLabels, role, window?, heat? }; `lit`
 * is { rows, cols, cells } from steps.highlights; `hidden(i, j)` is what a cell not yet
 * revealed shows instead of its number ("?" or "·"), or false. A matrix with a `window` draws
 * that many rows at most (the rest on demand: the arrows and a picked cell move them), and says
 * which.
 * Cells are buttons with a roving tabindex: one tab stop per matrix, arrows move inside.
 */
export function matrixView(m, { lit, hidden, focus, digits, msg, onCell, tools }) {
  const rows = m.data.length;
  const cols = m.data[0]?.length ?? 0;
  const [from, to] = rowsDrawn(m, lit, focus);
  // a cell past the rows drawn: picked, the matrix drawn again around it, and focused there
  const pickAt = (i, j) => {
    const root = table.getRootNode();
    onCell?.(m, i, j);
    root.querySelector(`[data-matrix="${m.id}"] button[data-i="${i}"][data-j="${j}"]`)?.focus();
  };
  const isLit = (i, j) =>
    lit &&
    (lit.rows.includes(i) ||
      lit.cols.includes(j) ||
      lit.cells.some(([a, b]) => a === i && b === j));
  const tabCell = focus && focus.m === m.id ? [focus.i, focus.j] : [from, 0];
  // Each column at one number of decimals, so that the digits line up.
  const columns = fmtColumns(m.data, digits);
  const table = el(
    "table",
    {},
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }),
        m.colLabels.map((c, j) =>
          el(
            "th",
            { scope: "col", class: lit?.cols.includes(j) ? "lit" : undefined },
            label(c, msg.gloss(c)),
          ),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      m.data.slice(from, to).map((row, k) => {
        const i = from + k;
        return el(
          "tr",
          {},
          el(
            "th",
            { scope: "row", class: lit?.rows.includes(i) ? "lit" : undefined },
            label(m.rowLabels[i] ?? "", msg.gloss(m.rowLabels[i])),
          ),
          row.map((x, j) => {
            const text = hidden?.(i, j) || columns[j][i];
            const isFocus = focus && focus.m === m.id && focus.i === i && focus.j === j;
            return el(
              "td",
              {
                class: [
                  isLit(i, j) && "lit",
                  isFocus && "focus",
                  x === -Infinity && "minus-infinity",
                ]
                  .filter(Boolean)
                  .join(" "),
                // a matrix of weights drawn as a heatmap (`heat`): its stripes show at a glance
                style: m.heat && !hidden?.(i, j) ? shade(x) : undefined,
              },
              el("button", {
                type: "button",
                class: "cell",
                "data-i": i,
                "data-j": j,
                tabindex: tabCell[0] === i && tabCell[1] === j ? 0 : -1,
                "aria-label":
                  m.role === "input"
                    ? msg.ui.editCell(cellRef(m.label, i, j), text)
                    : msg.ui.cell(
                        cellRef(m.label, i, j),
                        text === "?" ? msg.predict.hiddenCell : text,
                      ),
                text,
                onclick: () => onCell?.(m, i, j),
                onfocus: () => m.role !== "input" && onCell?.(m, i, j, true),
                onkeydown: (e) => moveInGrid(e, table, i, j, rows, cols, pickAt),
              }),
            );
          }),
        );
      }),
    ),
  );
  return el(
    "figure",
    { class: `matrix role-${m.role}`, "data-matrix": m.id },
    el(
      "figcaption",
      {},
      el("code", { text: m.caption ?? m.label }),
      " ",
      el("span", { class: "shape", text: `${rows}×${cols}` }),
      tools,
    ),
    to - from < rows &&
      el("p", { class: "hint rows-drawn", text: msg.ui.rowsDrawn(from + 1, to, rows) }),
    el("div", { class: "scroll" }, table),
  );
}

// The arrows move inside a matrix; past the rows drawn, `pick(a, b)` picks the cell, and the
// matrix is drawn again around it.
function moveInGrid(event, table, i, j, rows, cols, pick) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  event.stopPropagation();
  const a = Math.min(rows - 1, Math.max(0, i + move[0]));
  const b = Math.min(cols - 1, Math.max(0, j + move[1]));
  const next = table.querySelector(`button[data-i="${a}"][data-j="${b}"]`);
  if (!next) return pick(a, b);
  table.querySelectorAll("button.cell").forEach((cell) => (cell.tabIndex = -1));
  next.tabIndex = 0;
  next.focus();
}

// The heatmap's colours: from pale to dark blue by the square root of the weight (colour only:
// the root keeps small weights visible), and the text dark or light, whichever contrasts more.
const pale = [244, 248, 255];
const dark = [11, 58, 128];
export function shade(w) {
  const t = Math.sqrt(Math.min(1, Math.max(0, w)));
  const rgb = pale.map((a, c) => Math.round(a + (dark[c] - a) * t));
  const linear = rgb.map((v) =>
    v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
  );
  const luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  return { background: `rgb(${rgb.join(" ")})`, color: luminance > 0.179 ? "#111" : "#fff" };
}

/**
 * A captioned table that scrolls sideways when it is wider than its column: a header row of
 * column labels (`heads`), then `rows` (tr nodes), then anything `after` it.
 */
export function tableFigure(cls, caption, heads, rows, ...after) {
  return el(
    "figure",
    { class: cls },
    el("figcaption", { text: caption }),
    el(
      "div",
      { class: "scroll" },
      el(
        "table",
        {},
        el(
          "tr",
          {},
          el("th"),
          heads.map((h) => el("th", { scope: "col" }, h)),
        ),
        rows,
      ),
    ),
    after,
  );
}

/**
 * Weights as a heatmap: the darker the cell, the larger the weight; a key the mask hides is
 * hatched. Numbers stay as text. `masked(i, j)` says whether the mask hides key j from query i;
 * `legend` is { weight, masked, dense } in words. A heatmap too wide for its column with its
 * numbers is drawn dense (ui/scroll-cue.js's fitHeatmaps): the shades alone, the numbers kept
 * for a screen reader and as each cell's title, and `legend.dense` says so.
 */
export function heatmapView(weights, queries, keys, options) {
  const { digits, title, focusRow, masked, gloss, legend } = options;
  const columns = fmtColumns(weights, digits);
  const swatch = (w) => el("span", { class: "swatch", style: shade(w), text: fmt(w, 2) });
  return tableFigure(
    "heatmap",
    title,
    keys.map((k) => label(k, gloss?.(k))),
    weights.map((row, i) =>
      el(
        "tr",
        { class: i === focusRow ? "focus-row" : undefined },
        el("th", { scope: "row" }, label(queries[i], gloss?.(queries[i]))),
        row.map((w, j) =>
          masked?.(i, j)
            ? el("td", { class: "masked", title: columns[j][i], text: columns[j][i] })
            : el("td", { style: shade(w), title: columns[j][i], text: columns[j][i] }),
        ),
      ),
    ),
    el(
      "p",
      { class: "legend" },
      `${legend.weight}: `,
      [0, 0.1, 0.25, 0.5, 1].map(swatch),
      masked && [" ", el("span", { class: "swatch masked", text: "−∞" }), ` ${legend.masked}`],
    ),
    legend.dense && el("p", { class: "dense-note", text: legend.dense }),
  );
}

/**
 * Token-to-token lines: queries on the left, keys on the right, width by weight. The labels
 * are text beside the drawing, so they take the room they need.
 */
export function linesView(weights, queries, keys, { title, focusRow, gloss }) {
  const rowHeight = 26;
  const n = Math.max(queries.length, keys.length);
  const y = (i, count) => (i + 0.5) * rowHeight + ((n - count) * rowHeight) / 2;
  const picture = svg("svg", {
    viewBox: `0 0 120 ${n * rowHeight}`,
    width: 120,
    height: n * rowHeight,
    class: "lines",
    role: "img",
    "aria-label": title,
  });
  weights.forEach((row, i) =>
    row.forEach((w, j) => {
      const line = svg("line", {
        x1: 0,
        y1: y(i, queries.length),
        x2: 120,
        y2: y(j, keys.length),
        "stroke-width": String(0.5 + w * 14),
        "data-q": i,
        "data-k": j,
        class: i === focusRow ? "on" : "",
      });
      line.append(svg("title", { text: `${queries[i]} → ${keys[j]}: ${fmt(w, 3)}` }));
      picture.append(line);
    }),
  );
  const setRow = (attr, index) =>
    picture.querySelectorAll("line").forEach((line) => {
      line.classList.toggle("on", line.getAttribute(attr) === String(index));
    });
  const side = (labels, attr, cls) =>
    el(
      "ol",
      { class: cls, style: { paddingTop: `${((n - labels.length) * rowHeight) / 2}px` } },
      labels.map((text, index) =>
        el(
          "li",
          {
            onmouseenter: () => setRow(attr, index),
            onmouseleave: () => setRow("data-q", focusRow),
          },
          label(text, gloss?.(text)),
        ),
      ),
    );
  return el(
    "figure",
    { class: "lines-view" },
    el("figcaption", { text: title }),
    el(
      "div",
      { class: "scroll" },
      el(
        "div",
        { class: "lines-grid" },
        side(queries, "data-q", "queries"),
        picture,
        side(keys, "data-k", "keys"),
      ),
    ),
  );
}

/**
 * The q and k vectors of a 2-d scene as arrows from the origin. The focused pair is bold, with
 * the key's projection onto the query dashed, labelled with the core's score.
 */
export function plotView(q, k, queries, keys, { focus, score, digits, title, note, hideScore }) {
  const size = 260;
  const pad = 30;
  // When every coordinate is positive the origin sits in the corner, so the arrows fill the plot.
  const corner = [...q, ...k].every(([a, b]) => a >= 0 && b >= 0);
  let reach = 0.1;
  for (const [a, b] of [...q, ...k]) reach = Math.max(reach, Math.abs(a), Math.abs(b));
  const span = corner ? size - 2 * pad : size / 2 - pad;
  const origin = corner ? [pad, size - pad] : [size / 2, size / 2];
  const px = ([a, b]) => [origin[0] + (a / reach) * span, origin[1] - (b / reach) * span];
  // Extra room on the right for the labels of the arrows.
  const picture = svg("svg", {
    viewBox: `0 0 ${size + 90} ${size}`,
    class: "plot",
    role: "img",
    "aria-label": title,
  });
  picture.append(
    svg("line", { x1: 0, y1: origin[1], x2: size + 90, y2: origin[1], class: "axis" }),
    svg("line", { x1: origin[0], y1: 0, x2: origin[0], y2: size, class: "axis" }),
  );
  const arrow = (vector, name, cls, on) => {
    const [x, y] = px(vector);
    picture.append(
      svg("line", {
        x1: origin[0],
        y1: origin[1],
        x2: x,
        y2: y,
        class: `${cls}${on ? " on" : ""}`,
      }),
      svg("circle", { cx: x, cy: y, r: on ? 4 : 2.5, class: cls }),
      svg("text", { x: x + 5, y: y - 5, class: cls, text: name }),
    );
  };
  if (focus) {
    // The foot of the key's projection on the query's line: (q·k / q·q)·q, for drawing only.
    const qv = q[focus.i];
    const kv = k[focus.j];
    const qq = qv[0] * qv[0] + qv[1] * qv[1];
    const t = qq > 0 ? (qv[0] * kv[0] + qv[1] * kv[1]) / qq : 0;
    const [fx, fy] = px([qv[0] * t, qv[1] * t]);
    const [kx, ky] = px(kv);
    // The shadow first, so that the arrows are drawn over it.
    picture.append(
      svg("line", { x1: origin[0], y1: origin[1], x2: fx, y2: fy, class: "shadow" }),
      svg("line", { x1: kx, y1: ky, x2: fx, y2: fy, class: "projection" }),
    );
  }
  k.forEach((vector, j) => arrow(vector, `k ${keys[j]}`, "key", focus && focus.j === j));
  q.forEach((vector, i) => arrow(vector, `q ${queries[i]}`, "query", focus && focus.i === i));
  return el(
    "figure",
    { class: "plot-view" },
    el("figcaption", { text: title }),
    picture,
    focus && !hideScore
      ? el("p", { class: "plot-score" }, el("code", { text: `q·k = ${fmt(score, digits)}` }))
      : undefined,
    el(
      "p",
      { class: "note" },
      svg(
        "svg",
        { class: "key-swatch", viewBox: "0 0 24 10", width: 24, height: 10, "aria-hidden": "true" },
        svg("line", { x1: 0, y1: 5, x2: 24, y2: 5, class: "shadow" }),
      ),
      ` ${note}`,
    ),
  );
}
