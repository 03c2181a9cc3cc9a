// train-slices.test.mjs: a step's slices computed apart, in another instance of the core (as a
// second worker computes them), and added in order by the trainer are the trainer's own step to
// the last bit: the labs' workers share a step this way (labs/share.js), so a run's weights are
// the same whatever the number of workers. What the trainer refuses when a slice is added
// wrong. The real workers in Chromium: tests/browser/workers.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { wrap } from "../../web/wasm/core.js";
import { labsOf } from "../../web/wasm/labs.js";
import createLabs from "../../web/generated/attention-labs.mjs";
import { readConfig, readStreams } from "../../web/labs/gpt/files.js";
import { configOf, task } from "../../web/labs/gpt/induction-run.js";
import { helpers, slicesOf } from "../../web/labs/share.js";
import { messageOf } from "../../web/labs/train-messages.js";

const core = await loadLabs();
const other = await createLabs().then((m) => ({ ...wrap(m), ...labsOf(m) }));
const { config } = await readConfig();
const streams = await readStreams();

const bits = (params) => new Uint32Array(params.buffer.slice(0));
const sameBits = (a, b, what) => {
  const x = bits(a);
  const y = bits(b);
  assert.equal(x.length, y.length, what);
  const at = x.findIndex((v, i) => v !== y[i]);
  assert.equal(at, -1, `${what}: parameter ${at} differs (${a[at]} against ${b[at]})`);
};

// One step of `trainer` in slices of `size` sequences, each computed by `by` from the step's
// batch and weights, added in order; the step's loss.
function stepApart(trainer, size, by) {
  const { tokens, targets, done } = trainer.batch();
  const T = trainer.config.context;
  const B = tokens.length / T;
  const params = trainer.params();
  let loss;
  for (let s = done; s < B; s += size) {
    const n = Math.min(size, B - s);
    const part = (a) => a.subarray(s * T, (s + n) * T);
    const slicer = by.gptSlicer({ config: trainer.config, params });
    const slice = slicer.gradient(part(tokens), part(targets), { sequences: n });
    slicer.close();
    loss = trainer.add(n, slice).loss;
  }
  return loss;
}

for (const [name, open, size] of [
  ["the Tang model", (c) => c.gptTrainer(config, streams.train, { batch: 4, total: 20 }), 1],
  ["the induction task", (c) => c.inductionTrainer(configOf(1), task, { batch: 32, total: 20 }), 8],
]) {
  test(`${name}: slices computed in another core and added in order are the trainer's steps, bit for bit`, () => {
    const alone = open(core);
    const shared = open(core);
    for (let step = 1; step <= 3; step += 1) {
      let loss;
      while (loss === undefined) loss = alone.slice(size).loss;
      const apart = stepApart(shared, size, other);
      assert.equal(Object.is(apart, loss), true, `step ${step}: loss ${apart} against ${loss}`);
      sameBits(shared.params(), alone.params(), `after step ${step}`);
    }
    // a step begun by the trainer's own slice and finished by slices from elsewhere
    alone.slice(size);
    shared.slice(size);
    let loss;
    while (loss === undefined) loss = alone.slice(size).loss;
    assert.equal(stepApart(shared, size, other), loss);
    sameBits(shared.params(), alone.params(), "after a step begun here and ended apart");
    alone.close();
    shared.close();
  });
}

test("a slice added wrong is refused by name, and the step stays as it was", () => {
  const t = core.gptTrainer(config, streams.train, { batch: 2, total: 5 });
  const params = t.params();
  const { tokens, targets } = t.batch();
  const T = config.context;
  const slicer = core.gptSlicer({ config, params });
  const slice = slicer.gradient(tokens.subarray(0, T), targets.subarray(0, T));
  assert.throws(() => t.add(3, slice), /sequences is 3/);
  assert.throws(() => t.add(0, slice), /sequences must be a whole number of at least 1, not 0/);
  assert.throws(
    () => t.add(1, { loss: slice.loss, gradients: slice.gradients.subarray(1) }),
    new RegExp(
      `gradients has ${params.length - 1} numbers but the model has ${params.length} parameters`,
    ),
  );
  const bad = slice.gradients.slice();
  bad[5] = Infinity;
  assert.throws(() => t.add(1, { loss: slice.loss, gradients: bad }), /a gradient overflows/);
  assert.throws(() => t.add(1, { loss: "1", gradients: slice.gradients }), /loss must be a number/);
  assert.throws(
    () => slicer.gradient(tokens.subarray(0, T), targets.subarray(0, T - 1)),
    /targets/,
  );
  assert.throws(() => core.gptSlicer({ config, params: params.subarray(1) }), /params has/);
  // none of that changed the step: it ends as one that never saw them
  const fresh = core.gptTrainer(config, streams.train, { batch: 2, total: 5 });
  let loss;
  while (loss === undefined) loss = fresh.slice(1).loss;
  t.add(1, slice);
  const last = slicer.gradient(tokens.subarray(T), targets.subarray(T));
  slicer.close();
  assert.equal(t.add(1, last).loss, loss);
  assert.throws(() => slicer.gradient(tokens.subarray(T), targets.subarray(T)), /no slicer/);
  sameBits(t.params(), fresh.params(), "after the refusals");
  t.close();
  fresh.close();
});

