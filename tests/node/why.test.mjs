// why.test.mjs: the labs of "why it is built this way" through the real WASM labs module (loadLabs): the tiled
// online softmax against a float64 reference written here for every block size, the 1/√d_k
// statistics against the same numbers worked out here, dropout over many draws, the mask value,
// and every error message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { sceneById } from "../../web/scenes.js";
import zh from "../../web/i18n/zh.js";

const labs = await loadLabs();

// Attention in float64, written apart from the core: the max subtracted, masked keys skipped,
// a row that sees no key left at 0. allowed(i, j): query i may see key j.
function reference(q, k, v, allowed = () => true, scale = 1 / Math.sqrt(q[0].length)) {
  return q.map((qi, i) => {
    const logits = k.map((kj, j) =>
      allowed(i, j) ? qi.reduce((s, x, c) => s + x * kj[c], 0) * scale : -Infinity,
    );
    const max = Math.max(...logits);
    if (max === -Infinity) return v[0].map(() => 0);
    const e = logits.map((x) => (x === -Infinity ? 0 : Math.exp(x - max)));
    const sum = e.reduce((a, b) => a + b, 0);
    return v[0].map((_, c) => e.reduce((s, w, j) => s + (w / sum) * v[j][c], 0));
  });
}

const maxAbs = (a, b) =>
  Math.max(...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i][j]))));

// The book sentence, as the online-softmax lab runs it: its projections, from the core.
const book = sceneById.book.inputs;
const { q, k, v } = labs.selfAttention(book.x, book.wq, book.wk, book.wv);

test("tiled equals the whole row to 1e-12 for every block size 1..n, with and without the mask", () => {
  for (const mask of [undefined, "causal"]) {
    const expected = reference(q, k, v, mask ? (i, j) => j <= i : undefined);
    for (let block = 1; block <= k.length; ++block) {
      const t = labs.tiledAttention(q, k, v, { block, mask });
      assert.equal(t.blocks.length, Math.ceil(k.length / block));
      assert.ok(maxAbs(t.output, expected) <= 1e-12, `block ${block}`);
      assert.ok(t.maxDifference <= 1e-12 && t.maxDifference === maxAbs(t.output, t.full));
      // after the last block, m is each row's max and ℓ its Σ exp(logit − m)
      const last = t.blocks.at(-1);
      t.blocks.forEach((b, n) => assert.equal(b.start, n * block));
      assert.equal(last.end, k.length);
      q.forEach((qi, i) => {
        const logits = k.map((kj, j) =>
          mask && j > i ? -Infinity : qi.reduce((s, x, c) => s + x * kj[c], 0) / Math.sqrt(5),
        );
        const max = Math.max(...logits);
        assert.ok(Math.abs(last.m[i] - max) <= 1e-15);
        const sum = logits.reduce((s, x) => s + Math.exp(x - max), 0);
        assert.ok(Math.abs(last.l[i] - sum) <= 1e-12);
      });
    }
  }
});

test("the running max only grows, and rescale is exp(m_old − m_new)", () => {
  const t = labs.tiledAttention(q, k, v, { block: 3 });
  for (let n = 1; n < t.blocks.length; ++n) {
    const before = t.blocks[n - 1].m;
    t.blocks[n].m.forEach((m, i) => {
      assert.ok(m >= before[i]);
      const expected = m === before[i] ? 1 : Math.exp(before[i] - m);
      assert.ok(Math.abs(t.blocks[n].rescale[i] - expected) <= 1e-15);
    });
  }
});

