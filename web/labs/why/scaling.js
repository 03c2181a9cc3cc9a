// labs/why/scaling.js: why divide by √d_k. Seeded random q and k with unit-variance entries (100
// queries, 8 keys each, from the core); a slider for d_k from 1 to 512. The spread of q·k grows
// with d_k, and without the scale the softmax goes one-hot; with it, it stays soft. Every number
// is the core's (scalingStats); the page computes only the plot's coordinates.
import { el } from "../../views.js";
import { matrix } from "../../steps.js";
import { derivationOf, line, plain, products, bounds, roundingOf } from "../../derive.js";
import { cellRef, fmt } from "../../format.js";

// A softmax weight written out from the scores, times `scale`: exp((s_j − m)×scale) ÷ Σ_k …,
// m the row's max. Rounding a written score moves its logit by at most u·scale (and the scale's
// own rounding by |s|·u_scale); the max cancels; so the weight moves by at most w·(e^{2u} − 1).
function softmaxLine(name, scores, j, weight, scale, digits) {
  const m = Math.max(...scores);
  const logit = (s, p) =>
    scale === 1
      ? `(${fmt(s, p)} − ${fmt(m, p)})`
      : `(${fmt(s, p)} − ${fmt(m, p)}) × ${fmt(scale, p)}`;
  const bound = (p) => {
    const us = Math.max(
      ...scores.map(
        (s) =>
          roundingOf(s, p) * Math.abs(scale) +
          Math.abs(s - m) * (scale === 1 ? 0 : roundingOf(scale, p)),
      ),
    );
    return weight * Math.expm1(2 * us);
  };
  const terms = (p) =>
    `exp(${logit(scores[j], p)}) ÷ (${scores.map((s) => `exp(${logit(s, p)})`).join(" + ")})`;
  return line(`${cellRef(name, 0, j)} = `, weight, digits, bound, terms);
}
import { linePlot, numbered, numbers, kitStyles } from "../kit.js";

const nKeys = 8;
const rows = 100;
const seed = 1;
// The d_k of the plot: powers of 2 from 1 to 512, and the slider's own.
const plotted = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

// The core's numbers for one d_k; the same on every call, so the plot's are kept.
const kept = new Map();
function statsAt(core, dK) {
  if (!kept.has(dK)) kept.set(dK, core.scalingStats({ dK, nKeys, rows, seed }));
  return kept.get(dK);
}

const keys = numbered(nKeys, "k");

function plotPanel({ trace, msg, state }) {
  const w = msg.scaling;
  const d = state.digits;
  const curve = trace.curve;
  return linePlot({
    id: "scaling-plot",
    title: w.plotTitle(rows, nKeys),
    xLabel: "d_k",
    yLabel: w.yLabel,
    log: true,
    xTicks: plotted,
    yTicks: [0, 0.25, 0.5, 0.75, 1],
    mark: state.dk,
    series: [
      { label: w.unscaled, points: curve.map((s) => [s.dK, s.maxWeightUnscaled]) },
      { label: w.scaled, points: curve.map((s) => [s.dK, s.maxWeightScaled]) },
    ],
    table: numbers(
      "why-numbers",
      w.tableTitle,
      [w.variance, w.scaledVariance, w.unscaled, w.scaled],
      curve.map((s) => [
        `d_k = ${s.dK}`,
        fmt(s.scoreVariance, d),
        fmt(s.scaledVariance, d),
        fmt(s.maxWeightUnscaled, d),
        fmt(s.maxWeightScaled, d),
      ]),
    ),
  });
}

// The link to the age scene, where α scales the query: an inverse temperature.
function alphaPanel({ msg, state, host }) {
  const w = msg.scaling;
  const href = `?scene=age&alpha=10&step=4&lang=${state.lang}`;
  return el(
    "div",
    { class: "why-note" },
    el("p", { text: w.alpha }),
    host.page && el("p", {}, el("a", { href, id: "age-link", text: w.ageLink })),
    el("p", { class: "threshold", text: w.threshold }),
  );
}

// What the step's numbers say, in words, from the core's statistics.
function summaryPanel({ trace, msg, state, stepId }) {
  const s = trace.stats;
  const w = msg.scaling;
  const d = state.digits;
  const lines = {
    spread: w.spread(s.dK, fmt(s.scoreVariance, d), fmt(s.scaledVariance, d)),
    unscaled: w.top(fmt(s.maxWeightUnscaled, d), fmt(s.oneHotUnscaled, 2)),
    scaled: w.top(fmt(s.maxWeightScaled, d), fmt(s.oneHotScaled, 2)),
  };
  return (
    lines[stepId] && el("p", { class: "why-summary", id: "scaling-summary", text: lines[stepId] })
  );
}

