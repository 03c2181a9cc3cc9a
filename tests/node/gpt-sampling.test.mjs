// gpt-sampling.test.mjs: what a temperature does to the next token, measured. Over many seeds,
// the first token sampled at temperature τ comes up as often as softmax(z/τ) says, z the
// last row of the logits (gptForward's, in float64 here) with the unknown token (id 1) never
// drawn; a small τ is almost always the largest logit, τ = 0 always; a large τ spreads out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";

const labs = await loadLabs();
const config = { vocab: 6, context: 4, dModel: 4, layers: 1, heads: 1 };
const layout = labs.gptLayout(config);
const size = layout.at(-1).offset + layout.at(-1).rows * layout.at(-1).cols;
// parameters that give the next token logits a few units apart
const params = Float32Array.from({ length: size }, (_, i) => Math.sin(i * 2.3) * 1.5);
const model = { config, params };
const prompt = [0, 3, 2];

const logits = labs.gptForward(model, prompt).logits.at(-1);
const expected = (tau) => {
  const z = logits.map((x, id) => (id === 1 ? -Infinity : x / tau));
  const top = Math.max(...z);
  const e = z.map((x) => Math.exp(x - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
};
const draws = (tau, n) => {
  const counts = new Array(config.vocab).fill(0);
  for (let seed = 1; seed <= n; ++seed) {
    counts[labs.gptGenerate(model, prompt, { count: 1, temperature: tau, seed })[0]]++;
  }
  return counts.map((c) => c / n);
};

test("the logits are spread out enough for the test to tell temperatures apart", () => {
  const p = expected(1);
  assert.ok(Math.max(...p) < 0.9 && Math.max(...p) > 0.3, p.join(" "));
  assert.ok(Math.max(...expected(0.5)) - Math.max(...p) > 0.05);
});

test("at τ = 0.5, 1 and 2, each token is drawn as often as softmax(z/τ) says", () => {
  const n = 4000;
  for (const tau of [0.5, 1, 2]) {
    const p = expected(tau);
    const seen = draws(tau, n);
    assert.equal(seen[1], 0, "the unknown token is never drawn");
    for (let id = 0; id < config.vocab; ++id) {
      // five standard deviations of a frequency over n draws
      const bound = 5 * Math.sqrt((p[id] * (1 - p[id])) / n) + 1e-9;
      assert.ok(
        Math.abs(seen[id] - p[id]) <= bound,
        `τ = ${tau}, token ${id}: drawn ${seen[id]}, softmax(z/τ) ${p[id].toFixed(4)}`,
      );
    }
  }
});

test("a small τ is almost always the largest logit, τ = 0 always; a large τ spreads out", () => {
  const best = expected(1).indexOf(Math.max(...expected(1)));
  assert.ok(draws(0.05, 300)[best] >= 0.99);
  assert.equal(draws(0, 50)[best], 1);
  const wide = draws(50, 2000);
  for (const id of [0, 2, 3, 4, 5]) assert.ok(wide[id] > 0.1, `τ = 50, token ${id}: ${wide[id]}`);
});
