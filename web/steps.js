// steps.js: the walkthrough as data and pure functions. From a scene, the core's trace and a
// focused cell, it says which matrices show, which cells light up, the written-out arithmetic
// and the sentence to announce. It never touches the DOM and never computes a value: every
// number it writes is read from the trace or the inputs. Node tests import it.
import { fmt, factor, rowRef, cellRef } from "./format.js";
import { bounds, derivationOf, line, plain, products, shownAt, shownDot } from "./derive.js";

export const stepIds = [
  "inputs",
  "projections",
  "scores",
  "scaled",
  "masked",
  "weights",
  "output",
  "result",
];

/** The steps a scene walks through: projections only from X, the mask only when there is one. */
export function stepsFor(scene, { causal = false } = {}) {
  return stepIds.filter(
    (id) => (id !== "projections" || scene.inputs.x) && (id !== "masked" || causal || scene.mask),
  );
}

/**
 * A scene's own controls, as a lab declares them (web/lab.js): the age scene's sharpness α and
 * the book scene's causal mask.
 */
export function sceneParams(scene) {
  const params = [];
  if (scene.alpha) params.push({ id: "alpha", kind: "range", symbol: "α", ...scene.alpha });
  params.push({ id: "causal", kind: "toggle", initial: false, control: !!scene.causalToggle });
  return params;
}

const inputName = { x: "X", wq: "W_Q", wk: "W_K", wv: "W_V" };

// The labels of Q's rows, K's rows, the dimensions of Q and K, V's columns and X's columns.
export function labelsFor(scene, msg, trace, inputs) {
  // Built-in scenes name rows by message keys; a custom scene's labels are its own words.
  const name = (key) => (scene.text ? key : (msg.labels[key] ?? key));
  const dims = scene.dims?.map((d) => msg.dims[d]);
  const named = (n) => (dims && dims.length === n ? dims : indexLabels(n));
  return {
    queries: extend(scene.tokens ?? scene.queryLabels.map(name), trace.scores.length),
    keys: extend(scene.tokens ?? scene.keyLabels.map(name), trace.scores[0].length),
    dims: named((trace.q ?? inputs.q)[0].length),
    values: scene.valueLabels?.map(name) ?? named(trace.output[0].length),
    xDims: inputs.x && named(inputs.x[0].length),
  };
}

// Rows added by an edit get numbered names.
function extend(labels, n) {
  return Array.from({ length: n }, (_, i) => labels[i] ?? `#${i + 1}`);
}

/**
 * A matrix as a step's view lists it: { id, label, data, rowLabels, colLabels, role, caption? }.
 * role: 'input' (editable), 'operand', 'result' or 'aux'; `caption` names it where its label
 * will not do.
 */
export const matrix = (id, label, data, rowLabels, colLabels, role = "operand", caption) => ({
  id,
  label,
  data,
  rowLabels,
  colLabels,
  role,
  caption,
});

/**
 * The view of one step: { id, matrices, focusMatrix, cells }, where each matrix is
 * { id, label, data, rowLabels, colLabels, role }. role: 'input' (editable), 'operand',
 * 'result' or 'aux'. A result may say `knownRows: n`: its first n rows were made at an earlier
 * step (a KV cache's kept rows), so predict mode and the worksheet show them as given.
 * `focusMatrix` is the id whose cells the animation walks through.
 */
