// labs/real/bpe.js: lesson 6's second lab, "a vocabulary by hand": byte-pair encoding (BPE)
// learned from the learner's text (or a preset) by the core's bpeLearn (src/bpe.hpp), one merge
// at a time: the text as characters or bytes; every adjacent pair counted, the most frequent
// marked where it occurs; the merge, the text after it; the vocabulary so far; the learned merges
// reading a new line (bpeEncode); and what real tokenizers do differently, on two fixed examples.
// The slider k is the number of merges learned: the count and merge steps show the k-th.
import { el } from "../../views.js";
import { matrix } from "../../steps.js";
import { derivationOf, plain } from "../../derive.js";
import { kitStyles, numbers } from "../kit.js";
import { bpeWords } from "./bpe-words.js";

/** The presets, each with the new line its merges read (tests/fixtures/bpe_reference.py learns
 * from the same texts). */
export const presets = {
  tang: {
    text: "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n露从今夜白，月是故乡明。\n海上生明月，天涯共此时。\n明月松间照，清泉石上流。\n深林人不知，明月来相照。\n秦时明月汉时关，万里长征人未还。\n羌笛何须怨杨柳，春风不度玉门关。\n二十四桥明月夜，玉人何处教吹箫。\n不知何处吹芦管，一夜征人尽望乡。\n不知细叶谁裁出，二月春风似剪刀。\n我寄愁心与明月，随君直到夜郎西。\n举杯邀明月，对影成三人。",
    line: "春江潮水连海平，海上明月共潮生。",
  },
  english: {
    text: "the cat sat on the mat.\nthe rat sat on the hat.\nthe cat ate the rat.",
    line: "the bat sat on the cat.",
  },
  ah: { text: "啊啊啊啊", line: "啊啊啊啊啊" },
};

/** The most merges the slider asks for (the core learns up to 500). */
export const mostMerges = 100;

/** bpeLearn's options for a state. */
export const optionsOf = (state) => ({
  merges: state.merges,
  start: state.bytes ? "bytes" : "characters",
  presplit: state.presplit,
});

/** The last step's two examples: the Tang lines from bytes, the English lines without and with
 * the pre-split, and the pre-split's pieces of one English line. */
export const examples = { bytesMerges: 12, splitMerges: 8, piecesOf: "the cat sat on the mat." };

let shown; // the last step's examples, learned once: they do not change with the state

function realExamples(core) {
  if (shown) return shown;
  const bytes = core.bpeLearn(presets.tang.text, { merges: examples.bytesMerges, start: "bytes" });
  const whole = core.bpeLearn(presets.english.text, { merges: examples.splitMerges });
  const split = core.bpeLearn(presets.english.text, {
    merges: examples.splitMerges,
    presplit: true,
  });
  // the pieces, read back from the core's pre-split with no vocabulary (every character unknown)
  const read = core.bpeEncode(
    { start: "characters", presplit: true, alphabet: "", steps: [] },
    examples.piecesOf,
  );
  const pieces = read.initial.sizes.map(() => "");
  for (const t of read.tokens) pieces[t.segment] += t.text;
  shown = { bytes, whole, split, pieces };
  return shown;
}

// ---- what each step says, as numbers and names: the words (bpe-words.js) write them out ----

/** A token as the page names it: its text (a space as ␣, a tab as ⇥), or its bytes in hex when
 * they are not whole characters. */
export const visible = (text) => text.replace(/ /g, "␣").replace(/\t/g, "⇥");
export const nameOf = (v) => ({ text: v.whole ? visible(v.text) : v.hex, whole: v.whole });

/** The merge shown at k (the last one learned), and the tokens before and after it. */
export function current(learned) {
  const m = learned.steps.length;
  const step = m ? learned.steps[m - 1] : null;
  const before = m > 1 ? learned.steps[m - 2].after : learned.initial;
  return { m, step, before, after: step ? step.after : learned.initial };
}

