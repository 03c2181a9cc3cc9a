// labs/gpt/train.js: a model trained in this tab: the real model's "Train it yourself" (the
// training `make train` ran natively, run again) and the own-text lab's run (text.js). The same
// core in WASM, from seeded random weights, a sequence at a time (gpt_train_slice): in the labs'
// Web Worker where the page is served over http(s) (labs/worker.js), else here, as many as fit in
// a few milliseconds between frames; the same numbers either way. The page stays responsive.
// The loss curves and the chosen head on the learner's line follow it. One run per lab; it
// stops when its panel goes away, pauses while the tab is hidden, and resumes from where it was.
//
// makeTrainer(source) makes a lab's trainer. source: { lab: the worker's name for it, id: its
// elements' ids' prefix, streams(shipped) → a promise of { train, heldOut }, intro(shipped, msg),
// title(shipped, msg) → the plot's title, levels(shipped, msg) → its labelled lines, before?(shipped,
// msg, digits) → what the panel shows before a run, after?(ctx, shipped, model, at, { losses,
// heldOut }) → what it shows below the head }. shipped: { json: { config, training: { steps, batch, lr, seed } }, … }.
import { el, heatmapView } from "../../views.js";
import { fmt } from "../../format.js";
import { numbers, redrawInPlace, trainerButtons } from "../kit.js";
import { readStreams } from "./files.js";
import { levels } from "./meaning.js";
import { lossPlot } from "./plot.js";
import { listen, tell, trainWorker } from "../worker.js";
import { stopwatch } from "./stopwatch.js";

const sliceMs = 14; // the work done between two frames
const drawMs = 250; // the panel is drawn again at most this often while it trains
/** Steps between two held-out losses. */
export const evalEvery = 50;
const announceEvery = 500; // steps between two announcements to a screen reader while it trains
const tableEvery = 250; // the held-out table: steps 1 and evalEvery, every tableEvery-th, the latest
const shippedEvery = 500; // the shipped run's table: its first measure, then every shippedEvery-th

/**
 * The sentence of where a run is (`run` as makeTrainer keeps it, undefined before a start): its
 * step of json.training.steps, its steps per second and the minutes left at that rate on its
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
  // steps per second of the clock while it ran, and the minutes left at that rate (timings,
  // not numbers of the model's)
  const wall = run.clock.read();
  const rate = wall > 0 ? (n / wall) * 1000 : 0;
  const last = run.heldOut.at(-1);
  const left = rate > 0 ? Math.ceil((json.training.steps - n) / rate / 60) : 0;
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
 * The held-out measures ([[step, loss]]) the table keeps: steps up to evalEvery, every
 * tableEvery-th, the latest, and the lowest (a sentence may cite it: text.js, memorising).
 */
export function heldOutRows(held) {
  const lowest = Math.min(...held.map(([, y]) => y));
  return held.filter(
    ([s, y], k) => s <= evalEvery || s % tableEvery === 0 || k === held.length - 1 || y === lowest,
  );
}

/**
 * One sequence of a run's step, as the worker and the page take it: { step, loss? (when the
 * step ended), measure?: [step, held-out loss] (at step 1 and every evalEvery steps) }; or
 * { failed: { step, error? } } when the core refuses it or a loss is not a finite number: a run
 * that diverged ends there, and nothing that is not finite is kept.
 */
export function sliceOf(core, trainer, config, heldOut, step) {
  const failed = (error) => ({
    failed: { step: step + 1, ...(error && { error: error.message }) },
  });
  let r;
  try {
    r = trainer.slice(1);
  } catch (error) {
    return failed(error);
  }
  if (r.loss === undefined) return { step: r.step };
  if (!Number.isFinite(r.loss)) return failed();
  if (r.step % evalEvery !== 0 && r.step !== 1) return r;
  let held;
  try {
    held = core.gptStreamLoss({ config, params: trainer.params() }, heldOut);
  } catch (error) {
    return failed(error);
  }
  return Number.isFinite(held) ? { ...r, measure: [r.step, held] } : failed();
}

