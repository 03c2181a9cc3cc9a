// text-train.test.mjs: a run that diverges ends, as the worker and the page take it
// (train-state.js's sliceOf): at η = 3 the loss of the Song poems' model stops being finite, and
// the run ends at that step with nothing non-finite kept; at η = 30 the core refuses a step (its
// logits overflow) and the run ends with the core's words. A trainer stepped apart says where.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs } from "../../web/attention.js";
import { evalEvery, sliceOf } from "../../web/labs/gpt/train-state.js";
import { textModel } from "../../web/labs/gpt/text.js";

const core = await loadLabs();
const corpus = core.textCorpus(
  readFileSync(new URL("../../web/generated/texts/song100.txt", import.meta.url)),
);
const config = { ...textModel.config, vocab: [...corpus.chars].length + 2 };
const options = (lr) => ({ ...textModel.training, total: textModel.training.steps, lr });

// The run as the page takes it: { losses, measures, failed }.
function run(lr, most = 300) {
  const trainer = core.gptTrainer(config, corpus.train, options(lr));
  const out = { losses: [], measures: [] };
  while (out.losses.length < most) {
    const r = sliceOf(core, trainer, config, corpus.heldOut, out.losses.length);
    if (r.failed) {
      out.failed = r.failed;
      break;
    }
    if (r.loss === undefined) continue;
    out.losses.push(r.loss);
    if (r.measure) out.measures.push(r.measure);
  }
  trainer.close();
  return out;
}

// The first step whose loss, or held-out loss where it is measured, is not finite: a trainer
// stepped apart, a sequence at a time as the page steps it (a whole step at once sums in another
// order: at η = 3 the run it makes diverges elsewhere).
function firstInfinite(lr, most = 300) {
  const trainer = core.gptTrainer(config, corpus.train, options(lr));
  for (let s = 1; s <= most;) {
    const { loss } = trainer.slice(1);
    if (loss === undefined) continue;
    const measured = s === 1 || s % evalEvery === 0;
    const held =
      measured && core.gptStreamLoss({ config, params: trainer.params() }, corpus.heldOut);
    if (!Number.isFinite(loss) || (measured && !Number.isFinite(held))) return (trainer.close(), s);
    s++;
  }
  trainer.close();
  return undefined;
}

test("η = 3: the run ends at the first step whose loss is not finite, and keeps nothing that is not", () => {
  const r = run(3);
  const s = firstInfinite(3);
  assert.ok(s !== undefined && s > 1, `step ${s}`);
  assert.deepEqual(r.failed, { step: s });
  assert.equal(r.losses.length, s - 1);
  assert.ok(r.losses.every(Number.isFinite) && r.measures.every(([, y]) => Number.isFinite(y)));
});

test("η = 30: the core refuses a step, and the run ends with its words", () => {
  const r = run(30);
  assert.ok(r.failed, "it ended");
  assert.ok(
    r.failed.error === undefined ||
      /the logits overflow: the parameters are too large|a gradient overflows/.test(r.failed.error),
    JSON.stringify(r.failed),
  );
  assert.ok(r.losses.every(Number.isFinite));
});

test("η = 0.003 (the real model's): 100 steps, every loss finite, the loss falls", () => {
  const r = run(0.003, 100);
  assert.equal(r.failed, undefined);
  assert.equal(r.losses.length, 100);
  assert.ok(r.measures.at(-1)[1] < r.measures[0][1] - 0.5, JSON.stringify(r.measures));
});
