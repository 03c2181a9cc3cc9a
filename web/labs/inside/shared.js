// labs/inside/shared.js: what the four model labs share: the
// written-out arithmetic of a projection, of a head's cell and of a rotation, and the heads'
// heatmaps side by side. Pure functions over the core's traces; no arithmetic on values.
import { fmt, cellRef, rowRef } from "../../format.js";
import { derivation as attentionDerivation, lighting, worked } from "../../steps.js";
import { line, bounds, products, plain, shownDot, derivationOf } from "../../derive.js";
import { el, heatmapView } from "../../views.js";
import { tokens, dims } from "./data.js";

export { tokens };

const column = (m, j) => m.map((row) => row[j]);

// The columns of a projection with h heads of d: "1.1", "1.2", "2.1" … (head.column)
export const headColumns = (h, d) =>
  Array.from({ length: h * d }, (_, c) => `${Math.floor(c / d) + 1}.${(c % d) + 1}`);

export const featureNames = (msg) => dims.map((d) => msg.inside.dims[d]);

/**
 * The X these labs run on: the learner's (a link's, an edit's) or the scene's. The labs are
 * about one sentence of tokens.length tokens with dims.length features, and their steps, row
 * names and shuffle follow it; an X of another shape is refused with an Error that says so
 * (words.js says it in Chinese).
 */
export function sentenceX(scene, state) {
  const x = state.edits?.x ?? scene.inputs.x;
  const n = tokens.length;
  const d = dims.length;
  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
  if (x.length !== n)
    throw new Error(`X has ${plural(x.length, "row")} but this lab's sentence has ${n} tokens`);
  const widths = new Set(x.map((row) => row.length));
  if (widths.size === 1 && !widths.has(d)) {
    throw new Error(
      `X has ${plural(x[0].length, "column")} but this lab's tokens have ${d} features`,
    );
  }
  const bad = x.findIndex((row) => row.length !== d);
  if (bad >= 0) {
    throw new Error(
      `X row ${bad + 1} has ${plural(x[bad].length, "number")} but this lab's tokens have ${d} features`,
    );
  }
  return x;
}

// name[i][j] = left[i] · column j of rightName = a×b + … = value
export function productLine(name, i, j, { left, leftName, right, rightName, value, digits, msg }) {
  const a = left[i];
  const b = column(right, j);
  const lhs = `${cellRef(name, i, j)} = ${rowRef(leftName, i)} · ${msg.derive.column(j + 1, rightName)} = `;
  return line(lhs, value, digits, bounds.dot(a, b), products(a, b));
}

// Per-head matrices are named "h2-weights": head 2's weights, one of a head's parts.
export const headId = (h, mid) => `h${h + 1}-${mid}`;
const headParts = ["q", "k", "v", "scores", "weights", "output"];

/**
 * The head and part { head, mid } of a per-head matrix among `heads` heads, found among the ids
 * headId gives them (an id is never parsed back); null for any other matrix.
 */
export function headOf(heads, id) {
  for (let h = 0; h < heads; h += 1) {
    const mid = headParts.find((part) => headId(h, part) === id);
    if (mid) return { head: h, mid };
  }
  return null;
}

/**
 * The arithmetic of cell (i, j) of head `head`'s matrix `mid` (q, k, v, scores, weights,
 * output): a line that says which columns the head reads, then the attention lab's own lines
 * on the head's trace.
 */
// `fromScores`: a weight's lines start from its score, q·k, where no table of the step shows it.
export function headDerivation(
  trace,
  head,
  mid,
  i,
  j,
  { msg, state, causal = false, fromScores = false },
) {
  const t = trace.heads[head];
  const d = trace.dHead;
  const g = trace.kvHead[head];
  const intro = plain(
    msg.inside.headLine(head + 1, g + 1, d * head + 1, d * (head + 1), g * d + 1, d * (g + 1)),
  );
  if (["q", "k", "v"].includes(mid)) {
    const offset = (mid === "q" ? head : g) * d;
    const whole = (trace[`${mid}Rotated`]?.rotated ?? trace[mid])[i][offset + j];
    const name = mid.toUpperCase();
    return derivationOf([
      intro,
      plain(
        `${cellRef(`${name}${head + 1}`, i, j)} = ${cellRef(name, i, offset + j)} = ${fmt(whole, state.digits)}`,
      ),
    ]);
  }
  const context = { trace: t, inputs: {}, msg, digits: state.digits, causal };
  const lines = [intro];
  if (mid === "weights" && !t.blockedRows.includes(i)) {
    if (fromScores) lines.push(...attentionDerivation("scores", i, j, context).lines);
    lines.push(...attentionDerivation("scaled", i, j, context).lines);
  }
  lines.push(...attentionDerivation(mid, i, j, context).lines);
  return derivationOf(lines);
}

/** The heads' weights as heatmaps side by side; `who` names each: "head 1 · key-value head 1". */
export function headHeatmaps(trace, { msg, state, rows = tokens, cols = tokens, title }) {
  return el(
    "div",
    { class: "head-heatmaps", style: { display: "flex", flexWrap: "wrap", gap: "0.75rem" } },
    trace.heads.map((head, h) =>
      heatmapView(head.weights, rows, cols, {
        digits: Math.min(state.digits, 2),
        title: title?.(h) ?? msg.inside.headTitle(h + 1, trace.kvHead[h] + 1),
        gloss: msg.gloss,
        legend: msg.views.legend,
        masked: head.masked && ((i, j) => head.masked[i][j] === -Infinity),
      }),
    ),
  );
}

// What lights up for a per-head cell of one of `heads` heads: the head's own operands.
export function headHighlights(mid, i, j, heads) {
  const parsed = headOf(heads, mid);
  const { h, add } = lighting();
  add(mid, "cells", [i, j]);
  if (!parsed) return h;
  const at = (name) => headId(parsed.head, name);
  if (parsed.mid === "scores") {
    add(at("q"), "rows", i);
    add(at("k"), "rows", j);
  } else if (parsed.mid === "weights") {
    add(at("scores"), "rows", i);
  } else if (parsed.mid === "output") {
    add(at("weights"), "rows", i);
    add(at("v"), "cols", j);
  }
  return h;
}

/** What left[i] · column j of right gives, worked from the operands as the tables show them. */
export const productWorked = (left, right, i, j, digits) => [
  shownDot(left[i], column(right, j), digits),
];

/** The same for a per-head cell: the attention lab's worked() on the head's own trace. */
export const headWorked = (trace, head, mid, i, j, digits) =>
  worked(mid, i, j, { trace: trace.heads[head], inputs: {}, digits });
