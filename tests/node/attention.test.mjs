// attention.test.mjs: web/attention.js on the real WASM core, against scenes.md (through the
// shared fixture), a separate float64 reference, and its own error and leak guarantees.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { referenceAttention, random, randomMatrix } from "./reference.mjs";
import { sceneById } from "../../web/scenes.js";

const scenes = JSON.parse(readFileSync(new URL("../fixtures/scenes.json", import.meta.url)));
const core = await loadAttention();
// A real collection before each heap reading of the lifetime test.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  actual.forEach((row, i) => {
    assert.equal(row.length, expected[i].length, `${what}[${i}]: column count`);
    row.forEach((x, j) => {
      const diff = Math.abs(x - expected[i][j]);
      assert.ok(diff <= tolerance, `${what}[${i}][${j}] is ${x}, expected ${expected[i][j]}`);
    });
  });
}

const round = (m, digits) => m.map((row) => row.map((x) => Number(x.toFixed(digits))));

test("classroom: self-attention on 我爱你 matches scenes.md", (t) => {
  const s = scenes.classroom;
  const trace = core.selfAttention(s.x, s.wq, s.wk, s.wv);
  for (const step of ["q", "k", "v", "scores", "scaled", "weights", "output"]) {
    assertClose(trace[step], s[step], 1e-9, step);
  }
  assert.ok(Math.abs(trace.scale - Math.SQRT1_2) < 1e-15);
  assert.equal(trace.masked, undefined);
  assert.deepEqual(round(trace.output, 3), s.summary, "the article's 3-decimal summary");
  t.diagnostic(
    `classroom output ${round(trace.output, 3)
      .map((r) => r.join(" "))
      .join(" / ")}`,
  );
});

test("classroom: the article's printed weights and output are the erratum", () => {
  const s = scenes.classroom;
  const trace = core.attention(s.q, s.k, s.v);
  const maxDiff = (a, b) =>
    Math.max(...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i][j]))));
  assert.ok(maxDiff(trace.weights, s.articlePrinted.weights) > 1e-4);
  assert.ok(maxDiff(trace.output, s.articlePrinted.output) > 1e-4);
});

test("age: the key-value lookup gives 19.4729, and sharpens towards 19 with α", (t) => {
  const s = scenes.age;
  const trace = core.attention(s.q, s.k, s.v);
  for (const step of ["scores", "scaled", "weights", "output"]) {
    assertClose(trace[step], s[step], 1e-9, step);
  }
  assert.equal(trace.output[0][0].toFixed(4), "19.4729");
  t.diagnostic(`age result ${trace.output[0][0].toFixed(4)}`);
  for (const { alpha, output, digits } of s.alpha) {
    const q = s.q.map((row) => row.map((x) => x * alpha));
    const sharpened = core.attention(q, s.k, s.v).output[0][0];
    assert.equal(sharpened.toFixed(digits), output.toFixed(digits), `α = ${alpha}`);
  }
});

test("the labs module loads once and computes what the core does, errors included", async () => {
  const labs = await loadLabs();
  assert.equal(await loadLabs(), labs);
  assert.notEqual(labs, core);
  const { q, k, v } = scenes.dictionary;
  assert.deepEqual(labs.attention(q, k, v), core.attention(q, k, v));
  assert.throws(() => labs.attention([[1, 2]], [[1, 2, 3]], [[1]]), /K has 3 columns but Q has 2/);
});

test("dictionary: fruit → apple, banana, chair", () => {
  const s = scenes.dictionary;
  const trace = core.attention(s.q, s.k, s.v);
  for (const step of ["scores", "scaled", "weights", "output"]) {
    assertClose(trace[step], s[step], 1e-9, step);
  }
  assert.deepEqual(round(trace.weights, 2), s.articlePrinted.weights);
  assert.deepEqual(round(trace.output, 2), s.articlePrinted.output);
});

