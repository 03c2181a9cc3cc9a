// labs/inside/kvcache.js: lab 3 of "inside a model", "decoding with a KV cache". The grouped-query
// layer of lab 2 (h = 4, h_kv = 2) decodes 我在图书馆读书 one token per step: the cache grows a
// row, the new query attends to every cached key, and a counter, right after the step's words,
// sets the step's multiply-adds beside a full recompute's. The last step sets the cached rows
// beside the full causal pass.
import { cellRef } from "../../format.js";
import { plain, derivationOf } from "../../derive.js";
import { el } from "../../views.js";
import { x, layers } from "./data.js";
import { lighting, matrix } from "../../steps.js";
import {
  tokens,
  headColumns,
  featureNames,
  sentenceX,
  productLine,
  headId,
  headOf,
  headDerivation,
  headHighlights,
  headWorked,
  productWorked,
} from "./shared.js";
import { insideWords } from "./words.js";

const options = { heads: 4, kvHeads: 2 };
const layer = layers[2];

// The cost lines of a step: [part, formula, value], every value from the core.
export function costLines(step, trace, f) {
  const d = x[0].length;
  const n = step.position + 1;
  const { h, hKv, dHead } = trace;
  const per = step.cost.projections;
  return {
    step: [
      ["projections", f.projections(d, h, hKv, dHead), step.cost.projections],
      ["scores", f.scores(h, n, dHead), step.cost.scores],
      ["weightedSum", f.scores(h, n, dHead), step.cost.weightedSum],
      ["output", f.output(h, dHead, d), step.cost.output],
    ],
    full: [
      ["projections", f.fullProjections(n, per), step.full.projections],
      ["scores", f.fullScores(h, n, dHead), step.full.scores],
      ["weightedSum", f.fullScores(h, n, dHead), step.full.weightedSum],
      ["output", f.fullOutput(n, step.cost.output), step.full.output],
    ],
  };
}

function counter({ trace, step: { token }, msg }) {
  if (token === undefined) return undefined;
  const step = trace.steps[token];
  const lines = costLines(step, step.trace, msg.inside.costFormulas);
  const parts = Object.fromEntries(
    ["projections", "scores", "weightedSum", "output"].map((k, i) => [k, msg.inside.costParts[i]]),
  );
  const list = (rows, cost) =>
    el(
      "ul",
      {},
      rows.map(([part, formula, value]) =>
        el(
          "li",
          {},
          `${parts[part]}: `,
          el("code", { "data-cost": "", text: `${formula} = ${value}` }),
        ),
      ),
      el(
        "li",
        {},
        `${msg.inside.costParts[4]}: `,
        el("code", {
          "data-cost": "",
          text: `${rows.map((r) => r[2]).join(" + ")} = ${cost.total}`,
        }),
      ),
    );
  const n = step.position + 1;
  // the step's count and a full recompute's, side by side where the column is wide enough
  return el(
    "figure",
    { class: "counter", "data-counter": "" },
    el("figcaption", { text: msg.inside.counter }),
    el("p", {
      class: "factors",
      text: msg.inside.factors(x[0].length, step.trace.h, step.trace.hKv, step.trace.dHead, n),
    }),
    el(
      "div",
      { class: "counter-columns" },
      el("div", {}, el("p", { text: msg.inside.stepCost }), list(lines.step, step.cost)),
      el("div", {}, el("p", { text: msg.inside.fullCost(n) }), list(lines.full, step.full)),
    ),
    el("p", { class: "note", text: msg.inside.pairsNote(n) }),
  );
}

