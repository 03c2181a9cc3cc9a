// gpt-reference.test.mjs: the small character transformer of the labs module (gptForward,
// gptGradients, gptModel) against checks written apart from the core: a float64 forward pass
// and a reader of the weights file in plain JS (tests/node/gpt-reference.mjs), and the PyTorch
// script a learner can download (web/labs/gpt/script.js), run with Debian's /usr/bin/python3
// (python3-torch), whose autograd gives every parameter's gradient. On the shipped weights
// (web/labs/gpt/tang.bin, tang.json; every number read from the files) and on a tiny model
// of random weights whose every dimension differs.
//
// "Relative" below is relative to the largest magnitude of the matrix (or tensor) compared:
// max |a − b| / max |b|.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLabs } from "../../web/attention.js";
import { gptScript } from "../../web/labs/gpt/script.js";
import { random } from "./reference.mjs";
import { readWeights, referenceForward, referenceLayout } from "./gpt-reference.mjs";

const labs = await loadLabs();
const file = (name) => new URL(`../../web/labs/gpt/${name}`, import.meta.url);
const meta = JSON.parse(readFileSync(file("tang.json"), "utf8"));
const bytes = new Uint8Array(readFileSync(file("tang.bin")));
const model = labs.gptModel(meta.config, bytes);
const { context } = meta.config;

// Text → ids with tang.json's vocabulary: chars from id 2 on, 1 for a character it lacks.
const chars = Array.from(meta.chars);
const encode = (text) => Array.from(text, (c) => (chars.includes(c) ? chars.indexOf(c) + 2 : 1));

// A sequence from the end token (id 0) and a text: tokens and their next ids (−1 after the last).
function sequence(text, length = Infinity) {
  const stream = [0, ...encode(text)];
  const tokens = stream.slice(0, Math.min(length, stream.length));
  const targets = tokens.map((_, t) => stream[t + 1] ?? -1);
  return { tokens, targets };
}

const poem = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。";
const sequences = [
  sequence("床前明月光，疑是地上霜。"),
  sequence("春眠不觉晓，处处闻啼鸟。☃"), // ☃: unknown, id 1
  sequence(poem.repeat(Math.ceil((context + 1) / poem.length)), context), // the full context
];

// max |a − b| / max |b| over a matrix (arrays of rows), over the cells where keep(i, j).
function relative(a, b, keep = () => true) {
  let diff = 0;
  let top = 0;
  b.forEach((row, i) =>
    row.forEach((y, j) => {
      if (!keep(i, j)) return;
      diff = Math.max(diff, Math.abs(a[i][j] - y));
      top = Math.max(top, Math.abs(y));
    }),
  );
  return diff / top;
}

// The largest relative difference of two forward passes, per quantity.
function compare(a, b) {
  const worst = { q: 0, k: 0, scores: 0, weights: 0, logits: 0, probs: 0, loss: 0 };
  const see = (i, j) => j <= i; // above the diagonal the scores are unused
  assert.equal(a.layers.length, b.layers.length);
  a.layers.forEach((la, l) => {
    const lb = b.layers[l];
    worst.q = Math.max(worst.q, relative(la.q, lb.q));
    worst.k = Math.max(worst.k, relative(la.k, lb.k));
    assert.equal(la.scores.length, lb.scores.length);
    la.scores.forEach((s, h) => {
      worst.scores = Math.max(worst.scores, relative(s, lb.scores[h], see));
      worst.weights = Math.max(worst.weights, relative(la.weights[h], lb.weights[h]));
    });
  });
  worst.logits = relative(a.logits, b.logits);
  worst.probs = relative(a.probs, b.probs);
  worst.loss = Math.abs(a.loss - b.loss) / Math.abs(b.loss);
  return worst;
}

const worstOf = (list) =>
  Object.fromEntries(
    Object.keys(list[0]).map((key) => [key, Math.max(...list.map((w) => w[key]))]),
  );

// Every quantity within its bound; the message gives the measured differences.
function within(worst, bound, what) {
  for (const [key, value] of Object.entries(worst)) {
    const limit = typeof bound === "number" ? bound : bound[key];
    assert.ok(value <= limit, `${what}: ${key} differs by ${value} (bound ${limit})`);
  }
}

