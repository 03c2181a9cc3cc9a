// ui/notes.js: two of the attention lab's panels inside a step. "spread" says when the
// weights are nearly uniform, and why, with a sharper query to try; "meaning" sets a token's
// own value beside its output, dimension by dimension, so the output can be read.
import { el, label, tableFigure } from "../views.js";
import { fmt, fmtColumn, rowRef } from "../format.js";
import { nearlyUniform } from "../steps.js";

export function spreadNote(ctx) {
  const { trace, inputs, editable, msg, state, update, host, scene, labels } = ctx;
  const spread = !ctx.hidden?.("weights") && nearlyUniform(trace);
  if (!spread) return undefined;
  const f = (x) => fmt(x, Math.min(state.digits, 4));
  // A sharper query: the query, or the matrix that makes it, `times` larger (an input).
  const id = inputs.x ? "wq" : "q";
  const times = scene.sharpen ?? 5;
  const sharper = () =>
    update({ edits: { [id]: editable[id].map((row) => row.map((x) => times * x)) } });
  // A scene's own reason, with the core's scores of its first row, for its published inputs.
  const own = msg.scenes[scene.id]?.flat;
  const published = Object.keys(state.edits).length === 0;
  const why =
    own &&
    published &&
    own(
      labels.queries[0],
      trace.scores[0].map((x) => fmt(x, 2)),
      labels.queries.at(-1),
    );
  return el(
    "div",
    { class: "note-box" },
    el("p", {
      text: msg.views.uniform(
        f(spread.low),
        f(spread.high),
        f(spread.logitLow),
        f(spread.logitHigh),
      ),
    }),
    why && el("p", { class: "flat-why", text: why }),
    host.controls &&
      el("button", {
        type: "button",
        id: "sharpen",
        text: msg.ui.sharpen(inputs.x ? "W_Q" : "Q", times),
        onclick: sharper,
      }),
  );
}

// Self-attention: the focus token's own value row and its output row, by dimension.
export function meaningPanel(ctx) {
  const { trace, inputs, labels, msg, focusRow, scene, state } = ctx;
  // in predict mode, before the answer, it would give away the output still hidden
  if (ctx.hidden?.("output")) return undefined;
  // The scene's own reading of the output holds for its published inputs and its token.
  const designed = Object.keys(state.edits).length === 0 && focusRow === (scene.focusRow ?? 0);
  if (!inputs.x) return undefined;
  const i = focusRow;
  const own = trace.v[i];
  const out = trace.output[i];
  const [ownText, outText] = [own, out].map((row) => fmtColumn(row, Math.min(state.digits, 3)));
  const token = labels.queries[i];
  const reading = msg.scenes[scene.id].meaning?.(token, designed);
  return tableFigure(
    "meaning",
    msg.views.meaning(token),
    [`${msg.views.own} ${rowRef("V", i)}`, `${msg.views.after} ${rowRef("output", i)}`],
    labels.values.map((name, c) =>
      el(
        "tr",
        {},
        el("th", { scope: "row" }, label(name, msg.gloss(name))),
        el("td", { text: ownText[c] }),
        el("td", { text: outText[c] }),
      ),
    ),
    reading && el("p", { text: reading }),
  );
}
