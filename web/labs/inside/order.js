// labs/inside/order.js: lab 4 of "inside a model", "how does attention know word order?". Lab 1's layer on X
// without its position features, in order and shuffled: without positions each token's output
// row only moves with its token; sinusoidal positions and RoPE make order change the weights;
// under RoPE a score depends only on the distance between two positions.
import { cellRef, fmt, factor } from "../../format.js";
import { plain, line, bounds, roundingOf, shownAt, shownDot, derivationOf } from "../../derive.js";
import { xPlain, layers, order as shuffle } from "./data.js";
import { matrix } from "../../steps.js";
import { numbered, kitStyles } from "../kit.js";
import { el } from "../../views.js";
import {
  tokens,
  featureNames,
  sentenceX,
  productLine,
  headDerivation,
  headHeatmaps,
  headWorked,
  productWorked,
} from "./shared.js";
import { insideWords } from "./words.js";

const layer = layers[4];
// The distance step's query and key: head 1's q of 我 (row 1) and k of 书 (row 5), at right
// angles, so that the table is antisymmetric: a key after the query scores the opposite of a key
// as far before it.
const distanceRows = { q: 0, k: 4 };
const shuffledTokens = shuffle.map((i) => tokens[i]);
const positions = tokens.map((_, p) => p);
// "m = 0" as one word, so that a narrow table does not break it over three lines
const named = (name) => positions.map((p) => `${name}\u00a0=\u00a0${p}`);
const kinds = { plain: "none", sinusoidal: "sinusoidal", rope: "rope" };
// PE is added at a quarter of its size: at full size, on seven features and weights made by hand
// for X, it drowns the words (the step's note says by how much, from the core).
const peScale = 0.25;
// The shuffled sentence's row r is the token in order shuffle[r]; back in order, token i is at
// row backInOrder[i].
const backInOrder = tokens.map((_, i) => shuffle.indexOf(i));
const book = tokens.indexOf("书");

// θ_i = 10000^(−2i/d), then angle = pos × θ_i, with θ written at the decimals the angle needs.
function angleLines(pos, i, d, theta, angle, digits) {
  let shown;
  const product = line(`pos·θ_${i} = ${pos} × `, angle, digits, bounds.dot([pos], [theta]), (p) => {
    shown = fmt(theta, p);
    return shown;
  });
  return [plain(`θ_${i} = 10000^(−2×${i}/${d}) = ${shown}`), product];
}

// A rotated pair's cell: out[2i] = a·cos − b·sin, out[2i+1] = a·sin + b·cos, so column j is
// the pair (a, b) dotted with what these return: (cos, −sin) for the pair's first, (sin, cos)
// for its second.
const rotationFactors = (j, cos, sin) => (j % 2 === 0 ? [cos, -sin] : [sin, cos]);

function rotationLines(name, i, j, { before, rotary, digits, d }) {
  const pair = Math.floor(j / 2);
  const a = before[i][2 * pair];
  const b = before[i][2 * pair + 1];
  const cos = rotary.cos[i][pair];
  const sin = rotary.sin[i][pair];
  const angle = rotary.angles[i][pair];
  const right = rotationFactors(j, cos, sin);
  const terms = (p) =>
    j % 2 === 0
      ? `${factor(a, p)}×${factor(cos, p)} − ${factor(b, p)}×${factor(sin, p)}`
      : `${factor(a, p)}×${factor(sin, p)} + ${factor(b, p)}×${factor(cos, p)}`;
  return [
    ...angleLines(rotary.positions[i], pair, d, rotary.theta[pair], angle, digits),
    plain(`cos = ${fmt(cos, digits)}, sin = ${fmt(sin, digits)} (${fmt(angle, digits)} rad)`),
    line(
      `${cellRef(name, i, j)} = `,
      rotary.rotated[i][j],
      digits,
      bounds.dot([a, b], right),
      terms,
    ),
  ];
}

// A rotated cell worked from the pair, cos and sin as the tables show them.
function rotationWorked(row, rotary, i, j, digits) {
  const pair = Math.floor(j / 2);
  const cos = rotary.cos[i][pair];
  const sin = rotary.sin[i][pair];
  const right = rotationFactors(j, cos, sin);
  return [shownDot([row[2 * pair], row[2 * pair + 1]], right, digits)];
}

// The shuffled sentence's weights put back in the original order, rows and columns, so that the
// same square of two heatmaps is the same pair of tokens.
const inOrder = (trace) => ({
  ...trace,
  heads: trace.heads.map((head) => ({
    ...head,
    weights: backInOrder.map((r) => backInOrder.map((c) => head.weights[r][c])),
  })),
});

