// labs/gpt/train-panels.js: what a model lab's trainer (train.js) draws, each a function of the
// run's state (train-state.js): the status sentence, the moment a screen reader hears about,
// Start's label, the loss curves with their table, the chosen head on the learner's line, and
// before a run here the shipped run's curves.
import { el, heatmapView } from "../../views.js";
import { fmt } from "../../format.js";
import { numbers } from "../kit.js";
import { levels } from "./meaning.js";
import { lossPlot } from "./plot.js";
import { evalEvery, finished } from "./train-state.js";

const announceEvery = 500; // steps between two announcements to a screen reader while it trains
const tableEvery = 250; // the held-out table: steps 1 and evalEvery, every tableEvery-th, the latest
const shippedEvery = 500; // the shipped run's table: its first measure, then every shippedEvery-th

/**
 * The sentence of where a run is (`run` as train-state.js keeps it, undefined before a start):
 * its step of json.training.steps, its steps per second and the time left at that rate on its
 * clock, its last training loss and its latest held-out measure; or loaded, or failed.
 */
export function runStatus(run, json, msg) {
  const w = msg.gptLab;
  if (!run) return w.notStarted;
  const { failed, loaded } = run;
  if (loaded) return w.loadedStatus(loaded, run.at, fmt(run.heldOut[0][1], 3));
  if (failed)
    return w.trainFailed(failed.step, failed.error ? msg.coreError(failed.error) : w.notFinite);
  const n = run.losses.length;
  // steps per second of the clock while it ran, and the seconds left at that rate (timings,
  // not numbers of the model's)
  const wall = run.clock.read();
  const rate = wall > 0 ? (n / wall) * 1000 : 0;
  const last = run.heldOut.at(-1);
  const left = rate > 0 ? Math.ceil((json.training.steps - n) / rate) : 0; // seconds
  const said = n >= json.training.steps ? w.trainDone : run.running ? w.trainStatus : w.trainPaused;
  return said(
    n,
    json.training.steps,
    fmt(rate, 1),
    n ? fmt(run.losses[n - 1], 3) : "—",
    last ? w.heldAt(fmt(last[1], 3), last[0]) : "—",
    left,
    Math.round(wall / 1000),
  );
}

/**
 * The moment of a run a screen reader hears about: started or resumed, every announceEvery
 * steps while it runs, paused, done. The status on screen changes four times a second; the
 * announcement only when the moment does.
 */
export function momentOf(run, json) {
  if (!run) return "none";
  if (finished(run, json.training.steps)) return "done";
  const n = run.losses.length;
  return run.running ? `running ${Math.floor(n / announceEvery)}` : `paused ${n}`;
}

/**
 * What a screen reader hears at a run's moment (momentOf), `before` the moment it heard last;
 * each true of its moment whenever it is read: started or resumed, the step it goes on from;
 * every announceEvery steps, that step's losses (the latest held-out measure up to it); paused,
 * done, failed or loaded, the status.
 */
export function announcement(run, json, msg, before) {
  const w = msg.gptLab;
  if (!run?.running) return runStatus(run, json, msg);
  const n = run.losses.length;
  const total = json.training.steps;
  if (!before?.startsWith("running") || n < announceEvery) {
    return w.trainFrom(n, total, announceEvery);
  }
  const at = Math.floor(n / announceEvery) * announceEvery;
  const held = run.heldOut.filter(([s]) => s <= at).at(-1);
  return w.trainPassed(
    at,
    total,
    fmt(run.losses[at - 1], 3),
    held ? w.heldAt(fmt(held[1], 3), held[0]) : "—",
  );
}

/** Start's label: Start, Training (pressed), Resume, or Again once the run has ended. */
export function startLabel(run, json, w) {
  if (run && finished(run, json.training.steps)) return w.again;
  return run?.running ? w.running : run ? w.resume : w.start;
}

/**
 * The held-out measures ([[step, loss]]) the table keeps: steps up to evalEvery, every
 * tableEvery-th, the latest, and the lowest (a sentence may cite it: text.js, memorising).
 */
