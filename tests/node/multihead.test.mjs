// multihead.test.mjs: the labs module's multi-head attention, KV cache and positions through
// web/attention.js on the real WASM labs module, against a float64 reference written here
// (plain loops, the papers' formulas), PyTorch's own nn.MultiheadAttention output
// (tests/fixtures/pytorch-mha.json, from pytorch_mha.py), properties and errors. The heap
// over 10,000 steps: decode-heap.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs } from "../../web/attention.js";
import zh from "../../web/i18n/zh.js";
import { random, randomLayer, randomMatrix } from "./reference.mjs";

const core = await loadLabs();
const pytorch = JSON.parse(readFileSync(new URL("../fixtures/pytorch-mha.json", import.meta.url)));

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, i) => {
    if (Array.isArray(x)) return assertClose(x, expected[i], tolerance, `${what}[${i}]`);
    assert.ok(Math.abs(x - expected[i]) <= tolerance, `${what}[${i}] is ${x}, not ${expected[i]}`);
  });
}

// ---- the reference: multi-head attention by its definition, in plain loops ----

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const times = (rows, w) =>
  rows.map((r) =>
    w[0].map((_, c) =>
      dot(
        r,
        w.map((wr) => wr[c]),
      ),
    ),
  );
const columns = (rows, from, n) => rows.map((r) => r.slice(from, from + n));

// RoFormer's rotation of the pairs (2i, 2i+1) of one head's row at position pos.
function ropeRow(x, pos) {
  const out = [...x];
  for (let i = 0; i < x.length / 2; i++) {
    const a = pos * 10000 ** ((-2 * i) / x.length);
    out[2 * i] = x[2 * i] * Math.cos(a) - x[2 * i + 1] * Math.sin(a);
    out[2 * i + 1] = x[2 * i] * Math.sin(a) + x[2 * i + 1] * Math.cos(a);
  }
  return out;
}

function referenceMultiHead(
  x,
  { wq, wk, wv, wo },
  { heads, kvHeads, causal, positions, peScale = 1 },
) {
  const d = wq[0].length / heads;
  const input =
    positions === "sinusoidal"
      ? x.map((r, p) =>
          r.map((v, c) => {
            const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / r.length);
            return v + peScale * (c % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
          }),
        )
      : x;
  const rope = (rows) => (positions === "rope" ? rows.map((r, p) => ropeRow(r, p)) : rows);
  const outputs = [];
  for (let h = 0; h < heads; h++) {
    const g = Math.floor((h * kvHeads) / heads);
    const q = rope(times(input, columns(wq, h * d, d)));
    const k = rope(times(input, columns(wk, g * d, d)));
    const v = times(input, columns(wv, g * d, d));
    outputs.push(
      q.map((qi, i) => {
        const e = k.map((kj, j) => (causal && j > i ? 0 : Math.exp(dot(qi, kj) / Math.sqrt(d))));
        const sum = e.reduce((s, w) => s + w, 0);
        return v[0].map((_, c) => e.reduce((s, w, j) => s + (w / sum) * v[j][c], 0));
      }),
    );
  }
  const concat = x.map((_, i) => outputs.flatMap((o) => o[i]));
  return { concat, output: times(concat, wo) };
}

test("multi-head attention equals the reference for h_kv = h, between and 1, with every kind of position", () => {
  const next = random(9);
  for (const kvHeads of [4, 2, 1]) {
    for (const causal of [false, true]) {
      for (const positions of ["none", "sinusoidal", "rope"]) {
        const x = randomMatrix(next, 5, 6, 1);
        const weights = randomLayer(next, 6, 4, kvHeads, 4);
        // a quarter of PE, as the word-order lab adds it, where there is PE
        const peScale = positions === "sinusoidal" && kvHeads === 2 ? 0.25 : undefined;
        const options = { heads: 4, kvHeads, causal, positions, peScale };
        const trace = core.multiHeadAttention(x, weights, options);
        const expected = referenceMultiHead(x, weights, options);
        const what = `h_kv ${kvHeads} ${causal ? "causal " : ""}${positions}`;
        assertClose(trace.concat, expected.concat, 1e-12, `${what} concat`);
        assertClose(trace.output, expected.output, 1e-12, `${what} output`);
        assert.deepEqual(
          trace.kvHead,
          [0, 1, 2, 3].map((h) => Math.floor((h * kvHeads) / 4)),
        );
        assert.equal(trace.heads.length, 4);
        assert.equal(trace.dHead, 4);
      }
    }
  }
});

