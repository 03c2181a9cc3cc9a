// labs/learn/sheets.js: "Download as a spreadsheet" for "learn the sharpness": the training step
// shown, as live formulas (web/sheet-scene.js's labSheets). α, the query q, K, V, the target and
// η are numbers; the scores α·(q·K), the scale, the softmax (the row's max, exp and Σ written
// out before the weights), the output, the loss (output − target)², every factor of the chain
// that gives dL/dα, and the step α − η·dL/dα are formulas. Change α (or η, or the target) and the
// gradient and the next α follow, as the core's step from that α would give them. Loaded with
// the writer, only when the learner asks for a sheet.
import { bookOf, labSheets, withSheetWords } from "../../sheet-scene.js";
import { headKeys, headRules, ownNames, sumOfProducts } from "../../sheet.js";
import { stepShown } from "./shared.js";

// The age lookup's query: its α multiplies it.
const q = [[1, 0, 0]];

/** The sharpness lab as a book: the task, the chain and the update of the step shown. */
export function sharpnessSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, state, inputs, labels } = ctx;
  const s = trace.path[stepShown(state)];
  const t = s.trace;
  const nk = inputs.k.length;
  const d = inputs.k[0].length;
  // q·K[j], written out
  const qk = (j, r) =>
    `(${sumOfProducts(
      d,
      (c) => r("q", 0, c),
      (c) => r("k", j, c),
    )})`;
  // the scores are α·q·K[j], written below
  const rules = headRules(ownNames(headKeys.filter((k) => k !== "q")), { d, nk });
  Object.assign(rules, {
    scores: (i, j, r) => `${r("alpha", 0, 0)}*${qk(j, r)}`,
    scale: (i, j, r) => `1/SQRT(COLUMNS(${r.row("k", 0)}))`,
    loss: (i, j, r) => `(${r("output", 0, 0)}-${r("target", 0, 0)})^2`,
    dOutput: (i, j, r) => `2*(${r("output", 0, 0)}-${r("target", 0, 0)})`,
    dWeights: (i, j, r) => `${r("dOutput", 0, 0)}*${r("v", j, 0)}`,
    rowDot: (i, j, r) =>
      sumOfProducts(
        nk,
        (c) => r("weights", 0, c),
        (c) => r("dWeights", 0, c),
      ),
    dScaled: (i, j, r) => `${r("weights", 0, j)}*(${r("dWeights", 0, j)}-${r("rowDot", 0, 0)})`,
    dScores: (i, j, r) => `${r("dScaled", 0, j)}*${r("scale", 0, 0)}`,
    dAlpha: (i, j, r) =>
      Array.from({ length: nk }, (_, c) => `${r("dScores", 0, c)}*${qk(c, r)}`).join("+"),
    next: (i, j, r) => `${r("alpha", 0, 0)}-${r("eta", 0, 0)}*${r("dAlpha", 0, 0)}`,
  });
  const one = (key, label, x) => ({ key, label, rowLabels: [""], colLabels: [""], data: [[x]] });
  const row = (key, label, data) => ({
    key,
    label,
    rowLabels: labels.queries,
    colLabels: labels.keys,
    data: [data],
  });
  const before = (stepId, m) => {
    if (stepId === "task" && m.id === "scores")
      return [{ key: "q", label: "q", rowLabels: labels.queries, colLabels: labels.dims, data: q }];
    if (stepId === "task" && m.id === "scaled") return [one("scale", "scale = 1/√d_k", t.scale)];
    if (stepId === "task" && m.id === "weights")
      return [
        one("rowMax", "max", t.rowMax[0]),
        row("exp", "exp(x − max)", t.exp[0]),
        one("rowSum", "Σ", t.rowSum[0]),
      ];
    if (stepId === "task" && m.id === "loss") return [one("target", "target", trace.target)];
    if (stepId === "update" && m.id === "next") return [one("eta", "η", state.eta)];
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before });
  return bookOf(ctx, link, sheets, { first: "α" });
}

