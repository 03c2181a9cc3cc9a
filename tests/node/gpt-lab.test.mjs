// gpt-lab.test.mjs: "A real model" on the lab contract, with the real labs module and the
// shipped weights: the line's tokens; the head written out by the teaching path is the model's
// own head; the next character's top five; the heads' measurements in tang.json, measured again
// here over the held-out poems with a separate implementation of what each relation means; the
// shipped weights' held-out loss, which the README states; the training in slices; and a short
// `make train` in float64 against a committed loss trajectory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { initialState } from "../../web/state.js";
import { wordsFor } from "../../web/words.js";
import { fmt } from "../../web/format.js";
import { readConfig, readStreams, readWeights } from "../../web/labs/gpt/files.js";
import { gptDecode, gptEncode } from "../../web/attention.js";
import { roleOf } from "../../web/labs/gpt/panels.js";
import { gptWords } from "../../web/labs/gpt/words.js";

const root = new URL("../../", import.meta.url);
const core = await loadLabs();
const scene = await resolveScene(listed.find((s) => s.id === "model"));
const lab = scene.lab;
const json = await readConfig();
const model = core.gptModel(json.config, await readWeights());
const streams = await readStreams();
const chars = [...json.chars];

const run = (partial = {}) => {
  const state = initialState([scene], { scene: "model", lang: "en", ...partial });
  return { state, ...lab.compute(core, scene, state) };
};

const maxDiff = (a, b) => Math.max(...a.flat().map((x, i) => Math.abs(x - b.flat()[i])));

test("the line as tokens: ⏎ first, whitespace dropped, an unknown character is 1", () => {
  const known = chars[10];
  const encode = (text) => gptEncode(text, json.chars);
  assert.deepEqual(encode(` ${known}\u00e9 ${known}`), [0, 11 + 1, 1, 12]);
  // ASCII punctuation is read full width, as the poems write it; decoding gives the marks back
  const comma = chars.indexOf("，") + 2;
  assert.deepEqual(encode(`${known},${known}.`), [0, 12, comma, 12, chars.indexOf("。") + 2]);
  assert.equal(gptDecode(encode(`${known}, ${known}`), json.chars), `⏎${known}，${known}`);
  assert.equal(gptDecode([0, 1, 12], json.chars), `⏎�${known}`);
  assert.throws(() => gptDecode([json.chars.length + 2], json.chars), /not an id from 0 to 1496/);
  const { trace } = run({ line: `${known}\u00e9` });
  assert.deepEqual(trace.tokens, [0, 12, 1]);
  assert.deepEqual(trace.rows, ["⏎", known, "\u00e9"]);
  // the example line is a held-out couplet: every character known, 2 lines of 5 or 7 and marks
  const example = json.examples[0];
  assert.ok([12, 16].includes([...example].length), example);
  assert.ok(!encode(example).includes(1));
});

test("the head written out is the model's own head, every layer and head", () => {
  for (let layer = 1; layer <= json.config.layers; layer++) {
    for (let head = 1; head <= json.config.heads; head++) {
      const { trace, inputs } = run({ layer, head });
      const own = trace.forward.layers[layer - 1];
      assert.ok(maxDiff(trace.head.weights, own.weights[head - 1]) < 1e-12, `${layer}.${head}`);
      // scaled scores equal the model's below the diagonal; above it, the mask
      trace.head.masked.forEach((row, i) =>
        row.forEach((x, j) => {
          if (j > i) assert.equal(x, -Infinity);
          else assert.ok(Math.abs(x - own.scores[head - 1][i][j]) < 1e-12);
        }),
      );
      const dh = json.config.dModel / json.config.heads;
      assert.deepEqual(inputs.q[1], own.q[1].slice((head - 1) * dh, head * dh));
    }
  }
});