export function stepView(id, { scene, trace, inputs, labels }) {
  const qkv = {
    q: trace.q ?? inputs.q,
    k: trace.k ?? inputs.k,
    v: trace.v ?? inputs.v,
  };
  const m = matrix;
  const Q = (role) => m("q", "Q", qkv.q, labels.queries, labels.dims, role);
  const K = (role) => m("k", "K", qkv.k, labels.keys, labels.dims, role);
  const V = (role) => m("v", "V", qkv.v, labels.keys, labels.values, role);
  const logits = trace.masked ? "masked" : "scaled";
  const square = (mid, label, data, role) => m(mid, label, data, labels.queries, labels.keys, role);
  const column = (mid, label, values) =>
    m(
      mid,
      label,
      values.map((x) => [x]),
      labels.queries,
      [""],
      "aux",
    );

  switch (id) {
    case "inputs":
      if (inputs.x) {
        const w = (id, label, cols) => m(id, label, inputs[id], labels.xDims, cols, "input");
        return view(id, null, [
          m("x", "X", inputs.x, labels.queries, labels.xDims, "input"),
          w("wq", "W_Q", labels.dims),
          w("wk", "W_K", labels.dims),
          w("wv", "W_V", labels.values),
        ]);
      }
      return view(id, null, [Q("input"), K("input"), V("input")]);
    case "projections":
      return view(id, "q", [
        m("x", "X", inputs.x, labels.queries, labels.xDims, "operand"),
        m("wq", "W_Q", inputs.wq, labels.xDims, labels.dims, "operand"),
        m("wk", "W_K", inputs.wk, labels.xDims, labels.dims, "operand"),
        m("wv", "W_V", inputs.wv, labels.xDims, labels.values, "operand"),
        Q("result"),
        K("result"),
        V("result"),
      ]);
    case "scores":
      return view(id, "scores", [
        Q("operand"),
        K("operand"),
        square("scores", "Q·Kᵀ", trace.scores, "result"),
      ]);
    case "scaled":
      return view(id, "scaled", [
        square("scores", "Q·Kᵀ", trace.scores, "operand"),
        square("scaled", "scaled", trace.scaled, "result"),
      ]);
    case "masked":
      return view(id, "masked", [
        square("scaled", "scaled", trace.scaled, "operand"),
        square("masked", "masked", trace.masked, "result"),
      ]);
    case "weights":
      return view(id, "weights", [
        square(logits, logits, trace[logits], "operand"),
        column("rowMax", "max", trace.rowMax),
        square("exp", "exp(x − max)", trace.exp, "aux"),
        column("rowSum", "Σ", trace.rowSum),
        square("weights", "weights", trace.weights, "result"),
      ]);
    case "output":
      return view(id, "output", [
        square("weights", "weights", trace.weights, "operand"),
        V("operand"),
        m("output", "output", trace.output, labels.queries, labels.values, "result"),
      ]);
    case "result":
      return view(id, null, [
        m("output", "output", trace.output, labels.queries, labels.values, "result"),
      ]);
    default:
      throw new Error(`unknown step ${id}`);
  }
}

function indexLabels(n) {
  return Array.from({ length: n }, (_, i) => String(i + 1));
}

function view(id, focusMatrix, matrices) {
  return { id, focusMatrix, matrices };
}

/**
 * A map of what lights up, from matrix id to { rows, cols, cells }, and add(id, "rows" |
 * "cols" | "cells", value) to fill it, each row, column and cell named once. Every lab's
 * highlights are made with it; `h` is a map to add to.
 */
export function lighting(h = {}) {
  const add = (id, key, value) => {
    h[id] ??= { rows: [], cols: [], cells: [] };
    if (!h[id][key].some((v) => String(v) === String(value))) h[id][key].push(value);
  };
  return { h, add };
}

/** What lights up when cell (i, j) of matrix `mid` is the focus. */
export function highlights(mid, i, j, { trace }) {
  const { h, add } = lighting();
  add(mid, "cells", [i, j]);
  switch (mid) {
    case "q":
    case "k":
    case "v":
      add("x", "rows", i);
      add(`w${mid}`, "cols", j);
      break;
    case "scores":
      add("q", "rows", i);
      add("k", "rows", j);
      break;
    case "scaled":
      add("scores", "cells", [i, j]);
      break;
    case "masked":
      add("scaled", "cells", [i, j]);
      break;
    case "weights":
    case "exp":
      add(trace.masked ? "masked" : "scaled", "rows", i);
      add("rowMax", "cells", [i, 0]);
      add("exp", "cells", [i, j]);
      add("exp", "rows", i);
      add("rowSum", "cells", [i, 0]);
      add("weights", "cells", [i, j]);
      break;
    case "output":
      add("weights", "rows", i);
      add("v", "cols", j);
      break;
  }
  return h;
}

const column = (w, col) => w.map((row) => row[col]);

/**
 * The written-out arithmetic for cell (i, j) of matrix `mid`, every number from the trace:
 * { lines: [{ text, extra, approx }], extra, approx }. `extra` says a line carries more
 * decimals than the tables, `approx` that one is written with ≈.
 */
