// real-sizes.test.mjs: lesson 6's sizes lab through the real WASM core: the published
// configurations in web/labs/real/models.js give the publishers' parameter counts and the KV
// caches worked out by hand; a shape with a field the core does not know, without one it needs,
// or of the wrong kind is refused with the field's name; the glossary's numbers are the core's.
import { test } from "node:test";
import assert from "node:assert/strict";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { readConfig } from "../../web/labs/gpt/files.js";
import { published, ourShape } from "../../web/labs/real/models.js";
import { configOf } from "../../web/labs/gpt/induction-run.js";
import { entryOf } from "../../web/i18n/glossary.js";

const core = await loadLabs();
const tang = await readConfig();
const shape = (id) => published.find((m) => m.id === id).shape;
const size = (s, n = 1024) => core.modelSize(s, { n });

test("the published models' parameters are their publishers' counts", () => {
  // GPT-2's paper and checkpoint (124M), Meta's and Qwen's model cards' exact totals
  assert.equal(size(shape("gpt2")).total, 124439808);
  assert.equal(size(shape("llama3")).total, 8030261248);
  assert.equal(size(shape("qwen25")).total, 7615616512);
  // Qwen3-8B's card: 8.2B, 6.95B without the embeddings
  const q3 = size(shape("qwen3"));
  assert.equal(Math.round(q3.total / 1e8) / 10, 8.2);
  assert.equal(Math.round((q3.total - q3.embedding - q3.unembedding) / 1e7) / 100, 6.95);
});

test("their KV caches: 2 × layers × K/V heads × d_head × 2 bytes a token", () => {
  const per = (id) => size(shape(id)).kvBytesPerToken;
  assert.equal(per("gpt2"), 2 * 12 * 12 * 64 * 2); // 36,864
  assert.equal(per("llama3"), 131072);
  assert.equal(per("qwen25"), 57344);
  assert.equal(per("qwen3"), 2 * 36 * 8 * 128 * 2);
  assert.equal(size(shape("llama3")).kvBytesContext, 131072 * 8192);
  assert.equal(size(shape("qwen25"), 32768).kvBytesAt, 57344 * 32768);
});

test("one token's attention is the KV-cache lab's count, worked out here for Qwen2.5 7B", () => {
  const n = 4096;
  const [C, h, k, d, L] = [3584, 28, 4, 128, 28];
  const layer = C * (h + 2 * k) * d + 2 * h * n * d + h * d * C;
  const z = size(shape("qwen25"), n);
  assert.equal(z.attentionLayer.total, layer);
  assert.equal(z.attentionToken, L * layer);
  assert.equal(z.mlpToken, L * 3 * C * 18944);
  assert.equal(z.unembedToken, 152064 * C);
  // the same formula as decodeStep's cost, for a layer of the inside lab's size
  const x = [[1, 0, 0, 0]];
  const w = (cols) => Array.from({ length: 4 }, () => Array(cols).fill(0.1));
  const step = core.decodeStep(
    null,
    x[0],
    { wq: w(4), wk: w(2), wv: w(2), wo: w(4) },
    {
      heads: 2,
      kvHeads: 1,
    },
  );
  const small = core.modelSize(
    {
      ...ourShape({ vocab: 2, context: 4, dModel: 4, layers: 1, heads: 2, mlp: false }),
      kvHeads: 1,
    },
    { n: 1 },
  );
  assert.deepEqual(small.attentionLayer, step.cost);
});

test("the project's own models: their sizes are gptLayout's", () => {
  const count = (config) => core.gptLayout(config).reduce((a, t) => a + t.rows * t.cols, 0);
  assert.equal(size(ourShape(tang.config)).total, count(tang.config));
  assert.equal(size(ourShape(configOf(2))).total, count(configOf(2)));
  assert.equal(size(ourShape(configOf(1))).total, count(configOf(1)));
});

test("a shape is read as the core declares it: an unknown, missing or ill-kinded field is refused by name", () => {
  const good = shape("llama3");
  assert.throws(() => size({ ...good, Heads: 32 }), {
    message:
      'shape has no field "Heads"; its fields are vocab, context, dModel, layers, heads, kvHeads, dHead, dFf, mlp, norm, positions, tied, qkvBias, oBias, mlpBias, qkNorm',
  });
  const { kvHeads, ...missing } = good;
  assert.ok(kvHeads);
  assert.throws(() => size(missing), {
    message: "shape.kvHeads is missing: h_kv, key-value heads per layer; divides h",
  });
  assert.throws(() => size({ ...good, tied: "no" }), {
    message: "shape.tied must be true or false",
  });
  assert.throws(() => size({ ...good, layers: 2.5 }), {
    message: "shape.layers must be a whole number, not 2.5",
  });
  assert.throws(() => size({ ...good, kvHeads: 3 }), {
    message:
      "kv_heads is 3; it must divide heads (32): each key-value head serves the same number of query heads",
  });
  assert.throws(() => size({ ...good, mlp: "swish" }), {
    message: 'mlp is "swish"; it must be gelu, gated or none',
  });
  assert.throws(() => core.modelSize(good, { n: 0 }), {
    message: "n is 0; it must be from 1 to 4194304",
  });
  assert.throws(() => core.modelSize(good, {}), {
    message: "n must be a whole number, not undefined",
  });
  // after every refusal the module still counts
  assert.equal(size(good).total, 8030261248);
});

test("the glossary's numbers are the core's and the configurations'", () => {
  const numbers = (text) =>
    [...text.matchAll(/\d[\d,]*/g)].map((m) => Number(m[0].replaceAll(",", "")));
  const p = numbers(entryOf("parameter").en.formula);
  assert.ok(p.includes(size(shape("llama3")).total), p.join(" "));
  assert.ok(p.includes(size(ourShape(tang.config)).total), p.join(" "));
  const c = numbers(entryOf("context").en.formula);
  assert.ok(c.includes(shape("gpt2").context) && c.includes(tang.config.context), c.join(" "));
});

test("the timed head's longest n is the core's: 8,192 keys are timed, 8,193 refused by name", async () => {
  const { timedLongest, contexts } = await import("../../web/labs/real/sizes.js");
  const d = 128;
  const head = (n) =>
    core.attentionBatched(
      new Float32Array(d),
      new Float32Array(n * d),
      new Float32Array(n * d),
      { batch: 1, heads: 1, nQ: 1, nK: n, dK: d, dV: d },
      { weights: false, causal: false },
    );
  assert.equal(head(timedLongest).output.length, d);
  assert.throws(() => head(timedLongest + 1), /nK is 8193; it must be from 1 to 8192/);
  // the slider reaches past it, where the button says why it cannot time
  assert.ok(contexts.some((n) => n > timedLongest) && contexts.includes(timedLongest));
});