test("the 1/√d_k statistics: the numbers worked out here from the same seeded batch", () => {
  for (const dK of [1, 64, 512]) {
    const stats = labs.scalingStats({ dK, nKeys: 8, rows: 100, seed: 1 });
    const batch = labs.scalingBatch({ dK, nKeys: 8, rows: 100, seed: 1 });
    const scores = batch.q.map((qr, r) =>
      Array.from({ length: 8 }, (_, j) => qr.reduce((s, x, c) => s + x * batch.k[r * 8 + j][c], 0)),
    );
    const all = scores.flat();
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    const variance = all.reduce((s, x) => s + (x - mean) ** 2, 0) / all.length;
    const top = (row, scale) => {
      const max = Math.max(...row);
      return 1 / row.reduce((s, x) => s + Math.exp((x - max) * scale), 0);
    };
    const meanTop = (scale) => scores.reduce((s, row) => s + top(row, scale), 0) / 100;
    assert.ok(Math.abs(stats.scoreVariance - variance) <= 1e-12 * dK);
    assert.ok(Math.abs(stats.maxWeightUnscaled - meanTop(1)) <= 1e-12);
    assert.ok(Math.abs(stats.maxWeightScaled - meanTop(1 / Math.sqrt(dK))) <= 1e-12);
    assert.deepEqual(stats.exampleScores.length, 8);
  }
  // The threshold the page states: at d_k = 512, above 0.9 without the scale, below 0.6 with it.
  const at512 = labs.scalingStats({ dK: 512 });
  assert.ok(at512.maxWeightUnscaled > 0.9 && at512.maxWeightScaled < 0.6);
});

test("dropout: one draw's rows do not sum to 1; the average of many approaches the output", () => {
  const age = sceneById.age.inputs;
  const s = labs.dropoutStats(age.q, age.k, age.v, { p: 0.5, seed: 1, draws: 10000 });
  const sum = s.dropped[0].reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(s.droppedRowSums[0] - sum) <= 1e-15);
  assert.ok(Math.abs(sum - 1) > 0.1, `row sum ${sum}`);
  // kept weights are scaled by 1/(1 − p) = 2
  s.dropped[0].forEach((w, j) => assert.ok(w === 0 || Math.abs(w - 2 * s.weights[0][j]) < 1e-15));
  assert.ok(Math.abs(s.output[0][0] - 19.4728924997) < 1e-9); // scenes.md
  assert.ok(s.maxDifference < 0.05 * 19.47);
  assert.ok(s.differences.at(-1) < s.differences[0]);
  assert.deepEqual(s.counts.slice(0, 5), [1, 2, 5, 10, 20]);
  // the average of 10,000 draws, worked out here from the core's single draws (seeds 1 … 10000)
  const mean = Array.from({ length: 200 }, (_, t) => {
    const one = labs.attention(age.q, age.k, age.v, { dropout: { p: 0.5, seed: 1 + t } });
    return one.output[0][0];
  });
  const first200 = labs.dropoutStats(age.q, age.k, age.v, { p: 0.5, seed: 1, draws: 200 });
  const average = mean.reduce((a, b) => a + b, 0) / mean.length;
  assert.ok(Math.abs(first200.meanOutput[0][0] - average) <= 1e-12);
});

test("the mask value: −∞ blocks a row that sees no key, −1e9 spreads it over keys it may not see", async () => {
  const core = await loadAttention();
  const mask = [
    [false, false, false],
    [true, true, false],
  ];
  const Q = [[1], [2]];
  const K = [[1], [2], [3]];
  const V = [[10], [20], [60]];
  const inf = core.attention(Q, K, V, { mask });
  assert.deepEqual(inf.blockedRows, [0]);
  assert.deepEqual(inf.weights[0], [0, 0, 0]);
  const finite = core.attention(Q, K, V, { mask, maskValue: -1e9 });
  assert.deepEqual(finite.blockedRows, []);
  assert.deepEqual(finite.masked[0], [-1e9, -1e9, -1e9]);
  finite.weights[0].forEach((w) => assert.ok(Math.abs(w - 1 / 3) < 1e-15));
  assert.ok(Math.abs(finite.output[0][0] - 30) < 1e-12);
  assert.deepEqual(finite.weights[1], inf.weights[1]);
  // the tiled attention takes it too
  const tiled = labs.tiledAttention(Q, K, V, { block: 2, mask, maskValue: -1e9 });
  assert.ok(Math.abs(tiled.output[0][0] - 30) < 1e-12);
});

