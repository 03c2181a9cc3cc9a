// labs/inside/gqa.js: lab 2 of "inside a model", "fewer key-value heads". Lab 1's layer with h_kv = 4, 2 and 1
// (grouped-query and multi-query attention): which query heads share a key-value head, how
// their weights change, and how much smaller the KV cache gets.
import { cellRef } from "../../format.js";
import { plain, derivationOf } from "../../derive.js";
import { el } from "../../views.js";
import { x as sceneX, layers, wk4, wv4 } from "./data.js";
import { matrix } from "../../steps.js";
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
const variants = { kv4: 4, kv2: 2, kv1: 1 };
const pooled = { wk: wk4, wv: wv4 };

export const gqaLab = {
  id: "gqa",
  core: "labs",
  words: insideWords,

  // A step's words may name other labs, by their names in the scene list.
  text(stepId, { msg }) {
    const words = msg.steps[stepId].text;
    return typeof words === "function" ? words((id) => msg.scenes[id].name) : words;
  },

  // Three layers, and for each the KV cache after decoding the five tokens.
  compute(core, scene, state) {
    const x = sentenceX(scene, state);
    const inputs = { x, layers };
    const trace = {};
    for (const hKv of [4, 2, 1]) {
      const options = { heads: H, kvHeads: hKv };
      const decoder = core.decoder(layers[hKv], options);
      for (const row of x) decoder.step(row);
      trace[hKv] = {
        ...core.multiHeadAttention(x, layers[hKv], options),
        cache: decoder.cache,
      };
    }
    return { inputs, trace };
  },

  steps: () => [
    { id: "kv4", panels: ["heatmaps"], inStep: ["groups"] },
    { id: "kv2", panels: ["heatmaps"], inStep: ["groups"] },
    { id: "kv1", panels: ["heatmaps"], inStep: ["groups"] },
    { id: "memory", panels: [] },
  ],

  view(stepId, { trace, inputs, msg }) {
    const features = featureNames(msg);
    if (stepId === "memory") {
      const rows = [4, 2, 1].map((hKv) => {
        const { width, k, v } = trace[hKv].cache;
        return [width, k.length, v.length];
      });
      return {
        focusMatrix: "cache",
        matrices: [
          matrix(
            "cache",
            msg.inside.cacheTitle,
            rows,
            [4, 2, 1].map(msg.inside.cacheRow),
            msg.inside.cacheCols,
            "result",
          ),
        ],
      };
    }
    const hKv = variants[stepId];
    const t = trace[hKv];
    const kvCols = headColumns(hKv, t.dHead);
    const layer = inputs.layers[hKv];
    return {
      focusMatrix: headId(0, "weights"),
      matrices: [
        matrix("wk", "W_K", layer.wk, features, kvCols),
        matrix("wv", "W_V", layer.wv, features, kvCols),
        matrix("k", "K = X·W_K", t.k, tokens, kvCols, "result"),
        ...t.heads.map((head, h) =>
          matrix(
            headId(h, "weights"),
            msg.inside.labels.weights(h + 1),
            head.weights,
            tokens,
            tokens,
            "result",
          ),
        ),
      ],
    };
  },

  highlights: (mid, i, j) => headHighlights(mid, i, j, H),

  derivation(mid, i, j, ctx) {
    const { trace, inputs, state, stepId, msg } = ctx;
    const digits = state.digits;
    if (stepId === "memory") {
      const hKv = [4, 2, 1][i];
      const { width, k, v } = trace[hKv].cache;
      const value = [width, k.length, v.length][j];
      const text =
        j === 0
          ? `h_kv·d_head = ${hKv} × ${trace[hKv].dHead} = ${value}`
          : `${j === 1 ? "K" : "V"} = ${tokens.length} × ${width} = ${value}`;
      return derivationOf([plain(text)]);
    }
    const hKv = variants[stepId];
    const t = trace[hKv];
    const head = headOf(H, mid);
    if (head) return headDerivation(t, head.head, head.mid, i, j, ctx);
    if (mid === "wk" || mid === "wv") {
      const value = inputs.layers[hKv][mid][i][j];
      const name = mid === "wk" ? "W_K" : "W_V";
      if (hKv === H)
        return derivationOf([plain(`${cellRef(name, i, j)} = ${value} (${msg.derive.input})`)]);
      // the mean of the group's heads in the four-head W_K (W_V), column by column
      const size = H / hKv;
      const d = t.dHead;
      const g = Math.floor(j / d);
      const members = Array.from(
        { length: size },
        (_, m) => pooled[mid][i][(g * size + m) * d + (j % d)],
      );
      return derivationOf([
        plain(msg.inside.poolLine(name, g + 1, g * size + 1, (g + 1) * size)),
        plain(`${cellRef(name, i, j)} = (${members.join(" + ")}) ÷ ${size} = ${value}`),
      ]);
    }
    if (mid === "k") {
      return derivationOf([
        productLine("K", i, j, {
          left: inputs.x,
          leftName: "X",
          right: inputs.layers[hKv].wk,
          rightName: "W_K",
          value: t.k[i][j],
          digits,
          msg,
        }),
      ]);
    }
    return derivationOf([]);
  },

  worked(mid, i, j, { trace, inputs, state, stepId }) {
    const t = trace[variants[stepId]];
    const head = headOf(H, mid);
    if (t && head) return headWorked(t, head.head, head.mid, i, j, state.digits);
    if (t && mid === "k")
      return productWorked(inputs.x, inputs.layers[variants[stepId]].wk, i, j, state.digits);
    return [];
  },

  // "Download as a spreadsheet": every step as a sheet of live formulas (./sheets.js, loaded
  // with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).gqaSheet(ctx, link),

  panels: {
    heatmaps: (ctx) =>
      ctx.stepId === "memory" ? undefined : headHeatmaps(ctx.trace[variants[ctx.stepId]], ctx),
    groups: ({ trace, stepId, msg }) => {
      const t = trace[variants[stepId]];
      const pairs = t.kvHead.map((g, h) => msg.inside.pair(h + 1, g + 1)).join(", ");
      return el("p", { class: "note", "data-groups": "", text: msg.inside.groups(pairs) });
    },
  },
};

export const gqaScene = {
  id: "gqa",
  source: "004-sentence",
  handMade: true,
  lab: gqaLab,
  inputs: { x: sceneX },
};

export default [gqaScene];
