// teach-every-step.test.mjs: "Teach 书 to read" as the learner sees it at EVERY step of a run, in
// both languages: the update step's heatmap is the weights after the update (softmax worked out
// here in float64 from W − η·dL/dW), the start step's those before it; a W cell's line names the
// step shown and the one before it; a dW cell's count of terms says "of all, k", in that order,
// with k counted here from X and the core's dL/dQ or dL/dK. Numbers are read in the order written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { sceneById } from "../../web/scenes.js";
import { fmt } from "../../web/format.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const teach = await resolveScene(listed.find((s) => s.id === "teach"));
const book = sceneById.book;
const x = book.inputs.x;
const langs = ["en", "zh"];
const runs = [
  { steps: 6, eta: 0.5, digits: 4 },
  { steps: 4, eta: 1.5, digits: 3, hand: true },
];

// softmax(X·W_Q·(X·W_K)ᵀ/√d_k) by rows, in float64.
function attentionWeights(wq, wk) {
  const mul = (a, b) =>
    a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
  const [q, k] = [mul(x, wq), mul(x, wk)];
  const scale = 1 / Math.sqrt(wq[0].length);
  return q.map((qi) => {
    const s = k.map((kj) => qi.reduce((sum, v, c) => sum + v * kj[c], 0) * scale);
    const m = Math.max(...s);
    const e = s.map((v) => Math.exp(v - m));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / total);
  });
}

// W − η·dL/dW, worked out here from the step's weights and the core's gradient.
const stepped = (w, g, eta) => w.map((row, i) => row.map((v, j) => v - eta * g[i][j]));

// Every run's every step shown: { L, t, s, after, lang } (after: the weights the update makes).
function* everyStep() {
  for (const run of runs) {
    for (let at = 1; at <= run.steps; at++) {
      const L = labAt(core, teach, { ...run, at });
      const s = L.trace.steps[at - 1];
      const after = {
        wq: stepped(s.wq, s.gradients.wq, run.eta),
        wk: stepped(s.wk, s.gradients.wk, run.eta),
      };
      for (const lang of langs) yield { L, run, at, t: at - 1, s, after, lang };
    }
  }
}

// The numbers of a heatmap figure's cells, row by row.
const cells = (figure) =>
  figure.querySelectorAll("tr").flatMap((tr) => tr.querySelectorAll("td").map((td) => textOf(td)));

test("the update step's heatmap is the weights after the update, the start step's those before", () => {
  let checked = 0;
  for (const { L, run, at, s, after, lang } of everyStep()) {
    const where = `${JSON.stringify(run)} step ${at} ${lang}`;
    const d = Math.min(run.digits, 3);
    for (const [stepId, wq, wk, title] of [
      ["start", s.wq, s.wk, lang === "en" ? /^The weights at step (\d+)$/ : /^第 (\d+) 步的权重$/],
      [
        "update",
        after.wq,
        after.wk,
        lang === "en" ? /^The weights after step (\d+)'s update$/ : /^第 (\d+) 步更新之后的权重$/,
      ],
    ]) {
      const ctx = L.at(lang, stepId);
      const figure = teach.lab.panels.heatmap(ctx);
      const want = attentionWeights(wq, wk).flat();
      const got = cells(figure);
      assert.equal(got.length, want.length, where);
      got.forEach((text, c) =>
        assert.ok(
          Math.abs(Number(text) - want[c]) <= 0.5 * 10 ** -d + 1e-12,
          `${where} ${stepId}: cell ${c} shows ${text}, the weights give ${fmt(want[c], 6)}`,
        ),
      );
      const caption = textOf(figure.querySelector("figcaption"));
      const m = title.exec(caption);
      assert.ok(m, `${where} ${stepId}: «${caption}»`);
      assert.equal(Number(m[1]), at, `${where} ${stepId}: «${caption}»`);
      checked++;
    }
  }
  assert.equal(checked, 2 * 2 * (6 + 4));
});

