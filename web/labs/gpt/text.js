// labs/gpt/text.js: "A model of your own text". The learner pastes or drops a text (or picks a
// preset: the Tang poems, the Song poems, Genesis); the core reads it (textCorpus: its lines,
// the pieces held out, the vocabulary, the baselines, src/text.hpp), and a transformer of the real
// model's shape trains on it in this tab (train.js, in the labs' worker where there is one), with
// its loss beside the three baselines of the same text, a sample every so often, and its heads on
// any line. Nothing leaves the tab.
import { derivationOf, line } from "../../derive.js";
import { fmt } from "../../format.js";
import { matrix } from "../../steps.js";
import { charOf, textEncode } from "../../tokens.js";
import { el } from "../../views.js";
import { kitStyles, numbers } from "../kit.js";
import { readPreset } from "./files.js";
import { headGrid } from "./panels.js";
import { makeTrainer } from "./train.js";
import { workerPossible } from "../worker.js";
import { gptWords } from "./words.js";
import { textWords } from "./text-words.js";

/** The presets, by the `source` parameter's value; a text of the learner's own takes the next
 * number free from firstOwn on. */
export const presets = { 1: "tang300", 2: "song100", 3: "genesis" };
const firstOwn = 4;

/** The model trained on a text: the real model's shape, its vocabulary the text's. */
export const textModel = {
  config: { context: 64, dModel: 64, layers: 2, heads: 4, base: 10000 },
  training: { steps: 2000, batch: 16, lr: 3e-3, seed: 1 },
};

/** The learning rates the lab offers: the real model's 0.003 and up to 1,000 times it. */
export const learningRates = [0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3];

/** Samples are drawn at step 1, every `every` steps and at the end: `count` tokens, τ, seed. */
export const sampling = { every: 250, count: 48, temperature: 0.8, seed: 1 };

let presetBytes; // { name: Uint8Array } once the lab has loaded
let ownSource; // the source number of the learner's text, if there is one
const texts = new Map(); // source → { source, name, corpus, models: lr → a model of it }

// The text of a source: its name and its corpus (read by the core).
const textOf = (source, name, corpus) => ({ source, name, corpus, models: new Map() });

// The model of a source at a learning rate, the source's corpus read once: its shape, its
// training (a run is of one model: a new learning rate is a new run); undefined for
// a preset this copy of the page was built without.
function sourceModel(core, source, lr) {
  if (!texts.has(source)) {
    const named = presets[source];
    if (!named) {
      throw new Error(`no text number ${source} in this tab: paste or drop one, or pick a preset`);
    }
    if (!presetBytes[named]) return undefined;
    texts.set(source, textOf(source, named, core.textCorpus(presetBytes[named])));
  }
  const text = texts.get(source);
  if (!text.models.has(lr)) {
    const { corpus } = text;
    text.models.set(lr, {
      source,
      name: text.name,
      corpus,
      json: {
        config: { ...textModel.config, vocab: [...corpus.chars].length + 2 },
        training: { ...textModel.training, lr },
        chars: corpus.chars,
      },
      baselines: corpus.baselines,
    });
  }
  return text.models.get(lr);
}

/** A text of the learner's own, read by the core: its source number; or the core's Error, and
 * nothing changed. The previous text of one's own is forgotten, and its model with it. */
export function addText(core, name, bytes) {
  const corpus = core.textCorpus(bytes);
  const source = Math.max(firstOwn, (ownSource ?? 0) + 1);
  texts.delete(ownSource);
  ownSource = source;
  texts.set(source, textOf(source, name, corpus));
  return source;
}

// A line of the held-out part to start with: its first piece's first line as the model reads it
// (a character it does not know as �), at most 40 characters, cut after a word where it has spaces.
function firstHeldOut({ corpus, json }) {
  const chars = [...json.chars];
  const ids = Array.from(corpus.heldOut);
  const from = ids[0] === 0 ? 1 : 0;
  const end = ids.indexOf(0, from);
  const line = ids.slice(from, end < 0 ? undefined : end).map((t) => charOf(t, chars));
  if (line.length <= 40) return line.join("");
  const cut = line.slice(0, 40).lastIndexOf(" ");
  return line.slice(0, cut > 0 ? cut : 40).join("");
}

