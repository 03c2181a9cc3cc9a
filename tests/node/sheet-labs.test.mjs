// sheet-labs.test.mjs: "Download as a spreadsheet" for the labs that have it, in the real
// LibreOffice Calc (tests/node/calc.py), one run for all files: each lab's book, written as the
// page writes it, in both languages, recalculated by Calc (calculateAll), holds the core's
// number in every cell of every block to 1e-12 (read from the core's trace, not from the file);
// a number of X typed into the file in Calc recomputes every later cell to the core's numbers
// for the changed X; the sheets are the lab's steps under their names in the page's language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLabs } from "../../web/attention.js";
import { headsScene } from "../../web/labs/inside/heads.js";
import { gqaScene } from "../../web/labs/inside/gqa.js";
import { kvcacheScene } from "../../web/labs/inside/kvcache.js";
import { layers } from "../../web/labs/inside/data.js";
import { labAt } from "./lab-context.mjs";
import { calc, bytesOf, mismatches, inputCell } from "./calc.mjs";

const core = await loadLabs();
const dir = mkdtempSync(join(tmpdir(), "attention-sheet-labs-"));

// Every block's numbers from a multi-head layer's trace, by the keys the sheets give them
// (prefixed for a variant).
function layerCells(p, inputs, layer, trace) {
  const of = { x: inputs.x };
  for (const w of ["wq", "wk", "wv", "wo"]) of[`${p}${w}`] = layer[w];
  for (const m of ["q", "k", "v", "concat", "output"]) of[`${p}${m}`] = trace[m];
  trace.heads.forEach((t, h) => {
    const at = `${p}h${h + 1}-`;
    for (const m of ["scores", "scaled", "masked", "exp", "weights", "output"]) of[at + m] = t[m];
    of[`${at}rowMax`] = t.rowMax.map((x) => [x]);
    of[`${at}rowSum`] = t.rowSum.map((x) => [x]);
    of[`${at}scale`] = [[t.scale]];
  });
  return of;
}
const truthFrom = (of) => ({
  cell: (key, i, j) => {
    if (!of[key]) throw new Error(`the test has no numbers for ${key}`);
    return of[key][i][j];
  },
});

// The heads lab: the core's layer on X.
const headsTruth = (x) =>
  truthFrom(layerCells("", { x }, layers[4], core.multiHeadAttention(x, layers[4], { heads: 4 })));

// The fewer-K/V-heads lab: the core's layer for each h_kv, and its cache after the tokens.
function gqaTruth(x) {
  const of = {};
  const cache = [];
  for (const hKv of [4, 2, 1]) {
    const options = { heads: 4, kvHeads: hKv };
    const trace = core.multiHeadAttention(x, layers[hKv], options);
    Object.assign(of, layerCells(`kv${hKv}:`, { x }, layers[hKv], trace));
    const decoder = core.decoder(layers[hKv], options);
    for (const row of x) decoder.step(row);
    const { width, k, v } = decoder.cache;
    cache.push([width, k.length, v.length]);
  }
  of["kv4:wq"] = layers[4].wq;
  return truthFrom({ ...of, cache });
}

// The KV-cache lab: the decoder's steps over X's rows (the cache's rows as a matrix), and the
// full causal pass beside them.
function kvcacheTruth(x) {
  const options = { heads: 4, kvHeads: 2 };
  const decoder = core.decoder(layers[2], options);
  const of = {};
  const steps = x.map((row) => decoder.step(row));
  steps.forEach((step, t) => {
    const p = `token${t + 1}:`;
    Object.assign(of, layerCells(p, { x }, layers[2], step.trace));
    of[`${p}x`] = [x[t]];
    const { width, k, v } = step.cache;
    const rows = (flat) =>
      Array.from({ length: t + 1 }, (_, i) => Array.from(flat.slice(i * width, (i + 1) * width)));
    of[`${p}kcache`] = rows(k);
    of[`${p}vcache`] = rows(v);
  });
  const full = core.multiHeadAttention(x, layers[2], { ...options, causal: true });
  Object.assign(of, layerCells("full:", { x }, layers[2], full));
  Object.assign(of, { wq: layers[2].wq, wk: layers[2].wk, wv: layers[2].wv, wo: layers[2].wo });
  of["full:x"] = x;
  of["full:mask"] = x.map((_, i) => x.map((_, j) => (j <= i ? 1 : 0)));
  of.cached = steps.map((s) => x.map((_, j) => s.trace.heads[0].weights[0][j] ?? 0));
  of.cachedout = steps.map((s) => Array.from(s.output));
  return truthFrom(of);
}

