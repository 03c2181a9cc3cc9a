// gpt-baselines.test.mjs: the model lab's loss levels (web/labs/gpt/baselines.json, written by
// tools/baselines.mjs from the page's token streams) against gpt_baselines.py, a NumPy
// measurement written apart that reads Debian's fortune files itself; the held-out poems it
// reads are the streams' own; and the "1 in N" each loss stands for, by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import "./gpt-files.mjs";
import { readBaselines, readConfig, readStreams } from "../../web/labs/gpt/files.js";
import { oneIn } from "../../web/labs/gpt/meaning.js";

const baselines = await readBaselines();
const json = await readConfig();
const streams = await readStreams();
// Debian's python3 with python3-numpy and fortunes-zh: if one is missing this throws, and the
// test fails.
const numpy = JSON.parse(
  execFileSync("/usr/bin/python3", [new URL("gpt_baselines.py", import.meta.url).pathname], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  }),
);

test("NumPy reads the same held-out poems, vocabulary and training text from the fortune files", () => {
  assert.deepEqual(numpy.heldOut, Array.from(streams.heldOut));
  assert.equal(numpy.vocab, json.config.vocab);
  assert.equal(numpy.trainingTokens, streams.train.length);
  assert.equal(baselines.trainingTokens, streams.train.length);
  assert.equal(baselines.targets, streams.heldOut.length - 1);
  assert.equal(numpy.targets, baselines.targets);
  assert.equal(numpy.poems, baselines.poems);
  // every tenth of the 313 Tang poems is held out
  assert.equal(baselines.poems, 31);
});

test("the uniform, unigram and bigram losses are NumPy's", () => {
  assert.equal(baselines.vocab, json.config.vocab);
  assert.ok(Math.abs(baselines.uniform - Math.log(1497)) < 1e-15);
  assert.equal(baselines.lambda, numpy.lambda);
  for (const name of ["uniform", "unigram", "bigram"]) {
    assert.ok(
      Math.abs(baselines[name] - numpy[name]) < 1e-9,
      `${name}: ${baselines[name]} vs ${numpy[name]}`,
    );
  }
  // each model knows more than the one before, and the shipped weights most
  const order = [baselines.uniform, baselines.unigram, baselines.bigram, json.heldOut];
  order.slice(1).forEach((x, k) => assert.ok(x < order[k], order.join(" > ")));
});

test("a loss of L nats is 1 in e^L: by hand", () => {
  assert.equal(oneIn(Math.log(1497), 3), 1497); // e^7.311 = 1,496.6
  assert.equal(oneIn(Math.log(1497), 2), 1495); // e^7.31, as a learner works it out
  assert.equal(oneIn(5.25, 2), 191); // e^5.25 = 190.566
  assert.equal(oneIn(5.618105, 3), 275); // e^5.618 = 275.4
  assert.equal(oneIn(5.618105, 2), 276); // e^5.62 = 275.9
  assert.equal(oneIn(Math.log(4), 2), 4);
  assert.equal(oneIn(json.heldOut, 2), 191);
});
