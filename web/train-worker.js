// train-worker.js: the labs' training in a Web Worker, where the page is served over http(s)
// (web/labs/worker.js starts it; the bundle builds it into generated/train-worker.js). The same
// core, the same seeded trainers and the same slices as the labs' own loops on the page, so the
// same numbers to the last bit; off the page's thread, so that its frames stay smooth. Its
// messages, in and out, are declared in labs/train-messages.js: the induction lab's (8 sequences
// a slice, as induction-run.js), the real model's "Train it yourself" and the own-text lab's (a
// sequence a slice, train-state.js's sliceOf), and the memory asked for by long-run.test.mjs.
import { loadLabs } from "./attention.js";
import { configOf, every, held, task, training } from "./labs/gpt/induction-run.js";
import { sliceOf } from "./labs/gpt/train-state.js";
import { kindOf, messageOf } from "./labs/train-messages.js";

const ready = loadLabs();
// A message of `kind` to the page for `lab`, with `fields`: refused unless declared.
const post = (lab, kind, fields, transfer) =>
  postMessage(messageOf("out", lab, kind, fields), transfer);
const budgetMs = 50; // the steps taken between two looks at the messages

// ---- the induction lab ----

const trainers = {}; // by layers: { trainer, steps }
let running; // the layers whose run goes on, or undefined
let current = 0; // the one loop that may go on: a Stop and a Start in a row never make two
let batch; // the held-out sequences

function inductionLoop(core, id) {
  const layers = running;
  if (layers === undefined || id !== current) return;
  const t = trainers[layers];
  const began = performance.now();
  const losses = [];
  let kept = false;
  while (performance.now() - began < budgetMs && t.steps < training.total) {
    const r = t.trainer.slice(8);
    if (r.loss === undefined) continue;
    losses.push(r.loss);
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
    running = undefined;
    post("induction", "done", { layers, done: true });
    return;
  }
  setTimeout(() => inductionLoop(core, id), 0);
}

// A message of `kind` from the induction lab.
function induction(core, data, kind) {
  batch ??= core.inductionBatch(task, { batch: held.batch, seed: held.seed });
  if (kind === "stop") {
    running = undefined;
    current += 1;
  }
  if (kind === "reset") {
    trainers[data.reset]?.trainer.close();
    delete trainers[data.reset];
  }
  if (kind === "run") {
    trainers[data.run] ??= {
      trainer: core.inductionTrainer(configOf(data.run), task, training),
      steps: 0,
    };
    running = data.run;
    current += 1;
    inductionLoop(core, current);
  }
}

// ---- a model of its own trainer: the real model's "Train it yourself", the own-text lab ----

const models = {}; // by lab: { trainer, config, heldOut, total, steps, running, loop }

const sendParams = (lab) => {
  const params = models[lab].trainer.params();
  post(lab, "weights", { params, at: models[lab].steps }, [params.buffer]);
};

function modelLoop(core, lab, id) {
  const m = models[lab];
  if (!m?.running || id !== m.loop) return;
  const began = performance.now();
  const losses = [];
  const measures = [];
  let failed;
  while (performance.now() - began < budgetMs && m.steps < m.total) {
    const r = sliceOf(core, m.trainer, m.config, m.heldOut, m.steps);
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
  if (measures.length) sendParams(lab);
  if (m.steps >= m.total) {
    m.running = false;
    post(lab, "done", { done: true });
    return;
  }
  setTimeout(() => modelLoop(core, lab, id), 0);
}

// A message of `kind` from the real model's lab or the own-text lab.
function model(core, data, kind) {
  const { lab } = data;
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
    m.loop += 1;
    sendParams(lab);
    post(lab, "stopped", { stopped: true });
  }
  if (kind === "run") {
    m.running = true;
    m.loop += 1;
    modelLoop(core, lab, m.loop);
  }
}

onmessage = async ({ data }) => {
  const kind = kindOf("in", data);
  const core = await ready;
  if (data.lab === "induction") induction(core, data, kind);
  if (data.lab === "gpt" || data.lab === "text") model(core, data, kind);
  if (data.lab === "memory") post("memory", "memory", core.memory());
};