const trainer = makeTrainer({
  lab: "text",
  id: "text-train",
  streams: ({ corpus }) => Promise.resolve({ train: corpus.train, heldOut: corpus.heldOut }),
  intro: ({ json }, msg) =>
    msg.gptLab.trainIntro(
      json.training.steps,
      json.training.batch,
      json.config.context,
      workerPossible(),
    ),
  title: ({ name }, msg) => msg.textLab.textPlot(msg.textLab.nameOf(name)),
  levels: ({ baselines }, msg) =>
    ["uniform", "unigram", "bigram"].map((k) => ({
      label: msg.gptLab.levelName(k, fmt(baselines[k], 2)),
      y: baselines[k],
    })),
  after: samplesPanel,
});

/** The samples shown at step `at` (samples: step → ids, in the order drawn): the latest three. */
export const latestSamples = (samples, at) => [...samples].filter(([step]) => step <= at).slice(-3);

/**
 * What the model writes from a line's start at the step shown (`run`'s weights, `model`, at step
 * `at`): drawn once a step, at step 1, every sampling.every steps and at the end, and kept with
 * the run (weights loaded, or a run begun again, have none of the run before); the latest three.
 */
export function samplesPanel(ctx, shipped, model, at, run) {
  const { core, msg } = ctx;
  const w = msg.textLab;
  const done = at >= shipped.json.training.steps;
  const samples = (run.samples ??= new Map()); // step → the sample's token ids
  // and for the first weights shown: loaded ones may be at any step
  const first = ![...samples.keys()].some((step) => step <= at);
  if ((at === 1 || at % sampling.every === 0 || done || first) && !samples.has(at)) {
    const { count, temperature, seed } = sampling;
    samples.set(at, core.gptGenerate(model, [0], { count, temperature, seed }));
  }
  const chars = [...shipped.json.chars];
  const kept = latestSamples(samples, at);
  return el(
    "div",
    { class: "why-note", id: "text-samples" },
    memorising(run, w),
    el("p", { text: w.samplesIntro(sampling.count, sampling.temperature, sampling.every) }),
    kept.map(([step, ids]) =>
      el(
        "p",
        { class: "sample" },
        el("strong", { text: w.sampleAt(step) }),
        " ",
        el("span", { class: "poem", text: ids.map((t) => charOf(t, chars)).join("") }),
      ),
    ),
  );
}

/** How far the held-out loss may rise from its lowest, as shown, before the lab says why. */
export const risen = 0.1;

// When the held-out loss has turned back up from its lowest while the training loss went on
// down (the numbers as the status and the plot's table show them, at three decimals), why.
export function memorising({ losses, heldOut }, w) {
  if (heldOut.length < 3 || !losses.length) return [];
  const at3 = (x) => Number(x.toFixed(3));
  const best = heldOut.reduce((a, b) => (b[1] < a[1] ? b : a));
  const [, now] = heldOut.at(-1);
  const train = losses.at(-1);
  if (!(at3(now) - at3(best[1]) >= risen && at3(train) < at3(best[1]))) return [];
  return el("p", {
    id: "text-memorising",
    text: w.memorising(fmt(best[1], 3), best[0], fmt(now, 3), fmt(train, 3)),
  });
}

// A file input in the page's words: the browser's own button would speak its language, not the
// page's; the input stays, out of sight, focusable, and its label is the button. Enter opens
// the picker as Space does (Chromium's file input answers Space only).
function filePick(words, input) {
  input.setAttribute("class", "visually-hidden");
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    input.click();
  });
  return el("label", { class: "file-pick" }, words, input);
}

// What the learner typed in the text box: it stays there through every redraw of the page, and
// after "Train on this text" it is the text in use, still in the box.
let typed = "";