test("the top five: the likeliest next tokens, in order, with the softmax's numbers", () => {
  const { trace } = run();
  const probs = trace.forward.probs.at(-1);
  const sorted = [...probs].sort((a, b) => b - a);
  assert.deepEqual(trace.next.probs, sorted.slice(0, 5));
  trace.next.ids.forEach((id, k) => {
    assert.equal(probs[id], trace.next.probs[k]);
    const e = Math.exp(trace.next.logits[k] - trace.next.top) / trace.next.sum;
    assert.ok(Math.abs(e - trace.next.probs[k]) < 1e-12);
  });
  assert.ok(Math.abs(probs.reduce((a, b) => a + b) - 1) < 1e-12);
});

test("generation is the core's, seeded: the same inputs, the same line; τ = 0 the argmax", () => {
  const a = run({ temperature: 0.8, sample: 3 }).trace.generated;
  const b = run({ temperature: 0.8, sample: 3, layer: 2 }).trace.generated;
  assert.deepEqual(a, b);
  assert.ok(a.length > 0 && a.length <= 24);
  // greedy: the likeliest next token that is a character (never the unknown token)
  const greedy = run({ temperature: 0 }).trace;
  assert.equal(
    greedy.generated[0],
    greedy.next.ids.find((id) => id !== 1),
  );
  for (let sample = 1; sample <= 10; sample++) {
    assert.ok(!run({ temperature: 1.5, sample }).trace.generated.includes(1));
  }
});

// A regular poem's line length (5 or 7) from its ids, written apart from tools/train.cpp.
const marks = new Set([..."，。？！；："]);
function lineLength(poem) {
  // an unknown character is taken for a Han one: the ids say nothing of what it was
  const text = poem.map((t) => (t === 1 ? "一" : chars[t - 2]));
  const n = text.findIndex((c) => marks.has(c));
  if ((n !== 5 && n !== 7) || text.length % (n + 1) || text.length < 2 * (n + 1)) return 0;
  const ok = text.every((c, i) =>
    i % (n + 1) === n ? marks.has(c) : !marks.has(c) && c.codePointAt(0) >= 0x3400,
  );
  return ok ? n : 0;
}

test("what each head does, as tang.json says, measured again over the held-out poems", () => {
  const poems = [];
  let poem = [];
  for (const t of streams.heldOut) {
    if (t === 0) (poems.push(poem), (poem = []));
    else poem.push(t);
  }
  const names = json.heads.relations.map((r) => r.name);
  const { layers, heads, context } = json.config;
  const sums = names.map(() => Array.from({ length: layers }, () => Array(heads).fill(0)));
  const counts = names.map(() => 0);
  const even = names.map(() => 0);
  let used = 0;
  for (const p of poems) {
    const n = lineLength(p);
    if (!n) continue;
    used++;
    const tokens = [0, ...p].slice(0, context);
    const f = core.gptForward(model, tokens);
    for (let i = 1; i < tokens.length; i++) {
      const line = Math.floor((i - 1) / (n + 1));
      const keys = {
        previous: i >= 2 ? i - 1 : null,
        samePlace: i - (n + 1) >= 1 ? i - (n + 1) : null,
        lineStart: line * (n + 1) + 1 < i ? line * (n + 1) + 1 : null,
        lastMark: line >= 1 ? line * (n + 1) : null,
        start: 0,
      };
      names.forEach((name, r) => {
        const key = keys[name];
        if (key === null) return;
        counts[r]++;
        even[r] += 1 / (i + 1);
        for (let l = 0; l < layers; l++)
          for (let h = 0; h < heads; h++) sums[r][l][h] += f.layers[l].weights[h][i][key];
      });
    }
  }
  assert.equal(json.heads.poems, used);
  json.heads.relations.forEach((r, k) => {
    assert.equal(r.queries, counts[k], r.name);
    assert.ok(Math.abs(r.uniform - even[k] / counts[k]) < 1e-12, r.name);
    for (let l = 0; l < layers; l++)
      for (let h = 0; h < heads; h++) {
        const mean = sums[k][l][h] / counts[k];
        assert.ok(Math.abs(r.mean[l][h] - mean) < 1e-5, `${r.name} ${l}.${h}: ${mean}`);
      }
  });
  // a name only where the numbers give one
  for (let l = 0; l < layers; l++)
    for (let h = 0; h < heads; h++) {
      const role = roleOf(json.heads.relations, l, h);
      if (!role) continue;
      const r = json.heads.relations.find((x) => x.name === role);
      assert.ok(r.mean[l][h] >= 0.4 && r.mean[l][h] >= 3 * r.uniform);
    }
});

