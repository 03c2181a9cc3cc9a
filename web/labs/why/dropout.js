// labs/why/dropout.js: dropout on the weights, on the age scene's lookup. The core zeroes each weight
// with probability p and scales the rest by 1/(1 − p), with a seeded stream: one draw's row no
// longer sums to 1, but the average over many draws comes back to the output without dropout.
import { el } from "../../views.js";
import { fmt } from "../../format.js";
import { scenes } from "../../scenes.js";
import { derivation as attentionDerivation, matrix } from "../../steps.js";
import { derivationOf, line, plain, products, bounds, roundingOf } from "../../derive.js";
import { cellRef, factor } from "../../format.js";
import { linePlot, niceTicks, numbers, tiny, kitStyles } from "../kit.js";

const age = scenes.find((s) => s.id === "age");
const draws = 10000;

function sumPanel({ trace, msg, state }) {
  const w = msg.dropout;
  return el(
    "p",
    { class: "why-summary", id: "row-sum" },
    w.rowSum(fmt(trace.droppedRowSums[0], state.digits), fmt(trace.drawOutput[0][0], state.digits)),
  );
}

function convergencePanel({ trace, msg, state }) {
  const w = msg.dropout;
  const points = trace.counts.map((c, i) => [c, trace.differences[i]]);
  return el(
    "div",
    {},
    el(
      "p",
      { class: "why-summary", id: "average" },
      w.average(
        draws,
        fmt(trace.meanOutput[0][0], state.digits),
        fmt(trace.output[0][0], state.digits),
        fmt(trace.maxDifference, state.digits),
      ),
    ),
    linePlot({
      id: "dropout-plot",
      title: w.plotTitle,
      xLabel: w.draws,
      yLabel: w.difference,
      log: true,
      xTicks: [1, 10, 100, 1000, 10000],
      yTicks: niceTicks(Math.max(...trace.differences)),
      series: [{ label: w.difference, points }],
      table: numbers(
        "why-numbers",
        w.tableTitle,
        [w.difference],
        points.map(([c, d]) => [String(c), d < 1e-3 ? tiny(d) : fmt(d, state.digits)]),
      ),
    }),
  );
}

