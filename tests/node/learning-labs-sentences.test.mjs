// learning-labs-sentences.test.mjs: the sentences that say what the learning labs' numbers mean, read in English
// and in Chinese and compared with values worked out here. "Learn the sharpness" plots α itself,
// and at target 19.2 says when α went past the minimum (from a descent written again here, with
// output(α) = 19 + 3/(3e^{α/√3} + 1)); "Teach 书 to read" says, at the step shown, what is true
// there (before training at step 1, after t − 1 updates later) and why the softmax's gradient has
// its form, with 书's weights at that step. The first view's words are in
// tests/browser/purpose.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { fmt } from "../../web/format.js";
import { labAt } from "./lab-context.mjs";
import { wordsFor } from "../../web/words.js";

installTextDom();
const core = await loadLabs();
const sceneOf = async (id) => resolveScene(listed.find((s) => s.id === id));
const sharpness = await sceneOf("sharpness");
const teach = await sceneOf("teach");
const langs = ["en", "zh"];
const NUM = String.raw`−?\d+(?:\.\d+)?`;
const num = (s) => Number(s.replace(/−/g, "-"));

// The groups of `sources[lang]` read in `texts[lang]`, in both languages.
function read(texts, sources, where) {
  return Object.fromEntries(
    langs.map((lang) => {
      const m = new RegExp(sources[lang].replaceAll("NUM", NUM)).exec(texts[lang]);
      assert.ok(m, `${where} (${lang}): cannot read «${texts[lang]}»`);
      return [lang, m.groups];
    }),
  );
}

// A lab's words and panels at a state, in both languages.
function lab(scene, partial) {
  const { trace, at } = labAt(core, scene, { digits: 4, ...partial });
  return {
    trace,
    text: (stepId) =>
      Object.fromEntries(langs.map((lang) => [lang, scene.lab.text(stepId, at(lang, stepId))])),
    panel: (stepId, name) =>
      Object.fromEntries(langs.map((lang) => [lang, scene.lab.panels[name](at(lang, stepId))])),
  };
}

// Gradient descent on α for the age lookup, by hand: α ← α − η·dL/dα from α = 1.
function descent(target, eta, steps) {
  const path = [];
  let a = 1;
  for (let t = 0; t < steps; t++) {
    const e = 3 * Math.exp(a / Math.sqrt(3));
    const out = 19 + 3 / (e + 1);
    const dAlpha = 2 * (out - target) * ((-3 * e) / Math.sqrt(3) / (e + 1) ** 2);
    path.push({ alpha: a, dAlpha, next: a - eta * dAlpha });
    a -= eta * dAlpha;
  }
  return path;
}

test("learn the sharpness: α is plotted step by step, and at target 19.2 with η = 60 its overshoot is said with its numbers", () => {
  const L = lab(sharpness, { finite: true, eta: 60, steps: 20 });
  const want = descent(19.2, 60, 20);
  // the plot of α and its table: α at every step, as worked out here
  for (const lang of langs) {
    const figure = L.panel("curve", "alpha")[lang];
    assert.equal(figure.attributes.id, "alpha-plot");
    const cells = textOf(figure);
    for (const s of want) assert.ok(cells.includes(fmt(s.alpha, 4)), `${lang}: α ${s.alpha}`);
  }
  assert.ok(L.trace.path.some((s, t) => t && s.alpha > L.trace.path[t - 1].alpha + 5));
  // the overshoot: the first step whose dL/dα is positive, its α, its gradient and the next α
  const past = want.findIndex((s) => s.dAlpha > 0);
  assert.equal(past, 1, "with η = 60, α = 1 jumps past the minimum in one step");
  const got = read(
    Object.fromEntries(langs.map((l) => [l, textOf(L.panel("curve", "summary")[l].childNodes[2])])),
    {
      en: String.raw`^At step (?<t>\d+), α = (?<a>NUM) has gone past the minimum: dL/dα = (?<g>NUM) is positive, so this step moves α back down, to (?<n>NUM)\.`,
      zh: String.raw`^第 (?<t>\d+) 步时 α = (?<a>NUM)，已经越过了最小值：dL/dα = (?<g>NUM) 是正的，所以这一步把 α 往回拉，拉到 (?<n>NUM)。`,
    },
    "overshoot",
  );
  for (const lang of langs) {
    const g = got[lang];
    assert.equal(Number(g.t), past + 1);
    for (const [key, x] of [
      ["a", want[past].alpha],
      ["g", want[past].dAlpha],
      ["n", want[past].next],
    ]) {
      assert.ok(Math.abs(num(g[key]) - x) <= 0.5e-4 + 1e-9, `${lang} ${key}: ${g[key]}, not ${x}`);
    }
  }
  // a small η never passes it, and says so
  const slow = lab(sharpness, { finite: true, eta: 10, steps: 20 });
  assert.ok(descent(19.2, 10, 20).every((s) => s.dAlpha < 0));
  const words = Object.fromEntries(
    langs.map((l) => [l, textOf(slow.panel("curve", "summary")[l].childNodes[2])]),
  );
  assert.match(words.en, /^dL\/dα is negative at each of the 20 steps: α only grows/);
  assert.match(words.zh, /^20 步里每一步的 dL\/dα 都是负的/);
  // target 19 has no minimum to pass: no such sentence
  const open = lab(sharpness, { eta: 60, steps: 20 });
  assert.equal(textOf(open.panel("curve", "summary").en).includes("past the minimum"), false);
});

