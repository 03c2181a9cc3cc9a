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

// The labs' worker keeps three trainers at once (the own-text lab's and the induction lab's two)
// and opens and closes them in any order. emmalloc (the WASM build's allocator) gives a free
// region whole when what would be left of it is smaller than a region's header, so the same
// allocations can take a few bytes more or less after the heap's layout has changed: bytes in
// use with trainers open wander within a bound, and with them all closed come back exactly.
// The long run (tests/browser/long-run.test.mjs) allows that bound and no more.
test("three trainers opened and closed in turn: in use wanders within 512 bytes while open, and comes back exactly when all are closed", async () => {
  const { configOf, task, training } = await import("../../web/labs/gpt/induction-run.js");
  const text = labs.textCorpus("the cat sat on the mat\nthe dog sat on the log\n".repeat(8));
  const textConfig = { ...config, context: 16, dModel: 16, vocab: [...text.chars].length + 2 };
  const openText = () => labs.gptTrainer(textConfig, text.train, { batch: 4, total: 100 });
  const openInduction = (layers) => labs.inductionTrainer(configOf(layers), task, training);
  const stepped = (trainer, steps, slice) => {
    for (let s = 0; s < steps;) if (trainer.slice(slice).loss !== undefined) s++;
    return trainer;
  };
  // 30 rounds: the text's trainer each round, the two layers' every third, the one layer's
  // every fifth; the bytes in use after each
  const rounds = () => {
    let own = stepped(openText(), 1, 4);
    let two = stepped(openInduction(2), 2, 8);
    let one = stepped(openInduction(1), 2, 8);
    const inUse = [];
    for (let r = 0; r < 30; r++) {
      own.close();
      own = stepped(openText(), 1, 4);
      if (r % 3 === 0) (two.close(), (two = stepped(openInduction(2), 1, 8)));
      if (r % 5 === 0) (one.close(), (one = stepped(openInduction(1), 1, 8)));
      inUse.push(labs.memory().inUse);
    }
    for (const trainer of [own, two, one]) trainer.close();
    return inUse;
  };
  rounds();
  const closed = labs.memory().inUse;
  for (let k = 0; k < 3; k++) {
    const inUse = rounds();
    assert.ok(Math.max(...inUse) - Math.min(...inUse) <= 512, `open: ${inUse.join(", ")}`);
    assert.equal(labs.memory().inUse, closed, "all closed");
  }
});
