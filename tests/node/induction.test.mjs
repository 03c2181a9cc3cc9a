// induction.test.mjs: the induction task's bindings (src/wasm/gpt.cpp, web/wasm/gpt.js). Its
// sequences against a generator written here from docs/model.md's description (splitmix64, a
// partial Fisher–Yates shuffle), its scores against the model's forward pass read here cell by
// cell, the `mlp` flag, a trainer on the task, and errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { splitmix64 } from "./reference.mjs";
import { entryOf } from "../../web/i18n/glossary.js";

const core = await loadLabs();
const task = { vocab: 32, context: 20, minSegment: 3, maxSegment: 10 };
const config = { vocab: 32, context: 20, dModel: 16, layers: 2, heads: 2, base: 100, mlp: false };

// For each sequence: m = min + ⌊u·(max − min + 1)⌋; m distinct tokens, the first m of a partial
// Fisher–Yates shuffle of 0 … V−1 (position i swapped with i + ⌊u·(V − i)⌋); the segment again;
// then ⌊u·V⌋ to T + 1 tokens. tokens are the first T, targets the last T.
function referenceBatch({ vocab, context, minSegment, maxSegment }, batch, seed) {
  const u = splitmix64(seed);
  const out = { tokens: [], targets: [], segments: [] };
  for (let b = 0; b < batch; b++) {
    const m = minSegment + Math.floor(u() * (maxSegment - minSegment + 1));
    const pool = Array.from({ length: vocab }, (_, i) => i);
    for (let i = 0; i < m; i++) {
      const j = i + Math.floor(u() * (vocab - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const seq = [...pool.slice(0, m), ...pool.slice(0, m)];
    while (seq.length < context + 1) seq.push(Math.floor(u() * vocab));
    out.tokens.push(...seq.slice(0, context));
    out.targets.push(...seq.slice(1));
    out.segments.push(m);
  }
  return out;
}

test("the task's sequences are the generator's of docs/model.md, seeded", () => {
  for (const seed of [1, 7, 123456789]) {
    const got = core.inductionBatch(task, { batch: 40, seed });
    assert.deepEqual(got, referenceBatch(task, 40, seed));
  }
  const small = { vocab: 5, context: 9, minSegment: 2, maxSegment: 4 };
  assert.deepEqual(
    core.inductionBatch(small, { batch: 30, seed: 3 }),
    referenceBatch(small, 30, 3),
  );
});

test("the scores are the forward pass's weights and probabilities, averaged as defined", () => {
  const trainer = core.gptTrainer(config, referenceBatch(task, 8, 5).tokens, {
    batch: 4,
    lr: 3e-2,
    total: 20,
    seed: 2,
  });
  trainer.step(20); // away from the start, so that the heads differ
  const model = { config, params: trainer.params() };
  trainer.close();
  const batch = core.inductionBatch(task, { batch: 6, seed: 11 });
  const got = core.inductionScores(model, batch);
  const T = task.context;
  const previous = [0, 1].map(() => [0, 0]);
  const induction = [0, 1].map(() => [0, 0]);
  let first = 0;
  let repeat = 0;
  let firsts = 0;
  let repeats = 0;
  let inductions = 0;
  batch.segments.forEach((m, s) => {
    const tokens = batch.tokens.slice(s * T, (s + 1) * T);
    const f = core.gptForward(model, tokens);
    for (let i = 0; i < 2 * m - 1; i++) {
      const loss = -Math.log(f.probs[i][batch.targets[s * T + i]]);
      if (i < m - 1) ((first += loss), firsts++);
      if (i >= m) ((repeat += loss), repeats++);
    }
    f.layers.forEach((layer, l) =>
      layer.weights.forEach((w, h) => {
        for (let i = 1; i < T; i++)
          previous[l][h] += w[i][i - 1] / (batch.segments.length * (T - 1));
        // the token after the earlier occurrence of token i, found by its value
        for (let i = m; i < 2 * m; i++) induction[l][h] += w[i][tokens.indexOf(tokens[i]) + 1];
      }),
    );
    inductions += m;
  });
  const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-5, `${what}: ${a} vs ${b}`);
  close(got.firstLoss, first / firsts, "first half");
  close(got.repeatLoss, repeat / repeats, "repeated half");
  for (const l of [0, 1]) {
    for (const h of [0, 1]) {
      close(got.previous[l][h], previous[l][h], `previous ${l} ${h}`);
      close(got.induction[l][h], induction[l][h] / inductions, `induction ${l} ${h}`);
    }
  }
  assert.notEqual(got.previous[0][0].toFixed(4), got.previous[1][1].toFixed(4));
});

test("the glossary's formulas for the two scores name the positions the core averages", () => {
  // each language's formula read for its positions (i − 1; i = m … 2m − 1 on i − m + 1), then
  // evaluated on the task's sequences against where the token after the earlier copy is
  const entry = entryOf("induction-head");
  const read = {
    en: /position i on (?<prev>[^;]+); induction score = the mean weight from a token of the repeat \(i = (?<from>[^…]+) … (?<to>[^)]+)\) on (?<on>[^,]+),/,
    zh: /从位置 i 放在 (?<prev>\S+ − \S+) 上的平均权重；归纳分数 = 从重复段的词元（i = (?<from>[^…]+) … (?<to>[^）]+)）放在 (?<on>[^（]+)（/,
  };
  const value = (expr, i, m) =>
    Function("i", "m", `return ${expr.replace(/−/g, "-").replace(/(\d)m/g, "$1*m")};`)(i, m);
  const batch = core.inductionBatch(task, { batch: 20, seed: 4 });
  for (const lang of ["en", "zh"]) {
    const g = read[lang].exec(entry[lang].formula)?.groups;
    assert.ok(g, `${lang}: ${entry[lang].formula}`);
    assert.equal(value(g.prev.trim(), 5, 3), 4, `${lang}: previous-token`);
    batch.segments.forEach((m, s) => {
      const tokens = batch.tokens.slice(s * task.context, (s + 1) * task.context);
      const from = value(g.from.trim(), 0, m);
      const to = value(g.to.trim(), 0, m);
      assert.deepEqual([from, to], [m, 2 * m - 1], `${lang}: the repeat's positions`);
      for (let i = from; i <= to; i++) {
        assert.equal(value(g.on.trim(), i, m), tokens.indexOf(tokens[i]) + 1, `${lang}: i = ${i}`);
      }
    });
  }
});

test("mlp: false has no MLP tensors; the flag must be true or false", () => {
  const names = (c) => core.gptLayout(c).map((t) => t.name);
  assert.ok(!names(config).some((n) => /ln2|fc|proj/.test(n)));
  assert.ok(names({ ...config, mlp: true }).includes("l1.w_fc"));
  assert.deepEqual(names({ ...config, mlp: undefined }), names({ ...config, mlp: true }));
  assert.throws(
    () => core.gptLayout({ ...config, mlp: "no" }),
    /config\.mlp must be true or false/,
  );
});

test("a trainer on the task learns from its sequences, and closes", () => {
  const open = core.gptTrainersOpen();
  const trainer = core.inductionTrainer(config, task, { batch: 8, lr: 1e-2, total: 30, seed: 4 });
  assert.equal(core.gptTrainersOpen(), open + 1);
  const { losses, step } = trainer.step(30);
  assert.equal(step, 30);
  assert.ok(losses.every(Number.isFinite));
  assert.ok(Math.abs(losses[0] - Math.log(32)) < 0.1, `starts near ln 32: ${losses[0]}`);
  trainer.close();
  assert.equal(core.gptTrainersOpen(), open);
});

test("bad tasks and batches get an error that names the field", () => {
  const batch = (t, b = 2) => core.inductionBatch(t, { batch: b, seed: 1 });
  assert.throws(() => batch({ ...task, maxSegment: 11 }), /max_segment is 11/);
  assert.throws(() => batch({ ...task, minSegment: 1 }), /min_segment is 1/);
  assert.throws(() => batch({ ...task, vocab: 2.5 }), /task\.vocab must be a whole number/);
  assert.throws(() => batch(task, 0), /batch is 0/);
  assert.throws(
    () => core.inductionTrainer({ ...config, context: 22 }, task, { total: 10 }),
    /the model reads 22 tokens of 32; the task's sequences are 20 tokens of 32/,
  );
  const model = { config, params: new Float32Array(core.gptLayout(config).at(-1).offset + 16) };
  const b = batch(task);
  assert.throws(
    () => core.inductionScores(model, { ...b, segments: [3, 11] }),
    /segments\[2\] is 11/,
  );
  assert.throws(
    () => core.inductionScores(model, { ...b, tokens: [...b.tokens, 40] }),
    /batch\.tokens\[41\] is 40/,
  );
});
