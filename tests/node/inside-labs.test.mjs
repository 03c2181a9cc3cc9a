// inside-labs.test.mjs: the four model labs ("inside a model") on the real labs module: every cell of
// every step has a derivation whose every "=" holds at the precision shown (tests/node/
// shown.mjs reads the lines as written), at 2 to 6 decimals, in both languages; and the labs'
// numbers equal tests/fixtures/inside-labs.json, worked out in float64 NumPy apart from the core.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs } from "../../web/attention.js";
import { wordsFor } from "../../web/words.js";
import { checkValue } from "../../web/check.js";
import { checkLine, hasArithmetic } from "./shown.mjs";
import { labAt } from "./lab-context.mjs";
import heads from "../../web/labs/inside/heads.js";
import gqa from "../../web/labs/inside/gqa.js";
import kvcache from "../../web/labs/inside/kvcache.js";
import order from "../../web/labs/inside/order.js";
import * as data from "../../web/labs/inside/data.js";

const core = await loadLabs();
const fixture = JSON.parse(readFileSync(new URL("../fixtures/inside-labs.json", import.meta.url)));
const scenes = [...heads, ...gqa, ...kvcache, ...order];

// The context of a lab's step, as the page draws it (lab-context.mjs).
function contextOf(scene, lang, digits, stepIndex) {
  const lab = labAt(core, scene, { lang, digits, step: stepIndex });
  return lab.at(lang, lab.steps[stepIndex].id);
}

test("the labs are the four scenes of inside a model, each with its lab on the labs module", () => {
  assert.deepEqual(
    scenes.map((s) => s.id),
    ["heads", "gqa", "kvcache", "order"],
  );
  for (const s of scenes) assert.equal(s.lab.core, "labs");
});

test("the inputs are the fixture's, transcribed for the NumPy reference", () => {
  for (const key of [
    "x",
    "xPlain",
    "wq",
    "wk4",
    "wv4",
    "wo",
    "wk2",
    "wv2",
    "wk1",
    "wv1",
    "order",
  ]) {
    assert.deepEqual(data[key], fixture.inputs[key], key);
  }
  assert.deepEqual(data.tokens, fixture.inputs.tokens);
});

test("every = in every derivation of every lab holds at the precision shown", (t) => {
  let lines = 0;
  let checked = 0;
  for (const scene of scenes) {
    const stepCount = contextOf(scene, "en", 4, 0).steps.length;
    for (const lang of ["en", "zh"]) {
      for (const digits of [2, 3, 4, 6]) {
        for (let s = 0; s < stepCount; s++) {
          const ctx = contextOf(scene, lang, digits, s);
          for (const m of ctx.view.matrices) {
            m.data.forEach((row, i) =>
              row.forEach((_, j) => {
                const d = scene.lab.derivation(m.id, i, j, ctx);
                assert.ok(
                  d.lines.length > 0,
                  `${scene.id} ${ctx.stepId} ${m.id}[${i}][${j}] has a derivation`,
                );
                for (const l of d.lines) {
                  lines++;
                  const result = checkLine(l.text, digits);
                  // a line with arithmetic that cannot be read is a failure, not a skip
                  if (hasArithmetic(l.text))
                    assert.ok(result, `a line nobody can check: ${l.text}`);
                  if (!result) continue;
                  checked++;
                  assert.ok(result.holds, `${scene.id}, ${digits} decimals, ${lang}: ${l.text}`);
                }
              }),
            );
          }
        }
      }
    }
  }
  t.diagnostic(`${lines} lines written, ${checked} with arithmetic worked out from the text`);
  assert.ok(checked > 10000, `only ${checked} lines checked`);
});

// ---- the labs' numbers against the NumPy fixture ----

function near(actual, expected, what, tolerance = 1e-12) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, i) => {
    if (Array.isArray(x)) return near(x, expected[i], `${what}[${i}]`, tolerance);
    assert.ok(Math.abs(x - expected[i]) <= tolerance, `${what}[${i}] is ${x}, not ${expected[i]}`);
  });
}

