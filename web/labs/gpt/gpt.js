// labs/gpt/gpt.js: "A real model". A small transformer trained by the core on 唐诗三百首
// (and, for more text, the package's Song poems and classical quotations: tools/train.cpp) runs on
// the learner's line: every layer's and head's attention over its characters, one head written
// out as in the scenes (its q and k from the model, then q·k, the scale, the causal mask and
// the softmax, by the core's teaching path), the next character's top five, a generated line,
// and the same training again in the tab (train.js). Beside them: what the named heads help to
// predict (helps.js), the top five in English (glosses.js), and what the loss means (meaning.js).
// The weights and their descriptions load when the lab opens.
import { cellRef, fmt } from "../../format.js";
import { line, plain, roundingOf, shownAt, shownDot, derivationOf } from "../../derive.js";
import {
  derivation as attentionDerivation,
  highlights as attentionHighlights,
  lighting,
  matrix,
  worked as attentionWorked,
} from "../../steps.js";
import { charOf, gptEncode, readOf } from "../../tokens.js";
import { el } from "../../views.js";
import { numbered, kitStyles } from "../kit.js";
import { readAblation, readBaselines, readConfig, readGlosses, readWeights } from "./files.js";
import { glossPanel } from "./glosses.js";
import { helpsPanel } from "./helps.js";
import { meaningPanel } from "./meaning.js";
import { headGrid, rolesPanel, tokensPanel } from "./panels.js";
import { trainPanel } from "./train.js";
import { gptScript } from "./script.js";
import { gptWords } from "./words.js";

let shipped; // { json, baselines, ablation, glosses, chars, model } once the lab has loaded

/** A couplet's first line, with its mark: the model writes the second. */
export const firstLine = (couplet) => couplet.slice(0, couplet.search(/[，。？！；：]/) + 1);

let generated = { key: "", ids: [] }; // the last generation: it depends only on its inputs

function generate(core, tokens, state) {
  const key = `${tokens}|${state.temperature}|${state.sample}`;
  if (generated.key !== key) {
    const ids = core.gptGenerate(shipped.model, tokens, {
      count: 24,
      temperature: state.temperature,
      seed: state.sample,
    });
    generated = { key, ids };
  }
  return generated.ids;
}

// The five likeliest next characters after the line's last token.
function topFive(forward) {
  const last = forward.probs.length - 1;
  const probs = forward.probs[last];
  const order = probs.map((p, id) => id).sort((a, b) => probs[b] - probs[a] || a - b);
  const ids = order.slice(0, 5);
  return {
    ids,
    logits: ids.map((id) => forward.logits[last][id]),
    probs: ids.map((id) => probs[id]),
    top: forward.top[last],
    sum: forward.sum[last],
  };
}

// p = exp(z − max) ÷ Σ: how far rounding z, max and Σ at p decimals moves it.
const softmaxBound = (z, m, s, w) => (p) => {
  const us = roundingOf(s, p);
  return w * (Math.exp(roundingOf(z, p) + roundingOf(m, p)) * (s / (s - us)) - 1);
};

const headMatrices = new Set(["scores", "scaled", "masked", "weights"]);

// A long line's tables draw this many rows at a time (a 63-character line is 64 rows: five of
// its tables would be 13,000 cells), around the row picked.
const rowsAtOnce = 12;

