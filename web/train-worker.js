// train-worker.js: the labs' training in a Web Worker, where the page is served over http(s)
// (web/labs/worker.js starts it; the bundle builds it into generated/train-worker.js). The same
// core, the same seeded trainers and the same slices as the labs' own loops on the page, so the
// same numbers to the last bit; off the page's thread, so that its frames stay smooth. Its
// messages, in and out, are declared in labs/train-messages.js: the induction lab's (8 sequences
// a slice, as induction-run.js), the real model's "Train it yourself" and the own-text lab's (a
// sequence a slice, train-state.js's sliceOf), and the memory asked for by long-run.test.mjs.
// Where the page asks for more workers (the labs' control), each step is shared with helpers,
// workers of this same script that compute slices of it (labs/share.js), the same bits. Messages
// are handled one after another; one that stops or starts a run waits for a step under way.
import { loadLabs } from "./attention.js";
import { configOf, every, held, task, training } from "./labs/gpt/induction-run.js";
import { failedAt, measured, sliceOf } from "./labs/gpt/train-state.js";
import { helpers, slicesOf } from "./labs/share.js";
import { kindOf, messageOf } from "./labs/train-messages.js";

const ready = loadLabs();
// A message of `kind` to the page for `lab`, with `fields`: refused unless declared.
const post = (lab, kind, fields, transfer) =>
  postMessage(messageOf("out", lab, kind, fields), transfer);
const budgetMs = 50; // the steps taken between two looks at the messages

// A worker of this same script, as a helper; an error where workers cannot start workers.
const spawn = () => new Worker(globalThis.location.href, { type: "module" });
const share = helpers(spawn, (using) => post("workers", "using", { using }));

// ---- the induction lab ----

const trainers = {}; // by layers: { trainer, steps }
let running; // the layers whose run goes on, or undefined
let current = 0; // the one loop that may go on: a Stop and a Start in a row never make two
let batch; // the held-out sequences
let busy; // the induction loop's turn under way

// The next step's loss, or undefined while the step goes on: on this worker alone, a slice of 8
// sequences; shared with helpers, the whole step.
async function inductionSlice(core, trainer) {
  if (share.using() > 1) return (await share.step(core, trainer, 8)).loss;
  return trainer.slice(8).loss;
}

async function inductionLoop(core, id) {
  const layers = running;
  if (layers === undefined || id !== current) return;
  const t = trainers[layers];
  const began = performance.now();
  const losses = [];
  let kept = false;
  while (performance.now() - began < budgetMs && t.steps < training.total && id === current) {
    const loss = await inductionSlice(core, t.trainer);
    if (loss === undefined) continue;
    losses.push(loss);
    t.steps += 1;
    if (t.steps % every === 0) {
      kept = true;
      break;
    }
  }
  post("induction", "slice", { layers, losses, step: t.steps });
  if (kept) {
    const params = t.trainer.params();
    const scores = core.inductionScores({ config: configOf(layers), params }, batch);
    post("induction", "kept", { layers, kept: t.steps, params, scores }, [params.buffer]);
  }
  if (t.steps >= training.total) {
    if (running === layers) running = undefined;
    post("induction", "done", { layers, done: true });
    return;
  }
  if (id === current) setTimeout(() => (busy = inductionLoop(core, id)), 0);
}

// A message of `kind` from the induction lab.
async function induction(core, data, kind) {
  batch ??= core.inductionBatch(task, { batch: held.batch, seed: held.seed });
  current += 1; // every message stops the loop under way, which ends its step first
  await busy;
  if (kind === "stop") {
    post("induction", "stopped", { layers: running ?? 0, stopped: true });
    running = undefined;
  }
  if (kind === "reset") {
    trainers[data.reset]?.trainer.close();
    delete trainers[data.reset];
    if (running === data.reset) running = undefined;
    if (running !== undefined) busy = inductionLoop(core, current);
  }
  if (kind === "run") {
    trainers[data.run] ??= {
      trainer: core.inductionTrainer(configOf(data.run), task, training),
      steps: 0,
    };
    running = data.run;
    busy = inductionLoop(core, current);
  }
}

