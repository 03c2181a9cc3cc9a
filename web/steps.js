// steps.js: the walkthrough as data and pure functions. From a scene, the core's trace and a
// focused cell, it says which matrices show, which cells light up, the written-out arithmetic
// and the sentence to announce. It never touches the DOM and never computes a value: every
// number it writes is read from the trace or the inputs. Node tests import it.
import { fmt, factor } from "./format.js";

export const stepIds = [
  "inputs",
  "projections",
  "scores",
  "scaled",
  "masked",
  "softmax",
  "output",
  "result",
];

/** The steps a scene walks through: projections only from X, the mask only when there is one. */
export function stepsFor(scene, { causal = false } = {}) {
  return stepIds.filter(
    (id) => (id !== "projections" || scene.inputs.x) && (id !== "masked" || causal || scene.mask),
  );
}

const sub = (label, ...indices) => `${label}[${indices.join("][")}]`;
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
 * The view of one step: { id, matrices, focusMatrix, cells }, where each matrix is
 * { id, label, data, rowLabels, colLabels, role }. role: 'input' (editable), 'operand',
 * 'result' or 'aux'. `focusMatrix` is the id whose cells the animation walks through.
 */
export function stepView(id, { scene, trace, inputs, labels }) {
  const qkv = {
    q: trace.q ?? inputs.q,
    k: trace.k ?? inputs.k,
    v: trace.v ?? inputs.v,
  };
  const m = (mid, label, data, rowLabels, colLabels, role) => ({
    id: mid,
    label,
    data,
    rowLabels,
    colLabels,
    role,
  });
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
    case "softmax":
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
      return view(id, "output", [
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
 * What lights up when cell (i, j) of matrix `mid` is the focus: a map from matrix id to
 * { rows, cols, cells }.
 */
export function highlights(mid, i, j, { trace }) {
  const h = {};
  const add = (id, key, value) => {
    h[id] ??= { rows: [], cols: [], cells: [] };
    h[id][key].push(value);
  };
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

/** The written-out arithmetic for cell (i, j) of matrix `mid`, every number from the trace. */
export function derivation(mid, i, j, { trace, inputs, msg, digits = 4, causal = true }) {
  const f = (x) => fmt(x, digits);
  const dot = (a, b) => a.map((x, c) => `${factor(x, digits)}×${factor(b[c], digits)}`).join(" + ");
  const column = (w, col) => w.map((row) => row[col]);
  switch (mid) {
    case "q":
    case "k":
    case "v": {
      const name = mid.toUpperCase();
      if (!inputs.x) return `${sub(name, i, j)} = ${f(inputs[mid][i][j])} (${msg.derive.input})`;
      const w = inputs[`w${mid}`];
      return `${sub(name, i, j)} = ${sub("X", i)}·${sub(`W_${name}`, ":", j)} = ${dot(inputs.x[i], column(w, j))} = ${f(trace[mid][i][j])}`;
    }
    case "x":
    case "wq":
    case "wk":
    case "wv":
      return `${sub(inputName[mid], i, j)} = ${f(inputs[mid][i][j])} (${msg.derive.input})`;
    case "scores": {
      const q = trace.q ?? inputs.q;
      const k = trace.k ?? inputs.k;
      return `${sub("scores", i, j)} = ${sub("Q", i)}·${sub("K", j)} = ${dot(q[i], k[j])} = ${f(trace.scores[i][j])}`;
    }
    case "scaled":
      return `${sub("scaled", i, j)} = ${f(trace.scores[i][j])} × ${f(trace.scale)} = ${f(trace.scaled[i][j])}`;
    case "masked":
      return trace.masked[i][j] === -Infinity
        ? `${sub("masked", i, j)} = −∞ (${causal ? msg.derive.blocked : msg.derive.masked})`
        : `${sub("masked", i, j)} = ${f(trace.masked[i][j])} (${msg.derive.kept})`;
    case "rowMax":
      return `max(${sub(trace.masked ? "masked" : "scaled", i)}) = ${f(trace.rowMax[i])}`;
    case "rowSum":
      return `Σ ${sub("exp", i)} = ${trace.exp[i].map(f).join(" + ")} = ${f(trace.rowSum[i])}`;
    case "exp":
    case "weights": {
      const logits = trace.masked ?? trace.scaled;
      if (trace.blockedRows.includes(i))
        return `${sub("weights", i)} = 0 (${msg.derive.allBlocked})`;
      const x = logits[i][j];
      const exp =
        x === -Infinity
          ? `exp(−∞) = 0`
          : `exp(${f(x)} − ${factor(trace.rowMax[i], digits)}) = ${f(trace.exp[i][j])}`;
      const sum = `Σ = ${trace.exp[i].map(f).join(" + ")} = ${f(trace.rowSum[i])}`;
      return `max = ${f(trace.rowMax[i])}; ${exp}; ${sum}; ${sub("weights", i, j)} = ${f(trace.exp[i][j])} ÷ ${f(trace.rowSum[i])} = ${f(trace.weights[i][j])}`;
    }
    case "output": {
      const weights = trace.dropped ?? trace.weights;
      const v = trace.v ?? inputs.v;
      return `${sub("output", i, j)} = ${dot(weights[i], column(v, j))} = ${f(trace.output[i][j])}`;
    }
    default:
      return "";
  }
}

/** Key indices of row i, from the largest weight down (ties keep their order). */
export function ranking(trace, i) {
  return trace.weights[i]
    .map((w, j) => [w, j])
    .sort((a, b) => b[0] - a[0])
    .map(([, j]) => j);
}
