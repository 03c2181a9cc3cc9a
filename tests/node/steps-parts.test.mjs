// steps-parts.test.mjs: the walkthrough's data, part by part, against expectations written out
// by hand: each step's matrices and roles, what lights up, the labels, each kind of derivation
// line, the bounds behind "=" and "≈" and the slack of "check my numbers", and the tests that
// say whether weights are nearly uniform. steps.test.mjs and arithmetic.test.mjs check the
// whole against the real trace; these pin each rule so that a one-line slip in it fails.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { sceneById } from "../../web/scenes.js";
import {
  stepView,
  highlights,
  labelsFor,
  derivation,
  worked,
  ranking,
  leaders,
  nearlyUniform,
  queryRow,
} from "../../web/steps.js";
import { bounds, line, plain } from "../../web/derive.js";
import en from "../../web/i18n/en.js";
import zh from "../../web/i18n/zh.js";

const core = await loadAttention();
const traceOf = (scene, options = {}) =>
  scene.inputs.x
    ? core.selfAttention(scene.inputs.x, scene.inputs.wq, scene.inputs.wk, scene.inputs.wv, options)
    : core.attention(scene.inputs.q, scene.inputs.k, scene.inputs.v, options);
const near = (actual, expected, what) =>
  assert.ok(
    Math.abs(actual - expected) <= 1e-12 * Math.max(1e-3, Math.abs(expected)),
    `${what}: ${actual}, not ${expected}`,
  );