const shown = (scene, stepId, lang = "en") => {
  const steps = contextOf(scene, lang, 4, 0).steps;
  const ctx = contextOf(
    scene,
    lang,
    4,
    steps.findIndex((s) => s.id === stepId),
  );
  return Object.fromEntries(ctx.view.matrices.map((m) => [m.id, m.data]));
};

test("lab 1: each head's weights, the concatenation and the output", () => {
  const [scene] = heads;
  const f = fixture.heads["4"];
  const weights = shown(scene, "headWeights");
  f.weights.forEach((w, h) => near(weights[`h${h + 1}-weights`], w, `head ${h + 1}`));
  near(shown(scene, "concat").concat, f.concat, "concat");
  near(shown(scene, "combine").output, f.output, "output");
});

test("lab 2: the weights for h_kv = 4, 2, 1, K, and the cache sizes", () => {
  const [scene] = gqa;
  for (const [step, hKv] of [
    ["kv4", "4"],
    ["kv2", "2"],
    ["kv1", "1"],
  ]) {
    const m = shown(scene, step);
    fixture.heads[hKv].weights.forEach((w, h) =>
      near(m[`h${h + 1}-weights`], w, `${step} head ${h + 1}`),
    );
    near(m.k, fixture.heads[hKv].k, `${step} K`);
  }
  const cache = ["4", "2", "1"].map((k) => {
    const c = fixture.heads[k].cache;
    return [c.width, c.k, c.v];
  });
  assert.deepEqual(shown(scene, "memory").cache, cache);
});

test("lab 3: every decoding step's weights and output, and its multiply-adds against a recompute", () => {
  const [scene] = kvcache;
  const ctx = contextOf(scene, "en", 4, 0);
  fixture.kvcache.steps.forEach((expected, t) => {
    const m = shown(scene, `token${t + 1}`);
    expected.weights.forEach((w, h) =>
      near(m[`h${h + 1}-weights`][0], w, `step ${t + 1} head ${h + 1}`),
    );
    near(m.output[0], expected.output, `step ${t + 1} output`);
    assert.deepEqual(ctx.trace.steps[t].cost, expected.cost, `step ${t + 1} cost`);
    assert.deepEqual(ctx.trace.steps[t].full, expected.full, `step ${t + 1} full recompute`);
  });
  const causal = shown(scene, "causal");
  near(causal.fullout, fixture.kvcache.fullOutput, "causal pass output");
  near(causal.cachedout, fixture.kvcache.fullOutput, "the cached outputs equal it");
  near(causal["h1-weights"], fixture.kvcache.fullWeights1, "causal weights");
  near(causal.cached, fixture.kvcache.fullWeights1, "the cached weights, padded with 0");
});

test("lab 4: shuffled without positions, with sinusoidal positions and RoPE, and RoPE's distance table", () => {
  const [scene] = order;
  const f = fixture.order;
  const plain = shown(scene, "plain");
  near(plain.outputOriginal, f.none.outputA, "in order");
  near(plain.outputShuffled, f.none.outputB, "shuffled");
  data.order.forEach((i, r) =>
    near(
      plain.outputShuffled[r],
      plain.outputOriginal[i],
      `row ${r + 1} moved with its token`,
      1e-14,
    ),
  );
  const sin = shown(scene, "sinusoidal");
  near(sin.pe, f.pe, "PE");
  near(sin.xPlusPe, f.xPlusPe, "X + ¼·PE");
  near(sin.weightsOriginal, f.sinusoidal.weights1A, "weights in order");
  near(sin.weightsShuffled, f.sinusoidal.weights1B, "weights shuffled");
  near(sin.outputShuffled, f.sinusoidal.outputB, "outputs shuffled");
  const rope = shown(scene, "rope");
  near(rope.qRotated, f.rope.q1A, "q1 rotated");
  near(rope.kRotated, f.rope.k1A, "k1 rotated");
  near(rope.weightsShuffled, f.rope.weights1B, "weights shuffled");
  const distance = shown(scene, "distance");
  near(distance.qAtM, f.distance.qm, "q at m");
  near(distance.scores, f.distance.scores, "scores");
  // q and k at right angles: the table is antisymmetric, so the sign of m − n shows
  distance.scores.forEach((row, m) =>
    row.forEach((s, n) => {
      assert.ok(Math.abs(s + distance.scores[n][m]) < 1e-12, `scores[${m}][${n}]`);
      if (m !== n) assert.ok(Math.abs(s) > 0.4, `scores[${m}][${n}] is ${s}, not told apart`);
    }),
  );
});