export const gptLab = {
  id: "model",
  styles: [kitStyles, "labs/gpt/style.css"],
  core: "labs",

  async load(core) {
    if (shipped) return;
    const [json, bytes, baselines, ablation, glosses] = await Promise.all([
      readConfig(),
      readWeights(),
      readBaselines(),
      readAblation(),
      readGlosses(),
    ]);
    const chars = [...json.chars];
    const model = core.gptModel(json.config, bytes);
    shipped = { json, baselines, ablation, glosses, chars, model };
  },

  params: () => {
    const { config, examples } = shipped.json;
    return [
      {
        id: "line",
        kind: "text",
        initial: firstLine(examples[0]),
        maxLength: config.context - 1,
        lang: "zh",
      },
      ...[
        { id: "layer", symbol: "ℓ", min: 1, max: config.layers, step: 1, initial: 1 },
        { id: "head", symbol: "h", min: 1, max: config.heads, step: 1, initial: 1 },
      ].map((p) => ({ ...p, kind: "range", onSteps: ["heads", "head", "train"] })),
      ...[
        { id: "temperature", symbol: "τ", min: 0, max: 1.5, step: 0.1, initial: 0.8 },
        { id: "sample", symbol: "seed", min: 1, max: 50, step: 1, initial: 1 },
      ].map((p) => ({ ...p, kind: "range", onSteps: ["next"] })),
    ];
  },

  compute(core, scene, state) {
    const { json, model, chars } = shipped;
    const tokens = gptEncode(state.line, json.chars);
    // the rows' names: the characters read (an unknown one as typed), after ⏎
    const typed = ["⏎", ...readOf(state.line)];
    const rows = tokens.map((t, i) => (t === 1 ? typed[i] : charOf(t, chars)));
    const forward = core.gptForward(model, tokens, { precise: true });
    const dh = json.config.dModel / json.config.heads;
    const slice = (m) => m.map((row) => row.slice((state.head - 1) * dh, state.head * dh));
    const layer = forward.layers[state.layer - 1];
    const [q, k, v] = [layer.q, layer.k, layer.v].map(slice);
    // the chosen head again through the teaching path, which keeps every intermediate
    const head = core.attention(q, k, v, { causal: true });
    const next = topFive(forward);
    next.chars = next.ids.map((t) => charOf(t, chars));
    return {
      inputs: { q, k, v },
      trace: {
        tokens,
        rows,
        chars,
        forward,
        head,
        next,
        generated: generate(core, tokens, state),
        json,
      },
    };
  },

  // what a control changes is drawn just under it: the line's tokens under the line, the
  // generated line under τ and the seed (on a phone, the panels beside a step are screens below)
  steps: () => [
    { id: "line", panels: [], lead: ["tokens"] },
    { id: "heads", panels: [], inStep: ["grid"] },
    { id: "head", panels: [] },
    { id: "roles", panels: ["roles", "helps"] },
    { id: "next", panels: ["glosses"], lead: ["generate"] },
    { id: "train", panels: ["meaning", "train"] },
  ],

  labels: (scene, msg, trace) => ({ queries: trace.rows, keys: trace.rows }),

  view(stepId, { trace, state, msg, inputs }) {
    const rows = trace.rows;
    const dims = numbered(inputs.q[0].length);
    const square = (id, label, data, role, caption) => ({
      ...matrix(id, label, data, rows, rows, role, caption),
      window: rowsAtOnce,
    });
    const next = trace.next.chars;
    const where = msg.gptLab.where(state.layer, state.head);
    const views = {
      line: { focusMatrix: null, matrices: [] },
      // the picked head at a glance: step 3 works it out
      heads: {
        focusMatrix: null,
        matrices: [
          square("weights", "weights", trace.head.weights, "operand", msg.gptLab.weightsAt(where)),
        ],
      },
      head: {
        focusMatrix: "weights",
        matrices: [
          {
            ...matrix("q", "Q", inputs.q, rows, dims, "operand", `Q, ${where}`),
            window: rowsAtOnce,
          },
          {
            ...matrix("k", "K", inputs.k, rows, dims, "operand", `K, ${where}`),
            window: rowsAtOnce,
          },
          square(
            "scaled",
            "scaled",
            trace.head.scaled,
            "operand",
            "scaled = scores / √d_head, scores = Q·Kᵀ",
          ),
          square("masked", "masked", trace.head.masked, "operand", msg.gptLab.masked),
          square("weights", "weights", trace.head.weights, "result"),
        ],
      },
      roles: { focusMatrix: null, matrices: [] },
      next: {
        focusMatrix: "probs",
        matrices: [
          matrix(
            "logits",
            "z",
            [trace.next.logits],
            [rows.at(-1)],
            next,
            "operand",
            msg.gptLab.logits,
          ),
          matrix(
            "top",
            "max",
            [[trace.next.top]],
            [rows.at(-1)],
            ["max"],
            "operand",
            msg.gptLab.top,
          ),
          matrix("sum", "Σ", [[trace.next.sum]], [rows.at(-1)], ["Σ"], "operand", msg.gptLab.sum),
          matrix("probs", "p", [trace.next.probs], [rows.at(-1)], next, "result", msg.gptLab.probs),
        ],
      },
      train: { focusMatrix: null, matrices: [] },
    };
    return views[stepId];
  },

  derivation(mid, i, j, ctx) {
    const { trace, inputs, msg, state } = ctx;
    const d = state.digits;
    const w = msg.gptLab;
    if (mid === "q" || mid === "k") {
      return derivationOf([
        plain(
          `${cellRef(mid.toUpperCase(), i, j)} = ${fmt(inputs[mid][i][j], d)} (${w.fromModel(mid, state.layer)})`,
        ),
      ]);
    }
    if (mid === "weights" && ctx.stepId === "heads") {
      const lines = attentionDerivation(mid, i, j, { trace: trace.head, inputs, msg, digits: d });
      return derivationOf([plain(w.inStep3), ...lines.lines]);
    }
    if (headMatrices.has(mid)) {
      const of = (m) => attentionDerivation(m, i, j, { trace: trace.head, inputs, msg, digits: d });
      // the table shows Q·Kᵀ/√d_head at once: the dot product's line first
      return mid === "scaled"
        ? derivationOf([...of("scores").lines, ...of("scaled").lines])
        : of(mid);
    }
    const { logits, probs, top, sum } = trace.next;
    if (mid === "logits") {
      return derivationOf([plain(`z = ${fmt(logits[j], d)} (${w.logitFrom})`)]);
    }
    if (mid === "top") return derivationOf([plain(w.maxLine(fmt(top, d)))]);
    if (mid === "sum") return derivationOf([plain(w.sumLine(fmt(sum, d)))]);
    if (mid === "probs") {
      return derivationOf([
        line(
          `${cellRef("p", 0, j)} = exp(${cellRef("z", 0, j)} − max) ÷ Σ = `,
          probs[j],
          d,
          softmaxBound(logits[j], top, sum, probs[j]),
          (p) => `exp(${fmt(logits[j], p)} − ${fmt(top, p)}) ÷ ${fmt(sum, p)}`,
        ),
      ]);
    }
    return derivationOf([]);
  },

  worked(mid, i, j, { trace, inputs, state }) {
    const d = state.digits;
    if (headMatrices.has(mid)) {
      const worked = attentionWorked(mid, i, j, { trace: trace.head, inputs, digits: d });
      // Q·Kᵀ/√d_head straight from the Q and K shown
      const direct = shownDot(inputs.q[i], inputs.k[j], d) * trace.head.scale;
      return mid === "scaled" ? [...worked, direct] : worked;
    }
    if (mid === "probs") {
      const at = (x) => shownAt(x, d);
      const { logits, top, sum } = trace.next;
      return [Math.exp(at(logits[j]) - at(top)) / at(sum)];
    }
    return [];
  },

  highlights(mid, i, j, ctx) {
    const h = attentionHighlights(mid, i, j, { trace: ctx.trace.head });
    const { add } = lighting(h);
    if (mid === "scaled") (add("q", "rows", i), add("k", "rows", j));
    if (mid === "probs") (add("logits", "cells", [0, j]), add("top", "cells", [0, 0]));
    if (mid === "probs") add("sum", "cells", [0, 0]);
    return h;
  },

  text: (stepId, { msg, state, trace }) =>
    msg.steps[stepId].text({
      where: msg.gptLab.where(state.layer, state.head),
      vocab: trace.json.config.vocab,
      heldOut: fmt(trace.json.heldOut, 2),
    }),

  // PyTorch only: its autograd checks the gradients; the targets are the line's own next ids
  scriptKinds: ["pytorch"],
  script: (kind, { msg, trace }) =>
    gptScript({
      config: trace.json.config,
      tokens: trace.tokens,
      targets: [...trace.tokens.slice(1), -1],
      title: msg.scenes.model.title,
      // where the page got its weights: the script reads them from beside itself
      from:
        typeof document === "object"
          ? new URL("labs/gpt/tang.bin", document.baseURI).href
          : undefined,
    }),

  panels: {
    tokens: (ctx) => tokensPanel(ctx, shipped.json.examples),
    grid: headGrid,
    roles: rolesPanel,
    helps: (ctx) => helpsPanel(ctx, shipped.ablation),
    glosses: (ctx) => glossPanel(ctx, shipped.glosses),
    generate: (ctx) => generatePanel(ctx),
    meaning: (ctx) => meaningPanel(ctx, shipped),
    train: (ctx) => trainPanel(ctx, shipped),
  },

  words: gptWords,
};

