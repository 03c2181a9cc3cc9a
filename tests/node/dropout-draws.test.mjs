// dropout-draws.test.mjs: the dropout lab's one draw and its average over many draws, worked out
// here apart from the core and the lab, and compared with what the lab shows (its tables, its
// sentences in English and Chinese, a cell's derivation) and with the core.
//
// The rule, from src/random.hpp, src/support.hpp (dropout_keep) and src/why.cpp (dropout_stats):
// the stream is splitmix64 — state += 0x9E3779B97F4A7C15; z = state; z = (z ^ z>>30) ·
// 0xBF58476D1CE4E5B9; z = (z ^ z>>27) · 0x94D049BB133111EB; z ^= z>>31 (all mod 2⁶⁴) — and
// uniform() = (z >> 11) / 2⁵³. Draw t (from 0) starts a stream at seed + t and takes one
// uniform() per weight, row by row; a weight is dropped (0) when its uniform is below p, else
// divided by 1 − p. The average over N draws is the mean of the N dropped matrices and of the
// N outputs dropped·V.
//
// One draw by hand (the fixture of the first test), 1 query × 3 keys:
//   q = [0], K = [1; 2; 3], V = [3; 6; 9]: every score is 0, so each weight is 1/3, and the
//   output without dropout is (3 + 6 + 9)/3 = 6.
//   p = 0.6, seed 1. The stream from 1: state 0x9e3779b97f4a7c16 → z 0x910a2dec89025cc1 →
//   u = 0.5665615751722809; state 0x3c6ef372fe94f82b → z 0xbeeb8da1658eec67 → u =
//   0.7457817572627011; state 0xdaa66d2c7ddf7440 → z 0xf893a2eefb32555e → u = 0.9710027535867962.
//   0.5666 < 0.6 drops key 1; keys 2 and 3 are kept: (1/3) ÷ (1 − 0.6) = 5/6 each.
//   dropped = [0, 5/6, 5/6], its row sums to 5/3, not 1; output = 5/6·6 + 5/6·9 = 12.5.
//   Seeds 2, 3, 4 give u = [0.5912, 0.7491, 0.5956], [0.1135, 0.7003, 0.6130],
//   [0.4315, 0.8924, 0.8591]: dropped [0, 5/6, 0] (output 5), [0, 5/6, 5/6] (12.5) and
//   [0, 5/6, 5/6] (12.5). Over the 4 draws: kept 0, 4 and 3 times; mean dropped
//   [0, 5/6, 3·(5/6)/4 = 0.625]; mean output (12.5 + 5 + 12.5 + 12.5)/4 = 10.625.
//   (The u's and z's by Python's integers, /usr/bin/python3, apart from this file's code.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { fmt } from "../../web/format.js";
import { splitmix64 as stream } from "./reference.mjs";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const scene = await resolveScene(listed.find((s) => s.id === "dropout"));

