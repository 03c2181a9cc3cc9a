// ui/panels.js: the attention lab's panels beside a step: the weights as a heatmap, as lines
// from token to token, and the 2-d vector plot. Each takes the walkthrough's ctx and returns
// a node, or nothing when it has nothing to show. Drawing only: views.js does the DOM.
import { heatmapView, linesView, plotView } from "../views.js";
import { queryRow } from "../steps.js";

// The query row the panels follow: the picked cell's when its rows are queries, else the scene's.
const focusRowOf = ({ focus, focusRow }) => queryRow(focus, focusRow);

// The weights are a step's result: while the learner predicts them, here or at an earlier step
// not yet answered, they stay hidden; where they are given (the weighted sum's), they show.
export function heatmapPanel(ctx) {
  const { trace, labels, msg, state } = ctx;
  if (ctx.hidden?.("weights")) return undefined;
  return heatmapView(trace.weights, labels.queries, labels.keys, {
    digits: Math.min(state.digits, 3),
    title: msg.views.heatmap,
    focusRow: focusRowOf(ctx),
    masked: trace.masked && ((i, j) => trace.masked[i][j] === -Infinity),
    gloss: msg.gloss,
    legend: msg.views.legend,
  });
}

export function linesPanel(ctx) {
  const { trace, labels, msg } = ctx;
  if (ctx.hidden?.("weights")) return undefined;
  return linesView(trace.weights, labels.queries, labels.keys, {
    title: msg.views.lines,
    focusRow: focusRowOf(ctx),
    gloss: msg.gloss,
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
    // q·k is the scores' number: hidden only where the scores are
    hideScore: ctx.hidden?.("scores"),
  });
}
