// sheet.test.mjs: "Download as a spreadsheet" for the walkthroughs, in the real LibreOffice Calc
// (tests/node/calc.py). Each file is written as the page writes it (the lab's sheet, exceljs),
// for the five scenes in both languages, the book scene under its causal mask, α = 2.5, an
// edited X, and a custom scene with an explicit mask whose second query sees no key. Calc opens
// them all in one run and recalculates every formula (calculateAll), and every cell of every
// block equals the core's number for it to 1e-12 (−∞ where the core has −∞), read from the trace,
// not from the file. Files whose cached numbers are all wrong come out right once recalculated
// (so the test sees Calc compute, not the cache). Then as a learner: a number of Q (or X, α, a
// mask cell) typed into the file in Calc recomputes every later cell to the core's numbers for
// the changed inputs, a whole mask row set to 0 gives that row weights 0 and output 0 with no
// division by zero, and an input changed in the file itself (by exceljs) is recalculated to the
// core's result too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAttention } from "../../web/attention.js";
import { labOf } from "../../web/lab.js";
import { wordsFor } from "../../web/words.js";
import { scenes, sceneById } from "../../web/scenes.js";
import { initialState } from "../../web/state.js";
import { parseScene } from "../../web/custom-scene.js";
import zh from "../../web/i18n/zh.js";
import en from "../../web/i18n/en.js";
import { sheetWords } from "../../web/i18n/sheet.js";
import {
  calc,
  bytesOf,
  ExcelJS,
  functionsUsed,
  mismatches,
  inputCell,
  sharedFunctions,
  stale,
} from "./calc.mjs";

const core = await loadAttention();
const dir = mkdtempSync(join(tmpdir(), "attention-sheet-"));
const words = { zh, en };

// A custom scene, as an author writes it: its second query may see no key.
const blockedScene = parseScene({
  id: "blocked",
  title: { zh: "被挡住的一行", en: "A blocked row" },
  queries: ["a", "b", "c"],
  keys: ["k1", "k2", "k3"],
  inputs: {
    q: [
      [1, 0.5],
      [0.2, -1],
      [2, 1],
    ],
    k: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    v: [
      [1, 2],
      [3, 4],
      [5, -6],
    ],
  },
  mask: [
    [true, false, true],
    [false, false, false],
    [true, true, true],
  ],
});

// A scene in a state, as the page holds it, and the book its button downloads.
async function pageBook(scene, partial = {}) {
  const state = initialState([scene], { scene: scene.id, lang: "en", ...partial });
  const lab = labOf(scene);
  const { inputs, trace } = lab.compute(core, scene, state);
  const msg = wordsFor(state.lang, scene);
  const steps = lab.steps(scene, state);
  const step = steps[state.step];
  const ctx = {
    scene,
    lab,
    state,
    msg,
    trace,
    inputs,
    steps,
    step,
    stepId: step.id,
    focus: null,
    editable: { ...scene.inputs, ...state.edits },
    labels: lab.labels(scene, msg, trace, inputs),
  };
  const book = await lab.sheet(ctx, `http://127.0.0.1/?scene=${scene.id}`);
  const mask = state.causal || scene.mask === "causal" ? "causal" : scene.mask;
  return { book, state, steps, msg, truth: truthOf(ctx.editable, state.alpha, mask, scene) };
}

// What the core computes for these inputs, and each cell's number, by block and place: what
// every cell of the book must hold. The inputs are the learner's (q before α).
function truthOf(inputs, alpha, mask, scene) {
  const q = inputs.x ? undefined : inputs.q.map((row) => row.map((x) => (alpha ?? 1) * x));
  const allowed = (i, j) => (mask === "causal" ? j <= i : mask ? mask[i][j] : true);
  const n = (inputs.x ?? q).length;
  const nk = (inputs.x ?? inputs.k).length;
  const boolMask =
    mask &&
    Array.from({ length: n }, (_, i) => Array.from({ length: nk }, (_, j) => allowed(i, j)));
  const options = mask ? { mask: boolMask } : {};
  const trace = inputs.x
    ? core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv, options)
    : core.attention(q, inputs.k, inputs.v, options);
  const of = {
    x: inputs.x,
    wq: inputs.wq,
    wk: inputs.wk,
    wv: inputs.wv,
    q0: inputs.q,
    alpha: [[alpha]],
    q: trace.q ?? q,
    k: trace.k ?? inputs.k,
    v: trace.v ?? inputs.v,
    scale: [[trace.scale]],
    mask: boolMask?.map((row) => row.map((b) => (b ? 1 : 0))),
    rowMax: trace.rowMax.map((x) => [x]),
    rowSum: trace.rowSum.map((x) => [x]),
  };
  for (const key of ["scores", "scaled", "masked", "exp", "weights", "output"])
    of[key] = trace[key];
  return { trace, cell: (key, i, j) => of[key][i][j], scene };
}

const write = async (name, book) => {
  const path = join(dir, `${name}.xlsx`);
  writeFileSync(path, await bytesOf(book));
  return path;
};

