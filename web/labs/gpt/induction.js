// labs/gpt/induction.js: "An induction head forms". A transformer of the core's own, attention
// only, trained in this tab on sequences whose second half repeats the first (induction-run.js).
// The learner watches the repeated half's loss fall in a step while two heads form: one in layer
// 1 that looks at the previous token, one in layer 2 that looks at the token after the earlier
// copy of the current one; then reads both heads' weights at any kept step (every cell made as in
// the scenes: q·k, the scale, the causal mask, the softmax), and the circuit with its own numbers,
// token by token. With one layer, the same training does not find it.
import { cellRef, fmt } from "../../format.js";
import { plain, shownDot, derivationOf } from "../../derive.js";
import {
  derivation as attentionDerivation,
  highlights as attentionHighlights,
  lighting,
  matrix,
  worked as attentionWorked,
} from "../../steps.js";
import { el } from "../../views.js";
import { numbered, kitStyles } from "../kit.js";
import {
  every,
  held,
  heldOut,
  modelAt,
  runOf,
  scoresAt,
  shownStep,
  task,
  training,
  trainedTo,
} from "./induction-run.js";
import {
  circuitRows,
  copiesPanel,
  lossesPanel,
  scoresPanel,
  trainerPanel,
} from "./induction-panels.js";
import { inductionWords } from "./induction-words.js";

/** The 32 tokens' names: A to Z but K, Q and V (the keys, queries and values), then nine Greek
 * capitals (not Σ, the page's sum). */
export const symbols = [..."ABCDEFGHIJLMNOPRSTUWXYZΓΔΘΛΞΠΦΨΩ"];

/** How many of the held-out sequences the lab offers to look at. */
const offered = 8;

const headMatrices = new Set(["scaled", "masked", "weights"]);

// The two layers' weights side by side in step 3, by layer.
const layerWeights = ["weightsLayer1", "weightsLayer2"];

