// gpt-inputs.test.mjs: the small model's API refuses what it cannot take, with a message that
// names it, and never changes an input silently: token ids are checked as the numbers given
// (none wrapped modulo 2³² into another id), parameters are finite where they enter, a call
// without its options object gets defaults or a clear message, and the weights file is checked
// field by field. The module keeps working after every error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";

const labs = await loadLabs();
const config = { vocab: 6, context: 4, dModel: 4, layers: 1, heads: 1 };
const layout = labs.gptLayout(config);
const size = layout.at(-1).offset + layout.at(-1).rows * layout.at(-1).cols;
const params = Float32Array.from({ length: size }, (_, i) => Math.sin(i * 1.7) * 0.3);
const model = { config, params };

const throwsExactly = (f, message) => assert.throws(f, (e) => e.message === message, message);

test("token ids are checked as given: none is wrapped into another id", () => {
  const forward = (tokens, targets) => labs.gptForward(model, tokens, { targets });
  const cases = [
    [() => forward([0, 2 ** 32 + 2]), "tokens[2] is 4294967298, not an id from 0 to 5"],
    [() => forward([0, 2 ** 31]), "tokens[2] is 2147483648, not an id from 0 to 5"],
    [() => forward([0, 6]), "tokens[2] is 6, not an id from 0 to 5"],
    [() => forward([0, -1]), "tokens[2] is -1, not an id from 0 to 5"],
    [() => forward([0, 1, NaN]), "tokens[3] is NaN, not an id from 0 to 5"],
    [() => forward([0, Infinity]), "tokens[2] is Infinity, not an id from 0 to 5"],
    [() => forward([0, 1.5]), "tokens[2] is 1.5, not an id from 0 to 5"],
    [() => forward([0, "1"]), 'tokens[2] is "1", not an id from 0 to 5'],
    [() => forward([0, 1], [1, 2 ** 32 - 1]), "targets[2] is 4294967295, not an id from -1 to 5"],
    [() => forward([0, 1], [1, -2]), "targets[2] is -2, not an id from -1 to 5"],
    [
      () => labs.gptStreamLoss(model, [0, 1, 2 ** 32]),
      "stream[3] is 4294967296, not an id from 0 to 5",
    ],
    [
      () => labs.gptGenerate(model, [2 ** 32 + 1], { count: 2 }),
      "prompt[1] is 4294967297, not an id from 0 to 5",
    ],
    [
      () => labs.gptGradients(model, [0, 1], [1, 2 ** 32 + 2]),
      "targets[2] is 4294967298, not an id from -1 to 5",
    ],
    [
      () => labs.gptTrainer(config, [0, 1, 2, 2 ** 32 + 3, 4], { total: 2 }),
      "data[4] is 4294967299, not an id from 0 to 5",
    ],
  ];
  for (const [f, message] of cases) throwsExactly(f, message);
  // −1, "no target", is a target's and nothing else's; it changes the loss as documented
  const all = forward([0, 1, 2], [1, 2, 3]).loss;
  const some = forward([0, 1, 2], [1, -1, 3]).loss;
  assert.notEqual(all, some);
});

test("an empty sequence, and calls without their options object", () => {
  throwsExactly(() => labs.gptForward(model, []), "tokens is empty: give it at least one token id");
  throwsExactly(() => labs.gptGenerate(model, [0]), "count must be a whole number, not undefined");
  throwsExactly(
    () => labs.gptTrainer(config, [0, 1, 2, 3, 4, 5]),
    "total must be a whole number, not undefined",
  );
  const q = [[1, 0]];
  throwsExactly(() => labs.sharpnessDescent(q, q, [[1]]), "target must be a number, not undefined");
  throwsExactly(
    () => labs.teachDescent(q, [[1], [0]], [[1], [0]], [[1], [0]]),
    "eta must be a number, not undefined",
  );
});

test("parameters that are not finite are refused where they enter, the first one named", () => {
  for (const bad of [NaN, Infinity, -Infinity]) {
    const p = params.slice();
    const at = layout[3].offset + layout[3].cols + 2; // the tensor's row 2, column 3
    p[at] = bad;
    p[at + 1] = NaN;
    throwsExactly(
      () => labs.gptForward({ config, params: p }, [0, 1]),
      `model.params[${at}] (${layout[3].name}[2][3]) is ${bad}, not a finite number`,
    );
  }
  assert.ok(Number.isFinite(labs.gptForward(model, [0, 1, 2], { targets: [1, 2, 3] }).loss));
});