export const scalingLab = {
  id: "scaling",
  styles: [kitStyles],
  core: "labs",
  params: () => [
    // the slider's places are the plot's points, so that each step of it doubles d_k
    { id: "dk", kind: "range", symbol: "d_k", min: 1, max: 512, values: plotted, initial: 64 },
  ],

  compute(core, scene, state) {
    const stats = statsAt(core, state.dk);
    const curve = plotted.map((dK) => statsAt(core, dK));
    const trace = {
      stats,
      curve,
      scores: [stats.exampleScores],
      unscaled: [stats.exampleUnscaled],
      scaled: [stats.exampleScaled],
    };
    return { inputs: {}, trace };
  },

  steps: () => [
    { id: "spread", panels: [], inStep: ["summary"] },
    { id: "unscaled", panels: ["plot"], inStep: ["summary"] },
    { id: "scaled", panels: ["plot"], inStep: ["summary"] },
    { id: "plot", panels: [], inStep: ["plot", "alpha"] },
  ],

  view(stepId, { trace, state }) {
    const row = [`q·k`];
    const dk = `d_k = ${state.dk}`;
    const scores = matrix("scores", "q·k", trace.scores, row, keys, "operand", `q·k, ${dk}`);
    const views = {
      spread: [scores],
      unscaled: [
        scores,
        matrix("unscaled", "softmax(q·k)", trace.unscaled, ["softmax"], keys, "result"),
      ],
      scaled: [
        scores,
        matrix("scaled", "softmax(q·k/√d_k)", trace.scaled, ["softmax"], keys, "result"),
      ],
      plot: [],
    };
    return { focusMatrix: null, matrices: views[stepId] };
  },

  text: (stepId, { msg, state }) => msg.steps[stepId].text(state.dk),

  derivation(mid, i, j, { trace, state, msg }) {
    const s = trace.stats;
    const digits = state.digits;
    const w = msg.scaling;
    if (mid === "scores") {
      const q = s.exampleQ;
      const k = s.exampleK[j];
      return derivationOf(
        q.length <= 64
          ? [
              plain(w.drawn),
              line(
                `${cellRef("q·k", 0, j)} = q·k[${j + 1}] = `,
                s.exampleScores[j],
                digits,
                bounds.dot(q, k),
                products(q, k),
              ),
            ]
          : [plain(w.drawn), plain(w.longSum(q.length))],
      );
    }
    if (mid === "unscaled")
      return derivationOf([
        softmaxLine("softmax", s.exampleScores, j, s.exampleUnscaled[j], 1, digits),
      ]);
    if (mid === "scaled") {
      return derivationOf([
        plain(w.scaleLine(s.dK, fmt(s.scale, digits))),
        softmaxLine("softmax", s.exampleScores, j, s.exampleScaled[j], s.scale, digits),
      ]);
    }
    return derivationOf([]);
  },

  highlights(mid, i, j) {
    const h = { [mid]: { rows: [], cols: [], cells: [[i, j]] } };
    if (mid !== "scores") h.scores = { rows: [0], cols: [], cells: [] };
    return h;
  },

  panels: { plot: plotPanel, alpha: alphaPanel, summary: summaryPanel },

  words: {
    en: {
      ui: { dk: "d_k, the length of q and k" },
      scenes: {
        scaling: {
          title: "Why divide by √d_k?",
          analogy:
            "Take q and k with random entries of variance 1. Their dot product adds up d_k such products, so its variance is about d_k: the longer the vectors, the further apart the scores, and the softmax of far-apart scores gives almost all the weight to one key. Dividing by √d_k brings the variance back to about 1. The numbers here are measured by the core on 100 seeded queries with 8 keys each.",
        },
      },
      steps: {
        spread: {
          title: "The spread of q·k",
          text: (dk) =>
            `One of the 100 queries and its 8 keys, with d_k = ${dk} random entries each: its 8 scores q·k. Move the slider: the scores spread further apart as d_k grows.`,
        },
        unscaled: {
          title: "Softmax without the scale",
          text: () =>
            "The softmax of the raw scores. With a large d_k one key takes nearly all the weight: the softmax has gone one-hot, and the other keys get almost no gradient.",
        },
        scaled: {
          title: "Softmax of q·k/√d_k",
          text: () =>
            "The same scores divided by √d_k: the weights stay spread over several keys at every d_k.",
        },
        plot: {
          title: "Measured over d_k",
          text: () =>
            "The mean largest weight over the 100 queries, for d_k from 1 to 512, without and with the scale. The line marks the slider's d_k.",
        },
      },
      scaling: {
        unscaled: "without the scale",
        scaled: "with 1/√d_k",
        yLabel: "mean largest weight",
        plotTitle: (r, n) => `The mean largest softmax weight over ${r} queries of ${n} keys`,
        tableTitle: "The core's numbers",
        variance: "variance of q·k",
        scaledVariance: "variance of q·k/√d_k",
        spread: (dk, v, sv) =>
          `Over all 800 scores, the variance of q·k is ${v} (about d_k = ${dk}); after dividing by √d_k it is ${sv} (about 1).`,
        top: (mean, share) =>
          `Over the 100 queries, the largest weight is ${mean} on average; the share of them where it is above 0.99 (one-hot) is ${share}.`,
        alpha:
          "A scale is an inverse temperature. In the age scene, α multiplies the query, so every score is multiplied by α before the softmax: a larger α makes the lookup sharper, a smaller one softer. 1/√d_k is such a factor, chosen so that the spread of the scores stays the same whatever d_k is.",
        ageLink: "Open the age scene with α = 10",
        drawn:
          "q and k: the core's seeded unit-variance numbers (the first of the 100 queries, and its 8 keys).",
        longSum: (n) =>
          `q·k is the sum of its ${n} products q[c]·k[c], one per dimension: too many to write out here; at d_k up to 64 each is written out.`,
        scaleLine: (dk, scale) => `The scale: 1/√${dk} = ${scale}.`,
        threshold:
          "How far apart the two are, in the core's numbers: over 100 seeded queries (seed 1) of 8 keys at d_k = 512, the mean largest weight is above 0.9 without the scale and below 0.6 with it.",
      },
    },
    zh: {
      ui: { dk: "d_k，q 和 k 的长度" },
      scenes: {
        scaling: {
          title: "为什么要除以 √d_k？",
          analogy:
            "取 q 和 k，每个元素都是方差为 1 的随机数。它们的点积是 d_k 个乘积之和，所以方差约为 d_k：向量越长，分数相差越远，而对相差很远的分数做 softmax，几乎全部权重都会给一个键。除以 √d_k 让方差回到 1 左右。这里的数由核心在 100 个带种子的查询（每个 8 个键）上测得。",
        },
      },
      steps: {
        spread: {
          title: "q·k 的分散程度",
          text: (dk) =>
            `100 个查询中的一个和它的 8 个键，每个向量有 d_k = ${dk} 个随机元素：它的 8 个分数 q·k。拖动滑块：d_k 越大，分数越分散。`,
        },
        unscaled: {
          title: "不缩放的 softmax",
          text: () =>
            "对原始分数做 softmax。d_k 很大时，一个键几乎拿走全部权重：softmax 变成了独热（one-hot），其他键几乎得不到梯度。",
        },
        scaled: {
          title: "q·k/√d_k 的 softmax",
          text: () => "同样的分数除以 √d_k：无论 d_k 多大，权重都分布在好几个键上。",
        },
        plot: {
          title: "随 d_k 的测量结果",
          text: () =>
            "100 个查询的最大权重的平均值，d_k 从 1 到 512，不缩放和缩放两种情况。竖线标出滑块上的 d_k。",
        },
      },
      scaling: {
        unscaled: "不缩放",
        scaled: "乘以 1/√d_k",
        yLabel: "最大权重的平均值",
        plotTitle: (r, n) => `${r} 个查询（每个 ${n} 个键）的最大 softmax 权重的平均值`,
        tableTitle: "核心算出的数",
        variance: "q·k 的方差",
        scaledVariance: "q·k/√d_k 的方差",
        spread: (dk, v, sv) =>
          `在全部 800 个分数上，q·k 的方差是 ${v}（约等于 d_k = ${dk}）；除以 √d_k 之后是 ${sv}（约等于 1）。`,
        top: (mean, share) =>
          `在 100 个查询上，最大权重平均为 ${mean}；最大权重超过 0.99（独热）的查询所占比例是 ${share}。`,
        alpha:
          "缩放因子就是温度的倒数。在“平均年龄”场景里，α 乘以查询，所以每个分数在 softmax 之前都乘以 α：α 越大，查找越“硬”；越小越“软”。1/√d_k 也是这样一个因子，它的取值让分数的分散程度不随 d_k 改变。",
        ageLink: "打开 α = 10 的“平均年龄”场景",
        drawn: "q 和 k：核心带种子的方差为 1 的随机数（100 个查询中的第一个，以及它的 8 个键）。",
        longSum: (n) =>
          `q·k 是 ${n} 个乘积 q[c]·k[c] 之和，每个维度一个：太多了，这里不一一写出；d_k 不超过 64 时会全部写出。`,
        scaleLine: (dk, scale) => `缩放系数：1/√${dk} = ${scale}。`,
        threshold:
          "两者差多少，看核心算出的数：在 d_k = 512、100 个带种子（种子 1）的查询、每个 8 个键时，不缩放的最大权重平均值高于 0.9，缩放后低于 0.6。",
      },
    },
  },
};

export default [{ id: "scaling", lab: scalingLab, inputs: {} }];