test("each head's trace is single-head self-attention on its columns; the concatenation is their outputs", () => {
  const next = random(10);
  const x = randomMatrix(next, 4, 4, 1);
  const w = randomLayer(next, 4, 2, 1, 2);
  const trace = core.multiHeadAttention(x, w, { heads: 2, kvHeads: 1 });
  trace.heads.forEach((head, h) => {
    const single = core.selfAttention(
      x,
      columns(w.wq, 2 * h, 2),
      columns(w.wk, 0, 2),
      columns(w.wv, 0, 2),
    );
    assertClose(head.weights, single.weights, 1e-14, `head ${h + 1} weights`);
    assertClose(columns(trace.concat, 2 * h, 2), single.output, 1e-14, `head ${h + 1} output`);
  });
  assert.deepEqual(trace.heads[0].k, trace.heads[1].k, "multi-query: one key head for both");
});

test("PyTorch's nn.MultiheadAttention: in_proj_weight = [W_Qᵀ; W_Kᵀ; W_Vᵀ], out_proj.weight = W_Oᵀ", (t) => {
  for (const c of pytorch.cases) {
    const trace = core.multiHeadAttention(
      c.x,
      { wq: c.wq, wk: c.wk, wv: c.wv, wo: c.wo },
      { heads: c.heads, causal: c.causal },
    );
    assertClose(trace.output, c.output, 1e-12, "output");
    trace.heads.forEach((head, h) => assertClose(head.weights, c.weights[h], 1e-12, "weights"));
  }
  t.diagnostic(`${pytorch.cases.length} cases from torch ${pytorch.torch}`);
});

test("the KV cache: every step's output equals the full causal pass's row, to 1e-12", (t) => {
  const next = random(12);
  for (const kvHeads of [4, 2, 1]) {
    for (const positions of ["none", "sinusoidal", "rope"]) {
      const x = randomMatrix(next, 10, 8, 1);
      const weights = randomLayer(next, 8, 4, kvHeads, 2);
      const options = { heads: 4, kvHeads, positions };
      const full = core.multiHeadAttention(x, weights, { ...options, causal: true });
      const decoder = core.decoder(weights, options);
      x.forEach((row, i) => {
        const step = decoder.step(row);
        assert.equal(step.position, i);
        assert.equal(decoder.length, i + 1);
        assertClose(step.output, full.output[i], 1e-12, `${kvHeads} ${positions} step ${i + 1}`);
        step.trace.heads.forEach((head, h) =>
          assertClose(head.weights[0], full.heads[h].weights[i].slice(0, i + 1), 1e-12, "weights"),
        );
      });
      assert.equal(decoder.cache.width, kvHeads * 2);
      assert.ok(decoder.cache.k instanceof Float64Array);
    }
  }
  const step = core.decodeStep(null, [1, 0, 0, 0], randomLayer(next, 4, 2, 1, 2), {
    heads: 2,
    kvHeads: 1,
  });
  // d_model 4, h 2, h_kv 1, d_head 2, first token: 4·(2+2)·2 + 2·1·2 + 2·1·2 + 2·2·4
  assert.deepEqual(step.cost, {
    projections: 32,
    scores: 4,
    weightedSum: 4,
    output: 16,
    total: 56,
  });
  assert.deepEqual(step.full, step.cost, "for the first token the two are the same");
  t.diagnostic("10 tokens × 9 layouts, every step equal to the causal pass");
});