export function derivation(mid, i, j, { trace, inputs, msg, digits = 4, causal = true }) {
  return derivationOf(derivationLines(mid, i, j, { trace, inputs, msg, digits, causal }));
}

function derivationLines(mid, i, j, { trace, inputs, msg, digits, causal }) {
  const f = (x) => fmt(x, digits);
  const logits = trace.masked ? "masked" : "scaled";
  switch (mid) {
    case "q":
    case "k":
    case "v": {
      const name = mid.toUpperCase();
      if (!inputs.x)
        return [plain(`${cellRef(name, i, j)} = ${f(inputs[mid][i][j])} (${msg.derive.input})`)];
      const x = inputs.x[i];
      const w = column(inputs[`w${mid}`], j);
      const lhs = `${cellRef(name, i, j)} = ${rowRef("X", i)} · ${msg.derive.column(j + 1, `W_${name}`)} = `;
      return [line(lhs, trace[mid][i][j], digits, bounds.dot(x, w), products(x, w))];
    }
    case "x":
    case "wq":
    case "wk":
    case "wv":
      return [
        plain(`${cellRef(inputName[mid], i, j)} = ${f(inputs[mid][i][j])} (${msg.derive.input})`),
      ];
    case "scores": {
      const q = (trace.q ?? inputs.q)[i];
      const k = (trace.k ?? inputs.k)[j];
      const lhs = `${cellRef("scores", i, j)} = ${rowRef("Q", i)}·${rowRef("K", j)} = `;
      return [line(lhs, trace.scores[i][j], digits, bounds.dot(q, k), products(q, k))];
    }
    case "scaled": {
      const a = [trace.scores[i][j]];
      const b = [trace.scale];
      const terms = (p) => `${factor(a[0], p)} × ${factor(b[0], p)}`;
      return [
        line(`${cellRef("scaled", i, j)} = `, trace.scaled[i][j], digits, bounds.dot(a, b), terms),
      ];
    }
    case "masked":
      return [
        plain(
          trace.masked[i][j] === -Infinity
            ? `${cellRef("masked", i, j)} = −∞ (${causal ? msg.derive.blocked : msg.derive.masked})`
            : `${cellRef("masked", i, j)} = ${f(trace.masked[i][j])} (${msg.derive.kept})`,
        ),
      ];
    case "rowMax":
      return [plain(`max(${rowRef(logits, i)}) = ${f(trace.rowMax[i])}`)];
    case "rowSum":
      return [sumLine(i, trace, digits)];
    case "exp":
    case "weights": {
      if (trace.blockedRows.includes(i)) {
        return [plain(`${rowRef("weights", i)} = 0 (${msg.derive.allBlocked})`)];
      }
      const x = trace[logits][i][j];
      const m = trace.rowMax[i];
      const e = trace.exp[i][j];
      const s = trace.rowSum[i];
      const w = trace.weights[i][j];
      const exp =
        x === -Infinity
          ? plain(`exp(−∞) = 0`)
          : line("exp(", e, digits, bounds.exp(x, m, e), (p) => `${fmt(x, p)} − ${factor(m, p)})`);
      const divide = (p) => `${fmt(e, p)} ÷ ${fmt(s, p)}`;
      return [
        plain(`max(${rowRef(logits, i)}) = ${f(m)}`),
        exp,
        sumLine(i, trace, digits),
        line(`${cellRef("weights", i, j)} = `, w, digits, bounds.divide(e, s, w), divide),
      ];
    }
    case "output": {
      const weights = (trace.dropped ?? trace.weights)[i];
      const v = column(trace.v ?? inputs.v, j);
      const lhs = `${cellRef("output", i, j)} = `;
      return [line(lhs, trace.output[i][j], digits, bounds.dot(weights, v), products(weights, v))];
    }
    default:
      return [];
  }
}

function sumLine(i, trace, digits) {
  const terms = trace.exp[i];
  const write = (p) => terms.map((x) => fmt(x, p)).join(" + ");
  return line(`Σ ${rowRef("exp", i)} = `, trace.rowSum[i], digits, bounds.sum(terms), write);
}

