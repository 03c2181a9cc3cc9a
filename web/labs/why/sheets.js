// labs/why/sheets.js: "Download as a spreadsheet" for the numerical-stability lab (web/sheet-
// scene.js's labSheets). The scores are numbers. The naive softmax, EXP(s) ÷ SUM(EXP(s)), is
// written out beside them, as the page's panel shows it: where the page's JavaScript gets
// Infinity and NaN, the spreadsheet gets its own overflow, #NUM!, and #DIV/0! where every exp
// underflows to 0. The stable softmax subtracts the row's max first. The masking step masks the
// scores with the text −∞ and with −1e9 where the mask (an input) is 0: a row whose keys are all
// masked gets weights 0 under −∞ and a third on each forbidden key under −1e9. Loaded with the
// writer, only when the learner asks for a sheet.
import { bookOf, labSheets } from "../../sheet-scene.js";
import { headRules } from "../../sheet.js";

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
