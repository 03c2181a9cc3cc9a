// labs/real/sizes.js: lesson 6's last lab, "the sizes of real models". The published
// configurations of GPT-2, Llama 3 8B, Qwen2.5 7B and Qwen3 8B (models.js, each cited) beside
// this project's Tang model and induction model; from them the core's model_size
// (src/sizes.hpp): the parameters by part, the KV cache's bytes, one token's multiply-adds at a
// context n the learner picks, counted with the KV-cache lab's formula. Then one head of a real
// size (d_head 128, n keys, random inputs) timed by the core on the learner's machine, alone and
// as many times as a 7B model runs it for one token.
import { el } from "../../views.js";
import { matrix } from "../../steps.js";
import { derivationOf, plain } from "../../derive.js";
import { random } from "../../random.js";
import { kitStyles } from "../kit.js";
import { readConfig } from "../gpt/files.js";
import { configOf } from "../gpt/induction-run.js";
import { ourShape, published } from "./models.js";
import { sizesWords } from "./sizes-words.js";

/** The contexts the learner may pick. */
export const contexts = [256, 1024, 4096, 8192, 32768];

let tang; // the Tang model's tang.json, once the lab has loaded

/** The rows: this project's two models, then the published ones. */
export function modelsShown() {
  return [
    { id: "tang", name: "Tang", source: "labs/gpt/tang.json", shape: ourShape(tang.config) },
    {
      id: "induction",
      name: "Induction",
      source: "labs/gpt/induction-run.js (configOf(2))",
      shape: ourShape(configOf(2)),
    },
    ...published,
  ];
}

// the shape's columns (step 1), the parameters' (step 2), the KV cache's (3), a token's (4)
const shapeColumns = ["dModel", "layers", "heads", "kvHeads", "dHead", "dFf", "context", "vocab"];
const parameterColumns = [
  "embedding",
  "positions",
  "attention",
  "mlp",
  "norms",
  "unembedding",
  "total",
  "attentionShare",
];
const kvColumns = ["kvValuesPerToken", "kvBytesPerToken", "kvBytesContext", "kvBytesAt", "kvSaved"];
const tokenColumns = [
  "attentionLayer",
  "attentionToken",
  "scoresToken",
  "mlpToken",
  "unembedToken",
  "token",
];

const cell = (row, column) =>
  column === "attentionLayer" ? row.size.attentionLayer.total : row.size[column];

const tableOf = (trace, columns, of = cell) =>
  trace.rows.map((row) => columns.map((c) => of(row, c)));

// ---- the timed head: one query against n keys of d_head 128, by the core's fast kernel ----

/** The 7B model whose heads the timing multiplies out to: Qwen2.5 7B. */
const seven = published.find((m) => m.id === "qwen25");
const dHead = 128;
/** The most keys the core's attentionBatched takes (its kMaxDim, a matrix's longest side). */
export const timedLongest = 8192;
let run = null; // the measurement in progress: { n, ctx }

const pause = () => new Promise((done) => setTimeout(done));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// One head at context n, then the layers × heads calls of one token of the 7B model, a layer's
// heads at a time between frames. Every figure is performance.now() around the core's calls.
async function measure(core, n, mine) {
  const next = random(11);
  const data = (rows) => Float32Array.from({ length: rows * dHead }, () => next() * 2 - 1);
  const [q, k, v] = [data(1), data(n), data(n)];
  const shape = { batch: 1, heads: 1, nQ: 1, nK: n, dK: dHead, dV: dHead };
  const call = () => core.attentionBatched(q, k, v, shape, { weights: false, causal: false });
  call(); // the first call compiles and warms the caches
  const singles = [];
  for (let s = 0; s < 15; s++) {
    const t = performance.now();
    call();
    singles.push(performance.now() - t);
  }
  await pause();
  if (run !== mine) return null;
  const { layers, heads } = seven.shape;
  let token = 0;
  for (let layer = 0; layer < layers; layer++) {
    const t = performance.now();
    for (let h = 0; h < heads; h++) call();
    token += performance.now() - t;
    await pause();
    if (run !== mine) return null;
  }
  return { n, head: median(singles), token, calls: layers * heads };
}

const ms = (t) => (t < 1 ? t.toFixed(3) : t < 100 ? t.toFixed(2) : t.toFixed(0));

