// arithmetic.test.mjs: "every = the page writes holds at the precision it shows", over every
// cell of every step of every scene, with the scenes' inputs and with random inputs from a few
// seeds, at several numbers of decimals. The lines are read and worked out by tests/node/
// shown.mjs, which knows only the written text. And "check my numbers" accepts an answer worked
// out from the numbers as the tables show them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention } from "../../web/attention.js";
import { scenes } from "../../web/scenes.js";
import { stepsFor, stepView, derivation, labelsFor, worked } from "../../web/steps.js";
import { exactAt, fmt, fmtColumn } from "../../web/format.js";
import { checkValue } from "../../web/check.js";
import { random } from "../../web/random.js";
import en from "../../web/i18n/en.js";
import zh from "../../web/i18n/zh.js";
import { checkLine, shownNumber } from "./shown.mjs";

const core = await loadAttention();

// The scene's own inputs, then random ones of the same shapes: one decimal, as the page's
// Random button makes them, and three decimals over a wider range, which round on screen.
function inputSets(scene) {
  const sets = [["the scene's inputs", scene.inputs]];
  for (const [seed, decimals, spread] of [
    [1, 1, 2],
    [2, 1, 2],
    [3, 1, 2],
    [4, 3, 3],
    [5, 3, 6],
  ]) {
    const next = random(seed);
    const unit = 10 ** decimals;
    const inputs = {};
    for (const [id, m] of Object.entries(scene.inputs)) {
      inputs[id] = m.map((row) =>
        row.map(() => Math.round((next() * 2 - 1) * spread * unit) / unit),
      );
    }
    sets.push([`seed ${seed}`, inputs]);
  }
  return sets;
}

// the scene's own mask (苹果's two sentences), or the causal one the learner turns on
function traceOf(inputs, causal, mask) {
  const options = causal ? { mask: "causal" } : mask ? { mask } : {};
  return inputs.x
    ? core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv, options)
    : core.attention(inputs.q, inputs.k, inputs.v, options);
}

// Every (scene, inputs, mask) the page can show.
function* cases() {
  for (const scene of scenes) {
    for (const [what, inputs] of inputSets(scene)) {
      for (const causal of scene.causalToggle ? [false, true] : [false]) {
        yield { scene, what: `${scene.id}, ${what}${causal ? ", causal" : ""}`, inputs, causal };
      }
    }
  }
}

test("every = in every derivation holds at the precision it shows", () => {
  let lines = 0;
  let extra = 0;
  for (const { scene, what, inputs, causal } of cases()) {
    const trace = traceOf(inputs, causal, scene.mask);
    for (const msg of [en, zh]) {
      const labels = labelsFor(scene, msg, trace, inputs);
      for (const digits of [2, 3, 4, 6, 8]) {
        for (const id of stepsFor(scene, { causal })) {
          for (const m of stepView(id, { scene, trace, inputs, labels }).matrices) {
            m.data.forEach((row, i) =>
              row.forEach((_, j) => {
                const d = derivation(m.id, i, j, { trace, inputs, msg, digits, causal });
                for (const l of d.lines) {
                  const r = checkLine(l.text, digits);
                  if (!r) continue;
                  lines++;
                  const where = `${what}, ${digits} decimals, ${id}: ${l.text}`;
                  assert.ok(r.holds, `${where} (worked out: ${r.worked})`);
                  if (r.relation === "≈") assert.ok(d.approx, `${where}: ≈ without a word why`);
                }
                if (d.extra) extra++;
              }),
            );
          }
        }
      }
    }
  }
  assert.ok(lines > 50_000, `${lines} lines checked`);
  assert.ok(extra > 0, "some lines need more decimals than the tables");
});

test("the line reader checks every clause, not only the last =", () => {
  assert.equal(checkLine("m = 0.3 − 0.1 = 0.2 × 1.0 = 0.2", 1).holds, true);
  assert.equal(checkLine("m = 0.3 − 0.1 = −0.2 × (−1.0) = 0.2", 1).holds, true);
  // a wrong clause before the last "=" is caught, and named
  const slip = checkLine("m = 0.3 + 0.1 = 0.2 × 1.0 = 0.2", 1);
  assert.equal(slip.holds, false);
  assert.equal(slip.clause.text, "0.3 + 0.1");
  assert.equal(checkLine("d = 1.0 − 3.0 = −2.0 = −2.0", 1).holds, true);
  assert.equal(checkLine("d = 3.0 − 1.0 = −2.0 = −2.0", 1).holds, false);
  // rounded terms in an earlier clause may move it by what their rounding allows, no more
  assert.equal(checkLine("w = exp(−0.2) / 2.1 = 0.8187 / 2.1 = 0.3899", 4).holds, true);
  assert.equal(checkLine("w = exp(−0.2) / 2.1 = 0.8187 / 2.2 = 0.3899", 4).holds, false);
  assert.equal(checkLine("w = exp(−0.3) / 2.1 = 0.8187 / 2.1 = 0.3899", 4).holds, false);
});

