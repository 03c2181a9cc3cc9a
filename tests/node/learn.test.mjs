// learn.test.mjs: the gradients through the real WASM labs module (attentionBackward,
// selfAttentionBackward, multiHeadBackward) against central finite differences of the
// forward calls, and against PyTorch's autograd (tests/fixtures/autograd.py, plain tensor
// operations on Debian's python3-torch); the age scene's dL/dα by hand; errors.
//
// Finite differences: step h = 1e-5·max(1, |x|), central; agreement to 1e-7 relative with an
// absolute floor of 1e-8.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { random } from "./reference.mjs";
import { sceneById } from "../../web/scenes.js";

const labs = await loadLabs();
const core = await loadAttention();

const matrix = (next, rows, cols, spread = 1.5) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (next() * 2 - 1) * spread));
const loss = (G, output) =>
  G.reduce((s, row, i) => s + row.reduce((t, g, j) => t + g * output[i][j], 0), 0);

function expectGradient(x, f, analytic, what) {
  assert.equal(analytic.length, x.length, what);
  let checked = 0;
  x.forEach((row, i) =>
    row.forEach((keep, j) => {
      const h = 1e-5 * Math.max(1, Math.abs(keep));
      const at = (value) => f(x.map((r, a) => r.map((y, b) => (a === i && b === j ? value : y))));
      const numeric = (at(keep + h) - at(keep - h)) / (2 * h);
      const exact = analytic[i][j];
      const error = Math.abs(exact - numeric);
      assert.ok(
        error <= 1e-7 * Math.max(Math.abs(exact), Math.abs(numeric)) + 1e-8,
        `${what}[${i + 1}][${j + 1}]: ${exact} vs ${numeric}`,
      );
      checked++;
    }),
  );
  return checked;
}

test("attentionBackward: dQ, dK, dV equal finite differences of attention(), masks, scales, dropout", () => {
  const next = random(21);
  let checked = 0;
  const size = () => 1 + Math.floor(next() * 4);
  for (let n = 0; n < 24; n++) {
    const [nQ, nK, dK, dV] = [size(), size(), size(), size()];
    const [q, k, v, G] = [
      matrix(next, nQ, dK),
      matrix(next, nK, dK),
      matrix(next, nK, dV),
      matrix(next, nQ, dV),
    ];
    const options = [
      {},
      { mask: "causal" },
      { mask: q.map((_, i) => k.map((_, j) => (i + j) % 3 !== 0)), maskValue: -1e9 },
      { scale: 0.7 },
      { dropout: { p: 0.3, seed: n } },
    ][n % 5];
    const { trace, gradients } = labs.attentionBackward(q, k, v, G, options);
    assert.deepEqual(trace.output, core.attention(q, k, v, options).output, "the same forward");
    const L = (a, b, c) => loss(G, core.attention(a, b, c, options).output);
    checked += expectGradient(q, (x) => L(x, k, v), gradients.q, `case ${n} dQ`);
    checked += expectGradient(k, (x) => L(q, x, v), gradients.k, `case ${n} dK`);
    checked += expectGradient(v, (x) => L(q, k, x), gradients.v, `case ${n} dV`);
    // each row of d(logits) sums to 0
    for (const row of gradients.masked ?? gradients.scaled) {
      assert.ok(Math.abs(row.reduce((s, x) => s + x, 0)) < 1e-12);
    }
  }
  assert.ok(checked > 300, `${checked} entries`);
});

