// labs/real/tokens.js: lesson 6's first lab, "how real models read your text". The learner's
// text (or a preset) read by this project's Tang model, one character a token, and by the
// tokenizers of GPT-2, GPT-4o and Qwen3 from their published vocabularies
// (vocabularies.js, loaded when the lab opens). Each token: its id (the tokenizer's), the text
// it prints alone and its bytes in UTF-8 (the core's: tokenized, src/tokenized.hpp, which
// checks that the tokens spell the text byte for byte). Then the counts, side by side, and what
// they mean for a model's context: how many characters of such text its tokens hold.
import { el } from "../../views.js";
import { matrix } from "../../steps.js";
import { derivationOf, plain } from "../../derive.js";
import { fmt } from "../../format.js";
import { kitStyles } from "../kit.js";
import { charOf, textEncode } from "../../tokens.js";
import { readConfig } from "../gpt/files.js";
import { gpt4o, published } from "./models.js";
import { loadTokenizer, tokenizerIds } from "./vocabularies.js";
import { tokensWords } from "./tokens-words.js";

/** The presets, by name: the source article's 我爱你, a Tang couplet, English, a mixed line. */
export const presets = {
  love: "我爱你",
  couplet: "床前明月光，疑是地上霜。",
  english: "Attention is all you need.",
  mixed: "我爱 attention，123 😀！",
};

// The contexts of the models whose tokenizers these are (models.js cites each).
const contextOf = {
  gpt2: published.find((m) => m.id === "gpt2").shape.context,
  gpt4o: gpt4o.context,
  qwen3: published.find((m) => m.id === "qwen3").shape.context,
};

let tang; // the Tang model's tang.json, once the lab has loaded
const tokenizers = {}; // id → the loaded tokenizer
// GPT-2's vocabulary (197 KB gzipped) loads before the lab opens; GPT-4o's and Qwen3's (1 and
// 2 MB) after it has drawn: the lab is read while they arrive, their steps say they are loading,
// and it is computed again when they are in (its transient parameter `loaded`).
const later = ["gpt4o", "qwen3"];
let arriving; // the promise of those two, once the lab has opened
let told = null; // the update that will hear when they are in

const encoder = new TextEncoder();

// The Tang model's reading: a token per character (textEncode's, without the end token that
// starts a line), each character's own bytes.
function ourReading(text) {
  return {
    ids: textEncode(text, tang.chars).slice(1),
    bytes: [...text].map((c) => encoder.encode(c)),
  };
}

/** Every model's reading of `text`, of the vocabularies loaded so far: [{ id, ids,
 * vocabulary?, …the core's Tokenized }]. The Tang model's first: the core refuses a text past
 * its limit before any tokenizer reads it. */
export function readings(core, text) {
  const ours = ourReading(text);
  return [
    {
      id: "ours",
      ids: ours.ids,
      ...core.tokenized(text, ours.bytes, { context: tang.config.context }),
    },
    ...tokenizerIds
      .filter((id) => tokenizers[id])
      .map((id) => {
        const { ids, bytes } = tokenizers[id].encode(text);
        const reading = core.tokenized(text, bytes, { context: contextOf[id] });
        return { id, ids, vocabulary: tokenizers[id].vocabulary, ...reading };
      }),
  ];
}

// What a token prints as on its chip: a space as ␣, a line end as ⏎; the Tang model's unknown
// character as �.
const visible = (text) => text.replace(/ /g, "␣").replace(/\n/g, "⏎");

function chips(reading, { msg }) {
  const w = msg.tokensLab;
  return el(
    "figure",
    { class: "token-row", "data-model": reading.id },
    el("figcaption", { text: w.rowCaption(w.names[reading.id], reading.count) }),
    el(
      "ol",
      { class: "tokens" },
      reading.tokens.map((t, k) => {
        const unknown = reading.id === "ours" && reading.ids[k] === 1;
        return el(
          "li",
          { class: `token${t.piece ? " piece" : ""}${k % 2 ? " odd" : ""}` },
          el("span", {
            class: "token-text",
            text: visible(unknown ? charOf(1) : t.shown),
          }),
          el("span", { class: "token-bytes", text: t.hex }),
          el("span", { class: "token-id", text: `#${reading.ids[k]}` }),
        );
      }),
    ),
  );
}

// The page hears when the later vocabularies are in: the lab is computed again.
function whenLoaded({ update }) {
  if (told === update || later.every((id) => tokenizers[id])) return;
  told = update;
  arriving.then(() => told === update && update({ loaded: later.length }));
}