test("the weights file: too short, too long, not finite; each named, and nothing kept", () => {
  // The file for these parameters, written as docs/model.md describes it (a float32 scale per
  // matrix row, then its int8 values; vectors as float32), by a plain JS writer.
  const bytes = [];
  const f32 = (x) => bytes.push(...new Uint8Array(Float32Array.of(x).buffer));
  for (const t of layout) {
    for (let r = 0; r < t.rows; r++) {
      const row = params.subarray(t.offset + r * t.cols, t.offset + (r + 1) * t.cols);
      if (t.rows === 1) {
        row.forEach(f32);
        continue;
      }
      const scale = Math.fround(Math.max(...row.map(Math.abs)) / 127);
      f32(scale);
      for (const x of row) bytes.push(Math.round(x / scale) & 0xff);
    }
  }
  const file = Uint8Array.from(bytes);
  const read = labs.gptModel(config, file).params;
  assert.equal(read.length, size);
  assert.ok(read.every((x, i) => Math.abs(x - params[i]) <= 0.3 / 127 / 2 + 1e-7));
  throwsExactly(
    () => labs.gptModel(config, file.subarray(0, file.length - 1)),
    `the weights file has ${file.length - 1} bytes but this model (vocab 6, d_model 4, layers 1, with MLPs) needs ${file.length}: it is 1 byte too short (cut off, or another model's weights)`,
  );
  throwsExactly(
    () => labs.gptModel(config, Uint8Array.from([...file, 0])),
    `the weights file has ${file.length + 1} bytes but this model (vocab 6, d_model 4, layers 1, with MLPs) needs ${file.length}: it is 1 byte too long (another model's weights, or more after them)`,
  );
  const nan = file.slice();
  nan.set(new Uint8Array(Float32Array.of(NaN).buffer), 0); // wte's row 1 scale
  throwsExactly(
    () => labs.gptModel(config, nan),
    "the weights file's wte row 1 has the scale NaN; a row's scale must be a finite number ≥ 0",
  );
  assert.throws(() => labs.gptModel({ ...config, vocab: 7 }, file), /too short/);
  assert.throws(() => labs.gptModel({ ...config, dModel: 3 }, file), /d_head|even|divide/);
});

test("a config and a task are read as the core declares them: each field reaches it, no other is taken", () => {
  const count = (c) => labs.gptLayout(c).reduce((a, t) => a + t.rows * t.cols, 0);
  // every size but the context changes the parameters' count; mlp false drops the MLPs
  for (const [name, value] of Object.entries({ vocab: 9, dModel: 8, layers: 2 })) {
    assert.notEqual(count({ ...config, [name]: value }), count(config), name);
  }
  assert.ok(count({ ...config, mlp: false }) < count(config));
  assert.equal(labs.gptLayout({ ...config, heads: 2, dModel: 8 }).length, layout.length);
  // base, left out, is 10000; given, it turns RoPE otherwise
  const logits = (c) => labs.gptForward({ config: c, params }, [1, 2, 3]).logits;
  assert.deepEqual(logits({ ...config, base: 10000 }), logits(config));
  assert.notDeepEqual(logits({ ...config, base: 3 }), logits(config));
  // the context bounds a sequence
  const five = [1, 2, 3, 4, 5];
  assert.throws(() => labs.gptForward(model, five));
  assert.equal(
    labs.gptForward({ config: { ...config, context: 5 }, params }, five).logits.length,
    5,
  );
  // a misspelt field would be ignored, and the model run with another base: refused, named
  throwsExactly(
    () => labs.gptLayout({ ...config, Base: 3 }),
    'config has no field "Base"; its fields are vocab, context, dModel, layers, heads, base, mlp',
  );
  throwsExactly(
    () => labs.gptLayout({ vocab: 6, context: 4, layers: 1, heads: 1 }),
    "config.dModel is missing: C, the width of each token's vector",
  );
  throwsExactly(() => labs.gptLayout({ ...config, mlp: 0 }), "config.mlp must be true or false");
  // null is left out, as in a description file; a size is at least 1, and one past 32 bits is
  // refused here, not wrapped into another on its way to the core
  assert.deepEqual(labs.gptLayout({ ...config, base: null, mlp: null }), layout);
  throwsExactly(
    () => labs.gptForward({ config: { ...config, vocab: 0 }, params }, [0]),
    "config.vocab must be a whole number of at least 1, not 0",
  );
  throwsExactly(
    () => labs.gptLayout({ ...config, vocab: 3e9 }),
    "config.vocab is 3000000000, past any size the core reads (2147483647)",
  );
  const task = { vocab: 8, context: 8, minSegment: 2, maxSegment: 3 };
  assert.equal(labs.inductionBatch(task, { batch: 2 }).tokens.length, 16);
  throwsExactly(
    () => labs.inductionBatch({ ...task, min_segment: 2 }, { batch: 2 }),
    'task has no field "min_segment"; its fields are vocab, context, minSegment, maxSegment',
  );
});