// ---- a model of its own trainer: the real model's "Train it yourself", the own-text lab ----

const models = {}; // by lab: { trainer, config, heldOut, total, steps, running, loop, busy }

const sendParams = (lab) => {
  const params = models[lab].trainer.params();
  post(lab, "weights", { params, at: models[lab].steps }, [params.buffer]);
};

// The run's next slice, as sliceOf gives it: on this worker alone, a sequence; shared with
// helpers, the rest of the step.
async function modelSlice(core, m) {
  if (share.using() === 1) return sliceOf(core, m.trainer, m.config, m.heldOut, m.steps);
  let r;
  try {
    r = await share.step(core, m.trainer, 1);
  } catch (error) {
    return failedAt(m.steps, error);
  }
  return measured(core, m.trainer, m.config, m.heldOut, m.steps, r);
}

async function modelLoop(core, lab, id) {
  const m = models[lab];
  if (!m?.running || id !== m.loop) return;
  const began = performance.now();
  const losses = [];
  const measures = [];
  let failed;
  while (performance.now() - began < budgetMs && m.steps < m.total && id === m.loop) {
    const r = await modelSlice(core, m);
    if (r.failed) {
      failed = r.failed;
      break;
    }
    if (r.loss === undefined) continue;
    losses.push(r.loss);
    m.steps = r.step;
    if (r.measure) {
      measures.push(r.measure);
      break;
    }
  }
  post(lab, "slice", { losses, step: m.steps, measures });
  if (failed) {
    m.running = false;
    // the weights now, as on the page: after the step whose loss was not finite (its update
    // was made), or before the step the core refused
    const params = m.trainer.params();
    post(lab, "weights", { params, at: failed.error ? m.steps : failed.step }, [params.buffer]);
    post(lab, "failed", { failed });
    return;
  }
  if (id !== m.loop) return; // stopped while a step was shared: Stop sends the weights
  if (measures.length) sendParams(lab);
  if (m.steps >= m.total) {
    m.running = false;
    post(lab, "done", { done: true });
    return;
  }
  setTimeout(() => (m.busy = modelLoop(core, lab, id)), 0);
}

// A message of `kind` from the real model's lab or the own-text lab.
async function model(core, data, kind) {
  const { lab } = data;
  if (models[lab]) {
    models[lab].loop += 1; // every message stops the loop under way, which ends its step first
    await models[lab].busy;
  }
  if (kind === "reset") {
    models[lab]?.trainer.close();
    delete models[lab];
  }
  if (kind === "open") {
    const { config, train, heldOut, options } = data.open;
    models[lab]?.trainer.close();
    const trainer = core.gptTrainer(config, train, options);
    models[lab] = {
      trainer,
      config,
      heldOut,
      total: options.total,
      steps: 0,
      running: false,
      loop: 0,
    };
  }
  const m = models[lab];
  if (!m) return;
  if (kind === "stop") {
    m.running = false;
    sendParams(lab);
    post(lab, "stopped", { stopped: true });
  }
  if (kind === "run" || (kind !== "stop" && m.running)) {
    m.running = true;
    m.busy = modelLoop(core, lab, m.loop);
  }
}

// A helper's work: slices of a step that another worker's trainer adds (labs/share.js).
function helped(core, data) {
  const { work } = data;
  try {
    const results = slicesOf(core, data);
    const buffers = results.map((r) => r.gradients.buffer);
    post("slices", "done", { work, results }, buffers);
  } catch (error) {
    post("slices", "failed", { work, error: error.message });
  }
}

// One message after another: a handler that waits for a step under way holds the next.
let queue = Promise.resolve();
const handle = async (data) => {
  const kind = kindOf("in", data);
  const core = await ready;
  if (data.lab === "induction") await induction(core, data, kind);
  if (data.lab === "gpt" || data.lab === "text") await model(core, data, kind);
  if (data.lab === "memory") post("memory", "memory", core.memory());
  if (data.lab === "workers") share.use(data.use);
  if (data.lab === "slices") helped(core, data);
};
onmessage = ({ data }) => {
  const handled = queue.then(() => handle(data));
  queue = handled.catch(() => {}); // a message refused does not hold the ones after it
  return handled;
};
