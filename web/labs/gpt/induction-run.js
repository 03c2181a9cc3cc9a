// labs/gpt/induction-run.js: the induction lab's training, in this tab, by the core in WASM.
// One run per number of layers (1 or 2), seeded, so a run started again is the same run. Where
// the page is served over http(s) the steps are taken in the labs' Web Worker
// (web/train-worker.js, its messages declared in labs/train-messages.js), off the page's thread;
// elsewhere, or if the worker cannot start, here, a few sequences at a time (gpt_train_slice)
// between frames. Both take a step 8 sequences at a time, so their numbers are the same to the
// last bit. Every `every` steps the run keeps its weights (the lab's slider shows any of them)
// and their measures on the held-out sequences (induction_scores). A hidden tab pauses the run;
// the time shown is the clock's while it ran. The setup is docs/model.md's "The induction
// head", whose native test holds what it learns.

import { listen, tell, trainWorker } from "../worker.js";
import { stopwatch } from "./stopwatch.js";

/** The task: V = 32 tokens, sequences of 20, a segment of 3 to 10 tokens repeated once. */
export const task = { vocab: 32, context: 20, minSegment: 3, maxSegment: 10 };

/** Attention-only blocks of one head, RoPE base 100, d_model 64: 1 or 2 layers. */
export const configOf = (layers) => ({
  vocab: task.vocab,
  context: task.context,
  dModel: 64,
  layers,
  heads: 1,
  base: 100,
  mlp: false,
});

/** AdamW without weight decay, 32 sequences a step, 1,000 steps; seed 1 (batches from seed 2). */
export const training = { batch: 32, lr: 1e-3, total: 1000, seed: 1 };

/** The held-out sequences every measure reads: 128 of seed 99 (training draws from seed 2). */
export const held = { batch: 128, seed: 99 };

/** Steps between two kept weights and measures. */
export const every = 25;

const sliceSequences = 8; // a quarter of a step at a time
const sliceMs = 12; // the work done between two frames, when the steps are taken here

// by layers: { layers, trainer (here) , kept: Map step → params, scores: Map step → the held-out
// scores, losses: the training loss of every step, last: the last step kept, running, clock:
// the stopwatch of the time it trained, drop }
const runs = {};
let heldBatch; // the held-out sequences, drawn once
let listener; // (run, kept) => void: told as the run goes, and when it stops
let listening = false; // whether this lab hears the worker yet

/** The held-out sequences (one batch of `held.batch`), drawn by the core once. */
export function heldOut(core) {
  heldBatch ??= core.inductionBatch(task, { batch: held.batch, seed: held.seed });
  return heldBatch;
}

/** The run for `layers`, or undefined before it starts. */
export const runOf = (layers) => runs[layers];

/** The last step whose weights are kept: 0 before training (the seeded random weights). */
export const trainedTo = (layers) => runs[layers]?.last ?? 0;

/** The step shown: the slider's `at`, within what the run has kept. */
export const shownStep = (state) => Math.min(state.at, trainedTo(state.layers));

/** The ms on the clock while the run ran. */
export const wallOf = (run) => run.clock.read();

// A run at step 0: its trainer, with the seeded random weights kept and measured.
function open(core, layers) {
  const config = configOf(layers);
  const trainer = core.inductionTrainer(config, task, training);
  const run = { layers, trainer, kept: new Map(), scores: new Map(), losses: [], last: 0 };
  run.running = false;
  run.clock = stopwatch();
  keep(core, run, 0, trainer.params());
  return run;
}

// Keeps the weights at `step` and their measures (measured here when not given); the first
// measure with the repeated half's loss under half of ln V is the step in the loss: when it came,
// on the clock.
function keep(core, run, step, params, measured) {
  const scores =
    measured ?? core.inductionScores({ config: configOf(run.layers), params }, heldOut(core));
  run.kept.set(step, params);
  run.scores.set(step, scores);
  run.last = step;
  if (!run.drop && scores.repeatLoss < Math.log(task.vocab) / 2) {
    run.drop = { step, wall: wallOf(run) };
  }
}

/** The run's model at a kept step; at step 0 without a run, the seeded random weights. */
export function modelAt(core, layers, step) {
  runs[layers] ??= open(core, layers);
  return { config: configOf(layers), params: runs[layers].kept.get(step) };
}

/** The held-out scores at a kept step (firstLoss, repeatLoss, previous, induction). */
export function scoresAt(core, layers, step) {
  runs[layers] ??= open(core, layers);
  return runs[layers].scores.get(step);
}

