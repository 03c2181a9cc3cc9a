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
import { orderScene } from "../../web/labs/inside/order.js";
import { order as shuffle, xPlain } from "../../web/labs/inside/data.js";
import sharpnessScenes from "../../web/labs/learn/sharpness.js";
import teachScenes from "../../web/labs/learn/teach.js";
import stabilityScenes, { naiveSoftmax } from "../../web/labs/why/stability.js";
import tilingScenes from "../../web/labs/why/tiling.js";
import dropoutScenes from "../../web/labs/why/dropout.js";
import { sceneById } from "../../web/scenes.js";
import { layers } from "../../web/labs/inside/data.js";
import { labAt } from "./lab-context.mjs";
import { calc, bytesOf, functionsUsed, mismatches, inputCell, sharedFunctions } from "./calc.mjs";
import { sheetName } from "../../web/sheet-scene.js";
import { sheetWords } from "../../web/i18n/sheet.js";

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

// Learn the sharpness: the core's descent step from α (η, the target): every factor of it.
function sharpnessTruth(alpha, eta, target) {
  const { q, k, v } = sceneById.age.inputs;
  const [s] = core.sharpnessDescent(q, k, v, { target, alpha, eta, steps: 1 });
  const t = s.trace;
  const g = s.gradients;
  return truthFrom({
    alpha: [[s.alpha]],
    q,
    k,
    v,
    scale: [[t.scale]],
    scores: t.scores,
    scaled: t.scaled,
    rowMax: [[t.rowMax[0]]],
    exp: t.exp,
    rowSum: [[t.rowSum[0]]],
    weights: t.weights,
    output: t.output,
    target: [[target]],
    loss: [[s.loss]],
    dOutput: [[s.dOutput]],
    dWeights: g.weights,
    rowDot: [[g.rowDot[0]]],
    dScaled: g.scaled,
    dScores: g.scores,
    dAlpha: [[s.dAlpha]],
    eta: [[eta]],
    next: [[s.next]],
  });
}
const sharpnessScene = sharpnessScenes.find((scene) => scene.id === "sharpness");
// the α of the step shown: step 3 of a run from α = 1
const [, , third] = core.sharpnessDescent(
  sceneById.age.inputs.q,
  sceneById.age.inputs.k,
  sceneById.age.inputs.v,
  { target: 19.2, alpha: 1, eta: 10, steps: 3 },
);

// Teach 书 to read: the core's descent step from W_Q and W_K (η): the loss, every gradient, the
// new weights, with 书's row of each matrix that has one.
function teachTruth(wq, wk, eta) {
  const { x, wv } = sceneById.book.inputs;
  const [reader, read] = [10, 4];
  const run = core.teachDescent(x, wq, wk, wv, { row: reader, key: read, eta, steps: 1 });
  const [s] = run.steps;
  const t = s.trace;
  const g = s.gradients;
  const row = (m) => [m[reader]];
  return truthFrom({
    x,
    wq,
    wk,
    qrow: row(t.q),
    k: t.k,
    scores: row(t.scores),
    scale: [[t.scale]],
    scaled: row(t.scaled),
    rowMax: [[t.rowMax[reader]]],
    exp: row(t.exp),
    rowSum: [[t.rowSum[reader]]],
    weights: row(t.weights),
    loss: [[s.loss]],
    dscaled: row(g.scaled),
    dq: row(g.q),
    dk: g.k,
    dwq: g.wq,
    dwk: g.wk,
    eta: [[eta]],
    nwq: run.wq,
    nwk: run.wk,
  });
}
const teachScene = teachScenes.find((scene) => scene.id === "teach");
// the weights at step 4 of the page's run (η = 20? the lab's own default), from its seeded start
const teachRun = labAt(core, teachScene, { at: 4 });
const shownTeach = teachRun.trace.steps[3];