test("drift check: the shipped weights' held-out loss is tang.json's and the README's", () => {
  const loss = core.gptStreamLoss(model, streams.heldOut);
  assert.ok(Math.abs(loss - json.heldOutInt8) < 1e-4, `${loss} vs ${json.heldOutInt8}`);
  // quantising to int8 moves the held-out loss by less than 0.01 nats
  assert.ok(Math.abs(json.heldOutInt8 - json.heldOut) < 0.01);
  const readme = readFileSync(new URL("README.md", root), "utf8");
  assert.match(readme, new RegExp(`held-out loss of ${fmt(json.heldOutInt8, 2)} nats`));
  assert.equal(json.config.vocab, chars.length + 2);
  assert.equal(
    streams.train.reduce((a, b) => Math.max(a, b)),
    json.config.vocab - 1,
  );
});

test("the model's size in words, in both languages: its parameters counted from its shape", () => {
  // a layer: LayerNorms 2C + 2C, W_Q, W_K, W_V, W_O 4C², W_fc 4C², b_fc 4C, W_proj 4C², b_proj C
  const { vocab: V, dModel: C, layers: L } = json.config;
  const size = V * C + L * (12 * C * C + 9 * C) + 2 * C;
  assert.equal(model.params.length, size);
  const en = gptWords.en.gptLab.pastiche(size).match(/about (\d+) thousand numbers/);
  assert.ok(en && Math.abs(Number(en[1]) * 1000 - size) <= 500, en?.[0]);
  const zh = gptWords.zh.gptLab.pastiche(size).match(/大约 ([\d.]+) 万个数/);
  assert.ok(zh && Math.abs(Number(zh[1]) * 10000 - size) <= 500, zh?.[0]);
});

test("the words: the step texts carry the model's numbers in both languages", () => {
  const { state, trace, inputs } = run();
  for (const lang of ["en", "zh"]) {
    const msg = wordsFor(lang, scene);
    const ctx = { scene, lab, state: { ...state, lang }, msg, trace, inputs };
    assert.ok(lab.text("train", ctx).includes(fmt(json.heldOut, 2)), lang);
    assert.ok(lab.text("next", ctx).includes(String(json.config.vocab)), lang);
    assert.ok(lab.text("head", ctx).includes(msg.gptLab.where(1, 1)), lang);
  }
});

test("training in slices lowers the loss, and a step in slices is the whole step", () => {
  const options = { batch: 4, total: 100, seed: 5 };
  const sliced = core.gptTrainer(json.config, streams.train, options);
  const whole = core.gptTrainer(json.config, streams.train, options);
  const losses = [];
  for (let s = 0; s < 12; s++) {
    for (let k = 0; k < 3; k++) assert.equal(sliced.slice(1).loss, undefined);
    losses.push(sliced.slice(1).loss);
    assert.ok(Math.abs(whole.step(1).losses[0] - losses.at(-1)) < 1e-4);
  }
  assert.ok(losses.at(-1) < losses[0] - 0.3, String(losses));
  sliced.close();
  whole.close();
});

test("drift check: a short make train in float64 reproduces the committed trajectory to 1e-9", () => {
  const dir = mkdtempSync(join(tmpdir(), "train-"));
  const out = join(dir, "trajectory.json");
  const binary = new URL("build/native/attention_train", root).pathname;
  execFileSync(binary, ["--double", "--steps", "4", "--batch", "2", "--trajectory", out], {
    stdio: "pipe",
  });
  const got = JSON.parse(readFileSync(out, "utf8"));
  const want = JSON.parse(readFileSync(new URL("tests/fixtures/train-trajectory.json", root)));
  assert.equal(got.length, want.length);
  got.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-9 * Math.abs(want[i]), `${i}`));
});