test("a W cell's line names the step shown and the one before it, its value the update worked out here", () => {
  let previous;
  for (const { L, run, at, t, s, lang } of everyStep()) {
    const where = `${JSON.stringify(run)} step ${at} ${lang}`;
    const ctx = L.at(lang, "start");
    // the weights of this step, worked out here from the step before (the start: the core's draw,
    // or the book scene's hand-made W_Q and W_K = I)
    const prior = t > 0 ? L.trace.steps[t - 1] : null;
    const want = {
      wq: prior ? stepped(prior.wq, prior.gradients.wq, run.eta) : run.hand ? book.inputs.wq : s.wq,
      wk: prior ? stepped(prior.wk, prior.gradients.wk, run.eta) : run.hand ? book.inputs.wk : s.wk,
    };
    for (const [mid, name] of [
      ["wq", "W_Q"],
      ["wk", "W_K"],
    ]) {
      for (const [i, j] of [
        [0, 0],
        [3, 2],
        [4, 4],
      ]) {
        const [first, second] = teach.lab.derivation(mid, i, j, ctx).lines.map((l) => l.text);
        if (t === 0) {
          assert.match(first, lang === "en" ? /^Step 1 starts from / : /^第 1 步从/, where);
        } else {
          const m = (
            lang === "en"
              ? /^Step (\d+)'s weights are step (\d+)'s, updated\.$/
              : /^第 (\d+) 步的权重是第 (\d+) 步更新之后的。$/
          ).exec(first);
          assert.ok(m, `${where}: «${first}»`);
          assert.deepEqual([Number(m[1]), Number(m[2])], [at, at - 1], `${where}: «${first}»`);
        }
        assert.equal(
          second,
          `${name}[${i + 1}][${j + 1}] = ${fmt(want[mid][i][j], run.digits)}`,
          where,
        );
      }
    }
    previous = at;
  }
  assert.equal(previous, 4);
});

test("a dW cell's count of terms: all of them first, then those that are not 0, counted here", () => {
  let counted = 0;
  for (const { L, run, at, s, lang } of everyStep()) {
    const ctx = L.at(lang, "gradient");
    for (const [mid, d] of [
      ["dwq", s.gradients.q],
      ["dwk", s.gradients.k],
    ]) {
      for (let a = 0; a < x[0].length; a++) {
        for (let b = 0; b < d[0].length; b++) {
          const where = `${JSON.stringify(run)} step ${at} ${lang} ${mid}[${a + 1}][${b + 1}]`;
          const k = x.filter((row, i) => row[a] !== 0 && d[i][b] !== 0).length;
          const [first] = teach.lab.derivation(mid, a, b, ctx).lines.map((l) => l.text);
          if (k === 0) {
            assert.match(first, / = 0 \(/, `${where}: «${first}»`);
            continue;
          }
          const m = (
            lang === "en"
              ? /^Of the (\d+) terms, (\d+) (?:is|are) not 0 \(X is mostly zeros\):$/
              : /^(\d+) 项里有 (\d+) 项不为 0（X 大多是 0）：$/
          ).exec(first);
          assert.ok(m, `${where}: «${first}»`);
          assert.deepEqual([Number(m[1]), Number(m[2])], [x.length, k], `${where}: «${first}»`);
          counted++;
        }
      }
    }
  }
  assert.ok(counted > 100, `${counted} counts read`);
});

// A planted bug named K's column one too low in dL/dQ's line: each column j of dL/dQ[书] is the
// sum over k of dL/d(scores)[书][k]·K[k][j], the same j on both sides, counted from 1.
test("dL/dQ's line names the same column of K as its own (every column, en and zh)", () => {
  const L = labAt(core, teach, {});
  for (const lang of langs) {
    const ctx = L.at(lang, "start");
    const columns = x[0].length;
    for (let j = 0; j < columns; j++) {
      const lines = teach.lab.derivation("dq", 0, j, ctx).lines.map((l) => l.text);
      const m =
        /^dL\/dQ\[[^\]]+\]\[(\d+)\] = Σ_k dL\/d\(scores\)\[[^\]]+\]\[k\]·K\[k\]\[(\d+)\]/.exec(
          lines[0],
        );
      assert.ok(m, `${lang} column ${j + 1}: ${lines[0]}`);
      assert.deepEqual([Number(m[1]), Number(m[2])], [j + 1, j + 1], `${lang}: ${lines[0]}`);
    }
  }
});
