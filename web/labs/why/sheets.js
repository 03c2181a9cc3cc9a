// labs/why/sheets.js: "Download as a spreadsheet" for the numerical-stability lab (web/sheet-
// scene.js's labSheets). The scores are numbers. The naive softmax, EXP(s) ÷ SUM(EXP(s)), is
// written out beside them, as the page's panel shows it: where the page's JavaScript gets
// Infinity and NaN, the spreadsheet gets its own overflow, #NUM!, and #DIV/0! where every exp
// underflows to 0. The stable softmax subtracts the row's max first. The masking step masks the
// scores with the text −∞ and with −1e9 where the mask (an input) is 0: a row whose keys are all
// masked gets weights 0 under −∞ and a third on each forbidden key under −1e9. Loaded with the
// writer, only when the learner asks for a sheet.
import { bookOf, labSheets, withSheetWords } from "../../sheet-scene.js";
import { headKeys, headRules, minusInfinity, ownNames, sumOfProducts } from "../../sheet.js";
import { sceneById } from "../../scenes.js";

// The spreadsheet's error where the page's JavaScript has Infinity or NaN: the cached value of a
// naive cell (NaN from 0 ÷ 0 is a division by zero there).
const asSheet = (x, zeroSum) => (Number.isFinite(x) ? x : { error: zeroSum ? "#DIV/0!" : "#NUM!" });

const softmaxNames = (p, logits, weights, masked) => ({
  scaled: logits,
  ...(masked && { masked: logits, scaled: "m", mask: "mask" }),
  rowMax: `${p}rowMax`,
  exp: `${p}exp`,
  rowSum: `${p}rowSum`,
  weights,
});

/** The stability lab as a book: the naive and the stable softmax, and masking; `mask` is the
 * masking step's (true where a query may see a key). */
export function stabilitySheet(ctx, link, { mask }) {
  ctx = withSheetWords(ctx);
  const { trace } = ctx;
  const n = trace.naive.exp.length;
  const rules = {
    ...headRules(softmaxNames("", "s", "weights"), { nk: n }),
    ...headRules(softmaxNames("inf:", "maskedInf", "weightsInf", true), { nk: 3 }),
    ...headRules(softmaxNames("1e9:", "masked1e9", "weights1e9"), { nk: 3 }),
    masked1e9: (i, j, r) => `IF(${r("mask", i, j)}=0,-1000000000,${r("m", i, j)})`,
    nexp: (i, j, r) => `EXP(${r("s", 0, j)})`,
    nsum: (i, j, r) => `SUM(${r.row("nexp", 0)})`,
    nweights: (i, j, r) => `${r("nexp", 0, j)}/${r("nsum", 0, 0)}`,
  };
  const { exp, sum, weights } = trace.naive;
  const after = (stepId, m) => {
    if (stepId !== "naive" || m.id !== "s") return undefined;
    const row = (key, label, data) => ({
      key,
      label,
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
      data: [data],
    });
    return [
      row(
        "nexp",
        "exp(s)",
        exp.map((x) => asSheet(x)),
      ),
      { key: "nsum", label: "Σ", rowLabels: m.rowLabels, colLabels: [""], data: [[asSheet(sum)]] },
      row(
        "nweights",
        ctx.msg.stability.weights,
        weights.map((x) => asSheet(x, sum === 0)),
      ),
    ];
  };
  // the masking step's softmax, written out before each weights
  const column = (key, label, m, values) => ({
    key,
    label,
    rowLabels: m.rowLabels,
    colLabels: [""],
    data: values.map((x) => [x]),
  });
  const helpers = (p, t, m) => [
    column(`${p}rowMax`, "max", m, t.rowMax),
    {
      key: `${p}exp`,
      label: "exp(x − max)",
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
      data: t.exp,
    },
    column(`${p}rowSum`, "Σ", m, t.rowSum),
  ];
  const before = (stepId, m) => {
    if (stepId !== "masking") return undefined;
    if (m.id === "maskedInf") {
      const data = mask.map((row) => row.map((b) => (b ? 1 : 0)));
      return [
        {
          key: "mask",
          label: ctx.msg.sheet.mask,
          rowLabels: m.rowLabels,
          colLabels: m.colLabels,
          data,
        },
      ];
    }
    if (m.id === "weightsInf") return helpers("inf:", trace.minusInfinity, m);
    if (m.id === "weights1e9") return helpers("1e9:", trace.minus1e9, m);
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before, after });
  return bookOf(ctx, link, sheets, { first: "s", masked: true });
}

