// labs/gpt/train.js: a model trained in this tab: the real model's "Train it yourself" (the
// training `make train` ran natively, run again) and the own-text lab's run (text.js). The same
// core in WASM, from seeded random weights, a sequence at a time (gpt_train_slice): in the labs'
// Web Worker where the page is served over http(s) (labs/worker.js), else here, as many as fit in
// a few milliseconds between frames; the same numbers either way. The page stays responsive.
// The loss curves and the chosen head on the learner's line follow it. One run per lab; it
// stops when its panel goes away, pauses while the tab is hidden, and resumes from where it was.
// In layers: the run's state and what changes it (train-state.js), the worker's messages
// (labs/train-messages.js), the clock (stopwatch.js), the panels drawn from the state
// (train-panels.js); here the lab's trainer that ties them to Start, Stop and the page.
//
// makeTrainer(source) makes a lab's trainer. source: { lab: the worker's name for it, id: its
// elements' ids' prefix, streams(shipped) → a promise of { train, heldOut }, intro(shipped, msg),
// title(shipped, msg) → the plot's title, levels(shipped, msg) → its labelled lines, before?(shipped,
// msg, digits) → what the panel shows before a run, after?(ctx, shipped, model, at, { losses,
// heldOut }) → what it shows below the head }. shipped: { json: { config, training: { steps, batch, lr, seed } }, … }.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { redrawInPlace, trainerButtons } from "../kit.js";
import { readStreams } from "./files.js";
import { levels } from "./meaning.js";
import { listen, tell, trainWorker, workerPossible } from "../worker.js";
import { workersControl } from "./workers.js";
import {
  announcement,
  curves,
  headNow,
  momentOf,
  runStatus,
  shippedCurves,
  startLabel,
} from "./train-panels.js";
import {
  ended,
  finished,
  hid,
  loaded,
  opened,
  sliceOf,
  sliced,
  started,
  stopPressed,
  stopped,
  weighed,
} from "./train-state.js";

const sliceMs = 14; // the work done between two frames
const drawMs = 250; // the panel is drawn again at most this often while it trains

// A lab's trainer, as makeTrainer keeps it: { source, run: its run's state (train-state.js),
// undefined before one; trainer: the core's trainer where the page trains it (no worker);
// streams: the run's { train, heldOut }; redraw: the panel's now on the page; settling: what
// waits for the worker's last weights; heard: whether it hears the worker yet }. The run also
// keeps the page's own marks: drawn (when the panel was last drawn), looping (the page's loop
// goes on) and announced (the moment last said to a screen reader, train-panels.js's momentOf).

// The run of `shipped` from step 0: its streams read, its trainer opened here or in the worker.
function start(lab, core, shipped) {
  const { json } = shipped;
  return lab.source.streams(shipped).then((streams) => {
    const t = json.training;
    const options = { batch: t.batch, lr: t.lr, total: t.steps, seed: t.seed };
    const worker = !!trainWorker();
    lab.trainer = worker ? undefined : core.gptTrainer(json.config, streams.train, options);
    lab.streams = streams;
    lab.settling = [];
    lab.run = opened(shipped, worker);
    lab.run.drawn = 0;
    if (worker) {
      listening(lab, core);
      const open = { config: json.config, train: streams.train, heldOut: streams.heldOut, options };
      tell(lab.source.lab, "open", { open });
    }
  });
}

// The weights shown, and the step they are at: the trainer's now on the page, the last the
// worker sent, or those loaded from a file; undefined before a run of this model.
function current(lab, shipped) {
  const { run, trainer } = lab;
  if (!run || run.shipped !== shipped) return undefined;
  const { config } = shipped.json;
  if (!trainer) return { model: { config, params: run.params }, at: run.at };
  // a step whose loss was not finite made its update; one the core refused did not
  const { failed } = run;
  const at = failed && !failed.error ? failed.step : run.losses.length;
  return { model: { config, params: trainer.params() }, at };
}

// While the worker still trains or stops (its last weights come before its "stopped", "done"
// or "failed"), a promise that resolves once they are in; undefined if they are.
function settled(lab, shipped) {
  const { run } = lab;
  if (!run?.worker || run.shipped !== shipped || !(run.running || run.stopping)) return undefined;
  return new Promise((resolve) => lab.settling.push(resolve));
}

// Weights loaded from a model's files, trained `at` steps, in place of any run.
function load(lab, shipped, params, at, heldOut, name) {
  if (lab.run) forget(lab);
  lab.settling = [];
  lab.run = loaded(shipped, params, at, heldOut, name);
  lab.run.drawn = 0;
}

// A run of another model (the own-text lab's text changed) is forgotten.
function forget(lab) {
  lab.trainer?.close();
  lab.trainer = undefined;
  if (lab.run.worker) tell(lab.source.lab, "reset", { reset: true });
  lab.run = undefined;
}