test("cup: the page's scene is scenes.md's, and the core gives NumPy's numbers", () => {
  const s = scenes.cup;
  const { inputs, keyLabels } = sceneById.cup;
  assert.deepEqual([inputs.q, inputs.k, inputs.v], [s.q, s.k, s.v]);
  assert.deepEqual(keyLabels, s.objects);
  const trace = core.attention(s.q, s.k, s.v);
  for (const step of ["scores", "scaled", "weights", "output"]) {
    assertClose(trace[step], s[step], 1e-9, step);
  }
  // Salience is in the keys: only the cup stands out. Both queries pull toward it alike; the
  // task picks the book, and the cup still comes second.
  assert.deepEqual(
    s.k.map((row) => row[0]),
    [0, 0, 0, 0, 1],
  );
  assert.equal(s.q[0][0], s.q[1][0]);
  const order = (row) =>
    row
      .map((w, j) => [w, j])
      .sort((a, b) => b[0] - a[0])
      .map(([, j]) => j);
  assert.deepEqual(order(trace.weights[0])[0], 4);
  assert.deepEqual(order(trace.weights[1]).slice(0, 2), [3, 4]);
});

test("apple: the page's scene is scenes.md's; 苹果's one query gives two outputs, NumPy's", () => {
  const s = scenes.apple;
  const scene = sceneById.apple;
  const { inputs, keyLabels, mask, own } = scene;
  assert.deepEqual([inputs.q, inputs.k, inputs.v, mask], [s.q, s.k, s.v, s.allowed]);
  assert.deepEqual(keyLabels, s.words);
  const trace = core.attention(s.q, s.k, s.v, { mask });
  for (const step of ["scores", "scaled", "weights", "output"]) {
    assertClose(trace[step], s[step], 1e-9, step);
  }
  // the same query and the same own value in both sentences, two different outputs: 苹果 as
  // food beside 吃, as electronics beside 手机
  assert.deepEqual(s.q[0], s.q[1]);
  assert.deepEqual(
    own.map((j) => s.words[j]),
    ["苹果", "苹果"],
  );
  assert.deepEqual(s.v[own[0]], s.own);
  assert.deepEqual(s.v[own[1]], s.own);
  assert.ok(trace.output[0][0] > s.own[0] && trace.output[0][1] < s.own[1], "sentence 1: food");
  assert.ok(trace.output[1][0] < s.own[0] && trace.output[1][1] > s.own[1], "sentence 2: phone");
  const top = (row) => row.indexOf(Math.max(...row));
  assert.deepEqual(
    trace.weights.map(top).map((j) => s.words[j]),
    ["吃", "手机"],
  );
});

test("the softmax step is traced in full: row max, exp, row sum", () => {
  const s = scenes.dictionary;
  const trace = core.attention(s.q, s.k, s.v);
  assert.ok(Math.abs(trace.rowMax[0] - s.scaled[0][0]) < 1e-9);
  const exp = s.scaled[0].map((x) => Math.exp(x - s.scaled[0][0]));
  assertClose(trace.exp, [exp], 1e-9, "exp");
  assert.ok(Math.abs(trace.rowSum[0] - exp.reduce((a, b) => a + b)) < 1e-9);
});

test("random cross-attention matches the float64 reference", () => {
  const next = random(11);
  for (let trial = 0; trial < 100; trial++) {
    const [nQ, nK, dK, dV] = Array.from({ length: 4 }, () => 1 + Math.floor(next() * 8));
    const q = randomMatrix(next, nQ, dK);
    const k = randomMatrix(next, nK, dK);
    const v = randomMatrix(next, nK, dV);
    const causal = trial % 2 === 1;
    const trace = core.attention(q, k, v, causal ? { mask: "causal" } : {});
    const expected = referenceAttention(q, k, v, { causal });
    assertClose(trace.weights, expected.weights, 1e-12, "weights");
    assertClose(trace.output, expected.output, 1e-12, "output");
    trace.weights.forEach((row) => assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 1e-12));
  }
});

test("masks: causal gives −∞ above the diagonal; an explicit all-false row is flagged", () => {
  const s = scenes.classroom;
  const causal = core.attention(s.q, s.k, s.v, { mask: "causal" });
  assert.equal(causal.masked[0][1], -Infinity);
  assert.equal(causal.weights[0][1], 0);
  assert.equal(causal.weights[0][0], 1);
  const explicit = core.attention(s.q, s.k, s.v, {
    mask: [
      [true, true, true],
      [false, false, false],
      [true, false, true],
    ],
  });
  assert.deepEqual(explicit.blockedRows, [1]);
  assert.deepEqual(explicit.weights[1], [0, 0, 0]);
  assert.deepEqual(explicit.output[1], [0, 0]);
  assert.equal(explicit.weights[2][1], 0);
  // 1s and 0s are read as true and false, as docs/api.md says: the same trace
  const numeric = core.attention(s.q, s.k, s.v, {
    mask: [
      [1, 1, 1],
      [0, 0, 0],
      [1, 0, 1],
    ],
  });
  assert.deepEqual(numeric, explicit);
});

