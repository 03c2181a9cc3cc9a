// labs/learn/shared.js: what the two "how it learns" labs share. The descent is computed whole
// by the core (learn.hpp); the learner walks it step by step: `at` is the step shown, and the
// trainer's buttons (Step, Train, Stop, Reset) move it. Training plays the steps one by one.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { linePlot, niceTicks, numbers } from "../kit.js";

/** The descent's parameters: the learning rate, the number of steps, the step shown. */
export const descentParams = (eta) => [
  { id: "eta", kind: "range", symbol: "η", ...eta },
  { id: "steps", kind: "range", symbol: "N", min: 1, max: 60, step: 1, initial: 20 },
  // the slider stops at the run's last step (a link may say more; the step shown is the last)
  {
    id: "at",
    kind: "range",
    symbol: "t",
    min: 1,
    max: 60,
    limit: (s) => s.steps,
    step: 1,
    initial: 1,
  },
];

/** The step shown, from 0: `at` counts from 1, within the run. */
export const stepShown = (state) => Math.min(state.at, state.steps) - 1;

/** A step's words, after where the run is: "Step 3 of 20, η = 10." (the worksheet too). */
export const runText = (msg, state, text) =>
  `${msg.learn.run(stepShown(state) + 1, state.steps, state.eta)} ${text}`;

let playing; // the timer of the one trainer that is playing

/** Step, Train (play the steps), Stop and Reset, and where the run is. */
export function trainerPanel({ state, msg, update, root }) {
  const w = msg.learn;
  const t = stepShown(state);
  const last = state.steps - 1;
  const stop = () => {
    clearInterval(playing);
    playing = undefined;
  };
  const status = el("p", { class: "why-summary", id: "trainer-status", "aria-live": "polite" });
  status.textContent = w.at(t + 1, state.steps);
  const button = (id, text, onclick, disabled) =>
    el("button", { type: "button", id, text, onclick, disabled });
  return el(
    "div",
    { class: "trainer", role: "group", "aria-label": w.trainer },
    button("train-step", w.step, () => update({ at: Math.min(t + 1, last) + 1 }), t >= last),
    button(
      "train-play",
      w.train,
      () => {
        stop();
        let next = t >= last ? 0 : t;
        update({ at: next + 1 });
        playing = setInterval(() => {
          if (!root.querySelector("#train-play")) return stop();
          next += 1;
          if (next > last) return stop();
          update({ at: next + 1 });
        }, 400);
      },
      false,
    ),
    button("train-stop", w.stop, stop, false),
    button(
      "train-reset",
      w.reset,
      () => {
        stop();
        update({ at: 1 });
      },
      t === 0,
    ),
    status,
  );
}

/**
 * Numbers over the steps (the loss, a gradient, a weight, α), as a plot and as a table of the
 * core's numbers: columns [{ label, values }], values for steps 1 … N; `id` names the figure.
 */
export function curvePanel({ msg, state }, columns, title, id = "loss-plot") {
  const w = msg.learn;
  const d = state.digits;
  const steps = columns[0].values.length;
  const ys = columns.flatMap((c) => c.values);
  const [low, high] = [Math.min(0, ...ys), Math.max(0, ...ys)];
  return linePlot({
    id,
    title,
    xLabel: w.stepAxis,
    yLabel: "",
    log: false,
    xTicks: [1, ...[10, 20, 30, 40, 50, 60].filter((x) => x <= steps)],
    yTicks: [
      ...niceTicks(-low)
        .slice(1)
        .map((y) => -y)
        .reverse(),
      ...niceTicks(high),
    ],
    mark: stepShown(state) + 1,
    series: columns.map((c) => ({ label: c.label, points: c.values.map((y, t) => [t + 1, y]) })),
    table: numbers(
      "why-numbers",
      w.tableTitle,
      columns.map((c) => c.label),
      columns[0].values.map((_, t) => [
        w.stepName(t + 1),
        ...columns.map((c) => fmt(c.values[t], d)),
      ]),
    ),
  });
}