// What a learner sees at each step: which matrices, under which names and row and column
// labels, and in which role. Written out by hand from the walkthrough's design (README, "Steps").
test("each step's view: its matrices, their names, labels and roles, and the focused one", () => {
  const labels = {
    queries: ["q1", "q2"],
    keys: ["k1", "k2", "k3"],
    dims: ["d1", "d2"],
    values: ["v1"],
    xDims: ["x1", "x2", "x3"],
  };
  const scene = { inputs: {} };
  const trace = Object.fromEntries(
    [
      "q",
      "k",
      "v",
      "scores",
      "scaled",
      "masked",
      "rowMax",
      "exp",
      "rowSum",
      "weights",
      "output",
    ].map((id) => [id, { from: `trace.${id}` }]),
  );
  trace.rowMax = [1, 2];
  trace.rowSum = [3, 4];
  const inputs = Object.fromEntries(
    ["x", "wq", "wk", "wv", "q", "k", "v"].map((id) => [id, { from: `inputs.${id}` }]),
  );
  // [id, label, data, row labels, column labels, role]
  const shown = (view) =>
    view.matrices.map((m) => [
      m.id,
      m.label,
      m.data,
      Object.keys(labels).find((k) => labels[k] === m.rowLabels) ?? m.rowLabels,
      Object.keys(labels).find((k) => labels[k] === m.colLabels) ?? m.colLabels,
      m.role,
    ]);
  const at = (id, t = trace, i = inputs) => stepView(id, { scene, trace: t, inputs: i, labels });
  const fromX = at("inputs");
  assert.equal(fromX.focusMatrix, null);
  assert.equal(fromX.id, "inputs");
  assert.deepEqual(shown(fromX), [
    ["x", "X", inputs.x, "queries", "xDims", "input"],
    ["wq", "W_Q", inputs.wq, "xDims", "dims", "input"],
    ["wk", "W_K", inputs.wk, "xDims", "dims", "input"],
    ["wv", "W_V", inputs.wv, "xDims", "values", "input"],
  ]);
  const given = { q: inputs.q, k: inputs.k, v: inputs.v };
  const bare = { ...trace, q: undefined, k: undefined, v: undefined };
  assert.deepEqual(shown(at("inputs", bare, given)), [
    ["q", "Q", inputs.q, "queries", "dims", "input"],
    ["k", "K", inputs.k, "keys", "dims", "input"],
    ["v", "V", inputs.v, "keys", "values", "input"],
  ]);
  const projections = at("projections");
  assert.equal(projections.focusMatrix, "q");
  assert.deepEqual(shown(projections), [
    ["x", "X", inputs.x, "queries", "xDims", "operand"],
    ["wq", "W_Q", inputs.wq, "xDims", "dims", "operand"],
    ["wk", "W_K", inputs.wk, "xDims", "dims", "operand"],
    ["wv", "W_V", inputs.wv, "xDims", "values", "operand"],
    ["q", "Q", trace.q, "queries", "dims", "result"],
    ["k", "K", trace.k, "keys", "dims", "result"],
    ["v", "V", trace.v, "keys", "values", "result"],
  ]);
  const scores = at("scores");
  assert.equal(scores.focusMatrix, "scores");
  assert.deepEqual(shown(scores), [
    ["q", "Q", trace.q, "queries", "dims", "operand"],
    ["k", "K", trace.k, "keys", "dims", "operand"],
    ["scores", "Q·Kᵀ", trace.scores, "queries", "keys", "result"],
  ]);
  assert.deepEqual(
    shown(at("scores", bare, given)).map((m) => m[2]),
    [inputs.q, inputs.k, trace.scores],
  );
  const scaled = at("scaled");
  assert.equal(scaled.focusMatrix, "scaled");
  assert.deepEqual(shown(scaled), [
    ["scores", "Q·Kᵀ", trace.scores, "queries", "keys", "operand"],
    ["scaled", "scaled", trace.scaled, "queries", "keys", "result"],
  ]);
  const masked = at("masked");
  assert.equal(masked.focusMatrix, "masked");
  assert.deepEqual(shown(masked), [
    ["scaled", "scaled", trace.scaled, "queries", "keys", "operand"],
    ["masked", "masked", trace.masked, "queries", "keys", "result"],
  ]);
  const softmax = at("weights");
  assert.equal(softmax.focusMatrix, "weights");
  assert.deepEqual(shown(softmax), [
    ["masked", "masked", trace.masked, "queries", "keys", "operand"],
    ["rowMax", "max", [[1], [2]], "queries", [""], "aux"],
    ["exp", "exp(x − max)", trace.exp, "queries", "keys", "aux"],
    ["rowSum", "Σ", [[3], [4]], "queries", [""], "aux"],
    ["weights", "weights", trace.weights, "queries", "keys", "result"],
  ]);
  const unmasked = { ...trace, masked: undefined };
  assert.deepEqual(shown(at("weights", unmasked))[0], [
    "scaled",
    "scaled",
    trace.scaled,
    "queries",
    "keys",
    "operand",
  ]);
  const output = at("output");
  assert.equal(output.focusMatrix, "output");
  assert.deepEqual(shown(output), [
    ["weights", "weights", trace.weights, "queries", "keys", "operand"],
    ["v", "V", trace.v, "keys", "values", "operand"],
    ["output", "output", trace.output, "queries", "values", "result"],
  ]);
  assert.deepEqual(shown(at("output", bare, given))[1][2], inputs.v);
  const result = at("result");
  assert.equal(result.focusMatrix, null);
  assert.deepEqual(shown(result), [
    ["output", "output", trace.output, "queries", "values", "result"],
  ]);
  assert.throws(() => at("nonsense"), /unknown step nonsense/);
});

test("highlights: what each kind of cell is made from lights up, once", () => {
  const causal = { masked: [[0]] };
  const scaledOnly = {};
  const cells = (...c) => ({ rows: [], cols: [], cells: c });
  const rows = (...r) => ({ rows: r, cols: [], cells: [] });
  const cols = (...c) => ({ rows: [], cols: c, cells: [] });
  for (const mid of ["q", "k", "v"]) {
    assert.deepEqual(highlights(mid, 1, 0, { trace: scaledOnly }), {
      [mid]: cells([1, 0]),
      x: rows(1),
      [`w${mid}`]: cols(0),
    });
  }
  assert.deepEqual(highlights("scaled", 1, 2, { trace: scaledOnly }), {
    scaled: cells([1, 2]),
    scores: cells([1, 2]),
  });
  assert.deepEqual(highlights("masked", 2, 0, { trace: causal }), {
    masked: cells([2, 0]),
    scaled: cells([2, 0]),
  });
  for (const [trace, logits] of [
    [causal, "masked"],
    [scaledOnly, "scaled"],
  ]) {
    for (const mid of ["weights", "exp"]) {
      assert.deepEqual(highlights(mid, 1, 2, { trace }), {
        [mid]: cells([1, 2]),
        [logits]: rows(1),
        rowMax: cells([1, 0]),
        exp: { rows: [1], cols: [], cells: [[1, 2]] },
        rowSum: cells([1, 0]),
        weights: cells([1, 2]),
      });
    }
  }
  assert.deepEqual(highlights("output", 0, 1, { trace: scaledOnly }), {
    output: cells([0, 1]),
    weights: rows(0),
    v: cols(1),
  });
  for (const mid of ["x", "rowMax", "rowSum"]) {
    assert.deepEqual(highlights(mid, 1, 0, { trace: scaledOnly }), { [mid]: cells([1, 0]) });
  }
});