// The presets, a text of one's own (pasted, or a file picked or dropped), and what went wrong.
// Another text is read out with the step, as a step moved to is: the step's words name it.
function sourcePanel(ctx) {
  const { core, msg, state, update, trace } = ctx;
  const w = msg.textLab;
  const said = el("p", { class: "inline-error", id: "text-error", role: "alert" });
  const refuse = (name, error) => {
    said.textContent = w.refused(name, msg.coreError(error.message));
  };
  const use = (name, bytes) => {
    try {
      const source = addText(core, name, bytes);
      update({ source, line: "" }, { announce: true });
    } catch (error) {
      refuse(name, error);
    }
  };
  const area = el("textarea", {
    id: "text-input",
    rows: 6,
    "aria-label": w.pasteLabel,
    placeholder: w.pastePlaceholder,
    oninput: () => (typed = area.value),
  });
  area.value = typed;
  const file = el("input", {
    type: "file",
    id: "text-file",
    accept: ".txt,.md,.csv,.json,.js,.py,.c,.cpp,.html,text/*",
    "aria-label": w.fileLabel,
    onchange: () => file.files[0] && readFile(file.files[0]),
  });
  // a file is read no further than the core needs to see it is too long
  const readFile = async (f) => {
    const bytes = new Uint8Array(await f.slice(0, (1 << 20) + 1).arrayBuffer());
    use(f.name, bytes);
  };
  area.addEventListener("dragover", (e) => e.preventDefault());
  area.addEventListener("drop", (e) => {
    const dropped = e.dataTransfer?.files?.[0];
    if (!dropped) return;
    e.preventDefault();
    readFile(dropped);
  });
  return el(
    "div",
    { class: "why-note text-source" },
    el(
      "div",
      { class: "trainer", role: "group", "aria-label": w.presetsLabel },
      Object.entries(presets).map(([n, name]) =>
        el("button", {
          type: "button",
          id: `text-preset-${name}`,
          "aria-pressed": String(state.source === Number(n)),
          // a preset this copy of the page was built without
          disabled: !presetBytes[name],
          text: w.presetName[name],
          onclick: () => update({ source: Number(n), line: "" }, { announce: true }),
        }),
      ),
      // the learner's own text, once there is one: back to it (and its run) after another lab
      ownSource !== undefined &&
        el("button", {
          type: "button",
          id: "text-own",
          "aria-pressed": String(state.source === ownSource),
          text: w.nameOf(texts.get(ownSource).name),
          onclick: () => update({ source: ownSource, line: "" }, { announce: true }),
        }),
    ),
    el("label", { for: "text-input", text: w.pasteLabel }),
    area,
    el(
      "div",
      { class: "trainer" },
      el("button", {
        type: "button",
        id: "text-use",
        text: w.useText,
        onclick: () => use(w.pastedName, new TextEncoder().encode(area.value)),
      }),
      filePick(w.fileLabel, file),
    ),
    said,
    el("p", {
      class: "why-summary",
      id: "text-now",
      text: trace.shipped ? w.now(w.nameOf(trace.shipped.name)) : w.noText,
    }),
  );
}

// A token as a table names it: a space as ␣.
const shown = (t, chars) => (charOf(t, chars) === " " ? "␣" : charOf(t, chars));

/** The ten most frequent tokens of a model's training stream, the most frequent first. */
const frequent = ({ corpus }) =>
  corpus.counts
    .map((n, t) => t)
    .sort((a, b) => corpus.counts[b] - corpus.counts[a] || a - b)
    .slice(0, 10);

/** How many of `pieces` pieces each part has, as the core splits them (src/corpus.cpp: the
 * ninth of every ten kept for choosing, the tenth held out, from the first piece on). */
export const splitPieces = (pieces) => {
  const heldOut = Math.floor(pieces / 10);
  const validation = Math.floor((pieces + 1) / 10);
  return { train: pieces - heldOut - validation, heldOut, validation };
};

// What the core read: the text's size, its vocabulary, the split, its most frequent tokens.
function corpusPanel({ trace, msg }) {
  const w = msg.textLab;
  const { corpus, json } = trace.shipped;
  const chars = [...json.chars];
  const tokens = corpus.train.length + corpus.validation.length + corpus.heldOut.length;
  const order = frequent(trace.shipped).map((t) => [t, corpus.counts[t]]);
  return el(
    "div",
    { class: "why-note", id: "text-corpus" },
    el("p", {
      id: "text-read",
      text: w.readLine(corpus.characters, corpus.lines, corpus.distinct, json.config.vocab),
    }),
    el("p", {
      id: "text-unknown",
      text: w.unknownLine(corpus.unknown, fmt((100 * corpus.unknown) / tokens, 1)),
    }),
    el("p", {
      id: "text-split",
      text: w.splitLine(
        corpus.pieces,
        splitPieces(corpus.pieces),
        corpus.train.length,
        corpus.validation.length,
        corpus.heldOut.length,
      ),
    }),
    numbers(
      "why-numbers",
      w.countsTitle(corpus.train.length, order.length),
      [w.countHead, w.shareHead],
      order.map(([t, n]) => [
        w.tokenName(t, charOf(t, chars)),
        String(n),
        `${fmt((100 * n) / corpus.train.length, 1)}%`,
      ]),
    ),
  );
}

// The counting models worse than the simpler one before each, at the decimals shown, said in
// one sentence: "" when none is.
function worseThan(b, at2, w) {
  const pairs = [
    ["unigram", "uniform"],
    ["bigram", "unigram"],
  ].filter(([k, than]) => Number(at2(b[k])) > Number(at2(b[than])));
  return pairs.length ? w.worse(pairs.map(([k, than]) => [k, than, at2(b[k]), at2(b[than])])) : "";
}