// Numerical stability: the page's naive softmax of s (its own JavaScript: Infinity and NaN
// where it overflows), the core's stable one, and the core's masking with −∞ and −1e9.
const pageMask = [
  [true, true, false],
  [false, false, false],
];
function stabilityTruth(s, m, mask = pageMask) {
  const eye = (k) =>
    Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => +(i === j)));
  const stable = core.attention(
    [[1]],
    s.map((x) => [x]),
    eye(s.length),
    { scale: 1 },
  );
  const inf = core.attention(m, eye(3), eye(3), { scale: 1, mask });
  const big = core.attention(m, eye(3), eye(3), { scale: 1, mask, maskValue: -1e9 });
  const naive = naiveSoftmax(s);
  const col = (xs) => xs.map((x) => [x]);
  return truthFrom({
    s: [s],
    nexp: [naive.exp],
    nsum: [[naive.sum]],
    nweights: [naive.weights],
    rowMax: col(stable.rowMax),
    exp: stable.exp,
    rowSum: col(stable.rowSum),
    weights: stable.weights,
    m,
    mask: mask.map((row) => row.map(Number)),
    maskedInf: inf.masked,
    "inf:rowMax": col(inf.rowMax),
    "inf:exp": inf.exp,
    "inf:rowSum": col(inf.rowSum),
    weightsInf: inf.weights,
    masked1e9: big.masked,
    "1e9:rowMax": col(big.rowMax),
    "1e9:exp": big.exp,
    "1e9:rowSum": col(big.rowSum),
    weights1e9: big.weights,
  });
}
const stabilityScene = stabilityScenes.find((scene) => scene.id === "stability");
const { s: s0, m: m0 } = stabilityScene.inputs;

// Online softmax: the core's tiled walk over Q, K, V in blocks of `block`, and the whole rows.
function tilingTruth(q, k, v, block, causal) {
  const mask = causal ? "causal" : undefined;
  const tiled = core.tiledAttention(q, k, v, { block, mask });
  const whole = core.attention(q, k, v, mask ? { mask } : {});
  const col = (xs) => xs.map((x) => [x]);
  const of = { q, k, v, scale: [[tiled.scale]], output: tiled.output, full: tiled.full };
  for (const m of ["scores", "scaled", "masked", "exp", "weights"]) of[`whole:${m}`] = whole[m];
  of["whole:rowMax"] = col(whole.rowMax);
  of["whole:rowSum"] = col(whole.rowSum);
  if (causal) of["whole:mask"] = q.map((_, i) => q.map((_, j) => +(j <= i)));
  tiled.blocks.forEach((b, at) => {
    const p = `b${at + 1}:`;
    for (const m of ["logits", "p", "acc", "partial"]) of[p + m] = b[m];
    for (const m of ["m", "rescale", "l"]) of[p + m] = col(b[m]);
  });
  return truthFrom(of);
}
const tilingScene = tilingScenes.find((scene) => scene.id === "tiling");
const bookQkv = core.selfAttention(
  sceneById.book.inputs.x,
  sceneById.book.inputs.wq,
  sceneById.book.inputs.wk,
  sceneById.book.inputs.wv,
);

// The word-order lab: lab 1's layer on X in order and shuffled, without positions, with
// sinusoidal PE at a quarter and with RoPE; the distance step's q and k turned to each position.
function orderTruth(x) {
  const shuffled = shuffle.map((i) => x[i]);
  const of = { x, xShuffled: shuffled, positions: x.map((_, i) => [i]) };
  Object.assign(of, { wq: layers[4].wq, wk: layers[4].wk, wv: layers[4].wv, wo: layers[4].wo });
  for (const [kind, positions] of Object.entries({
    plain: "none",
    sinusoidal: "sinusoidal",
    rope: "rope",
  })) {
    for (const [side, rows] of Object.entries({ a: x, b: shuffled })) {
      const p = `${kind}:${side}:`;
      const t = core.multiHeadAttention(rows, layers[4], { heads: 4, positions, peScale: 0.25 });
      Object.assign(of, layerCells(p, { x }, layers[4], t));
      if (kind === "sinusoidal") {
        of[`${p}x`] = t.x;
        of.pe = t.sinusoidal.encoding;
      }
      if (kind === "rope") {
        of[`${p}qrot`] = t.qRotated.rotated;
        of[`${p}krot`] = t.kRotated.rotated;
        if (side === "a") {
          of["rope:a:qRotated"] = t.heads[0].q;
          of["rope:a:kRotated"] = t.heads[0].k;
        }
      }
    }
  }
  const plain = core.multiHeadAttention(x, layers[4], { heads: 4 });
  const q = plain.heads[0].q[0];
  const k = plain.heads[0].k[4];
  const positions = x.map((_, i) => i);
  const qm = core.rotary(
    positions.map(() => q),
    positions,
    2,
  ).rotated;
  const kn = core.rotary(
    positions.map(() => k),
    positions,
    2,
  ).rotated;
  Object.assign(of, {
    "distance:q": [q],
    "distance:k": [k],
    "distance:qAtM": qm,
    "distance:kAtN": kn,
    "distance:scores": qm.map((a) => kn.map((b) => a[0] * b[0] + a[1] * b[1])),
  });
  return truthFrom(of);
}
const editedPlain = xPlain.map((row) => [...row]);
editedPlain[1][2] = 0.6;

