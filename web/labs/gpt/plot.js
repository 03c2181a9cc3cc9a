// labs/gpt/plot.js: the model lab's loss plot: training and held-out losses by step, and
// beside them, as labelled dashed lines, the held-out losses of other models (knowing nothing,
// a unigram, a bigram, the shipped weights), each named in the right margin. The y axis starts
// below the lowest loss, not at 0, so that lines 0.4 nats apart stay apart. Drawing only:
// the numbers come from the core and from baselines.json; the one piece of arithmetic is the
// plot's coordinates.
import { svg } from "../../views.js";
import { plotFigure, plotFrame } from "../kit.js";

const width = 480;
const height = 260;
const pad = { left: 40, right: 110, top: 16, bottom: 36 };

/**
 * series: [{ label, points: [[step, loss]] }] (drawn as series-0, series-1); levels:
 * [{ label, y }] (dashed, named at the right; levelsKey says what they are); xTicks: the steps to mark; table: a figure
 * with the numbers, for reading them off and for screen readers.
 */
export function lossPlot({ id, title, series, levels, levelsKey, xLabel, yLabel, xTicks, table }) {
  const xs = [...xTicks, ...series.flatMap((s) => s.points.map((p) => p[0]))];
  const ys = [...levels.map((l) => l.y), ...series.flatMap((s) => s.points.map((p) => p[1]))];
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const y0 = Math.floor(Math.min(...ys)) - 0.5;
  const y1 = Math.ceil(Math.max(...ys));
  const px = (x) => pad.left + ((x - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right);
  const py = (y) => height - pad.bottom - ((y - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const right = width - pad.right;
  const picture = plotFrame({ width, height, pad, title, xLabel, yLabel, bottom: py(y0) });
  for (const x of xTicks) {
    picture.append(
      svg("line", { x1: px(x), y1: py(y0), x2: px(x), y2: py(y0) + 4, class: "axis" }),
      svg("text", { x: px(x), y: py(y0) + 16, class: "tick middle", text: String(x) }),
    );
  }
  for (let y = Math.ceil(y0); y <= y1; y++) {
    picture.append(
      svg("line", { x1: pad.left - 4, y1: py(y), x2: right, y2: py(y), class: "grid" }),
      svg("text", { x: pad.left - 6, y: py(y) + 4, class: "tick end", text: String(y) }),
    );
  }
  // each level's name beside its line, moved down where two would overlap
  let below = -Infinity;
  [...levels]
    .sort((a, b) => b.y - a.y)
    .forEach((level) => {
      const at = Math.max(py(level.y) + 4, below + 12);
      below = at;
      picture.append(
        svg("path", {
          d: `M${pad.left},${py(level.y)} L${right},${py(level.y)}`,
          class: "series series-2",
        }),
        svg("text", { x: right + 4, y: at, class: "level", text: level.label }),
      );
    });
  series.forEach((s, n) => {
    const d = s.points.map(([x, y], i) => `${i ? "L" : "M"}${px(x)},${py(y)}`).join(" ");
    picture.append(svg("path", { d, class: `series series-${n}` }));
    for (const [x, y] of s.points) {
      picture.append(svg("circle", { cx: px(x), cy: py(y), r: 2.5, class: `series-${n}` }));
    }
  });
  // the levels are drawn as series-2, whatever the curves are
  const keys = [...series.map((s, n) => [s.label, n]), [levelsKey, 2]];
  return plotFigure({ id, title, picture, keys, table });
}