// The three simpler models' held-out losses: the levels a model of this text must beat.
function baselinesPanel({ trace, msg }) {
  const w = msg.textLab;
  const { corpus } = trace.shipped;
  const b = corpus.baselines;
  const { vocab } = trace.shipped.json.config;
  const at2 = (x) => fmt(x, 2);
  return el(
    "div",
    { class: "why-note", id: "text-baselines" },
    el("p", {
      id: "text-levels",
      text: [
        w.levelsLine(
          vocab,
          at2(b.uniform),
          at2(b.unigram),
          at2(b.bigram),
          // two decimals, as 0.20 (fmt would write an exact 0.2 short)
          b.lambda.toFixed(2),
          (1 - b.lambda).toFixed(2),
          corpus.heldOut.length - 1,
        ),
        worseThan(b, at2, w),
      ].join(""),
    }),
    numbers(
      "why-numbers",
      w.levelsTitle(corpus.heldOut.length - 1),
      [w.lossHead],
      ["uniform", "unigram", "bigram"].map((k) => [w.modelName[k], fmt(b[k], 3)]),
    ),
  );
}

/**
 * A model's two files, as the lab downloads them: the weights (int8 rows, as tang.bin) and the
 * description (as tang.json: its configuration, characters, training, and the held-out loss of
 * the weights before and after they were written as int8, measured on the text).
 */
export function modelFiles(core, shipped, { model, at }) {
  const { corpus, json, name } = shipped;
  const heldOut = core.gptStreamLoss(model, corpus.heldOut);
  const describe = (more) =>
    core.gptModelFiles(model, {
      chars: json.chars,
      text: name,
      training: json.training,
      trainedSteps: at,
      baselines: corpus.baselines,
      heldOut,
      ...more,
    });
  const written = describe({});
  const read = core.gptModelFromFiles(written.description, written.weights);
  return describe({ heldOutInt8: core.gptStreamLoss(read.model, corpus.heldOut) });
}

/**
 * A model read back from its files for this text: { model, at, heldOut } (its held-out loss
 * measured on the text), or an Error that names the field that does not fit, as the core's
 * checks of the files do.
 */
export function modelFromFiles(core, shipped, description, weights) {
  const read = core.gptModelFromFiles(description, weights);
  const { config } = shipped.json;
  const differs = Object.keys(config).find((k) => read.model.config[k] !== config[k]);
  if (differs && differs !== "vocab") {
    throw new Error(
      `config.${differs} is ${read.model.config[differs]}, but this lab's models have ${config[differs]}`,
    );
  }
  if (read.chars !== shipped.json.chars) {
    const [theirs, ours] = [read.model.config.vocab, config.vocab];
    throw new Error(
      `chars: the model's vocabulary (${theirs} tokens, “${[...read.chars].slice(0, 8).join("")}…”) is not this text's (${ours} tokens, “${[...shipped.json.chars].slice(0, 8).join("")}…”): load it with the text it was trained on`,
    );
  }
  const at = Number.isInteger(read.description.trainedSteps) ? read.description.trainedSteps : 0;
  const model = { config, params: read.model.params };
  const heldOut = core.gptStreamLoss(model, shipped.corpus.heldOut);
  // what the description says of the file's weights: a number, or nothing said
  const said = read.description.heldOutInt8;
  return { model, at, heldOut, written: Number.isFinite(said) ? said : undefined };
}

