// batched.test.mjs: attentionBatched's fast path through the real WASM module, against a
// float64 reference written here and against the Eigen reference ({ reference: true }): random
// ragged shapes, causal or not, with and without the weights; who owns the results; the
// limits in bytes; overflow and non-finite inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { random } from "./reference.mjs";

const core = await loadAttention();

function randomBatch(next, shape, spread = 2) {
  const heads = shape.batch * shape.heads;
  const fill = (n) => Float32Array.from({ length: n }, () => (next() * 2 - 1) * spread);
  return {
    q: fill(heads * shape.nQ * shape.dK),
    k: fill(heads * shape.nK * shape.dK),
    v: fill(heads * shape.nK * shape.dV),
  };
}

// float64, plain loops, the row max subtracted; keys after the query skipped when causal
function reference64({ q, k, v }, { batch, heads, nQ, nK, dK, dV }, causal) {
  const scale = 1 / Math.sqrt(dK);
  const output = new Float64Array(batch * heads * nQ * dV);
  const weights = new Float64Array(batch * heads * nQ * nK);
  for (let h = 0; h < batch * heads; h++) {
    for (let i = 0; i < nQ; i++) {
      const seen = causal ? Math.min(i + 1, nK) : nK;
      const logits = [];
      for (let j = 0; j < seen; j++) {
        let dot = 0;
        for (let c = 0; c < dK; c++) dot += q[(h * nQ + i) * dK + c] * k[(h * nK + j) * dK + c];
        logits.push(dot * scale);
      }
      const max = Math.max(...logits);
      const e = logits.map((x) => Math.exp(x - max));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < seen; j++) {
        const w = e[j] / sum;
        weights[(h * nQ + i) * nK + j] = w;
        for (let c = 0; c < dV; c++) output[(h * nQ + i) * dV + c] += w * v[(h * nK + j) * dV + c];
      }
    }
  }
  return { output, weights };
}

// Head by head, max |a − b| / max |b|.
function relativeError(a, b, heads) {
  assert.equal(a.length, b.length);
  const per = a.length / heads;
  let worst = 0;
  for (let h = 0; h < heads; h++) {
    let diff = 0;
    let size = 0;
    for (let i = h * per; i < (h + 1) * per; i++) {
      diff = Math.max(diff, Math.abs(a[i] - b[i]));
      size = Math.max(size, Math.abs(b[i]));
    }
    worst = Math.max(worst, size > 0 ? diff / size : diff);
  }
  return worst;
}

test("the fast path equals float64 and the Eigen reference on random ragged shapes", () => {
  const next = random(21);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const sizes = [1, 2, 3, 5, 7, 8, 9, 31, 33, 63, 65, 100, 129];
  const dims = [1, 2, 3, 5, 8, 64, 128];
  for (let trial = 0; trial < 120; trial++) {
    const shape = {
      batch: 1 + (trial % 2),
      heads: 1 + (trial % 3),
      nQ: pick(sizes),
      nK: pick(sizes),
      dK: pick(dims),
      dV: pick(dims),
    };
    const causal = trial % 4 >= 2;
    const weights = trial % 2 === 0;
    const inputs = randomBatch(next, shape);
    const { q, k, v } = inputs;
    const fast = core.attentionBatched(q, k, v, shape, { causal, weights });
    const eigen = core.attentionBatched(q, k, v, shape, { causal, weights, reference: true });
    const exact = reference64(inputs, shape, causal);
    const heads = shape.batch * shape.heads;
    const what = `trial ${trial}: ${JSON.stringify(shape)} causal ${causal} weights ${weights}`;
    assert.ok(relativeError(fast.output, exact.output, heads) <= 1e-5, what);
    // each float32 path is within 1e-5 of the truth, so within 2e-5 of the other
    assert.ok(relativeError(fast.output, eigen.output, heads) <= 2e-5, what);
    if (weights) {
      assert.ok(relativeError(fast.weights, exact.weights, heads) <= 1e-5, what);
      assert.ok(relativeError(fast.weights, eigen.weights, heads) <= 2e-5, what);
    } else {
      assert.deepEqual(Object.keys(fast), ["output"], what);
    }
  }
});