test("errors name the argument, and the module keeps working after them", async () => {
  const core = await loadAttention();
  const M = [
    [1, 2],
    [3, 4],
  ];
  const cases = [
    [() => labs.tiledAttention(q, k, v, { block: 0 }), "block is 0; it must be from 1 to 11 (n_k)"],
    [() => labs.tiledAttention(q, k, v, { block: 2.5 }), "block must be a whole number, not 2.5"],
    [() => labs.tiledAttention(q, k, v, {}), "block must be a whole number, not undefined"],
    [
      () => labs.tiledAttention(q, k, v, { block: 2, dropout: { p: 0.5 } }),
      "the tiled attention has no dropout; dropout p must be 0",
    ],
    [
      () => labs.tiledAttention(M, [[1]], M, { block: 1 }),
      "K has 1 column but Q has 2 (d_k must match)",
    ],
    [() => labs.scalingStats({ dK: 0 }), "dK is 0; it must be from 1 to 8192".replace("dK", "d_k")],
    [() => labs.scalingStats({ dK: -1 }), "dK must be a whole number, not -1"],
    [() => labs.dropoutStats(M, M, M, { p: 0 }), "dropout p is 0; the statistics need p above 0"],
    [
      () => labs.dropoutStats(M, M, M, { p: 0.5, draws: 0 }),
      "draws is 0; it must be from 1 to 100000",
    ],
    [
      () => core.attention(M, M, M, { mask: "causal", maskValue: NaN }),
      "mask value is NaN; it must be -Infinity or a finite number",
    ],
    [() => core.attention(M, M, M, { maskValue: "-1e9" }), "maskValue must be a number"],
    [
      () =>
        core.attentionBatched(
          new Float32Array(4),
          new Float32Array(4),
          new Float32Array(4),
          {
            batch: 1,
            heads: 1,
            nQ: 2,
            nK: 2,
            dK: 2,
            dV: 2,
          },
          { maskValue: -1e9 },
        ),
      "maskValue is for attention() and selfAttention(); attentionBatched masks with -Infinity",
    ],
  ];
  for (const [call, message] of cases) assert.throws(call, { message });
  // The tiles sum two values of 1e308 before dividing; the whole row averages them. In Chinese too.
  const overflow =
    "acc[1][1] overflows to Infinity after the keys 1 to 2: the tiled output is divided by its sum only at the end, and V's values are too large for double (at most 1.8e308)";
  assert.throws(() => labs.tiledAttention([[0]], [[0], [0]], [[1e308], [1e308]], { block: 2 }), {
    message: overflow,
  });
  assert.equal(
    zh.coreError(overflow),
    "acc[1][1] 在第 1 到第 2 个键之后溢出为 Infinity：分块的输出要到最后才除以它的和，而 V 的数值对 double（最大约 1.8e308）来说太大了",
  );
  const t = labs.tiledAttention(q, k, v, { block: 4 });
  assert.ok(t.maxDifference <= 1e-12);
});

test("every argument of the why API is checked in JS and named in its error", () => {
  const x = [
    [1, 0],
    [0, 1],
  ];
  for (const [call, message] of [
    [() => labs.tiledAttention(x, x, x, { block: 1.5 }), "block must be a whole number, not 1.5"],
    [() => labs.tiledAttention("q", x, x, { block: 1 }), "Q must be an array of rows"],
    [() => labs.tiledAttention(x, "k", x, { block: 1 }), "K must be an array of rows"],
    [() => labs.tiledAttention(x, x, "v", { block: 1 }), "V must be an array of rows"],
    ...["scalingBatch", "scalingStats"].flatMap((f) =>
      ["dK", "nKeys", "rows", "seed"].map((name) => [
        () => labs[f]({ dK: 2, [name]: 1.5 }),
        `${name} must be a whole number, not 1.5`,
      ]),
    ),
    [() => labs.dropoutStats("q", x, x, { p: 0.5 }), "Q must be an array of rows"],
    [() => labs.dropoutStats(x, "k", x, { p: 0.5 }), "K must be an array of rows"],
    [() => labs.dropoutStats(x, x, "v", { p: 0.5 }), "V must be an array of rows"],
    [
      () => labs.dropoutStats(x, x, x, { p: 0.5, draws: 1.5 }),
      "draws must be a whole number, not 1.5",
    ],
  ]) {
    assert.throws(call, { message });
  }
});
