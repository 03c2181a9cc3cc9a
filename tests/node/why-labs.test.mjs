// why-labs.test.mjs: the four labs of "why it is built this way" on the lab contract, each computed with the real
// labs module (lab.compute(await loadLabs(), scene, state)): every step has a view and words in
// both languages, and each lab's claim is in its numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { wordsFor } from "../../web/words.js";
import { scenes as listed } from "../../web/catalogue.js";
import { initialState } from "../../web/state.js";
import { labAt } from "./lab-context.mjs";
import { naiveSoftmax } from "../../web/labs/why/stability.js";

const core = await loadLabs();
const ids = ["scaling", "tiling", "stability", "dropout"];
const labScenes = Object.fromEntries(
  await Promise.all(
    ids.map(async (id) => [id, await resolveScene(listed.find((s) => s.id === id))]),
  ),
);

function run(id, partial = {}) {
  const scene = labScenes[id];
  const state = initialState([scene], { scene: id, lang: "en", ...partial });
  const { inputs, trace } = scene.lab.compute(core, scene, state);
  return { scene, state, inputs, trace };
}

// Every step's view, words and panels, in both languages.
function walk(id, partial = {}) {
  const scene = labScenes[id];
  const lab = scene.lab;
  const { state, trace, each } = labAt(core, scene, partial);
  for (const ctx of each()) {
    const { msg, step, view } = ctx;
    const where = `${id} ${ctx.state.lang} ${step.id}`;
    assert.ok(msg.scenes[id].name && msg.scenes[id].title && msg.scenes[id].analogy, where);
    assert.ok(msg.steps[step.id]?.title, `${where}: a title`);
    for (const m of view.matrices) {
      assert.ok(m.data.length > 0 && m.data[0].length > 0, `${where} ${m.id}`);
      assert.equal(m.rowLabels.length, m.data.length, `${where} ${m.id} rows`);
      assert.equal(m.colLabels.length, m.data[0].length, `${where} ${m.id} cols`);
    }
    const text = lab.text ? lab.text(step.id, ctx) : msg.steps[step.id].text;
    assert.equal(typeof text, "string");
    assert.ok(text.length > 0, `${where}: words`);
    for (const p of [...step.panels, ...(step.inStep ?? [])]) {
      assert.equal(typeof lab.panels[p], "function", `${id}: panel ${p}`);
    }
  }
  return { scene, state, trace };
}

test("the scene list names every lab before its code loads, in both languages", async () => {
  const { messages } = await import("../../web/i18n/index.js");
  for (const id of ids) {
    const entry = listed.find((s) => s.id === id);
    assert.equal(typeof entry.lazy, "function");
    assert.ok(messages.en.scenes[id].name && messages.zh.scenes[id].name);
  }
});

test("√d_k: saturation without the scale at d_k = 512, soft with it, at every slider position", () => {
  for (const dk of [1, 64, 512]) walk("scaling", { dk });
  const { trace } = run("scaling", { dk: 512 });
  assert.ok(trace.stats.maxWeightUnscaled > 0.9 && trace.stats.maxWeightScaled < 0.6);
  assert.deepEqual(
    trace.curve.map((s) => s.dK),
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  );
  // the spread of q·k grows with d_k; divided by √d_k it stays near 1
  for (const s of trace.curve) {
    assert.ok(Math.abs(s.scoreVariance / s.dK - 1) < 0.2, `d_k ${s.dK}`);
    assert.ok(Math.abs(s.scaledVariance - 1) < 0.2, `d_k ${s.dK}`);
  }
  // the slider's places are the plot's points
  assert.deepEqual(
    labScenes.scaling.lab.params()[0].values,
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  );
});

test("online softmax: tiled equals whole rows to 1e-12 for every block size 1..n, mask or not", () => {
  for (const causal of [false, true]) {
    for (let block = 1; block <= 11; ++block) {
      const { scene, state, trace } = walk("tiling", { block, causal });
      const steps = scene.lab.steps(scene, state);
      assert.equal(steps.length, Math.ceil(11 / block) + 2);
      assert.ok(trace.maxDifference <= 1e-12, `B = ${block}`);
    }
  }
});

