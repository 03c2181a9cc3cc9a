// ui/check-panel.js: "check my numbers". The learner types results for the cells of one of the
// step's matrices (it says which, and offers the others: K and V beside Q, exp and Σ beside the
// weights); each is marked at a chosen precision against the core's number, with the first
// wrong decimal highlighted; a wrong answer asks for another try first, and shows the core's
// number when the learner asks. In predict mode the step's results stay hidden until the
// learner checks: then the page reveals them, with the marks. A question with choices ("which
// key gets the most weight?") can be answered instead of, or beside, the numbers, and counts
// in the summary as one more answer.
import { checkValue } from "../check.js";
import { cellRef, fmt, parseNumber, rowRef } from "../format.js";
import { el, label } from "../views.js";

/** The step's key in what has been revealed and what was typed. */
export const stepKey = ({ state, stepId }) => `${state.scene}:${stepId}`;

/**
 * The panel for the current step, or nothing when the step has no result to check. `drafts`
 * keeps, by step, what was typed and picked across redraws.
 */
export function checkPanelFor(ctx, drafts) {
  const { scene, state, stepId, view, msg, lab, update, predicting } = ctx;
  const mode = predicting ? "predict" : state.predict ? "revealed" : "check";
  if (!view.focusMatrix) return undefined;
  // The step's results: its result matrices, then its working (exp, max, Σ), focus first.
  const results = view.matrices
    .filter((m) => m.role === "result" || m.role === "aux")
    .sort((a, b) => (b.id === view.focusMatrix) - (a.id === view.focusMatrix));
  // a step whose matrices are all given (the sizes lab's published configurations) has nothing
  // to check
  if (!results.length) return undefined;
  const saved = (drafts[stepKey(ctx)] ??= { typed: {}, shown: {}, decimals: 4, run: false });
  // Marks are for the numbers they were checked against: new numbers (an edit, a sharper query)
  // leave the answers typed, unmarked, until the learner checks again.
  if (saved.numbers !== ctx.trace) {
    saved.run = false;
    saved.shown = {};
    saved.numbers = ctx.trace;
  }
  const m = results.find((x) => x.id === saved.matrix) ?? results[0];
  const large = m.data.length * m.data[0].length > 16;
  const row = state.focus?.m === m.id ? state.focus.i : Math.min(ctx.focusRow, m.data.length - 1);
  const rows = large ? [row] : m.data.map((_, i) => i);
  // the article's printed numbers are for the article's inputs, not for the learner's edits
  const edited = Object.keys(state.edits).length > 0;
  const printed = m.id === view.focusMatrix && !edited ? scene.printed?.[stepId] : undefined;
  const question = mode !== "check" ? lab.question?.(stepId, ctx) : undefined;
  const picker =
    results.length > 1 &&
    el(
      "label",
      {},
      msg.check.pick,
      el(
        "select",
        {
          id: "check-matrix",
          onchange: (e) => {
            saved.matrix = e.target.value;
            update({});
          },
        },
        results.map((x) =>
          el("option", { value: x.id, selected: x === m, text: x.caption ?? x.label }),
        ),
      ),
    );
  // Checking reveals this step whole: with it, the earlier steps not answered whose results it
  // is worked from (hidden until now), since predict mode began here.
  const reveal = () => {
    const revealed = { ...state.revealed, [stepKey(ctx)]: true };
    for (let k = state.predictFrom ?? 0; k < state.step; k++)
      revealed[`${state.scene}:${ctx.steps[k].id}`] = true;
    update({ revealed }, { announce: true });
  };
  // Worked from an earlier step's results not answered yet: that step first, or reveal.
  const first = predicting ? ctx.waiting?.[0] : undefined;
  const waiting =
    first !== undefined &&
    el(
      "p",
      { class: "waiting" },
      msg.predict.waiting(first + 1, msg.steps[ctx.steps[first].id].title),
      " ",
      el("button", {
        type: "button",
        id: "predict-earlier",
        text: msg.predict.goTo(first + 1),
        onclick: () => ctx.playback.go(first),
      }),
    );
  return checkPanel({
    m,
    rows,
    saved,
    msg,
    printed,
    workedOf: (i, j) => lab.worked?.(m.id, i, j, ctx) ?? [],
    which: [
      el(
        "p",
        { class: "which" },
        msg.check.which(m.caption ?? m.label, `${m.data.length}×${m.data[0].length}`),
      ),
      picker,
      large && el("p", { class: "hint", text: msg.check.oneRow(rowRef(m.label, row)) }),
    ],
    question,
    mode,
    onReveal: predicting ? reveal : undefined,
    waiting,
  });
}

