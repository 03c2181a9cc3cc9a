// property.test.mjs: 10,000 seeded random cases through the real WASM module, each checked
// against the float64 reference in reference.mjs (written apart from the core). Shapes, masks
// (square or not, causal or explicit), scales and dropout are random; some values are hostile:
// NaN, ±Infinity, −0, denormals, ±1e38, ±1e200, ±1e308. For every case the answer must be
// exactly what the reference predicts: the first non-finite input named, the first cell that
// overflows named, or every step of the trace equal to the reference's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { random, referenceTrace, splitmix64 } from "./reference.mjs";

const core = await loadAttention();
const CASES = 10_000;
const FLOAT_MAX = 3.4028234663852886e38;
const hostile = [NaN, Infinity, -Infinity, -0, 5e-324, -1e-310, 1e38, -1e38, 1e200, -1e200];
const hostileLarge = [1e154, -1e154, 1e300, 1e308, -1e308, 1.7976931348623157e308];

function generator(seed) {
  const next = random(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  return { next, int, pick, chance: (p) => next() < p };
}

// One value: mostly small, and in a hostile case sometimes from the lists above.
function valueOf(g, hostility) {
  if (g.chance(hostility)) return g.pick(g.chance(0.5) ? hostile : hostileLarge);
  return Math.round((g.next() * 6 - 3) * 1000) / 1000;
}

const matrix = (g, rows, cols, hostility) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => valueOf(g, hostility)));

const cell = (i, j) => `[${i + 1}][${j + 1}]`;

// The first value that is not finite, row by row, as the core names it; or undefined.
function firstNonFinite(name, rows) {
  for (const [i, row] of rows.entries()) {
    for (const [j, x] of row.entries()) {
      if (!Number.isFinite(x)) return `${name}${cell(i, j)} is ${isNaN(x) ? "NaN" : "infinite"}`;
    }
  }
}

function firstOverflow(name, rows, isTooLarge = (x) => !Number.isFinite(x)) {
  for (const [i, row] of rows.entries()) {
    for (const [j, x] of row.entries()) if (isTooLarge(x)) return `${name}${cell(i, j)}`;
  }
}

function assertNear(actual, expected, what, relative) {
  const flat = expected.flat().filter(Number.isFinite);
  const size = Math.max(1, ...flat.map(Math.abs));
  assert.equal(actual.length, expected.length, `${what}: rows`);
  expected.forEach((row, i) => {
    const got = Array.isArray(row) ? actual[i] : [actual[i]];
    (Array.isArray(row) ? row : [row]).forEach((x, j) => {
      if (!Number.isFinite(x)) {
        assert.equal(got[j], x, `${what}${cell(i, j)}`);
      } else {
        assert.ok(
          Math.abs(got[j] - x) <= relative * size,
          `${what}${cell(i, j)} is ${got[j]}, the reference says ${x}`,
        );
      }
    });
  });
}

function options(g, nQ, nK) {
  const o = {};
  const mask = g.int(0, 3);
  if (mask === 1) o.mask = "causal";
  if (mask === 2)
    o.mask = Array.from({ length: nQ }, () => Array.from({ length: nK }, () => g.chance(0.6)));
  if (g.chance(0.2)) o.scale = g.chance(0.1) ? 1e300 : Math.round(g.next() * 4000) / 1000;
  if (g.chance(0.25)) o.dropout = { p: g.pick([0.1, 0.25, 0.3, 0.7, 0.9]), seed: g.int(0, 1e6) };
  return o;
}

// What the reference expects from a float64 call on finite input: an overflow message or none.
function overflowOf(t) {
  const scores = firstOverflow("scores", t.scores);
  if (scores) return new RegExp(`^${escape(scores)} = Q\\S+·K\\S+ overflows`);
  const scaled = firstOverflow("scaled", t.scaled);
  if (scaled) return new RegExp(`^${escape(scaled)} = scores\\S+ × scale overflows`);
  const output = firstOverflow("output", t.output);
  if (output) return new RegExp(`^${escape(output)} = Σ \\S+ overflows`);
}