/** Whether a run (as kept here) has done all its steps. */
export const runDone = (run) => (run?.last ?? 0) >= training.total;

/** Whether the run for `layers` has done all its steps. */
export const finished = (layers) => runDone(runs[layers]);

// The labs' worker where there is one (labs/worker.js), told what this lab hears from it.
function workerFor(core) {
  if (!trainWorker()) return null;
  if (!listening) {
    listening = true;
    listen("induction", {
      message: (data, kind) => heard(core, data, kind),
      // what the worker did is gone with it: a running run starts again here, from step 0
      failed: () => {
        for (const [layers, run] of Object.entries(runs)) {
          if (!run?.running) continue;
          run.trainer.close();
          runs[layers] = open(core, Number(layers));
          start(core, Number(layers), listener);
        }
      },
    });
    document.addEventListener("visibilitychange", () => hidden(core));
  }
  return trainWorker();
}

// What the worker says of its run: a message of `kind` (train-messages.js).
function heard(core, data, kind) {
  const run = runs[data.layers];
  if (!run) return;
  if (kind === "slice") run.losses.push(...data.losses);
  if (kind === "kept") keep(core, run, data.kept, data.params, data.scores);
  if (kind === "done") pause(run);
  // Stop pressed: the run is paused once the worker has ended its step (a tab hidden is not)
  if (kind === "stopped" && run.stopping) pause(run);
  listener?.(run, kind === "kept");
}

function pause(run) {
  run.clock.pause();
  run.running = false;
  run.stopping = false;
}

// The run goes on where its steps are taken: in the worker, or here between frames.
function resume(core, run) {
  run.clock.run();
  if (workerFor(core)) {
    tell("induction", "run", { run: run.layers });
    return;
  }
  // one loop at a time: a loop of an earlier Start still waiting for its frame ends there
  const loop = (run.loop ?? 0) + 1;
  run.loop = loop;
  requestAnimationFrame(() => work(core, run, loop));
}

// A hidden tab pauses the running run (frames stop there anyway) and the clock with it; shown
// again, it goes on.
function hidden(core) {
  for (const run of Object.values(runs)) {
    if (!run?.running) continue;
    if (document.hidden) {
      run.clock.pause();
      tell("induction", "stop", { stop: true });
    } else resume(core, run);
  }
}

/** Starts (or resumes) the run for `layers`; a finished run starts again from step 0. */
export function start(core, layers, onChange) {
  if (finished(layers)) {
    runs[layers].trainer.close();
    runs[layers] = undefined;
    if (workerFor(core)) tell("induction", "reset", { reset: layers });
  }
  runs[layers] ??= open(core, layers);
  for (const run of Object.values(runs)) if (run?.running) pause(run);
  const run = runs[layers];
  run.running = true;
  run.stopping = false;
  listener = onChange;
  resume(core, run);
  return run;
}

/**
 * Stops the run for `layers` where it is: here at once; in the worker, it is stopping (still
 * running, Stop pressed) until the worker has ended the step under way and said so, so that the
 * step the page then shows paused is the run's last.
 */
export function stop(layers) {
  const run = runs[layers];
  if (!run?.running || run.stopping) return;
  if (!trainWorker()) return pause(run);
  run.stopping = true;
  tell("induction", "stop", { stop: true });
}

/** Tells `onChange` of the run's progress from now on (a panel drawn again). */
export const follow = (onChange) => (listener = onChange);

// Here, one slice of work a frame: steps, a few sequences at a time, until the time is up or a
// kept step is reached; a kept step's measure gets a frame of its own. `loop` is the Start it
// serves.
function work(core, run, loop) {
  if (!run.running || run.loop !== loop || !run.clock.running()) return;
  const began = performance.now();
  let due = false;
  while (performance.now() - began < sliceMs && run.losses.length < training.total) {
    const r = run.trainer.slice(sliceSequences);
    if (r.loss === undefined) continue;
    run.losses.push(r.loss);
    if (r.step % every === 0) {
      due = true;
      break;
    }
  }
  if (due) {
    requestAnimationFrame(() => {
      keep(core, run, run.losses.length, run.trainer.params());
      if (run.losses.length >= training.total) pause(run);
      listener?.(run, true);
      requestAnimationFrame(() => work(core, run, loop));
    });
    return;
  }
  listener?.(run, false);
  requestAnimationFrame(() => work(core, run, loop));
}

/** Steps per second on the clock while it ran (a timing, not a number of the model's). */
export const rateOf = (run) => {
  const wall = wallOf(run);
  return wall > 0 ? (run.losses.length / wall) * 1000 : 0;
};
