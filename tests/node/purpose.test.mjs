// purpose.test.mjs: the three answers a learner found only partly given (issue 39 §3), read as a
// learner reads them, in English and in Chinese, against the core's numbers: what attention is
// for (苹果 in two sentences: one fixed own value, two outputs, each from the word it attends to
// most; tests/fixtures/scenes.json's NumPy numbers), why the weights are positive and add up to
// 1 (the softmax step's words, and the weights of every walkthrough), and why more than one head
// (the heads lab's note, with the weights it names).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installTextDom, textOf } from "./text-dom.mjs";
import { loadAttention } from "../../web/attention.js";
import { scenes, sceneById } from "../../web/scenes.js";
import attention from "../../web/labs/walkthroughs/attention.js";
import { fmt } from "../../web/format.js";
import { labAt } from "./lab-context.mjs";
import { lab, says, pick } from "./lab-sentences.mjs";

installTextDom();
const core = await loadAttention();
const fixture = JSON.parse(readFileSync(new URL("../fixtures/scenes.json", import.meta.url)));
const langs = ["en", "zh"];
const near = (x) => ({ near: x, digits: 3 });
const vector = (row) => `[${row.map((x) => fmt(x, 3)).join(", ")}]`;

// A walkthrough scene on the attention lab, at a state: its contexts by language.
const walk = (id, partial = {}) => labAt(core, { ...sceneById[id], lab: attention }, partial);

test("what attention is for: 苹果's one own value and its two outputs, each from its neighbour, as the result says", () => {
  const f = fixture.apple;
  const L = walk("apple");
  const result = Object.fromEntries(
    langs.map((lang) => [lang, textOf(attention.panels.result(L.at(lang, "result")))]),
  );
  const read = says(
    result,
    {
      en: String.raw`^苹果's own value is (?<own>\[[^\]]+\]) \(food, electronics\) in both sentences: alone, the word stays that one average\. In 我吃了一个苹果 it gives (?<w1>NUM) of its weight to (?<k1>\S+), and its output is (?<o1>\[[^\]]+\]): mostly food, the fruit\. In 苹果手机很贵 it gives (?<w2>NUM) to (?<k2>\S+), and its output is (?<o2>\[[^\]]+\]): mostly electronics, the phone\.`,
      zh: String.raw`^“苹果”自己的值在两句话里都是 (?<own>\[[^\]]+\])（食物，电子产品）：单靠自己，这个词就停在这一个平均上。在“我吃了一个苹果”里，它把 (?<w1>NUM) 的权重给了“(?<k1>[^”]+)”，输出是 (?<o1>\[[^\]]+\])：大多是食物，是水果。在“苹果手机很贵”里，它把 (?<w2>NUM) 给了“(?<k2>[^”]+)”，输出是 (?<o2>\[[^\]]+\])：大多是电子产品，是手机。`,
    },
    {
      own: vector(f.own),
      w1: near(f.weights[0][1]),
      k1: "吃",
      o1: vector(f.output[0]),
      w2: near(f.weights[1][6]),
      k2: "手机",
      o2: vector(f.output[1]),
    },
    "apple result",
  );
  // what the words call food and electronics is what the numbers say: the first output leans to
  // food, the second to electronics, from the same own value
  assert.ok(f.output[0][0] > f.own[0] && f.output[1][1] > f.own[1], JSON.stringify(read.en));
  // with other numbers, the sentence gives the numbers alone, still the core's
  const edited = walk("apple", {
    edits: {
      q: [
        [0, 2],
        [2, 0],
      ],
    },
  });
  const words = Object.fromEntries(
    langs.map((lang) => [lang, textOf(attention.panels.result(edited.at(lang, "result")))]),
  );
  const top = edited.trace.weights.map((row) => row.indexOf(Math.max(...row)));
  says(
    words,
    {
      en: String.raw`^With these numbers 苹果's output is (?<o1>\[[^\]]+\]) in 我吃了一个苹果, where its largest weight, (?<w1>NUM), goes to (?<k1>\S+), and (?<o2>\[[^\]]+\]) in 苹果手机很贵`,
      zh: String.raw`^用这些数，“苹果”在“我吃了一个苹果”里的输出是 (?<o1>\[[^\]]+\])，最大的权重 (?<w1>NUM) 给了“(?<k1>[^”]+)”；在“苹果手机很贵”里是 (?<o2>\[[^\]]+\])`,
    },
    {
      o1: vector(edited.trace.output[0]),
      w1: near(edited.trace.weights[0][top[0]]),
      k1: f.words[top[0]],
      o2: vector(edited.trace.output[1]),
    },
    "apple result, edited",
  );
  // the table beside it: the own value and both outputs, by dimension
  const table = attention.panels.result(L.at("en", "result")).querySelectorAll("tr");
  const rows = table.slice(1).map((tr) => tr.querySelectorAll("td").map(textOf));
  assert.deepEqual(rows, [
    [fmt(f.own[0], 1), fmt(f.output[0][0], 3), fmt(f.output[1][0], 3)],
    [fmt(f.own[1], 1), fmt(f.output[0][1], 3), fmt(f.output[1][1], 3)],
  ]);
});

