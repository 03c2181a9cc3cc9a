// ui/panels.js: the attention lab's panels beside a step: the weights as a heatmap, as lines
// from token to token, and the 2-d vector plot. Each takes the walkthrough's ctx and returns
// a node, or nothing when it has nothing to show. Drawing only: views.js does the DOM.
import { heatmapView, linesView, plotView } from "../views.js";

// The matrices whose rows are queries.
const queryRows = [
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

// The query row the panels follow: the picked cell's when its rows are queries, else the scene's.
const focusRowOf = ({ focus, scene }) =>
  focus && queryRows.includes(focus.m) ? focus.i : (scene.focusRow ?? 0);

export function heatmapPanel(ctx) {
  const { trace, labels, msg, state } = ctx;
  return heatmapView(trace.weights, labels.queries, labels.keys, {
    digits: Math.min(state.digits, 3),
    title: msg.views.heatmap,
    focusRow: focusRowOf(ctx),
  });
}

export function linesPanel(ctx) {
  const { trace, labels, msg } = ctx;
  return linesView(trace.weights, labels.queries, labels.keys, {
    title: msg.views.lines,
    focusRow: focusRowOf(ctx),
  });
}

// Queries and keys as arrows, when they have two dimensions.
export function plotPanel(ctx) {
  const { trace, inputs, labels, msg, state, focus } = ctx;
  const q = trace.q ?? inputs.q;
  const k = trace.k ?? inputs.k;
  if (q[0].length !== 2) return undefined;
  const pair =
    focus && ["scores", "scaled", "masked", "weights", "exp"].includes(focus.m)
      ? focus
      : { i: focusRowOf(ctx), j: 0 };
  return plotView(q, k, labels.queries, labels.keys, {
    focus: pair,
    score: trace.scores[pair.i][pair.j],
    digits: state.digits,
    title: msg.views.plot,
    note: msg.views.plotNote,
  });
}