/**
 * "Teach 书 to read" as a book: the training step shown. X, W_Q, W_K and η are numbers; 书's
 * query X[书]·W_Q, the keys X·W_K, 书's scores, scale and softmax (max, exp, Σ written out), the
 * loss −ln weights[书][读], and the gradient: dL/d(scaled)[书] = weights − 1 at 读 (the
 * cross-entropy's), dL/dQ[书] and dL/dK through the scale, dL/dW_Q = X[书]ᵀ·dL/dQ[书] (the loss
 * reaches Q through 书's row alone), dL/dW_K = Xᵀ·dL/dK, and the step W − η·dL/dW. `reader` and
 * `read` are 书's and 读's rows.
 */
export function teachSheet(ctx, link, { reader, read }) {
  ctx = withSheetWords(ctx);
  const { trace, state, inputs, labels } = ctx;
  const s = trace.steps[stepShown(state)];
  const t = s.trace;
  const n = inputs.x.length;
  const f = inputs.x[0].length;
  const d = s.wq[0].length;
  // no V and no output: the step's loss is on the weights
  const names = { ...ownNames(headKeys.filter((k) => !["v", "output"].includes(k))), q: "qrow" };
  const rules = headRules(names, { d, nk: n });
  const scale = (r) => r("scale", 0, 0);
  Object.assign(rules, {
    qrow: (i, j, r) =>
      sumOfProducts(
        f,
        (c) => r("x", reader, c),
        (c) => r("wq", c, j),
      ),
    k: (i, j, r) =>
      sumOfProducts(
        f,
        (c) => r("x", i, c),
        (c) => r("wk", c, j),
      ),
    scale: (i, j, r) => `1/SQRT(COLUMNS(${r.row("qrow", 0)}))`,
    loss: (i, j, r) => `-LN(${r("weights", 0, read)})`,
    dscaled: (i, j, r) => `${r("weights", 0, j)}-${j === read ? 1 : 0}`,
    dq: (i, j, r) =>
      `(${sumOfProducts(
        n,
        (c) => r("dscaled", 0, c),
        (c) => r("k", c, j),
      )})*${scale(r)}`,
    dk: (i, j, r) => `${r("dscaled", 0, i)}*${scale(r)}*${r("qrow", 0, j)}`,
    dwq: (i, j, r) => `${r("x", reader, i)}*${r("dq", 0, j)}`,
    dwk: (i, j, r) =>
      sumOfProducts(
        n,
        (c) => r("x", c, i),
        (c) => r("dk", c, j),
      ),
    nwq: (i, j, r) => `${r("wq", i, j)}-${r("eta", 0, 0)}*${r("dwq", i, j)}`,
    nwk: (i, j, r) => `${r("wk", i, j)}-${r("eta", 0, 0)}*${r("dwk", i, j)}`,
  });
  const row = (key, label, data) => ({
    key,
    label,
    rowLabels: [labels.queries[reader]],
    colLabels: labels.keys,
    data: [data],
  });
  const one = (key, label, x) => ({ key, label, rowLabels: [""], colLabels: [""], data: [[x]] });
  const before = (stepId, m) => {
    if (stepId === "start" && m.id === "weights")
      return [
        [
          {
            key: "x",
            label: "X",
            rowLabels: labels.queries,
            colLabels: labels.xDims,
            data: inputs.x,
          },
          {
            key: "qrow",
            label: `Q[${labels.queries[reader]}] = X[${labels.queries[reader]}]·W_Q`,
            rowLabels: [labels.queries[reader]],
            colLabels: labels.dims,
            data: [t.q[reader]],
          },
          {
            key: "k",
            label: "K = X·W_K",
            rowLabels: labels.keys,
            colLabels: labels.dims,
            data: t.k,
          },
        ],
        [
          row("scores", "Q·Kᵀ", t.scores[reader]),
          one("scale", "scale = 1/√d_k", t.scale),
          row("scaled", "scaled", t.scaled[reader]),
          one("rowMax", "max", t.rowMax[reader]),
          row("exp", "exp(x − max)", t.exp[reader]),
          one("rowSum", "Σ", t.rowSum[reader]),
        ],
      ];
    if (stepId === "update" && m.id === "nwq") return [one("eta", "η", state.eta)];
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before });
  return bookOf(ctx, link, sheets, { first: "W_Q" });
}
