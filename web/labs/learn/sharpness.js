// labs/learn/sharpness.js: learn the sharpness. The age scene's lookup with its query times α:
// output(α) = 19 + 3/(3e^{α/√3} + 1), L(α) = (output − target)². Gradient descent moves α by
// itself (learn.hpp): each step writes dL/dα out through the chain, every factor with its
// number, and the update α ← α − η·dL/dα. Target 19 (the Zhangs' exact mean) has no finite
// minimum: α grows and learning slows as the softmax saturates; target 19.2 has one, which a
// large η overshoots. d2l's parametric attention pooling (zh-v2 §10.2.4), made checkable.
import { cellRef, factor, fmt } from "../../format.js";
import { bounds, line, plain, roundingOf, shownAt, shownDot, derivationOf } from "../../derive.js";
import {
  derivation as attentionDerivation,
  lighting,
  matrix,
  worked as attentionWorked,
} from "../../steps.js";
import { sceneById } from "../../scenes.js";
import { el } from "../../views.js";
import { curvePanel, descentParams, runText, stepShown, trainerPanel } from "./shared.js";
import { withLearnWords } from "./words.js";
import { sharpnessScript } from "./scripts.js";
import { kitStyles } from "../kit.js";

const age = sceneById.age.inputs;
const alpha0 = 1;
// The target: the Zhangs' mean, 19, or one that some α reaches exactly.
const targetOf = (state) => (state.finite ? 19.2 : 19);
// q = [1, 0, 0], so q·K[j] is K[j][1], and dL/dα = dL/dq · q = dL/dq[1].
const qK = age.k.map((row) => row[0]);

// (o − t)² for the loss, 2·(o − t) for its gradient: bounds of what rounding o can do.
const squareBound = (o, t) => (p) => {
  const u = roundingOf(o, p);
  return 2 * Math.abs(o - t) * u + u * u;
};
// w × (a − b): the gradient of a logit
const differenceBound = (w, a, b) => (p) => {
  const [uw, ua, ub] = [w, a, b].map((x) => roundingOf(x, p));
  return uw * Math.abs(a - b) + Math.abs(w) * (ua + ub) + uw * (ua + ub);
};

// Why the softmax's part of the chain has its form, for the key that should not match (李四):
// its weight, its age and the output at the step shown, the operands of the chain's step.
function pull(trace, state, labels) {
  const s = trace.path[stepShown(state)];
  const j = sceneById.age.compare.outlier;
  return {
    key: labels.keys[j],
    weight: fmt(s.trace.weights[0][j], state.digits),
    age: age.v[j][0],
    output: fmt(s.trace.output[0][0], state.digits),
  };
}

// Target 19.2: whether α went past the minimum, read from the core's gradients. At α = 1 it is
// below it (dL/dα < 0); the first step with dL/dα > 0 has α above it, and moves α back down.
function overshoot(path, w, d) {
  const past = path.findIndex((s) => s.dAlpha > 0);
  if (past < 0) return w.creep(path.length);
  const s = path[past];
  return w.overshoot(past + 1, fmt(s.alpha, d), fmt(s.dAlpha, d), fmt(s.next, d));
}

function summaryPanel({ trace, state, msg }) {
  const w = msg.sharpness;
  const d = state.digits;
  const last = trace.path[trace.path.length - 1];
  const first = trace.path[0];
  return el(
    "div",
    { class: "why-note" },
    el("p", {
      class: "why-summary",
      id: "sharpness-summary",
      text: w.summary(
        trace.path.length,
        fmt(last.alpha, d),
        fmt(first.loss, d),
        fmt(last.loss, d),
        fmt(first.dAlpha, d),
        fmt(last.dAlpha, d),
      ),
    }),
    el("p", { text: state.finite ? w.finiteNote : w.openNote }),
    state.finite && el("p", { id: "sharpness-overshoot", text: overshoot(trace.path, w, d) }),
    el(
      "p",
      {},
      w.d2l,
      " ",
      el("a", {
        href: "https://zh-v2.d2l.ai/chapter_attention-mechanisms/nadaraya-waston.html",
        text: "d2l zh-v2 §10.2.4",
      }),
    ),
  );
}