// The question with choices, as radio buttons; `mark()` says right or wrong after a check, and
// returns it as a field's mark: "right", "wrong" or "empty".
function choices(question, saved, msg) {
  const name = "predict-choice";
  const verdict = el("p", { class: "verdict", "aria-live": "polite" });
  const fieldset = el(
    "fieldset",
    { class: "choices" },
    el("legend", { text: question.text }),
    question.options.map((option, k) =>
      el(
        "label",
        {},
        el("input", {
          type: "radio",
          name,
          value: k,
          checked: saved.choice === k,
          onchange: () => (saved.choice = k),
        }),
        label(option, msg.gloss(option)),
      ),
    ),
    verdict,
  );
  const mark = () => {
    if (saved.choice === undefined) {
      verdict.replaceChildren();
      return "empty";
    }
    const answers = question.answer.map((k) => question.options[k]);
    const right = question.answer.includes(saved.choice);
    verdict.textContent = right
      ? `✓ ${msg.check.right}${answers.length > 1 ? ` ${msg.predict.tie(msg.list(answers))}` : ""}`
      : `✗ ${msg.predict.answer(msg.list(answers))}`;
    return right ? "right" : "wrong";
  };
  return { fieldset, mark };
}

/**
 * m: the matrix to check { id, label, data, rowLabels, colLabels }; rows: which of its rows to
 * offer; saved: { typed, shown: the cells whose core number was asked for, decimals, run,
 * choice, numbers: the trace the marks are for }; printed: the numbers an article printed for the step, { values, summary? }, to check
 * with one click; workedOf(i, j): what working the cell out from the numbers on screen gives;
 * which: what the panel checks;
 * question: { text, options, answer } with choices; mode: "check", "predict" (the results are
 * hidden) or "revealed"; onReveal: reveal the step after checking; waiting: what to say instead
 * of "work them out from the numbers above" when those are hidden.
 */
export function checkPanel(options) {
  const { m, saved, msg, printed, which, question, onReveal, waiting } = options;
  const mode = options.mode ?? "check";
  const words = { check: msg.check, predict: msg.predict, revealed: msg.predict.revealed }[mode];
  const decimals = el(
    "select",
    { id: "check-decimals", onchange: () => (saved.decimals = Number(decimals.value)) },
    [1, 2, 3, 4, 5, 6, 8].map((d) =>
      el("option", { value: d, selected: d === saved.decimals, text: String(d) }),
    ),
  );
  const summary = el("p", { class: "check-summary", role: "status" });
  const asked = question && choices(question, saved, msg);
  // a field typed in after a check: its mark was for the number before, and so was the count
  const edited = (input) => {
    input.className = "";
    input.nextElementSibling.replaceChildren();
    summary.textContent = "";
  };
  const { grid, inputs } = answerGrid(options, () => check(), edited);
  const run = () => {
    saved.run = true;
    const marks = inputs.map((input) => mark(input, options, Number(decimals.value)));
    // the question's answer is one more, right or wrong
    if (asked) marks.push(asked.mark());
    const total = marks.filter((r) => r !== "empty").length;
    const right = marks.filter((r) => r === "right").length;
    summary.textContent = total ? msg.check.summary(right, total) : "";
  };
  // In predict mode, checking also reveals the step.
  const check = () => {
    run();
    onReveal?.();
  };
  // an article's numbers: the core's are shown beside them at once, to compare
  const fill = (values, places) => {
    for (const input of inputs) {
      input.value = String(values[input.dataset.i][input.dataset.j]);
      saved.typed[key(m, input.dataset.i, input.dataset.j)] = input.value;
      saved.shown[key(m, input.dataset.i, input.dataset.j)] = true;
    }
    saved.asPrinted = true;
    decimals.value = String(places);
    saved.decimals = places;
    check();
  };
  const clear = () => {
    for (const input of inputs) input.value = "";
    for (const radio of panel.querySelectorAll("[type=radio]")) radio.checked = false;
    saved.typed = {};
    saved.shown = {};
    saved.choice = undefined;
    run();
  };
  const panel = el(
    "section",
    { class: mode === "check" ? "check" : `check ${mode}`, "aria-labelledby": "check-title" },
    el("h3", { id: "check-title", text: words.title }),
    waiting || el("p", { text: words.text }),
    el("p", { class: "hint", id: "check-rule", text: msg.check.rule }),
    which,
    asked?.fieldset,
    el("div", { class: "scroll" }, grid),
    checkTools({ msg, mode, printed, decimals, check, clear, fill, inputs }),
    // the article's summary is this step's answer: not before a prediction is checked
    mode !== "predict" &&
      printed?.values &&
      el("p", { class: "note", text: msg.check.printedNote(summaryText(printed)) }),
    summary,
  );
  if (saved.run) run();
  return panel;
}

const key = (m, i, j) => `${m.id}:${i}.${j}`;

// The article's 3-decimal summary of this step's matrix as it wrote it, [[0.551, 0.498], …],
// or nothing when it printed none for this step.
const summaryText = (printed) =>
  printed.summary &&
  `[${printed.summary.map((row) => `[${row.map((x) => fmt(x, 3)).join(", ")}]`).join(", ")}]`;