/** The numbers and names each step's words need, from the core's trace. */
export function factsOf(trace) {
  const { learned, encoded, real } = trace;
  const v = (id) => nameOf(learned.vocabulary[id]);
  const { m, step, before, after } = current(learned);
  const counts = step ?? learned.next;
  const best = counts.top[0];
  const pair = (p) => p && { left: v(p.left), right: v(p.right), count: p.count, first: p.first };
  const firstWord = real.bytes.steps.findIndex((s) => {
    const t = real.bytes.vocabulary[s.id];
    return t.whole && [...t.text].length > 1;
  });
  const crossing = real.whole.steps.findIndex((s) => /\S /.test(real.whole.vocabulary[s.id].text));
  return {
    text: {
      characters: learned.characters,
      bytes: learned.bytes,
      lines: learned.lines,
      start: learned.start,
      presplit: learned.presplit,
      pieces: learned.segmentLines.length,
      base: learned.base,
      tokens: learned.initial.count,
    },
    count: {
      m,
      asked: learned.merges,
      stopped: m < learned.merges,
      best: pair(best),
      distinct: counts.distinct,
      listed: counts.top.length,
      tied: counts.tied,
      tokens: before.count,
      next: pair(learned.next.top[0]),
    },
    merge: step && {
      m,
      left: v(step.left),
      right: v(step.right),
      id: step.id,
      made: v(step.id),
      count: step.count,
      replaced: step.replaced,
      before: before.count,
      after: after.count,
    },
    vocabulary: {
      m,
      base: learned.base,
      size: learned.vocabulary.length,
      start: learned.start,
      initial: learned.initial.count,
      final: after.count,
      next: pair(learned.next.top[0]),
    },
    encode: {
      characters: encoded.characters,
      bytes: encoded.bytes,
      start: learned.start,
      initial: encoded.initial.count,
      count: encoded.count,
      unknown: encoded.unknown,
      unknownChars: encoded.tokens.filter((t) => !t.known).map((t) => t.text),
      applied: encoded.applied.map((a) => ({
        merge: a.merge + 1,
        made: v(a.id),
        replaced: a.replaced,
      })),
      m,
    },
    real: {
      bytesFirst: real.bytes.steps.slice(0, 3).map((s) => nameOf(real.bytes.vocabulary[s.id])),
      firstWord: firstWord + 1,
      word: firstWord >= 0 && nameOf(real.bytes.vocabulary[real.bytes.steps[firstWord].id]),
      crossing: crossing + 1,
      crossed: crossing >= 0 && nameOf(real.whole.vocabulary[real.whole.steps[crossing].id]),
      pieces: real.pieces.map(visible),
      line: examples.piecesOf,
    },
  };
}

// ---- drawing: a text's tokens as chips, line by line ----

// One chip: the token's text (or its bytes in hex), its id under it.
function chip({ label, id, classes = [], mark }) {
  return el(
    "li",
    { class: ["token", ...classes].join(" ") },
    mark !== undefined && el("span", { class: "token-mark", text: String(mark) }),
    el("span", { class: "token-text", text: label }),
    el("span", { class: "token-id", text: id < 0 ? "#?" : `#${id}` }),
  );
}

// Chips, line by line (the lines the core's pieces belong to); the first chip of a piece after
// the first of its line is set apart. `each(k)` gives chip k's own fields.
function lineRows(sizes, segmentLines, lines, each, caption) {
  const rows = Array.from({ length: lines }, () => []);
  let k = 0;
  sizes.forEach((size, piece) => {
    const line = rows[segmentLines[piece]];
    for (let i = 0; i < size; i++, k++) {
      const c = each(k);
      if (i === 0 && line.length) c.classes = [...(c.classes ?? []), "piece-start"];
      line.push(chip(c));
    }
  });
  return el(
    "figure",
    { class: "bpe-text", "data-glossary": "off" },
    el("figcaption", { text: caption }),
    rows.map((chips, line) => el("ol", { class: "tokens", "data-line": String(line + 1) }, chips)),
  );
}

// The learned text's tokens: `marks` numbers each place the merged pair starts, `lit` the
// tokens to shade.
function learnedRows(learned, tokens, caption, { marks = new Map(), lit = new Set() } = {}) {
  return lineRows(
    tokens.sizes,
    learned.segmentLines,
    learned.lines,
    (k) => {
      const v = learned.vocabulary[tokens.ids[k]];
      return {
        label: nameOf(v).text,
        id: v.id,
        classes: [k % 2 ? "odd" : "", v.whole ? "" : "piece", lit.has(k) ? "hit" : ""].filter(
          Boolean,
        ),
        mark: marks.get(k),
      };
    },
    caption,
  );
}

