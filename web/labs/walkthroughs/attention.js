// labs/walkthroughs/attention.js: the attention lab, which the five scenes and every custom scene run on.
// A lab is what a walkthrough needs to run a scene: its parameters, its one call into the core,
// its steps with the panels each shows, and the pure functions that say what a step shows.
// The contract is in web/lab.js; this file fills it for softmax(Q·Kᵀ/√d_k)·V.
import {
  stepsFor,
  stepView,
  highlights,
  derivation,
  labelsFor,
  worked,
  leaders,
  queryRow,
  sceneParams,
} from "../../steps.js";
import { fmt } from "../../format.js";
import { el } from "../../views.js";
import { heatmapPanel, linesPanel, plotPanel } from "../../ui/panels.js";
import { resultView } from "../../ui/result-view.js";
import { spreadNote, meaningPanel } from "../../ui/notes.js";
import { exportScript } from "../../export.js";

// The panels inside each step, after its matrices, by step id.
const inside = {
  inputs: ["inputsNote"],
  weights: ["spread"],
  result: ["result", "meaning", "spread"],
};

// The panels beside each step, by step id; "plot" draws only in scenes that ask for it.
const beside = {
  scores: ["plot"],
  scaled: ["plot"],
  masked: ["plot"],
  weights: ["heatmap", "lines", "plot"],
  output: ["heatmap", "lines"],
  result: ["heatmap", "lines"],
};

// Shapes that change together, so that a new row or column always fits: a new feature of X
// needs a row in each W, a new dimension of Q needs one of K, a new key needs a new value.
const features = [
  ["x", "cols"],
  ["wq", "rows"],
  ["wk", "rows"],
  ["wv", "rows"],
];
const dK = (a, b) => [
  [a, "cols"],
  [b, "cols"],
];
const keyRows = [
  ["k", "rows"],
  ["v", "rows"],
];

// Step 1's words: what this scene's rows and columns are, by their names (a token with its
// gloss), or how many numbers with no names; a long list by its first and last, unglossed.
function inputsText(scene, msg, labels, inputs) {
  const w = msg.steps.inputs;
  const glossed = (list) => list.map((x) => (msg.gloss(x) ? `${x} (${msg.gloss(x)})` : x));
  const rows = (list) =>
    list.length > 6
      ? w.range(list.length, msg.list([list[0]]), msg.list([list.at(-1)]))
      : msg.list(glossed(list));
  const columns = (list, n) => (scene.dims?.length === n ? msg.list(list) : w.unnamed(n));
  if (inputs.x) return w.self(rows(labels.queries), columns(labels.xDims, inputs.x[0].length));
  const nv = inputs.v[0].length;
  const named = scene.valueLabels?.length === nv || scene.dims?.length === nv;
  const values = named ? msg.list(labels.values) : w.unnamed(nv);
  return w.lookup(
    rows(labels.queries),
    rows(labels.keys),
    values,
    columns(labels.dims, inputs.q[0].length),
  );
}

// The causal mask is on when the scene has one or the learner turned it on.
const causalOf = (scene, state) => Boolean(state.causal || scene.mask === "causal");

