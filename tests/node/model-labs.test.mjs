// model-labs.test.mjs: the four model labs (issue 9) on the real labs module: every cell of
// every step has a derivation whose every "=" holds at the precision shown (tests/node/
// shown.mjs reads the lines as written), at 2 to 6 decimals, in both languages; and the labs'
// numbers equal tests/fixtures/model-labs.json, worked out in float64 NumPy apart from the core.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs } from "../../web/attention.js";
import { wordsFor } from "../../web/lab.js";
import { checkLine } from "./shown.mjs";
import heads from "../../web/labs/heads.js";
import gqa from "../../web/labs/gqa.js";
import kvcache from "../../web/labs/kvcache.js";
import order from "../../web/labs/order.js";
import * as data from "../../web/labs/model-data.js";

const core = await loadLabs();
const fixture = JSON.parse(readFileSync(new URL("../fixtures/model-labs.json", import.meta.url)));
const scenes = [...heads, ...gqa, ...kvcache, ...order];

function contextOf(scene, lang, digits, stepIndex) {
  const lab = scene.lab;
  const state = { scene: scene.id, lang, digits, step: stepIndex, edits: {} };
  const { inputs, trace } = lab.compute(core, scene, state);
  const msg = wordsFor(lang, scene);
  const steps = lab.steps(scene, state);
  const ctx = {
    scene,
    lab,
    state,
    msg,
    steps,
    step: steps[stepIndex],
    stepId: steps[stepIndex].id,
  };
  Object.assign(ctx, { trace, inputs, editable: { ...scene.inputs }, labels: {} });
  ctx.view = lab.view(ctx.stepId, ctx);
  return ctx;
}

test("the labs are the four scenes of issue 9, each with its lab on the labs module", () => {
  assert.deepEqual(
    scenes.map((s) => s.id),
    ["heads", "gqa", "kvcache", "order"],
  );
  for (const s of scenes) assert.equal(s.lab.core, "labs");
});

test("the inputs are the fixture's, transcribed for the NumPy reference", () => {
  for (const key of [
    "x",
    "xPlain",
    "wq",
    "wk4",
    "wv4",
    "wo",
    "wk2",
    "wv2",
    "wk1",
    "wv1",
    "order",
  ]) {
    assert.deepEqual(data[key], fixture.inputs[key], key);
  }
  assert.deepEqual(data.tokens, fixture.inputs.tokens);
});

test("every = in every derivation of every lab holds at the precision shown", (t) => {
  let lines = 0;
  let checked = 0;
  for (const scene of scenes) {
    const stepCount = contextOf(scene, "en", 4, 0).steps.length;
    for (const lang of ["en", "zh"]) {
      for (const digits of [2, 3, 4, 6]) {
        for (let s = 0; s < stepCount; s++) {
          const ctx = contextOf(scene, lang, digits, s);
          for (const m of ctx.view.matrices) {
            m.data.forEach((row, i) =>
              row.forEach((_, j) => {
                const d = scene.lab.derivation(m.id, i, j, ctx);
                assert.ok(
                  d.lines.length > 0,
                  `${scene.id} ${ctx.stepId} ${m.id}[${i}][${j}] has a derivation`,
                );
                for (const l of d.lines) {
                  lines++;
                  const result = checkLine(l.text, digits);
                  if (!result) continue;
                  checked++;
                  assert.ok(result.holds, `${scene.id}, ${digits} decimals, ${lang}: ${l.text}`);
                }
              }),
            );
          }
        }
      }
    }
  }
  t.diagnostic(`${lines} lines written, ${checked} with arithmetic worked out from the text`);
});
