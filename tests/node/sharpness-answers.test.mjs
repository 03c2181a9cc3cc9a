// sharpness-answers.test.mjs: "Learn the sharpness" against values worked out here by hand. The
// note's α*, where target 19.2 is reached: output(α) = 19 + 3/(3e^{α/√3} + 1) = 19.2 gives
// e^{α/√3} = 14/3, α* = √3·ln(14/3), read in both languages at the note's 3 decimals. And the
// predicted answer of every update step ("which way does α move?"): the option the lab counts
// right is the way a descent written again here moves α, in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const sharpness = await resolveScene(listed.find((s) => s.id === "sharpness"));
const langs = ["en", "zh"];
const output = (a) => 19 + 3 / (3 * Math.exp(a / Math.sqrt(3)) + 1);

// Gradient descent on α, L = (output − target)², from α = 1, by hand.
function descent(target, eta, steps) {
  const path = [];
  let a = 1;
  for (let t = 0; t < steps; t++) {
    const e = 3 * Math.exp(a / Math.sqrt(3));
    const dAlpha = 2 * (output(a) - target) * ((-3 * e) / Math.sqrt(3) / (e + 1) ** 2);
    path.push({ alpha: a, next: a - eta * dAlpha });
    a -= eta * dAlpha;
  }
  return path;
}

test("the note's α*, where target 19.2 is reached, is √3·ln(14/3) at its 3 decimals, in both languages", () => {
  const star = Math.sqrt(3) * Math.log(14 / 3);
  assert.ok(Math.abs(output(star) - 19.2) < 1e-12, "output(α*) is the target");
  const L = labAt(core, sharpness, { finite: true, eta: 10, steps: 5 });
  for (const lang of langs) {
    const panel = sharpness.lab.panels.summary(L.at(lang, "curve"));
    const note = panel
      .querySelectorAll("p")
      .map(textOf)
      .find((p) => p.includes("√3·ln(14/3)"));
    assert.ok(note, `${lang}: no note with α*`);
    const m = /α = √3·ln\(14\/3\) ≈ (\d+\.\d+)/.exec(note);
    assert.ok(m, `${lang}: «${note}»`);
    assert.equal(m[1].length - 2, 3, `${lang}: 3 decimals`);
    assert.ok(Math.abs(Number(m[1]) - star) <= 0.5e-3, `${lang}: ${m[1]} for ${star}`);
  }
});

test("every update step's predicted answer is the way α moves in a descent worked out here", () => {
  let asked = 0;
  const seen = new Set();
  for (const run of [
    { finite: true, eta: 60, steps: 12 },
    { finite: true, eta: 10, steps: 6 },
    { finite: false, eta: 30, steps: 6 },
  ]) {
    const want = descent(run.finite ? 19.2 : 19, run.eta, run.steps);
    for (let at = 1; at <= run.steps; at++) {
      const L = labAt(core, sharpness, { ...run, at });
      const s = want[at - 1];
      const way = s.next > s.alpha ? 0 : s.next < s.alpha ? 1 : 2;
      seen.add(way);
      for (const lang of langs) {
        const q = sharpness.lab.question("update", L.at(lang, "update"));
        const words = { en: ["it grows", "it shrinks", "it stays"], zh: ["变大", "变小", "不变"] }[
          lang
        ];
        assert.deepEqual(q.options, words, lang);
        assert.deepEqual(
          q.answer.map((i) => q.options[i]),
          [words[way]],
          `${JSON.stringify(run)} step ${at} ${lang}: α ${s.alpha} → ${s.next}`,
        );
        asked++;
      }
    }
  }
  assert.deepEqual([...seen].sort(), [0, 1], "both ways are asked");
  assert.equal(asked, 2 * (12 + 6 + 6));
});
