// steps.test.mjs: the walkthrough's pure parts in Node: which steps a scene has, the
// written-out arithmetic for the real trace, and "check my numbers".
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { scenes, sceneById } from "../../web/scenes.js";
import { stepsFor, stepView, derivation, highlights, labelsFor, ranking } from "../../web/steps.js";
import { checkValue } from "../../web/check.js";
import { fmt, parseNumber, matrixFromText, matrixToText } from "../../web/format.js";
import en from "../../web/i18n/en.js";
import zh from "../../web/i18n/zh.js";
import { referenceTrace } from "./reference.mjs";

const core = await loadAttention();
const matmul = (a, b) =>
  a.map((row) => b[0].map((_, j) => row.reduce((s, x, c) => s + x * b[c][j], 0)));
const traceOf = (scene, options = {}) =>
  scene.inputs.x
    ? core.selfAttention(scene.inputs.x, scene.inputs.wq, scene.inputs.wk, scene.inputs.wv, options)
    : core.attention(scene.inputs.q, scene.inputs.k, scene.inputs.v, options);

test("steps: projections only from X, the mask only when it is on", () => {
  assert.deepEqual(stepsFor(sceneById.classroom), [
    "inputs",
    "projections",
    "scores",
    "scaled",
    "weights",
    "output",
    "result",
  ]);
  assert.deepEqual(stepsFor(sceneById.age), [
    "inputs",
    "scores",
    "scaled",
    "weights",
    "output",
    "result",
  ]);
  assert.ok(stepsFor(sceneById.book, { causal: true }).includes("masked"));
});

test("derivations write the arithmetic out with the core's numbers, counting from 1", () => {
  const scene = sceneById.classroom;
  const trace = traceOf(scene);
  const ctx = { trace, inputs: scene.inputs, msg: en, digits: 4 };
  const text = (mid, i, j, c = ctx) => derivation(mid, i, j, c).lines.map((l) => l.text);
  assert.deepEqual(text("scores", 0, 0), ["scores[1][1] = Q[1]·K[1] = 0.5×0.4 + 0.2×0.3 = 0.26"]);
  // Row 3 of Q against row 2 of K: 0.1×0.3 + 0.6×0.5 = 0.33.
  assert.deepEqual(text("scores", 2, 1), ["scores[3][2] = Q[3]·K[2] = 0.1×0.3 + 0.6×0.5 = 0.33"]);
  assert.deepEqual(text("q", 1, 0), ["Q[2][1] = X[2] · column 1 of W_Q = 0.5×0.5 + 0.5×0.1 = 0.3"]);
  assert.deepEqual(text("q", 1, 0, { ...ctx, msg: zh }), [
    "Q[2][1] = X[2] · W_Q 的第 1 列 = 0.5×0.5 + 0.5×0.1 = 0.3",
  ]);
  assert.deepEqual(text("scaled", 0, 0), ["scaled[1][1] = 0.26 × 0.70711 = 0.1838"]);
  assert.deepEqual(text("weights", 0, 1), [
    "max(scaled[1]) = 0.1838",
    "exp(0.176777 − 0.183848) = 0.9930",
    "Σ exp[1] = 1 + 0.99295 + 0.98596 = 2.9789",
    "weights[1][2] = 0.99295 ÷ 2.97891 = 0.3333",
  ]);
  assert.deepEqual(text("output", 0, 0), [
    "output[1][1] = 0.33569×0.8 + 0.33333×0.55 + 0.33098×0.3 = 0.5512",
  ]);
  assert.ok(derivation("output", 0, 0, ctx).extra, "more decimals than the tables, and said");
  const masked = traceOf(sceneById.book, { mask: "causal" });
  const bookCtx = { trace: masked, inputs: sceneById.book.inputs, msg: zh, digits: 2 };
  assert.deepEqual(text("masked", 0, 1, bookCtx), ["masked[1][2] = −∞ (这个键在查询之后)"]);
  assert.equal(text("weights", 0, 1, bookCtx)[1], "exp(−∞) = 0");
});

test("highlights: a score lights row i of Q and row j of K", () => {
  const trace = traceOf(sceneById.age);
  assert.deepEqual(highlights("scores", 0, 2, { trace }), {
    scores: { rows: [], cols: [], cells: [[0, 2]] },
    q: { rows: [0], cols: [], cells: [] },
    k: { rows: [2], cols: [], cells: [] },
  });
});

