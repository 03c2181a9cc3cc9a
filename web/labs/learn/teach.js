// labs/learn/teach.js: teach 书 to read. The book sentence's self-attention, with W_Q and W_K
// learned by gradient descent (learn.hpp) on one loss: the cross-entropy of 书's row of weights
// against 读, L = −log weights[书][读]. The other rows are not in the loss: they change only as
// W_Q and W_K do. It starts from seeded random weights (the core's unit-variance stream), where
// 书 gives 读 about 2% (the hand-made weights already give 0.194: a toggle starts from them).
import { cellRef, factor, fmt } from "../../format.js";
import { bounds, line, plain, roundingOf, shownAt, shownDot, derivationOf } from "../../derive.js";
import { matrix, lighting } from "../../steps.js";
import { sceneById } from "../../scenes.js";
import { el, heatmapView } from "../../views.js";
import { signedHeatmap, kitStyles } from "../kit.js";
import { curvePanel, descentParams, runText, stepShown, trainerPanel } from "./shared.js";
import { withLearnWords } from "./words.js";
import { teachScript } from "./scripts.js";

const book = sceneById.book;
const [reader, read] = [10, 4]; // 书 and 读, 0-based
const n = book.tokens.length;
const column = (m, j) => m.map((row) => row[j]);

// The entries of a product Xᵀ·D at (a, b) that are not 0: Σ_i X[i][a]·D[i][b].
const terms = (x, d, a, b) =>
  x.flatMap((row, i) => (row[a] !== 0 && d[i][b] !== 0 ? [[row[a], d[i][b]]] : []));

function startWeights(core, state) {
  if (state.hand) return { wq: book.inputs.wq, wk: book.inputs.wk };
  const { q, k } = core.scalingBatch({ dK: 5, nKeys: 1, rows: 5, seed: state.draw });
  return { wq: q, wk: k };
}

// What a step's words say, from the core's numbers at the step shown: where it started, how
// many updates the weights have had, 书's weight on 读, whether the loss fell while it grew, and
// 书's weights on 读 and on the other word it gives most weight to (why the gradient has its
// form: they are this step's operands, so predict mode and the worksheet give no result away).
function stepFacts(trace, state) {
  const t = stepShown(state);
  const [first, last] = [trace.steps[0], trace.steps[trace.steps.length - 1]];
  const weight = (s) => fmt(s.trace.weights[reader][read], state.digits);
  const row = trace.steps[t].trace.weights[reader];
  const top = row.reduce(
    (best, w, j) => (j !== read && (best < 0 || w > row[best]) ? j : best),
    -1,
  );
  return {
    readWeight: fmt(row[read], state.digits),
    top: book.tokens[top],
    topWeight: fmt(row[top], state.digits),
    hand: state.hand,
    t,
    weight: weight(trace.steps[t]),
    weight0: weight(first),
    falls:
      last.loss < first.loss &&
      last.trace.weights[reader][read] > first.trace.weights[reader][read],
  };
}

// The attention heatmap at this step, 书's row in front.
function heatmapPanel({ trace, state, msg, labels, stepId, predicting }) {
  if (predicting) return undefined;
  const t = stepShown(state);
  // after the update, the weights the next step starts from
  const shown = stepId === "update" ? (trace.steps[t + 1] ?? trace.after) : trace.steps[t];
  const title = stepId === "update" ? msg.teach.heatmapAfter(t + 1) : msg.teach.heatmap(t + 1);
  return heatmapView(shown.trace.weights, labels.queries, labels.keys, {
    digits: Math.min(state.digits, 3),
    title,
    focusRow: reader,
    gloss: msg.gloss,
    legend: msg.views.legend,
  });
}

// dW_Q and dW_K as signed heatmaps.
function gradientsPanel({ trace, state, labels, predicting }) {
  // the gradients are this step's results: hidden, pictures too, until the learner answers
  if (predicting) return undefined;
  const g = trace.steps[stepShown(state)].gradients;
  return [
    signedHeatmap(g.wq, labels.xDims, labels.dims, { title: "dL/dW_Q", digits: state.digits }),
    signedHeatmap(g.wk, labels.xDims, labels.dims, { title: "dL/dW_K", digits: state.digits }),
  ];
}