test("learn the sharpness: before the chain's formula, why the softmax's part has its form, with Li Si's weight and the output at the step shown", () => {
  for (const at of [1, 4]) {
    const L = lab(sharpness, { finite: true, eta: 60, steps: 5, at });
    // at α, 李四's weight is 1/(3e^{α/√3} + 1) and the output 19 + 3 × that weight, by hand
    const a = descent(19.2, 60, 5)[at - 1].alpha;
    const w = 1 / (3 * Math.exp(a / Math.sqrt(3)) + 1);
    const g = read(
      L.text("chain"),
      {
        en: String.raw`raising (?<key>Li Si)'s score moves the output at the rate of Li Si's weight, (?<w>NUM), times how far its age, (?<age>\d+), is from the output, (?<o>NUM), and dL/d\(scaled\) is that rate times dL/d\(output\)\.`,
        zh: String.raw`提高“(?<key>李四)”的分数，输出变化的速率是“李四”的权重 (?<w>NUM) 乘以它的年龄 (?<age>\d+) 与输出 (?<o>NUM) 之差，而 dL/d\(scaled\) 就是这个速率乘以 dL/d\(输出\)。`,
      },
      `chain at step ${at}`,
    );
    for (const lang of langs) {
      assert.ok(Math.abs(num(g[lang].w) - w) <= 0.5e-4 + 1e-9, `${lang}: ${g[lang].w}, not ${w}`);
      assert.ok(Math.abs(num(g[lang].o) - (19 + 3 * w)) <= 0.5e-4 + 1e-9, `${lang}: ${g[lang].o}`);
      assert.equal(g[lang].age, "22");
    }
    // the rate is the core's: dL/d(scaled) for 李四 = dL/d(output) × weight × (22 − output)
    const s = L.trace.path[at - 1];
    const o = s.trace.output[0][0];
    const rate = s.dOutput * s.trace.weights[0][2] * (22 - o);
    assert.ok(Math.abs(s.gradients.scaled[0][2] - rate) < 1e-12, `${s.gradients.scaled[0][2]}`);
  }
});

test("teach 书 to read: every sentence is true of the step shown, before and after training", () => {
  for (const partial of [{ steps: 20 }, { steps: 20, hand: true }, { steps: 1 }]) {
    for (const at of [...new Set([1, Math.min(2, partial.steps), partial.steps])]) {
      const L = lab(teach, { ...partial, at });
      const steps = L.trace.steps;
      const w = steps[at - 1].trace.weights[10];
      const [w0, wt] = [steps[0].trace.weights[10][4], w[4]].map((x) => fmt(x, 4));
      const where = `${JSON.stringify(partial)} at step ${at}`;
      const start = L.text("start");
      if (at === 1) {
        assert.match(start.en, new RegExp(`Before training, .* ${wt}`), where);
        assert.match(start.zh, new RegExp(`训练之前，.*${wt}`), where);
      } else {
        const n = at - 1;
        const en = `After ${n === 1 ? "1 update" : `${n} updates`} of W_Q and W_K, 书 gives 读 ${wt} of its weight (at step 1, before training: ${w0}).`;
        assert.ok(start.en.includes(en), `${where}: «${start.en}»`);
        assert.ok(
          start.zh.includes(
            `已经更新了 ${n} 次，“书”给“读”的权重是 ${wt}（第 1 步、训练之前是 ${w0}）`,
          ),
        );
        assert.doesNotMatch(
          start.en,
          /^Training step \d+ of \d+, η = [\d.]+\. Before training/,
          where,
        );
      }
      // why the softmax's gradient has its form: the rate at 读 is 1 minus its weight, and at
      // the word with most of the rest, that word's weight: the step's operands, as worked out here
      const others = w.map((x, j) => (j === 4 ? -1 : x));
      const top = others.indexOf(Math.max(...others));
      const tokens = ["我", "昨天", "在", "图书馆", "读", "了", "一本", "很", "有趣", "的", "书"];
      const g = read(
        L.text("gradient"),
        {
          en: String.raw`raising 读's score lowers the loss at the rate 1 minus 读's weight, (?<w>NUM), and raising (?<top>\S+)'s raises it at the rate of \S+'s weight, (?<topWeight>NUM)\. For a cross-entropy`,
          zh: String.raw`提高“读”的分数，损失下降的速率是 1 减去“读”的权重 (?<w>NUM)，提高“(?<top>[^”]+)”的分数，损失上升的速率是“[^”]+”的权重 (?<topWeight>NUM)。`,
        },
        where,
      );
      for (const lang of langs) {
        assert.equal(g[lang].w, fmt(w[4], 4), `${where} ${lang}`);
        assert.equal(g[lang].top, tokens[top], `${where} ${lang}`);
        assert.equal(g[lang].topWeight, fmt(w[top], 4), `${where} ${lang}`);
        // and the rates are the core's dL/d(scaled) there: 读's weight − 1 and the top's weight
        const d = steps[at - 1].gradients.scaled[10];
        assert.ok(Math.abs(d[4] - (w[4] - 1)) < 1e-12 && Math.abs(d[top] - w[top]) < 1e-12);
      }
      const curve = L.text("curve");
      const fell = steps.at(-1).loss < steps[0].loss;
      assert.equal(curve.en.includes("The loss falls"), fell, `${where}: «${curve.en}»`);
      assert.equal(curve.zh.includes("损失下降"), fell, `${where}: «${curve.zh}»`);
    }
  }
});

test("the purpose picture's seeker is not one of the classroom's words (a learner read 你 as the token)", () => {
  const classroom = listed.find((s) => s.id === "classroom");
  // the tokens 我 爱 你, and their English glosses as the page writes them
  const words = [...classroom.tokens, "i", "love", "you"];
  for (const lang of ["zh", "en"]) {
    const seeker = wordsFor(lang, classroom).purpose.you;
    assert.ok(!words.includes(seeker.toLowerCase()), `${lang}: “${seeker}”`);
  }
});
