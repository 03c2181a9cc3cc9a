// labs/inside/heads.js: lab 1 of "inside a model", "heads see different things". Four heads of d_head = 2 on
// 我在图书馆读书: one finds who does what to what, one the previous token, one the verb and
// the place, one spreads evenly. Steps: the inputs, the projections, each head's scores and
// weights, the concatenation, and W_O.
import { cellRef, fmt } from "../../format.js";
import { plain, derivationOf } from "../../derive.js";
import { el } from "../../views.js";
import { sceneLink } from "../../ui/scene-list.js";
import { x, layers } from "./data.js";
import { lighting, matrix } from "../../steps.js";
import { numbered, kitStyles } from "../kit.js";
import {
  tokens,
  headColumns,
  featureNames,
  sentenceX,
  productLine,
  headId,
  headOf,
  headDerivation,
  headHeatmaps,
  headHighlights,
  headWorked,
  productWorked,
} from "./shared.js";
import { insideWords } from "./words.js";

const H = 4;

// Why more than one head, from the weights on the page: the first token that gives more than
// half of one head's row to one token and more than half of another head's row to another (what
// one row, which adds up to 1, cannot do), said with its numbers; or, without one, the reason
// alone.
function oneHead({ trace, msg, state }) {
  const w = msg.inside;
  const d = Math.min(state.digits, 3);
  const top = (h, i) => {
    const row = trace.heads[h].weights[i];
    const j = row.indexOf(Math.max(...row));
    return { head: h + 1, key: tokens[j], j, weight: row[j] };
  };
  for (let i = 0; i < tokens.length; i++) {
    for (let a = 0; a < H; a++) {
      for (let b = a + 1; b < H; b++) {
        const [x, y] = [top(a, i), top(b, i)];
        if (x.j !== y.j && x.weight > 0.5 && y.weight > 0.5) {
          const said = (t) => ({ ...t, weight: fmt(t.weight, d) });
          return w.oneHead(tokens[i], said(x), said(y), H);
        }
      }
    }
  }
  return w.oneHeadOnly(H);
}