/**
 * The online-softmax lab as a book: the setup, a sheet per block of keys, the result. Q, K and V
 * (the book sentence's projections, as the page gives them) are numbers. A block's logits are
 * Q·K_blockᵀ/√d_k (the text −∞ above the diagonal under the causal mask); the running max m is
 * MAX(the previous block's m, the block's logits); the rescale exp(m_old − m) (0 for the first
 * block, whose m_old is −∞); p = exp(s − m); ℓ and acc are the previous block's times the
 * rescale, plus this block's sums; O = acc/ℓ. The result sets the last block's O beside the
 * whole rows' softmax, written out too (scores, max, exp, Σ, weights), so that an edit of Q, K or
 * V moves both.
 */
export function tilingSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, state, labels } = ctx;
  const causal = Boolean(state.causal);
  const d = trace.q[0].length;
  const nv = trace.v[0].length;
  const rules = {
    scale: (i, j, r) => `1/SQRT(COLUMNS(${r.row("q", 0)}))`,
    output: (i, j, r) => r(`b${trace.blocks.length}:partial`, i, j),
    ...headRules(
      {
        ...ownNames(headKeys, "whole:"),
        ...ownNames(["q", "k", "v", "scale"]),
        ...(causal && ownNames(["mask", "masked"], "whole:")),
        output: "full",
      },
      { d, nk: trace.k.length },
    ),
  };
  trace.blocks.forEach((b, at) => {
    const p = `b${at + 1}:`;
    const prev = `b${at}:`;
    const width = b.end - b.start;
    rules[`${p}logits`] = (i, j, r) => {
      const key = b.start + j;
      if (causal && key > i) return `"${minusInfinity}"`;
      const dot = sumOfProducts(
        d,
        (c) => r("q", i, c),
        (c) => r("k", key, c),
      );
      return `(${dot})*${r("scale", 0, 0)}`;
    };
    const row = (i, r) => r.row(`${p}logits`, i);
    rules[`${p}m`] = (i, j, r) =>
      at === 0 ? `MAX(${row(i, r)})` : `MAX(${r(`${prev}m`, i, 0)},${row(i, r)})`;
    rules[`${p}rescale`] = (i, j, r) =>
      at === 0 ? "0" : `EXP(${r(`${prev}m`, i, 0)}-${r(`${p}m`, i, 0)})`;
    rules[`${p}p`] = (i, j, r) => {
      const s = r(`${p}logits`, i, j);
      const e = `EXP(${s}-${r(`${p}m`, i, 0)})`;
      return causal ? `IF(ISNUMBER(${s}),${e},0)` : e;
    };
    const kept = (key, i, j, r) =>
      at === 0 ? "" : `${r(`${prev}${key}`, i, j)}*${r(`${p}rescale`, i, 0)}+`;
    rules[`${p}l`] = (i, j, r) => `${kept("l", i, 0, r)}SUM(${r.row(`${p}p`, i)})`;
    rules[`${p}acc`] = (i, j, r) =>
      `${kept("acc", i, j, r)}${sumOfProducts(
        width,
        (c) => r(`${p}p`, i, c),
        (c) => r("v", b.start + c, j),
      )}`;
    rules[`${p}partial`] = (i, j, r) => `${r(`${p}acc`, i, j)}/${r(`${p}l`, i, 0)}`;
  });
  const keyOf = (stepId, m) => (/^block\d+$/.test(stepId) ? `b${stepId.slice(5)}:${m.id}` : m.id);
  const square = (key, label, data) => ({
    key,
    label,
    rowLabels: labels.queries,
    colLabels: labels.keys,
    data,
  });
  const column = (key, label, values) => ({
    key,
    label,
    rowLabels: labels.queries,
    colLabels: [""],
    data: values.map((x) => [x]),
  });
  const w = trace.whole;
  const before = (stepId, m) => {
    if (stepId === "setup" && m.id === "k")
      return [
        {
          key: "q",
          label: "Q",
          rowLabels: labels.queries,
          colLabels: labels.values,
          data: trace.q,
        },
      ];
    if (stepId === "block1" && m.id === "logits")
      return [
        { key: "scale", label: "1/√d_k", rowLabels: [""], colLabels: [""], data: [[trace.scale]] },
      ];
    if (stepId === "result" && m.id === "full")
      return [
        [square("whole:scores", "Q·Kᵀ", w.scores), square("whole:scaled", "scaled", w.scaled)],
        ...(causal
          ? [
              [
                square(
                  "whole:mask",
                  ctx.msg.sheet.mask,
                  w.masked.map((row) => row.map((x) => (x === -Infinity ? 0 : 1))),
                ),
                square("whole:masked", "masked", w.masked),
              ],
            ]
          : []),
        [
          column("whole:rowMax", "max", w.rowMax),
          square("whole:exp", "exp(x − max)", w.exp),
          column("whole:rowSum", "Σ", w.rowSum),
          square("whole:weights", "weights", w.weights),
        ],
      ];
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before, keyOf });
  return bookOf(ctx, link, sheets, { first: "Q", masked: causal });
}