export const dropoutLab = {
  id: "dropout",
  styles: [kitStyles],
  core: "labs",
  params: () => [
    { id: "p", kind: "range", symbol: "p", min: 0.1, max: 0.9, step: 0.1, initial: 0.5 },
    { id: "draw", kind: "range", symbol: "seed", min: 1, max: 50, step: 1, initial: 1 },
  ],

  compute(core, scene, state) {
    const inputs = { ...scene.inputs, ...state.edits };
    const stats = core.dropoutStats(inputs.q, inputs.k, inputs.v, {
      p: state.p,
      seed: state.draw,
      draws,
    });
    // the lookup without dropout, whole, for the derivations of its weights and output
    const plainTrace = core.attention(inputs.q, inputs.k, inputs.v);
    return { inputs, trace: { ...stats, plain: plainTrace } };
  },

  steps: () => [
    { id: "weights", panels: [] },
    { id: "draw", panels: [], inStep: ["sum"] },
    { id: "average", panels: [], inStep: ["convergence"] },
  ],

  labels: (scene, msg) => ({
    queries: [msg.labels.queryZhang],
    keys: age.keyLabels.map((k) => msg.labels[k]),
    values: [msg.labels.age],
  }),

  view(stepId, { trace, labels, msg }) {
    const w = msg.dropout;
    const q = labels.queries;
    const keys = labels.keys;
    const v = labels.values;
    const views = {
      weights: [
        matrix("weights", "weights", trace.weights, q, keys, "operand"),
        matrix("output", "output", trace.output, q, v, "operand"),
      ],
      draw: [
        matrix("weights", "weights", trace.weights, q, keys, "operand"),
        matrix("dropped", "dropped", trace.dropped, q, keys, "result"),
        matrix("drawOutput", "output", trace.drawOutput, q, v, "aux", w.drawOutput),
      ],
      average: [
        matrix(
          "meanDropped",
          "mean dropped",
          trace.meanDropped,
          q,
          keys,
          "operand",
          w.meanDropped(draws),
        ),
        matrix("weights", "weights", trace.weights, q, keys, "operand", w.plainWeights),
        matrix("meanOutput", "mean output", trace.meanOutput, q, v, "operand", w.meanOutput(draws)),
        matrix("output", "output", trace.output, q, v, "operand", w.plainOutput),
      ],
    };
    return { focusMatrix: stepId === "draw" ? "dropped" : null, matrices: views[stepId] };
  },

  text: (stepId, { msg, state }) => msg.steps[stepId].text(state.p),

  derivation(mid, i, j, { trace, inputs, msg, state }) {
    const digits = state.digits;
    const w = msg.dropout;
    const p = state.p;
    const weight = trace.weights[i][j];
    const v = inputs.v.map((row) => row[j]);
    const sum = (name, rows, value) =>
      line(`${cellRef(name, i, j)} = `, value, digits, bounds.dot(rows, v), products(rows, v));
    switch (mid) {
      case "weights":
      case "output":
        return attentionDerivation(mid, i, j, { trace: trace.plain, inputs, msg, digits });
      case "dropped":
        return derivationOf([
          trace.dropped[i][j] === 0
            ? plain(`${cellRef("dropped", i, j)} = 0 (${w.droppedHere})`)
            : line(
                `${cellRef("dropped", i, j)} = weights[${i + 1}][${j + 1}] ÷ (1 − p) = `,
                trace.dropped[i][j],
                digits,
                (q) => roundingOf(weight, q) / (1 - p),
                (q) => `${factor(weight, q)} ÷ (1 − ${p})`,
              ),
        ]);
      case "drawOutput":
        return derivationOf([sum("output", trace.dropped[i], trace.drawOutput[i][j])]);
      case "meanDropped": {
        const kept = trace.kept[i][j];
        return derivationOf([
          plain(w.keptLine(kept, draws)),
          line(
            `${cellRef(w.meanName, i, j)} = kept × weights[${i + 1}][${j + 1}] ÷ (1 − p) ÷ ${draws} = `,
            trace.meanDropped[i][j],
            digits,
            (q) => (kept * roundingOf(weight, q)) / (1 - p) / draws,
            (q) => `${kept} × ${factor(weight, q)} ÷ (1 − ${p}) ÷ ${draws}`,
          ),
        ]);
      }
      case "meanOutput":
        return derivationOf([
          plain(w.meanOutputLine(draws)),
          sum("output", trace.meanDropped[i], trace.meanOutput[i][j]),
        ]);
      default:
        return derivationOf([]);
    }
  },

  highlights(mid, i, j) {
    const h = { [mid]: { rows: [], cols: [], cells: [[i, j]] } };
    const cell = (id) => (h[id] = { rows: [], cols: [], cells: [[i, j]] });
    const row = (id) => (h[id] = { rows: [i], cols: [], cells: [] });
    ({
      dropped: () => cell("weights"),
      drawOutput: () => row("dropped"),
      meanDropped: () => cell("weights"),
      meanOutput: () => row("meanDropped"),
    })[mid]?.();
    return h;
  },

  // "Download as a spreadsheet": the lookup and one draw as live formulas (./sheets.js,
  // loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).dropoutSheet(ctx, link),

  panels: { sum: sumPanel, convergence: convergencePanel },

  words: {
    en: {
      ui: { p: "Dropout probability p", draw: "Random seed (which draw)" },
      steps: {
        weights: {
          title: "Without dropout",
          text: () =>
            "The age scene's lookup: the weights of the four people and the answer, without dropout. Their weights sum to 1.",
        },
        draw: {
          title: "One draw",
          text: (p) =>
            `During training, dropout zeroes each weight with probability p = ${p} and divides the rest by 1 − p (inverted dropout). This draw's row no longer sums to 1, and its answer moves. Change the seed for another draw.`,
        },
        average: {
          title: "The average of many draws",
          text: () =>
            "Inverted scaling keeps the expected weight, and so the expected answer, what it was: averaged over many draws, dropout's answer comes back to the one without dropout. The plot shows how far the average is after 1, 2, 5, 10 … draws.",
        },
      },
      scenes: {
        dropout: {
          title: "Dropout on the weights: one draw, and the average of many",
          analogy:
            "Dropout randomly silences some attention weights while a model trains, so that it cannot lean on any single key. The core draws which weights to drop from a seeded stream, so every draw here can be reproduced.",
        },
      },
      dropout: {
        rowSum: (sum, out) => `This draw's weights sum to ${sum}, not 1; its answer is ${out}.`,
        average: (n, mean, output, diff) =>
          `Over ${n} draws the average answer is ${mean}; without dropout it is ${output} (difference ${diff}).`,
        plotTitle: "How far the average of the first n draws is from the answer without dropout",
        tableTitle: "The core's numbers",
        draws: "draws",
        difference: "|average − answer|",
        drawOutput: "output, this draw",
        meanDropped: (n) => `dropped, mean of ${n} draws`,
        meanOutput: (n) => `output, mean of ${n} draws`,
        plainWeights: "weights, no dropout",
        plainOutput: "output, no dropout",
        droppedHere: "this draw dropped this weight",
        meanName: "mean dropped",
        keptLine: (kept, n) => `${kept} of the ${n} draws kept this weight (the others made it 0).`,
        meanOutputLine: (n) =>
          `The mean of the ${n} draws' outputs is the output of the mean dropped weights: output is linear in the weights.`,
      },
    },
    zh: {
      ui: { p: "dropout 概率 p", draw: "随机种子（第几次抽取）" },
      steps: {
        weights: {
          title: "不用 dropout",
          text: () => "“平均年龄”场景的查找：四个人的权重和答案，没有 dropout。权重之和为 1。",
        },
        draw: {
          title: "一次抽取",
          text: (p) =>
            `训练时，dropout 以概率 p = ${p} 把每个权重置为 0，其余的除以 1 − p（反向缩放）。这一次抽取的这一行之和不再是 1，答案也变了。换一个种子看另一次抽取。`,
        },
        average: {
          title: "多次抽取的平均",
          text: () =>
            "反向缩放让权重的期望、从而答案的期望保持不变：对很多次抽取求平均，dropout 的答案回到不用 dropout 时的答案。图中是前 1、2、5、10 …… 次抽取的平均与它相差多少。",
        },
      },
      scenes: {
        dropout: {
          title: "对权重做 dropout：一次抽取，和多次抽取的平均",
          analogy:
            "训练模型时，dropout 随机让一些注意力权重失效，让模型不能只依赖某一个键。核心用带种子的随机数决定丢掉哪些权重，所以这里的每次抽取都可以重现。",
        },
      },
      dropout: {
        rowSum: (sum, out) => `这次抽取的权重之和是 ${sum}，不是 1；答案是 ${out}。`,
        average: (n, mean, output, diff) =>
          `${n} 次抽取的平均答案是 ${mean}；不用 dropout 时是 ${output}（相差 ${diff}）。`,
        plotTitle: "前 n 次抽取的平均与不用 dropout 的答案相差多少",
        tableTitle: "核心算出的数",
        draws: "抽取次数",
        difference: "|平均 − 答案|",
        drawOutput: "输出（这次抽取）",
        meanDropped: (n) => `丢弃后的权重（${n} 次抽取的平均）`,
        meanOutput: (n) => `输出（${n} 次抽取的平均）`,
        plainWeights: "权重（不用 dropout）",
        plainOutput: "输出（不用 dropout）",
        droppedHere: "这次抽取丢掉了这个权重",
        meanName: "丢弃后权重的平均",
        keptLine: (kept, n) => `${n} 次抽取里有 ${kept} 次保留了这个权重（其余几次把它变成 0）。`,
        meanOutputLine: (n) =>
          `${n} 次抽取的输出的平均，就是平均后的权重的输出：输出对权重是线性的。`,
      },
    },
  },
};

export default [{ id: "dropout", handMade: true, lab: dropoutLab, inputs: age.inputs }];
