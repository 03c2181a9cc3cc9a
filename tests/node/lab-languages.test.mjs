// lab-languages.test.mjs: every lab says the same numbers in English and in Chinese, in each
// step's words and in every line of every cell's derivation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lab } from "./lab-sentences.mjs";

// The numbers written with digits in a text, sorted (a range 1–2 is two numbers); the few that
// English spells in words and Chinese in digits are written as digits first.
const spelled = [
  [/unit[- ]variance/g, "variance 1"], // 方差为 1
  [/mostly zeros/g, "mostly 0"], // 大多是 0
];
const numbersIn = (text) =>
  (
    spelled
      .reduce((t, [words, digits]) => t.replace(words, digits), text)
      .match(/−?\d+(?:\.\d+)?(?:e[−+]?\d+)?/g) ?? []
  ).sort();

test("every step's words say the same numbers in English and in Chinese", () => {
  let compared = 0;
  for (const [id, partial] of [
    ["heads", {}],
    ["gqa", {}],
    ["kvcache", {}],
    ["order", {}],
    ["scaling", { dk: 128 }],
    ["tiling", { block: 4 }],
    ["tiling", { block: 2, causal: true }],
    ["stability", {}],
    ["scale", {}],
    ["model", { layer: 2, head: 3 }],
    ["sharpness", { steps: 5, at: 2 }],
    ["teach", { steps: 4, at: 3 }],
  ]) {
    const L = lab(id, partial);
    for (const stepId of L.steps) {
      const text = L.text(stepId);
      assert.deepEqual(
        numbersIn(text.zh),
        numbersIn(text.en),
        `${id} ${stepId}:\n${text.en}\n${text.zh}`,
      );
      compared++;
    }
  }
  assert.ok(compared >= 35, `${compared} steps`);
});

test("every line of every cell's derivation says the same numbers in English and in Chinese", () => {
  let lines = 0;
  for (const [id, partial] of [
    ["heads", {}],
    ["gqa", {}],
    ["kvcache", {}],
    ["order", {}],
    ["scaling", { dk: 8 }],
    ["tiling", { block: 4, causal: true }],
    ["stability", {}],
    ["sharpness", { steps: 3, at: 2 }],
    ["teach", { steps: 2, at: 1 }],
    ["model", { layer: 2, head: 3 }],
  ]) {
    const L = lab(id, partial);
    for (const stepId of L.steps) {
      for (const m of L.at("en", stepId).view.matrices) {
        m.data.forEach((row, i) =>
          row.forEach((_, j) => {
            const both = L.lines(stepId, m.id, i, j);
            assert.equal(both.zh.length, both.en.length, `${id} ${stepId} ${m.id}`);
            both.en.forEach((en, k) => {
              assert.deepEqual(
                numbersIn(both.zh[k]),
                numbersIn(en),
                `${id} ${stepId} ${m.id}[${i + 1}][${j + 1}]:\n${en}\n${both.zh[k]}`,
              );
              lines++;
            });
          }),
        );
      }
    }
  }
  assert.ok(lines > 2000, `${lines} lines`);
});