function presetButtons(ctx) {
  const { msg, state, update } = ctx;
  whenLoaded(ctx);
  const w = msg.tokensLab;
  return el(
    "div",
    { class: "trainer token-presets", role: "group", "aria-label": w.presetsLabel },
    Object.entries(presets).map(([name, text]) =>
      el("button", {
        type: "button",
        id: `tokens-preset-${name}`,
        "aria-pressed": String(state.text === text),
        text: w.presetNames[name],
        onclick: () => update({ text }),
      }),
    ),
  );
}

const modelPanel = (id) => (ctx) => {
  const reading = ctx.trace.models.find((m) => m.id === id);
  if (reading) return chips(reading, ctx);
  whenLoaded(ctx);
  return el("p", { class: "hint", "aria-live": "polite", text: ctx.msg.tokensLab.loading(id) });
};

// The counts table's columns, and each cell's number from a reading.
const countColumns = ["characters", "bytes", "count", "tokensPerChar", "context", "fit"];

export const tokensLab = {
  id: "tokens",
  core: "labs",
  styles: [kitStyles, "labs/real/style.css"],
  words: tokensWords,

  async load() {
    tang ??= await readConfig();
    tokenizers.gpt2 ??= await loadTokenizer("gpt2");
    arriving ??= Promise.all(
      later.map(async (id) => (tokenizers[id] = await loadTokenizer(id))),
    ).catch((error) => ((arriving = null), Promise.reject(error)));
  },

  settled: () => arriving,

  params: () => [
    { id: "text", kind: "text", initial: presets.love },
    // how many of the later vocabularies are in: set when they arrive, never in the URL
    { id: "loaded", kind: "range", hidden: true, transient: true, min: 0, max: 2, initial: 0 },
  ],

  compute(core, scene, state) {
    return {
      inputs: {},
      trace: {
        text: state.text,
        models: readings(core, state.text),
        couplet: readings(core, presets.couplet),
        english: readings(core, presets.english),
      },
    };
  },

  steps: () => [
    { id: "ours", panels: [], lead: ["presets"], inStep: ["ours"] },
    ...tokenizerIds.map((id) => ({ id, panels: [], lead: ["presets"], inStep: [id] })),
    { id: "context", panels: [] },
  ],

  text(stepId, { trace, msg }) {
    const w = msg.tokensLab;
    const of = (id) => trace.models.find((m) => m.id === id);
    if (stepId === "ours") return w.ours(of("ours"), tang.config.vocab);
    if (stepId === "context") {
      const fits = (r) => r.find((m) => m.id === "gpt2").fit;
      return w.context(of("gpt2"), fits(trace.couplet), fits(trace.english), of("ours"));
    }
    return of(stepId) ? w[stepId](of(stepId)) : w.loading(stepId);
  },

  view(stepId, { trace, msg }) {
    if (stepId !== "context") return { focusMatrix: null, matrices: [] };
    const w = msg.tokensLab;
    const names = trace.models.map((m) => w.names[m.id]);
    return {
      focusMatrix: "counts",
      matrices: [
        matrix(
          "counts",
          w.countsLabel,
          trace.models.map((m) => countColumns.map((c) => m[c])),
          names,
          countColumns.map((c) => w.columns[c]),
          "result",
        ),
        matrix(
          "presetFit",
          w.presetFitLabel,
          trace.models.map((_, k) => [trace.couplet[k].fit, trace.english[k].fit]),
          names,
          [w.presetNames.couplet, w.presetNames.english],
          "result",
        ),
      ],
    };
  },

  // How each count is made, from the numbers of its row.
  derivation(mid, i, j, { trace, msg, state }) {
    const w = msg.tokensLab;
    if (mid === "presetFit") {
      const m = (j === 0 ? trace.couplet : trace.english)[i];
      return derivationOf([plain(w.fitLine(m))]);
    }
    const m = trace.models[i];
    const column = countColumns[j];
    if (column === "tokensPerChar") {
      return derivationOf([
        plain(`${m.count} / ${m.characters} = ${fmt(m.tokensPerChar, state.digits)}`),
      ]);
    }
    if (column === "fit") return derivationOf([plain(w.fitLine(m))]);
    return derivationOf([plain(w.countLine[column](m, w.names[m.id]))]);
  },

  worked(mid, i, j, { trace }) {
    if (mid === "counts" && countColumns[j] === "tokensPerChar") {
      const m = trace.models[i];
      return [m.count / m.characters];
    }
    return [];
  },

  panels: {
    presets: presetButtons,
    ...Object.fromEntries(["ours", ...tokenizerIds].map((id) => [id, modelPanel(id)])),
  },
};

export default [{ id: "tokens", lab: tokensLab, inputs: {} }];