// The ticks of a plot of `steps` steps: about six round ones.
function stepTicks(steps) {
  const tick = [10, 50, 100, 500, 1000].find((s) => steps / s <= 6) ?? 1000;
  return Array.from({ length: Math.floor(steps / tick) + 1 }, (_, i) => i * tick);
}

/** A lab's trainer (see the top of this file): { panel(ctx, shipped), current(shipped) → { model,
 * at } or undefined, settled(shipped) → a promise of the worker's last weights, or undefined if
 * they are in, load(shipped, params, at, heldOut, name): weights from a file in place of a
 * run, headView(ctx, shipped): the chosen head on the line with the weights now }. */
export function makeTrainer(source) {
  const { lab, id } = source;
  const ids = (name) => `${id}-${name}`;
  // { shipped: the model it trains, trainer (on the page, where there is no worker), worker:
  // whether the worker trains it, streams, losses, heldOut: [[step, loss]], params and at: the
  // weights the worker last sent and their step, running, stopping: Stop pressed, the worker
  // not yet stopped, hiding: paused while the tab is hidden, looping, redraw, clock: the
  // stopwatch of the time it trained, announced: the moment last said to a screen reader (see
  // moment) }
  let run;

  function start(core, shipped) {
    const { json } = shipped;
    return source.streams(shipped).then((streams) => {
      const t = json.training;
      const options = { batch: t.batch, lr: t.lr, total: t.steps, seed: t.seed };
      const worker = !!trainWorker();
      run = {
        shipped,
        trainer: worker ? undefined : core.gptTrainer(json.config, streams.train, options),
        worker,
        streams,
        losses: [],
        heldOut: [],
        running: false,
        clock: stopwatch(),
        drawn: 0,
      };
      if (worker) {
        listening(core);
        const open = {
          config: json.config,
          train: streams.train,
          heldOut: streams.heldOut,
          options,
        };
        tell(lab, "open", { open });
      }
    });
  }

  // The weights shown, and the step they are at: the trainer's now on the page, the last the
  // worker sent, or those loaded from a file; undefined before a run of this model.
  function current(shipped) {
    if (!run || run.shipped !== shipped) return undefined;
    const { config } = shipped.json;
    if (!run.trainer) return { model: { config, params: run.params }, at: run.at };
    // a step whose loss was not finite made its update; one the core refused did not
    const { failed } = run;
    const at = failed && !failed.error ? failed.step : run.losses.length;
    return { model: { config, params: run.trainer.params() }, at };
  }

  // While the worker still trains or stops (its last weights come before its "stopped", "done"
  // or "failed"), a promise that resolves once they are in; undefined if they are.
  function settled(shipped) {
    if (!run?.worker || run.shipped !== shipped || !(run.running || run.stopping)) return undefined;
    return new Promise((resolve) => (run.settling ??= []).push(resolve));
  }
  const settle = () => run.settling?.splice(0).forEach((resolve) => resolve());

  // Weights loaded from a model's files, trained `at` steps, in place of any run: shown as a
  // run that has ended (Start trains anew), its held-out loss measured on this text.
  function load(shipped, params, at, heldOut, name) {
    if (run) forget();
    run = {
      shipped,
      loaded: name,
      params,
      at,
      losses: [],
      heldOut: [[at, heldOut]],
      clock: stopwatch(),
      drawn: 0,
    };
  }

  // A run of another model (the own-text lab's text changed) is forgotten.
  function forget() {
    run.trainer?.close();
    if (run.worker) tell(lab, "reset", { reset: true });
    run = undefined;
  }

  let heard = false; // whether this lab hears the worker yet

  // What the worker says of the run; a worker that fails leaves the run to the page, from step 0.
  function listening(core) {
    if (heard) return;
    heard = true;
    listen(lab, {
      // a message of `kind` (train-messages.js)
      message(data, kind) {
        if (!run?.worker) return;
        // the panel gone (another step, another lab): the run stops there, as on the page
        if (run.running && !run.stopping && !document.getElementById(ids("model"))) {
          run.stopping = true;
          tell(lab, "stop", { stop: true });
        }
        if (kind === "progress") run.losses.push(...data.losses);
        if (kind === "progress") run.heldOut.push(...data.measures);
        if (kind === "weights") [run.params, run.at] = [data.params, data.at];
        if (kind === "stopped") {
          run.stopping = false;
          if (!run.hiding) run.running = false;
          tickClock();
          run.redraw?.();
          settle();
          return;
        }
        if (kind === "done" || kind === "failed") {
          run.failed = data.failed;
          run.running = false;
          tickClock();
          run.redraw?.();
          settle();
          return;
        }
        tickClock();
        if (performance.now() - run.drawn > drawMs) {
          run.drawn = performance.now();
          run.redraw?.();
        }
      },
      failed() {
        if (!run?.worker) return;
        const going = run.running;
        const { shipped } = run;
        run = undefined;
        if (going) start(core, shipped).then(() => resume(core));
      },
    });
    document.addEventListener("visibilitychange", () => {
      if (!run?.worker || !run.running) return;
      if (document.hidden) {
        run.hiding = true;
        run.clock.pause();
        tell(lab, "stop", { stop: true });
      } else {
        run.hiding = false;
        run.clock.run();
        tell(lab, "run", { run: true });
      }
    });
  }

  // The clock while the worker trains: running while the run is, paused when it stops or hides.
  function tickClock() {
    if (run.running && !run.hiding) run.clock.run();
    else run.clock.pause();
  }

  // The run goes on: in the worker, or here between frames.
  function resume(core) {
    run.running = true;
    if (run.worker) {
      run.clock.run();
      tell(lab, "run", { run: true });
    } else loop(core);
    run.redraw?.();
  }

  // One loop at a time, however often the panel is drawn again: it works a slice, redraws the
  // panel now on the page, and asks for the next frame; it stops when the panel is gone.
  function work(core) {
    if (!run.running || !document.getElementById(ids("model"))) {
      run.running = false;
      run.looping = false;
      run.clock.pause();
      return;
    }
    const { json } = run.shipped;
    const began = performance.now();
    // the time on the clock while it runs, frames and all: what the learner waits
    run.clock.run();
    let stepped = false;
    while (performance.now() - began < sliceMs && run.losses.length < json.training.steps) {
      const r = sliceOf(core, run.trainer, json.config, run.streams.heldOut, run.losses.length);
      if (r.failed) {
        run.failed = r.failed;
        run.running = false;
        break;
      }
      if (r.loss === undefined) continue;
      run.losses.push(r.loss);
      stepped = true;
      if (r.measure) run.heldOut.push(r.measure);
    }
    if (run.losses.length >= json.training.steps) run.running = false;
    if (!run.running) run.clock.pause();
    if ((stepped && performance.now() - run.drawn > drawMs) || !run.running) {
      run.drawn = performance.now();
      run.redraw();
    }
    requestAnimationFrame(() => work(core));
  }

  function loop(core) {
    if (run.looping) return;
    run.looping = true;
    requestAnimationFrame(() => work(core));
  }

  // The plot of the training losses (every tenth step) and the held-out losses, beside the
  // held-out losses of the other models (and, for the real model, of the shipped weights).
  function curves(shipped, msg, digits) {
    const w = msg.gptLab;
    const train = run.losses.map((y, t) => [t + 1, y]).filter(([t]) => t % 10 === 0 || t === 1);
    const held = run.heldOut;
    return lossPlot({
      id: ids("plot"),
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

  // The chosen head on the line, with the run's weights now (the worker's last sent).
  function headNow(core, shipped, { trace, state, msg }) {
    const { model, at } = current(shipped);
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

  const status = (json, msg) => runStatus(run, json, msg);

  // The moment of the run a screen reader hears about: started or resumed, every announceEvery
  // steps while it runs, paused, done. The status on screen changes four times a second; the
  // announcement only when the moment does.
  function moment(json) {
    if (!run) return "none";
    const n = run.losses.length;
    if (n >= json.training.steps || run.failed || run.loaded) return "done";
    return run.running ? `running ${Math.floor(n / announceEvery)}` : `paused ${n}`;
  }

  /** Start, Stop and Resume; where the run is, its curves and the chosen head. */
  function panel(ctx, shipped) {
    const { core, msg, state } = ctx;
    const w = msg.gptLab;
    const json = shipped.json;
    if (run && run.shipped !== shipped) forget();
    // drawn again in place while it trains (redrawInPlace keeps the focus by its place among the
    // controls): no glossary link in it
    const body = el("div", { id: ids("body"), "data-glossary": "off" });
    // rewritten four times a second while it trains: no glossary link in it either
    const said = el("p", { class: "why-summary", id: ids("status"), "data-glossary": "off" });
    const announce = el("p", {
      class: "visually-hidden",
      id: ids("announce"),
      role: "status",
      "aria-live": "polite",
    });
    const redraw = () => {
      const done = run?.losses.length >= json.training.steps || !!run?.failed || !!run?.loaded;
      said.textContent = status(json, msg);
      const now = moment(json);
      if (run && now !== run.announced) {
        run.announced = now;
        announce.textContent = said.textContent;
      }
      startButton.textContent = done
        ? w.again
        : run?.running
          ? w.running
          : run
            ? w.resume
            : w.start;
      // the button pressed goes away: the focus moves to the other one, not to the page
      const focused = startButton.getRootNode().activeElement;
      startButton.disabled = !!run?.running;
      // while the worker stops, Stop keeps the focus; then Resume takes it
      stopButton.disabled = !run?.running;
      if (focused === startButton && startButton.disabled) stopButton.focus();
      if (focused === stopButton && stopButton.disabled) startButton.focus();
      // the focus stays where it was: a table redrawn under it does not drop it to the page
      if (run) {
        redrawInPlace(body, () => {
          const { model, at } = current(shipped);
          body.replaceChildren(
            curves(shipped, msg, state.digits),
            headNow(core, shipped, ctx),
            (model.params && source.after?.(ctx, shipped, model, at, run)) || [],
          );
        });
      } else {
        body.replaceChildren(source.before?.(shipped, msg, state.digits) ?? []);
      }
    };
    const go = async () => {
      try {
        // a finished run, one that failed or weights loaded: a run from random weights
        if (run?.losses.length >= json.training.steps || run?.failed || run?.loaded) forget();
        if (!run) await start(core, shipped);
      } catch (error) {
        said.textContent = w.noStreams(error.message);
        announce.textContent = said.textContent;
        return;
      }
      run.redraw = redraw;
      resume(core);
    };
    const startButton = el("button", { type: "button", id: ids("start"), onclick: go });
    const stopButton = el("button", {
      type: "button",
      id: ids("stop"),
      text: w.stop,
      onclick: () => {
        // the worker stops, sends its weights, then says so: the run is paused then
        if (run?.worker && run.running) {
          run.stopping = true;
          tell(lab, "stop", { stop: true });
        } else if (run) run.running = false;
        redraw();
      },
    });
    const root = el(
      "div",
      { class: "trainer-model", id: ids("model") },
      el("p", { text: source.intro(shipped, msg) }),
      trainerButtons(w.trainer, startButton, stopButton),
      said,
      announce,
      body,
    );
    // a run that was going when the page redrew goes on, drawn here now
    if (run) run.redraw = redraw;
    redraw();
    return root;
  }

  return {
    panel,
    current,
    settled,
    load,
    headView: (ctx, shipped) => headNow(ctx.core, shipped, ctx),
  };
}

// Before a run here: the same plot of the run that made the shipped weights (tang.json's
// curve, measured by make train every 100 steps).
function shippedCurves({ json, baselines }, msg, digits) {
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

/** The real model's "Train it yourself": the shipped run again, on the streams make streams
 * built; its plot beside the shipped weights' held-out loss, the line to reach. */
export const tangTrainer = makeTrainer({
  lab: "gpt",
  id: "train",
  streams: () => readStreams(),
  intro: ({ json }, msg) =>
    msg.gptLab.trainIntro(json.training.steps, json.training.batch, json.config.context),
  title: ({ json }, msg) => msg.gptLab.trainPlot(fmt(json.heldOut, 2)),
  levels: ({ json, baselines }, msg) => levels(json, baselines, msg.gptLab),
  before: shippedCurves,
});

/** "Train it yourself"'s panel. */
export const trainPanel = tangTrainer.panel;