// A file saved from the page.
function save(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The largest weights file read: a model of this lab's shape is about 0.3 MB.
const mostBytes = 16 << 20;

let loaded; // the model last loaded from files: { shipped, name, model, at, heldOut, written }

// Download the model trained here; load one back, by file picker or drop (both its files).
function keepPanel(ctx) {
  const { core, msg, trace, update } = ctx;
  const w = msg.textLab;
  const shipped = trace.shipped;
  const now = trainer.current(shipped);
  // left while the worker trained: it stops, and the step is drawn again with its last weights
  const pending = trainer.settled(shipped);
  pending?.then(() => zone.isConnected && update({}));
  const said = el("p", { class: "inline-error", id: "text-keep-error", role: "alert" });
  const base = `${String(shipped.name)
    .replace(/\.[^.]*$/, "")
    .replace(/[^\p{L}\p{N}_-]+/gu, "-")}-model`;
  const download = el("button", {
    type: "button",
    id: "text-download",
    text: w.download,
    disabled: !now?.model.params || !!pending,
    onclick: () => {
      const files = modelFiles(core, shipped, trainer.current(shipped));
      save(`${base}.json`, files.description, "application/json");
      save(`${base}.bin`, files.weights, "application/octet-stream");
    },
  });
  const loadFiles = async (list) => {
    said.textContent = "";
    const files = [...list];
    const json = files.find((f) => /\.json$/i.test(f.name));
    const bin = files.find((f) => f !== json);
    try {
      if (!json || !bin || files.length !== 2) throw new Error(w.needTwo);
      const weights = new Uint8Array(await bin.slice(0, mostBytes + 1).arrayBuffer());
      if (weights.length > mostBytes) throw new Error(w.tooBig(bin.name));
      const read = modelFromFiles(core, shipped, await json.text(), weights);
      trainer.load(shipped, read.model.params, read.at, read.heldOut, json.name);
      loaded = { shipped, name: json.name, ...read };
      update({});
    } catch (error) {
      said.textContent = w.notLoaded(msg.coreError(error.message));
    }
  };
  const file = el("input", {
    type: "file",
    id: "text-load",
    multiple: true,
    accept: ".json,.bin",
    onchange: () => loadFiles(file.files),
  });
  const zone = el(
    "div",
    { class: "why-note", id: "text-keep" },
    el("p", { text: w.keepIntro }),
    el("div", { class: "trainer" }, download, filePick(w.loadLabel, file)),
    said,
    el("p", {
      class: "why-summary",
      id: "text-kept",
      text: pending
        ? w.keepStopping
        : !now?.model.params
          ? w.keepNothing
          : loaded?.shipped === shipped &&
              loaded.model.params === now.model.params &&
              loaded.written !== undefined
            ? w.loadedNow(loaded.name, loaded.at, fmt(loaded.heldOut, 4), fmt(loaded.written, 4))
            : w.keptNow(now.at, shipped.json.training.steps),
    }),
  );
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("drop", (e) => {
    if (!e.dataTransfer?.files?.length) return;
    e.preventDefault();
    loadFiles(e.dataTransfer.files);
  });
  return zone;
}

// Every head, and the chosen one, on the line, with the weights of the run now.
function headsPanel(ctx) {
  const { core, msg, trace, state } = ctx;
  const now = trainer.current(trace.shipped);
  if (!now?.model.params) return el("p", { id: "text-heads", text: msg.textLab.trainFirst });
  const forward = core.gptForward(now.model, trace.tokens);
  // the box left empty: the line shown is the held-out part's start, and the sentence says so
  return el(
    "div",
    { id: "text-heads" },
    el("p", {
      text: state.line
        ? msg.textLab.headsAt(now.at)
        : msg.textLab.headsOnHeldOut(now.at, trace.line),
    }),
    headGrid({ ...ctx, trace: { ...trace, forward } }),
    trainer.headView(ctx, trace.shipped),
  );
}

export const textLab = {
  id: "text",
  styles: [kitStyles, "labs/gpt/style.css"],
  core: "labs",

  async load() {
    if (presetBytes) return;
    const names = Object.values(presets);
    // a copy of the page built without its presets (make demo) still reads a text of one's own
    const bytes = await Promise.all(names.map((name) => readPreset(name).catch(() => null)));
    presetBytes = Object.fromEntries(names.map((n, k) => [n, bytes[k]]));
  },

  params: () => [
    // which text: a preset (1–3) or the learner's own (from 4); its control is the text panel
    { id: "source", kind: "range", hidden: true, min: 1, max: 1e6, step: 1, initial: 1 },
    {
      id: "line",
      kind: "text",
      initial: "",
      maxLength: textModel.config.context - 1,
      onSteps: ["heads"],
    },
    ...[
      { id: "layer", symbol: "ℓ", min: 1, max: textModel.config.layers, step: 1, initial: 1 },
      { id: "head", symbol: "h", min: 1, max: textModel.config.heads, step: 1, initial: 1 },
    ].map((p) => ({ ...p, kind: "range", onSteps: ["heads"] })),
    // a learning rate too high makes the run diverge: it stops, and says so
    {
      id: "lr",
      kind: "range",
      symbol: "η",
      values: learningRates,
      initial: textModel.training.lr,
      onSteps: ["train"],
    },
  ],

  compute(core, scene, state) {
    const chosen = sourceModel(core, state.source, state.lr);
    if (!chosen) return { inputs: {}, trace: { line: "", tokens: [0], rows: ["⏎"] } };
    const line = state.line || firstHeldOut(chosen);
    const tokens = textEncode(line, chosen.json.chars);
    // the rows' names: the tokens the model reads, a space as ␣, one it does not know as �
    const chars = [...chosen.json.chars];
    const rows = tokens.map((t) => shown(t, chars));
    // shipped: the model drawn, read when drawn (Start may begin a run of another meanwhile): the
    // run kept, of this text, whatever learning rate is chosen now; the one chosen applies when
    // Start trains anew (a slider never drops a run). json: the model's shape, for the recap.
    const trace = { chosen, json: chosen.json, line, tokens, rows };
    Object.defineProperty(trace, "shipped", {
      enumerable: true,
      get: () => {
        const kept = trainer.run()?.shipped;
        return kept?.corpus === chosen.corpus ? kept : chosen;
      },
    });
    return { inputs: {}, trace };
  },

  steps: () => [
    { id: "text", panels: ["corpus"], lead: ["source"] },
    { id: "levels", panels: ["baselines"] },
    { id: "train", panels: ["train"] },
    { id: "heads", panels: ["heads"] },
    { id: "keep", panels: ["keep"] },
  ],

  labels: (scene, msg, trace) => ({ queries: trace.rows, keys: trace.rows }),

  // the unigram model's p for the ten most frequent tokens (all, in a smaller vocabulary): each
  // made from two counts
  view(stepId, { trace, msg }) {
    if (stepId !== "levels" || !trace.shipped) return { focusMatrix: null, matrices: [] };
    const { corpus } = trace.shipped;
    const top = frequent(trace.shipped);
    const names = top.map((t) =>
      msg.textLab.tokenName(t, charOf(t, [...trace.shipped.json.chars])),
    );
    const p = [top.map((t) => corpus.unigram[t])];
    return {
      focusMatrix: "unigram",
      matrices: [
        matrix("unigram", "p", p, ["p"], names, "result", msg.textLab.unigramCaption(top.length)),
      ],
    };
  },

  derivation(mid, i, j, { trace, state }) {
    const { corpus, json } = trace.shipped;
    const t = frequent(trace.shipped)[j];
    const { vocab } = json.config;
    const name = shown(t, [...json.chars]);
    return derivationOf([
      line(
        `p[${name}] = `,
        corpus.unigram[t],
        state.digits,
        () => 0,
        () => `(${corpus.counts[t]} + 1) ÷ (${corpus.train.length} + ${vocab})`,
      ),
    ]);
  },

  worked(mid, i, j, { trace }) {
    const { corpus, json } = trace.shipped;
    const t = frequent(trace.shipped)[j];
    return [(corpus.counts[t] + 1) / (corpus.train.length + json.config.vocab)];
  },

  text: (stepId, { msg, trace }) => {
    const chosen = trace.chosen?.json.training.lr ?? textModel.training.lr;
    // the learning rate of the run drawn, when it is another than the one chosen (weights
    // loaded have none of this lab's: Start trains with the one chosen)
    const run = trainer.run();
    const drawn =
      run && !run.loaded && run.shipped === trace.shipped && trace.shipped !== trace.chosen;
    return msg.steps[stepId].text({
      name: trace.shipped ? msg.textLab.nameOf(trace.shipped.name) : msg.textLab.noTextName,
      line: trace.line,
      steps: textModel.training.steps,
      lr: drawn ? trace.shipped.json.training.lr : chosen,
      next: drawn ? chosen : undefined,
    });
  },

  // without a text (a copy of the page built without its presets), the panels say so
  panels: {
    source: sourcePanel,
    ...Object.fromEntries(
      Object.entries({
        corpus: corpusPanel,
        baselines: baselinesPanel,
        train: (ctx) => trainer.panel(ctx, ctx.trace.shipped, ctx.trace.chosen),
        heads: headsPanel,
        keep: keepPanel,
      }).map(([id, panel]) => [
        id,
        (ctx) =>
          ctx.trace.shipped
            ? panel(ctx)
            : el("p", {
                class: "why-summary",
                id: `text-none-${id}`,
                text: ctx.msg.textLab.noText,
              }),
      ]),
    ),
  },

  words: {
    en: { ...textWords.en, gptLab: gptWords.en.gptLab },
    zh: { ...textWords.zh, gptLab: gptWords.zh.gptLab },
  },
};

export default [{ id: "text", lab: textLab, inputs: {} }];