// The cases, each a scene in a state: every scene in both languages (on different steps, within
// each scene's own), and the ones that exercise the mask, α and edits.
const cases = [];
for (const lang of ["en", "zh"]) {
  for (const [k, scene] of scenes.entries()) {
    const count = labOf(scene).steps(scene, initialState([scene], { scene: scene.id })).length;
    cases.push({
      name: `${scene.id}-${lang}`,
      scene,
      partial: { lang, step: (k + (lang === "zh")) % count },
    });
  }
}
cases.push(
  { name: "book-causal", scene: sceneById.book, partial: { causal: true, step: 5 } },
  { name: "age-alpha", scene: sceneById.age, partial: { lang: "zh", alpha: 2.5 } },
  {
    name: "classroom-edited",
    scene: sceneById.classroom,
    partial: {
      edits: {
        x: [
          [1, -0.5],
          [0.25, 0.5],
          [3, 1],
        ],
      },
    },
  },
  { name: "blocked-en", scene: blockedScene, partial: { lang: "en" } },
  { name: "blocked-zh", scene: blockedScene, partial: { lang: "zh", step: 4 } },
);

// The learner's edits, typed in Calc: [case, [[key, i, j, value]…], what the inputs become].
const edits = [
  [
    "age-en",
    [
      ["q0", 0, 1, 1],
      ["alpha", 0, 0, 3],
    ],
    (x) => ({ ...x, alpha: 3, q: [[1, 1, 0]] }),
  ],
  [
    "cup-zh",
    [["q", 1, 1, 0.5]],
    (x) => ({
      ...x,
      q: [
        [3, 0, 0, 0],
        [3, 0.5, 2, 0],
      ],
    }),
  ],
  [
    "classroom-en",
    [["x", 0, 1, 2]],
    (x) => ({
      ...x,
      x: [
        [1, 2],
        [0.5, 0.5],
        [0, 1],
      ],
    }),
  ],
  // the causal mask's first row set to 0: that query sees no key
  [
    "book-causal",
    [
      ["mask", 0, 0, 0],
      ["x", 3, 2, 0.2],
    ],
    (x) => x,
  ],
  // the blocked row opened at one key, and a number of Q changed
  [
    "blocked-en",
    [
      ["mask", 1, 2, 1],
      ["q", 1, 0, 4],
    ],
    (x) => x,
  ],
];

const prepared = await Promise.all(
  cases.map(async (c) => ({ ...c, ...(await pageBook(c.scene, c.partial)) })),
);
const byName = Object.fromEntries(prepared.map((c) => [c.name, c]));

// What the edited inputs compute to; a mask edit changes the mask the truth is made with.
function editedTruth(c, changes, inputsOf) {
  const inputs = inputsOf({ ...c.scene.inputs, ...c.state.edits, alpha: c.state.alpha });
  const maskKey = c.state.causal || c.scene.mask === "causal" ? "causal" : c.scene.mask;
  let mask = maskKey;
  const maskEdits = changes.filter(([key]) => key === "mask");
  if (maskEdits.length) {
    const n = c.book.sheets.find((s) => s.cells.some((x) => x.key === "mask"));
    const rows = Math.max(...n.cells.filter((x) => x.key === "mask").map((x) => x.i)) + 1;
    const cols = Math.max(...n.cells.filter((x) => x.key === "mask").map((x) => x.j)) + 1;
    mask = Array.from({ length: rows }, (_, i) =>
      Array.from({ length: cols }, (_, j) => (maskKey === "causal" ? j <= i : maskKey[i][j])),
    );
    for (const [, i, j, v] of maskEdits) mask[i][j] = v !== 0;
  }
  const typed = { ...inputs };
  for (const [key, i, j, v] of changes) {
    const id = key === "q0" ? "q" : key;
    if (typed[id] && key !== "mask" && key !== "alpha") {
      typed[id] = typed[id].map((row) => [...row]);
      typed[id][i][j] = v;
    }
  }
  return truthOf(typed, inputs.alpha, mask, c.scene);
}