// Each side of a step: the original order (a) and the shuffled one (b).
const outputs = (t, msg, features) => [
  matrix(
    "outputOriginal",
    msg.inside.labels.outputIn(msg.inside.original),
    t.a.output,
    tokens,
    features,
    "result",
  ),
  matrix(
    "outputShuffled",
    msg.inside.labels.outputIn(msg.inside.shuffled),
    t.b.output,
    shuffledTokens,
    features,
    "result",
  ),
];
const headWeights = (t, msg) => [
  matrix(
    "weightsOriginal",
    msg.inside.labels.weightsIn(msg.inside.original),
    t.a.heads[0].weights,
    tokens,
    tokens,
    "result",
  ),
  matrix(
    "weightsShuffled",
    msg.inside.labels.weightsIn(msg.inside.shuffled),
    t.b.heads[0].weights,
    shuffledTokens,
    shuffledTokens,
    "result",
  ),
];

// What each step shows, by step id.
const views = {
  plain: ({ trace, msg, features }) => ({
    focusMatrix: "outputShuffled",
    matrices: outputs(trace.plain, msg, features),
  }),
  sinusoidal: ({ trace, msg, features }) => ({
    focusMatrix: "weightsShuffled",
    matrices: [
      matrix(
        "pe",
        "PE",
        trace.sinusoidal.a.sinusoidal.encoding,
        positions.map((p) => msg.inside.position(p)),
        numbered(features.length),
        "result",
      ),
      matrix(
        "xPlusPe",
        msg.inside.labels.xPlusPe(peScale),
        trace.sinusoidal.a.x,
        tokens,
        features,
        "result",
      ),
      ...headWeights(trace.sinusoidal, msg),
      ...outputs(trace.sinusoidal, msg, features),
    ],
  }),
  rope: ({ trace, msg }) => ({
    focusMatrix: "weightsShuffled",
    matrices: [
      matrix("qRotated", "q1, RoPE", trace.rope.a.heads[0].q, tokens, numbered(2), "result"),
      matrix("kRotated", "k1, RoPE", trace.rope.a.heads[0].k, tokens, numbered(2), "result"),
      ...headWeights(trace.rope, msg),
    ],
  }),
  distance: ({ trace, msg }) => {
    const d = trace.distance;
    return {
      focusMatrix: "scores",
      matrices: [
        matrix("q", msg.inside.labels.qPlain, [d.q], [tokens[distanceRows.q]], numbered(2)),
        matrix("k", msg.inside.labels.kPlain, [d.k], [tokens[distanceRows.k]], numbered(2)),
        matrix("qAtM", msg.inside.labels.qAt, d.qm.rotated, named("m"), numbered(2), "result"),
        matrix("kAtN", msg.inside.labels.kAt, d.kn.rotated, named("n"), numbered(2), "result"),
        matrix("scores", "q_m·k_n", d.scores, named("m"), named("n"), "result"),
      ],
    };
  },
};

// The distance step: the q and k before any rotation, placed at every m and n.
const unrotated = (mid, i, j, { trace, inputs, state, msg }) => {
  const row = distanceRows[mid];
  return [
    plain(msg.inside.unrotatedLine(mid, tokens[row], row + 1)),
    productLine(mid.toUpperCase(), row, j, {
      left: inputs.x,
      leftName: "X",
      right: mid === "q" ? inputs.wq : inputs.wk,
      rightName: mid === "q" ? "W_Q" : "W_K",
      value: trace.distance[mid][j],
      digits: state.digits,
      msg,
    }),
  ];
};
const placed = (mid, i, j, { trace, state }) => {
  const d = trace.distance;
  const rotary = mid === "qAtM" ? d.qm : d.kn;
  const before = positions.map(() => (mid === "qAtM" ? d.q : d.k));
  const name = mid === "qAtM" ? "q" : "k";
  return rotationLines(name, i, j, { before, rotary, digits: state.digits, d: d.q.length });
};
const distanceLines = {
  q: unrotated,
  k: unrotated,
  qAtM: placed,
  kAtN: placed,
  scores: (mid, i, j, { trace, state, msg }) => {
    const d = trace.distance;
    return [
      productLine("scores", i, j, {
        left: d.qm.rotated,
        leftName: "q",
        right: [0, 1].map((c) => d.kn.rotated.map((row) => row[c])), // kᵀ (2, 5)
        rightName: "kᵀ",
        value: d.scores[i][j],
        digits: state.digits,
        msg,
      }),
      plain(msg.inside.distanceLine(i, j, fmt(i - j, 0))),
    ];
  },
};