test("stability: the naive softmax is not finite where the core's is", () => {
  walk("stability");
  const { trace } = run("stability");
  assert.ok(naiveSoftmax([1000, 998, 990]).weights.every(Number.isNaN));
  assert.ok(trace.naive.exp.every((x) => x === Infinity));
  assert.ok(trace.weights[0].every(Number.isFinite));
  // e⁰, e⁻², e⁻¹⁰ over their sum, by hand
  const sum = 1 + Math.exp(-2) + Math.exp(-10);
  [1, Math.exp(-2), Math.exp(-10)].forEach((e, j) =>
    assert.ok(Math.abs(trace.weights[0][j] - e / sum) < 1e-15),
  );
  assert.deepEqual(trace.minusInfinity.blockedRows, [1]);
  assert.deepEqual(trace.minusInfinity.weights[1], [0, 0, 0]);
  assert.deepEqual(trace.minus1e9.blockedRows, []);
  trace.minus1e9.weights[1].forEach((w) => assert.ok(Math.abs(w - 1 / 3) < 1e-15));
  // small scores: the naive way works, and agrees with the core
  const small = run("stability", { edits: { s: [[1, 2, 3]] } }).trace;
  small.naive.weights.forEach((w, j) => assert.ok(Math.abs(w - small.weights[0][j]) < 1e-15));
});

test("dropout: a draw's row does not sum to 1, and the average of many approaches the output", () => {
  walk("dropout");
  for (const p of [0.1, 0.5, 0.9]) {
    const { trace } = run("dropout", { p });
    assert.ok(Math.abs(trace.droppedRowSums[0] - 1) > 1e-6 || p === 0.1, `p ${p}`);
    assert.ok(trace.differences.at(-1) < trace.differences[0] || trace.differences[0] < 1e-9);
  }
  const { trace } = run("dropout", { p: 0.5, draw: 1 });
  assert.ok(Math.abs(trace.droppedRowSums[0] - 1) > 0.1);
  assert.ok(Math.abs(trace.meanOutput[0][0] - trace.output[0][0]) < 0.05 * trace.output[0][0]);
});

test("the tiling lab names its rescale column in the page's language", () => {
  const { scene, state, inputs, trace } = run("tiling");
  for (const [lang, name] of [
    ["en", "rescale"],
    ["zh", "缩放"],
  ]) {
    const msg = wordsFor(lang, scene);
    const labels = scene.lab.labels(scene, msg, trace, inputs);
    const ctx = { scene, lab: scene.lab, state: { ...state, lang }, msg, trace, inputs, labels };
    const [block1, block2] = scene.lab.steps(scene, state).slice(1);
    const view = scene.lab.view("block1", { ...ctx, step: block1, stepId: "block1" });
    const m = view.matrices.find((x) => x.id === "rescale");
    assert.equal(m.label, name);
    assert.deepEqual(m.colLabels, [name]);
    assert.match(view.matrices.find((x) => x.id === "acc").caption, new RegExp(name));
    const d = scene.lab.derivation("rescale", 0, 0, {
      ...ctx,
      step: block2,
      stepId: "block2",
      focus: null,
    });
    assert.ok(
      d.lines.every((l) => !/rescale/.test(l.text) || lang === "en"),
      lang,
    );
  }
});

// Issue 39 §3: one slow first call (190 ms at n = 64, the memory grown or the code compiled on
// first use) ended the scale lab's column there. Here the real core, its first call made slow.
test("the scale lab times a slow first call again: it does not end the column", async () => {
  const { measure } = await import("../../web/labs/why/scale.js");
  // the lab's clock is this test's: the first call takes 200 ms, every other 0.5 ms, however
  // loaded the machine (the real core computes each call's numbers)
  let clock = 0;
  let calls = 0;
  Object.defineProperty(performance, "now", { value: () => clock, configurable: true });
  const slowFirst = {
    attentionBatched(...args) {
      clock += calls++ === 0 ? 200 : 0.5;
      return core.attentionBatched(...args);
    },
  };
  const times = { fast: {}, causal: {}, reference: {} };
  try {
    await measure(slowFirst, times, { alive: () => true, drawn: () => {}, upTo: 256 });
  } finally {
    delete performance.now;
  }
  for (const variant of ["fast", "causal", "reference"]) {
    assert.deepEqual(Object.keys(times[variant]).map(Number), [64, 128, 256], variant);
    assert.ok(
      Object.values(times[variant]).every((t) => t > 0),
      JSON.stringify(times[variant]),
    );
  }
});