// Softmax weights of q·k/√d and the output weights·V, in float64 loops.
function plainAttention(q, k, v) {
  const scale = 1 / Math.sqrt(q[0].length);
  const weights = q.map((qi) => {
    const s = k.map((kj) => scale * qi.reduce((a, x, c) => a + x * kj[c], 0));
    const m = Math.max(...s);
    const e = s.map((x) => Math.exp(x - m));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  return { weights, output: times(weights, v) };
}
const times = (w, v) =>
  w.map((row) => v[0].map((_, c) => row.reduce((a, x, j) => a + x * v[j][c], 0)));

// One draw of dropout on `weights` from `seed`, and `draws` of them averaged, by the rule above.
function drawOf(weights, p, seed) {
  const u = stream(seed);
  return weights.map((row) => row.map((w) => (u() < p ? 0 : w / (1 - p))));
}
function averageOf(q, k, v, { p, seed, draws }) {
  const { weights, output } = plainAttention(q, k, v);
  const zero = (m) => m.map((row) => row.map(() => 0));
  const meanDropped = zero(weights);
  const kept = zero(weights);
  const sum = zero(output);
  const differences = new Map();
  for (let t = 0; t < draws; t++) {
    const dropped = drawOf(weights, p, seed + t);
    const out = times(dropped, v);
    dropped.forEach((row, i) =>
      row.forEach((x, j) => {
        meanDropped[i][j] += x;
        kept[i][j] += x === 0 && weights[i][j] !== 0 ? 0 : 1;
      }),
    );
    out.forEach((row, i) => row.forEach((x, c) => (sum[i][c] += x)));
    const n = t + 1;
    let d = 0;
    sum.forEach((row, i) =>
      row.forEach((x, c) => (d = Math.max(d, Math.abs(x / n - output[i][c])))),
    );
    differences.set(n, d);
  }
  return {
    weights,
    output,
    first: drawOf(weights, p, seed),
    meanDropped: meanDropped.map((row) => row.map((x) => x / draws)),
    kept,
    meanOutput: sum.map((row) => row.map((x) => x / draws)),
    differences,
  };
}

const close = (a, b, where, tol = 1e-12) =>
  a
    .flat()
    .forEach((x, i) =>
      assert.ok(
        Math.abs(x - b.flat()[i]) <= tol * Math.max(1, Math.abs(x)),
        `${where}: ${a} ≠ ${b}`,
      ),
    );

test("one draw and four by hand, 1 query × 3 keys: the reference here and the core agree with the hand's numbers", () => {
  const [q, k, v] = [[[0]], [[1], [2], [3]], [[3], [6], [9]]];
  const mine = averageOf(q, k, v, { p: 0.6, seed: 1, draws: 4 });
  const u = stream(1);
  assert.deepEqual([u(), u(), u()], [0.5665615751722809, 0.7457817572627011, 0.9710027535867962]);
  close(mine.weights, [[1 / 3, 1 / 3, 1 / 3]], "weights");
  close(mine.first, [[0, 5 / 6, 5 / 6]], "the first draw");
  close(times(mine.first, v), [[12.5]], "its output");
  close(mine.meanDropped, [[0, 5 / 6, 0.625]], "mean dropped");
  close(mine.kept, [[0, 4, 3]], "kept");
  close(mine.meanOutput, [[10.625]], "mean output");
  close(mine.output, [[6]], "no dropout");
  const theirs = core.dropoutStats(q, k, v, { p: 0.6, seed: 1, draws: 4 });
  close(theirs.dropped, [[0, 5 / 6, 5 / 6]], "the core's draw");
  close([theirs.droppedRowSums], [[5 / 3]], "the core's row sum");
  close(theirs.drawOutput, [[12.5]], "the core's draw output");
  close(theirs.meanDropped, [[0, 5 / 6, 0.625]], "the core's mean dropped");
  close(theirs.kept, [[0, 4, 3]], "the core's kept");
  close(theirs.meanOutput, [[10.625]], "the core's mean output");
  assert.equal(theirs.maxDifference, 4.625);
  assert.deepEqual(theirs.counts, [1, 2, 4]);
  // |12.5 − 6|, |(12.5 + 5)/2 − 6|, |10.625 − 6|
  close([theirs.differences], [[6.5, 2.75, 4.625]], "the core's differences");
});

// The lab at p and seed: its steps' contexts in both languages.
function lab(partial) {
  return labAt(core, scene, partial);
}

const NUM = String.raw`−?\d+(?:\.\d+)?`;
function read(text, source, where) {
  const m = new RegExp(source.replaceAll("NUM", NUM)).exec(text);
  assert.ok(m, `${where}: cannot read /${source}/ in «${text}»`);
  return m.groups;
}
const num = (s) => Number(s.replace(/−/g, "-"));
// within half a unit of the last digit shown
const near = (shown, x, digits, where) =>
  assert.ok(Math.abs(num(shown) - x) <= 0.5 * 10 ** -digits + 1e-12, `${where}: ${shown} for ${x}`);

const sentences = {
  rowSum: {
    en: String.raw`^This draw's weights sum to (?<sum>NUM), not 1; its answer is (?<out>NUM)\.$`,
    zh: String.raw`^这次抽取的权重之和是 (?<sum>NUM)，不是 1；答案是 (?<out>NUM)。$`,
  },
  average: {
    en: String.raw`^Over (?<n>\d+) draws the average answer is (?<mean>NUM); without dropout it is (?<output>NUM) \(difference (?<diff>NUM)\)\.$`,
    zh: String.raw`^(?<n>\d+) 次抽取的平均答案是 (?<mean>NUM)；不用 dropout 时是 (?<output>NUM)（相差 (?<diff>NUM)）。$`,
  },
  kept: {
    en: String.raw`^(?<kept>\d+) of the (?<n>\d+) draws kept this weight`,
    zh: String.raw`^(?<n>\d+) 次抽取里有 (?<kept>\d+) 次保留了这个权重`,
  },
  p: {
    en: String.raw`with probability p = (?<p>NUM) and divides the rest by 1 − p`,
    zh: String.raw`以概率 p = (?<p>NUM) 把每个权重置为 0`,
  },
  caption: {
    en: String.raw`mean of (?<n>\d+) draws`,
    zh: String.raw`(?<n>\d+) 次抽取的平均`,
  },
};

test("the dropout lab's draw and average, for its seeds: worked out here, shown by the lab, said in both languages", () => {
  let cells = 0;
  for (const p of [0.1, 0.5, 0.9]) {
    for (const draw of [1, 2, 50]) {
      for (const digits of [2, 4]) {
        const L = lab({ p, draw, digits });
        const { q, k, v } = L.inputs;
        // the number of draws the core averaged, and that the words say
        const N = L.trace.counts.at(-1);
        assert.ok(N >= 1000, `${N} draws`);
        const mine = averageOf(q, k, v, { p, seed: draw, draws: N });
        const where = `p ${p} seed ${draw}`;
        // the core
        close(L.trace.weights, mine.weights, `${where} weights`);
        close(L.trace.dropped, mine.first, `${where} the draw`);
        close(L.trace.drawOutput, times(mine.first, v), `${where} the draw's output`);
        close(L.trace.meanDropped, mine.meanDropped, `${where} mean dropped`);
        close(L.trace.kept, mine.kept, `${where} kept`);
        close(L.trace.meanOutput, mine.meanOutput, `${where} mean output`);
        L.trace.counts.forEach((c, t) =>
          close([[L.trace.differences[t]]], [[mine.differences.get(c)]], `${where} after ${c}`),
        );
        // what the lab shows: its tables are these numbers
        const shown = (stepId, id) => L.at("en", stepId).view.matrices.find((m) => m.id === id);
        close(shown("draw", "dropped").data, mine.first, `${where} dropped shown`);
        close(shown("draw", "drawOutput").data, times(mine.first, v), `${where} output shown`);
        close(shown("average", "meanDropped").data, mine.meanDropped, `${where} mean shown`);
        close(shown("average", "meanOutput").data, mine.meanOutput, `${where} mean output shown`);
        const rowSum = mine.first[0].reduce((a, b) => a + b, 0);
        let largest = 0;
        mine.meanOutput.forEach((row, i) =>
          row.forEach((x, c) => (largest = Math.max(largest, Math.abs(x - mine.output[i][c])))),
        );
        for (const lang of ["en", "zh"]) {
          const at = `${where} (${lang}) at ${digits}`;
          const draws = L.at(lang, "draw");
          const average = L.at(lang, "average");
          // the step's words: p
          const words = draws.lab.text("draw", draws);
          assert.equal(num(read(words, sentences.p[lang], at).p), p, `${at}: ${words}`);
          // the draw's sentence: its row sum and its answer
          const said = read(textOf(draws.lab.panels.sum(draws)), sentences.rowSum[lang], at);
          near(said.sum, rowSum, digits, `${at} row sum`);
          near(said.out, times(mine.first, v)[0][0], digits, `${at} draw's answer`);
          // the average's sentence: N, the mean, the answer without dropout, their difference
          const panel = average.lab.panels.convergence(average);
          const avg = read(textOf(panel.querySelector("#average")), sentences.average[lang], at);
          assert.equal(Number(avg.n), N, at);
          near(avg.mean, mine.meanOutput[0][0], digits, `${at} mean`);
          near(avg.output, mine.output[0][0], digits, `${at} answer`);
          near(avg.diff, largest, digits, `${at} difference`);
          // the plot's table: the difference after each count of draws
          const rows = panel.querySelectorAll("tr").slice(1);
          assert.equal(rows.length, L.trace.counts.length);
          rows.forEach((tr) => {
            const [c, d] = tr.children.map(textOf);
            const x = mine.differences.get(Number(c));
            assert.ok(x !== undefined, `${at}: a count ${c} not drawn`);
            if (x < 1e-3) assert.ok(Math.abs(num(d.replace("e−", "e-")) - x) <= 0.051 * x, d);
            else near(d, x, digits, `${at} after ${c}`);
          });
          // the captions: the mean of N draws
          for (const id of ["meanDropped", "meanOutput"]) {
            const m = average.view.matrices.find((x) => x.id === id);
            assert.equal(Number(read(m.caption, sentences.caption[lang], at).n), N, m.caption);
          }
          // each weight's derivation: dropped here or divided by 1 − p; kept so many times of N
          mine.first[0].forEach((x, j) => {
            const line = draws.lab.derivation("dropped", 0, j, draws).lines[0].text;
            const dropped = line.includes(`(${draws.msg.dropout.droppedHere})`);
            assert.equal(dropped, x === 0, `${at} key ${j + 1}: ${line}`);
            if (!dropped) assert.ok(line.includes(`÷ (1 − ${p})`), line);
            const kept = read(
              average.lab.derivation("meanDropped", 0, j, average).lines[0].text,
              sentences.kept[lang],
              at,
            );
            assert.deepEqual([Number(kept.kept), Number(kept.n)], [mine.kept[0][j], N], at);
            cells++;
          });
        }
      }
    }
  }
  assert.equal(cells, 3 * 3 * 2 * 2 * 4);
});