export function heldOutRows(held) {
  const lowest = Math.min(...held.map(([, y]) => y));
  return held.filter(
    ([s, y], k) => s <= evalEvery || s % tableEvery === 0 || k === held.length - 1 || y === lowest,
  );
}

// The ticks of a plot of `steps` steps: about six round ones.
function stepTicks(steps) {
  const tick = [10, 50, 100, 500, 1000].find((s) => steps / s <= 6) ?? 1000;
  return Array.from({ length: Math.floor(steps / tick) + 1 }, (_, i) => i * tick);
}

/**
 * The plot of a run's training losses (every tenth step) and held-out losses, beside the
 * held-out losses of the other models (and, for the real model, of the shipped weights): the
 * lab's `source` (train.js) names its id, its title and its lines.
 */
export function curves(run, source, shipped, msg, digits) {
  const w = msg.gptLab;
  const train = run.losses.map((y, t) => [t + 1, y]).filter(([t]) => t % 10 === 0 || t === 1);
  const held = run.heldOut;
  return lossPlot({
    id: `${source.id}-plot`,
    title: source.title(shipped, msg),
    xLabel: w.stepAxis,
    yLabel: w.lossAxis,
    // as far as the last step trained or measured (weights loaded: only their step's measure)
    xTicks: stepTicks(Math.max(10, run.losses.length, held.at(-1)?.[0] ?? 0)),
    series: [
      { label: w.trainLoss, points: train },
      { label: w.heldOutLoss, points: held },
    ],
    levels: source.levels(shipped, msg),
    levelsKey: w.levelsKey,
    // the table keeps it short, and its title says which steps it keeps
    table: numbers(
      "why-numbers",
      w.heldOutTable(evalEvery, tableEvery),
      [w.heldOutLoss],
      heldOutRows(held).map(([s, y]) => [w.stepName(s), fmt(y, digits)]),
    ),
  });
}

/** The chosen head on the line, with the weights shown: `now` is { model, at } (train.js). */
export function headNow(core, now, { trace, state, msg }) {
  const { model, at } = now;
  if (!model.params) return el("p", { text: msg.gptLab.notStarted });
  let f;
  try {
    f = core.gptForward(model, trace.tokens);
  } catch (error) {
    // the weights of a run that diverged may be too large to read a line with
    return el("p", { text: msg.coreError(error.message) });
  }
  const weights = f.layers[state.layer - 1].weights[state.head - 1];
  const title = msg.gptLab.headNow(msg.gptLab.where(state.layer, state.head), at);
  const figure = heatmapView(weights, trace.rows, trace.rows, {
    digits: 2,
    title,
    legend: msg.views.legend,
    masked: (i, j) => j > i,
  });
  // a long line's heatmap scrolls sideways on a phone: from the keyboard too
  const scroller = figure.querySelector(".scroll");
  scroller.tabIndex = 0;
  scroller.setAttribute("aria-label", title);
  return figure;
}

/** Before a run here: the same plot of the run that made the shipped weights (tang.json's
 * curve, measured by make train every 100 steps). */
export function shippedCurves({ json, baselines }, msg, digits) {
  const w = msg.gptLab;
  const { curve, training } = json;
  return lossPlot({
    id: "shipped-plot",
    title: w.shippedPlot(training.steps, curve[0].step),
    xLabel: w.stepAxis,
    yLabel: w.lossAxis,
    xTicks: stepTicks(training.steps),
    series: [
      { label: w.trainLoss, points: curve.map((c) => [c.step, c.train]) },
      { label: w.heldOutLoss, points: curve.map((c) => [c.step, c.heldOut]) },
    ],
    levels: levels(json, baselines, w),
    levelsKey: w.levelsKey,
    table: numbers(
      "why-numbers",
      w.shippedTable(curve[0].step, shippedEvery),
      [w.trainLoss, w.heldOutLoss],
      curve
        .filter((c) => c.step % shippedEvery === 0 || c.step === curve[0].step)
        .map((c) => [w.stepName(c.step), fmt(c.train, digits), fmt(c.heldOut, digits)]),
    ),
  });
}