test("the cache is the caller's: a step does not touch the cache it was given", () => {
  const next = random(13);
  const weights = randomLayer(next, 4, 2, 2, 2);
  const first = core.decodeStep(undefined, [1, 2, 3, 4], weights, { heads: 2 });
  const before = Array.from(first.cache.k);
  const a = core.decodeStep(first.cache, [0, 1, 0, 1], weights, { heads: 2 });
  const b = core.decodeStep(first.cache, [0, 1, 0, 1], weights, { heads: 2 });
  assert.deepEqual(Array.from(first.cache.k), before);
  assert.deepEqual(a.output, b.output);
  assert.equal(a.cache.length, 2);
});

test("RoPE: a query at m and a key at n score the same for every m − n", () => {
  const next = random(14);
  const q = randomMatrix(next, 1, 8, 1);
  const k = randomMatrix(next, 1, 8, 1);
  const score = (m, n) => dot(core.rotary(q, [m], 8).rotated[0], core.rotary(k, [n], 8).rotated[0]);
  for (const distance of [0, 1, 4, -3]) {
    for (const n of [0, 2, 9, 50]) {
      assert.ok(Math.abs(score(n + distance, n) - score(distance, 0)) < 1e-12);
    }
  }
  assert.ok(Math.abs(score(2, 0) - score(1, 0)) > 1e-3);
  // and the rotation is RoFormer's, on interleaved pairs: hand values at d_head 4, pos 1
  const r = core.rotary([[1, 2, 3, 4]], [1], 4);
  assertClose(r.theta, [1, 0.01], 1e-17, "θ");
  assertClose(
    r.rotated[0],
    [
      Math.cos(1) - 2 * Math.sin(1),
      Math.sin(1) + 2 * Math.cos(1),
      3 * Math.cos(0.01) - 4 * Math.sin(0.01),
      3 * Math.sin(0.01) + 4 * Math.cos(0.01),
    ],
    1e-15,
    "rotated",
  );
});

test("sinusoidal encodings: sin at even columns, cos at odd ones, θ_i = 10000^(−2i/d_model)", () => {
  const pe = core.sinusoidalPositions([0, 1, 3], 4);
  assertClose(
    pe.encoding,
    [
      [0, 1, 0, 1],
      [Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)],
      [Math.sin(3), Math.cos(3), Math.sin(0.03), Math.cos(0.03)],
    ],
    1e-15,
    "PE",
  );
});

test("without positions, shuffling the tokens moves each output row with its token; with them it does not", () => {
  const next = random(15);
  const x = randomMatrix(next, 5, 4, 1);
  const weights = randomLayer(next, 4, 2, 2, 2);
  const order = [3, 0, 4, 1, 2];
  const shuffled = order.map((i) => x[i]);
  const plain = core.multiHeadAttention(x, weights, { heads: 2 });
  const moved = core.multiHeadAttention(shuffled, weights, { heads: 2 });
  order.forEach((i, r) => assertClose(moved.output[r], plain.output[i], 1e-13, `row ${r + 1}`));
  for (const positions of ["sinusoidal", "rope"]) {
    const a = core.multiHeadAttention(x, weights, { heads: 2, positions });
    const b = core.multiHeadAttention(shuffled, weights, { heads: 2, positions });
    const largest = Math.max(
      ...order.flatMap((i, r) => b.output[r].map((y, c) => Math.abs(y - a.output[i][c]))),
    );
    assert.ok(largest > 1e-3, `${positions} makes order matter`);
  }
});