test("without the weights, 8,192 tokens run; each row checked against float64", () => {
  const next = random(22);
  const shape = { batch: 1, heads: 1, nQ: 8192, nK: 8192, dK: 64, dV: 64 };
  const inputs = randomBatch(next, shape, 1);
  const before = core.memory().heapTop;
  const { output } = core.attentionBatched(inputs.q, inputs.k, inputs.v, shape, {
    weights: false,
    causal: true,
  });
  // The heap grows by at most the inputs, the output and the kernel's tiles.
  const inputsAndOutput = 4 * (inputs.q.length + inputs.k.length + inputs.v.length + output.length);
  assert.ok(core.memory().heapTop - before <= inputsAndOutput + 512 * 1024);
  for (const i of [0, 1, 4095, 8191]) {
    const row = { ...shape, nQ: 1, nK: i + 1 };
    const exact = reference64(
      {
        q: inputs.q.subarray(i * 64, (i + 1) * 64),
        k: inputs.k.subarray(0, (i + 1) * 64),
        v: inputs.v.subarray(0, (i + 1) * 64),
      },
      row,
      false,
    );
    const got = output.subarray(i * 64, (i + 1) * 64);
    assert.ok(relativeError(got, exact.output, 1) <= 1e-5, `row ${i}`);
  }
});

test("results: copies the caller owns by default, or views lent until the next call", () => {
  const next = random(23);
  const shape = { batch: 1, heads: 2, nQ: 5, nK: 6, dK: 4, dV: 3 };
  const a = randomBatch(next, shape);
  const b = randomBatch(next, shape);
  const owned = core.attentionBatched(a.q, a.k, a.v, shape);
  const lent = core.attentionBatched(a.q, a.k, a.v, shape, { copy: false });
  assert.deepEqual(lent.output, owned.output);
  assert.deepEqual(lent.weights, owned.weights);
  assert.equal(lent.output.buffer.byteLength, core.memory().heapBytes, "a view of WASM memory");
  assert.equal(owned.output.buffer.byteLength, 4 * owned.output.length, "its own buffer");
  const kept = Float32Array.from(owned.output);
  const other = core.attentionBatched(b.q, b.k, b.v, shape);
  assert.deepEqual(owned.output, kept, "a copy is not touched by later calls");
  assert.notDeepEqual(other.output, kept);
  assert.throws(
    () => core.attentionBatched(a.q, a.k, a.v, shape, { weights: "no" }),
    /weights must be true or false/,
  );
});

test("explicit masks and dropout run on the reference, with or without it asked for", () => {
  const next = random(24);
  const shape = { batch: 1, heads: 2, nQ: 4, nK: 5, dK: 3, dV: 2 };
  const { q, k, v } = randomBatch(next, shape);
  const mask = Array.from({ length: 4 }, (_, i) => Array.from({ length: 5 }, (_, j) => j !== i));
  for (const options of [{ mask }, { dropout: { p: 0.3, seed: 9 } }]) {
    for (const weights of [true, false]) {
      const fast = core.attentionBatched(q, k, v, shape, { ...options, weights });
      const eigen = core.attentionBatched(q, k, v, shape, { ...options, weights, reference: true });
      assert.deepEqual(fast, eigen);
    }
  }
  const masked = core.attentionBatched(q, k, v, shape, { mask });
  for (let h = 0; h < 2; h++) {
    for (let i = 0; i < 4; i++) assert.equal(masked.weights[(h * 4 + i) * 5 + i], 0);
  }
});

