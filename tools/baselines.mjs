// tools/baselines.mjs: what three simpler models score on the model lab's held-out Tang poems,
// the levels its loss plot draws beside the shipped weights' 5.25 nats. Reads the token streams
// `make streams` built (web/generated/tang-streams.bin: the same split, vocabulary and training
// text as `make train`) and writes web/labs/gpt/baselines.json, committed beside the model:
//
// - uniform: every token equally likely, −ln(1/V) = ln V;
// - unigram: each token as often as in the training stream, counted with one more each (add-one);
// - bigram: λ · count(a, b) / count(a, ·) + (1 − λ) · unigram(b), the token b after a; λ on a
//   grid of 0.01 is the one with the lowest validation loss, as the model's step was chosen.
//
// Each is the mean of −ln p over the same targets as the model's held-out loss: every token of
// the held-out stream after its first. tests/node/gpt-baselines.test.mjs measures them again
// from the fortune files with NumPy. Run: node tools/baselines.mjs (after make streams).
import { readFile, writeFile } from "node:fs/promises";
import { readConfig, readStreams, readWith } from "../web/labs/gpt/files.js";

const web = new URL("../web/", import.meta.url);
readWith(async (path) => new Uint8Array(await readFile(new URL(path, web))));

const { config } = await readConfig();
const { train, validation, heldOut } = await readStreams();
const V = config.vocab;

const unigramCounts = new Float64Array(V);
for (const t of train) unigramCounts[t]++;
const unigram = unigramCounts.map((n) => (n + 1) / (train.length + V));

// count(a, b) for every pair of neighbours in the training stream, and count(a, ·)
const pairs = new Map();
const after = new Float64Array(V);
for (let i = 0; i + 1 < train.length; i++) {
  const key = train[i] * V + train[i + 1];
  pairs.set(key, (pairs.get(key) ?? 0) + 1);
  after[train[i]]++;
}
const unseen = [...after.keys()].filter((a) => after[a] === 0);
if (unseen.length) throw new Error(`tokens never followed in training: ${unseen}`);

const bigramAt = (lambda) => (a, b) =>
  (lambda * (pairs.get(a * V + b) ?? 0)) / after[a] + (1 - lambda) * unigram[b];

// the mean −ln p of each token of a stream after its first
function loss(stream, p) {
  let sum = 0;
  for (let i = 1; i < stream.length; i++) sum -= Math.log(p(stream[i - 1], stream[i]));
  return sum / (stream.length - 1);
}

const grid = Array.from({ length: 99 }, (_, k) => (k + 1) / 100);
const scored = grid.map((lambda) => [lambda, loss(validation, bigramAt(lambda))]);
const [lambda] = scored.reduce((best, s) => (s[1] < best[1] ? s : best));

const baselines = {
  vocab: V,
  poems: heldOut.filter((t) => t === 0).length,
  targets: heldOut.length - 1,
  uniform: Math.log(V),
  unigram: loss(heldOut, (a, b) => unigram[b]),
  bigram: loss(heldOut, bigramAt(lambda)),
  lambda,
  trainingTokens: train.length,
};
const out = new URL("labs/gpt/baselines.json", web);
await writeFile(out, JSON.stringify(baselines, null, 2) + "\n");
console.log(JSON.stringify(baselines));
