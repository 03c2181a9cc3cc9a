// gpt-sessions.test.mjs: a training session is the one state that lives in the labs module
// between calls (src/wasm/gpt.cpp says why). Closed, or lost without close() and collected, it
// frees its memory: the heap's bytes in use return to where they were.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { loadLabs } from "../../web/attention.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

const labs = await loadLabs();
const config = { vocab: 8, context: 4, dModel: 4, layers: 1, heads: 1 };
const data = Array.from({ length: 64 }, (_, i) => (i * 5) % 8);
const open = () => labs.gptTrainer(config, data, { batch: 2, total: 10, seed: 3 });

test("a trainer opened and closed 1,000 times leaves the heap where it was", () => {
  const first = open();
  first.step(2);
  first.close();
  const before = labs.memory().inUse;
  for (let i = 0; i < 1000; ++i) {
    const trainer = open();
    trainer.step(1);
    trainer.slice(1);
    trainer.close();
  }
  assert.equal(labs.gptTrainersOpen(), 0);
  assert.equal(labs.memory().inUse, before, "bytes in use");
});

test("a closed trainer says so, and the module keeps working", () => {
  const trainer = open();
  trainer.close();
  assert.throws(() => trainer.step(1), /no trainer \d+ is open/);
  assert.throws(() => trainer.params(), /no trainer \d+ is open/);
  assert.equal(open().step(1).losses.length, 1);
});

test("trainers lost without close() are freed when they are collected", async () => {
  for (let t = 0; t < 200 && labs.gptTrainersOpen() > 0; ++t) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(labs.gptTrainersOpen(), 0, "the one left open by the test before");
  const before = labs.memory().inUse;
  (() => {
    for (let i = 0; i < 20; ++i) open().step(1);
  })();
  assert.equal(labs.gptTrainersOpen(), 20);
  for (let t = 0; t < 200 && labs.gptTrainersOpen() > 0; ++t) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(labs.gptTrainersOpen(), 0, "every lost trainer closed");
  assert.equal(labs.memory().inUse, before, "bytes in use");
});