test("the issue's examples now add up: the dictionary's output and the classroom softmax", () => {
  const d = scenes.find((s) => s.id === "dictionary");
  const trace = traceOf(d.inputs, false);
  const lines = (mid, i, j, t, inputs) =>
    derivation(mid, i, j, { trace: t, inputs, msg: en, digits: 4 }).lines.map((l) => l.text);
  // 0.7944×10 + 0.1677×9 + 0.038×6 is 9.6813, not 9.6804: the weights need more decimals.
  assert.deepEqual(lines("output", 0, 0, trace, d.inputs), [
    "output[1][1] = 0.794367×10 + 0.167655×9 + 0.037977×6 = 9.6804",
  ]);
  const c = scenes.find((s) => s.id === "classroom");
  const t = traceOf(c.inputs, false);
  const softmax = lines("weights", 2, 0, t, c.inputs);
  assert.equal(softmax[0], "max(scaled[3]) = 0.3111");
  // exp(0.1556 − 0.3111) = exp(−0.1555) is 0.8560, not the core's 0.8559.
  assert.equal(softmax[1], "exp(0.15556 − 0.31113) = 0.8559");
  assert.equal(lines("rowSum", 0, 0, t, c.inputs)[0], "Σ exp[1] = 1 + 0.99295 + 0.98596 = 2.9789");
});

test("tables line up: every number of a column has the same decimals (0.0820, not 0.082)", () => {
  assert.deepEqual(fmtColumn([0.082, 0.26, 0.1838477631], 4), ["0.0820", "0.2600", "0.1838"]);
  assert.deepEqual(fmtColumn([18, 20, 22], 4), ["18", "20", "22"]);
  assert.deepEqual(fmtColumn([1, 0.5, 0], 4), ["1.0", "0.5", "0.0"]);
  assert.deepEqual(fmtColumn([0.1, -Infinity], 4), ["0.1", "−∞"]);
  assert.equal(fmt(0.08200000001, 4), "0.0820", "a rounded number keeps its zeros");
  assert.equal(fmt(0.26000000000000006, 4), "0.26", "an exact one does not");
});

// What a learner computes from the numbers as the tables show them, for cell (i, j) of the
// step's result matrix: the textbook formula applied to the shown numbers.
function workedOut(id, i, j, { trace, inputs, shown, scaleShown }) {
  const dot = (a, b) => a.reduce((s, x, c) => s + x * b[c], 0);
  const col = (m, c) => m.map((row) => row[c]);
  switch (id) {
    case "projections":
      return [dot(shown.x[i], col(shown.wq, j))];
    case "scores":
      return [dot(shown.q[i], shown.k[j])];
    case "scaled":
      // the scale as the derivation shows it, or 1/√d_k worked out exactly
      return [shown.scores[i][j] * scaleShown, shown.scores[i][j] * trace.scale];
    case "masked":
      return [trace.masked[i][j] === -Infinity ? -Infinity : shown.scaled[i][j]];
    case "weights": {
      const logits = shown.masked ?? shown.scaled;
      const e = logits[i].map((x) => Math.exp(x - Math.max(...logits[i])));
      const fromLogits = e[j] / e.reduce((s, x) => s + x, 0);
      return [fromLogits, shown.exp[i][j] / shown.rowSum[i][0]];
    }
    case "output":
      return [dot(shown.weights[i], col(shown.v, j))];
    default:
      return [];
  }
}

// x at d decimals, cut off toward zero and rounded (an exact tie rounds both ways), worked on
// the digits of its 12-decimal text: the checker's rule, written out separately.
function cutAndRounded(x, d) {
  const [whole, fraction] = Math.abs(x).toFixed(12).split(".");
  const sign = x < 0 ? "-" : "";
  const cut = Number(`${sign}${whole}.${fraction.slice(0, d)}`);
  const rest = fraction.slice(d);
  const up = rest >= `5${"0".repeat(rest.length - 1)}`;
  const away = cut + (x < 0 ? -1 : 1) * 10 ** -d;
  return (up ? [cut, away] : [cut]).map((y) => (Object.is(y, -0) ? 0 : y).toFixed(d));
}

