// lab-languages.test.mjs: every lab says the same numbers in English and in Chinese, in each
// step's words and in every line of every cell's derivation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lab } from "./lab-sentences.mjs";
import { textOf } from "./text-dom.mjs";

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

// Issue 39 §3: a Chinese caption said "weights, 第 1 层第 1 个头", and the Chinese page wrote
// the unit of a loss "nats" in two labs and 奈特 in a third.
test("a Chinese caption is Chinese: an English word in it is a name before “：”, a formula's or a term of the glossary", async () => {
  const { labScenes } = await import("./lab-sentences.mjs");
  const { glossary } = await import("../../web/i18n/glossary.js");
  const terms = new Set(glossary.map((e) => e.zh.term));
  let captions = 0;
  for (const id of Object.keys(labScenes)) {
    const L = lab(id);
    for (const stepId of L.steps) {
      for (const m of L.at("zh", stepId).view.matrices) {
        const caption = m.caption ?? m.label;
        if (!/[\u4e00-\u9fff]/.test(caption)) continue;
        captions++;
        for (const w of caption.matchAll(/[A-Za-z]{3,}/g)) {
          const [before, after] = [caption.slice(0, w.index), caption.slice(w.index + w[0].length)];
          const name = w.index === 0 && after.startsWith("：");
          const formula = /^\s*[[(=·)]/.test(after) || /[(·]$/.test(before);
          assert.ok(
            name || formula || terms.has(w[0]),
            `${id} ${stepId}: “${w[0]}” in the caption “${caption}”`,
          );
        }
      }
    }
  }
  assert.ok(captions > 20, `${captions} captions`);
  // the model lab's heads step, by meaning: the picked head's weights, named in each language
  const M = lab("model", { layer: 2, head: 3 });
  const caption = (lang) => M.at(lang, "heads").view.matrices[0].caption;
  assert.equal(caption("zh"), "权重，第 2 层第 3 个头");
  assert.equal(caption("en"), "weights, layer 2, head 3");
});

test("the Chinese page writes the unit of a loss 奈特, never nats, in every lab's words and panels", () => {
  let read = 0;
  for (const id of ["induction", "model", "text"]) {
    const L = lab(id);
    for (const stepId of L.steps) {
      const c = L.at("zh", stepId);
      const panels = L.scene.lab.steps(L.scene, L.state).find((s) => s.id === stepId);
      const texts = [
        L.text(stepId).zh,
        // the panels a text-only document can build (a trainer's asks for the focus: its
        // plot's and table's headings are read from the words below)
        ...[...panels.panels, ...(panels.inStep ?? []), ...(panels.lead ?? [])].map((name) => {
          try {
            const node = c.lab.panels[name]?.(c);
            return node ? textOf(node) : "";
          } catch {
            return "";
          }
        }),
        c.msg.gptLab?.lossAxis,
        c.msg.gptLab?.lossHead,
        c.msg.induction?.lossAxis,
        c.msg.textLab?.lossHead,
      ].filter(Boolean);
      for (const text of texts) {
        assert.doesNotMatch(text, /\bnats?\b/, `${id} ${stepId}: ${text.slice(0, 200)}`);
        read += (text.match(/奈特/g) ?? []).length;
      }
    }
  }
  assert.ok(read >= 3, `奈特 read ${read} times`);
});