function summaryPanel({ trace, state, msg }) {
  const first = trace.steps[0];
  const last = trace.steps[trace.steps.length - 1];
  const d = state.digits;
  return el(
    "div",
    { class: "why-note" },
    el("p", {
      class: "why-summary",
      id: "teach-summary",
      text: msg.teach.summary(
        trace.steps.length,
        fmt(first.trace.weights[reader][read], d),
        fmt(last.trace.weights[reader][read], d),
        fmt(first.loss, d),
        fmt(last.loss, d),
      ),
    }),
    el("p", { text: msg.teach.real }),
  );
}

// What a cell's derivation is made from: the step shown and the one after it, their numbers.
function cellOf(mid, i, j, { trace, state, msg, inputs }) {
  const t = stepShown(state);
  const s = trace.steps[t];
  return {
    mid,
    i,
    j,
    t,
    s,
    next: trace.steps[t + 1] ?? trace,
    g: s.gradients,
    p: state.digits,
    w: s.trace.weights[reader],
    state,
    msg,
    x: inputs.x,
  };
}

// An entry of Xᵀ·D, dW[a][b] = Σ_i X[i][a]·D[i][b], with its terms that are not 0.
function sumOfTerms({ i: a, j: b, p, msg, x }, name, d, value) {
  const nonzero = terms(x, d, a, b);
  const lhs = `${cellRef(name, a, b)} = Σ_i X[i][${a + 1}]·${name.replace("W_", "")}[i][${b + 1}] = `;
  if (!nonzero.length) return [plain(`${lhs}0 (${msg.teach.noTerms})`)];
  return [
    plain(msg.teach.termsNote(nonzero.length, x.length)),
    line(
      lhs,
      value,
      p,
      bounds.dot(
        nonzero.map((q) => q[0]),
        nonzero.map((q) => q[1]),
      ),
      (q) => nonzero.map(([a2, b2]) => `${factor(a2, q)}×${factor(b2, q)}`).join(" + "),
    ),
  ];
}

// An entry of W − η·dL/dW.
const updated = ({ i, j, p, state, msg }, name, old, grad, value) =>
  line(
    `${cellRef(msg.teach.newName(name), i, j)} = ${name} − η × dL/d${name} = `,
    value,
    p,
    bounds.dot([1, state.eta], [old, grad]),
    (q) => `${fmt(old, q)} − ${state.eta} × ${factor(grad, q)}`,
  );

const weightLine = ({ mid, i, j, t, s, p, state, msg }) => [
  plain(t === 0 ? msg.teach.startLine(state.hand, state.draw) : msg.teach.fromStep(t)),
  plain(`${cellRef(mid === "wq" ? "W_Q" : "W_K", i, j)} = ${fmt(s[mid][i][j], p)}`),
];

// How each cell of the lab is made, by matrix id.
const derivations = {
  wq: weightLine,
  wk: weightLine,
  x: ({ i, j, msg, x }) => [plain(`${cellRef("X", i, j)} = ${x[i][j]} (${msg.derive.input})`)],
  weights: ({ j, p, w, msg }) => [plain(msg.teach.weightsLine(fmt(w[j], p)))],
  loss: ({ s, p, w }) => [
    line(
      "L = −ln weights[书][读] = ",
      s.loss,
      p,
      (q) => roundingOf(w[read], q) / (w[read] - roundingOf(w[read], q)),
      (q) => `−ln ${fmt(w[read], q)}`,
    ),
  ],
  dscaled: ({ j, g, p, w, msg }) => [
    plain(msg.teach.crossEntropy),
    line(
      `${cellRef("dL/d(scaled)", reader, j)} = weights[书][${j + 1}] − ${j === read ? 1 : 0} = `,
      g.scaled[reader][j],
      p,
      (q) => roundingOf(w[j], q),
      (q) => `${fmt(w[j], q)} − ${j === read ? 1 : 0}`,
    ),
  ],
  dq: ({ j, s, g, p }) => [
    line(
      `${cellRef("dL/dQ", reader, j)} = Σ_k dL/d(scores)[书][k]·K[k][${j + 1}] = `,
      g.q[reader][j],
      p,
      bounds.dot(g.scores[reader], column(s.trace.k, j)),
      (q) =>
        g.scores[reader].map((x, k) => `${factor(x, q)}×${factor(s.trace.k[k][j], q)}`).join(" + "),
    ),
  ],
  dk: ({ i, j, s, g, p, msg }) => [
    line(
      `${cellRef("dL/dK", i, j)} = dL/d(scores)[书][${i + 1}]·Q[书][${j + 1}] = `,
      g.k[i][j],
      p,
      bounds.dot([g.scores[reader][i]], [s.trace.q[reader][j]]),
      (q) => `${factor(g.scores[reader][i], q)}×${factor(s.trace.q[reader][j], q)}`,
    ),
    plain(msg.teach.oneRow),
  ],
  dwq: (c) => sumOfTerms(c, "dL/dW_Q", c.g.q, c.g.wq[c.i][c.j]),
  dwk: (c) => sumOfTerms(c, "dL/dW_K", c.g.k, c.g.wk[c.i][c.j]),
  nwq: (c) => [updated(c, "W_Q", c.s.wq[c.i][c.j], c.g.wq[c.i][c.j], c.next.wq[c.i][c.j])],
  nwk: (c) => [updated(c, "W_K", c.s.wk[c.i][c.j], c.g.wk[c.i][c.j], c.next.wk[c.i][c.j])],
};