test("check my numbers: at 1, 2, 4 and 8 decimals, right is exactly the core's number or what the shown numbers give, rounded or cut off", () => {
  let right = 0;
  let wrong = 0;
  let negative = 0;
  for (const { scene, what, inputs, causal } of cases()) {
    const trace = traceOf(inputs, causal, scene.mask);
    const labels = labelsFor(scene, en, trace, inputs);
    for (const digits of [2, 3, 4, 6]) {
      for (const id of stepsFor(scene, { causal })) {
        const view = stepView(id, { scene, trace, inputs, labels });
        if (!view.focusMatrix) continue;
        // Every matrix of the step as the tables show it, read back as numbers.
        const shown = {};
        for (const m of view.matrices) {
          const columns = m.data[0].map((_, c) =>
            fmtColumn(
              m.data.map((row) => row[c]),
              digits,
            ),
          );
          shown[m.id] = m.data.map((row, r) => row.map((_, c) => shownNumber(columns[c][r])));
        }
        const scaleShown = shownNumber(fmt(trace.scale, digits));
        const m = view.matrices.find((x) => x.id === view.focusMatrix);
        m.data.forEach((row, i) =>
          row.forEach((value, j) => {
            if (!Number.isFinite(value)) return;
            const answers = workedOut(id, i, j, { trace, inputs, shown, scaleShown });
            const given = worked(m.id, i, j, { trace, inputs, digits });
            for (const decimals of [1, 2, 4, 8]) {
              const rightOnes = new Set(
                [value, ...answers].flatMap((x) => cutAndRounded(x, decimals)),
              );
              // each right answer, and one unit above and below it
              const unit = 10 ** -decimals;
              const typed = new Set(
                [...rightOnes].flatMap((a) =>
                  [-unit, 0, unit].map((step) => (Number(a) + step).toFixed(decimals)),
                ),
              );
              for (const t of typed) {
                const expected = rightOnes.has(t) ? "right" : "wrong";
                const status = checkValue(t, value, decimals, given).status;
                const where = `${what}, ${digits} shown, ${id} ${m.id}[${i}][${j}] at ${decimals}`;
                assert.equal(status, expected, `${where}: ${t} for ${value} (worked ${answers})`);
                if (expected === "right") right++;
                else wrong++;
                if (Number(t) < 0) negative++;
              }
            }
          }),
        );
      }
    }
  }
  assert.ok(right > 10_000 && wrong > 10_000 && negative > 1000, `${right}, ${wrong}, ${negative}`);
});

test("the article's printed numbers, checked as printed, are wrong", () => {
  const c = scenes.find((s) => s.id === "classroom");
  const trace = traceOf(c.inputs, false);
  // The article printed its code's numbers to 8 decimals: they are checked as they are,
  // not as numbers worked from the tables.
  c.printed.output.values.forEach((row, i) =>
    row.forEach((printed, j) => {
      const result = checkValue(String(printed), trace.output[i][j], 8);
      assert.equal(result.status, "wrong", `output[${i}][${j}]: ${printed}`);
    }),
  );
  // Worked from the 4-decimal tables, the first printed figure at 4 decimals, 0.5516, is still
  // wrong; what the tables give is 0.5512.
  const given = worked("output", 0, 0, { trace, inputs: c.inputs, digits: 4 });
  assert.equal(checkValue("0.5516", trace.output[0][0], 4, given).status, "wrong");
  assert.equal(checkValue("0.5512", trace.output[0][0], 4, given).status, "right");
});

test("a tiny number is not written as an exact 0: it rounds to 0.0000 like its column", () => {
  assert.equal(fmt(1e-18, 4), "0.0000");
  assert.equal(fmt(1e-320, 4), "0.0000");
  assert.equal(fmt(-1e-18, 4), "0.0000");
  assert.equal(fmt(0, 4), "0");
  // the last bits of a double still count as exact
  assert.equal(fmt(0.1 + 0.2, 4), "0.3");
  assert.equal(fmt(2.0000000000000004, 4), "2");
  assert.equal(exactAt(1e-18, 4), false);
});
