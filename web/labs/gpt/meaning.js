// labs/gpt/meaning.js: what the model lab's loss means. A nat in one sentence; the loss as
// lesson 4's −ln of a weight, here a probability over the vocabulary; what simpler models score
// on the same held-out poems (baselines.json, measured by tools/baselines.mjs), as a table and
// as the loss plot's labelled lines; and why the training loss jumps while the held-out loss is
// the one to watch. Drawing only: the losses are measured, the one piece of arithmetic here is
// e^L, the "1 in N" a loss stands for.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { numbers } from "../kit.js";

/**
 * A loss of L nats: on average (the geometric mean) the right token got 1 in e^L; worked out from
 * L as it is shown at `digits` decimals, so that a learner's e^L gives the same N.
 */
export const oneIn = (loss, digits) => Math.round(Math.exp(Number(loss.toFixed(digits))));

// The four models' held-out losses, the best last.
const scores = (json, baselines) => [
  ["uniform", baselines.uniform],
  ["unigram", baselines.unigram],
  ["bigram", baselines.bigram],
  ["shipped", json.heldOut],
];

/** The loss plot's labelled lines: each model's held-out loss. */
export const levels = (json, baselines, w) =>
  scores(json, baselines).map(([name, y]) => ({ label: w.levelName(name, fmt(y, 2)), y }));

/** The train step's words on the loss, with the numbers they state, and the table of them. */
export function meaningPanel({ msg }, { json, baselines }) {
  const w = msg.gptLab;
  const at2 = (x) => fmt(x, 2);
  const { batch } = json.training;
  const { vocab, context } = json.config;
  return el(
    "div",
    { class: "why-note", id: "loss-meaning" },
    el("p", { id: "loss-nat", text: w.natLine(at2(json.heldOut), oneIn(json.heldOut, 2)) }),
    el("p", { id: "loss-lesson4", text: w.lesson4Line(vocab, baselines.targets, baselines.poems) }),
    el("p", {
      id: "loss-baselines",
      text: w.baselinesLine(
        vocab,
        at2(baselines.uniform),
        at2(baselines.unigram),
        at2(baselines.bigram),
        fmt(baselines.lambda, 2),
        fmt(1 - baselines.lambda, 2),
        at2(json.heldOut),
        context - 1,
      ),
    }),
    numbers(
      "why-numbers model-baselines",
      w.baselinesTitle(baselines.poems),
      [w.lossHead, w.oneInHead],
      // three decimals: e^7.31 is 1,495, not the 1,497 of an even spread
      scores(json, baselines).map(([name, y]) => [
        w.modelName[name],
        fmt(y, 3),
        w.oneIn(oneIn(y, 3)),
      ]),
    ),
    el("p", { id: "loss-jumps", text: w.jumpsLine(batch, context, baselines.poems) }),
  );
}
