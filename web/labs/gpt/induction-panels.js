// labs/gpt/induction-panels.js: what the induction lab draws besides its matrices: Start and
// Stop with where the run is, the two halves' losses and the heads' scores over the kept steps
// (the core's measures on the held-out sequences), and the circuit token by token on the
// sequence shown. Drawing only: every number is the core's.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { linePlot, numbers, redrawInPlace, trainerButtons } from "../kit.js";
import { lossPlot } from "./plot.js";
import { workersControl } from "./workers.js";
import { workerPossible } from "../worker.js";
import {
  every,
  finished,
  follow,
  held,
  rateOf,
  runDone,
  runOf,
  start,
  stop,
  task,
  training,
  wallOf,
} from "./induction-run.js";

const lnV = Math.log(task.vocab);
const announceEvery = 250; // steps between two announcements to a screen reader while it trains
const tableEvery = 100; // the tables: step 0, every tableEvery-th step and the latest
const drawMs = 250; // the status is written again at most this often while it trains
const followMs = 500; // the page follows the kept steps at most this often while it trains
let nextFollow = 0; // when it may next
const xTicks = [0, 200, 400, 600, 800, 1000];

/** Each kept step's held-out scores, in order: [[step, scores]]; step 0 alone before a run. */
const kept = (ctx) => {
  const run = runOf(ctx.state.layers);
  return run ? [...run.scores] : [[0, ctx.trace.scores]];
};

const inTable = (rows) => rows.filter(([s], k) => s % tableEvery === 0 || k === rows.length - 1);

/**
 * The circuit on the sequence shown, one row per token of the repeat whose next token is known
 * (positions m … 2m−2 from 0): the token, where its earlier copy is, the position after it and
 * its token (the next token here), layer 1's weight from there on the copy (two layers), the
 * last layer's weight from here on the position after the copy, and the probability the model
 * gives the next token. Positions count from 1, as the page shows them.
 */
export function circuitRows({ m, symbols: rows, heads, forward, tokens, layers }) {
  const out = [];
  for (let i = m; i <= 2 * m - 2; i++) {
    const j = i - m + 1; // the position after the earlier copy, from 0
    out.push({
      at: i + 1,
      token: rows[i],
      copy: i - m + 1,
      after: j + 1,
      next: rows[j],
      previous: layers === 2 ? heads[0].weights[j][j - 1] : undefined,
      induction: heads[layers - 1].weights[i][j],
      p: forward.probs[i][tokens[j]],
    });
  }
  return out;
}

let drawnLayers; // the number of layers the trainer's panel was last drawn for

/**
 * The change of state a trainer's panel drawn at `state` asks for: back from the other number of
 * layers, the t of this run's latest kept step, when t is behind it and the run is not going
 * (t is one for both: it stayed where this run was followed to before the switch, or where the
 * other run left it, while this run kept more steps before it paused); else undefined. Its
 * status and tables say the latest: the sentences then say it too.
 */
export function followSwitch(state) {
  const [before, layers] = [drawnLayers, state.layers];
  drawnLayers = layers;
  const run = runOf(layers);
  if (before === undefined || before === layers || !run || run.running) return undefined;
  return state.at < run.last ? { at: run.last, focus: state.focus } : undefined;
}

