// ui/step-panel.js: the current step: its title and words, a rejected edit's message, its
// matrices (inputs editable where there are controls), and how the picked number is made.
import { el, matrixView } from "../views.js";
import { parseNumber, cellRef } from "../format.js";

/** The inline message after a rejected edit, in the current language. */
export function noticeText(notice, msg) {
  if (notice.core !== undefined) return msg.coreError(notice.core);
  if (notice.tooBig) return msg.ui.tooBig(notice.tooBig);
  return msg.ui.notANumber(notice.typed);
}

// The notice above the step: an edit or a link refused, or a lesson's code or a language's words
// that did not load.
function noticeView(notice, msg) {
  if (notice.unloaded) {
    return el(
      "p",
      { class: "error", role: "alert" },
      notice.unloaded === "language" ? msg.ui.languageUnloaded : msg.ui.unloaded,
      " ",
      el("button", { type: "button", text: msg.ui.reload, onclick: () => location.reload() }),
    );
  }
  const why = notice.link ? msg.ui.rejectedLink : msg.ui.rejected;
  return el("p", { class: "error", role: "alert" }, `${why} ${noticeText(notice, msg)}`);
}

// A matrix with a row or column of zeros added at the end, or its last one removed.
function reshape(rows, along, grow) {
  if (along === "rows") return grow ? [...rows, rows[0].map(() => 0)] : rows.slice(0, -1);
  return rows.map((row) => (grow ? [...row, 0] : row.slice(0, -1)));
}

// Add or remove a row or a column of an input matrix; the core judges the new shape.
// Its name says what it does, and which other matrices change with it.
function shapeTools(m, { lab, msg, editable, update, view }) {
  const tool = (axis, grow) => {
    const group = lab.linkedShapes[m.id][axis];
    const size = axis === "rows" ? m.data.length : m.data[0].length;
    const text = msg.ui[`${grow ? "add" : "remove"}${axis === "rows" ? "Row" : "Column"}`];
    // the other matrices that change with it, by whether they gain or lose a row or a column
    const others = ["rows", "cols"]
      .map((along) => [
        group
          .filter(([id, a]) => id !== m.id && a === along)
          .map(([id]) => view.matrices.find((x) => x.id === id)?.label ?? id),
        along,
      ])
      .filter(([names]) => names.length);
    const also = others.length ? msg.ui.alsoChange(others, grow) : "";
    const name = `${m.label}: ${text}${also}`;
    return el("button", {
      type: "button",
      class: "tool",
      id: `${m.id}-${grow ? "add" : "remove"}-${axis}`,
      "aria-label": name,
      title: name,
      text: `${grow ? "+" : "−"}${axis === "rows" ? "↓" : "→"}`,
      disabled: !grow && size === 1,
      onclick: () => {
        const edits = {};
        for (const [id, along] of group) edits[id] = reshape(editable[id], along, grow);
        update({ edits });
      },
    });
  };
  return el(
    "span",
    { class: "shape-tools" },
    tool("rows", true),
    tool("rows", false),
    tool("cols", true),
    tool("cols", false),
  );
}

// Replaces a cell's button with a text field; Enter or leaving applies, Escape cancels.
function editCell(m, i, j, ctx) {
  const { msg, root, update, refocus } = ctx;
  const button = root.querySelector(`[data-matrix="${m.id}"] button[data-i="${i}"][data-j="${j}"]`);
  const input = el("input", {
    type: "text",
    class: "cell-edit",
    // "text": a decimal keypad has no minus key on iOS
    inputmode: "text",
    value: String(m.data[i][j]),
    "aria-label": msg.ui.editCell(cellRef(m.label, i, j), ""),
  });
  let done = false;
  // Enter and Escape come back to the cell; leaving by Tab or a click goes where it went.
  const finish = (apply, back) => {
    if (done) return;
    done = true;
    if (back) refocus({ m: m.id, i, j });
    if (!apply) return update({});
    // An emptied cell is a change of mind: the number stays.
    if (input.value.trim() === "") return update({ notice: null });
    const value = parseNumber(input.value);
    if (value === undefined) return update({ notice: { typed: input.value } });
    const rows = m.data.map((row) => [...row]);
    rows[i][j] = value;
    update({ edits: { [m.id]: rows } });
  };
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== "Escape") return;
    // Without this, the Enter would also press the cell's button that gets focus back.
    e.preventDefault();
    finish(e.key === "Enter", true);
  });
  input.addEventListener("blur", () => finish(true, false));
  button.replaceWith(input);
  input.focus();
  input.select();
}

// How the picked number is made: one line per equation, and a word when a line carries more
// decimals than the tables or holds only approximately.
function derivationView({ lines, extra, approx }, msg) {
  return el(
    "div",
    { class: "derivation", "aria-live": "off" },
    el("h4", { text: msg.ui.derivation }),
    lines.map((l) => el("p", {}, el("code", { text: l.text }))),
    extra && el("p", { class: "why", text: msg.derive.extra }),
    approx && el("p", { class: "why", text: msg.derive.approx }),
    el("p", { class: "why", text: msg.ui.countFrom1 }),
  );
}

// In predict mode the answers are typed further down (a screen or two on a phone): a link there
// that puts the focus on the first answer.
function answerLink(msg) {
  const go = (event) => {
    const panel = event.currentTarget.getRootNode().querySelector("section.check.predict");
    const first = panel?.querySelector("input");
    if (!first) return;
    first.scrollIntoView({ block: "center" });
    first.focus({ preventScroll: true });
  };
  return el("button", { type: "button", text: msg.predict.answerBelow, onclick: go });
}

