// induction-worker.js: the induction lab's training in a Web Worker, where the page is
// served over http(s) (induction-run.js starts it; the bundle builds it into
// generated/induction-worker.js). The same core, the same seeded trainer and the same slices of
// 8 sequences as the page's own loop, so the same numbers to the last bit; off the page's thread,
// so that its frames stay smooth. Messages in: { run: layers } starts or resumes that run,
// { stop: true } pauses it, { reset: layers } forgets it. Out: { layers, losses, step } as it
// goes, { layers, kept: step, params, scores } at every kept step, { layers, done: true }.
import { loadLabs } from "./attention.js";
import { configOf, every, held, task, training } from "./labs/gpt/induction-run.js";

const trainers = {}; // by layers: { trainer, steps }
let running; // the layers whose run goes on, or undefined
let current = 0; // the one loop that may go on: a Stop and a Start in a row never make two
let batch; // the held-out sequences

const post = (message, transfer) => postMessage(message, transfer);

function loop(core, id) {
  const layers = running;
  if (layers === undefined || id !== current) return;
  const t = trainers[layers];
  const began = performance.now();
  const losses = [];
  let kept = false;
  // about 50 ms of steps between two looks at the messages
  while (performance.now() - began < 50 && t.steps < training.total) {
    const r = t.trainer.slice(8);
    if (r.loss === undefined) continue;
    losses.push(r.loss);
    t.steps += 1;
    if (t.steps % every === 0) {
      kept = true;
      break;
    }
  }
  post({ layers, losses, step: t.steps });
  if (kept) {
    const params = t.trainer.params();
    const scores = core.inductionScores({ config: configOf(layers), params }, batch);
    post({ layers, kept: t.steps, params, scores }, [params.buffer]);
  }
  if (t.steps >= training.total) {
    running = undefined;
    post({ layers, done: true });
    return;
  }
  setTimeout(() => loop(core, id), 0);
}

const ready = loadLabs().then((core) => {
  batch = core.inductionBatch(task, { batch: held.batch, seed: held.seed });
  return core;
});

onmessage = async ({ data }) => {
  const core = await ready;
  if (data.stop) {
    running = undefined;
    current += 1;
  }
  if (data.reset !== undefined) {
    trainers[data.reset]?.trainer.close();
    delete trainers[data.reset];
  }
  if (data.run !== undefined) {
    trainers[data.run] ??= {
      trainer: core.inductionTrainer(configOf(data.run), task, training),
      steps: 0,
    };
    running = data.run;
    current += 1;
    loop(core, current);
  }
};