test("labels: the scene's words in the learner's language, numbered when rows are added", () => {
  const run = (id, options = {}) =>
    labelsFor(sceneById[id], en, traceOf(sceneById[id], options), sceneById[id].inputs);
  const age = run("age");
  assert.deepEqual(age.queries, ["surname Zhang?"]);
  assert.deepEqual(age.keys, ["Zhang San", "Zhang San", "Li Si", "Zhang Mazi"]);
  assert.deepEqual(age.dims, ["surname Zhang", "given name (a code)", "surname Li"]);
  assert.deepEqual(age.values, ["age"]);
  assert.equal(age.xDims, undefined);
  assert.deepEqual(
    labelsFor(sceneById.age, zh, traceOf(sceneById.age), sceneById.age.inputs).values,
    [zh.labels.age],
  );
  const dictionary = run("dictionary");
  assert.deepEqual(dictionary.dims, ["1", "2"], "no dimension names: numbered from 1");
  assert.deepEqual(dictionary.values, ["1", "2"]);
  // Names for 3 dimensions do not fit Q with 4 columns: those are numbered.
  const fourQ = [[1, 0, 0, 1]];
  const wide = core.attention(fourQ, [[1, 2, 0, 0]], [[18]]);
  assert.deepEqual(labelsFor(sceneById.age, en, wide, { q: fourQ }).dims, ["1", "2", "3", "4"]);
  const classroom = run("classroom");
  assert.deepEqual(classroom.queries, ["我", "爱", "你"]);
  assert.deepEqual(classroom.keys, ["我", "爱", "你"]);
  assert.deepEqual(classroom.xDims, ["1", "2"]);
  const book = run("book");
  assert.deepEqual(book.xDims, [
    "action on a thing",
    "describes quality",
    "is a place",
    "is a thing",
    "is a time",
  ]);
  assert.deepEqual(book.values, book.xDims);
  // A row added by an edit, and a custom scene's own words (never looked up as message keys).
  const { q, k, v } = sceneById.age.inputs;
  const grown = core.attention([...q, [0, 1, 0]], [...k, [1, 1, 1]], [...v, [30]]);
  const edited = labelsFor(sceneById.age, en, grown, sceneById.age.inputs);
  assert.deepEqual(edited.queries, ["surname Zhang?", "#2"]);
  assert.deepEqual(edited.keys.slice(3), ["Zhang Mazi", "#5"]);
  const custom = {
    ...sceneById.age,
    text: {},
    queryLabels: ["age"],
    keyLabels: ["a", "b", "c", "d"],
  };
  const own = labelsFor(custom, en, traceOf(custom), custom.inputs);
  assert.deepEqual(own.queries, ["age"]);
  assert.deepEqual(own.values, ["age"]);
});

test("the row a picked cell belongs to, and the keys that lead a row", () => {
  for (const m of [
    "q",
    "scores",
    "scaled",
    "masked",
    "rowMax",
    "exp",
    "rowSum",
    "weights",
    "output",
  ]) {
    assert.equal(queryRow({ m, i: 2 }, 7), 2, m);
  }
  for (const m of ["k", "v", "x", "wq", "wk", "wv"]) assert.equal(queryRow({ m, i: 2 }, 7), 7, m);
  assert.equal(queryRow(null, 7), 7);
  assert.deepEqual(
    leaders(
      [
        [0, 1],
        [3, 1, 3, -Infinity],
      ],
      1,
    ),
    [0, 2],
  );
  assert.deepEqual(leaders([[-2, -1, -3]], 0), [1]);
  assert.deepEqual(
    ranking({ weights: [[0.2, 0.5, 0.2, 0.1]] }, 0),
    [1, 0, 2, 3],
    "ties keep their order",
  );
});