export const kvcacheLab = {
  id: "kvcache",
  core: "labs",
  styles: ["labs/inside/style.css"],
  words: insideWords,

  // Every step of the decoder, and the full causal pass over the same tokens.
  compute(core, scene, state) {
    const decoder = core.decoder(layer, options);
    const x = sentenceX(scene, state);
    const steps = x.map((row) => decoder.step(row));
    const full = core.multiHeadAttention(x, layer, { ...options, causal: true });
    return { inputs: { x, ...layer }, trace: { steps, full } };
  },

  steps: () => [
    // a step per token, `token` its index from 0; then the causal comparison
    // the counter the step's words name comes right after them, before the tables
    ...tokens.map((_, t) => ({ id: `token${t + 1}`, token: t, panels: [], lead: ["counter"] })),
    { id: "causal", panels: [], inStep: ["padNote"] },
  ],

  view(stepId, { trace, inputs, msg, step: { token } }) {
    const features = featureNames(msg);
    if (token !== undefined) {
      const t = token + 1;
      const step = trace.steps[t - 1];
      const st = step.trace;
      const seen = tokens.slice(0, t);
      const kvCols = headColumns(st.hKv, st.dHead);
      const cols = headColumns(st.h, st.dHead);
      // The cache's rows: those of earlier steps are kept (given), the last one is new.
      const rows = (data) =>
        Array.from({ length: step.cache.length }, (_, i) =>
          Array.from(data.subarray(i * step.cache.width, (i + 1) * step.cache.width)),
        );
      const cache = (id, label, data) => ({
        ...matrix(id, label, rows(data), seen, kvCols, "result"),
        knownRows: t - 1,
      });
      return {
        focusMatrix: headId(0, "weights"),
        matrices: [
          matrix("x", `X[${t}]`, [inputs.x[t - 1]], [tokens[t - 1]], features),
          matrix("wq", "W_Q", inputs.wq, features, cols),
          matrix("wk", "W_K", inputs.wk, features, kvCols),
          matrix("wv", "W_V", inputs.wv, features, kvCols),
          matrix("q", "q = X[t]·W_Q", st.q, [tokens[t - 1]], cols, "result"),
          cache("kcache", msg.inside.labels.kCache, step.cache.k),
          cache("vcache", msg.inside.labels.vCache, step.cache.v),
          ...st.heads.map((head, h) =>
            matrix(
              headId(h, "weights"),
              msg.inside.labels.weights(h + 1),
              head.weights,
              [tokens[t - 1]],
              seen,
              "result",
            ),
          ),
          matrix("concat", "concat", st.concat, [tokens[t - 1]], cols, "result"),
          matrix("wo", "W_O", inputs.wo, cols, features),
          matrix(
            "output",
            msg.inside.labels.stepOutput,
            st.output,
            [tokens[t - 1]],
            features,
            "result",
          ),
        ],
      };
    }
    const cached = trace.steps.map((s) =>
      tokens.map((_, j) => s.trace.heads[0].weights[0][j] ?? 0),
    );
    return {
      focusMatrix: "cached",
      matrices: [
        matrix(
          headId(0, "weights"),
          msg.inside.labels.causalWeights,
          trace.full.heads[0].weights,
          tokens,
          tokens,
        ),
        matrix("cached", msg.inside.labels.cachedWeights, cached, tokens, tokens, "result"),
        matrix("fullout", msg.inside.labels.causalOutput, trace.full.output, tokens, features),
        matrix(
          "cachedout",
          msg.inside.labels.cachedOutput,
          trace.steps.map((s) => s.output),
          tokens,
          features,
          "result",
        ),
      ],
    };
  },

  highlights(mid, i, j, { stepId, step: { token } }) {
    const { h, add } = lighting(headHighlights(mid, i, j, options.heads));
    if (token !== undefined) {
      const weights = { q: "wq", kcache: "wk", vcache: "wv", output: "wo" }[mid];
      if (weights) add(weights, "cols", j);
      if (mid === "q") add("x", "rows", 0);
      if (mid === "output") add("concat", "rows", 0);
    }
    if (stepId === "causal") {
      const other = { cached: headId(0, "weights"), cachedout: "fullout" }[mid];
      if (other) h[other] = { rows: [], cols: [], cells: [[i, j]] };
    }
    return h;
  },

  derivation(mid, i, j, ctx) {
    const { trace, inputs, state, msg } = ctx;
    const { token } = ctx.step;
    const digits = state.digits;
    if (token === undefined) {
      // the causal step
      if (mid === headId(0, "weights"))
        return headDerivation(trace.full, 0, "weights", i, j, { ...ctx, causal: true });
      if (mid === "cached") {
        if (j > i)
          return derivationOf([plain(`${cellRef("cached", i, j)} = 0 (${msg.inside.notArrived})`)]);
        const d = headDerivation(trace.steps[i].trace, 0, "weights", 0, j, ctx);
        return derivationOf([plain(msg.inside.stepRow(i + 1)), ...d.lines]);
      }
      const t = mid === "fullout" ? trace.full : trace.steps[i].trace;
      return derivationOf([
        productLine("output", mid === "fullout" ? i : 0, j, {
          left: t.concat,
          leftName: "concat",
          right: inputs.wo,
          rightName: "W_O",
          value: mid === "fullout" ? t.output[i][j] : t.output[0][j],
          digits,
          msg,
        }),
      ]);
    }
    const t = token;
    const step = trace.steps[t];
    const st = step.trace;
    const head = headOf(options.heads, mid);
    if (head) return headDerivation(st, head.head, head.mid, i, j, ctx);
    const product = (name, row, right, rightName, value) =>
      derivationOf([
        productLine(name, row, j, {
          left: inputs.x,
          leftName: "X",
          right,
          rightName,
          value,
          digits,
          msg,
        }),
      ]);
    const names = { wq: "W_Q", wk: "W_K", wv: "W_V", wo: "W_O" };
    if (names[mid])
      return derivationOf([
        plain(`${cellRef(names[mid], i, j)} = ${inputs[mid][i][j]} (${msg.derive.input})`),
      ]);
    switch (mid) {
      case "x":
        return derivationOf([
          plain(`${cellRef("X", t, j)} = ${inputs.x[t][j]} (${msg.derive.input})`),
        ]);
      case "q":
        return product("q", t, inputs.wq, "W_Q", st.q[0][j]);
      case "kcache":
      case "vcache": {
        const cache = mid === "kcache" ? step.cache.k : step.cache.v;
        const value = cache[i * step.cache.width + j];
        const note = plain(i === t ? msg.inside.newRow : msg.inside.cachedAt(i + 1));
        const d = product(
          mid === "kcache" ? "K" : "V",
          i,
          mid === "kcache" ? inputs.wk : inputs.wv,
          mid === "kcache" ? "W_K" : "W_V",
          value,
        );
        return derivationOf([note, ...d.lines]);
      }
      case "concat": {
        const h = Math.floor(j / st.dHead);
        return derivationOf(headDerivation(st, h, "output", 0, j % st.dHead, ctx).lines);
      }
      case "output":
        return derivationOf([
          productLine("output", 0, j, {
            left: st.concat,
            leftName: "concat",
            right: inputs.wo,
            rightName: "W_O",
            value: st.output[0][j],
            digits,
            msg,
          }),
        ]);
      default:
        return derivationOf([]);
    }
  },

  text(stepId, { msg, step: { token } }) {
    return token !== undefined
      ? msg.inside.tokenText(token + 1, tokens[token])
      : msg.steps[stepId].text;
  },

  worked(mid, i, j, { trace, inputs, state, step: { token } }) {
    const digits = state.digits;
    const head = headOf(options.heads, mid);
    if (token === undefined) {
      if (mid === headId(0, "weights")) return headWorked(trace.full, 0, "weights", i, j, digits);
      if (mid === "cached")
        return j > i ? [] : headWorked(trace.steps[i].trace, 0, "weights", 0, j, digits);
      if (mid === "fullout") return productWorked(trace.full.concat, inputs.wo, i, j, digits);
      return productWorked(trace.steps[i].trace.concat, inputs.wo, 0, j, digits);
    }
    const t = token;
    const st = trace.steps[t].trace;
    if (head) return headWorked(st, head.head, head.mid, i, j, digits);
    if (mid === "q") return productWorked(inputs.x, inputs.wq, t, j, digits);
    if (mid === "kcache") return productWorked(inputs.x, inputs.wk, i, j, digits);
    if (mid === "vcache") return productWorked(inputs.x, inputs.wv, i, j, digits);
    if (mid === "concat")
      return headWorked(st, Math.floor(j / st.dHead), "output", 0, j % st.dHead, digits);
    if (mid === "output") return productWorked(st.concat, inputs.wo, 0, j, digits);
    return [];
  },

  // "Download as a spreadsheet": every step as a sheet of live formulas (./sheets.js, loaded
  // with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).kvcacheSheet(ctx, link),

  panels: {
    counter,
    padNote: ({ msg }) => el("p", { class: "note", text: msg.inside.cachedPad }),
  },
};

export const kvcacheScene = {
  id: "kvcache",
  source: "004-sentence",
  handMade: true,
  lab: kvcacheLab,
  inputs: { x },
};

export default [kvcacheScene];