// What a cell's derivation is made from: the step shown, its numbers, and the update line.
function cellOf(mid, i, j, { trace, state, msg }) {
  const t = stepShown(state);
  const s = trace.path[t];
  const p = state.digits;
  const update = (step) =>
    line(
      "α − η × dL/dα = ",
      step.next,
      p,
      bounds.dot([1, state.eta], [step.alpha, step.dAlpha]),
      (q) => `${fmt(step.alpha, q)} − ${state.eta} × ${factor(step.dAlpha, q)}`,
    );
  return {
    mid,
    i,
    j,
    t,
    s,
    p,
    g: s.gradients,
    w: s.trace.weights[0],
    o: s.trace.output[0][0],
    target: trace.target,
    f: (x) => fmt(x, p),
    update,
    trace,
    msg,
  };
}

// How each cell of the lab is made, by matrix id: its lines, from what cellOf() gives.
const given = ({ mid, i, j, f, msg }) => [
  plain(`${cellRef(mid.toUpperCase(), i, j)} = ${f(age[mid][i][j])} (${msg.derive.input})`),
];
const softmaxStep = ({ mid, j, s, p, msg }) =>
  attentionDerivation(mid, 0, j, { trace: s.trace, inputs: age, msg, digits: p }).lines;

const derivations = {
  alpha: ({ t, update, trace, msg }) =>
    t === 0
      ? [plain(msg.sharpness.start(alpha0))]
      : [plain(msg.sharpness.previous(t)), update(trace.path[t - 1])],
  next: ({ s, update }) => [update(s)],
  k: given,
  v: given,
  scores: ({ j, s, p }) => [
    line(
      `${cellRef("scores", 0, j)} = α × (q·K[${j + 1}]) = `,
      s.trace.scores[0][j],
      p,
      bounds.dot([s.alpha], [qK[j]]),
      (q) => `${fmt(s.alpha, q)} × ${factor(qK[j], q)}`,
    ),
  ],
  scaled: softmaxStep,
  weights: softmaxStep,
  output: softmaxStep,
  loss: ({ s, p, o, target }) => [
    line(
      "L = (output − target)² = ",
      s.loss,
      p,
      squareBound(o, target),
      (q) => `(${fmt(o, q)} − ${target})²`,
    ),
  ],
  dOutput: ({ s, p, o, target }) => [
    line(
      "dL/d(output) = 2 × (output − target) = ",
      s.dOutput,
      p,
      (q) => 2 * roundingOf(o, q),
      (q) => `2 × (${fmt(o, q)} − ${target})`,
    ),
  ],
  dWeights: ({ j, s, p, g }) => [
    line(
      `${cellRef("dL/d(weights)", 0, j)} = dL/d(output) × V[${j + 1}] = `,
      g.weights[0][j],
      p,
      bounds.dot([s.dOutput], [age.v[j][0]]),
      (q) => `${fmt(s.dOutput, q)} × ${factor(age.v[j][0], q)}`,
    ),
  ],
  rowDot: ({ p, g, w }) => [
    line("Σ weights × dL/d(weights) = ", g.rowDot[0], p, bounds.dot(w, g.weights[0]), (q) =>
      w.map((x, k) => `${fmt(x, q)}×${factor(g.weights[0][k], q)}`).join(" + "),
    ),
  ],
  dScaled: ({ j, p, g, w }) => [
    line(
      `${cellRef("dL/d(scaled)", 0, j)} = weights[1][${j + 1}] × (dL/d(weights)[1][${j + 1}] − Σ) = `,
      g.scaled[0][j],
      p,
      differenceBound(w[j], g.weights[0][j], g.rowDot[0]),
      (q) => `${fmt(w[j], q)} × (${fmt(g.weights[0][j], q)} − ${fmt(g.rowDot[0], q)})`,
    ),
  ],
  dScores: ({ j, s, p, g }) => [
    line(
      `${cellRef("dL/d(scores)", 0, j)} = dL/d(scaled)[1][${j + 1}] × 1/√3 = `,
      g.scores[0][j],
      p,
      bounds.dot([g.scaled[0][j]], [s.trace.scale]),
      (q) => `${factor(g.scaled[0][j], q)} × ${fmt(s.trace.scale, q)}`,
    ),
  ],
  dAlpha: ({ s, p, g, msg }) => [
    plain(msg.sharpness.alphaChain),
    line(
      "dL/dα = Σ dL/d(scores)[1][j] × (q·K[j]) = ",
      s.dAlpha,
      p,
      bounds.dot(g.scores[0], qK),
      (q) => g.scores[0].map((x, k) => `${factor(x, q)}×${qK[k]}`).join(" + "),
    ),
  ],
};