test("check my numbers: every cell a learner works out has what the shown numbers give", () => {
  let cells = 0;
  for (const scene of scenes) {
    const count = contextOf(scene, "en", 4, 0).steps.length;
    for (let s = 0; s < count; s++) {
      const ctx = contextOf(scene, "en", 2, s);
      for (const m of ctx.view.matrices) {
        m.data.forEach((row, i) =>
          row.forEach((value, j) => {
            const given = scene.lab.worked(m.id, i, j, ctx);
            assert.ok(Array.isArray(given) && given.every(Number.isFinite), `${m.id}: ${given}`);
            // worked from 2-decimal tables, each is near the core's number
            for (const x of given) {
              assert.ok(
                Math.abs(x - value) < 0.2 * Math.max(1, Math.abs(value)),
                `${scene.id} step ${s} ${m.id}[${i}][${j}]: ${x}, ${value}`,
              );
              cells++;
            }
          }),
        );
      }
    }
  }
  assert.ok(cells > 500, `${cells} cells`);
  // lab 1's Q[2][3] = 0.5×2 + 0.866×3.464, from X[2] and column 3 of W_Q as shown
  const ctx = contextOf(heads[0], "en", 4, 1);
  const { x, wq } = ctx.inputs;
  const shown = (v) => Number(v.toFixed(4));
  const expected = x[1].reduce((sum, v, c) => sum + shown(v) * shown(wq[c][2]), 0);
  assert.deepEqual(heads[0].lab.worked("q", 1, 2, ctx), [expected]);
  assert.equal(
    checkValue(ctx.trace.q[1][2].toFixed(4), ctx.trace.q[1][2], 4, [expected]).status,
    "right",
  );
  // the output, worked from the concatenation as shown at 4 decimals
  const { concat } = ctx.trace;
  const out = concat[3].reduce((sum, v, c) => sum + shown(v) * shown(ctx.inputs.wo[c][4]), 0);
  assert.deepEqual(heads[0].lab.worked("output", 3, 4, ctx), [out]);
});

// M5: the labs are about one sentence of 5 tokens with 7 features; a link's X of another shape
// is refused, in words that name the shape, in both languages (it gave unlabelled rows, a
// shuffle that dropped the 6th token, or "X row 1 is not an array").
test("an X that is not the sentence's 5×7 is refused by every lab, naming the shape", () => {
  const row = [0, 0, 0, 1, 0, -1, 0];
  const rows = (n, width = 7) => Array.from({ length: n }, () => row.slice(0, width));
  const cases = [
    [
      rows(1),
      "X has 1 row but this lab's sentence has 5 tokens",
      "X 有 1 行，而这个实验的句子有 5 个词元",
    ],
    [rows(3), "X has 3 rows but this lab's sentence has 5 tokens", "X 有 3 行"],
    [rows(6), "X has 6 rows but this lab's sentence has 5 tokens", "X 有 6 行"],
    [rows(5, 6), "X has 6 columns but this lab's tokens have 7 features", "X 有 6 列"],
    [
      [...rows(4), [...row, 2]],
      "X row 5 has 8 numbers but this lab's tokens have 7 features",
      "X 的第 5 行有 8 个数",
    ],
  ];
  for (const scene of scenes) {
    for (const [x, en, zh] of cases) {
      const state = { scene: scene.id, lang: "en", digits: 4, step: 0, edits: { x } };
      assert.throws(() => scene.lab.compute(core, scene, state), { message: en }, scene.id);
      const said = wordsFor("zh", scene).coreError(en);
      assert.ok(said.startsWith(zh), `${scene.id}: ${said}`);
      assert.doesNotMatch(said, /but|this lab|rows?\b/, `${scene.id}: no English left in ${said}`);
    }
    // the scene's own X, and an edit of the same shape, are taken
    const edited = { scene: scene.id, edits: { x: rows(5) } };
    assert.equal(scene.lab.compute(core, scene, edited).inputs.x.length, 5);
  }
});

