// hostile-gradients.test.mjs: the gradient and model entry points of the labs module driven
// with hostile input, as the core's attention is (property.test.mjs): wrong kinds of thing,
// wrong shapes, NaN and infinities, sizes past the limits. Each call is refused with a message
// that names what is wrong; 3,000 refused calls in a row leave the WASM heap's bytes in use
// where they were, and the module then computes what it computed before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";

const labs = await loadLabs();
const M = [
  [1, 2],
  [3, 4],
];
const weights = { wq: M, wk: M, wv: M, wo: M };
const config = { vocab: 8, context: 4, dModel: 4, layers: 1, heads: 1 };
const size = labs.gptLayout(config).reduce((n, t) => n + t.rows * t.cols, 0);
const model = { config, params: Float32Array.from({ length: size }, (_, i) => Math.sin(i) / 4) };

// [call, what its message must say]
const hostile = [
  [() => labs.attentionBackward("q", M, M, M), /Q must be an array of rows/],
  [() => labs.attentionBackward(M, M, M, [[1, 2]]), /dL\/d\(output\) is 1×2 but output is 2×2/],
  [() => labs.attentionBackward([[1, NaN]], M, M, M), /Q\[1\]\[2\] is NaN/],
  [() => labs.attentionBackward(M, M, [[Infinity], [0]], [[1], [1]]), /V\[1\]\[1\] is infinite/],
  [() => labs.attentionBackward(M, M, M, M, { scale: "big" }), /scale/],
  [() => labs.selfAttentionBackward(M, M, [[1]], M, M), /W_K/],
  [() => labs.multiHeadBackward(M, { wq: M }, M, { heads: 1 }), /W_K|wk/],
  [() => labs.multiHeadBackward(M, weights, M, { heads: 3 }), /heads/],
  [() => labs.multiHeadBackward(M, weights, M, { heads: 1.5 }), /heads/],
  [() => labs.gptForward(model, [0, 9]), /tokens\[2\] is 9/],
  [() => labs.gptForward(model, [0, NaN]), /tokens\[2\] is NaN/],
  [() => labs.gptForward(model, [0, 1, 2, 3, 4]), /context|5 tokens/],
  [() => labs.gptForward(model, "abc"), /tokens/],
  [() => labs.gptGradients(model, [0, 1], [1]), /targets/],
  [() => labs.gptGradients(model, [0, 1], [1, 2 ** 32 - 1]), /targets\[2\]/],
  [() => labs.gptModel({ ...config, vocab: 1e9 }, new Uint8Array(4)), /vocab/],
  [() => labs.gptModel({ ...config, dModel: 3 }, new Uint8Array(4)), /d_model|dModel/],
  [() => labs.gptModel(config, new Uint8Array(5)), /short|bytes|size/],
  [() => labs.gptModel(config, new Float32Array(5)), /Uint8Array/],
  [() => labs.gptForward({ config, params: new Float32Array(3) }, [0]), /params/],
  [() => labs.gptGenerate(model, [0], { count: 1e6 }), /count/],
  [() => labs.gptGenerate(model, [0], { count: 2, temperature: -1 }), /temperature/],
];

test("each hostile call to the gradients and the model is refused, naming what is wrong", () => {
  for (const [call, message] of hostile) assert.throws(call, message, String(call));
});

test("3,000 refused calls in a row leave the heap where it was, and the answers as they were", () => {
  const good = () => [
    labs.attentionBackward(M, M, M, M).gradients.q,
    labs.gptForward(model, [0, 1, 2]).loss,
    Array.from(labs.gptGradients(model, [0, 1, 2], [1, 2, 3]).gradients.slice(0, 8)),
  ];
  const before = good();
  const heap = labs.memory().inUse;
  for (let i = 0; i < 3000; ++i) assert.throws(hostile[i % hostile.length][0]);
  assert.equal(labs.memory().inUse, heap, "bytes in use");
  assert.deepEqual(good(), before);
});