// The steps with positions (none, sinusoidal, RoPE), each in order (a) and shuffled (b).
const rotated = (mid, i, j, { trace, state, stepId }) => {
  const t = trace[stepId];
  const rotary = mid === "qRotated" ? t.a.qRotated : t.a.kRotated;
  const before = (mid === "qRotated" ? t.a.q : t.a.k).map((row) => row.slice(0, 2));
  const head = { ...rotary, rotated: rotary.rotated.map((row) => row.slice(0, 2)) };
  const name = mid === "qRotated" ? "q" : "k";
  return rotationLines(name, i, j, { before, rotary: head, digits: state.digits, d: t.a.dHead });
};
const weightsOf = (mid, i, j, ctx) => {
  const t = ctx.trace[ctx.stepId];
  // no table of these steps shows the scores: the weight's lines start from q·k
  return headDerivation(mid === "weightsOriginal" ? t.a : t.b, 0, "weights", i, j, {
    ...ctx,
    fromScores: true,
  }).lines;
};
// outputs: concat·W_O; a shuffled row is its token's row in order
const outputOf = (mid, i, j, { trace, inputs, state, stepId, msg }) => {
  const t = trace[stepId];
  const side = mid === "outputOriginal" ? t.a : t.b;
  const digits = state.digits;
  const lines = [
    productLine("output", i, j, {
      left: side.concat,
      leftName: "concat",
      right: inputs.wo,
      rightName: "W_O",
      value: side.output[i][j],
      digits,
      msg,
    }),
  ];
  if (mid === "outputShuffled") {
    const there = fmt(t.a.output[shuffle[i]][j], digits);
    // without positions the row moved with its token; with them, this number may still read the
    // same at the decimals shown
    const how =
      stepId === "plain" ? "moved" : there === fmt(side.output[i][j], digits) ? "same" : "changed";
    const moved = msg.inside.movedLine(shuffledTokens[i], i + 1, shuffle[i] + 1, there, how);
    lines.push(plain(moved));
  }
  return lines;
};
const positionLines = {
  pe: (mid, i, j, { trace, inputs, state, stepId, msg }) => {
    const s = trace[stepId].a.sinusoidal;
    const pair = Math.floor(j / 2);
    const fn = j % 2 === 0 ? "sin" : "cos";
    const angle = s.angles[i][pair];
    return [
      plain(msg.inside.peLine(cellRef("PE", i, j), fn, i, `θ_${pair}`)),
      plain(msg.inside.peIndexLine(i, j, pair)),
      ...angleLines(i, pair, inputs.x[0].length, s.theta[pair], angle, state.digits),
      line(
        `${fn}(`,
        s.encoding[i][j],
        state.digits,
        (p) => roundingOf(angle, p),
        (p) => `${fmt(angle, p)})`,
      ),
    ];
  },
  xPlusPe: (mid, i, j, { trace, inputs, state }) => {
    const pe = trace.sinusoidal.a.sinusoidal.encoding[i][j];
    const x = inputs.x[i][j];
    return [
      line(
        `${cellRef("X", i, j)} + ${peScale}×${cellRef("PE", i, j)} = `,
        trace.sinusoidal.a.x[i][j],
        state.digits,
        bounds.dot([1, peScale], [x, pe]),
        (p) => `${factor(x, p)} + ${peScale}×${factor(pe, p)}`,
      ),
    ];
  },
  qRotated: rotated,
  kRotated: rotated,
  weightsOriginal: weightsOf,
  weightsShuffled: weightsOf,
  outputOriginal: outputOf,
  outputShuffled: outputOf,
};