// What the worker says of the run; a worker that fails leaves the run to the page, from step 0.
function listening(lab, core) {
  if (lab.heard) return;
  lab.heard = true;
  listen(lab.source.lab, {
    message: (data, kind) => lab.run?.worker && heard(lab, data, kind),
    failed() {
      if (!lab.run?.worker) return;
      const going = lab.run.running;
      const { shipped } = lab.run;
      lab.run = undefined;
      if (going) start(lab, core, shipped).then(() => resume(lab, core));
    },
  });
  document.addEventListener("visibilitychange", () => {
    const hidden = document.hidden;
    if (!lab.run || !hid(lab.run, hidden)) return;
    if (hidden) tell(lab.source.lab, "stop", { stop: true });
    else tell(lab.source.lab, "run", { run: true });
  });
}

// A message of `kind` from the worker (train-messages.js) of the lab's run.
function heard(lab, data, kind) {
  const { run } = lab;
  // the panel gone (another step, another lab): the run stops there, as on the page
  const gone = !document.getElementById(`${lab.source.id}-model`);
  if (run.running && !run.stopping && gone && stopPressed(run)) {
    tell(lab.source.lab, "stop", { stop: true });
  }
  if (kind === "slice") sliced(run, data.losses, data.measures);
  if (kind === "weights") weighed(run, data.params, data.at);
  if (kind === "stopped") stopped(run);
  if (kind === "done" || kind === "failed") ended(run, data.failed);
  if (kind === "slice" || kind === "weights") {
    if (performance.now() - run.drawn > drawMs) {
      run.drawn = performance.now();
      lab.redraw?.();
    }
    return;
  }
  lab.redraw?.();
  lab.settling.splice(0).forEach((resolve) => resolve());
}

// The run goes on: in the worker, or here between frames.
function resume(lab, core) {
  started(lab.run);
  if (lab.run.worker) tell(lab.source.lab, "run", { run: true });
  else loop(lab, core);
  lab.redraw?.();
}

// One loop at a time, however often the panel is drawn again: it works a slice, redraws the
// panel now on the page, and asks for the next frame; it stops when the panel is gone.
function work(lab, core) {
  const { run } = lab;
  if (!run.running || !document.getElementById(`${lab.source.id}-model`)) {
    run.running = false;
    run.looping = false;
    run.clock.pause();
    return;
  }
  const { json } = run.shipped;
  const steps = json.training.steps;
  const began = performance.now();
  // the time on the clock while it runs, frames and all: what the learner waits
  run.clock.run();
  let stepped = false;
  while (performance.now() - began < sliceMs && run.losses.length < steps) {
    const r = sliceOf(core, lab.trainer, json.config, lab.streams.heldOut, run.losses.length);
    if (r.failed) {
      ended(run, r.failed);
      break;
    }
    if (r.loss === undefined) continue;
    sliced(run, [r.loss], r.measure ? [r.measure] : []);
    stepped = true;
  }
  if (!run.failed && run.losses.length >= steps) ended(run);
  if ((stepped && performance.now() - run.drawn > drawMs) || !run.running) {
    run.drawn = performance.now();
    lab.redraw?.();
  }
  requestAnimationFrame(() => work(lab, core));
}

function loop(lab, core) {
  if (lab.run.looping) return;
  lab.run.looping = true;
  requestAnimationFrame(() => work(lab, core));
}

// The panel's body: the run's curves, the chosen head and what the lab shows below it; before a
// run, what the lab shows then.
function body(lab, ctx, shipped) {
  const { core, msg, state } = ctx;
  const { run, source } = lab;
  if (!run) return source.before?.(shipped, msg, state.digits) ?? [];
  const now = current(lab, shipped);
  return [
    curves(run, source, shipped, msg, state.digits),
    headNow(core, now, ctx),
    (now.model.params && source.after?.(ctx, shipped, now.model, now.at, run)) || [],
  ];
}

// Start and Stop as the run is: the button pressed goes away, and the focus moves to the other
// one, not to the page; while the worker stops, Stop keeps the focus, then Resume takes it.
function buttons(run, json, w, startButton, stopButton) {
  startButton.textContent = startLabel(run, json, w);
  const focused = startButton.getRootNode().activeElement;
  startButton.disabled = !!run?.running;
  stopButton.disabled = !run?.running;
  if (focused === startButton && startButton.disabled) stopButton.focus();
  if (focused === stopButton && stopButton.disabled) startButton.focus();
}

/**
 * Start, Stop and Resume; where the run is, its curves and the chosen head. `shipped` is the
 * model drawn (the run's, while there is one); `chosen` the one the lab's controls name now (the
 * own-text lab's learning rate): a run of another one is kept and drawn until Start trains anew.
 */