const escape = (text) => text.replace(/[[\]().*+?^$|\\]/g, "\\$&");
const referenceOptions = (o) => ({
  scale: o.scale,
  causal: o.mask === "causal",
  mask: Array.isArray(o.mask) ? o.mask : undefined,
  dropout: o.dropout,
});

function compareTrace(trace, t) {
  for (const step of ["scores", "scaled", "exp", "weights", "output"]) {
    assertNear(trace[step], t[step], step, 1e-12);
  }
  if (t.dropped) assertNear(trace.dropped, t.dropped, "dropped", 1e-12);
  else assert.equal(trace.dropped, undefined, "no dropped step without dropout");
  assertNear(trace.rowMax, t.rowMax, "rowMax", 1e-12);
  assertNear(trace.rowSum, t.rowSum, "rowSum", 1e-12);
  assert.deepEqual(trace.blockedRows, t.blockedRows, "blockedRows");
}

// Q, K, V straight in.
function attentionCase(g, tally) {
  const hostility = g.chance(0.3) ? 0.15 : 0;
  const nQ = g.int(1, 6);
  const nK = g.int(1, 6);
  const dK = g.int(1, 4);
  const q = matrix(g, nQ, dK, hostility);
  const k = matrix(g, nK, dK, hostility);
  const v = matrix(g, nK, g.int(1, 3), hostility);
  const o = options(g, nQ, nK);
  const bad = firstNonFinite("Q", q) ?? firstNonFinite("K", k) ?? firstNonFinite("V", v);
  if (bad) {
    tally.nonFinite++;
    assert.throws(() => core.attention(q, k, v, o), {
      message: `${bad}; every input must be finite`,
    });
    return;
  }
  const t = referenceTrace(q, k, v, referenceOptions(o));
  const overflow = overflowOf(t);
  if (overflow) {
    tally.overflow++;
    assert.throws(() => core.attention(q, k, v, o), { message: overflow });
    return;
  }
  const trace = core.attention(q, k, v, o);
  if (o.mask) assertNear(trace.masked, t.masked, "masked", 1e-12);
  compareTrace(trace, t);
  tally.traces++;
  if (t.blockedRows.length) tally.blocked++;
  if (o.dropout) tally.dropout++;
}

// X and the three projections.
function selfAttentionCase(g, tally) {
  const hostility = g.chance(0.3) ? 0.1 : 0;
  const n = g.int(1, 5);
  const dModel = g.int(1, 4);
  const dK = g.int(1, 3);
  const x = matrix(g, n, dModel, hostility);
  const [wq, wk] = [matrix(g, dModel, dK, hostility), matrix(g, dModel, dK, hostility)];
  const wv = matrix(g, dModel, g.int(1, 3), hostility);
  const o = options(g, n, n);
  const bad =
    firstNonFinite("X", x) ??
    firstNonFinite("W_Q", wq) ??
    firstNonFinite("W_K", wk) ??
    firstNonFinite("W_V", wv);
  if (bad) {
    tally.nonFinite++;
    assert.throws(() => core.selfAttention(x, wq, wk, wv, o), {
      message: `${bad}; every input must be finite`,
    });
    return;
  }
  const times = (a, b) =>
    a.map((row) => b[0].map((_, c) => row.reduce((s, y, m) => s + y * b[m][c], 0)));
  const [q, k, v] = [times(x, wq), times(x, wk), times(x, wv)];
  for (const [name, m, w] of [
    ["Q", q, "W_Q"],
    ["K", k, "W_K"],
    ["V", v, "W_V"],
  ]) {
    const at = firstOverflow(name, m);
    if (at) {
      tally.overflow++;
      assert.throws(() => core.selfAttention(x, wq, wk, wv, o), {
        message: new RegExp(`^${escape(at)} = X\\S+·\\(column \\d+ of ${w}\\) overflows`),
      });
      return;
    }
  }
  const t = referenceTrace(q, k, v, referenceOptions(o));
  const overflow = overflowOf(t);
  if (overflow) {
    tally.overflow++;
    assert.throws(() => core.selfAttention(x, wq, wk, wv, o), { message: overflow });
    return;
  }
  const trace = core.selfAttention(x, wq, wk, wv, o);
  assertNear(trace.q, q, "q", 1e-12);
  assertNear(trace.k, k, "k", 1e-12);
  assertNear(trace.v, v, "v", 1e-12);
  compareTrace(trace, t);
  tally.traces++;
}

