// lab.test.mjs: the lab contract in Node. The attention lab fills it for the five scenes, and a
// test-only lab (tests/fixtures/tiny-lab.js) fills it with files of its own: its parameter
// makes a URL parameter, its compute calls the real core, its steps and words are its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { labOf } from "../../web/lab.js";
import { wordsFor } from "../../web/words.js";
import { scenes } from "../../web/scenes.js";
import { initialState, paramsFromState, stateFromParams, withEdits } from "../../web/state.js";
import { nearlyUniform } from "../../web/steps.js";
import en from "../../web/i18n/en.js";
import "./gpt-files.mjs";
import { tinyLab, tinyScene } from "../fixtures/tiny-lab.js";

const core = await loadAttention();

test("every built-in scene runs on the attention lab, and its steps declare their panels", () => {
  for (const scene of scenes) {
    const lab = labOf(scene);
    assert.equal(lab.id, "attention");
    const steps = lab.steps(scene, initialState(scenes, { scene: scene.id }));
    assert.equal(steps.at(-1).id, "result");
    assert.ok(steps.at(-1).inStep.includes("result"), "the result in words, inside the last step");
    for (const step of steps) {
      for (const id of [...step.panels, ...step.inStep]) {
        assert.equal(typeof lab.panels[id], "function", `${scene.id} ${step.id}: panel ${id}`);
      }
    }
  }
});

test("a test-only lab: its parameter is state and URL, its compute is the core's", () => {
  const all = [tinyScene, ...scenes];
  const state = initialState(all, { lang: "en" });
  assert.equal(state.scene, "tiny");
  assert.equal(state.t, 1);
  const url = paramsFromState({ ...state, t: 2 }, tinyScene);
  assert.equal(url.get("t"), "2");
  const back = stateFromParams(new URLSearchParams(`${url}&s=1,2,3`), all);
  assert.equal(back.t, 2);
  assert.deepEqual(back.edits, { s: [[1, 2, 3]] });

  const { trace } = labOf(tinyScene).compute(core, tinyScene, state);
  // softmax([2, 1, 0]) by hand: e² / (e² + e + 1) = 7.389056 / 11.107338.
  assert.ok(Math.abs(trace.weights[0][0] - 0.665241) < 1e-6);
  assert.deepEqual(
    tinyLab.steps(tinyScene, state).map((s) => s.id),
    ["row", "weights"],
  );
  const words = wordsFor("zh", tinyScene);
  assert.equal(words.steps.weights.title, "权重");
  assert.equal(words.steps.scores.title, "注意力分数", "the built-in words are still there");
  assert.equal(wordsFor("en", scenes[0]).steps.row, undefined, "a lab's words stay its own");
});

test("state: predict mode is a URL parameter, and edits equal to the scene's are no edits", () => {
  const age = scenes.find((s) => s.id === "age");
  const state = stateFromParams(
    new URLSearchParams("scene=age&predict=1&k=1,2,0;1,2,0;0,0,2;1,4,0"),
    scenes,
  );
  assert.equal(state.predict, true);
  assert.deepEqual(state.edits, {}, "the article's K, typed into the URL, is no edit");
  assert.equal(paramsFromState(initialState(scenes, state), age).get("predict"), "1");
  assert.equal(paramsFromState(initialState(scenes, { scene: "age" }), age).has("predict"), false);
  const edits = withEdits({}, { v: [[18], [20], [22], [19]], q: [[0, 1, 0]] }, age);
  assert.deepEqual(edits, { q: [[0, 1, 0]] });
});