test("options: a custom scale, and dropout with a seed", () => {
  const s = scenes.age;
  assert.equal(core.attention(s.q, s.k, s.v, { scale: 0 }).output[0][0], s.mean);
  // p = 0.25: inverted scaling keeps a weight times 1/(1 − p) = 4/3 (not 1/p = 4).
  const a = core.attention(s.q, s.k, s.v, { dropout: { p: 0.25, seed: 3 } });
  const b = core.attention(s.q, s.k, s.v, { dropout: { p: 0.25, seed: 3 } });
  assert.deepEqual(a.dropped, b.dropped);
  const kept = a.dropped[0].filter((x) => x !== 0).length;
  assert.ok(kept > 0 && kept < a.dropped[0].length, `seed 3 keeps ${kept} weights`);
  a.dropped[0].forEach((x, j) =>
    assert.ok(x === 0 || Math.abs(x - (4 / 3) * a.weights[0][j]) < 1e-15, `${x}`),
  );
});

test("batched float32 equals a loop over single heads", () => {
  const next = random(5);
  const shape = { batch: 2, heads: 4, nQ: 6, nK: 9, dK: 8, dV: 5 };
  const heads = shape.batch * shape.heads;
  const make = (rows, cols) =>
    Array.from({ length: heads }, () =>
      randomMatrix(next, rows, cols).map((row) => Array.from(Float32Array.from(row))),
    );
  const [qs, ks, vs] = [
    make(shape.nQ, shape.dK),
    make(shape.nK, shape.dK),
    make(shape.nK, shape.dV),
  ];
  const flat = (ms) => Float32Array.from(ms.flat(2));
  for (const causal of [false, true]) {
    const { output, weights } = core.attentionBatched(flat(qs), flat(ks), flat(vs), shape, {
      causal,
    });
    assert.ok(output instanceof Float32Array && weights instanceof Float32Array);
    assert.equal(output.length, heads * shape.nQ * shape.dV);
    assert.equal(weights.length, heads * shape.nQ * shape.nK);
    for (let h = 0; h < heads; h++) {
      const single = core.attention(qs[h], ks[h], vs[h], causal ? { mask: "causal" } : {});
      single.output.flat().forEach((x, i) => assert.ok(Math.abs(output[h * 30 + i] - x) < 1e-5));
      single.weights.flat().forEach((x, i) => assert.ok(Math.abs(weights[h * 54 + i] - x) < 1e-6));
    }
  }
});

