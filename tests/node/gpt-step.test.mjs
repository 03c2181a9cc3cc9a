// gpt-step.test.mjs: the lab's training step, to the last bit. A drift check (docs/testing.md):
// the loss of each of the shipped trainer's first 20 steps, taken a sequence at a time as the tab
// takes them, and a hash of every weight after them, against what the step gave before the
// step was made faster (tests/fixtures/gpt-step-fingerprint.json, written by
// `node tools/gpt-step-bench.mjs --fingerprint`). The WASM module's float32 arithmetic is the
// same on every machine, so any change to an operation or its order shows here; a change meant
// to make one writes the file again and says why in docs/performance.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fingerprint } from "../../tools/gpt-step-bench.mjs";

test("the shipped trainer's first 20 steps give the recorded losses and weights, bit for bit", async () => {
  const want = JSON.parse(
    readFileSync(new URL("../fixtures/gpt-step-fingerprint.json", import.meta.url), "utf8"),
  );
  const got = await fingerprint(want.steps);
  got.losses.forEach((loss, s) => assert.equal(loss, want.losses[s], `step ${s + 1}`));
  assert.equal(got.params, want.params, "the weights' hash after the steps");
});