export default {
  id: "attention",

  params: sceneParams,

  // The one core call: α scales the query, an input, before the core sees it.
  compute(core, scene, state) {
    const inputs = { ...scene.inputs, ...state.edits };
    if (scene.alpha) inputs.q = inputs.q.map((row) => row.map((x) => state.alpha * x));
    const mask = state.causal ? "causal" : scene.mask;
    const options = mask ? { mask } : {};
    const trace = inputs.x
      ? core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv, options)
      : core.attention(inputs.q, inputs.k, inputs.v, options);
    return { inputs, trace };
  },

  steps(scene, state) {
    return stepsFor(scene, state).map((id) => ({
      id,
      panels: (beside[id] ?? []).filter((p) => p !== "plot" || scene.plot),
      inStep: inside[id] ?? [],
    }));
  },

  labels: (scene, msg, trace, inputs) => labelsFor(scene, msg, trace, inputs),

  // The book's mask leaves 书's row as it was (书 comes last): under it, point at 读's.
  focusRow: (scene, state) =>
    state.causal && scene.maskFocusRow !== undefined ? scene.maskFocusRow : scene.focusRow,

  // On the inputs step the learner sees what they edit: the age scene's q before α.
  // After the inputs step, the age scene's Q is α·q, and its caption says so.
  view(stepId, { scene, state, trace, inputs, editable, labels }) {
    const view = stepView(stepId, {
      scene,
      trace,
      inputs: stepId === "inputs" ? { ...inputs, q: editable.q ?? inputs.q } : inputs,
      labels,
    });
    if (!scene.alpha || stepId === "inputs") return view;
    const caption = `Q = α·q, α = ${state.alpha}`;
    return { ...view, matrices: view.matrices.map((m) => (m.id === "q" ? { ...m, caption } : m)) };
  },

  text(stepId, { scene, state, msg, trace, inputs, labels }) {
    if (stepId === "inputs") return inputsText(scene, msg, labels, inputs);
    const words =
      stepId === "masked" && !causalOf(scene, state)
        ? msg.steps.masked.explicit
        : msg.steps[stepId].text;
    const d = (trace.q ?? inputs.q)[0].length;
    const text = typeof words === "function" ? words(d, fmt(trace.scale, state.digits)) : words;
    const more = [];
    if (stepId === "scores" && scene.alpha) more.push(msg.steps.scores.alpha(state.alpha));
    // a scene's own word on its mask: the book's row to look at, the apple's two sentences
    if (stepId === "masked" && msg.scenes[scene.id]?.maskNote) {
      more.push(msg.scenes[scene.id].maskNote);
    }
    return [text, ...more].join(" ");
  },

  highlights: (mid, i, j, { trace }) => highlights(mid, i, j, { trace }),

  derivation: (mid, i, j, { scene, state, msg, trace, inputs }) =>
    derivation(mid, i, j, {
      trace,
      inputs,
      msg,
      digits: state.digits,
      causal: causalOf(scene, state),
    }),

  worked: (mid, i, j, { state, trace, inputs }) =>
    worked(mid, i, j, { trace, inputs, digits: state.digits }),

  // Predict mode's question with choices, about the row of interest. Ties all count as right.
  question(stepId, { trace, labels, msg, focus, focusRow }) {
    const i = queryRow(focus, focusRow);
    const q = labels.queries[i];
    if (stepId === "scores") {
      return {
        text: msg.predict.largestScore(q),
        options: labels.keys,
        answer: leaders(trace.scores, i),
      };
    }
    if (stepId === "scaled") {
      const options = [msg.predict.yes, msg.predict.no];
      return { text: msg.predict.scaleOrder(q), options, answer: [trace.scale > 0 ? 1 : 0] };
    }
    if (stepId === "weights" && !trace.blockedRows.includes(i)) {
      return {
        text: msg.predict.mostWeight(q),
        options: labels.keys,
        answer: leaders(trace.weights, i),
      };
    }
    return undefined;
  },

  // "Copy as NumPy" and "Copy as PyTorch": the scene as a script, edits, α and mask included.
  script(kind, { scene, state, msg, trace, editable, labels }) {
    const mask = state.causal ? "causal" : scene.mask;
    return exportScript(
      kind,
      {
        title: msg.scenes[scene.id]?.title ?? scene.id,
        inputs: editable,
        alpha: scene.alpha ? state.alpha : undefined,
        mask,
        labels,
        trace,
        digits: state.digits,
      },
      msg.export,
    );
  },

  // "Download as a spreadsheet": every step as a sheet of live formulas (web/sheet-scene.js,
  // loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("../../sheet-scene.js")).sceneSheet(ctx, link),

  linkedShapes: {
    x: { rows: [["x", "rows"]], cols: features },
    wq: { rows: features, cols: dK("wq", "wk") },
    wk: { rows: features, cols: dK("wq", "wk") },
    wv: { rows: features, cols: [["wv", "cols"]] },
    q: { rows: [["q", "rows"]], cols: dK("q", "k") },
    k: { rows: keyRows, cols: dK("q", "k") },
    v: { rows: keyRows, cols: [["v", "cols"]] },
  },

  panels: {
    heatmap: heatmapPanel,
    lines: linesPanel,
    plot: plotPanel,
    result: resultView,
    spread: spreadNote,
    // What the scene's inputs mean, beside them.
    inputsNote: ({ msg, scene }) =>
      msg.scenes[scene.id].inputs &&
      el("p", { class: "inputs-note", text: msg.scenes[scene.id].inputs }),
    meaning: meaningPanel,
  },
};