test("errors name the argument and the shapes", () => {
  const q = [[1, 2]];
  const k = [
    [1, 2],
    [3, 4],
  ];
  const v = [[1], [2]];
  const cases = [
    [() => core.attention(q, [[1, 2, 3]], [[1]]), "K has 3 columns but Q has 2 (d_k must match)"],
    [() => core.attention(q, k, [[1]]), "V has 1 row but K has 2 (one value row per key)"],
    [() => core.attention([], k, v), "Q has no rows (it is 0×0)"],
    [() => core.attention([[]], [[]], v), "Q has 0 columns: d_k must be at least 1"],
    [() => core.attention([[NaN, 1]], k, v), "Q[1][1] is NaN; every input must be finite"],
    [
      () => core.attention(q, k, [[1], [Infinity]]),
      "V[2][1] is infinite; every input must be finite",
    ],
    [
      () => core.attention(q, k, v, { mask: [[true]] }),
      "mask is 1×1 but the scores are 1×2 (n_q×n_k)",
    ],
    [
      () => core.attention(q, k, v, { dropout: { p: 1 } }),
      "dropout p is 1; it must be at least 0 and below 1",
    ],
    [() => core.attention(q, k, v, { scale: NaN }), "scale is NaN; it must be a finite number"],
    [() => core.attention(q, [[1, 2], [3]], v), "K row 2 has 1 number but row 1 has 2"],
    [() => core.attention([[1, "2"]], k, v), 'Q[1][2] is "2", not a number'],
    [
      () => core.attention(q, k, v, { mask: "future" }),
      "mask must be 'causal' or an n_q×n_k array of booleans (or of 1s and 0s)",
    ],
    [
      () => core.selfAttention([[1, 0]], [[1, 0, 0]], [[1]], [[1]]),
      "W_Q has 1 row but X has 2 columns (X·W_Q needs them equal)",
    ],
    [
      () =>
        core.attentionBatched(new Float32Array(4), new Float32Array(4), new Float32Array(3), {
          batch: 1,
          heads: 1,
          nQ: 2,
          nK: 2,
          dK: 2,
          dV: 2,
        }),
      "V has 3 values but the shape needs 4 (batch×heads×nK×dV)",
    ],
    [
      () =>
        core.attentionBatched(new Float32Array(4), new Float32Array(4), new Float32Array(4), {
          batch: 1,
          heads: 0,
          nQ: 2,
          nK: 2,
          dK: 2,
          dV: 2,
        }),
      "shape.heads is 0; it must be from 1 to 8192",
    ],
    [() => core.attentionBatched([1], [1], [1], {}), "Q must be a Float32Array"],
    [
      () => core.attention([[1, 1e200]], [[1, 1e200]], [[1]]),
      "scores[1][1] = Q[1]·K[1] overflows to Infinity; the inputs are finite but too large " +
        "for double (at most 1.8e308)",
    ],
    [
      () => core.selfAttention([[1e200]], [[1e200]], [[1]], [[1]]),
      "Q[1][1] = X[1]·(column 1 of W_Q) overflows to Infinity; the inputs are finite but too " +
        "large for double (at most 1.8e308)",
    ],
    [
      () => {
        const w = [Array(8192).fill(1)];
        return core.selfAttention(Array(8192).fill([1]), w, w, w);
      },
      "Q = X·W_Q would be 8192×8192, over the limit of 4194304 values",
    ],
    [
      () => {
        const big = new Float32Array(4).fill(1e20);
        const shape = { batch: 1, heads: 1, nQ: 2, nK: 2, dK: 2, dV: 2 };
        return core.attentionBatched(big, big, big, shape);
      },
      "batch 1, head 1: scores[1][1] = Q[1]·K[1] overflows to Infinity; the inputs are finite " +
        "but too large for float32 (at most 3.4e38)",
    ],
  ];
  for (const [call, message] of cases) assert.throws(call, { name: "Error", message });
});

test("100,000 mixed calls, a third of them errors: the WASM heap, the JS heap and the handles stay flat", (t) => {
  const s = scenes.classroom;
  const bad = [[1, 2, 3]];
  const batch = { batch: 1, heads: 2, nQ: 3, nK: 3, dK: 2, dV: 2 };
  const flat = Float32Array.from([...s.q.flat(), ...s.q.flat()]);
  const huge = [[1e200, 1]];
  const mask = [
    [true, false, true],
    [false, true, true],
  ];
  const round = (i) => {
    switch (i % 9) {
      case 0:
        return core.selfAttention(s.x, s.wq, s.wk, s.wv).output;
      case 1:
        return assert.throws(() => core.attention(s.q, bad, s.v));
      case 2:
        return core.attentionBatched(flat, flat, flat, batch, {
          causal: true,
          dropout: { p: 0.1, seed: i },
        });
      case 3:
        return assert.throws(() => core.attentionBatched(flat, flat, flat.subarray(1), batch));
      case 4:
        return core.attention(s.q.slice(0, 2), s.k, s.v, { mask, dropout: { p: 0.3, seed: i } });
      case 5:
        return assert.throws(() => core.attention(huge, huge, [[1]]), /overflows/);
      case 6:
        return assert.throws(() => core.selfAttention(s.x, s.wq, [[NaN, 1]], s.wv), /W_K/);
      case 7:
        return core.attention(s.q, s.k, s.v, { mask: "causal", scale: 2 });
      default:
        return assert.throws(() => core.attention(s.q, s.k, s.v, { mask: [[true]] }), /mask/);
    }
  };
  for (let i = 0; i < 2000; i++) round(i);
  gc();
  const before = core.memory();
  const jsBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < 100_000; i++) round(i);
  gc();
  const after = core.memory();
  const jsGrowth = process.memoryUsage().heapUsed - jsBefore;
  assert.ok(before.heapTop > 0 && before.heapBytes >= before.heapTop);
  assert.deepEqual(after, before, "malloc'd bytes, heap top, heap size and live handles");
  // A leak of even 20 bytes a call would be 2 MB.
  t.diagnostic(`JS heap change after 100,000 calls: ${jsGrowth} bytes; WASM heap unchanged`);
  assert.ok(jsGrowth < 1_000_000, `the JS heap grew by ${jsGrowth} bytes`);
  assert.equal(core.selfAttention(s.x, s.wq, s.wk, s.wv).output[0][0].toFixed(10), "0.5511785015");
});