// Dropout: the core's lookup without dropout and its seeded draw at p; or, for a keep mask and p
// given, that draw worked out here from the core's weights (w·keep/(1 − p), then times V).
function dropoutTruth(q, p, seed, given) {
  const { k, v } = sceneById.age.inputs;
  const plain = core.attention(q, k, v);
  const stats = core.dropoutStats(q, k, v, { p, seed, draws: 1 });
  const keep = given ?? stats.dropped.map((row) => row.map((x) => (x === 0 ? 0 : 1)));
  const dropped = given
    ? plain.weights.map((row, i) => row.map((w, j) => (w * keep[i][j]) / (1 - p)))
    : stats.dropped;
  const drawOutput = given
    ? dropped.map((row) => v[0].map((_, j) => row.reduce((sum, w, c) => sum + w * v[c][j], 0)))
    : stats.drawOutput;
  const col = (xs) => xs.map((x) => [x]);
  return truthFrom({
    q,
    k,
    v,
    scores: plain.scores,
    scale: [[plain.scale]],
    scaled: plain.scaled,
    rowMax: col(plain.rowMax),
    exp: plain.exp,
    rowSum: col(plain.rowSum),
    weights: plain.weights,
    output: plain.output,
    p: [[p]],
    keep,
    dropped,
    drawOutput,
  });
}
const dropoutScene = dropoutScenes.find((scene) => scene.id === "dropout");

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
  {
    name: "sharpness-en",
    scene: sharpnessScene,
    partial: { step: 1, finite: true, at: 3 },
    lang: "en",
    truth: sharpnessTruth(third.alpha, 10, 19.2),
  },
  {
    name: "sharpness-zh",
    scene: sharpnessScene,
    partial: { step: 3 },
    lang: "zh",
    truth: sharpnessTruth(1, 10, 19),
  },
  {
    name: "teach-en",
    scene: teachScene,
    partial: { at: 4, step: 1 },
    lang: "en",
    truth: teachTruth(shownTeach.wq, shownTeach.wk, teachRun.state.eta),
  },
  {
    name: "teach-zh",
    scene: teachScene,
    partial: { hand: true, step: 2 },
    lang: "zh",
    truth: teachTruth(sceneById.book.inputs.wq, sceneById.book.inputs.wk, teachRun.state.eta),
  },
  {
    name: "stability-en",
    scene: stabilityScene,
    partial: { step: 0 },
    lang: "en",
    truth: stabilityTruth(s0[0], m0),
  },
  {
    name: "stability-zh",
    scene: stabilityScene,
    partial: { step: 2, edits: { s: [[-1000, -1001, -1010]] } },
    lang: "zh",
    truth: stabilityTruth([-1000, -1001, -1010], m0),
  },
  {
    name: "tiling-en",
    scene: tilingScene,
    partial: { step: 2, block: 4 },
    lang: "en",
    truth: tilingTruth(bookQkv.q, bookQkv.k, bookQkv.v, 4, false),
  },
  {
    name: "tiling-zh",
    scene: tilingScene,
    partial: { step: 1, block: 3, causal: true },
    lang: "zh",
    truth: tilingTruth(bookQkv.q, bookQkv.k, bookQkv.v, 3, true),
  },
  {
    name: "order-en",
    scene: orderScene,
    partial: { step: 1 },
    lang: "en",
    truth: orderTruth(xPlain),
  },
  {
    name: "order-zh",
    scene: orderScene,
    partial: { step: 3 },
    lang: "zh",
    truth: orderTruth(xPlain),
  },
  {
    name: "dropout-en",
    scene: dropoutScene,
    partial: { step: 1, p: 0.3, draw: 7 },
    lang: "en",
    truth: dropoutTruth(sceneById.age.inputs.q, 0.3, 7),
  },
  {
    name: "dropout-zh",
    scene: dropoutScene,
    partial: { step: 2 },
    lang: "zh",
    truth: dropoutTruth(sceneById.age.inputs.q, 0.5, 1),
  },
];
const teachWq = shownTeach.wq.map((row) => [...row]);
teachWq[3][0] = 0.5;
const editedK = bookQkv.k.map((row) => [...row]);
editedK[4][1] = 2;
// The learner's edits, typed in Calc: [case, [[key, i, j, value]…], the truth after them].
const typed = x.map((row) => [...row]);
typed[4][0] = 0.5;
const edits = [
  ["heads-en", [["x", 4, 0, 0.5]], headsTruth(typed)],
  ["gqa-en", [["x", 4, 0, 0.5]], gqaTruth(typed)],
  // X's fifth row is the fifth step's own row
  ["kvcache-en", [["token5:x", 0, 0, 0.5]], kvcacheTruth(typed)],
  // a learner's own α and η: the gradient and the next α are the core's step from them
  [
    "sharpness-en",
    [
      ["alpha", 0, 0, 2.5],
      ["eta", 0, 0, 4],
    ],
    sharpnessTruth(2.5, 4, 19.2),
  ],
  // a number of W_Q and η, typed in: the loss, the gradients and the new weights follow
  [
    "teach-en",
    [
      ["wq", 3, 0, 0.5],
      ["eta", 0, 0, 2],
    ],
    teachTruth(teachWq, shownTeach.wk, 2),
  ],
  // small scores: the naive softmax is right again; q1 masked whole under −∞ and −1e9
  [
    "stability-en",
    [
      ["s", 0, 0, 1],
      ["s", 0, 1, 2],
      ["s", 0, 2, 3],
      ["mask", 0, 0, 0],
      ["mask", 0, 1, 0],
    ],
    stabilityTruth([1, 2, 3], m0, [
      [false, false, false],
      [false, false, false],
    ]),
  ],
  // a number of K: every block's m, ℓ and acc, and the whole rows, follow
  ["tiling-en", [["k", 4, 1, 2]], tilingTruth(bookQkv.q, editedK, bookQkv.v, 4, false)],
  // a number of X: both orders, every kind of position, and the distance table follow
  ["order-en", [["x", 1, 2, 0.6]], orderTruth(editedPlain)],
  // the draw changed by hand: every key kept, p = 0.2, and a number of Q
  [
    "dropout-en",
    [
      ["keep", 0, 0, 1],
      ["keep", 0, 1, 1],
      ["keep", 0, 2, 1],
      ["keep", 0, 3, 1],
      ["p", 0, 0, 0.2],
      ["q", 0, 1, 0.5],
    ],
    dropoutTruth([[1, 0.5, 0]], 0.2, 7, [[1, 1, 1, 1]]),
  ],
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

test("each lab's sheets are its steps that show matrices (but a sampled average), named in the page's language, opened on the step shown", () => {
  for (const c of cases) {
    const ctx = c.lab.at(c.lang, c.lab.steps[0].id);
    // the steps that show a matrix (the sharpness lab's plots show none), but the dropout lab's
    // average of 10,000 draws, which no formula of the cells computes
    const shown = c.lab.steps
      .map((s, k) => ({ id: s.id, k }))
      .filter(({ id }) => c.lab.at(c.lang, id).view.matrices.length > 0)
      .filter(({ id }) => !(c.scene.id === "dropout" && id === "average"));
    // a tab's name: the title before its colon, cut at 31 characters, with none of \ / ? * [ ]
    const names = shown.map(({ id, k }) => sheetName(`${k + 1} ${ctx.msg.steps[id].title}`));
    assert.deepEqual(
      c.book.sheets.map((s) => s.name),
      [sheetWords[c.lang].noteName, ...names],
    );
    names.forEach((name, n) => {
      const title = ctx.msg.steps[shown[n].id].title;
      assert.ok(name.length <= 31 && !/[:\\/?*[\]]/.test(name), name);
      assert.ok(title.startsWith(name.replace(/^\d+ /, "").replace(/…$/, "")), `${name}: ${title}`);
    });
    // the note: the lab's title, in the page's language
    const note = c.book.sheets[0].cells.map((cell) => cell.value);
    assert.ok(note[0].includes(ctx.msg.scenes[c.scene.id].title), note[0]);
    assert.ok(note.includes(sheetWords[c.lang].functions));
    // the step shown's sheet, or the one before it when that step shows no matrix
    const at = shown.findLastIndex(({ k }) => k <= c.lab.state.step);
    assert.equal(c.book.active, at + 1, c.name);
  }
});

test("the labs' formulas use only the functions the note names, which the four programs share", () => {
  const used = functionsUsed(cases.map((c) => c.book));
  assert.deepEqual(
    [...used].filter((f) => !sharedFunctions.includes(f)),
    [],
  );
  const note = cases[0].book.sheets[0].cells.map((cell) => cell.value).join(" ");
  for (const f of used) assert.ok(note.includes(f), `the note names ${f}`);
  assert.ok(used.has("LN") && used.has("ROWS") && used.has("SIN"));
});
