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
// 2 MB) after it has drawn: the lab is read while they arrive. A trace reads the text with the
// vocabularies in when it is read (its readings are worked out on first use, again once more
// have arrived); a step that waits for one says so, and is drawn again when it is in. Nothing
// of the state changes on their arrival: a refusal's message, a picked cell, answers stay.
const later = ["gpt4o", "qwen3"];
let arriving; // the promise of those two, once the lab has opened
let failed = false; // their load failed
const waiting = new Set(); // the updates of the pages drawn while one waits

const encoder = new TextEncoder();

// { text, models, couplet, english }: the readings of the learner's text and of the two presets
// the context step compares, each worked out when first read and again once more vocabularies
// have arrived.
function lazyReadings(core, text) {
  const kept = {};
  const read = (key, t) => {
    const loaded = tokenizerIds.filter((id) => tokenizers[id]).length;
    if (kept[key]?.loaded !== loaded) kept[key] = { loaded, value: readings(core, t) };
    return kept[key].value;
  };
  return {
    text,
    get models() {
      return read("models", text);
    },
    get couplet() {
      return read("couplet", presets.couplet);
    },
    get english() {
      return read("english", presets.english);
    },
  };
}

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

// A step drawn while a vocabulary it shows is loading is drawn again when it is in, unless the
// learner is typing a text there (what they type is theirs: pressing Enter reads it, with it).
function redrawWhenLoaded({ update, root, state }) {
  if (failed || waiting.has(update)) return;
  waiting.add(update);
  arriving.then(() => {
    waiting.delete(update);
    const input = root?.querySelector?.("#text");
    const typing =
      input && root.getRootNode().activeElement === input && input.value !== state.text;
    if (!typing) update({});
  });
}

// What a step says of a vocabulary not in yet: loading, or that it could not be loaded.
const loadingText = (msg, id) => (failed ? msg.tokensLab.unloaded : msg.tokensLab.loading)(id);

function presetButtons({ msg, state, update }) {
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
  redrawWhenLoaded(ctx);
  return el("p", { class: "hint", "aria-live": "polite", text: loadingText(ctx.msg, id) });
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
    // one that fails (the network) is said where it would show, and tried again when the lab
    // opens again
    arriving ??= Promise.all(
      later.map(async (id) => (tokenizers[id] = await loadTokenizer(id))),
    ).catch(() => ((arriving = null), (failed = true)));
    failed = false;
  },

  settled: () => arriving,

  params: () => [{ id: "text", kind: "text", initial: presets.love }],

  compute(core, scene, state) {
    // the Tang model's reading now: it refuses a text the core will not read
    readings(core, state.text);
    return { inputs: {}, trace: lazyReadings(core, state.text) };
  },

  steps: () => [
    { id: "ours", panels: [], lead: ["presets"], inStep: ["ours"] },
    ...tokenizerIds.map((id) => ({ id, panels: [], lead: ["presets"], inStep: [id, "notice"] })),
    { id: "context", panels: [], inStep: ["notice"] },
  ],

  text(stepId, { trace, msg }) {
    const w = msg.tokensLab;
    const of = (id) => trace.models.find((m) => m.id === id);
    if (stepId === "ours") return w.ours(of("ours"), tang.config.vocab);
    if (stepId === "context") {
      const fits = (r) => r.find((m) => m.id === "gpt2").fit;
      return w.context(of("gpt2"), fits(trace.couplet), fits(trace.english), of("ours"));
    }
    return of(stepId) ? w[stepId](of(stepId)) : loadingText(msg, stepId);
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
    // where the vocabularies come from, and their licences
    notice: (ctx) => {
      const missing = later.filter((id) => !tokenizers[id]);
      if (ctx.stepId === "context" && missing.length) redrawWhenLoaded(ctx);
      return [
        ctx.stepId === "context" &&
          missing.map((id) =>
            el("p", { class: "hint", "aria-live": "polite", text: loadingText(ctx.msg, id) }),
          ),
        el("p", { class: "note", id: "tokens-notice", text: ctx.msg.tokensLab.notice }),
      ];
    },
    ...Object.fromEntries(["ours", ...tokenizerIds].map((id) => [id, modelPanel(id)])),
  },
};

export default [{ id: "tokens", lab: tokensLab, inputs: {} }];