// The generated line and what it is; when the model ended the poem at once, why.
function generatePanel({ trace, state, msg }) {
  const w = msg.gptLab;
  const text = trace.generated.map((t) => charOf(t, trace.chars)).join("");
  // cut short before the line or the poem ended: say so
  const ended = /[，。？！；：⏎]$/.test(text) || text === "";
  const shown = ended ? text : `${text}…`;
  return el(
    "div",
    { class: "why-note" },
    el(
      "p",
      // what τ and the seed change (data-result: the page brings it into view)
      { class: "why-summary", id: "generated", "data-result": "" },
      w.generated(state.temperature, state.sample),
      " ",
      el("span", { lang: "zh", class: "poem", text: `${readOf(state.line).join("")}${shown}` }),
    ),
    trace.generated[0] === 0
      ? el("p", { id: "ended-at-once", text: endedAtOnce(trace, state, w) })
      : [],
    el("p", { text: w.pastiche(shipped.model.params.length) }),
  );
}

// The model's first token was ⏎: its probability after the line, whether it was the likeliest
// (the unknown token aside, as the writing skips it), and what may let the model write on.
function endedAtOnce({ forward, next }, state, w) {
  const p = forward.probs.at(-1)[0];
  const likeliest = next.ids.find((id) => id !== 1) === 0;
  return w.endedAtOnce(fmt(p, state.digits), likeliest, state.temperature === 0);
}

export default [{ id: "model", lab: gptLab, inputs: {} }];