export const sharpnessLab = {
  id: "sharpness",
  styles: [kitStyles],
  core: "labs",

  params: () => [
    ...descentParams({ min: 1, max: 60, step: 1, initial: 10 }),
    { id: "finite", kind: "toggle", initial: false, control: true },
  ],

  compute(core, scene, state) {
    const target = targetOf(state);
    const path = core.sharpnessDescent(age.q, age.k, age.v, {
      target,
      alpha: alpha0,
      eta: state.eta,
      steps: state.steps,
    });
    return { inputs: { ...age }, trace: { path, target } };
  },

  steps: () => [
    { id: "task", panels: [], inStep: ["trainer"] },
    { id: "chain", panels: [], inStep: ["trainer"] },
    { id: "update", panels: [], inStep: ["trainer"] },
    { id: "curve", panels: ["alpha", "curve"], inStep: ["summary"] },
  ],

  labels: (scene, msg) => ({
    queries: [msg.labels.queryZhang],
    keys: sceneById.age.keyLabels.map((k) => msg.labels[k]),
    values: [msg.labels.age],
    dims: sceneById.age.dims.map((d) => msg.dims[d]),
  }),

  view(stepId, { trace, state, labels, msg }) {
    const s = trace.path[stepShown(state)];
    const one = (id, label, x, role = "operand") => matrix(id, label, [[x]], [label], [""], role);
    const row = (id, label, data, role = "result") =>
      matrix(id, label, [data], labels.queries, labels.keys, role);
    const views = {
      task: {
        focusMatrix: "loss",
        matrices: [
          one("alpha", "α", s.alpha),
          matrix("k", "K", age.k, labels.keys, labels.dims),
          row("scores", "scores", s.trace.scores[0], "operand"),
          row("scaled", "scaled", s.trace.scaled[0], "operand"),
          row("weights", "weights", s.trace.weights[0], "operand"),
          matrix("v", "V", age.v, labels.keys, labels.values),
          one("output", "output", s.trace.output[0][0]),
          one("loss", "L", s.loss, "result"),
        ],
      },
      chain: {
        focusMatrix: "dAlpha",
        matrices: [
          one("output", "output", s.trace.output[0][0]),
          one("dOutput", "dL/d(output)", s.dOutput, "result"),
          row("dWeights", "dL/d(weights)", s.gradients.weights[0]),
          row("weights", "weights", s.trace.weights[0], "operand"),
          one("rowDot", "Σ weights × dL/d(weights)", s.gradients.rowDot[0], "aux"),
          row("dScaled", "dL/d(scaled)", s.gradients.scaled[0]),
          row("dScores", "dL/d(scores)", s.gradients.scores[0]),
          one("dAlpha", "dL/dα", s.dAlpha, "result"),
        ],
      },
      update: {
        focusMatrix: "next",
        matrices: [
          one("alpha", "α", s.alpha),
          one("dAlpha", "dL/dα", s.dAlpha),
          one("next", msg.sharpness.newAlpha, s.next, "result"),
        ],
      },
      curve: { focusMatrix: null, matrices: [] },
    };
    return views[stepId];
  },

  derivation(mid, i, j, ctx) {
    return derivationOf(derivations[mid]?.(cellOf(mid, i, j, ctx)) ?? []);
  },

  worked(mid, i, j, { trace, state }) {
    const s = trace.path[stepShown(state)];
    const p = state.digits;
    const at = (x) => shownAt(x, p);
    const g = s.gradients;
    const o = at(s.trace.output[0][0]);
    switch (mid) {
      case "next":
        return [at(s.alpha) - state.eta * at(s.dAlpha)];
      case "scores":
        return [at(s.alpha) * qK[j]];
      case "scaled":
      case "weights":
      case "output":
        return attentionWorked(mid, 0, j, { trace: s.trace, inputs: age, digits: p });
      case "loss":
        return [(o - trace.target) ** 2];
      case "dOutput":
        return [2 * (o - trace.target)];
      case "dWeights":
        return [at(s.dOutput) * age.v[j][0]];
      case "rowDot":
        return [shownDot(s.trace.weights[0], g.weights[0], p)];
      case "dScaled":
        return [at(s.trace.weights[0][j]) * (at(g.weights[0][j]) - at(g.rowDot[0]))];
      case "dScores":
        return [at(g.scaled[0][j]) * at(s.trace.scale), at(g.scaled[0][j]) * s.trace.scale];
      case "dAlpha":
        return [shownDot(g.scores[0], qK, p)];
      default:
        return [];
    }
  },

  highlights(mid, i, j) {
    const { h, add } = lighting();
    add(mid, "cells", [i, j]);
    const cell = (id, c = 0) => add(id, "cells", [0, c]);
    const lit = {
      scores: () => (cell("alpha"), add("k", "rows", j)),
      scaled: () => cell("scores", j),
      loss: () => cell("output"),
      dOutput: () => cell("output"),
      dWeights: () => (cell("dOutput"), add("v", "rows", j)),
      rowDot: () => (add("weights", "rows", 0), add("dWeights", "rows", 0)),
      dScaled: () => (cell("weights", j), cell("dWeights", j), cell("rowDot")),
      dScores: () => cell("dScaled", j),
      dAlpha: () => add("dScores", "rows", 0),
      next: () => (cell("alpha"), cell("dAlpha")),
    };
    lit[mid]?.();
    return h;
  },

  question(stepId, { trace, state, msg }) {
    if (stepId !== "update") return undefined;
    const s = trace.path[stepShown(state)];
    const options = [msg.learn.grows, msg.learn.shrinks, msg.learn.stays];
    const answer = s.next > s.alpha ? 0 : s.next < s.alpha ? 1 : 2;
    return { text: msg.sharpness.question, options, answer: [answer] };
  },

  text: (stepId, { msg, state, trace, labels }) =>
    runText(msg, state, msg.steps[stepId].text(targetOf(state), pull(trace, state, labels))),

  script: (kind, { msg, state, trace }) =>
    sharpnessScript(kind, {
      ...age,
      target: trace.target,
      alpha: alpha0,
      eta: state.eta,
      steps: state.steps,
      digits: state.digits,
      path: trace.path,
      title: msg.scenes.sharpness.title,
    }),

  // "Download as a spreadsheet": the step shown's task, chain and update as live formulas
  // (./sheets.js, loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).sharpnessSheet(ctx, link),

  panels: {
    trainer: trainerPanel,
    summary: summaryPanel,
    alpha: (ctx) =>
      curvePanel(
        ctx,
        [{ label: "α", values: ctx.trace.path.map((s) => s.alpha) }],
        ctx.msg.sharpness.alphaTitle,
        "alpha-plot",
      ),
    curve: (ctx) =>
      curvePanel(
        ctx,
        [
          { label: "L", values: ctx.trace.path.map((s) => s.loss) },
          { label: "dL/dα", values: ctx.trace.path.map((s) => s.dAlpha) },
        ],
        ctx.msg.sharpness.curveTitle,
      ),
  },

  words: withLearnWords({
    en: {
      ui: { finite: "Target 19.2, which some α reaches exactly" },
      steps: {
        task: {
          title: "What is learned: α",
          text: (target) =>
            `The age lookup with its query multiplied by α, which is learned, not set: the loss L = (output − ${target})² says how far the answer is from the target. The descent starts at α = 1, the article's own lookup.`,
        },
        chain: {
          title: "The gradient, through the chain",
          text: (target, { key, weight, age: v, output }) =>
            `How L changes when α moves, one factor at a time: dL/d(output), then through output = weights·V, the softmax, the scale 1/√3 and the scores α·(q·K). Why the softmax's part has its form: the weights add up to 1, so raising one key's score gives that key more weight and takes weight from every key in proportion to its own, which pulls the output toward that key's age; raising ${key}'s score moves the output at the rate of ${key}'s weight, ${weight}, times how far its age, ${v}, is from the output, ${output}, and dL/d(scaled) is that rate times dL/d(output). Pick any cell to see its number made.`,
        },
        update: {
          title: "One step of gradient descent",
          text: () => "α moves against its gradient, by η times it: α ← α − η·dL/dα.",
        },
        curve: {
          title: "Step after step",
          text: () =>
            "α itself, the loss and the gradient over the steps. The tables under the plots have the core's numbers.",
        },
      },
      scenes: {
        sharpness: {
          title: "Learn the sharpness: gradient descent on α in the age lookup",
          analogy:
            "In the age scene you set α by hand. Here a loss says how far the answer is from the Zhangs' mean, and gradient descent moves α by itself, one checkable step at a time.",
        },
      },
      sharpness: {
        start: (a) => `α = ${a} (where the descent starts: the article's own lookup)`,
        previous: (t) => `α of step ${t + 1} is step ${t}'s new α:`,
        alphaChain:
          "dL/dα = dL/d(scores) · d(scores)/dα, and scores = α × (q·K[j]), so d(scores)/dα = q·K[j] = K[j][1] (q = [1, 0, 0]).",
        question: "In this step, which way does α move?",
        curveTitle: "The loss and its gradient, step by step",
        alphaTitle: "α, step by step",
        overshoot: (t, alpha, g, next) =>
          `At step ${t}, α = ${alpha} has gone past the minimum: dL/dα = ${g} is positive, so this step moves α back down, to ${next}. The plot of α shows the jump and the way back.`,
        creep: (n) =>
          `dL/dα is negative at ${n === 1 ? "the one step" : `each of the ${n} steps`}: α only grows, toward the minimum, and never passes it.`,
        newAlpha: "α new",
        summary: (n, alpha, first, last, g0, g1) =>
          `At step ${n}, the last, α = ${alpha}; from step 1 to step ${n} the loss went from ${first} to ${last} and dL/dα from ${g0} to ${g1}.`,
        openNote:
          "Target 19 is the Zhangs' exact mean, which a softmax reaches only as α grows without end: the loss falls toward 0 but has no finite minimum. As α grows the softmax saturates, its gradient shrinks, and each step moves α less (the √d_k lab shows the same saturation). A very large η lands α where the gradient is almost 0.",
        finiteNote:
          "Target 19.2 is reached exactly at α = √3·ln(14/3) ≈ 2.668: the loss has a minimum there. A small η creeps toward it; a large one jumps past it, the gradient turns, and α comes back.",
        d2l: "This is the parametric attention pooling of d2l (Dive into Deep Learning), made checkable:",
      },
    },
    zh: {
      ui: { finite: "目标 19.2：某个 α 能恰好达到" },
      steps: {
        task: {
          title: "学的是什么：α",
          text: (target) =>
            `“平均年龄”的查找，查询乘以 α，而 α 是学出来的，不是设定的：损失 L = (输出 − ${target})² 表示答案离目标有多远。梯度下降从 α = 1（原文本身的查找）开始。`,
        },
        chain: {
          title: "沿着链式法则求梯度",
          text: (target, { key, weight, age: v, output }) =>
            `α 动一点，L 怎么变，一个因子一个因子地看：先是 dL/d(输出)，再经过 输出 = 权重·V、softmax、缩放 1/√3 和分数 α·(q·K)。为什么 softmax 这一段是这个形式：权重加起来是 1，所以提高一个键的分数，就给这个键更多权重，并按各自权重的比例从每个键那里拿走，于是输出被拉向这个键的年龄；提高“${key}”的分数，输出变化的速率是“${key}”的权重 ${weight} 乘以它的年龄 ${v} 与输出 ${output} 之差，而 dL/d(scaled) 就是这个速率乘以 dL/d(输出)。点击任意格子，看这个数是怎么来的。`,
        },
        update: {
          title: "梯度下降的一步",
          text: () => "α 朝梯度的反方向移动 η 倍梯度：α ← α − η·dL/dα。",
        },
        curve: {
          title: "一步接一步",
          text: () => "各步的 α 本身、损失和梯度。图下的表格是核心算出的数。",
        },
      },
      scenes: {
        sharpness: {
          title: "学习锐度：在年龄查找里对 α 做梯度下降",
          analogy:
            "在“平均年龄”场景里，α 是你手动调的。这里由损失告诉我们答案离张姓人的平均年龄有多远，梯度下降自己移动 α，每一步都可以手算核对。",
        },
      },
      sharpness: {
        start: (a) => `α = ${a}（梯度下降的起点：原文本身的查找）`,
        previous: (t) => `第 ${t + 1} 步的 α 是第 ${t} 步算出的新 α：`,
        alphaChain:
          "dL/dα = dL/d(分数) · d(分数)/dα，而 分数 = α × (q·K[j])，所以 d(分数)/dα = q·K[j] = K[j][1]（q = [1, 0, 0]）。",
        question: "这一步里，α 往哪边动？",
        curveTitle: "损失和它的梯度，一步一步",
        alphaTitle: "α，一步一步",
        overshoot: (t, alpha, g, next) =>
          `第 ${t} 步时 α = ${alpha}，已经越过了最小值：dL/dα = ${g} 是正的，所以这一步把 α 往回拉，拉到 ${next}。α 的图上看得到这一跳和折回。`,
        creep: (n) =>
          `${n === 1 ? "这一步" : `${n} 步里每一步`}的 dL/dα 都是负的：α 只往大走，朝最小值靠近，从不越过它。`,
        newAlpha: "新的 α",
        summary: (n, alpha, first, last, g0, g1) =>
          `最后一步（第 ${n} 步）α = ${alpha}；从第 1 步到第 ${n} 步，损失从 ${first} 变为 ${last}，dL/dα 从 ${g0} 变为 ${g1}。`,
        openNote:
          "目标 19 是张姓三人的精确平均年龄，softmax 只有在 α 无限增大时才能达到：损失趋向 0，却没有有限的最小值。α 越大，softmax 越饱和，梯度越小，每一步 α 动得越少（√d_k 实验里是同一种饱和）。η 非常大时，α 会落到梯度几乎为 0 的地方。",
        finiteNote:
          "目标 19.2 在 α = √3·ln(14/3) ≈ 2.668 处恰好达到：损失在那里有最小值。η 小时慢慢靠近；η 大时一步跳过头，梯度变号，α 再折回来。",
        d2l: "这就是 d2l（《动手学深度学习》）里的带参数的注意力汇聚，只是每个数都能手算核对：",
      },
    },
  }),
};

export default [{ id: "sharpness", lab: sharpnessLab, inputs: {} }];
