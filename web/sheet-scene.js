// sheet-scene.js: a walkthrough scene as a book for web/sheet.js: one sheet a step, each with
// the matrices the page's step shows (the lab's own view), in its order, under its names, and a
// note sheet first. The inputs are numbers; Q, K and V (from X), the scores, the scale, the mask,
// the softmax (the row's max, exp, Σ, the weights) and the output are formulas. Pure: the
// page loads it, with exceljs, only when the learner asks for a sheet.
//
// A masked cell holds the text −∞, as the page shows it. MAX, SUM and COUNT skip text, so a
// row's max is over the keys it sees; exp is IF(ISNUMBER(x), EXP(x − max), 0); a row whose keys
// are all masked has the max −∞ (COUNT = 0), exp 0, Σ 0, and its weights are IF(Σ > 0, e/Σ, 0):
// 0, with no division by zero, and so its output is 0, as the core gives.
import { book, headKeys, headRules, ownNames, productRule } from "./sheet.js";
import { sheetWords } from "./i18n/sheet.js";

/** The context with the file's words (i18n/sheet.js, loaded with it) in msg.sheet. */
export const withSheetWords = (ctx) => ({
  ...ctx,
  msg: { ...ctx.msg, sheet: { ...ctx.msg.sheet, ...sheetWords[ctx.state.lang] } },
});

// The formulas of each block by key: Q, K and V from X, or Q from α·q; the head's own.
function formulas({ masked, alpha, self, d, nk }) {
  const rules = headRules(ownNames([...headKeys, ...(masked ? ["mask", "masked"] : [])]), {
    d: d.k,
    nk,
  });
  rules.scale = (i, j, r) => `1/SQRT(COLUMNS(${r.row("q", 0)}))`;
  if (self) for (const m of ["q", "k", "v"]) rules[m] = productRule("x", `w${m}`, d.x);
  if (alpha) rules.q = (i, j, r) => `${r("alpha", 0, 0)}*${r("q0", i, j)}`;
  return rules;
}

/**
 * The book of the scene in `ctx` (the walkthrough's context: scene, state, msg, trace, inputs,
 * editable, labels, steps, lab), opened on the step shown; `link` is the page's address for this
 * state, which the note gives.
 */
export function sceneSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { scene, state, msg, trace, editable, steps, lab } = ctx;
  const w = msg.sheet;
  const mask = state.causal ? "causal" : scene.mask;
  const masked = Boolean(trace.masked);
  const self = Boolean(editable.x);
  const q = trace.q ?? ctx.inputs.q;
  const d = { x: self ? editable.x[0].length : 0, k: q[0].length };
  const rules = formulas({
    masked,
    alpha: Boolean(scene.alpha),
    self,
    d,
    nk: trace.scores[0].length,
  });
  const named = (list) => namedAs(msg, list);

  const sheets = steps.map((step, k) => {
    const view = lab.view(step.id, { ...ctx, step, stepId: step.id });
    const blocks = [];
    for (const m of view.matrices) {
      let key = m.id;
      let label = m.caption ?? m.label;
      // the age scene: the learner's q (before α) on the inputs step, then Q = α·q
      if (scene.alpha && m.id === "q") {
        key = step.id === "inputs" ? "q0" : "q";
        label = step.id === "inputs" ? "q" : "Q = α·q";
      }
      if (m.id === "masked" && step.id === "masked") {
        blocks.push({
          key: "mask",
          label: w.mask,
          rowLabels: named(m.rowLabels),
          colLabels: named(m.colLabels),
          data: trace.masked.map((row, i) => row.map((_, j) => (allowed(mask, i, j) ? 1 : 0))),
        });
      }
      blocks.push({
        key,
        label,
        rowLabels: named(m.rowLabels),
        colLabels: named(m.colLabels),
        data: m.data,
        formula: m.role === "input" ? undefined : rules[key],
      });
      if (m.id === "scaled" && step.id === "scaled") {
        blocks.splice(-1, 0, {
          key: "scale",
          label: "scale = 1/√d_k",
          rowLabels: [""],
          colLabels: [""],
          data: [[trace.scale]],
          formula: rules.scale,
        });
      }
    }
    if (scene.alpha && step.id === "inputs") {
      blocks.splice(1, 0, {
        key: "alpha",
        label: "α",
        rowLabels: [""],
        colLabels: [""],
        data: [[state.alpha]],
      });
    }
    return { ...stepSheet(ctx, step, k), blocks };
  });

  const first = self ? "X" : scene.alpha ? "q" : "Q";
  return bookOf(ctx, link, sheets, { first, masked });
}