test("derivations of given numbers, masks, the max and Σ columns, and a row with no key", () => {
  const text = (mid, i, j, ctx) => derivation(mid, i, j, ctx).lines.map((l) => l.text);
  const age = { trace: traceOf(sceneById.age), inputs: sceneById.age.inputs, msg: en };
  // Without X, Q, K and V are given: nothing to work out.
  assert.deepEqual(text("q", 0, 0, age), ["Q[1][1] = 1 (an input)"]);
  assert.deepEqual(text("k", 3, 1, age), ["K[4][2] = 4 (an input)"]);
  assert.deepEqual(text("v", 2, 0, { ...age, msg: zh }), [`V[3][1] = 22 (${zh.derive.input})`]);
  const { inputs } = sceneById.classroom;
  const classroom = { trace: traceOf(sceneById.classroom), inputs, msg: en };
  assert.deepEqual(text("x", 1, 0, classroom), ["X[2][1] = 0.5 (an input)"]);
  assert.deepEqual(text("wq", 0, 1, classroom), [`W_Q[1][2] = ${inputs.wq[0][1]} (an input)`]);
  assert.deepEqual(text("wk", 1, 1, classroom), ["W_K[2][2] = 0.7 (an input)"]);
  assert.deepEqual(text("wv", 0, 1, classroom), ["W_V[1][2] = 0.1 (an input)"]);
  assert.deepEqual(text("rowMax", 0, 0, classroom), ["max(scaled[1]) = 0.1838"]);
  assert.deepEqual(text("rowSum", 0, 0, classroom), ["Σ exp[1] = 1 + 0.99295 + 0.98596 = 2.9789"]);
  assert.deepEqual(text("nonsense", 0, 0, classroom), []);
  // One line of four carries extra decimals: the derivation says so, and not that all do.
  const weights = derivation("weights", 0, 1, classroom);
  assert.equal(weights.lines[0].extra, false);
  assert.equal(weights.extra, true);
  assert.equal(weights.approx, false);
  // exp(ln 0.45) = 0.45 sits on the boundary between 0.4 and 0.5 at 1 decimal: no number of
  // decimals for the logit makes its line exact, so it is written with ≈, and the derivation
  // says so, though its other lines hold with =.
  const tie = { q: [[1]], k: [[0], [Math.log(0.45)]], v: [[1], [2]] };
  const onTie = { trace: core.attention(tie.q, tie.k, tie.v), inputs: tie, msg: en, digits: 1 };
  const exp = derivation("exp", 0, 1, onTie);
  assert.match(exp.lines[1].text, /^exp\(−0\.798507696218 − 0\) ≈ 0\.5$/);
  assert.deepEqual(
    exp.lines.map((l) => l.approx),
    [false, true, false, false],
  );
  assert.equal(exp.approx, true);
  // The book with a causal mask: a kept cell, a blocked one, and an explicit mask's words.
  const book = {
    trace: traceOf(sceneById.book, { mask: "causal" }),
    inputs: sceneById.book.inputs,
  };
  assert.deepEqual(text("masked", 1, 0, { ...book, msg: en, digits: 2 }), [
    `masked[2][1] = ${book.trace.masked[1][0].toFixed(2)} (kept)`,
  ]);
  assert.deepEqual(text("masked", 1, 2, { ...book, msg: en, causal: false }), [
    "masked[2][3] = −∞ (the mask blocks this key)",
  ]);
  assert.deepEqual(text("masked", 1, 2, { ...book, msg: en, causal: true }), [
    "masked[2][3] = −∞ (this key comes after the query)",
  ]);
  assert.deepEqual(text("rowMax", 1, 0, { ...book, msg: en, digits: 2 }), [
    `max(masked[2]) = ${book.trace.rowMax[1].toFixed(2)}`,
  ]);
  // A row whose keys are all masked has weights and output 0, and no softmax to write out.
  const blocked = core.attention(
    [[1, 0]],
    [
      [1, 0],
      [0, 1],
    ],
    [[1], [2]],
    { mask: [[false, false]] },
  );
  const none = {
    trace: blocked,
    inputs: {
      q: [[1, 0]],
      k: [
        [1, 0],
        [0, 1],
      ],
      v: [[1], [2]],
    },
  };
  for (const mid of ["weights", "exp"]) {
    assert.deepEqual(text(mid, 0, 1, { ...none, msg: en }), [
      "weights[1] = 0 (every key of this row is masked: weights and output are 0)",
    ]);
  }
});