// A lab's book at a state in a language, as the page's button makes it.
async function labBook(scene, partial, lang) {
  const lab = labAt(core, scene, partial);
  const ctx = lab.at(lang, lab.steps[lab.state.step].id);
  return { lab, book: await scene.lab.sheet(ctx, `http://127.0.0.1/?scene=${scene.id}`) };
}

const x = headsScene.inputs.x;
const edited = x.map((row) => [...row]);
edited[2][3] = 0.7;
const cases = [
  { name: "heads-en", scene: headsScene, partial: { step: 3 }, lang: "en", truth: headsTruth(x) },
  { name: "heads-zh", scene: headsScene, partial: {}, lang: "zh", truth: headsTruth(x) },
  {
    name: "heads-edited",
    scene: headsScene,
    partial: { edits: { x: edited } },
    lang: "en",
    truth: headsTruth(edited),
  },
  { name: "gqa-en", scene: gqaScene, partial: { step: 1 }, lang: "en", truth: gqaTruth(x) },
  { name: "gqa-zh", scene: gqaScene, partial: { step: 3 }, lang: "zh", truth: gqaTruth(x) },
  {
    name: "kvcache-en",
    scene: kvcacheScene,
    partial: { step: 2 },
    lang: "en",
    truth: kvcacheTruth(x),
  },
  {
    name: "kvcache-zh",
    scene: kvcacheScene,
    partial: { step: 5 },
    lang: "zh",
    truth: kvcacheTruth(x),
  },
];
// The learner's edits, typed in Calc: [case, [[key, i, j, value]…], the truth after them].
const typed = x.map((row) => [...row]);
typed[4][0] = 0.5;
const edits = [
  ["heads-en", [["x", 4, 0, 0.5]], headsTruth(typed)],
  ["gqa-en", [["x", 4, 0, 0.5]], gqaTruth(typed)],
  // X's fifth row is the fifth step's own row
  ["kvcache-en", [["token5:x", 0, 0, 0.5]], kvcacheTruth(typed)],
];

const jobs = [];
const expect = [];
for (const c of cases) {
  const { lab, book } = await labBook(c.scene, c.partial, c.lang);
  Object.assign(c, { lab, book, path: join(dir, `${c.name}.xlsx`) });
  writeFileSync(c.path, await bytesOf(book));
  jobs.push({ path: c.path, recalculate: true });
  expect.push({ what: `${c.name}, recalculated`, book, truth: c.truth });
}
for (const [name, changes, truth] of edits) {
  const c = cases.find((x) => x.name === name);
  const set = changes.map(([key, i, j, value]) => ({ ...inputCell(c.book, key, i, j), value }));
  jobs.push({ path: c.path, set });
  expect.push({ what: `${name}, typed in Calc`, book: c.book, truth });
}
const started = Date.now();
const result = calc(jobs);
const seconds = (Date.now() - started) / 1000;
rmSync(dir, { recursive: true, force: true });

test(`Calc recalculates every cell of every lab's file to the core's number (${jobs.length} files, ${seconds.toFixed(1)} s)`, () => {
  expect.forEach((e, n) => {
    const wrong = mismatches(e.book, result.files[n], e.truth);
    assert.deepEqual(wrong.slice(0, 5), [], `${e.what}: ${wrong.length} cells wrong`);
  });
});

test("each lab's sheets are its steps, named in the page's language, opened on the step shown", () => {
  for (const c of cases) {
    const ctx = c.lab.at(c.lang, c.lab.steps[0].id);
    // a tab's name: the title before its colon, cut at 31 characters, with none of \ / ? * [ ]
    const names = c.lab.steps.map((s, k) => {
      const name = `${k + 1} ${ctx.msg.steps[s.id].title}`.split(":")[0].trim();
      return name.length > 31 ? `${name.slice(0, 30).trimEnd()}…` : name;
    });
    assert.ok(
      names.every((n) => !/[\\/?*[\]]/.test(n)),
      names.join(),
    );
    assert.deepEqual(
      c.book.sheets.map((s) => s.name),
      [ctx.msg.sheet.noteName, ...names],
    );
    assert.equal(c.book.active, c.lab.state.step + 1);
    if (c.lang === "zh")
      assert.ok(
        names.every((n) => /[\u3400-\u9fff]/.test(n)),
        names.join(),
      );
  }
});