// How the picked cell is made, placed just after its matrix (on a wide screen, after all of
// them: style.css). Hidden, it says what to do: work it out from the numbers above, or, when
// those are an earlier step's results not answered yet, answer that step first.
function derivationBox(ctx, hiddenFocus) {
  const { lab, msg, view, focus, waiting = [] } = ctx;
  if (!focus || !lab.derivation) return undefined;
  const box = !hiddenFocus
    ? derivationView(lab.derivation(focus.m, focus.i, focus.j, ctx), msg)
    : waiting.length
      ? el("p", { class: "hint derivation-hint" }, msg.predict.waitingCell(waiting[0] + 1))
      : el("p", { class: "hint derivation-hint" }, msg.predict.noDerivation, " ", answerLink(msg));
  box.style.order = String(2 * view.matrices.findIndex((m) => m.id === focus.m) + 1);
  return box;
}

// A slide's matrices are one row that scrolls sideways, with the derivation and what follows
// the matrices beside it (under it in a narrow box); elsewhere the derivation sits among the
// matrices: after the picked cell's one on a phone, after them all on a wide screen.
function slideBody(matrices, derivation, after) {
  return el(
    "div",
    { class: "slide-body" },
    el("div", { class: "matrices scroll" }, matrices),
    el("div", { class: "slide-side" }, derivation, after),
  );
}

/** The step, with the scene's own controls (`params`) above its matrices. */
export function stepPanel(ctx, params) {
  const { lab, scene, msg, state, steps, stepId, view, focus, host, update } = ctx;
  // inputs are edited where there are controls, unless a class link hides editing
  const editing = host.controls && !state.hide.includes("edit");
  const custom = scene.text?.[state.lang]?.steps?.[stepId];
  const text = custom ?? lab.text?.(stepId, ctx) ?? msg.steps[stepId].text;
  const words = msg.steps[stepId];
  const lit = focus && lab.highlights ? lab.highlights(focus.m, focus.i, focus.j, ctx) : {};
  // What a cell shows instead of its number: "?" for a result still to be predicted, "·" for one
  // that playing has not reached yet.
  // a result of an earlier step not yet answered, shown again on this one
  const concealed = (m) => ctx.concealed?.has(m.id) && m.role !== "input";
  const hidden = (m) => {
    if (concealed(m) || (ctx.predicting && (m.role === "result" || m.role === "aux")))
      return (i) => i >= (m.knownRows ?? 0) && "?";
    if (state.reveal === Infinity || m.id !== view.focusMatrix) return undefined;
    return (i, j) => i * m.data[0].length + j >= state.reveal && "·";
  };
  // the picked number is hidden, or numbers it is made from are: its derivation would say them
  const hiddenFocus =
    (focus && view.matrices.some((m) => m.id === focus.m && hidden(m)?.(focus.i, focus.j))) ||
    view.matrices.some(concealed);
  const onCell = (m, i, j, fromFocus) => {
    if (m.role === "input") {
      if (!fromFocus) editCell(m, i, j, ctx);
      return;
    }
    if (state.focus?.m === m.id && state.focus.i === i && state.focus.j === j) return;
    update({ focus: { m: m.id, i, j } });
  };
  // Inputs are editable where there are controls; elsewhere they are shown like operands. Each
  // has its place in the row (CSS order), so that on a phone the derivation can follow the
  // matrix of the picked cell instead of coming after them all.
  const matrices = view.matrices.map((m, k) => {
    const shown = m.role === "input" && !editing ? { ...m, role: "operand" } : m;
    const figure = matrixView(shown, {
      lit: lit[shown.id],
      hidden: hidden(shown),
      focus,
      digits: state.digits,
      msg,
      onCell,
      tools: shown.role === "input" && lab.linkedShapes ? shapeTools(shown, ctx) : undefined,
    });
    figure.style.order = String(2 * k);
    return figure;
  });
  const derivation = derivationBox(ctx, hiddenFocus);
  const after = [
    !focus && view.focusMatrix && el("p", { class: "hint", text: msg.ui.focusHint }),
    steps[state.step].inStep?.map((id) => ctx.panel(id)),
  ];
  return el(
    "section",
    { class: "step", "aria-labelledby": "step-title" },
    el("h3", { id: "step-title", tabindex: -1 }, `${state.step + 1}. ${msg.steps[stepId].title}`),
    el("p", { class: "step-text", text }),
    words.line && el("p", { class: "step-line" }, el("code", { text: words.line })),
    words.why &&
      !host.compact &&
      el(
        "details",
        { class: "why" },
        el("summary", { text: words.why.summary }),
        el("p", { text: words.why.text }),
      ),
    state.notice && noticeView(state.notice, msg),
    params,
    steps[state.step].lead?.map((id) => ctx.panel(id)),
    stepId === "inputs" && editing && el("p", { class: "hint", text: msg.ui.edit }),
    view.matrices.some((m) => ctx.concealed?.has(m.id)) &&
      el("p", { class: "hint concealed", text: msg.predict.concealed }),
    host.compact
      ? slideBody(matrices, derivation, after)
      : [el("div", { class: "matrices" }, matrices, derivation), after],
  );
}