test("a line: = at the fewest decimals that hold, more decimals said, ≈ when none do", () => {
  const terms = (p) => `p${p}`;
  assert.deepEqual(
    line("a = ", 0.5, 4, () => 0, terms),
    {
      text: "a = p4 = 0.5",
      extra: false,
      approx: false,
    },
  );
  // 0.125 shows as 0.13 at 2 decimals; exact terms (a bound of 0) hold though no room is left.
  assert.equal(line("", 0.125, 2, () => 0, terms).text, "p2 = 0.13");
  // A bound equal to the room is not enough: the next decimal is taken, and said.
  const atRoom = (p) => (p === 4 ? 0.5 * 10 ** -4 : 0);
  assert.deepEqual(line("", 0.5, 4, atRoom, terms), {
    text: "p5 = 0.5",
    extra: true,
    approx: false,
  });
  // Up to 12 decimals are tried; past them the line is written with ≈ and 12 decimals.
  assert.deepEqual(
    line("", 0.5, 4, (p) => (p < 12 ? 1 : 0), terms),
    {
      text: "p12 = 0.5",
      extra: true,
      approx: false,
    },
  );
  assert.deepEqual(
    line("", 0.5, 4, () => 1, terms),
    { text: "p12 ≈ 0.5", extra: false, approx: true },
  );
  assert.deepEqual(plain("x"), { text: "x", extra: false, approx: false });
});

test("bounds: the farthest a result moves when its terms move by their rounding", () => {
  const u = 0.5e-4;
  // Σ a·b: the worst corner moves each term away from 0 by its rounding.
  const a = [0.12345, -0.5];
  const b = [0.54321, 0.77777];
  near(bounds.dot(a, b)(4), (0.12345 + u) * (0.54321 + u) - 0.12345 * 0.54321 + 0.5 * u, "dot");
  near(bounds.dot([2], [0.5])(4), 0, "exact terms do not move");
  // Σ e: each term's rounding.
  near(bounds.sum([0.12345, 1, 0.33333])(4), 2 * u, "sum");
  // exp(x − m): x is the max itself, so x − m is exactly 0; otherwise both move.
  assert.equal(bounds.exp(0.12345, 0.12345, 1)(4), 0);
  const e = Math.exp(0.12345 - 0.56789);
  near(bounds.exp(0.12345, 0.56789, e)(4), Math.exp(0.12345 - 0.56789 + 2 * u) - e, "exp");
  // e ÷ s: e up, s down.
  const [ev, s] = [0.12345, 2.54321];
  near(bounds.divide(ev, s, ev / s)(4), (ev + u) / (s - u) - ev / s, "divide");
  near(bounds.divide(ev, 2.5, ev / 2.5)(4), u / 2.5, "divide by an exact sum");
});