test("why the weights are positive and add up to 1: the softmax step says so, and every walkthrough's weights hold it", () => {
  const text = Object.fromEntries(
    langs.map((lang) => [lang, attention.text("weights", walk("classroom").at(lang, "weights"))]),
  );
  says(
    text,
    {
      en: String.raw`exp is never negative: exp\(x\) is above (?<zero>\d) for every x, however negative, so every weight is above \k<zero> \(only a masked key's exp\(−∞\) is \k<zero>\)\. Divided by their sum, each row of weights adds up to (?<one>\d): the weights are shares`,
      zh: String.raw`exp 永远不是负数：不论 x 多负，exp\(x\) 都大于 (?<zero>\d)，所以每个权重都大于 \k<zero>（只有被掩码的键，exp\(−∞\) 是 \k<zero>）。除以总和之后，每行权重之和为 (?<one>\d)：权重是份额`,
    },
    { zero: 0, one: 1 },
    "softmax step",
  );
  for (const scene of scenes) {
    const { trace } = walk(scene.id);
    trace.weights.forEach((row, i) => {
      row.forEach((w, j) => {
        const masked = trace.masked?.[i][j] === -Infinity;
        assert.ok(masked ? w === 0 : w > 0, `${scene.id} weights[${i + 1}][${j + 1}] = ${w}`);
      });
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12, `${scene.id} row ${i + 1}`);
    });
  }
});

test("why more than one head: the heads lab's note names two heads' weights one row cannot hold", () => {
  const L = lab("heads");
  const note = pick(L.panel("headWeights", "oneHead"), textOf);
  const g = says(
    note,
    {
      en: String.raw`^Why more than one head\? One head gives each token one row of weights, and a row adds up to 1: .*cannot give both of them most of it\. Here (?<token>\S+) gives (?<wa>NUM) of head (?<a>\d)'s weights to (?<ka>\S+) and (?<wb>NUM) of head (?<b>\d)'s to (?<kb>\S+): each more than half, together more than the 1 that one row holds\.`,
      zh: String.raw`^为什么要不止一个头？一个头给每个词元一行权重，一行加起来是 1：.*所以一个头可以把一行分给两个词元，却没法把大部分同时给它们俩。这里“(?<token>[^”]+)”把头 (?<a>\d) 的 (?<wa>NUM) 权重给了“(?<ka>[^”]+)”，把头 (?<b>\d) 的 (?<wb>NUM) 给了“(?<kb>[^”]+)”：每个都超过一半`,
    },
    {},
    "one head",
  );
  const tokens = L.at("en", "headWeights").view.matrices.find(
    (m) => m.id === "h1-weights",
  ).rowLabels;
  for (const lang of langs) {
    const { token, a, b, ka, kb, wa, wb } = g[lang];
    assert.deepEqual(g[lang], g.en, `${lang} says the same`);
    const i = tokens.indexOf(token);
    const row = (h) => L.trace.heads[h - 1].weights[i];
    const top = (h) => row(h).indexOf(Math.max(...row(h)));
    assert.equal(ka, tokens[top(Number(a))], `head ${a}'s largest weight of ${token}`);
    assert.equal(kb, tokens[top(Number(b))], `head ${b}'s largest weight of ${token}`);
    assert.notEqual(ka, kb);
    assert.equal(wa, fmt(row(Number(a))[top(Number(a))], 3));
    assert.equal(wb, fmt(row(Number(b))[top(Number(b))], 3));
    assert.ok(Number(wa) > 0.5 && Number(wb) > 0.5, "each more than half");
  }
});