test("selfAttentionBackward and multiHeadBackward: every weight's gradient equals finite differences", () => {
  const next = random(4);
  const x = matrix(next, 4, 3);
  const [wq, wk, wv] = [matrix(next, 3, 2), matrix(next, 3, 2), matrix(next, 3, 2)];
  const G = matrix(next, 4, 2);
  const self = labs.selfAttentionBackward(x, wq, wk, wv, G, { mask: "causal" });
  const L = (a, b, c, d) => loss(G, core.selfAttention(a, b, c, d, { mask: "causal" }).output);
  expectGradient(x, (m) => L(m, wq, wk, wv), self.gradients.x, "dX");
  expectGradient(wq, (m) => L(x, m, wk, wv), self.gradients.wq, "dW_Q");
  expectGradient(wk, (m) => L(x, wq, m, wv), self.gradients.wk, "dW_K");
  expectGradient(wv, (m) => L(x, wq, wk, m), self.gradients.wv, "dW_V");

  // four query heads on two key-value heads, RoPE, causal
  const X = matrix(next, 5, 4);
  const weights = {
    wq: matrix(next, 4, 8),
    wk: matrix(next, 4, 4),
    wv: matrix(next, 4, 4),
    wo: matrix(next, 8, 4),
  };
  const options = { heads: 4, kvHeads: 2, positions: "rope", causal: true };
  const D = matrix(next, 5, 4);
  const { gradients } = labs.multiHeadBackward(X, weights, D, options);
  const M = (x2, w) => loss(D, labs.multiHeadAttention(x2, w, options).output);
  expectGradient(X, (m) => M(m, weights), gradients.x, "multi-head dX");
  for (const name of ["wq", "wk", "wv", "wo"]) {
    expectGradient(weights[name], (m) => M(X, { ...weights, [name]: m }), gradients[name], name);
  }
  assert.equal(gradients.heads.length, 4);
  assert.equal(gradients.qRotated.length, 5, "RoPE's gradient before it turns back");
});

test("PyTorch's autograd gives the same gradients, to 1e-10", () => {
  const next = random(8);
  const cases = [];
  for (let n = 0; n < 6; n++) {
    const [nQ, nK, dK, dV] = [2 + (n % 3), 3, 2 + (n % 2), 2];
    const q = matrix(next, nQ, dK);
    const k = matrix(next, nK, dK);
    const c = { kind: "attention", q, k, v: matrix(next, nK, dV), dOutput: matrix(next, nQ, dV) };
    if (n === 1) c.mask = q.map((_, i) => k.map((_, j) => j <= i));
    if (n === 2)
      Object.assign(c, { mask: q.map((_, i) => k.map((_, j) => j !== i)), maskValue: -1e9 });
    if (n === 3) c.scale = 1.3;
    cases.push(c);
  }
  for (const [positions, kvHeads] of [
    ["rope", 2],
    ["sinusoidal", 1],
    ["none", 4],
  ]) {
    cases.push({
      kind: "multiHead",
      x: matrix(next, 5, 4),
      wq: matrix(next, 4, 8),
      wk: matrix(next, 4, 2 * kvHeads),
      wv: matrix(next, 4, 2 * kvHeads),
      wo: matrix(next, 8, 4),
      dOutput: matrix(next, 5, 4),
      heads: 4,
      kvHeads,
      causal: positions !== "none",
      positions,
      base: 10000,
    });
  }
  const script = fileURLToPath(new URL("../fixtures/autograd.py", import.meta.url));
  const torch = JSON.parse(
    execFileSync("/usr/bin/python3", [script], { input: JSON.stringify(cases), encoding: "utf8" }),
  );
  const near = (a, b, what) =>
    a.forEach((row, i) =>
      row.forEach((x, j) =>
        assert.ok(
          Math.abs(x - b[i][j]) <= 1e-10 * Math.max(1, Math.abs(b[i][j])),
          `${what}[${i}][${j}]: ${x} vs ${b[i][j]}`,
        ),
      ),
    );
  cases.forEach((c, n) => {
    if (c.kind === "attention") {
      const options = {};
      if (c.mask) options.mask = c.mask;
      if (c.maskValue !== undefined) options.maskValue = c.maskValue;
      if (c.scale !== undefined) options.scale = c.scale;
      const { gradients } = labs.attentionBackward(c.q, c.k, c.v, c.dOutput, options);
      for (const name of Object.keys(torch[n]))
        near(gradients[name], torch[n][name], `case ${n} ${name}`);
    } else {
      const weights = { wq: c.wq, wk: c.wk, wv: c.wv, wo: c.wo };
      const options = {
        heads: c.heads,
        kvHeads: c.kvHeads,
        positions: c.positions,
        causal: c.causal,
      };
      const { gradients } = labs.multiHeadBackward(c.x, weights, c.dOutput, options);
      for (const name of Object.keys(torch[n]))
        near(gradients[name], torch[n][name], `case ${n} ${name}`);
    }
  });
});