test("every step of every scene has a view whose matrices are the trace's", () => {
  for (const scene of scenes) {
    for (const causal of [false, true]) {
      // the learner's causal mask, or the scene's own (苹果's two sentences)
      const mask = causal ? "causal" : scene.mask;
      const trace = traceOf(scene, mask ? { mask } : {});
      // The numbers each matrix should show, from the float64 reference (tests/node/reference.mjs).
      const { x, wq, wk, wv } = scene.inputs;
      const qkv = x
        ? { q: matmul(x, wq), k: matmul(x, wk), v: matmul(x, wv) }
        : { q: scene.inputs.q, k: scene.inputs.k, v: scene.inputs.v };
      const reference = {
        ...qkv,
        ...referenceTrace(qkv.q, qkv.k, qkv.v, { causal, mask: causal ? undefined : scene.mask }),
      };
      for (const msg of [en, zh]) {
        const labels = labelsFor(scene, msg, trace, scene.inputs);
        for (const id of stepsFor(scene, { causal })) {
          const view = stepView(id, { scene, trace, inputs: scene.inputs, labels });
          for (const m of view.matrices) {
            assert.equal(m.rowLabels.length, m.data.length, `${scene.id} ${id} ${m.id} rows`);
            assert.equal(m.colLabels.length, m.data[0].length, `${scene.id} ${id} ${m.id} cols`);
            const expected = reference[m.id] ?? scene.inputs[m.id];
            assert.ok(expected, `${scene.id} ${id} ${m.id} has a reference`);
            expected.flat().forEach((x, c) => {
              const shown = m.data.flat()[c];
              const ok = x === shown || Math.abs(x - shown) <= 1e-9 * Math.max(1, Math.abs(x));
              assert.ok(ok, `${scene.id} ${id} ${m.id}[${c}]: ${shown}, not ${x}`);
            });
          }
          assert.ok(msg.steps[id].title, `${msg.lang} title of ${id}`);
        }
      }
    }
  }
});

test("both languages have the same keys", () => {
  const keys = (o, prefix = "") =>
    Object.entries(o).flatMap(([k, v]) =>
      v && typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
    );
  assert.deepEqual(keys(zh).sort(), keys(en).sort());
});

test("ranking orders keys from the largest weight", () => {
  const trace = traceOf(sceneById.dictionary);
  assert.deepEqual(ranking(trace, 0), [0, 1, 2]);
});

// A learner's finding: "0.18" for 0.1768 said "right to 2 decimals" (前 2 位小数是对的), though its
// second decimal is 8, not 7: what matches is the rounding. The sentence is read by what it says
// (rounded or cut off, to how many decimals, how many are checked), each against the number
// worked here; the check panel and the quizzes (markAnswer) say the same sentence.
test("a short answer says how it is right: rounded or cut off, to how many decimals, in both languages", async () => {
  const { markAnswer } = await import("../../web/ui/quiz.js");
  const said = {
    en: /^(?<how>rounded to|cut off at) (?<had>\d+) (?<unit>decimals?), that is right; (?<asked>\d+) decimals are checked here$/,
    zh: /^(?<how>四舍五入|截断)到 (?<had>\d+) 位小数，这是对的；这里核对的是 (?<asked>\d+) 位小数$/,
  };
  const rounded = { en: "rounded to", zh: "四舍五入" };
  const cases = [
    ["0.18", 0.1768],
    ["0.17", 0.1768],
    ["0.2", 0.1697],
    ["0.1", 0.1697],
    ["0.551", 0.5511785015],
    ["−0.18", -0.1768],
    ["−0.17", -0.1768],
  ];
  let seen = { rounded: 0, cut: 0 };
  for (const [typed, value] of cases) {
    const decimals = 4;
    const had = typed.split(".")[1].length;
    const number = parseNumber(typed);
    // worked here: the value rounded, and cut off toward zero, at the decimals typed
    const isRounded = value.toFixed(had) === number.toFixed(had);
    const isCut = (Math.trunc(value * 10 ** had) / 10 ** had).toFixed(had) === number.toFixed(had);
    assert.ok(isRounded || isCut, `${typed} is one of them`);
    seen[isRounded ? "rounded" : "cut"]++;
    for (const result of [
      checkValue(typed, value, decimals),
      markAnswer({ decimals }, { value }, typed),
    ]) {
      assert.equal(result.status, "short", typed);
      for (const [lang, msg] of [
        ["en", en],
        ["zh", zh],
      ]) {
        const sentence = msg.check.short(result.had, decimals, result.how);
        const g = said[lang].exec(sentence)?.groups;
        assert.ok(g, `${lang} ${typed}: «${sentence}»`);
        assert.equal(Number(g.had), had, `${lang} ${typed}: the decimals typed`);
        assert.equal(Number(g.asked), decimals, `${lang} ${typed}: the decimals checked`);
        assert.equal(
          g.how === rounded[lang],
          isRounded,
          `${lang} ${typed} of ${value}: «${sentence}»`,
        );
        if (lang === "en") assert.equal(g.unit, had === 1 ? "decimal" : "decimals", sentence);
      }
    }
  }
  assert.deepEqual(seen, { rounded: 4, cut: 3 });
});