// A helper in this process, as a Worker of train-worker.js answers (its `helped`): slicesOf in
// another instance of the core, answered on a later turn; `fail` makes the first helper's nth
// answer an error event instead, as a worker that stops.
function inProcess(made, { fail } = {}) {
  return () => {
    let answered = 0;
    const first = made.length === 0;
    const helper = {
      terminated: false,
      postMessage(message) {
        setTimeout(() => {
          if (helper.terminated) return;
          answered += 1;
          if (first && answered === fail) return helper.onerror({ message: "stopped" });
          const results = slicesOf(other, message);
          helper.onmessage({
            data: messageOf("out", "slices", "done", { work: message.work, results }),
          });
        }, 1);
      },
      terminate() {
        helper.terminated = true;
      },
    };
    made.push(helper);
    return helper;
  };
}

test("a run shared by 1, 2 and 3 workers (share.js) has the bits of the trainer alone", async () => {
  const run = async (workers, options = {}) => {
    const made = [];
    const heard = [];
    const share = helpers(inProcess(made, options), (n) => heard.push(n));
    share.use(workers);
    const t = core.inductionTrainer(configOf(1), task, { batch: 32, total: 20 });
    const losses = [];
    for (let step = 0; step < 4; step += 1) losses.push((await share.step(core, t, 8)).loss);
    const params = t.params();
    t.close();
    return { losses, params, heard, made };
  };
  const alone = core.inductionTrainer(configOf(1), task, { batch: 32, total: 20 });
  const want = [];
  while (want.length < 4) {
    const { loss } = alone.slice(8);
    if (loss !== undefined) want.push(loss);
  }
  for (const workers of [1, 2, 3]) {
    const got = await run(workers);
    assert.deepEqual(got.losses, want, `${workers} workers: the losses`);
    sameBits(got.params, alone.params(), `${workers} workers`);
    assert.equal(got.made.length, workers - 1, `${workers} workers: the helpers started`);
  }
  // a helper that stops at its second answer: its slices are computed here, the same bits, and
  // the page hears that one worker fewer shares the steps
  const broken = await run(3, { fail: 2 });
  sameBits(broken.params, alone.params(), "with a helper that stopped");
  assert.deepEqual(broken.heard, [3, 2]);
  // fewer workers asked for while a step is shared (the learner's choice mid-run): the helpers
  // let go have their slices computed here, and the steps after take the new count
  {
    const made = [];
    const heard = [];
    const share = helpers(inProcess(made), (n) => heard.push(n));
    share.use(3);
    const t = core.inductionTrainer(configOf(1), task, { batch: 32, total: 20 });
    const losses = [];
    for (let step = 0; step < 4; step += 1) {
      const pending = share.step(core, t, 8);
      if (step === 1) share.use(1);
      if (step === 2) share.use(2);
      losses.push((await pending).loss);
    }
    assert.deepEqual(losses, want, "with the count changed mid-step");
    sameBits(t.params(), alone.params(), "with the count changed mid-step");
    assert.deepEqual(heard, [3, 1, 2]);
    assert.equal(made.filter((h) => !h.terminated).length, 1, "one helper left running");
    t.close();
  }
  // where no helper can start, the worker trains alone, and says so
  const share = helpers(
    () => {
      throw new Error("no Worker here");
    },
    () => {},
  );
  share.use(4);
  assert.equal(share.using(), 1);
  alone.close();
});