test("the age scene, by hand: at α = 1, output 19.472892, L = (output − 19)² = 0.223627, dL/dα = −0.217519", () => {
  // α multiplies q = [1, 0, 0], so dL/dα = dL/dq · [1, 0, 0] = dQ[1][1]; dL/d(output) = 2(output − 19).
  const K = [
    [1, 2, 0],
    [1, 2, 0],
    [0, 0, 2],
    [1, 4, 0],
  ];
  const V = [[18], [20], [22], [19]];
  const forward = core.attention([[1, 0, 0]], K, V).output[0][0];
  const { trace, gradients } = labs.attentionBackward([[1, 0, 0]], K, V, [[2 * (forward - 19)]]);
  assert.equal(trace.output[0][0].toFixed(6), "19.472892");
  assert.equal(((forward - 19) ** 2).toFixed(6), "0.223627");
  assert.equal(gradients.q[0][0].toFixed(6), "-0.217519");
  // output(α) = 19 + 3/(3e^{α/√3} + 1): its derivative, by hand, times 2(output − 19)
  const e = Math.exp(1 / Math.sqrt(3));
  const dOutput = (-3 * 3 * e) / Math.sqrt(3) / (3 * e + 1) ** 2;
  assert.ok(Math.abs(gradients.q[0][0] - 2 * (forward - 19) * dOutput) < 1e-12);
});

test("the gradients' errors name the argument and the shapes, and the module keeps working", () => {
  const M = [
    [1, 2],
    [3, 4],
  ];
  const cases = [
    [
      () => labs.attentionBackward(M, M, M, [[1, 2]]),
      "dL/d(output) is 1×2 but output is 2×2 (one gradient per number)",
    ],
    [
      () =>
        labs.attentionBackward(M, M, M, [
          [1, 2],
          [3, NaN],
        ]),
      "dL/d(output)[2][2] is NaN; every input must be finite",
    ],
    [() => labs.attentionBackward(M, M, M, "x"), "dOutput must be an array of rows"],
    [() => labs.attentionBackward(M, [[1]], M, M), "K has 1 column but Q has 2 (d_k must match)"],
    [
      () =>
        labs.attentionBackward(
          M,
          M,
          [
            [1e10, 0],
            [0, 0],
          ],
          [
            [1e308, 0],
            [0, 0],
          ],
        ),
      "dL/d(weights)[1][1] = dL/d(output)[1]·V[1] overflows to Infinity; the inputs are finite but too large for double (at most 1.8e308)",
    ],
    [
      () => labs.multiHeadBackward(M, { wq: M, wk: M, wv: M, wo: M }, [[1]], { heads: 2 }),
      "dL/d(output) is 1×1 but output is 2×2 (one gradient per number)",
    ],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, { message });
  }
  assert.throws(() => labs.attentionBackward(M, M, M, M, { dWeights: [[1]] }), {
    message: "dL/d(weights) is 1×1 but weights is 2×2 (one gradient per number)",
  });
  assert.throws(() => labs.attentionBackward(M, M, M, M, { dWeights: "x" }), {
    message: "dWeights must be an array of rows",
  });
  for (let n = 0; n < 200; n++) assert.throws(cases[0][0]);
  assert.equal(labs.attentionBackward(M, M, M, M).gradients.v.length, 2, "still working");
});

test("a loss on the weights: the book's cross-entropy −log weights[书][读], its dW_Q and dW_K", () => {
  const { x } = sceneById.book.inputs;
  const identity = x[0].map((_, i) => x[0].map((_, j) => (i === j ? 1 : 0)));
  const next = random(3);
  const wq = matrix(next, 5, 5, 0.5);
  const wk = matrix(next, 5, 5, 0.5);
  const [book, read] = [10, 4];
  const L = (q, k) => -Math.log(core.selfAttention(x, q, k, identity).weights[book][read]);
  const w = core.selfAttention(x, wq, wk, identity).weights;
  const dWeights = w.map((row, i) =>
    row.map((_, j) => (i === book && j === read ? -1 / w[i][j] : 0)),
  );
  const zeros = x.map((row) => row.map(() => 0));
  const { gradients } = labs.selfAttentionBackward(x, wq, wk, identity, zeros, { dWeights });
  expectGradient(wq, (m) => L(m, wk), gradients.wq, "dW_Q");
  expectGradient(wk, (m) => L(wq, m), gradients.wk, "dW_K");
  // that row's d(scaled) is its weights minus the one-hot of 读; no other row is in the loss
  gradients.scaled[book].forEach((g, j) =>
    assert.ok(Math.abs(g - (w[book][j] - (j === read))) < 1e-15),
  );
  assert.ok(gradients.q.slice(0, book).every((row) => row.every((g) => g === 0)));
});