export const headsLab = {
  id: "heads",
  styles: [kitStyles],
  core: "labs",
  words: insideWords,

  compute(core, scene, state) {
    const inputs = { x: sentenceX(scene, state), ...layers[4] };
    const trace = core.multiHeadAttention(inputs.x, inputs, {
      heads: H,
    });
    return { inputs, trace };
  },

  steps: () => [
    { id: "inputs", panels: [], inStep: ["positionsNote"] },
    { id: "projections", panels: [] },
    { id: "headScores", panels: [] },
    { id: "headWeights", panels: ["heatmaps"], inStep: ["oneHead"] },
    { id: "concat", panels: ["heatmaps"] },
    { id: "combine", panels: [] },
  ],

  view(stepId, { trace, inputs, msg }) {
    const features = featureNames(msg);
    const cols = headColumns(H, trace.dHead);
    const kvCols = headColumns(trace.hKv, trace.dHead);
    const perHead = (mid, label, rows, colLabels, role) =>
      trace.heads.map((t, h) =>
        matrix(headId(h, mid), label(h + 1), t[mid], rows, colLabels, role),
      );
    switch (stepId) {
      case "inputs":
        return {
          focusMatrix: null,
          matrices: [
            matrix("x", "X", inputs.x, tokens, features, "input"),
            matrix("wq", "W_Q", inputs.wq, features, cols),
            matrix("wk", "W_K", inputs.wk, features, kvCols),
            matrix("wv", "W_V", inputs.wv, features, kvCols),
            matrix("wo", "W_O", inputs.wo, cols, features),
          ],
        };
      case "projections":
        return {
          focusMatrix: "q",
          matrices: [
            matrix("x", "X", inputs.x, tokens, features, "input"),
            matrix("q", "Q = X·W_Q", trace.q, tokens, cols, "result"),
            matrix("k", "K = X·W_K", trace.k, tokens, kvCols, "result"),
            matrix("v", "V = X·W_V", trace.v, tokens, kvCols, "result"),
          ],
        };
      case "headScores":
        return {
          focusMatrix: headId(0, "scores"),
          matrices: perHead("scores", msg.inside.labels.scores, tokens, tokens, "result"),
        };
      case "headWeights":
        return {
          focusMatrix: headId(0, "weights"),
          matrices: perHead("weights", msg.inside.labels.weights, tokens, tokens, "result"),
        };
      case "concat":
        return {
          focusMatrix: "concat",
          matrices: [
            ...perHead(
              "output",
              msg.inside.labels.output,
              tokens,
              numbered(trace.dHead),
              "operand",
            ),
            matrix("concat", "concat", trace.concat, tokens, cols, "result"),
          ],
        };
      case "combine":
        return {
          focusMatrix: "output",
          matrices: [
            matrix("concat", "concat", trace.concat, tokens, cols),
            matrix("wo", "W_O", inputs.wo, cols, features),
            matrix("output", "output = concat·W_O", trace.output, tokens, features, "result"),
          ],
        };
      default:
        throw new Error(`unknown step ${stepId}`);
    }
  },

  highlights(mid, i, j, { trace }) {
    const { h, add } = lighting(headHighlights(mid, i, j, trace.heads.length));
    if (["q", "k", "v"].includes(mid)) {
      add("x", "rows", i);
      add(`w${mid}`, "cols", j);
    }
    if (mid === "concat")
      add(headId(Math.floor(j / trace.dHead), "output"), "cells", [i, j % trace.dHead]);
    if (mid === "output") {
      add("concat", "rows", i);
      add("wo", "cols", j);
    }
    return h;
  },

  derivation(mid, i, j, ctx) {
    const { trace, inputs, state, msg } = ctx;
    const digits = state.digits;
    const head = headOf(trace.heads.length, mid);
    if (head) return headDerivation(trace, head.head, head.mid, i, j, ctx);
    const names = { x: "X", wq: "W_Q", wk: "W_K", wv: "W_V", wo: "W_O" };
    if (names[mid])
      return derivationOf([
        plain(`${cellRef(names[mid], i, j)} = ${inputs[mid][i][j]} (${msg.derive.input})`),
      ]);
    if (["q", "k", "v"].includes(mid)) {
      const name = mid.toUpperCase();
      return derivationOf([
        productLine(name, i, j, {
          left: inputs.x,
          leftName: "X",
          right: inputs[`w${mid}`],
          rightName: `W_${name}`,
          value: trace[mid][i][j],
          digits,
          msg,
        }),
      ]);
    }
    if (mid === "concat") {
      const h = Math.floor(j / trace.dHead);
      const c = j % trace.dHead;
      return derivationOf([
        plain(
          msg.inside.concatLine(cellRef("concat", i, j), h + 1, cellRef(`output${h + 1}`, i, c)),
        ),
        ...headDerivation(trace, h, "output", i, c, ctx).lines.slice(1),
      ]);
    }
    if (mid === "output") {
      return derivationOf([
        productLine("output", i, j, {
          left: trace.concat,
          leftName: "concat",
          right: inputs.wo,
          rightName: "W_O",
          value: trace.output[i][j],
          digits,
          msg,
        }),
      ]);
    }
    return derivationOf([]);
  },

  // What a learner gets working a cell out from the numbers as the tables show them.
  worked(mid, i, j, { trace, inputs, state }) {
    const head = headOf(trace.heads.length, mid);
    if (head) return headWorked(trace, head.head, head.mid, i, j, state.digits);
    if (["q", "k", "v"].includes(mid))
      return productWorked(inputs.x, inputs[`w${mid}`], i, j, state.digits);
    if (mid === "concat") {
      return headWorked(
        trace,
        Math.floor(j / trace.dHead),
        "output",
        i,
        j % trace.dHead,
        state.digits,
      );
    }
    if (mid === "output") return productWorked(trace.concat, inputs.wo, i, j, state.digits);
    return [];
  },

  // "Download as a spreadsheet": every step as a sheet of live formulas (./sheets.js, loaded
  // with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).headsSheet(ctx, link),

  panels: {
    heatmaps: (ctx) => headHeatmaps(ctx.trace, ctx),
    oneHead: (ctx) => el("p", { class: "note", "data-one-head": "" }, oneHead(ctx)),
    // The word-order lab by its scene-list name: a link where the walkthrough offers it.
    positionsNote: (ctx) => {
      const [before, after] = ctx.msg.inside.positionsSee;
      return el(
        "p",
        { class: "note" },
        `${ctx.msg.inside.positionsNote}${before}`,
        sceneLink(ctx, "order"),
        after,
      );
    },
  },
};

export const headsScene = {
  id: "heads",
  source: "004-sentence",
  handMade: true,
  lab: headsLab,
  inputs: { x },
};

export default [headsScene];