// M7: the step text defines θ_i = 10000^(−2i/d_model) with i from 0, but the derivation wrote
// θ4 for i = 3, and never worked θ out.
test("order: a PE cell's θ has the step text's index and its own line, at the precision shown", () => {
  const [scene] = order;
  const steps = contextOf(scene, "en", 4, 0).steps;
  for (const digits of [2, 4, 6]) {
    const ctx = contextOf(
      scene,
      "en",
      digits,
      steps.findIndex((s) => s.id === "sinusoidal"),
    );
    for (let pos = 0; pos < 5; pos++) {
      for (let col = 0; col < 7; col++) {
        const i = Math.floor(col / 2); // PE[pos][2i] and PE[pos][2i+1], counted from 0
        const lines = scene.lab.derivation("pe", pos, col, ctx).lines.map((l) => l.text);
        const fn = col % 2 === 0 ? "sin" : "cos";
        assert.equal(lines[0], `PE[${pos + 1}][${col + 1}] = ${fn}(${pos} × θ_${i})`);
        const theta = lines.find((l) => l.startsWith(`θ_${i} = `));
        assert.ok(theta, `a line for θ_${i}: ${lines.join(" | ")}`);
        const m = theta.match(/^θ_(\d) = 10000\^\(−2×(\d)\/7\) = (\d+(?:\.\d+)?)$/);
        assert.ok(m, theta);
        assert.equal(Number(m[2]), i);
        // within half a unit of its last decimal of 10000^(−2i/7), worked out here
        const decimals = (m[3].split(".")[1] ?? "").length;
        assert.ok(Math.abs(Number(m[3]) - 10000 ** ((-2 * i) / 7)) <= 0.5 * 10 ** -decimals, theta);
        // the angle line multiplies by the same θ, as written
        assert.ok(
          lines.some((l) => l.startsWith(`pos·θ_${i} = ${pos} × ${m[3]} `)),
          lines.join(" | "),
        );
      }
    }
  }
});

// M13, M16: "now 1 rows", "over 1 tokens", "1 pairs"; the zh KV-cache step's "output" table.
test("kvcache: one token is singular in English, and every table title is Chinese in zh", () => {
  const [scene] = kvcache;
  const en = wordsFor("en", scene).inside;
  assert.match(en.tokenText(1, "我"), /\(now 1 row\)/);
  assert.match(en.tokenText(2, "在"), /\(now 2 rows\)/);
  assert.match(
    en.pairsNote(1),
    /over 1 token computes .* so 1 \(query, key\) pair\. .*: 1 pair per head\.$/,
  );
  assert.match(
    en.pairsNote(3),
    /over 3 tokens computes .* so 1 \+ 2 \+ 3 \(query, key\) pairs\. .*: 3 pairs per head\.$/,
  );
  const steps = contextOf(scene, "zh", 4, 0).steps;
  for (let s = 0; s < steps.length; s++) {
    for (const m of contextOf(scene, "zh", 4, s).view.matrices) {
      assert.doesNotMatch(m.label, /\b(?!concat\b)[a-z]{3,}\b/i, m.label);
    }
  }
});