const jobs = [];
const expect = [];
for (const c of prepared) {
  const path = await write(c.name, c.book);
  jobs.push({ path, recalculate: true });
  expect.push({ what: `${c.name}, recalculated`, book: c.book, truth: c.truth });
}
for (const name of ["book-causal", "age-alpha"]) {
  const c = byName[name];
  const path = await write(`${name}-stale`, stale(c.book));
  jobs.push({ path, recalculate: true });
  expect.push({
    what: `${name} with wrong cached numbers, recalculated`,
    book: c.book,
    truth: c.truth,
  });
}
for (const [name, changes, inputsOf] of edits) {
  const c = byName[name];
  const path = join(dir, `${name}.xlsx`);
  const set = changes.map(([key, i, j, value]) => ({ ...inputCell(c.book, key, i, j), value }));
  jobs.push({ path, set });
  expect.push({
    what: `${name}, typed in Calc`,
    book: c.book,
    truth: editedTruth(c, changes, inputsOf),
  });
}
// An input changed in the file itself, not in Calc: the dictionary's Q[1][1] = 2.
{
  const c = byName["dictionary-en"];
  const at = inputCell(c.book, "q", 0, 0);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(dir, "dictionary-en.xlsx"));
  wb.getWorksheet(at.sheet).getCell(at.cell).value = 2;
  const path = join(dir, "dictionary-edited-file.xlsx");
  await wb.xlsx.writeFile(path);
  jobs.push({ path, recalculate: true });
  expect.push({
    what: "dictionary, Q changed in the file",
    book: c.book,
    truth: truthOf({ ...c.scene.inputs, q: [[2, 1]] }, undefined, undefined, c.scene),
  });
}
// The stale file opened as a learner opens it (no recalculation asked): Calc shows the cached
// numbers, so the right numbers above come from Calc's arithmetic.
jobs.push({ path: join(dir, "age-alpha-stale.xlsx") });

const started = Date.now();
const result = calc(jobs);
const seconds = (Date.now() - started) / 1000;
rmSync(dir, { recursive: true, force: true });

test(`Calc (${result.version}) recalculates every cell of every file to the core's number (${jobs.length} files, ${seconds.toFixed(1)} s)`, () => {
  expect.forEach((e, n) => {
    const wrong = mismatches(e.book, result.files[n], e.truth);
    assert.deepEqual(wrong.slice(0, 5), [], `${e.what}: ${wrong.length} cells wrong`);
  });
});

test("without a recalculation Calc shows the file's cached numbers: the test above saw Calc compute", () => {
  const c = byName["age-alpha"];
  const read = result.files.at(-1);
  const weights = c.book.sheets.flatMap((s) =>
    s.cells.filter((x) => x.key === "weights" && x.formula),
  );
  assert.ok(weights.length > 0);
  for (const cell of weights) {
    const sheet = c.book.sheets.find((s) => s.cells.includes(cell)).name;
    assert.equal(read.sheets[sheet][cell.r][cell.c], 999);
  }
});

test("a masked row of keys set to 0 in Calc: weights 0 and output 0, never a division by zero", () => {
  const n = expect.findIndex((e) => e.what === "book-causal, typed in Calc");
  const { book, truth } = expect[n];
  assert.deepEqual(truth.trace.blockedRows, [0]);
  const read = result.files[n];
  for (const sheet of book.sheets) {
    for (const cell of sheet.cells) {
      if (cell.i !== 0 || !["weights", "output", "rowSum", "exp"].includes(cell.key)) continue;
      assert.equal(read.sheets[sheet.name][cell.r][cell.c], 0, `${sheet.name} ${cell.key}`);
    }
  }
  // the scene's own blocked row, as downloaded
  const b = expect.findIndex((e) => e.what === "blocked-en, recalculated");
  assert.deepEqual(expect[b].truth.trace.blockedRows, [1]);
});

test("each sheet is a step of the page, named and labelled in the page's language", () => {
  for (const c of prepared) {
    const lang = c.state.lang;
    const w = words[lang];
    const names = c.steps.map((s, k) => `${k + 1} ${w.steps[s.id].title}`);
    assert.deepEqual(
      c.book.sheets.map((s) => s.name),
      [sheetWords[lang].noteName, ...names],
      c.name,
    );
    assert.equal(c.book.active, c.state.step + 1, `${c.name} opens on its step`);
    const n = prepared.indexOf(c);
    const read = result.files[n];
    // the note, as Calc reads it: the scene's title and what to try, in the page's language
    const note = read.sheets[sheetWords[lang].noteName].map((row) => row[0]);
    const title = c.scene.text?.[lang]?.title ?? w.scenes[c.scene.id].title;
    assert.ok(note[0].includes(title), `${c.name}: ${note[0]}`);
    assert.ok(
      note.some((line) => line.startsWith(lang === "zh" ? "试一试" : "Try it")),
      c.name,
    );
    // the scores sheet's rows are the queries, as the page names them
    const scores = c.book.sheets.find(
      (s) => s.name === names[c.steps.findIndex((s) => s.id === "scores")],
    );
    const first = scores.cells.find((x) => x.kind === "label");
    const rows = read.sheets[scores.name].map((row) => row[first.c]);
    const queries =
      c.scene.tokens?.map((t) => (w.gloss(t) ? `${t} ${w.gloss(t)}` : t)) ??
      c.scene.queryLabels.map((key) => (c.scene.text ? key : w.labels[key]));
    assert.deepEqual(rows.slice(5, 5 + queries.length), queries, c.name);
  }
});

test("the formulas use only functions that LibreOffice, WPS, Excel and Google Sheets share", () => {
  const used = functionsUsed(prepared.map((c) => c.book));
  assert.deepEqual(
    [...used].filter((f) => !sharedFunctions.includes(f)),
    [],
  );
  assert.ok(used.has("EXP") && used.has("IF"));
});
