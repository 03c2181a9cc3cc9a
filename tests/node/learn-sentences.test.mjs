// learn-sentences.test.mjs: lesson 4's labs (learn the sharpness, teach 书 to read): the numbers in
// their summaries, read as a learner reads them, are the core's (tests/node/lab-sentences.mjs says
// how).
import { test } from "node:test";
import assert from "node:assert/strict";
import { textOf } from "./text-dom.mjs";
import { fmt } from "../../web/format.js";
import { wordsFor } from "../../web/words.js";
import { NUM, says, lab, pick } from "./lab-sentences.mjs";

test("sharpness: the summary's loss and dL/dα are those of its α, worked out here; the step's words name η and the target", () => {
  for (const [partial, target] of [
    [{ eta: 10, steps: 12, digits: 4 }, 19],
    [{ eta: 40, steps: 6, finite: true, digits: 2 }, 19.2],
  ]) {
    const L = lab("sharpness", partial);
    const path = L.trace.path;
    assert.equal(path.length, partial.steps);
    // output(α) = 19 + 3/(3e^{α/√3} + 1) and L = (output − target)², by hand
    const at = (a) => {
      const e = 3 * Math.exp(a / Math.sqrt(3));
      const out = 19 + 3 / (e + 1);
      const dOut = (-3 * e) / Math.sqrt(3) / (e + 1) ** 2;
      return { loss: (out - target) ** 2, dAlpha: 2 * (out - target) * dOut };
    };
    const [first, last] = [at(path[0].alpha), at(path.at(-1).alpha)];
    const d = partial.digits;
    says(
      pick(L.panel("curve", "summary"), textOf),
      {
        en: String.raw`^At step (?<n>\d+), the last, α = (?<alpha>NUM); from step 1 to step (?<n2>\d+) the loss went from (?<l0>NUM) to (?<l1>NUM) and dL/dα from (?<g0>NUM) to (?<g1>NUM)\.`,
        zh: String.raw`^最后一步（第 (?<n>\d+) 步）α = (?<alpha>NUM)；从第 1 步到第 (?<n2>\d+) 步，损失从 (?<l0>NUM) 变为 (?<l1>NUM)，dL/dα 从 (?<g0>NUM) 变为 (?<g1>NUM)。`,
      },
      {
        n: path.length,
        n2: path.length,
        alpha: fmt(path.at(-1).alpha, d),
        l0: { near: first.loss, digits: d },
        l1: { near: last.loss, digits: d },
        g0: { near: first.dAlpha, digits: d },
        g1: { near: last.dAlpha, digits: d },
      },
      `sharpness ${JSON.stringify(partial)}`,
    );
    for (const t of [1, 3, partial.steps]) {
      const S = lab("sharpness", { ...partial, at: t });
      says(
        S.text("task"),
        {
          en: String.raw`^Training step (?<t>\d+) of (?<n>\d+), η = (?<eta>NUM)\..*\(output − (?<target>NUM)\)²`,
          zh: String.raw`^第 (?<t>\d+) 个训练步，共 (?<n>\d+) 个，η = (?<eta>NUM)。.*\(输出 − (?<target>NUM)\)²`,
        },
        { t, n: partial.steps, eta: partial.eta, target },
        `sharpness at ${t}`,
      );
    }
  }
});

test("teach: the summary's weights are 书's on 读 at the first and last step, its losses −ln of them", () => {
  for (const partial of [
    { steps: 10, digits: 4 },
    { steps: 3, digits: 2, hand: true },
  ]) {
    const L = lab("teach", partial);
    const steps = L.trace.steps;
    const reader = L.scene.lab.labels(L.scene, wordsFor("en", L.scene), L.trace, L.inputs);
    const rows = reader.queries ?? L.at("en", "start").view.matrices[0].rowLabels;
    const [shu, du] = [rows.indexOf("书"), rows.indexOf("读")];
    assert.ok(shu >= 0 && du >= 0, `${rows}`);
    const w0 = steps[0].trace.weights[shu][du];
    const w1 = steps.at(-1).trace.weights[shu][du];
    const d = partial.digits;
    says(
      pick(L.panel("curve", "summary"), textOf),
      {
        en: String.raw`^At step (?<n>\d+), the last, 书 gives 读 (?<w1>NUM) of its weight \(at step 1: (?<w0>NUM)\); from step 1 to step (?<n2>\d+) the loss went from (?<l0>NUM) to (?<l1>NUM)\.`,
        zh: String.raw`^最后一步（第 (?<n>\d+) 步）“书”给“读”的权重是 (?<w1>NUM)（第 1 步是 (?<w0>NUM)）；从第 1 步到第 (?<n2>\d+) 步，损失从 (?<l0>NUM) 变为 (?<l1>NUM)。`,
      },
      {
        n: steps.length,
        n2: steps.length,
        w0: fmt(w0, d),
        w1: fmt(w1, d),
        l0: { near: -Math.log(w0), digits: d },
        l1: { near: -Math.log(w1), digits: d },
      },
      `teach ${JSON.stringify(partial)}`,
    );
  }
});