test("check my numbers: right at the chosen precision, or the first wrong decimal", () => {
  const value = 0.5511785015;
  assert.equal(checkValue("0.551", value, 3).status, "right");
  assert.equal(checkValue("0.5512", value, 4).status, "right", "rounded");
  assert.equal(checkValue("0.5511", value, 4).status, "right", "cut off rather than rounded");
  assert.equal(checkValue("0.55118", value, 4).status, "right", "more decimals, rounded to 4");
  for (const typed of ["0.5513", "0.5510", "0.552", "0.56"]) {
    assert.equal(checkValue(typed, value, 4).status, "wrong", `${typed}: one unit off or more`);
  }
  // Fewer decimals than asked, right at those (the article's 3-decimal 0.551): short, not wrong.
  assert.deepEqual(checkValue("0.551", value, 4), {
    status: "short",
    expected: "0.5512",
    wrongAt: -1,
    had: 3,
    how: "rounded",
  });
  assert.equal(checkValue("0.55", value, 4).had, 2);
  assert.equal(checkValue("0,551", value, 4).status, "short", "a decimal comma");
  assert.equal(checkValue("−0.551", -value, 4).status, "short");
  assert.equal(checkValue("1", 0.9999, 4).status, "wrong", "no decimals typed: not short");
  // short of the decimals and right at them as the worked value from the shown numbers, not
  // the core's (0.5449 worked, 0.5512 exact): short, never wrong (42 §1)
  assert.equal(checkValue("0.54", value, 4, [0.5449]).status, "short");
  assert.equal(checkValue("0.544", value, 4, [0.5449]).status, "short");
  assert.equal(checkValue("0.54", value, 4).status, "wrong", "without the worked value");
  // Negative numbers are cut off toward zero.
  assert.equal(checkValue("−0.5512", -value, 4).status, "right");
  assert.equal(checkValue("-0.5511", -value, 4).status, "right");
  assert.equal(checkValue("-0.5513", -value, 4).status, "wrong");
  assert.equal(checkValue("-0.5510", -value, 4).status, "wrong");
  // The learner issue's examples: an exact 0.34 (0.06 + 0.28 as a double holds it either side).
  for (const exact of [0.06 + 0.28, 0.33999999999999997, 0.34000000000000002]) {
    assert.equal(checkValue("0.34", exact, 2).status, "right");
    assert.equal(checkValue("0.35", exact, 2).status, "wrong", "0.35 for an exact 0.34");
    assert.equal(checkValue("0.33", exact, 2).status, "wrong", "0.34 cut off is 0.34");
  }
  assert.equal(checkValue("0.4", 0.3327, 1).status, "wrong", "0.4 for 0.3327 at 1 decimal");
  assert.equal(checkValue("0.3", 0.3327, 1).status, "right");
  assert.equal(checkValue("0.3333", 0.33319448, 4).status, "wrong");
  assert.equal(checkValue("0.0381", 0.0379772312, 4).status, "wrong");
  assert.equal(checkValue("0.0380", 0.0379772312, 4).status, "right");
  assert.equal(checkValue("0.0379", 0.0379772312, 4).status, "right", "cut off");
  // A tie: both neighbours are roundings of it.
  assert.equal(checkValue("0.13", 0.125, 2).status, "right");
  assert.equal(checkValue("0.12", 0.125, 2).status, "right");
  assert.equal(checkValue("0.11", 0.125, 2).status, "wrong");
  // What the numbers on the page give is right too, rounded or cut off, and nothing beside it.
  assert.equal(checkValue("0.5513", value, 4, [0.55134]).status, "right", "worked, rounded");
  assert.equal(checkValue("0.5514", value, 4, [0.55134]).status, "wrong");
  assert.equal(checkValue("0.5514", value, 4, [0.551369]).status, "right", "worked, rounded");
  assert.equal(checkValue("0.5513", value, 4, [0.551369]).status, "right", "worked, cut off");
  assert.equal(checkValue("0.5515", value, 4, [0.551369]).status, "wrong");
  assert.deepEqual(checkValue("0.55158713", value, 8), {
    status: "wrong",
    expected: "0.55117850",
    wrongAt: 5,
  });
  assert.equal(checkValue("abc", value, 3).status, "invalid");
  assert.equal(checkValue(" ", value, 3).status, "empty");
  assert.equal(checkValue("−0,5", -0.5, 2).status, "right");
  for (const typed of ["−∞", "-inf", "-Infinity"]) {
    assert.equal(checkValue(typed, -Infinity, 4).status, "right", `${typed} for a masked cell`);
  }
  assert.equal(checkValue("0", -Infinity, 4).status, "wrong");
  assert.equal(checkValue("-inf", 0.25, 4).status, "wrong");
  // Numbers too large for 12 decimals: the core's own, to 12 significant digits.
  assert.equal(checkValue("1e21", 1e21, 4).status, "right");
  assert.equal(checkValue("1.1e21", 1e21, 4).status, "wrong");
});

