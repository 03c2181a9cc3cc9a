// labs/gpt/train-state.js: a model lab's training run as plain data (train.js keeps one per lab)
// and the functions that change it, with no DOM and no worker: a run opened or loaded from files,
// started, a slice's result, the worker's weights, Stop pressed, stopped, hidden, done or failed.
// The clock is the run's stopwatch (stopwatch.js). Also the slice of a step that the labs' worker
// and the page both take (sliceOf).
import { stopwatch } from "./stopwatch.js";

/** Steps between two held-out losses. */
export const evalEvery = 50;

/**
 * One sequence of a run's step, as the worker and the page take it: { step, loss? (when the
 * step ended), measure?: [step, held-out loss] (at step 1 and every evalEvery steps) }; or
 * { failed: { step, error? } } when the core refuses it or a loss is not a finite number: a run
 * that diverged ends there, and nothing that is not finite is kept.
 */
export function sliceOf(core, trainer, config, heldOut, step) {
  let r;
  try {
    r = trainer.slice(1);
  } catch (error) {
    return failedAt(step, error);
  }
  return measured(core, trainer, config, heldOut, step, r);
}

/** A step the core refused (with its error) or whose loss was not finite, from `step`. */
export const failedAt = (step, error) => ({
  failed: { step: step + 1, ...(error && { error: error.message }) },
});

/**
 * The trainer's slice result `r` ({ step, loss? }) from `step`, as sliceOf gives it: measured
 * on the held-out text when it ends a step that is measured, failed when a loss is not finite.
 * The labs' worker gives it a step its helpers shared.
 */
export function measured(core, trainer, config, heldOut, step, r) {
  if (r.loss === undefined) return { step: r.step };
  if (!Number.isFinite(r.loss)) return failedAt(step);
  if (r.step % evalEvery !== 0 && r.step !== 1) return r;
  let held;
  try {
    held = core.gptStreamLoss({ config, params: trainer.params() }, heldOut);
  } catch (error) {
    return failedAt(step, error);
  }
  return Number.isFinite(held) ? { ...r, measure: [r.step, held] } : failedAt(step);
}

/**
 * A run of `shipped`'s model at step 0: { shipped, worker: whether the labs' worker trains it,
 * losses: every step's training loss, heldOut: [[step, loss]], running, clock: the stopwatch of
 * the time it trained }. Later: params and at (the weights the worker last sent and their step),
 * stopping (Stop pressed, the worker not yet stopped), hiding (paused while the tab is hidden),
 * failed ({ step, error? }), announced (the moment last said to a screen reader).
 */
export const opened = (shipped, worker, clock = stopwatch()) => ({
  shipped,
  worker,
  losses: [],
  heldOut: [],
  running: false,
  clock,
});

/**
 * Weights from a model's files, trained `at` steps, in place of a run: a run that has ended
 * (Start trains anew), loaded: its name, its held-out loss measured on this text.
 */
export const loaded = (shipped, params, at, heldOut, name, clock = stopwatch()) => ({
  shipped,
  loaded: name,
  params,
  at,
  losses: [],
  heldOut: [[at, heldOut]],
  clock,
});

// The worker's run: its clock runs while it trains and the tab shows.
function tick(run) {
  if (run.running && !run.hiding) run.clock.run();
  else run.clock.pause();
}

/** Start or Resume: the run goes on. The worker's clock runs from now; the page's at its frames. */
export function started(run) {
  run.running = true;
  if (run.worker) run.clock.run();
}

/** A slice's result: its steps' training losses and the held-out measures among them. */
export function sliced(run, losses, measures) {
  run.losses.push(...losses);
  run.heldOut.push(...measures);
  if (run.worker) tick(run);
}

/** The weights the worker sent, trained `at` steps. */
export function weighed(run, params, at) {
  [run.params, run.at] = [params, at];
  tick(run);
}

/**
 * Stop pressed, or the panel gone: the page's run stops; the worker's is stopping until the
 * worker says it stopped (a slice in flight still comes in). True when the worker is to be told.
 */
export function stopPressed(run) {
  if (run.worker && run.running) {
    run.stopping = true;
    return true;
  }
  run.running = false;
  return false;
}

/** The worker stopped: the run is paused, unless only the tab hid it. */
export function stopped(run) {
  run.stopping = false;
  if (!run.hiding) run.running = false;
  tick(run);
}

/** The run ended: all its steps done, or `failed` ({ step, error? }) when it failed. */
export function ended(run, failed) {
  run.failed = failed;
  run.running = false;
  tick(run);
}

/** The tab hidden or shown while the worker's run goes on; true when the worker is to be told. */
export function hid(run, hidden) {
  if (!run.worker || !run.running) return false;
  run.hiding = hidden;
  tick(run);
  return true;
}

/** Whether the run has ended: all `steps` done, failed, or weights loaded in its place. */
export const finished = (run, steps) => run.losses.length >= steps || !!run.failed || !!run.loaded;