/** Start, Stop and Resume, and where the run is; the page follows the run's kept steps. */
export function trainerPanel(ctx) {
  const { core, msg, state, update } = ctx;
  const w = msg.induction;
  const layers = state.layers;
  // the other number of layers' run pauses here (it is told so at its next slice too)
  if (runOf(3 - layers)?.running) stop(3 - layers);
  const switched = followSwitch(state);
  if (switched) queueMicrotask(() => update(switched));
  const said = el("p", { class: "why-summary", id: "induction-status", "data-glossary": "off" });
  const announce = el("p", {
    class: "visually-hidden",
    id: "induction-announce",
    role: "status",
    "aria-live": "polite",
  });
  const startButton = el("button", { type: "button", id: "induction-start" });
  const stopButton = el("button", { type: "button", id: "induction-stop", text: w.stop });
  const panel = el(
    "div",
    { class: "trainer-model", id: "induction-trainer" },
    el("p", {
      text: w.trainIntro(
        layers,
        training.total,
        training.batch,
        task.context,
        every,
        workerPossible(),
      ),
    }),
    trainerButtons(w.trainer, startButton, stopButton),
    workersControl(msg, "induction"),
    said,
    announce,
  );
  let drawn = 0;
  // the last kept step the page showed when this panel was drawn: t at it or past it follows
  const followed = Math.min(state.at, runOf(layers)?.last ?? 0);
  const redraw = () => {
    const run = runOf(layers);
    said.textContent = status(run, w, runOf(3 - layers));
    const moment = momentOf(run);
    if (run && moment !== run.announced) {
      run.announced = moment;
      announce.textContent = said.textContent;
    }
    startButton.textContent = finished(layers)
      ? w.again
      : run?.running
        ? w.running
        : run?.losses.length
          ? w.resume
          : w.start;
    const enable = () => {
      startButton.disabled = !!run?.running;
      stopButton.disabled = !run?.running;
    };
    redrawInPlace(panel, enable, msg.ui.scrollHint);
    const focused = panel.getRootNode().activeElement;
    if (focused === startButton && startButton.disabled) stopButton.focus();
    if (focused === stopButton && stopButton.disabled) startButton.focus();
  };
  // told by the run after every slice; a kept step moves the page to it when it shows the latest
  const onChange = (run, keptNow) => {
    if (!panel.isConnected || run.layers !== layers) {
      stop(run.layers);
      // the other run's last kept step, in flight when it was told to stop, is in its status here
      if (panel.isConnected) redraw();
      return;
    }
    // the page follows the kept steps while t is at the latest, drawn again at most every
    // followMs (the steps may come faster than a phone draws them), and at the run's end
    // (a step kept while the drawing waited is followed when the run stops: its last, too)
    const behind = state.at >= followed && followed < run.last;
    if ((keptNow || !run.running) && behind && (!run.running || performance.now() > nextFollow)) {
      // the run's last step disables Stop: the focus moves to Start first, or it would be lost
      const focused = panel.getRootNode().activeElement;
      if (!run.running && focused === stopButton) startButton.focus();
      const began = performance.now();
      // t already at that step (its first place is the end, 1000) is no change to the state:
      // then the whole page is asked for again, or the status would stay "Training" at the end
      update(state.at === run.last ? {} : { at: run.last, focus: state.focus });
      // a slow device draws less often: the page busy a quarter of the time at most
      nextFollow = performance.now() + Math.max(followMs, 3 * (performance.now() - began));
      return;
    }
    if (!run.running || performance.now() - drawn > drawMs) {
      drawn = performance.now();
      redraw();
    }
  };
  startButton.onclick = () => {
    const fresh = finished(layers);
    const run = start(core, layers, onChange);
    redraw();
    if (fresh) update({ at: run.last, focus: state.focus });
  };
  stopButton.onclick = () => {
    stop(layers);
    const run = runOf(layers);
    // paused: the page shows the last kept step, if it followed the run
    if (run && state.at >= followed && state.at < run.last) {
      update({ at: run.last, focus: state.focus });
    } else redraw();
  };
  follow(onChange);
  redraw();
  return panel;
}

/**
 * The sentence of where an induction run is (`run` as induction-run.js keeps it): its step, its
 * clock and rate, and when the repeated half's loss first fell (the clock then, not now); then
 * where the other layers' run (`other`) is, if there is one: done, or paused at its step.
 */
export function status(run, w, other) {
  // the other number of layers' run is said to be kept, done or paused (the lab opens at L = 2
  // whatever the learner trained last; switching L pauses the run left)
  const kept = other?.losses.length;
  const also = kept ? w.otherKept(other.layers, kept, runDone(other)) : "";
  if (!run?.losses.length) return `${w.notStarted}${also}`;
  const n = run.losses.length;
  const said = runDone(run) ? w.done : run.running ? w.training : w.paused;
  const seconds = Math.round(wallOf(run) / 1000);
  const drop = run.drop ? w.dropAt(run.drop.step, Math.round(run.drop.wall / 1000)) : "";
  return `${said(n, training.total, fmt(rateOf(run), 1), seconds)}${drop}${also}`;
}