export const orderLab = {
  id: "order",
  styles: [kitStyles],
  core: "labs",
  words: insideWords,

  // Each kind of position, in order and shuffled; and RoPE's scores of one q and one k placed
  // at every pair of positions.
  compute(core, scene, state) {
    const x = sentenceX(scene, state);
    const shuffled = shuffle.map((i) => x[i]);
    const trace = {};
    for (const [step, kind] of Object.entries(kinds)) {
      const options = { heads: 4, positions: kind, peScale };
      trace[step] = {
        a: core.multiHeadAttention(x, layer, options),
        b: core.multiHeadAttention(shuffled, layer, options),
      };
    }
    // what PE at full size would do, for the sinusoidal step's note
    trace.fullPe = core.multiHeadAttention(x, layer, { heads: 4, positions: "sinusoidal" });
    // at positions 0 … 4, one row per position
    const q = trace.plain.a.heads[0].q[distanceRows.q];
    const k = trace.plain.a.heads[0].k[distanceRows.k];
    const qm = core.rotary(
      positions.map(() => q),
      positions,
      2,
    );
    const kn = core.rotary(
      positions.map(() => k),
      positions,
      2,
    );
    trace.distance = {
      q,
      k,
      qm,
      kn,
      scores: core.attention(qm.rotated, kn.rotated, kn.rotated).scores,
    };
    return { inputs: { x, shuffled, ...layer }, trace };
  },

  steps: () => [
    { id: "plain", panels: [] },
    { id: "sinusoidal", panels: ["heatmaps"], lead: ["peNote"] },
    { id: "rope", panels: ["heatmaps"] },
    { id: "distance", panels: [] },
  ],

  view: (stepId, { trace, msg }) => views[stepId]({ trace, msg, features: featureNames(msg) }),

  // A shuffled row lights up its token's row in order, and the other way round.
  highlights(mid, i, j, { stepId }) {
    const h = { [mid]: { rows: [], cols: [], cells: [[i, j]] } };
    if (mid === "xPlusPe") h.pe = { rows: [], cols: [], cells: [[i, j]] };
    if (mid === "outputShuffled")
      h.outputOriginal = { rows: [shuffle[i]], cols: [], cells: [[shuffle[i], j]] };
    if (mid === "outputOriginal")
      h.outputShuffled = { rows: [shuffle.indexOf(i)], cols: [], cells: [[shuffle.indexOf(i), j]] };
    if (mid === "scores" && stepId === "distance") {
      h.qAtM = { rows: [i], cols: [], cells: [] };
      h.kAtN = { rows: [j], cols: [], cells: [] };
    }
    if ((mid === "qAtM" || mid === "kAtN") && stepId === "distance")
      h[mid === "qAtM" ? "q" : "k"] = { rows: [0], cols: [], cells: [] };
    return h;
  },

  derivation(mid, i, j, ctx) {
    const table = ctx.stepId === "distance" ? distanceLines : positionLines;
    return derivationOf(table[mid]?.(mid, i, j, ctx) ?? []);
  },

  worked(mid, i, j, { trace, inputs, state, stepId }) {
    const digits = state.digits;
    if (stepId === "distance") {
      const d = trace.distance;
      if (mid === "scores")
        return productWorked(
          d.qm.rotated,
          [0, 1].map((c) => d.kn.rotated.map((row) => row[c])),
          i,
          j,
          digits,
        );
      if (mid === "qAtM") return rotationWorked(d.q, d.qm, i, j, digits);
      if (mid === "kAtN") return rotationWorked(d.k, d.kn, i, j, digits);
      return [];
    }
    const t = trace[stepId];
    if (mid === "weightsOriginal" || mid === "weightsShuffled")
      return headWorked(mid === "weightsOriginal" ? t.a : t.b, 0, "weights", i, j, digits);
    if (mid === "outputOriginal" || mid === "outputShuffled")
      return productWorked((mid === "outputOriginal" ? t.a : t.b).concat, inputs.wo, i, j, digits);
    if (mid === "xPlusPe")
      return [inputs.x[i][j] + peScale * shownAt(t.a.sinusoidal.encoding[i][j], digits)];
    if (mid === "pe") {
      const angle = shownAt(t.a.sinusoidal.angles[i][Math.floor(j / 2)], digits);
      return [j % 2 === 0 ? Math.sin(angle) : Math.cos(angle)];
    }
    if (mid === "qRotated" || mid === "kRotated") {
      const rotary = mid === "qRotated" ? t.a.qRotated : t.a.kRotated;
      return rotationWorked((mid === "qRotated" ? t.a.q : t.a.k)[i], rotary, i, j, digits);
    }
    return [];
  },

  // "Download as a spreadsheet": every step's passes as live formulas (./sheets.js, loaded
  // with the writer only when asked).
  sheet: async (ctx, link) =>
    (await import("./sheets.js")).orderSheet(ctx, link, { shuffle, peScale, distanceRows }),

  panels: {
    heatmaps: (ctx) => {
      const t = ctx.trace[ctx.stepId];
      return [
        headHeatmaps(t.a, {
          ...ctx,
          title: (h) => `${ctx.msg.inside.headTitle(h + 1, h + 1)}, ${ctx.msg.inside.original}`,
        }),
        headHeatmaps(inOrder(t.b), {
          ...ctx,
          title: (h) =>
            `${ctx.msg.inside.headTitle(h + 1, h + 1)}, ${ctx.msg.inside.shuffledInOrder}`,
        }),
      ];
    },
    // How much PE at full size would drown the words: 书's weight on itself in head 1.
    peNote: ({ trace, msg, state }) => {
      const own = (t) => fmt(t.heads[0].weights[book][book], Math.min(state.digits, 2));
      return el("p", {
        class: "note",
        "data-pe-note": "",
        text: msg.inside.peNote(
          peScale,
          own(trace.fullPe),
          own(trace.sinusoidal.a),
          own(trace.plain.a),
        ),
      });
    },
  },
};

export const orderScene = {
  id: "order",
  source: "004-sentence",
  handMade: true,
  lab: orderLab,
  inputs: { x: xPlain },
};

export default [orderScene];
