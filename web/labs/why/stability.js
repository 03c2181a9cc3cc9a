// labs/why/stability.js: numerical stability. Softmax without subtracting the max overflows on large
// scores: exp(1000) is Infinity in double, and Infinity/Infinity is NaN. That naive version is
// computed here, plainly in JS, as the wrong way: apart from the plots' coordinates it is the
// only arithmetic the page does itself, and the page says so. Beside it, the core's stable
// softmax; then masking with −∞ against −1e9, with a row whose keys are all masked.
import { el } from "../../views.js";
import { derivation as attentionDerivation, matrix } from "../../steps.js";
import { derivationOf, plain } from "../../derive.js";
import { cellRef, fmt } from "../../format.js";
import { numbered, numbers, shown, kitStyles } from "../kit.js";

const identity = (n) =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

// THE WRONG WAY, on purpose: exp of each score as it is, then divide by the sum. The page's own
// arithmetic, shown as such.
export function naiveSoftmax(row) {
  const e = row.map((x) => Math.exp(x));
  const sum = e.reduce((a, b) => a + b, 0);
  return { exp: e, sum, weights: e.map((x) => x / sum) };
}

// The mask of the masking step: query 1 may not see key 3; query 2 may see no key at all.
const mask = [
  [true, true, false],
  [false, false, false],
];

function naivePanel({ trace, msg, state }) {
  const w = msg.stability;
  const { exp, sum, weights } = trace.naive;
  const cols = numbered(exp.length);
  return el(
    "div",
    { class: "why-wrong", id: "naive" },
    el("p", { class: "wrong-label", text: w.wrongLabel }),
    numbers("why-numbers", w.naiveTitle, cols, [
      ["exp(s)", ...exp.map((x) => shown(x, state.digits))],
      ["Σ", shown(sum, state.digits), ...cols.slice(1).map(() => "")],
      [w.weights, ...weights.map((x) => shown(x, state.digits))],
    ]),
    el("p", { class: "why-summary", id: "naive-verdict", text: verdict(trace.naive, w) }),
    el("p", { class: "why-note", text: w.pageArithmetic }),
  );
}

// What the naive way did to these scores: overflow (of how many), underflow, or nothing yet.
function verdict({ exp, sum }, w) {
  const over = exp.filter((x) => x === Infinity).length;
  if (over) return w.overflow(over, exp.length);
  if (sum === Infinity) return w.sumOverflow;
  if (sum === 0) return w.underflow;
  return w.fine;
}

function blockedPanel({ trace, msg }) {
  const w = msg.stability;
  return el(
    "p",
    { class: "why-summary", id: "blocked-note" },
    trace.minusInfinity.blockedRows.length ? w.blocked(trace.minusInfinity.blockedRows[0] + 1) : "",
    " ",
    trace.minus1e9.blockedRows.length ? "" : w.spread,
  );
}