test("worked: what a learner gets from the numbers as the tables show them, each way", () => {
  // X with 5 decimals, so that the tables at 4 decimals round it: 0.12345 → 0.1235 (toFixed),
  // 0.66667 → 0.6667, 0.54321 → 0.5432.
  const inputs = {
    x: [
      [0.12345, 0.5],
      [0.3, 0.66667],
    ],
    wq: [[1], [0.54321]],
    wk: [[1], [0.54321]],
    wv: [[1], [0.54321]],
  };
  const trace = core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv);
  const ctx = { trace, inputs, digits: 4 };
  const one = (mid, i, j, expected, c = ctx) => {
    const got = worked(mid, i, j, c);
    assert.equal(got.length, expected.length, `${mid}: ${got}`);
    got.forEach((x, k) => near(x, expected[k], `${mid}[${i}][${j}] way ${k + 1}`));
  };
  // X[1]·column 1 of W_Q, from 0.1235, 0.5, 1 and 0.5432 (not the core's 0.12345 and 0.54321)
  for (const mid of ["q", "k", "v"]) one(mid, 0, 0, [0.1235 * 1 + 0.5 * 0.5432]);
  assert.deepEqual(worked("q", 0, 0, { ...ctx, inputs: { q: [[0.12345]] } }), [], "a given Q");
  const r4 = (x) => Number(x.toFixed(4));
  const { q, k, scores, scale, scaled, rowMax, exp, rowSum } = trace;
  one("scores", 0, 1, [r4(q[0][0]) * r4(k[1][0])]);
  one("scaled", 1, 0, [r4(scores[1][0]) * r4(scale), r4(scores[1][0]) * scale]);
  one("rowMax", 1, 0, [Math.max(r4(scaled[1][0]), r4(scaled[1][1]))]);
  // exp of the shown logit minus the shown max
  const e = (i, j) => Math.exp(r4(scaled[i][j]) - r4(rowMax[i]));
  one("exp", 0, 1, [e(0, 1)]);
  // Σ from the exp column as shown, or from the shown logits
  one("rowSum", 0, 0, [r4(exp[0][0]) + r4(exp[0][1]), e(0, 0) + e(0, 1)]);
  // a weight: shown exp ÷ shown Σ, or the softmax of the shown logits
  one("weights", 0, 1, [r4(exp[0][1]) / r4(rowSum[0]), e(0, 1) / (e(0, 0) + e(0, 1))]);
  one("output", 1, 0, [
    r4(trace.weights[1][0]) * r4(trace.v[0][0]) + r4(trace.weights[1][1]) * r4(trace.v[1][0]),
  ]);
  assert.deepEqual(worked("nonsense", 0, 0, ctx), []);
  // At 20 decimals nothing rounds: the ways give the core's own numbers back.
  near(worked("weights", 0, 1, { ...ctx, digits: 20 })[1], trace.weights[0][1], "20 decimals");
  // A causal mask: a masked cell is its scaled score as shown; a masked key's exp is 0.
  const causal = core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv, { mask: "causal" });
  const masked = { ...ctx, trace: causal };
  one("masked", 1, 0, [r4(causal.scaled[1][0])], masked);
  one("exp", 0, 1, [0], masked);
  one("weights", 0, 0, [r4(causal.exp[0][0]) / r4(causal.rowSum[0]), 1], masked);
  // A row whose keys are all masked has no softmax to work out.
  const blocked = core.attention([[1]], [[1]], [[1]], { mask: [[false]] });
  assert.deepEqual(worked("weights", 0, 0, { trace: blocked, inputs: {}, digits: 4 }), []);
});

test("nearly uniform: every weight within a fifth of 1/n, over the keys each row sees", () => {
  const trace = (scaled, weights) => ({ scaled, weights, blockedRows: [] });
  assert.deepEqual(nearlyUniform(trace([[0, 0.1]], [[0.475, 0.525]])), {
    low: 0.475,
    high: 0.525,
    logitLow: 0,
    logitHigh: 0.1,
  });
  // The edges, 0.8/n and 1.2/n, are still nearly uniform; past them on either side is not.
  assert.ok(nearlyUniform(trace([[0, 0.4]], [[0.4, 0.6]])));
  assert.equal(nearlyUniform(trace([[0, 0, 0.4]], [[0.28, 0.28, 0.44]])), null, "too high");
  assert.equal(nearlyUniform(trace([[0, 0.4, 0.4]], [[0.25, 0.375, 0.375]])), null, "too low");
  // Masked keys are not seen; a row that sees one key (or none) says nothing.
  const masked = trace(
    [
      [-Infinity, 0, 0.1],
      [-Infinity, 0.3, -Infinity],
      [-Infinity, -Infinity, -Infinity],
    ],
    [
      [0, 0.475, 0.525],
      [0, 1, 0],
      [0, 0, 0],
    ],
  );
  assert.deepEqual(nearlyUniform(masked), { low: 0.475, high: 0.525, logitLow: 0, logitHigh: 0.1 });
  const masks = {
    ...masked,
    masked: masked.scaled,
    scaled: [
      [9, 9, 9],
      [9, 9, 9],
      [9, 9, 9],
    ],
  };
  assert.deepEqual(nearlyUniform(masks), nearlyUniform(masked), "the masked logits are read");
  // Weights exactly equal are not "nearly" equal, and rows that say nothing give nothing.
  assert.equal(nearlyUniform(trace([[0.2, 0.2]], [[0.5, 0.5]])), null);
  assert.equal(nearlyUniform(trace([[-Infinity, 1]], [[0, 1]])), null);
});