// float32 vs float64, relative to each matrix's largest magnitude.
const bounds32 = {
  q: 1e-5,
  k: 1e-5,
  scores: 1e-5,
  weights: 1e-5,
  logits: 1e-5,
  probs: 1e-5,
  loss: 2e-6,
};

// A tiny model, every dimension different (V 11, T 7, C 12, L 3, H 3, d_head 4), random weights.
const tiny = { vocab: 11, context: 7, dModel: 12, layers: 3, heads: 3, base: 100 };
function tinyModel(seed) {
  const next = random(seed);
  const last = referenceLayout(tiny).at(-1);
  const params = Float32Array.from({ length: last.offset + last.cols }, () => next() * 2 - 1);
  return { config: tiny, params };
}

test("the layout and the weights file: gptLayout as specified, gptModel equals a plain JS reader bit for bit", () => {
  for (const config of [meta.config, tiny]) {
    const core = labs.gptLayout(config).map(({ name, rows, cols, offset }) => ({
      name,
      rows,
      cols,
      offset,
    }));
    assert.deepEqual(core, referenceLayout(config));
  }
  const mine = readWeights(meta.config, bytes);
  assert.equal(model.params.length, mine.length);
  assert.deepEqual(model.params, mine);
  assert.ok(mine.every(Number.isFinite));
});

test("the core's float64 forward equals the JS reference to 1e-9 relative; float32 within its bound", () => {
  const precise = [];
  const single = [];
  for (const { tokens, targets } of sequences) {
    const reference = referenceForward(meta.config, model.params, tokens, targets);
    const core64 = labs.gptForward(model, tokens, { targets, precise: true });
    const core32 = labs.gptForward(model, tokens, { targets });
    assert.equal(core64.logits.length, tokens.length);
    precise.push(compare(core64, reference));
    single.push(compare(core32, core64));
  }
  assert.ok(sequences[1].tokens.includes(1), "an unknown character");
  assert.equal(sequences[2].tokens.length, context);
  within(worstOf(precise), 1e-9, "float64 vs the reference");
  // Measured on the shipped weights: float64 vs the reference ≤ 2e-15 in every quantity.
  // float32 vs float64: q, k, scores, logits ≤ 4e-7, weights 6e-7, probs 1e-6 (so under 1e-6
  // absolute: their largest is below 1), loss 1.2e-7; the bounds leave a margin of 10 or more.
  within(worstOf(single), bounds32, "float32 vs float64");

  // a tiny model whose dimensions all differ, at full context and shorter
  for (const seed of [1, 2]) {
    const m = tinyModel(seed);
    const next = random(seed + 10);
    const tokens = Array.from({ length: seed === 1 ? 7 : 4 }, () => Math.floor(next() * 11));
    const targets = tokens.map((_, t) => (t % 3 === 2 ? -1 : (tokens[t] * 5 + 3) % 11));
    const core64 = labs.gptForward(m, tokens, { targets, precise: true });
    within(compare(core64, referenceForward(tiny, m.params, tokens, targets)), 1e-9, "tiny");
  }
});

test("the exported PyTorch script: its loss, logits and autograd gradients equal the core's float64", () => {
  const { tokens } = sequences[2];
  const targets = sequences[2].targets.with(5, -1); // and a row with no target
  const dir = mkdtempSync(join(tmpdir(), "attention-model-"));
  copyFileSync(file("tang.bin"), join(dir, "tang.bin"));
  const script = join(dir, "model.py");
  writeFileSync(script, gptScript({ config: meta.config, tokens, targets, title: "Tang poems" }));
  const out = join(dir, "out.json");
  // Debian's python3 with python3-torch: if either is missing this throws, and the test fails.
  const printed = execFileSync("/usr/bin/python3", [script], {
    encoding: "utf8",
    env: { ...process.env, ATTENTION_JSON_OUT: out },
  });
  const torch = JSON.parse(readFileSync(out, "utf8"));

  const forward = labs.gptForward(model, tokens, { targets, precise: true });
  const { loss, gradients } = labs.gptGradients(model, tokens, targets, { precise: true });
  assert.match(printed, new RegExp(`^loss ${forward.loss.toFixed(6)}$`, "m"));
  assert.ok(Math.abs(torch.loss - forward.loss) <= 1e-12 * forward.loss, `${torch.loss}`);
  assert.ok(Math.abs(loss - forward.loss) <= 1e-12 * forward.loss, "gptGradients' loss");
  // measured: the loss equal, the logits 7e-16 relative, the gradients ≤ 5e-15 relative
  // per tensor; bounded at 1e-11
  const logits = relative(torch.logits, forward.logits);
  assert.ok(logits <= 1e-11, `logits differ by ${logits}`);

  const layout = labs.gptLayout(meta.config);
  assert.deepEqual(
    Object.keys(torch.gradients),
    layout.map((t) => t.name),
  );
  for (const { name, rows, cols, offset } of layout) {
    const core = Array.from(gradients.subarray(offset, offset + rows * cols));
    assert.equal(torch.gradients[name].length, core.length, name);
    const d = relative([torch.gradients[name]], [core]);
    assert.ok(d <= 1e-11, `${name}: the gradients differ by ${d} relative`);
    assert.ok(
      core.some((g) => g !== 0),
      `${name}: some gradient`,
    );
  }
});