export const stabilityLab = {
  id: "stability",
  styles: [kitStyles, "labs/why/style.css"],
  core: "labs",

  compute(core, scene, state) {
    const inputs = { ...scene.inputs, ...state.edits };
    const s = inputs.s[0];
    // softmax(s) from the core: Q = [1], K = s as a column, V = I, scale 1.
    const stable = core.attention(
      [[1]],
      s.map((x) => [x]),
      identity(s.length),
      { scale: 1 },
    );
    // Masking: Q = the scores, K = V = I, scale 1, so the scores are the given ones.
    const m = inputs.m;
    const options = { scale: 1, mask };
    const minusInfinity = core.attention(m, identity(3), identity(3), options);
    const minus1e9 = core.attention(m, identity(3), identity(3), { ...options, maskValue: -1e9 });
    return {
      inputs,
      trace: { ...stable, naive: naiveSoftmax(s), minusInfinity, minus1e9, output: stable.weights },
    };
  },

  steps: () => [
    { id: "naive", panels: [], inStep: ["naive"] },
    { id: "stable", panels: [] },
    { id: "masking", panels: [], inStep: ["blocked"] },
  ],

  labels: (scene, msg, trace, inputs) => ({
    queries: ["s"],
    keys: numbered(inputs.s[0].length),
  }),

  view(stepId, { trace, editable, labels }) {
    const cols = labels.keys;
    const s = matrix("s", "s", editable.s, ["s"], cols, stepId === "naive" ? "input" : "operand");
    if (stepId === "naive") return { focusMatrix: null, matrices: [s] };
    if (stepId === "stable") {
      return {
        focusMatrix: "weights",
        matrices: [
          s,
          matrix("rowMax", "max", [[trace.rowMax[0]]], ["s"], ["max"], "aux"),
          matrix("exp", "exp", trace.exp, ["s"], cols, "aux", "exp(s − max)"),
          matrix("rowSum", "Σ", [[trace.rowSum[0]]], ["s"], ["Σ"], "aux"),
          matrix("weights", "weights", trace.weights, ["s"], cols, "result"),
        ],
      };
    }
    const rows = ["q1", "q2"];
    const keys = numbered(3, "k");
    const a = trace.minusInfinity;
    const b = trace.minus1e9;
    return {
      focusMatrix: "weightsInf",
      matrices: [
        matrix("m", "scores", editable.m, rows, keys, "input"),
        matrix("maskedInf", "masked −∞", a.masked, rows, keys, "operand"),
        matrix("weightsInf", "weights (−∞)", a.weights, rows, keys, "result"),
        matrix("masked1e9", "masked −1e9", b.masked, rows, keys, "operand"),
        matrix("weights1e9", "weights (−1e9)", b.weights, rows, keys, "result"),
      ],
    };
  },

  // Each number is the core's softmax of its row, written out as the walkthrough writes it;
  // the masking step's cells are masked scores and their weights.
  derivation(mid, i, j, { trace, editable, msg, state }) {
    const digits = state.digits;
    const given = (name, x) =>
      derivationOf([plain(`${cellRef(name, i, j)} = ${fmt(x, digits)} (${msg.derive.input})`)]);
    const of = (t, id) =>
      attentionDerivation(id, i, j, { trace: t, inputs: {}, msg, digits, causal: false });
    switch (mid) {
      case "s":
        return given("s", editable.s[i][j]);
      case "m":
        return given("scores", editable.m[i][j]);
      case "rowMax":
      case "exp":
      case "rowSum":
      case "weights":
        return of(trace, mid);
      case "maskedInf":
        return of(trace.minusInfinity, "masked");
      case "weightsInf":
        return of(trace.minusInfinity, "weights");
      case "masked1e9":
        return mask[i][j]
          ? of(trace.minus1e9, "masked")
          : derivationOf([plain(`${cellRef("masked", i, j)} = −1e9 (${msg.stability.maskValue})`)]);
      case "weights1e9":
        return of(trace.minus1e9, "weights");
      default:
        return derivationOf([]);
    }
  },

  highlights(mid, i, j) {
    const h = { [mid]: { rows: [], cols: [], cells: [[i, j]] } };
    const also = {
      exp: ["s", "rowMax"],
      weights: ["exp", "rowSum"],
      weightsInf: ["maskedInf"],
      weights1e9: ["masked1e9"],
      maskedInf: ["m"],
      masked1e9: ["m"],
    }[mid];
    for (const id of also ?? []) h[id] = { rows: [i], cols: [], cells: [] };
    return h;
  },

  // "Download as a spreadsheet": the naive and the stable softmax and the masks as live
  // formulas (./sheets.js, loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).stabilitySheet(ctx, link, { mask }),

  panels: { naive: naivePanel, blocked: blockedPanel },

  words: {
    en: {
      steps: {
        naive: {
          title: "Softmax the naive way",
          text: "A row of scores, large ones to begin with (click one to change it). Softmax as the formula reads: exp of each score, divided by their sum. exp(710) is already beyond the largest double (about 1.8e308), so it becomes Infinity, and Infinity / Infinity is NaN. Under the table: what happened to these scores.",
        },
        stable: {
          title: "Subtract the max first",
          text: "The core subtracts the row's max before exp: every exponent is then at most 0, so exp never overflows, and at least one term is exp(0) = 1, so the sum is never 0. The weights are the same as the formula's, because exp(s − max) / Σ exp(s − max) = exp(s) / Σ exp(s).",
        },
        masking: {
          title: "Masking: −∞ or −1e9",
          text: "Query 1 may not see key 3; query 2 may see no key at all. With −∞ (the core's default) a masked key gets exactly 0, and the row that sees nothing is reported as blocked: weights 0, output 0. Many implementations mask with −1e9 instead: it gives the same weights where a key is visible, but the row that sees nothing spreads its weight evenly over keys it was never allowed to see.",
        },
      },
      scenes: {
        stability: {
          title: "Numerical stability: why subtract the max, and how to mask",
          analogy:
            "On paper softmax is exp(s) / Σ exp(s). In double precision exp overflows past 709.78, and a careless mask makes NaN or silent nonsense. Every number here comes from the core, except the naive softmax of the first step, which this page works out itself in JavaScript to show what goes wrong.",
        },
      },
      stability: {
        wrongLabel: "The wrong way, computed by this page in plain JavaScript:",
        naiveTitle: "exp(s) / Σ exp(s), without subtracting the max",
        weights: "weights",
        pageArithmetic:
          "This table is the only arithmetic the page does itself (apart from drawing the plots): Math.exp and a division, to show the wrong way. Every other number comes from the WASM core.",
        blocked: (row) =>
          `With −∞, row ${row} sees no key: the core reports it blocked, with weights 0, not NaN.`,
        spread: "With −1e9, the same row gets 1/3 on each key it may not see.",
        maskValue: "the mask value: this key is hidden",
        overflow: (n, total) =>
          `Here: ${n === total ? `all ${total} scores are` : `${n} of the ${total} scores ${n === 1 ? "is" : "are"}`} above 709.78, so exp makes ${n === 1 ? "it" : "each"} Infinity; the sum is Infinity, and Infinity / Infinity is NaN.`,
        sumOverflow:
          "Here: each exp is finite, but their sum passes about 1.8e308 and becomes Infinity, so every weight is 0 and the row does not sum to 1.",
        underflow:
          "Here: every score is below about −745, so every exp rounds to 0, the sum is 0, and 0 / 0 is NaN.",
        fine: "With these scores the naive way happens to work. Make one above 709.78, or all below −745, and it breaks; the core's way does not.",
      },
    },
    zh: {
      steps: {
        naive: {
          title: "朴素的 softmax",
          text: "一行分数，起初是很大的分数（点击可修改）。按公式计算 softmax：对每个分数取 exp，再除以它们的和。exp(710) 已经超过 double 能表示的最大数（约 1.8e308），于是变成 Infinity，而 Infinity / Infinity 是 NaN。表格下面写着这些分数发生了什么。",
        },
        stable: {
          title: "先减去最大值",
          text: "核心在取 exp 之前先减去这一行的最大值：这样每个指数都不超过 0，exp 不会溢出；至少有一项是 exp(0) = 1，和也不会是 0。权重与公式的一样，因为 exp(s − max) / Σ exp(s − max) = exp(s) / Σ exp(s)。",
        },
        masking: {
          title: "掩码：−∞ 还是 −1e9",
          text: "查询 1 不能看键 3；查询 2 一个键都不能看。用 −∞（核心的默认值），被遮住的键权重正好是 0，什么都看不到的行被报告为“被阻断”：权重 0，输出 0。很多实现用 −1e9 代替：可见的键得到同样的权重，但什么都看不到的那一行会把权重平均分给它本不该看的键。",
        },
      },
      scenes: {
        stability: {
          title: "数值稳定性：为什么要减去最大值，以及怎样做掩码",
          analogy:
            "在纸上，softmax 是 exp(s) / Σ exp(s)。在 double 精度下，exp 超过 709.78 就溢出，而不小心的掩码会产生 NaN 或悄无声息的错误结果。这里的每个数都来自核心，只有第一步的朴素 softmax 是本页用 JavaScript 自己算的，用来展示哪里出错。",
        },
      },
      stability: {
        wrongLabel: "错误的做法，由本页用普通 JavaScript 计算：",
        naiveTitle: "不减最大值的 exp(s) / Σ exp(s)",
        weights: "权重",
        pageArithmetic:
          "这张表是本页自己做的唯一计算（画图的坐标除外）：Math.exp 和一次除法，用来展示错误的做法。其他每个数都来自 WASM 核心。",
        blocked: (row) =>
          `用 −∞ 时，第 ${row} 行看不到任何键：核心报告它被阻断，权重为 0，而不是 NaN。`,
        spread: "用 −1e9 时，同一行在每个它不该看的键上得到 1/3。",
        maskValue: "掩码值：这个键被遮住了",
        overflow: (n, total) =>
          `这里：${n === total ? `全部 ${total} 个分数都` : `${total} 个分数中有 ${n} 个`}超过 709.78，exp 把${n === 1 ? "它" : "每一个"}变成 Infinity；和也是 Infinity，而 Infinity / Infinity 是 NaN。`,
        sumOverflow:
          "这里：每个 exp 都是有限的，但它们的和超过约 1.8e308，变成 Infinity，于是每个权重都是 0，这一行的和不再是 1。",
        underflow: "这里：每个分数都小于约 −745，每个 exp 都舍入为 0，和是 0，而 0 / 0 是 NaN。",
        fine: "用这些分数，朴素的做法碰巧没出错。把一个分数改到 709.78 以上，或者全部低于 −745，它就会出错；核心的做法不会。",
      },
    },
  },
};

export default [
  {
    id: "stability",
    lab: stabilityLab,
    inputs: {
      s: [[1000, 998, 990]],
      m: [
        [2, 1, 0.5],
        [1, 3, 0],
      ],
    },
  },
];