test("state from a hostile URL: clamped, checked or dropped, never passed on", () => {
  const parse = (query) => stateFromParams(new URLSearchParams(query), scenes);
  const big = Array.from({ length: 17 }, () => "1,2").join(";");
  assert.equal(parse("scene=<script>").scene, scenes[0].id);
  assert.equal(parse("scene=constructor").scene, scenes[0].id);
  assert.equal(parse("step=-1").step, 0);
  assert.equal(parse("step=1e9").step, 999, "the walkthrough clamps to its last step");
  assert.equal(parse("step=Infinity").step, 999);
  assert.equal(parse("step=NaN").step, 0);
  assert.equal(parse("scene=age&alpha=1e308").alpha, 10, "a slider's value stays on the slider");
  assert.equal(parse("scene=age&alpha=-5").alpha, 0);
  assert.equal(parse("speed=1e-300").speed, 1, "only the player's speeds");
  assert.equal(parse("speed=4").speed, 4);
  assert.equal(parse("seed=-3").seed, 0);
  assert.equal(parse("seed=1e300").seed, 2 ** 32 - 1);
  assert.equal(parse("digits=1e9").digits, 10);
  assert.equal(parse("digits=1").digits, 2, "only what Decimals shown offers");
  assert.equal(parse("digits=5").digits, 4);
  assert.equal(parse("digits=7").digits, 6);
  assert.equal(parse("lang=__proto__").lang, parse("").lang);
  for (const cell of ['<img onerror="x">.0.0', "q.-1.0", "q.0.99", 'q".0.0', "q.0", "q.1e3.0"]) {
    assert.equal(parse(`cell=${encodeURIComponent(cell)}`).focus, null, cell);
  }
  assert.deepEqual(parse("cell=weights.2.1").focus, { m: "weights", i: 2, j: 1 });
  const tooBig = parse(`scene=dictionary&k=${big}`);
  assert.deepEqual(tooBig.edits, {});
  assert.deepEqual(tooBig.notice, { link: true, tooBig: { id: "k", rows: 17, cols: 2 } });
  assert.match(en.ui.tooBig(tooBig.notice.tooBig), /k is 17×2; .* at most 16 rows/);
  const huge = parse(`scene=dictionary&q=${"9".repeat(100_000)}`);
  assert.deepEqual(huge.edits, { q: [[Number("9".repeat(100_000))]] });
  const markup = parse(`scene=dictionary&q=${encodeURIComponent("<img src=x onerror=alert(1)>")}`);
  assert.deepEqual(markup.edits, {}, "text that is not numbers is no edit");
});

test("predict mode's questions: the largest score, the most weight (ties all right), scaling keeps the order", () => {
  const lab = labOf(scenes[0]);
  const age = scenes.find((s) => s.id === "age");
  const { trace } = lab.compute(core, age, initialState(scenes, { scene: "age" }));
  const labels = lab.labels(age, en, trace, age.inputs);
  const ask = (stepId) =>
    lab.question(stepId, { trace, labels, msg: en, focus: null, focusRow: 0 });
  // scenes.md: scores [1, 1, 0, 1] and weights 0.2808, 0.2808, 0.1576, 0.2808.
  assert.deepEqual(ask("scores").answer, [0, 1, 3]);
  assert.deepEqual(ask("weights").answer, [0, 1, 3]);
  assert.equal(ask("weights").text, "Which key gets the most weight from “surname Zhang?”?");
  assert.deepEqual(ask("scaled").answer, [1], "no: a positive scale keeps the order");
  assert.equal(ask("output"), undefined);
});

test("nearly uniform weights: the classroom's are (0.31 to 0.36), the dictionary's are not", () => {
  const lab = labOf(scenes[0]);
  const classroom = scenes.find((s) => s.id === "classroom");
  const dictionary = scenes.find((s) => s.id === "dictionary");
  const of = (scene) => lab.compute(core, scene, initialState(scenes, { scene: scene.id })).trace;
  const spread = nearlyUniform(of(classroom));
  // scenes.md: weights 0.3077677972 … 0.3595700764, scaled 0.1555634919 … 0.3111269837.
  assert.ok(
    Math.abs(spread.low - 0.3077677972) < 1e-9 && Math.abs(spread.high - 0.3595700764) < 1e-9,
  );
  assert.ok(Math.abs(spread.logitLow - 0.1555634919) < 1e-9);
  assert.equal(nearlyUniform(of(dictionary)), null);
});

// A lab's name in the scene list lives in one place, web/labs/names.js: every lab of the
// catalogue has one there in both languages, nothing else is named there, and neither the i18n
// files nor a lab's own words name it again; the words a lab is shown with still carry it.
test("every lab's list name is written once, in labs/names.js, and reaches its words", async () => {
  const { labNames } = await import("../../web/labs/names.js");
  const { scenes: listed } = await import("../../web/catalogue.js");
  const { resolveScene } = await import("../../web/lab.js");
  const { wordsFor } = await import("../../web/words.js");
  const { default: zh } = await import("../../web/i18n/zh.js");
  const labs = listed.filter((s) => s.lazy);
  assert.deepEqual(Object.keys(labNames).sort(), labs.map((s) => s.id).sort());
  for (const entry of labs) {
    const scene = await resolveScene(entry);
    for (const [lang, page] of [
      ["en", en],
      ["zh", zh],
    ]) {
      assert.equal(page.scenes[entry.id]?.name, undefined, `${lang} i18n names ${entry.id}`);
      const own = scene.lab.words?.[lang]?.scenes?.[entry.id];
      assert.equal(own?.name, undefined, `${entry.id}'s own ${lang} words name it`);
      assert.equal(wordsFor(lang, scene).scenes[entry.id].name, labNames[entry.id][lang]);
      assert.equal(wordsFor(lang, entry).scenes[entry.id].name, labNames[entry.id][lang]);
    }
  }
});