// The largest difference over a tensor, relative to its largest magnitude.
function tensorGap(a, b, { offset, rows, cols }) {
  let gap = 0;
  let size = 0;
  for (let i = offset; i < offset + rows * cols; i++) {
    gap = Math.max(gap, Math.abs(a[i] - b[i]));
    size = Math.max(size, Math.abs(b[i]));
  }
  return gap / size;
}

test("float32 training's gradients (in WASM: its SIMD product, e^x and tanh) are float64's within their bound", () => {
  const cases = [
    // the shipped model, two sequences of 64 at once, a row with no target
    {
      m: model,
      tokens: [...sequences[2].tokens, ...sequences[2].tokens.toReversed()],
      batch: 2,
    },
    // the tiny model: every product's edge tiles
    { m: tinyModel(3), tokens: [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7], batch: 2 },
  ];
  for (const { m, tokens, batch } of cases) {
    const targets = tokens.map((t, i) => (i % 9 === 4 ? -1 : (t * 7 + i) % m.config.vocab));
    const single = labs.gptGradients(m, tokens, targets, { batch });
    const precise = labs.gptGradients(m, tokens, targets, { batch, precise: true });
    assert.ok(Math.abs(single.loss - precise.loss) <= 2e-6 * precise.loss, "the loss");
    // measured: every tensor within 7e-7 of its largest gradient; bounded at 1e-5
    for (const t of labs.gptLayout(m.config)) {
      const gap = tensorGap(single.gradients, precise.gradients, t);
      assert.ok(gap <= 1e-5, `${t.name}: float32 differs by ${gap} relative`);
    }
  }
});

test("properties: probabilities and weights are distributions, causal; a later token changes no earlier row", () => {
  const { tokens } = sequences[2];
  // the core in float64 and float32, and the reference; row sums to 1 within tol (measured:
  // float64 5e-15, float32 2e-6 on probs, 3e-7 on weights)
  const passes = [
    { what: "float64", tol: 1e-12, run: (ids) => labs.gptForward(model, ids, { precise: true }) },
    { what: "float32", tol: 2e-5, run: (ids) => labs.gptForward(model, ids) },
    {
      what: "reference",
      tol: 1e-12,
      run: (ids) => referenceForward(meta.config, model.params, ids),
    },
  ];
  for (const { what, tol, run } of passes) {
    const before = run(tokens);
    const sums = (rows) => rows.map((row) => row.reduce((s, x) => s + x, 0));
    sums(before.probs).forEach((sum, i) =>
      assert.ok(Math.abs(sum - 1) <= tol, `${what} probs ${i}`),
    );
    assert.ok(before.probs.flat().every((p) => p >= 0));
    for (const weights of before.layers.flatMap((layer) => layer.weights)) {
      sums(weights).forEach((sum, i) => assert.ok(Math.abs(sum - 1) <= tol, `${what} row ${i}`));
      weights.forEach((row, i) =>
        row.forEach((w, j) => assert.ok(j > i ? w === 0 : w >= 0, `${what} [${i}][${j}]`)),
      );
    }
    // change the token at position t: the rows before it stay exactly the same, its own does not
    for (const t of [1, 20, tokens.length - 1]) {
      const after = run(tokens.with(t, (tokens[t] + 7) % meta.config.vocab));
      assert.deepEqual(after.logits.slice(0, t), before.logits.slice(0, t), `${what} before ${t}`);
      assert.notDeepEqual(after.logits[t], before.logits[t], `${what} at ${t}`);
    }
  }
});