test("format: exact numbers drop trailing zeros, rounded ones keep them, −∞ for a mask", () => {
  assert.equal(fmt(0.26000000000000006, 4), "0.26");
  assert.equal(fmt(-Infinity), "−∞");
  assert.equal(fmt(-0.00001, 2), "0.00", "rounded to 0, so its zeros stay");
  assert.equal(fmt(-0, 2), "0");
  assert.equal(fmt(-1.5, 2), "−1.5");
  assert.equal(parseNumber("1e3"), 1000);
  for (const text of ["−∞", "-∞", "-inf", "-Infinity", " −INF "]) {
    assert.equal(parseNumber(text), -Infinity, text);
  }
  assert.equal(parseNumber("1.2.3"), undefined);
  assert.equal(parseNumber(""), undefined);
  const m = [
    [1, -0.5],
    [0, 2.25],
  ];
  assert.deepEqual(matrixFromText(matrixToText(m)), m);
  assert.equal(matrixFromText("1,x;2,3"), undefined);
});

test("the core's messages, which the page shows, have Chinese words for every one it can meet", () => {
  const { x, wq, wk, wv } = sceneById.classroom.inputs;
  const { q, k, v } = sceneById.age.inputs;
  const calls = [
    () => core.attention(q, [[1, 2]], [[1]]),
    () => core.attention(q, k, [[1]]),
    () => core.selfAttention([[1, 0, 0]], wq, wk, wv),
    () => core.selfAttention(x, wq, [[1], [1]], wv),
    () => core.attention([], k, v),
    () => core.attention([[Infinity, 0, 0]], k, v),
    () => core.attention(q, k, v, { mask: [[true]] }),
    () => core.attention([[1e200, 0, 0]], [[1e200, 0, 0]], [[1]]),
    () => core.selfAttention([[1e200, 1]], [[1e200], [0]], [[1], [1]], [[1], [1]]),
    // What web/attention.js says before the core sees the numbers: a bad URL edit reaches these.
    () => core.selfAttention([[1, 0], [1]], wq, wk, wv),
    () => core.selfAttention([[1, "a"]], wq, wk, wv),
    () => core.selfAttention("x", wq, wk, wv),
    () => core.attention([1], k, v),
  ];
  for (const call of calls) {
    let message;
    try {
      call();
    } catch (error) {
      message = error.message;
    }
    assert.ok(message, "the call fails");
    assert.equal(en.coreError(message), message);
    const chinese = zh.coreError(message);
    assert.match(chinese, /[\u4e00-\u9fff]/, `no Chinese for: ${message}`);
    // Every number the core names (a row, a column, a size) is in the Chinese too, in the same
    // order, each beside the name it counts, so that neither a change in how the core counts nor
    // two numbers swapped in a translation slips past (every translation names its numbers in
    // the English order).
    const numbers = (text) => text.match(/\d+/g) ?? [];
    assert.deepEqual(numbers(chinese), numbers(message), `${message} → ${chinese}`);
  }
});