// ---- panels ----

let draft = null; // what the learner has typed in the text box and not yet had learned

function sourcePanel({ msg, state, update }) {
  const w = msg.bpeLab;
  if (draft === state.text) draft = null;
  const area = el("textarea", {
    id: "bpe-text",
    rows: 5,
    "aria-describedby": "bpe-text-hint",
    oninput: (e) => (draft = e.target.value),
  });
  area.value = draft ?? state.text;
  return el(
    "div",
    { class: "bpe-source" },
    el(
      "div",
      { class: "trainer token-presets", role: "group", "aria-label": w.presetsLabel },
      Object.entries(presets).map(([name, p]) =>
        el("button", {
          type: "button",
          id: `bpe-preset-${name}`,
          "aria-pressed": String(state.text === p.text),
          text: w.presetNames[name],
          onclick: () => ((draft = null), update({ text: p.text, line: p.line })),
        }),
      ),
    ),
    el("label", { for: "bpe-text", text: w.textLabel }),
    area,
    el("p", { class: "hint", id: "bpe-text-hint", text: w.textHint }),
    el("button", {
      type: "button",
      id: "bpe-use",
      text: w.use,
      onclick: () => update({ text: area.value }),
    }),
  );
}

const initialPanel = ({ trace, msg }) =>
  learnedRows(trace.learned, trace.learned.initial, msg.bpeLab.initialCaption(trace.learned));

function beforePanel({ trace, msg }) {
  const { step, before } = current(trace.learned);
  const marks = new Map((step?.at ?? []).map((at, n) => [at, n + 1]));
  const lit = new Set((step?.at ?? []).flatMap((at) => [at, at + 1]));
  return learnedRows(trace.learned, before, msg.bpeLab.beforeCaption(before.count), {
    marks,
    lit,
  });
}

function mergedPanel({ trace, msg }) {
  const { step, after } = current(trace.learned);
  const lit = new Set();
  after.ids.forEach((id, k) => step && id === step.id && lit.add(k));
  return learnedRows(trace.learned, after, msg.bpeLab.afterCaption(after.count), { lit });
}

function encodedPanel({ trace, msg }) {
  const e = trace.encoded;
  return lineRows(
    e.initial.sizes.map((_, piece) => e.tokens.filter((t) => t.segment === piece).length),
    e.segmentLines,
    Math.max(...e.segmentLines) + 1,
    (k) => {
      const t = e.tokens[k];
      return {
        label: t.whole ? visible(t.text) : t.hex,
        id: t.id,
        classes: [k % 2 ? "odd" : "", t.whole ? "" : "piece", t.known ? "" : "unknown"].filter(
          Boolean,
        ),
      };
    },
    msg.bpeLab.encodedCaption(e.count),
  );
}

function realPanel({ trace, msg }) {
  const w = msg.bpeLab;
  const { bytes, whole, split, pieces } = trace.real;
  const name = (learned, s) => nameOf(learned.vocabulary[s.id]).text;
  return el(
    "div",
    { class: "bpe-real" },
    numbers(
      "bpe-bytes",
      w.bytesTable,
      [w.columns.made, w.columns.count],
      bytes.steps.map((s, k) => [String(k + 1), name(bytes, s), String(s.count)]),
    ),
    numbers(
      "bpe-split",
      w.splitTable,
      [w.columns.withoutSplit, w.columns.withSplit],
      whole.steps.map((s, k) => [String(k + 1), name(whole, s), name(split, split.steps[k])]),
    ),
    el(
      "figure",
      { class: "bpe-pieces", "data-glossary": "off" },
      el("figcaption", { text: w.piecesCaption(examples.piecesOf) }),
      el(
        "ol",
        { class: "tokens" },
        pieces.map((p, k) => chip({ label: visible(p), id: k, classes: k % 2 ? ["odd"] : [] })),
      ),
    ),
  );
}

// The rows of the pairs table and of the merges table.
const pairRows = (learned, counts) =>
  counts.top.map((p) => {
    const v = (id) => nameOf(learned.vocabulary[id]).text;
    return `${v(p.left)} + ${v(p.right)}`;
  });

