// lab.test.mjs: the lab contract in Node. The attention lab fills it for the five scenes, and a
// test-only lab (tests/fixtures/tiny-lab.js) fills it with files of its own: its parameter
// makes a URL parameter, its compute calls the real core, its steps and words are its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { labOf, wordsFor } from "../../web/lab.js";
import { scenes } from "../../web/scenes.js";
import { initialState, paramsFromState, stateFromParams } from "../../web/state.js";
import { tinyLab, tinyScene } from "../fixtures/tiny-lab.js";

const core = await loadAttention();

test("every built-in scene runs on the attention lab, and its steps declare their panels", () => {
  for (const scene of scenes) {
    const lab = labOf(scene);
    assert.equal(lab.id, "attention");
    const steps = lab.steps(scene, initialState(scenes, { scene: scene.id }));
    assert.equal(steps.at(-1).id, "result");
    assert.deepEqual(steps.at(-1).inStep, ["result"]);
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
  assert.equal(words.steps.softmax.title, "Softmax 归一化", "the built-in words are still there");
  assert.equal(wordsFor("en", scenes[0]).steps.row, undefined, "a lab's words stay its own");
});