/**
 * The dropout lab as a book: the lookup without dropout (q, K and V numbers; its scores, scale
 * and softmax written out), and one draw: the draw's keep mask (1 kept, 0 dropped, the core's
 * seeded draw, an input to change) and p are numbers, the dropped weights weights·keep/(1 − p)
 * and their output are formulas. The average over many draws has no sheet: it is the core's
 * sampling of 10,000 seeded draws, which no formula of these cells computes (its expectation is
 * the output without dropout, the first sheet's).
 */
export function dropoutSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, inputs, state, labels } = ctx;
  const t = trace.plain;
  const nk = inputs.k.length;
  const rules = {
    ...headRules(ownNames(headKeys), { d: inputs.q[0].length, nk }),
    scale: (i, j, r) => `1/SQRT(COLUMNS(${r.row("q", 0)}))`,
    dropped: (i, j, r) => `${r("weights", i, j)}*${r("keep", i, j)}/(1-${r("p", 0, 0)})`,
    drawOutput: (i, j, r) =>
      sumOfProducts(
        nk,
        (c) => r("dropped", i, c),
        (c) => r("v", c, j),
      ),
  };
  const q = labels.queries;
  const keys = labels.keys;
  const dims = sceneById.age.dims.map((d) => ctx.msg.dims[d]);
  const square = (key, label, data) => ({ key, label, rowLabels: q, colLabels: keys, data });
  const column = (key, label, values) => ({
    key,
    label,
    rowLabels: q,
    colLabels: [""],
    data: values.map((x) => [x]),
  });
  const before = (stepId, m) => {
    if (stepId === "weights" && m.id === "weights") {
      return [
        [
          { key: "q", label: "Q", rowLabels: q, colLabels: dims, data: inputs.q },
          { key: "k", label: "K", rowLabels: keys, colLabels: dims, data: inputs.k },
          { key: "v", label: "V", rowLabels: keys, colLabels: labels.values, data: inputs.v },
        ],
        [
          square("scores", "Q·Kᵀ", t.scores),
          { key: "scale", label: "1/√d_k", rowLabels: [""], colLabels: [""], data: [[t.scale]] },
          square("scaled", "scaled", t.scaled),
          column("rowMax", "max", t.rowMax),
          square("exp", "exp(x − max)", t.exp),
          column("rowSum", "Σ", t.rowSum),
        ],
      ];
    }
    if (stepId === "draw" && m.id === "dropped") {
      const keep = trace.dropped.map((row) => row.map((x) => (x === 0 ? 0 : 1)));
      return [
        { key: "p", label: "p", rowLabels: [""], colLabels: [""], data: [[state.p]] },
        square("keep", ctx.msg.sheet.keep, keep),
      ];
    }
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before, skip: ["average"] });
  return bookOf(ctx, link, sheets, { first: "Q" });
}