export const teachLab = {
  id: "teach",
  styles: [kitStyles],
  core: "labs",

  params: () => [
    ...descentParams({ min: 0.1, max: 3, step: 0.1, initial: 0.5 }),
    { id: "draw", kind: "range", symbol: "seed", min: 1, max: 50, step: 1, initial: 1 },
    { id: "hand", kind: "toggle", initial: false, control: true },
  ],

  compute(core, scene, state) {
    const start = startWeights(core, state);
    const run = core.teachDescent(book.inputs.x, start.wq, start.wk, book.inputs.wv, {
      row: reader,
      key: read,
      eta: state.eta,
      steps: state.steps,
    });
    return { inputs: { x: book.inputs.x, wv: book.inputs.wv }, trace: run };
  },

  steps: () => [
    { id: "start", panels: ["heatmap"], inStep: ["trainer"] },
    { id: "gradient", panels: ["gradients"], inStep: ["trainer"] },
    { id: "update", panels: ["heatmap"], inStep: ["trainer"] },
    { id: "curve", panels: ["curve", "heatmap"], inStep: ["summary"] },
  ],

  labels: (scene, msg) => {
    const dims = book.dims.map((d) => msg.dims[d]);
    return { queries: book.tokens, keys: book.tokens, dims, xDims: dims };
  },

  view(stepId, { trace, state, labels, inputs, msg }) {
    const t = stepShown(state);
    const s = trace.steps[t];
    const next = trace.steps[t + 1] ?? trace;
    const g = s.gradients;
    const w = (id, label, data, role) => matrix(id, label, data, labels.xDims, labels.dims, role);
    const readerRow = (id, label, data, role = "result") =>
      matrix(id, label, [data], [book.tokens[reader]], labels.keys, role);
    const views = {
      start: {
        focusMatrix: "loss",
        matrices: [
          w("wq", "W_Q", s.wq, "operand"),
          w("wk", "W_K", s.wk, "operand"),
          readerRow("weights", "weights[书]", s.trace.weights[reader], "operand"),
          matrix("loss", "L", [[s.loss]], ["L"], [""], "result"),
        ],
      },
      gradient: {
        focusMatrix: "dwq",
        matrices: [
          readerRow("dscaled", "dL/d(scaled)[书]", g.scaled[reader]),
          matrix("dq", "dL/dQ[书]", [g.q[reader]], [book.tokens[reader]], labels.dims),
          matrix("dk", "dL/dK", g.k, labels.keys, labels.dims),
          matrix("x", "X", inputs.x, labels.queries, labels.xDims, "operand"),
          w("dwq", "dL/dW_Q", g.wq, "result"),
          w("dwk", "dL/dW_K", g.wk, "result"),
        ],
      },
      update: {
        focusMatrix: "nwq",
        matrices: [
          w("wq", "W_Q", s.wq, "operand"),
          w("dwq", "dL/dW_Q", g.wq, "operand"),
          w("nwq", msg.teach.newName("W_Q"), next.wq, "result"),
          w("nwk", msg.teach.newName("W_K"), next.wk, "result"),
        ],
      },
      curve: { focusMatrix: null, matrices: [] },
    };
    return views[stepId];
  },

  derivation(mid, i, j, ctx) {
    return derivationOf(derivations[mid]?.(cellOf(mid, i, j, ctx)) ?? []);
  },

  worked(mid, i, j, { trace, state, inputs }) {
    const t = stepShown(state);
    const s = trace.steps[t];
    const g = s.gradients;
    const p = state.digits;
    const at = (x) => shownAt(x, p);
    const pairs = (d) => terms(inputs.x, d, i, j);
    switch (mid) {
      case "loss":
        return [-Math.log(at(s.trace.weights[reader][read]))];
      case "dscaled":
        return [at(s.trace.weights[reader][j]) - (j === read ? 1 : 0)];
      case "dq":
        return [shownDot(g.scores[reader], column(s.trace.k, j), p)];
      case "dk":
        return [at(g.scores[reader][i]) * at(s.trace.q[reader][j])];
      case "dwq":
        return [shownDot(...unzip(pairs(g.q)), p)];
      case "dwk":
        return [shownDot(...unzip(pairs(g.k)), p)];
      case "nwq":
        return [at(s.wq[i][j]) - state.eta * at(g.wq[i][j])];
      case "nwk":
        return [at(s.wk[i][j]) - state.eta * at(g.wk[i][j])];
      default:
        return [];
    }
  },

  highlights(mid, i, j) {
    const { h, add } = lighting();
    add(mid, "cells", [i, j]);
    if (mid === "dwq") {
      add("x", "cols", i);
      add("dq", "cols", j);
    }
    if (mid === "dwk") {
      add("x", "cols", i);
      add("dk", "cols", j);
    }
    if (mid === "nwq") {
      add("wq", "cells", [i, j]);
      add("dwq", "cells", [i, j]);
    }
    if (mid === "loss") add("weights", "cells", [0, read]);
    return h;
  },

  question(stepId, { trace, state, msg, labels }) {
    if (stepId !== "gradient") return undefined;
    const g = trace.steps[stepShown(state)].gradients.wq;
    const size = g.map((row) => Math.max(...row.map(Math.abs)));
    const most = Math.max(...size);
    return {
      text: msg.teach.question,
      options: labels.xDims,
      answer: size.flatMap((x, a) => (x === most ? [a] : [])),
    };
  },

  text: (stepId, { msg, state, trace }) =>
    runText(msg, state, msg.steps[stepId].text(stepFacts(trace, state))),

  // the row of W_Q (and of dW_Q) that moves: 书's one feature, "is a thing"
  focusRow: () => 3,

  script: (kind, { msg, state, trace, inputs }) =>
    teachScript(kind, {
      x: inputs.x,
      wq: trace.steps[0].wq,
      wk: trace.steps[0].wk,
      wv: inputs.wv,
      row: reader,
      key: read,
      eta: state.eta,
      steps: state.steps,
      digits: state.digits,
      run: trace,
      title: msg.scenes.teach.title,
    }),

  // "Download as a spreadsheet": the step shown's loss, gradient and update as live formulas
  // (./sheets.js, loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).teachSheet(ctx, link, { reader, read }),

  panels: {
    trainer: trainerPanel,
    heatmap: heatmapPanel,
    gradients: gradientsPanel,
    summary: summaryPanel,
    curve: (ctx) =>
      curvePanel(
        ctx,
        [
          { label: "L", values: ctx.trace.steps.map((s) => s.loss) },
          {
            label: "weights[书][读]",
            values: ctx.trace.steps.map((s) => s.trace.weights[reader][read]),
          },
        ],
        ctx.msg.teach.curveTitle,
      ),
  },

  words: withLearnWords({
    en: {
      ui: { draw: "Random seed (the start)", hand: "Start from the hand-made weights" },
      steps: {
        start: {
          title: "What 书 attends to, and the loss",
          text: ({ hand, t, weight, weight0 }) =>
            `${
              t > 0
                ? `After ${t === 1 ? "1 update" : `${t} updates`} of W_Q and W_K, 书 gives 读 ${weight} of its weight (at step 1, before training: ${weight0}).`
                : hand
                  ? `Before training, W_Q is the book scene's hand-made one and W_K is I: 书 already gives 读 the most, but only ${weight}.`
                  : `Before training, W_Q and W_K are seeded random numbers, not chosen by anyone: 书 gives 读 ${weight} of its weight.`
            } The loss is the cross-entropy of 书's row against 读: L = −ln weights[书][读], 0 when 书 gives 读 all its weight. Only 书's row is in the loss; the other rows change only because W_Q and W_K do.`,
        },
        gradient: {
          title: "The gradient of every entry of W_Q and W_K",
          text: ({ readWeight, top, topWeight }) =>
            `Why it has this form: 书's weights add up to 1, so raising one of its scores gives that word more weight and takes weight from every other word in proportion to its own; raising 读's score lowers the loss at the rate 1 minus 读's weight, ${readWeight}, and raising ${top}'s raises it at the rate of ${top}'s weight, ${topWeight}. For a cross-entropy, dL/d(scaled) of 书's row is its weights minus 1 at 读. Back through the scores and the projections: dL/dW_Q = Xᵀ·dL/dQ and dL/dW_K = Xᵀ·dL/dK. Pick an entry to see it as the sum of its terms.`,
        },
        update: {
          title: "One step: W ← W − η·dL/dW",
          text: () =>
            "Every entry of W_Q and W_K moves against its gradient, by η times it. The heatmap shows the weights after this step's update.",
        },
        curve: {
          title: "Training, step after step",
          text: ({ falls }) =>
            falls
              ? "The loss falls and 书's weight on 读 grows as W_Q and W_K are learned."
              : "The loss and 书's weight on 读, step by step.",
        },
      },
      scenes: {
        teach: {
          title: "Teach 书 to read: learning W_Q and W_K by gradient descent",
          analogy:
            "In the book scene W_Q was made by hand to say what each feature looks for. Here W_Q and W_K start random and are learned from one example: 书 should look at 读.",
        },
      },
      teach: {
        heatmap: (t) => `The weights at step ${t}`,
        heatmapAfter: (t) => `The weights after step ${t}'s update`,
        noTerms: "every term has X[i][a] = 0 or a gradient of 0",
        termsNote: (k, all) =>
          `Of the ${all} terms, ${k === 1 ? "1 is" : `${k} are`} not 0 (X is mostly zeros):`,
        curveTitle: "The loss and 书's weight on 读, step by step",
        newName: (name) => `${name} new`,
        startLine: (hand, seed) =>
          hand
            ? "Step 1 starts from the book scene's hand-made W_Q (and W_K = I)."
            : `Step 1 starts from the core's seeded random numbers (seed ${seed}), unit variance.`,
        fromStep: (t) => `Step ${t + 1}'s weights are step ${t}'s, updated.`,
        weightsLine: (w) => `softmax of 书's scaled scores (the walkthrough's softmax step): ${w}`,
        crossEntropy:
          "For L = −ln weights[书][读]: dL/d(weights)[书][读] = −1/weights[书][读], and through the softmax dL/d(scaled)[书][j] = weights[书][j] − (1 if j is 读, else 0).",
        oneRow: "Only 书's row of dL/d(scores) is not 0: the loss is on that row alone.",
        question: "Before this step: in which row of W_Q is the entry that moves most?",
        summary: (nSteps, w0, w1, l0, l1) =>
          `At step ${nSteps}, the last, 书 gives 读 ${w1} of its weight (at step 1: ${w0}); from step 1 to step ${nSteps} the loss went from ${l0} to ${l1}.`,
        real: "Real models learn all four matrices, W_Q, W_K, W_V and W_O, and everything around them, from data: not from one hand-picked target, but from predicting the next token of millions of sentences. The next lesson trains such a model, small, on 唐诗三百首.",
      },
    },
    zh: {
      ui: { draw: "随机种子（起点）", hand: "从手工权重开始" },
      steps: {
        start: {
          title: "“书”关注什么，损失多大",
          text: ({ hand, t, weight, weight0 }) =>
            `${
              t > 0
                ? `W_Q 和 W_K 已经更新了 ${t} 次，“书”给“读”的权重是 ${weight}（第 1 步、训练之前是 ${weight0}）。`
                : hand
                  ? `训练之前，W_Q 是“书”场景的手工 W_Q，W_K 是单位矩阵 I：“书”已经给“读”最多的权重，但只有 ${weight}。`
                  : `训练之前，W_Q 和 W_K 是带种子的随机数，不是谁挑的：“书”给“读”的权重是 ${weight}。`
            }损失是“书”这一行对“读”的交叉熵：L = −ln 权重[书][读]，“书”把全部权重给“读”时为 0。损失里只有“书”这一行；别的行只因为 W_Q 和 W_K 变了而变。`,
        },
        gradient: {
          title: "W_Q 和 W_K 每个元素的梯度",
          text: ({ readWeight, top, topWeight }) =>
            `为什么是这个形式：“书”的权重加起来是 1，所以提高它的一个分数，就给那个词更多权重，并按各自权重的比例从其他每个词那里拿走；提高“读”的分数，损失下降的速率是 1 减去“读”的权重 ${readWeight}，提高“${top}”的分数，损失上升的速率是“${top}”的权重 ${topWeight}。对交叉熵来说，“书”这一行的 dL/d(scaled) 就是它的权重，在“读”那一格减去 1。再经过分数和投影往回传：dL/dW_Q = Xᵀ·dL/dQ，dL/dW_K = Xᵀ·dL/dK。点击一个元素，看它由哪些项相加而来。`,
        },
        update: {
          title: "一步：W ← W − η·dL/dW",
          text: () =>
            "W_Q 和 W_K 的每个元素都朝梯度的反方向移动 η 倍梯度。热力图是这一步更新之后的权重。",
        },
        curve: {
          title: "一步一步地训练",
          text: ({ falls }) =>
            falls
              ? "随着 W_Q 和 W_K 被学出来，损失下降，“书”给“读”的权重变大。"
              : "损失和“书”给“读”的权重，一步一步。",
        },
      },
      scenes: {
        teach: {
          title: "教“书”去读：用梯度下降学出 W_Q 和 W_K",
          analogy:
            "在“书”的场景里，W_Q 是手工设计的，说明每个特征要找什么。这里 W_Q 和 W_K 从随机数开始，从一个例子里学出来：“书”应该去看“读”。",
        },
      },
      teach: {
        heatmap: (t) => `第 ${t} 步的权重`,
        heatmapAfter: (t) => `第 ${t} 步更新之后的权重`,
        noTerms: "每一项都有 X[i][a] = 0 或梯度为 0",
        termsNote: (k, all) => `${all} 项里有 ${k} 项不为 0（X 大多是 0）：`,
        curveTitle: "损失和“书”给“读”的权重，一步一步",
        newName: (name) => `新的 ${name}`,
        startLine: (hand, seed) =>
          hand
            ? "第 1 步从“书”场景的手工 W_Q（以及 W_K = I）开始。"
            : `第 1 步从核心带种子的随机数（种子 ${seed}，方差为 1）开始。`,
        fromStep: (t) => `第 ${t + 1} 步的权重是第 ${t} 步更新之后的。`,
        weightsLine: (w) => `“书”这一行缩放后分数的 softmax（和讲解里的 softmax 一步相同）：${w}`,
        crossEntropy:
          "对 L = −ln 权重[书][读]：dL/d(权重)[书][读] = −1/权重[书][读]，经过 softmax 之后 dL/d(scaled)[书][j] = 权重[书][j] −（j 是“读”时为 1，否则为 0）。",
        oneRow: "dL/d(分数) 只有“书”这一行不为 0：损失只在这一行上。",
        question: "这一步之前：W_Q 里变化最大的元素在哪一行？",
        summary: (nSteps, w0, w1, l0, l1) =>
          `最后一步（第 ${nSteps} 步）“书”给“读”的权重是 ${w1}（第 1 步是 ${w0}）；从第 1 步到第 ${nSteps} 步，损失从 ${l0} 变为 ${l1}。`,
        real: "真正的模型从数据中学出全部四个矩阵 W_Q、W_K、W_V、W_O，以及它们周围的一切：不是靠一个手挑的目标，而是预测上百万个句子的下一个字。下一课就训练这样一个模型，很小，用的是唐诗三百首。",
      },
    },
  }),
};

const unzip = (pairs) => [pairs.map((q) => q[0]), pairs.map((q) => q[1])];

export default [{ id: "teach", lab: teachLab, inputs: {} }];