export const inductionLab = {
  id: "induction",
  styles: [kitStyles, "labs/gpt/style.css"],
  core: "labs",

  params: () => [
    {
      id: "layers",
      kind: "range",
      symbol: "L",
      min: 1,
      max: 2,
      step: 1,
      initial: 2,
      onSteps: ["learning", "stripes", "written", "circuit"],
    },
    {
      id: "sequence",
      kind: "range",
      symbol: "#",
      min: 1,
      max: offered,
      step: 1,
      initial: 1,
      onSteps: ["repeats", "stripes", "written", "circuit"],
    },
    // the slider stops at the last step kept; its initial value, the end, follows the training
    {
      id: "at",
      kind: "range",
      symbol: "t",
      min: 0,
      max: training.total,
      limit: (s) => trainedTo(s.layers),
      step: every,
      initial: training.total,
      onSteps: ["stripes", "written", "circuit"],
    },
    {
      id: "layer",
      kind: "range",
      symbol: "ℓ",
      min: 1,
      max: 2,
      limit: (s) => s.layers,
      step: 1,
      initial: 1,
      onSteps: ["written"],
    },
  ],

  compute(core, scene, state) {
    const T = task.context;
    const batch = heldOut(core);
    const n = state.sequence - 1;
    const tokens = batch.tokens.slice(n * T, (n + 1) * T);
    const targets = batch.targets.slice(n * T, (n + 1) * T);
    const m = batch.segments[n];
    const step = shownStep(state);
    const model = modelAt(core, state.layers, step);
    const forward = core.gptForward(model, tokens, { targets, precise: true });
    // each layer's one head again through the teaching path, which keeps every intermediate
    const heads = forward.layers.map((l) => core.attention(l.q, l.k, l.v, { causal: true }));
    const layer = Math.min(state.layer, state.layers) - 1;
    const { q, k, v } = forward.layers[layer];
    return {
      inputs: { q, k, v },
      trace: {
        tokens: [...tokens],
        targets: [...targets],
        m,
        symbols: [...tokens].map((t) => symbols[t]),
        // a table's rows and columns: each token after its position, as the text counts them
        rows: [...tokens].map((t, i) => `${i + 1} ${symbols[t]}`),
        forward,
        heads,
        layer,
        step,
        layers: state.layers,
        scores: scoresAt(core, state.layers, step),
      },
    };
  },

  steps: () => [
    { id: "repeats", panels: ["trainer"], lead: ["sequence"] },
    { id: "learning", panels: [], lead: ["trainer"], inStep: ["losses", "scores"] },
    { id: "stripes", panels: ["trainer"] },
    { id: "written", panels: ["trainer"] },
    { id: "circuit", panels: ["trainer"], inStep: ["copies"] },
  ],

  labels: (scene, msg, trace) => ({ queries: trace.rows, keys: trace.rows }),

  view(stepId, { trace, state, msg, inputs }) {
    const rows = trace.rows;
    const w = msg.induction;
    const at = w.at(trace.step);
    if (stepId === "stripes") {
      return {
        focusMatrix: null,
        matrices: trace.heads.map((head, l) => ({
          ...matrix(
            layerWeights[l],
            "weights",
            head.weights,
            rows,
            rows,
            "result",
            w.weightsOf(l + 1, at),
          ),
          heat: true,
        })),
      };
    }
    if (stepId === "written") {
      const where = w.layerName(trace.layer + 1, at);
      const head = trace.heads[trace.layer];
      const dims = numbered(inputs.q[0].length);
      return {
        focusMatrix: "weights",
        matrices: [
          matrix("q", "Q", inputs.q, rows, dims, "operand", `Q, ${where}`),
          matrix("k", "K", inputs.k, rows, dims, "operand", `K, ${where}`),
          matrix("scaled", "scaled", head.scaled, rows, rows, "operand", w.scaledCaption),
          matrix("masked", "masked", head.masked, rows, rows, "operand", w.maskedCaption),
          { ...matrix("weights", "weights", head.weights, rows, rows, "result"), heat: true },
        ],
      };
    }
    return { focusMatrix: null, matrices: [] };
  },

  derivation(mid, i, j, ctx) {
    const { trace, inputs, msg, state } = ctx;
    const d = state.digits;
    const w = msg.induction;
    const layer = layerWeights.indexOf(mid);
    if (layer >= 0) {
      const of = { trace: trace.heads[layer], inputs: trace.forward.layers[layer], msg, digits: d };
      return derivationOf([
        plain(w.inStep4(layer + 1)),
        ...attentionDerivation("weights", i, j, of).lines,
      ]);
    }
    if (mid === "q" || mid === "k") {
      const name = mid.toUpperCase();
      return derivationOf([
        plain(
          `${cellRef(name, i, j)} = ${fmt(inputs[mid][i][j], d)} (${w.fromModel(name, trace.layer + 1)})`,
        ),
      ]);
    }
    if (headMatrices.has(mid)) {
      const of = (id) =>
        attentionDerivation(id, i, j, { trace: trace.heads[trace.layer], inputs, msg, digits: d });
      // the table shows Q·Kᵀ/√d_head at once: the dot product's line first
      return mid === "scaled"
        ? derivationOf([...of("scores").lines, ...of("scaled").lines])
        : of(mid);
    }
    return derivationOf([]);
  },

  worked(mid, i, j, { trace, inputs, state }) {
    const d = state.digits;
    const layer = layerWeights.indexOf(mid);
    if (layer >= 0) {
      const of = { trace: trace.heads[layer], inputs: trace.forward.layers[layer], digits: d };
      return attentionWorked("weights", i, j, of);
    }
    if (!headMatrices.has(mid)) return [];
    const head = trace.heads[trace.layer];
    const worked = attentionWorked(mid, i, j, { trace: head, inputs, digits: d });
    // Q·Kᵀ/√d_head straight from the Q and K shown
    return mid === "scaled"
      ? [...worked, shownDot(inputs.q[i], inputs.k[j], d) * head.scale]
      : worked;
  },

  highlights(mid, i, j, ctx) {
    const { trace } = ctx;
    if (layerWeights.includes(mid)) {
      const { h, add } = lighting();
      add(mid, "cells", [i, j]);
      return h;
    }
    const h = attentionHighlights(mid, i, j, { trace: trace.heads[trace.layer] });
    if (mid === "scaled") {
      const { add } = lighting(h);
      (add("q", "rows", i), add("k", "rows", j));
    }
    return h;
  },

  text: (stepId, { msg, state, trace }) => {
    const w = msg.induction;
    const d = state.digits;
    const s = trace.scores;
    const last = trace.layers - 1;
    const lnV = Math.log(task.vocab);
    const [c, c2] = circuitRows(trace);
    // where the last head puts the most of its weight from a row of the circuit (position from 1)
    const weights = trace.heads[last].weights;
    const top = ({ at: i }) => {
      const row = weights[i - 1].slice(0, i);
      const j = row.indexOf(Math.max(...row));
      return { at: j + 1, weight: fmt(row[j], d) };
    };
    const two = runOf(2);
    return msg.steps[stepId].text({
      vocab: task.vocab,
      lnV: fmt(lnV, 2),
      m: trace.m,
      layers: trace.layers,
      held: held.batch,
      at: w.at(trace.step),
      first: fmt(s.firstLoss, d),
      // as shown: the first half's loss above ln 32 at the decimals of each
      above: Number(fmt(s.firstLoss, d)) > Number(fmt(lnV, 2)),
      trained: trace.step > 0,
      repeat: fmt(s.repeatLoss, d),
      share: fmt((100 * s.repeatLoss) / lnV, 0),
      previous: fmt(s.previous[0][0], d),
      induction: fmt(s.induction[last][0], d),
      where: w.layerName(trace.layer + 1, w.at(trace.step)),
      c: {
        ...c,
        previous: c.previous === undefined ? undefined : fmt(c.previous, d),
        induction: fmt(c.induction, d),
        p: fmt(c.p, d),
        top: top(c),
      },
      // the repeat's second token: whether the head's favourite place is the copy's next there too
      c2: { ...c2, induction: fmt(c2.induction, d), top: top(c2) },
      both: c.previous >= 0.5 && c.induction >= 0.5,
      // one layer beside two, when two have been trained here
      other:
        trace.layers === 1 && two?.last > 0
          ? {
              step: two.last,
              induction: fmt(two.scores.get(two.last).induction[1][0], d),
              one: fmt(s.induction[0][0], d),
            }
          : undefined,
    });
  },

  panels: {
    sequence: (ctx) => sequencePanel(ctx),
    trainer: trainerPanel,
    losses: lossesPanel,
    scores: scoresPanel,
    copies: copiesPanel,
  },

  words: inductionWords,
};

// The sequence shown, token by token: the segment, its repeat, and the random tokens after.
function sequencePanel({ trace, msg }) {
  const w = msg.induction;
  const m = trace.m;
  const part = (i) => (i < m ? "segment" : i < 2 * m ? "repeat" : "random");
  return sequenceView(trace.symbols, part, w);
}

function sequenceView(rows, part, w) {
  return el(
    "figure",
    { class: "induction-sequence" },
    el("figcaption", { text: w.sequenceTitle }),
    el(
      "ol",
      { class: "tokens" },
      rows.map((s, i) =>
        el(
          "li",
          { class: `token ${part(i)}`, "aria-label": w.tokenLabel(i + 1, s, w.parts[part(i)]) },
          el("span", { class: "position", text: String(i + 1) }),
          el("span", { class: "symbol", text: s }),
        ),
      ),
    ),
    el(
      "p",
      { class: "legend" },
      ["segment", "repeat", "random"].map((p) =>
        el("span", { class: `key ${p}`, text: w.parts[p] }),
      ),
    ),
  );
}

export default [{ id: "induction", lab: inductionLab, inputs: {} }];