export const bpeLab = {
  id: "bpe",
  core: "labs",
  styles: [kitStyles, "labs/real/style.css"],
  words: bpeWords,

  params: () => [
    { id: "text", kind: "text", hidden: true, initial: presets.tang.text },
    { id: "line", kind: "text", initial: presets.tang.line, onSteps: ["encode"] },
    {
      id: "merges",
      kind: "range",
      symbol: "k",
      min: 0,
      max: mostMerges,
      step: 1,
      initial: 1,
      onSteps: ["count", "merge", "vocabulary", "encode"],
    },
    ...["bytes", "presplit"].map((id) => ({
      id,
      kind: "toggle",
      initial: false,
      control: true,
      onSteps: ["text", "count", "merge", "vocabulary", "encode"],
    })),
  ],

  compute(core, scene, state) {
    const learned = core.bpeLearn(state.text, optionsOf(state));
    let encoded;
    try {
      encoded = core.bpeEncode(learned, state.line);
    } catch (error) {
      throw new Error(`the new line: ${error.message}`);
    }
    return { inputs: {}, trace: { learned, encoded, real: realExamples(core) } };
  },

  steps: () => [
    { id: "text", panels: [], lead: ["source"], inStep: ["initial"] },
    { id: "count", panels: [], inStep: ["before"] },
    { id: "merge", panels: [], inStep: ["merged"] },
    { id: "vocabulary", panels: [] },
    { id: "encode", panels: [], inStep: ["encoded"] },
    { id: "real", panels: [], inStep: ["real"] },
  ],

  text(stepId, { trace, msg }) {
    const facts = factsOf(trace);
    return msg.bpeLab.say[stepId](facts[stepId], facts);
  },

  view(stepId, { trace, msg }) {
    const w = msg.bpeLab;
    const { learned } = trace;
    if (stepId === "count") {
      const counts = current(learned).step ?? learned.next;
      if (!counts.top.length) return { focusMatrix: null, matrices: [] };
      return {
        focusMatrix: "pairs",
        matrices: [
          matrix(
            "pairs",
            w.pairsTable(counts.top.length, counts.distinct),
            counts.top.map((p) => [p.count, p.first + 1]),
            pairRows(learned, counts),
            [w.columns.count, w.columns.first],
            "result",
          ),
        ],
      };
    }
    if (stepId === "vocabulary" && learned.steps.length) {
      const name = (id) => nameOf(learned.vocabulary[id]).text;
      return {
        focusMatrix: "merges",
        matrices: [
          matrix(
            "merges",
            w.mergesTable,
            learned.steps.map((s) => [s.count, s.replaced, s.after.count]),
            learned.steps.map(
              (s, k) => `${k + 1}. ${name(s.left)} + ${name(s.right)} → ${name(s.id)}`,
            ),
            [w.columns.count, w.columns.replaced, w.columns.tokens],
            "result",
          ),
        ],
      };
    }
    return { focusMatrix: null, matrices: [] };
  },

  // How each number of the two tables is made, from the core's fields.
  derivation(mid, i, j, { trace, msg }) {
    const w = msg.bpeLab;
    const { learned } = trace;
    if (mid === "pairs") {
      const { step } = current(learned);
      const counts = step ?? learned.next;
      const p = counts.top[i];
      const name = pairRows(learned, counts)[i];
      if (j === 1) return derivationOf([plain(w.derive.first(name, p.first + 1))]);
      const places = i === 0 && step ? step.at.map((at) => at + 1) : null;
      return derivationOf([plain(w.derive.count(name, p.count, places))]);
    }
    if (mid === "merges") {
      const s = learned.steps[i];
      const before = i ? learned.steps[i - 1].after.count : learned.initial.count;
      const lines = [
        w.derive.count(
          pairRows(learned, s)[0],
          s.count,
          s.at.map((at) => at + 1),
        ),
        w.derive.replaced(s.count, s.replaced),
        `${before} − ${s.replaced} = ${s.after.count}`,
      ];
      return derivationOf([plain(lines[j])]);
    }
    return derivationOf([]);
  },

  panels: {
    source: sourcePanel,
    initial: initialPanel,
    before: beforePanel,
    merged: mergedPanel,
    encoded: encodedPanel,
    real: realPanel,
  },
};

export default [{ id: "bpe", lab: bpeLab, inputs: {} }];