/** The book of a lab's sheets (web/sheet.js's spec), with its note, opened on the step shown:
 * `first` names the input to change, `masked` says there is a mask to try. */
export function bookOf({ scene, state, msg }, link, sheets, { first, masked = false }) {
  const w = msg.sheet;
  // the step shown's sheet, or the one before it where that step shows no matrix
  const active = Math.max(
    0,
    sheets.findLastIndex((sheet) => sheet.at <= state.step),
  );
  const lines = [
    w.heading(msg.scenes[scene.id]?.title ?? scene.id),
    w.from(link),
    w.sheets(sheets.map((s) => s.name)),
    w.opened(sheets[active].name),
    w.inputs,
    w.tryIt(first, sheets[0].name),
    masked && w.tryMask,
    w.digits(state.digits),
    w.functions,
  ].filter(Boolean);
  return book({
    sheets,
    active,
    note: { name: w.noteName, lines },
    digits: state.digits,
  });
}

/** Row or column names as the page shows them: a token with its gloss ("我 I"). */
export const namedAs = (msg, list) =>
  list.map((x) => (msg.gloss(String(x)) ? `${x} ${msg.gloss(String(x))}` : String(x)));

/** A title as a sheet's name: what comes before a colon, ":" or "：" (a tab's name is short),
 * none of \\ / ? * [ ] (which no program takes in one), at most 31 characters (Excel's most). */
export function sheetName(title) {
  const name = title
    .split(/[:：]/)[0]
    .trim()
    .replace(/[\\/?*[\]]/g, "-");
  return name.length > 31 ? `${name.slice(0, 30).trimEnd()}…` : name;
}

/** A step's sheet name and title, "3 Scores", and its sentence, as the page says them. */
export function stepSheet(ctx, step, k) {
  const { scene, state, msg, lab } = ctx;
  const text =
    scene.text?.[state.lang]?.steps?.[step.id] ??
    lab.text?.(step.id, { ...ctx, step, stepId: step.id }) ??
    msg.steps[step.id].text;
  const title = `${k + 1} ${msg.steps[step.id].title}`;
  return { name: sheetName(title), title, text: typeof text === "string" ? text : "", at: k };
}

/**
 * A lab's sheets, one a step, each laid out as the page shows it (the lab's view): a matrix is
 * a block under its caption, its formula from `rules` by its id (none: numbers to edit), and
 * `before(stepId, m)` may give blocks that come before it (what the page writes in words, or
 * its sum out of sight: a row's max and Σ), or bands of them; those with it stand in a band of
 * their own, after the bands before it.
 * `after(stepId, m)` gives blocks that follow it in its band (what the page shows apart from
 * its matrices); the steps in `skip` have no sheet (what no formula of the cells computes). `keyOf(stepId, m)` names a matrix's block where its id is not enough. A step that shows no
 * matrix has no sheet.
 */
export function labSheets(
  ctx,
  {
    rules,
    before = () => undefined,
    after = () => undefined,
    keyOf = (stepId, m) => m.id,
    skip = [],
  },
) {
  const { msg, steps, lab } = ctx;
  return steps
    .map((step, k) => {
      if (skip.includes(step.id)) return { bands: [] };
      const view = lab.view(step.id, { ...ctx, step, stepId: step.id });
      const bands = [[]];
      for (const m of view.matrices) {
        const key = keyOf(step.id, m);
        const block = {
          key,
          label: m.caption ?? m.label,
          rowLabels: namedAs(msg, m.rowLabels),
          colLabels: namedAs(msg, m.colLabels),
          data: m.data,
          formula: m.role === "input" ? undefined : rules[key],
        };
        const named = (b) => ({
          formula: rules[b.key],
          ...b,
          rowLabels: namedAs(msg, b.rowLabels),
          colLabels: namedAs(msg, b.colLabels),
        });
        const extra = before(step.id, m);
        const then = (after(step.id, m) ?? []).map(named);
        if (!extra) {
          bands.at(-1).push(block, ...then);
          continue;
        }
        // blocks, or bands of them: the page's block ends the last
        const more = (Array.isArray(extra[0]) ? extra : [extra]).map((band) => band.map(named));
        more.at(-1).push(block, ...then);
        bands.push(...more, []);
      }
      return { ...stepSheet(ctx, step, k), bands: bands.filter((b) => b.length) };
    })
    .filter((sheet) => sheet.bands.length);
}

// Whether query i may see key j under the scene's mask.
function allowed(mask, i, j) {
  if (mask === "causal") return j <= i;
  return mask ? mask[i][j] : true;
}