test("calls too large for memory are refused before anything is allocated", () => {
  const none = new Float32Array(0);
  const shape = (heads) => ({ batch: 1, heads, nQ: 8192, nK: 8192, dK: 64, dV: 64 });
  assert.throws(() => core.attentionBatched(none, none, none, shape(5)), {
    message:
      "the weights would take 1342177280 bytes (batch×heads×nQ×nK×4), over the limit of " +
      "1073741824 bytes (1 GiB of WASM memory)",
  });
  assert.throws(() => core.attentionBatched(none, none, none, shape(5), { weights: false }), {
    message: "Q has 0 values but the shape needs 2621440 (batch×heads×nQ×dK)",
  });
  assert.throws(
    () => core.attentionBatched(none, none, none, shape(1), { weights: false, reference: true }),
    {
      message: /^Q, K, V, the output and the reference's trace of one head would take 3789815808 /,
    },
  );
  const s = { batch: 1, heads: 1, nQ: 2, nK: 2, dK: 2, dV: 2 };
  const small = Float32Array.from([1, 2, 3, 4]);
  assert.deepEqual(
    core.attentionBatched(small, small, small, s, { weights: false }).output.length,
    4,
    "the module still works",
  );
});

test("overflow and non-finite inputs: the reference's messages, with the batch and head", () => {
  const shape = { batch: 1, heads: 2, nQ: 2, nK: 3, dK: 1, dV: 1 };
  const q = Float32Array.from([1, 1, 1, 1e10]);
  const k = Float32Array.from([1, 1, 1, 1, -1e10, 1]);
  const v = new Float32Array(6).fill(1);
  for (const weights of [false, true]) {
    const call = (reference) =>
      core.attentionBatched(q, k, v, shape, { scale: 1e25, weights, reference });
    const message =
      "batch 1, head 2: scaled[2][2] = scores[2][2] × scale overflows to -Infinity; the " +
      "inputs are finite but too large for float32 (at most 3.4e38)";
    assert.throws(() => call(false), { message });
    assert.throws(() => call(true), { message });
  }
  const nan = Float32Array.from([1, 1, 1, 1, 1, NaN]);
  assert.throws(() => core.attentionBatched(q, k, nan, shape, { scale: 1e25 }), {
    message: "batch 1, head 2: V[3][1] is NaN; every input must be finite",
  });
});

test("the batched call's layout is the core's, and the wrapper writes every field of it", async () => {
  // The raw module, as src/wasm/core.cpp lays the call out: the request's doubles and the buffers.
  const { default: createAttentionCore } = await import("../../web/generated/attention-core.mjs");
  const raw = await createAttentionCore();
  const layout = raw.batchLayout();
  assert.deepEqual(
    [...layout.request],
    [
      ...["batch", "heads", "nQ", "nK", "dK", "dV", "qSize", "kSize", "vSize", "causal"],
      ...["mask", "maskRows", "maskCols", "weights", "reference", "hasScale", "scale"],
      ...["dropoutP", "seed"],
    ],
  );
  assert.deepEqual([...layout.buffers], ["q", "k", "v", "mask", "output", "weights"]);
  // Every field reaches the core: each one, set apart from the rest, changes what comes back.
  const shape = { batch: 1, heads: 1, nQ: 2, nK: 2, dK: 2, dV: 2 };
  const { q, k, v } = randomBatch(random(7), shape);
  const run = (options) => core.attentionBatched(q, k, v, shape, options);
  const base = run({});
  const differs = (a, b) => a.some((x, i) => x !== b[i]);
  assert.ok(differs(run({ causal: true }).output, base.output), "causal");
  assert.ok(differs(run({ scale: 3 }).output, base.output), "scale");
  assert.ok(
    differs(
      run({
        mask: [
          [true, false],
          [true, true],
        ],
      }).output,
      base.output,
    ),
    "mask",
  );
  assert.ok(differs(run({ dropout: { p: 0.5, seed: 3 } }).output, base.output), "dropout");
  const drawn = (seed) => run({ dropout: { p: 0.5, seed } }).output;
  assert.ok(
    [4, 5, 6, 7].some((seed) => differs(drawn(seed), drawn(3))),
    "seed",
  );
  assert.equal(run({ weights: false }).weights, undefined, "weights");
  assert.throws(() => core.attentionBatched(q, k, v, { ...shape, dV: 3 }), {
    message: "V has 4 values but the shape needs 6 (batch×heads×nK×dV)",
  });
});