// Float32 [batch, heads, seq, dim]: each head against the reference on the float inputs, with
// one dropout stream across the heads in order.
function batchedCase(g, tally) {
  const hostility = g.chance(0.2) ? 0.05 : 0;
  const shape = { batch: g.int(1, 2), heads: g.int(1, 3), nQ: g.int(1, 5), nK: g.int(1, 5) };
  shape.dK = g.int(1, 4);
  shape.dV = g.int(1, 3);
  const floatValue = () =>
    g.chance(hostility) ? g.pick([NaN, Infinity, 1e20, -1e20, 1e-40]) : valueOf(g, 0);
  const heads = shape.batch * shape.heads;
  const fill = (rows, cols) => Float32Array.from({ length: heads * rows * cols }, floatValue);
  const [q, k, v] = [fill(shape.nQ, shape.dK), fill(shape.nK, shape.dK), fill(shape.nK, shape.dV)];
  const o = options(g, shape.nQ, shape.nK);
  delete o.scale;
  const rows = (data, h, r, c) =>
    Array.from({ length: r }, (_, i) =>
      Array.from(data.subarray((h * r + i) * c, (h * r + i + 1) * c)),
    );
  const head = (h) => `batch ${Math.floor(h / shape.heads) + 1}, head ${(h % shape.heads) + 1}: `;
  for (const [name, data, r, c] of [
    ["Q", q, shape.nQ, shape.dK],
    ["K", k, shape.nK, shape.dK],
    ["V", v, shape.nK, shape.dV],
  ]) {
    for (let h = 0; h < heads; h++) {
      const bad = firstNonFinite(name, rows(data, h, r, c));
      if (bad) {
        tally.nonFinite++;
        assert.throws(() => core.attentionBatched(q, k, v, shape, o), {
          message: `${head(h)}${bad}; every input must be finite`,
        });
        return;
      }
    }
  }
  const stream = o.dropout ? splitmix64(o.dropout.seed) : undefined;
  const expected = [];
  for (let h = 0; h < heads; h++) {
    const t = referenceTrace(
      rows(q, h, shape.nQ, shape.dK),
      rows(k, h, shape.nK, shape.dK),
      rows(v, h, shape.nK, shape.dV),
      { ...referenceOptions(o), dropout: o.dropout && { p: o.dropout.p, stream } },
    );
    const at = firstOverflow("scores", t.scores, (x) => Math.abs(x) > FLOAT_MAX);
    if (at) {
      tally.overflow++;
      assert.throws(() => core.attentionBatched(q, k, v, shape, o), {
        message: new RegExp(`^${escape(head(h) + at)} = Q\\S+·K\\S+ overflows .* float32`),
      });
      return;
    }
    expected.push(t);
  }
  const { output, weights } = core.attentionBatched(q, k, v, shape, o);
  expected.forEach((t, h) => {
    assertNear(
      rows(weights, h, shape.nQ, shape.nK),
      t.dropped ?? t.weights,
      `head ${h + 1} weights`,
      1e-5,
    );
    assertNear(rows(output, h, shape.nQ, shape.dV), t.output, `head ${h + 1} output`, 1e-5);
  });
  tally.batched++;
}

test(`${CASES} seeded random cases, hostile values among them, agree with the float64 reference`, (t) => {
  const tally = { traces: 0, batched: 0, nonFinite: 0, overflow: 0, blocked: 0, dropout: 0 };
  for (let seed = 1; seed <= CASES; seed++) {
    const g = generator(seed);
    const kind = g.int(0, 9);
    try {
      if (kind < 6) attentionCase(g, tally);
      else if (kind < 8) selfAttentionCase(g, tally);
      else batchedCase(g, tally);
    } catch (error) {
      error.message = `case ${seed}: ${error.message}`;
      throw error;
    }
  }
  t.diagnostic(JSON.stringify(tally));
  // Every kind of outcome is reached, so that none of these checks is vacuous.
  for (const [what, count] of Object.entries(tally))
    assert.ok(count >= 100, `only ${count} ${what}`);
});