// The moment a screen reader hears about: started or resumed, every announceEvery steps, the
// step in the loss, paused, done.
function momentOf(run) {
  if (!run) return "none";
  if (finished(run.layers)) return "done";
  const n = run.losses.length;
  return run.running ? `running ${Math.floor(n / announceEvery)} ${!!run.drop}` : `paused ${n}`;
}

/** The two halves' losses over the kept steps, beside ln V: where the step shows. */
export function lossesPanel(ctx) {
  const { msg, state } = ctx;
  const w = msg.induction;
  const d = state.digits;
  const points = kept(ctx);
  return lossPlot({
    id: "induction-losses",
    title: w.lossesTitle(state.layers, held.batch),
    xLabel: w.stepAxis,
    yLabel: w.lossAxis,
    xTicks,
    series: [
      { label: w.firstHalf, points: points.map(([s, r]) => [s, r.firstLoss]) },
      { label: w.repeatHalf, points: points.map(([s, r]) => [s, r.repeatLoss]) },
    ],
    levels: [{ label: w.lnVLevel(task.vocab, fmt(lnV, 2)), y: lnV }],
    levelsKey: w.guessKey,
    table: numbers(
      "why-numbers",
      w.lossesTable(tableEvery),
      [w.firstHalf, w.repeatHalf],
      inTable(points).map(([s, r]) => [w.stepName(s), fmt(r.firstLoss, d), fmt(r.repeatLoss, d)]),
    ),
  });
}

/** The heads' previous-token and induction scores over the kept steps. */
export function scoresPanel(ctx) {
  const { msg, state } = ctx;
  const w = msg.induction;
  const d = state.digits;
  const points = kept(ctx);
  const last = state.layers - 1;
  const columns = [
    { label: w.previousOf(1), at: (r) => r.previous[0][0] },
    { label: w.inductionOf(state.layers), at: (r) => r.induction[last][0] },
    ...(state.layers === 2
      ? [
          { label: w.inductionOf(1), at: (r) => r.induction[0][0] },
          { label: w.previousOf(2), at: (r) => r.previous[1][0] },
        ]
      : []),
  ];
  return linePlot({
    id: "induction-scores",
    title: w.scoresTitle(held.batch),
    xLabel: w.stepAxis,
    yLabel: w.weightAxis,
    xTicks,
    yTicks: [0, 0.25, 0.5, 0.75, 1],
    log: false,
    series: columns.map((c) => ({ label: c.label, points: points.map(([s, r]) => [s, c.at(r)]) })),
    table: numbers(
      "why-numbers",
      w.scoresTable(tableEvery),
      columns.map((c) => c.label),
      inTable(points).map(([s, r]) => [w.stepName(s), ...columns.map((c) => fmt(c.at(r), d))]),
      { stacked: true },
    ),
  });
}

/** The circuit token by token on the sequence shown. */
export function copiesPanel(ctx) {
  const { msg, state, trace } = ctx;
  const w = msg.induction;
  const d = state.digits;
  const two = trace.layers === 2;
  const heads = [
    w.copyHead,
    w.afterHead,
    w.nextHead,
    ...(two ? [w.previousHead] : []),
    w.inductionHead(trace.layers),
    w.pHead,
  ];
  return numbers(
    "why-numbers induction-copies",
    w.copiesTitle(w.at(trace.step)),
    heads,
    circuitRows(trace).map((r) => [
      w.tokenAt(r.at, r.token),
      String(r.copy),
      String(r.after),
      r.next,
      ...(two ? [fmt(r.previous, d)] : []),
      fmt(r.induction, d),
      fmt(r.p, d),
    ]),
    { stacked: true },
  );
}