test("every error names the argument and the shapes; the module keeps working", () => {
  const I = [
    [1, 0, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
  ];
  const w = { wq: I, wk: I, wv: I, wo: I };
  const fails = (f, message) => assert.throws(f, { message });
  fails(
    () => core.multiHeadAttention(I, { ...w, wk: columns(I, 0, 2) }, { heads: 4 }),
    "W_K has 2 columns but h_kv·d_head is 4 (h_kv = 4, d_head = 1)",
  );
  fails(
    () => core.multiHeadAttention(I, w, { heads: 4, kvHeads: 3 }),
    "h_kv is 3, which does not divide h = 4 (each key-value head serves h/h_kv query heads)",
  );
  fails(
    () => core.multiHeadAttention(I, w, { heads: 4, positions: "rope" }),
    "RoPE rotates pairs of columns, so d_head must be even, but it is 1",
  );
  fails(
    () => core.multiHeadAttention(I, w, { heads: 1.5 }),
    "heads must be a whole number of at least 1, not 1.5",
  );
  fails(
    () => core.multiHeadAttention(I, w, { positions: "sinusoidal", peScale: "¼" }),
    "peScale must be a number",
  );
  fails(
    () => core.multiHeadAttention(I, w, { positions: "sinusoidal", peScale: Infinity }),
    "peScale must be a finite number",
  );
  fails(
    () => core.multiHeadAttention(I, w, { positions: "learned" }),
    'positions must be "none", "sinusoidal" or "rope", not learned',
  );
  fails(() => core.multiHeadAttention(I, { ...w, wo: undefined }), "W_O must be an array of rows");
  const first = core.decodeStep(null, [1, 0, 0, 0], w, { heads: 2 });
  fails(
    () =>
      core.decodeStep({ ...first.cache, k: first.cache.k.subarray(1) }, [1, 0, 0, 0], w, {
        heads: 2,
      }),
    "cache.k has 3 numbers but length×width is 1×4",
  );
  fails(
    () => core.decodeStep(first.cache, [1, 0, 0], w, { heads: 2 }),
    "W_Q has 4 rows but X has 3 columns (X·W_Q needs them equal)",
  );
  fails(
    () => core.decodeStep(first.cache, [1, 0, 0, 0], w, { heads: 2, kvHeads: 1 }),
    "W_K has 4 columns but h_kv·d_head is 2 (h_kv = 1, d_head = 2)",
  );
  fails(
    () => core.rotary([[1, 2, 3]], [0], 3),
    "RoPE rotates pairs of columns in blocks of d_head: d_head must be even and divide M's 3 columns, but it is 3",
  );
  assert.equal(core.multiHeadAttention(I, w, { heads: 2 }).output.length, 4);
  // Finite numbers whose rotation or projection overflows: the cell, its formula, and Chinese.
  const overflows = [
    [
      () => core.rotary([[1.5e308, 1.5e308]], [1], 2),
      "rotated[1][2] = M[1][1]·sin θ + M[1][2]·cos θ overflows to Infinity; the inputs are finite but too large for double (at most 1.8e308)",
      "rotated[1][2] = M[1][1]·sin θ + M[1][2]·cos θ 溢出为 Infinity；输入都是有限的数，但对 double（最大约 1.8e308）来说太大了",
    ],
    [
      () =>
        core.multiHeadAttention([[1e200, 0, 0, 0]], {
          ...w,
          wq: [[1e200, 0, 0, 0], ...I.slice(1)],
        }),
      "Q[1][1] = X[1]·(column 1 of W_Q) overflows to Infinity; the inputs are finite but too large for double (at most 1.8e308)",
      "Q[1][1] = X[1]·（W_Q 的第 1 列） 溢出为 Infinity；输入都是有限的数，但对 double（最大约 1.8e308）来说太大了",
    ],
  ];
  for (const [call, message, chinese] of overflows) {
    fails(call, message);
    assert.equal(zh.coreError(message), chinese);
  }
});

test("every argument of the model API is checked in JS and named in its error", () => {
  const x = [
    [1, 0],
    [0, 1],
  ];
  const w = { wq: x, wk: x, wv: x, wo: x };
  const cache = (length, width, k = new Float64Array(Math.max(0, length * width))) => ({
    k,
    v: new Float64Array(Math.max(0, length * width)),
    length,
    width,
  });
  for (const [call, message] of [
    [
      () => core.multiHeadAttention(x, w, { heads: 0 }),
      "heads must be a whole number of at least 1, not 0",
    ],
    [
      () => core.multiHeadAttention(x, w, { kvHeads: 1.5 }),
      "kvHeads must be a whole number of at least 1, not 1.5",
    ],
    [
      () => core.multiHeadAttention(x, w, { positions: "alibi" }),
      'positions must be "none", "sinusoidal" or "rope", not alibi',
    ],
    [() => core.multiHeadAttention(x, w, { base: "1e4" }), "base must be a number"],
    [
      () => core.multiHeadAttention(x, w, { mask: [[true]] }),
      "mask must be 'causal' (multi-head attention takes no other mask)",
    ],
    [() => core.multiHeadAttention(x, w, { scale: "1" }), "scale must be a number"],
    [() => core.multiHeadAttention(x, null), "weights must be an object { wq, wk, wv, wo }"],
    ...["wq", "wk", "wv", "wo"].map((name) => [
      () => core.multiHeadAttention(x, { ...w, [name]: undefined }),
      `W_${name[1].toUpperCase()} must be an array of rows`,
    ]),
    [() => core.decodeStep(cache(-1, 2), [1, 0], w), "cache.length must be a whole number, not -1"],
    [
      () => core.decodeStep(cache(0, 1.5), [1, 0], w),
      "cache.width must be a whole number, not 1.5",
    ],
    [() => core.decodeStep(cache(1, 2, [1, 0]), [1, 0], w), "cache.k must be a Float64Array"],
    [
      () => core.decodeStep({ ...cache(1, 2), v: new Float64Array(3) }, [1, 0], w),
      "cache.v has 3 numbers but length×width is 1×2",
    ],
    [() => core.decodeStep(null, 5, w), "x must be one token's row, an array of numbers"],
    [() => core.sinusoidalPositions("0,1", 2), "positions must be an array of numbers"],
    [() => core.sinusoidalPositions([0], 0), "dModel must be a whole number of at least 1, not 0"],
    [() => core.sinusoidalPositions([0], 2, { base: "x" }), "base must be a number"],
    [() => core.rotary(x, "0,1", 2), "positions must be an array of numbers"],
    [() => core.rotary(x, [0, 1], 0), "dHead must be a whole number of at least 1, not 0"],
    [() => core.rotary(x, [0, 1], 2, { base: "x" }), "base must be a number"],
    [() => core.rotary("m", [0, 1], 2), "M must be an array of rows"],
  ]) {
    assert.throws(call, { message });
  }
  // What the checked options do.
  const causal = core.multiHeadAttention(x, w, { causal: true });
  assert.deepEqual(
    core.multiHeadAttention(x, w, { mask: "causal" }).heads[0].weights,
    causal.heads[0].weights,
  );
  assert.equal(causal.heads[0].weights[0][1], 0);
  assert.deepEqual(core.multiHeadAttention(x, w, { scale: 0 }).heads[0].weights, [
    [0.5, 0.5],
    [0.5, 0.5],
  ]);
  const sinusoidal = core.multiHeadAttention(x, w, { positions: "sinusoidal" });
  assert.deepEqual(sinusoidal.sinusoidal.encoding, [
    [0, 1],
    [Math.sin(1), Math.cos(1)],
  ]);
  const rope = core.multiHeadAttention(x, w, { positions: "rope" });
  assert.deepEqual(rope.qRotated.rotated[1], [-Math.sin(1), Math.cos(1)]);
  assert.deepEqual(rope.kRotated.rotated[1], [-Math.sin(1), Math.cos(1)]);
  assert.equal(core.multiHeadAttention(x, w).sinusoidal, undefined);
  // A decoder starts empty, and reset empties it.
  const decoder = core.decoder(w);
  assert.equal(decoder.length, 0);
  decoder.step([1, 0]);
  assert.equal(decoder.step([0, 1]).position, 1);
  decoder.reset();
  assert.equal(decoder.length, 0);
  assert.equal(decoder.step([0, 1]).position, 0);
});
