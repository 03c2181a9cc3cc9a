// predict-again.test.mjs: in predict mode, new numbers are predicted again. After a step has
// been answered, an edit of the inputs, "Random values" (an edit of every input), a moved α or
// a moved η hide that step's results again; moving between steps, or switching the language,
// keeps what was answered. The state's own rule (store.js), through its one way to change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { createStore } from "../../web/store.js";
import { labOf, resolveScene } from "../../web/lab.js";
import { lessons } from "../../web/catalogue.js";
import { random } from "../../web/random.js";
import { installTextDom } from "./text-dom.mjs";

installTextDom();
const core = await loadAttention();
// the walkthroughs and the sharpness lab (the model lab reads files a page serves)
const entries = lessons.flatMap((l) => l.scenes).filter((e) => !e.lazy || e.id === "sharpness");
const scenes = await Promise.all(entries.map(resolveScene));

// A store in predict mode on `scene`, with its step `stepId` answered.
function answered(scene, stepId) {
  const store = createStore({ core, scenes, partial: { scene, lang: "en", predict: true } });
  const one = scenes.find((s) => s.id === scene);
  const at = labOf(one)
    .steps(one, store.state)
    .findIndex((s) => s.id === stepId);
  assert.ok(at > 0, `${scene} has the step ${stepId}`);
  store.update({ step: at });
  const key = `${scene}:${stepId}`;
  store.update({ revealed: { ...store.state.revealed, [key]: true } });
  assert.ok(store.state.revealed[key], `${key} answered`);
  return { store, key };
}

// New values for every input of a scene, of the same shapes, as "Random values" gives.
function randomInputs(id) {
  const next = random(7);
  const scene = scenes.find((s) => s.id === id);
  return Object.fromEntries(
    Object.entries(scene.inputs).map(([name, m]) => [
      name,
      m.map((row) => row.map(() => Math.round(next() * 40 - 20) / 10)),
    ]),
  );
}

test("an edit, random values, a moved α or η: the answered step is to be predicted again", () => {
  const cases = [
    ["age", "weights", (s) => s.update({ edits: { q: [[2, 0, 0]] } })],
    ["age", "weights", (s) => s.update({ edits: randomInputs("age") })],
    ["age", "weights", (s) => s.update({ alpha: 3 })],
    ["sharpness", "update", (s) => s.update({ eta: 20 })],
  ];
  for (const [scene, stepId, change] of cases) {
    const { store, key } = answered(scene, stepId);
    change(store);
    assert.equal(store.state.revealed[key], undefined, `${key}: asked again after the change`);
  }
});

test("moving between steps, or another language, keeps what was answered", () => {
  const { store, key } = answered("age", "weights");
  store.update({ step: 0 });
  store.update({ lang: "zh" });
  assert.equal(store.state.revealed[key], true);
});