/**
 * What a learner gets for cell (i, j) of `mid` by working it out from the numbers in the tables
 * (shown at `digits`), along each way the page offers (the softmax from the logits, or from the
 * exp and Σ columns): [] where the cell is given, not worked out. "Check my numbers" takes these,
 * rounded or cut off, as right beside the core's value. This is the learner's arithmetic, done
 * here only to mark an answer; the page shows none of it.
 */
export function worked(mid, i, j, { trace, inputs, digits = 4 }) {
  const at = (x) => shownAt(x, digits);
  const logits = (trace.masked ?? trace.scaled)[i].map(at);
  const m = at(trace.rowMax[i]);
  const fromLogits = () => logits.map((x) => (x === -Infinity ? 0 : Math.exp(x - m)));
  switch (mid) {
    case "q":
    case "k":
    case "v":
      return inputs.x ? [shownDot(inputs.x[i], column(inputs[`w${mid}`], j), digits)] : [];
    case "scores":
      return [shownDot((trace.q ?? inputs.q)[i], (trace.k ?? inputs.k)[j], digits)];
    case "scaled":
      return [at(trace.scores[i][j]) * at(trace.scale), at(trace.scores[i][j]) * trace.scale];
    case "masked":
      return [at(trace.scaled[i][j])];
    case "rowMax":
      return [Math.max(...logits)];
    case "exp":
      return [fromLogits()[j]];
    case "rowSum":
      return [sum(trace.exp[i].map(at)), sum(fromLogits())];
    case "weights": {
      if (trace.blockedRows.includes(i)) return [];
      const e = fromLogits();
      return [at(trace.exp[i][j]) / at(trace.rowSum[i]), e[j] / sum(e)];
    }
    case "output":
      return [
        shownDot((trace.dropped ?? trace.weights)[i], column(trace.v ?? inputs.v, j), digits),
      ];
    default:
      return [];
  }
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Key indices of row i, from the largest weight down (ties keep their order). */
export function ranking(trace, i) {
  return trace.weights[i]
    .map((w, j) => [w, j])
    .sort((a, b) => b[0] - a[0])
    .map(([, j]) => j);
}

/**
 * When every weight of every row lies within a fifth of 1/n (n the keys a row sees), the
 * weights are nearly uniform: { low, high } of the weights and { logitLow, logitHigh } of the
 * logits they come from. Otherwise null. Comparisons only.
 */
export function nearlyUniform(trace) {
  const logits = trace.masked ?? trace.scaled;
  let low = Infinity;
  let high = -Infinity;
  let logitLow = Infinity;
  let logitHigh = -Infinity;
  for (let i = 0; i < trace.weights.length; i++) {
    // A row that sees fewer than 2 keys (a fully masked one sees none) says nothing of spread.
    const seen = logits[i].filter((x) => x !== -Infinity).length;
    if (seen < 2) continue;
    for (let j = 0; j < logits[i].length; j++) {
      if (logits[i][j] === -Infinity) continue;
      const w = trace.weights[i][j];
      if (w * seen < 0.8 || w * seen > 1.2) return null;
      low = Math.min(low, w);
      high = Math.max(high, w);
      logitLow = Math.min(logitLow, logits[i][j]);
      logitHigh = Math.max(logitHigh, logits[i][j]);
    }
  }
  // Weights that are exactly equal (α = 0, equal keys) are not "nearly" equal: the scene says why.
  return low === Infinity || low === high ? null : { low, high, logitLow, logitHigh };
}

/** The keys of row i with the largest value of `m` (several when they tie). */
export function leaders(m, i) {
  const best = Math.max(...m[i]);
  return m[i].flatMap((x, j) => (x === best ? [j] : []));
}

// The matrices whose rows are queries.
const queryRowMatrices = [
  "q",
  "scores",
  "scaled",
  "masked",
  "rowMax",
  "exp",
  "rowSum",
  "weights",
  "output",
];

/** The query row a picked cell is in, or `fallback` when the cell's rows are not queries. */
export function queryRow(focus, fallback) {
  return focus && queryRowMatrices.includes(focus.m) ? focus.i : fallback;
}