test("every option is checked before the core sees it, and its error names the option", () => {
  const q = [[1, 0]];
  const k = [
    [1, 0],
    [0, 1],
  ];
  const v = [[1], [3]];
  const f32 = (n) => new Float32Array(n);
  const shape = { batch: 1, heads: 1, nQ: 1, nK: 2, dK: 2, dV: 1 };
  const batched = (s, options) => core.attentionBatched(f32(2), f32(4), f32(2), s, options);
  for (const [call, message] of [
    [() => core.attention(q, k, v, { maskValue: "-1e9" }), "maskValue must be a number"],
    [() => core.attention(q, k, v, { scale: "2" }), "scale must be a number"],
    [
      () => core.attention(q, k, v, { mask: [[true, 2]] }),
      "mask must hold only true and false (or 1 and 0)",
    ],
    [() => core.attention(q, k, v, { mask: [[true, "no"]] }), 'mask[1][2] is "no", not a number'],
    [
      () => core.attention(q, k, v, { mask: "future" }),
      "mask must be 'causal' or an n_q×n_k array of booleans (or of 1s and 0s)",
    ],
    [() => core.attention(q, k, v, { dropout: { p: "0.5" } }), "dropout.p must be a number"],
    ...[-1, 1.5, 2 ** 53].map((seed) => [
      () => core.attention(q, k, v, { dropout: { p: 0.5, seed } }),
      `dropout.seed must be a whole number, not ${seed}`,
    ]),
    [() => batched(undefined), "shape.batch must be a whole number, not undefined"],
    [() => batched({ ...shape, dV: undefined }), "shape.dV must be a whole number, not undefined"],
    [() => batched({ ...shape, nQ: -1 }), "shape.nQ must be a whole number, not -1"],
    [() => batched({ ...shape, nK: 1.5 }), "shape.nK must be a whole number, not 1.5"],
    [() => batched(shape, { weights: "yes" }), "weights must be true or false"],
    [() => batched(shape, { reference: 1 }), "reference must be true or false"],
    [() => batched(shape, { copy: null }), "copy must be true or false"],
    [
      () => batched(shape, { maskValue: -1e9 }),
      "maskValue is for attention() and selfAttention(); attentionBatched masks with -Infinity",
    ],
    [() => core.attentionBatched(f32(2), [0, 0, 0, 0], f32(2), shape), "K must be a Float32Array"],
    [() => core.attentionBatched(f32(2), f32(4), f32(1), shape), /V/],
  ]) {
    assert.throws(call, message instanceof RegExp ? message : { message });
  }
  // What the checked options do: a mask value of −1e9 spreads a row that sees no key over
  // every key; −∞ (the default) blocks it.
  const none = [[false, false]];
  assert.deepEqual(core.attention(q, k, v, { mask: none, maskValue: -1e9 }).weights, [[0.5, 0.5]]);
  assert.deepEqual(core.attention(q, k, v, { mask: none }).weights, [[0, 0]]);
  // A mask given as 0 and 1 is the same as one of false and true; its seed defaults to 0.
  assert.deepEqual(
    core.attention(q, k, v, { mask: [[1, 0]] }).weights,
    core.attention(q, k, v, { mask: [[true, false]] }).weights,
  );
  assert.deepEqual(
    core.attention(q, k, v, { dropout: { p: 0.5 } }).dropped,
    core.attention(q, k, v, { dropout: { p: 0.5, seed: 0 } }).dropped,
  );
  // A scale given to the batched path is used (the flag that carries it is set).
  const one = Float32Array.of(1, 0);
  const keys = Float32Array.of(1, 0, 0, 1);
  const scaled = core.attentionBatched(one, keys, Float32Array.of(1, 3), shape, { scale: 0 });
  assert.deepEqual(Array.from(scaled.output), [2], "scale 0: even weights, the mean of V");
  // With copy: false the result is a view of the core's buffer until the next call.
  const view = core.attentionBatched(one, keys, Float32Array.of(1, 3), shape, { copy: false });
  assert.equal(
    view.output.buffer,
    core.attentionBatched(one, keys, Float32Array.of(1, 3), shape, { copy: false }).output.buffer,
  );
});