function timedPanel(ctx) {
  const { msg, state, update } = ctx;
  const w = msg.sizesLab;
  if (run) run.ctx = ctx;
  const timed = state.timed?.n === state.n ? state.timed : null;
  const tooLong = state.n > timedLongest;
  const start = () => {
    const mine = { ctx };
    run = mine;
    update({ timed: null });
    measure(ctx.core, state.n, mine)
      .catch((error) => ({ n: state.n, error: String(error.message ?? error) }))
      .then((result) => {
        if (run !== mine) return;
        run = null;
        mine.ctx.update({ timed: result });
      });
  };
  return el(
    "section",
    { class: "sizes-timed", "data-timed": "" },
    el(
      "p",
      {},
      el("button", {
        type: "button",
        id: "sizes-measure",
        text: run ? w.stop : w.measure(state.n),
        disabled: tooLong && !run,
        onclick: () => (run ? ((run = null), update({ timed: null })) : start()),
      }),
      " ",
      el("span", { "aria-live": "polite", text: run ? w.measuring : "" }),
    ),
    tooLong && !run
      ? el("p", { class: "hint", id: "sizes-too-long", text: w.tooLong(state.n, timedLongest) })
      : timed?.error
        ? el("p", {
            class: "inline-error",
            role: "alert",
            id: "sizes-timed-error",
            text: w.failed(timed.error),
          })
        : timed
          ? el(
              "ul",
              { id: "sizes-times" },
              el("li", { id: "sizes-head-time", text: w.headTime(timed.n, ms(timed.head)) }),
              el("li", {
                id: "sizes-token-time",
                text: w.tokenTime(
                  seven.name,
                  seven.shape.layers,
                  seven.shape.heads,
                  timed.calls,
                  ms(timed.token),
                  ms(timed.token / timed.calls),
                ),
              }),
            )
          : el("p", { class: "hint", text: w.notTimed }),
    el("p", { class: "note", text: w.assumptions(seven.name, seven.shape.kvHeads) }),
  );
}

export const sizesLab = {
  id: "sizes",
  core: "labs",
  styles: [kitStyles, "labs/real/style.css"],
  words: sizesWords,

  async load() {
    tang ??= await readConfig();
  },

  params: () => [
    {
      id: "n",
      kind: "range",
      symbol: "n",
      values: contexts,
      initial: 4096,
      onSteps: ["kvcache", "token", "timed"],
    },
  ],

  compute(core, scene, state) {
    const rows = modelsShown().map((m) => ({
      ...m,
      size: core.modelSize(m.shape, { n: state.n }),
    }));
    // the end of the path's recap (ui/recap.js): the Tang model beside Llama 3 8B
    const facts = ({ name, shape, size }) => ({ name, ...shape, total: size.total });
    const [ours, big] = ["tang", "llama3"].map((id) => facts(rows.find((r) => r.id === id)));
    return { inputs: {}, trace: { n: state.n, rows, recap: { ours, big } } };
  },

  steps: () => [
    { id: "shapes", panels: [] },
    { id: "parameters", panels: [] },
    { id: "kvcache", panels: [] },
    { id: "token", panels: [] },
    { id: "timed", panels: [], inStep: ["timed"] },
  ],

  text(stepId, { trace, msg }) {
    const w = msg.sizesLab;
    const row = (id) => trace.rows.find((r) => r.id === id);
    return w.text[stepId]({
      tang: row("tang"),
      llama: row("llama3"),
      qwen: row("qwen25"),
      gpt2: row("gpt2"),
      n: trace.n,
    });
  },

  view(stepId, { trace, msg }) {
    const w = msg.sizesLab;
    const names = trace.rows.map((r) => w.names[r.id]);
    const table = (id, columns, of) =>
      matrix(
        id,
        w.tables[id],
        tableOf(trace, columns, of),
        names,
        columns.map((c) => w.columns[c]),
        "result",
      );
    switch (stepId) {
      case "shapes":
        return {
          focusMatrix: "shapes",
          matrices: [
            matrix(
              "shapes",
              w.tables.shapes,
              tableOf(trace, shapeColumns, (r, c) => r.shape[c]),
              names,
              shapeColumns.map((c) => w.columns[c]),
              "operand",
            ),
          ],
        };
      case "parameters":
        return { focusMatrix: "parameters", matrices: [table("parameters", parameterColumns)] };
      case "kvcache":
        return { focusMatrix: "kvcache", matrices: [table("kvcache", kvColumns)] };
      default:
        return { focusMatrix: "token", matrices: [table("token", tokenColumns)] };
    }
  },

  derivation(mid, i, j, { trace, msg, state }) {
    const w = msg.sizesLab;
    const row = trace.rows[i];
    const columns = {
      shapes: shapeColumns,
      parameters: parameterColumns,
      kvcache: kvColumns,
      token: tokenColumns,
    }[mid];
    if (!columns) return derivationOf([]);
    const lines = w.derive[columns[j]](row.shape, row.size, {
      digits: state.digits,
      n: trace.n,
      name: w.names[row.id],
      source: row.source,
    });
    return derivationOf(lines.map(plain));
  },

  panels: { timed: timedPanel },
};

export default [{ id: "sizes", lab: sizesLab, inputs: {} }];