function panel(lab, ctx, shipped, chosen = shipped) {
  const { core, msg } = ctx;
  const w = msg.gptLab;
  const json = shipped.json;
  const ids = (name) => `${lab.source.id}-${name}`;
  if (lab.run && lab.run.shipped !== shipped) forget(lab);
  // drawn again in place while it trains (redrawInPlace keeps the focus by its place among the
  // controls): no glossary link in it
  const content = el("div", { id: ids("body"), "data-glossary": "off" });
  // rewritten four times a second while it trains: no glossary link in it either
  const said = el("p", { class: "why-summary", id: ids("status"), "data-glossary": "off" });
  const announce = el("p", {
    class: "visually-hidden",
    id: ids("announce"),
    role: "status",
    "aria-live": "polite",
  });
  const redraw = () => {
    const { run } = lab;
    said.textContent = runStatus(run, json, msg);
    const now = momentOf(run, json);
    if (run && now !== run.announced) {
      announce.textContent = announcement(run, json, msg, run.announced);
      run.announced = now;
    }
    buttons(run, json, w, startButton, stopButton);
    // another model chosen while this run is kept: Start trains that one, from step 0
    if (run && !run.running && run.shipped !== chosen) startButton.textContent = w.again;
    // the focus stays where it was: a table redrawn under it does not drop it to the page
    if (run) {
      const draw = () => content.replaceChildren(...body(lab, ctx, shipped));
      redrawInPlace(content, draw, msg.ui.scrollHint);
    } else content.replaceChildren(body(lab, ctx, shipped));
  };
  const go = async () => {
    try {
      // a finished run, one that failed, weights loaded, or a run of a model no longer chosen
      // (another learning rate): a run of the chosen one from random weights
      if (lab.run && (finished(lab.run, json.training.steps) || lab.run.shipped !== chosen)) {
        forget(lab);
      }
      if (!lab.run) await start(lab, core, chosen);
    } catch (error) {
      said.textContent = w.noStreams(error.message);
      announce.textContent = said.textContent;
      return;
    }
    // a run of another model than the one drawn here: it goes on, and the page draws it (its
    // panel takes the redraws from then on); Stop takes the focus Start had, as below
    if (lab.run.shipped !== shipped) {
      const focused = startButton.getRootNode().activeElement === startButton;
      lab.redraw = undefined;
      resume(lab, core);
      ctx.update({});
      if (focused) document.getElementById(ids("stop"))?.focus();
      return;
    }
    lab.redraw = redraw;
    resume(lab, core);
  };
  const startButton = el("button", { type: "button", id: ids("start"), onclick: go });
  const stopButton = el("button", {
    type: "button",
    id: ids("stop"),
    text: w.stop,
    onclick: () => {
      // the worker stops, sends its weights, then says so: the run is paused then
      if (lab.run && stopPressed(lab.run)) tell(lab.source.lab, "stop", { stop: true });
      redraw();
    },
  });
  const root = el(
    "div",
    { class: "trainer-model", id: ids("model") },
    el("p", { text: lab.source.intro(shipped, msg) }),
    trainerButtons(w.trainer, startButton, stopButton),
    workersControl(msg, lab.source.id),
    said,
    announce,
    content,
  );
  // a run that was going when the page redrew goes on, drawn here now
  if (lab.run) lab.redraw = redraw;
  redraw();
  return root;
}

/** A lab's trainer (see the top of this file): { panel(ctx, shipped), current(shipped) → { model,
 * at } or undefined, settled(shipped) → a promise of the worker's last weights, or undefined if
 * they are in, load(shipped, params, at, heldOut, name): weights from a file in place of a
 * run, headView(ctx, shipped): the chosen head on the line with the weights now, run(): the run
 * kept, if any }. panel(ctx, shipped, chosen?): see panel above. */
export function makeTrainer(source) {
  const lab = { source, settling: [] };
  return {
    panel: (ctx, shipped, chosen) => panel(lab, ctx, shipped, chosen),
    // the run kept (train-state.js's, read only), or undefined
    run: () => lab.run,
    current: (shipped) => current(lab, shipped),
    settled: (shipped) => settled(lab, shipped),
    load: (shipped, params, at, heldOut, name) => load(lab, shipped, params, at, heldOut, name),
    headView: (ctx, shipped) => headNow(ctx.core, current(lab, shipped), ctx),
  };
}

/** The real model's "Train it yourself": the shipped run again, on the streams make streams
 * built; its plot beside the shipped weights' held-out loss, the line to reach. */
export const tangTrainer = makeTrainer({
  lab: "gpt",
  id: "train",
  streams: () => readStreams(),
  intro: ({ json }, msg) =>
    msg.gptLab.trainIntro(
      json.training.steps,
      json.training.batch,
      json.config.context,
      workerPossible(),
    ),
  title: ({ json }, msg) => msg.gptLab.trainPlot(fmt(json.heldOut, 2)),
  levels: ({ json, baselines }, msg) => levels(json, baselines, msg.gptLab),
  before: shippedCurves,
});

/** "Train it yourself"'s panel. */
export const trainPanel = tangTrainer.panel;