// The table of fields to type the answers in, one per offered cell. A phone opens its decimal
// keypad for them (the sign has its own button, checkTools's ±), and its text keyboard where an
// answer can be −∞. edited(input): a field's value changed.
function answerGrid({ m, rows, saved, msg }, check, edited) {
  const inputs = [];
  const keypad = m.data.flat().every(Number.isFinite) ? "decimal" : "text";
  const grid = el(
    "table",
    { class: "check-grid" },
    el(
      "tr",
      {},
      el("th"),
      m.colLabels.map((c) => el("th", { scope: "col" }, label(c, msg.gloss(c)))),
    ),
    rows.map((i) =>
      el(
        "tr",
        {},
        el("th", { scope: "row" }, label(m.rowLabels[i], msg.gloss(m.rowLabels[i]))),
        m.data[i].map((_, j) => {
          const input = el("input", {
            // an id the focus finds again when the step is drawn anew (an answer that reveals it)
            id: `check-${m.id}-${i + 1}-${j + 1}`,
            type: "text",
            inputmode: keypad,
            "data-i": i,
            "data-j": j,
            value: saved.typed[key(m, i, j)] ?? "",
            "aria-label": msg.ui.cell(cellRef(m.label, i, j), ""),
            oninput: () => {
              saved.typed[key(m, i, j)] = input.value;
              saved.asPrinted = false;
              edited(input);
            },
            onkeydown: (e) => e.key === "Enter" && check(),
          });
          inputs.push(input);
          return el("td", {}, input, el("span", { class: "verdict", "aria-live": "polite" }));
        }),
      ),
    ),
  );
  return { grid, inputs };
}

// One answer marked: its field's class and verdict; returns the status. A wrong one says to try
// again, and shows the core's number only once the learner asks for it.
function mark(input, options, decimals) {
  const { m, saved, msg, workedOf = () => [] } = options;
  const i = Number(input.dataset.i);
  const j = Number(input.dataset.j);
  const verdict = input.nextElementSibling;
  // An article's numbers are its code's output, not worked from our tables.
  const worked = saved.asPrinted ? [] : workedOf(i, j);
  const result = checkValue(input.value, m.data[i][j], decimals, worked);
  input.className = result.status;
  verdict.replaceChildren();
  if (result.status === "right") {
    // right but not the core's number rounded (cut off, or worked from the shown numbers): say
    // that one, so that a learner sees what rounding gives
    const typed = parseNumber(input.value);
    const same = !Number.isFinite(typed) || typed.toFixed(decimals) === result.expected;
    verdict.textContent = `✓ ${same ? msg.check.right : msg.check.rightRounded(result.expected)}`;
  } else if (result.status === "invalid") verdict.textContent = `✗ ${msg.check.invalid}`;
  else if (result.status === "short")
    verdict.textContent = `≈ ${msg.check.short(result.had, decimals, result.how)}`;
  else if (result.status === "wrong") {
    const typed = input.value.trim();
    verdict.append(
      "✗ ",
      el(
        "span",
        { class: "typed" },
        typed.slice(0, result.wrongAt),
        el("mark", { text: typed.slice(result.wrongAt, result.wrongAt + 1) }),
        typed.slice(result.wrongAt + 1),
      ),
    );
    const k = key(m, i, j);
    if (saved.shown[k]) verdict.append(` ${msg.check.wrong(result.expected)}`);
    else {
      verdict.append(
        ` ${msg.check.tryAgain} `,
        el("button", {
          type: "button",
          class: "show",
          text: msg.check.show,
          "aria-label": msg.check.showFor(cellRef(m.label, i, j)),
          onclick: () => {
            saved.shown[k] = true;
            mark(input, options, decimals);
            input.focus();
          },
        }),
      );
    }
  }
  return result.status;
}

// The decimals, ± for the answer being typed (a phone's decimal keypad has no minus), Check,
// Clear, and the article's printed numbers where there are some.
function checkTools({ msg, mode, printed, decimals, check, clear, fill, inputs }) {
  let typing = inputs[0]; // the answer field last typed in
  for (const input of inputs) input.addEventListener("focus", () => (typing = input));
  const flip = () => {
    if (!typing) return;
    const text = typing.value.trim();
    typing.value = /^[−-]/.test(text) ? text.slice(1) : `−${text}`;
    typing.dispatchEvent(new Event("input"));
    typing.focus();
  };
  return el(
    "div",
    { class: "check-tools" },
    el("label", {}, msg.check.decimals, decimals),
    el("button", {
      type: "button",
      id: "check-sign",
      text: msg.check.sign,
      "aria-label": msg.check.signFor,
      title: msg.check.signFor,
      // a tap keeps the field focused, and the phone's keypad open
      onmousedown: (e) => e.preventDefault(),
      onclick: flip,
    }),
    el("button", {
      type: "button",
      id: "check",
      text: mode === "predict" ? msg.predict.reveal : msg.check.button,
      onclick: check,
    }),
    el("button", { type: "button", text: msg.check.clear, onclick: clear }),
    printed?.values &&
      el("button", {
        type: "button",
        id: "check-printed",
        text: msg.check.printedButton,
        onclick: () => fill(printed.values, 8),
      }),
    printed?.summary &&
      el("button", {
        type: "button",
        id: "check-summary",
        text: msg.check.summaryButton,
        onclick: () => fill(printed.summary, 3),
      }),
  );
}
