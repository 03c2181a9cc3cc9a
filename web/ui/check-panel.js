// check-panel.js: "check my numbers". The learner types results for the cells of a step's
// matrix; each is marked at a chosen precision against the core's number, with the first wrong
// decimal highlighted. `saved` keeps what was typed across redraws.
import { checkValue } from "../check.js";
import { cellRef } from "../format.js";
import { el, label } from "../views.js";

/**
 * The panel for the current step, or nothing when the step has no result to check. Large
 * matrices offer the picked row only. An article's printed numbers for the step
 * (scene.printed[stepId]) can be checked with one click.
 */
export function checkPanelFor(ctx, drafts) {
  const { scene, state, stepId, view, msg, lab } = ctx;
  const m = view.matrices.find((x) => x.id === view.focusMatrix);
  if (!m) return undefined;
  const rows =
    m.data.length * m.data[0].length > 16 ? [state.focus?.i ?? 0] : m.data.map((_, i) => i);
  // What was typed survives redraws (a click on a cell, another language, …).
  const saved = (drafts[`${state.scene}:${stepId}`] ??= { typed: {}, decimals: 4, run: false });
  // An answer worked out from the rounded numbers on screen is right too.
  const slackOf = (i, j) => lab.slack?.(m.id, i, j, ctx) ?? 0;
  return checkPanel(m, rows, saved, msg, scene.printed?.[stepId], slackOf);
}

/**
 * m: the step's result matrix { label, data, rowLabels, colLabels }; rows: which of its rows to
 * offer; saved: { typed, decimals, run }; msg: the messages; seed: the numbers an article
 * printed for this step, { values, summary? }, to check with one click; slackOf(i, j): how far
 * an answer worked out from the numbers on screen may be from the core's.
 */
export function checkPanel(m, rows, saved, msg, seed, slackOf = () => 0) {
  const seedValues = seed?.values;
  const decimals = el(
    "select",
    { id: "check-decimals", onchange: () => (saved.decimals = Number(decimals.value)) },
    [1, 2, 3, 4, 5, 6, 8].map((d) =>
      el("option", { value: d, selected: d === saved.decimals, text: String(d) }),
    ),
  );
  const inputs = [];
  const grid = el(
    "table",
    { class: "check-grid" },
    el(
      "tr",
      {},
      el("th"),
      m.colLabels.map((c) => el("th", { scope: "col" }, label(c))),
    ),
    rows.map((i) =>
      el(
        "tr",
        {},
        el("th", { scope: "row" }, label(m.rowLabels[i])),
        m.data[i].map((_, j) => {
          const input = el("input", {
            type: "text",
            inputmode: "decimal",
            "data-i": i,
            "data-j": j,
            value: saved.typed[`${i}.${j}`] ?? "",
            "aria-label": msg.ui.cell(cellRef(m.label, i, j), ""),
            oninput: () => {
              saved.typed[`${i}.${j}`] = input.value;
              saved.asPrinted = false;
            },
            onkeydown: (e) => e.key === "Enter" && run(),
          });
          inputs.push(input);
          return el("td", {}, input, el("span", { class: "verdict", "aria-live": "polite" }));
        }),
      ),
    ),
  );
  const summary = el("p", { class: "check-summary", role: "status" });
  const run = () => {
    saved.run = true;
    let right = 0;
    let total = 0;
    for (const input of inputs) {
      const i = Number(input.dataset.i);
      const j = Number(input.dataset.j);
      const verdict = input.nextElementSibling;
      const margin = saved.asPrinted ? 0 : slackOf(i, j);
      const result = checkValue(input.value, m.data[i][j], Number(decimals.value), margin);
      input.className = result.status;
      verdict.replaceChildren();
      if (result.status === "empty") continue;
      total++;
      if (result.status === "right") {
        right++;
        verdict.textContent = `✓ ${msg.check.right}`;
      } else if (result.status === "invalid") {
        verdict.textContent = `✗ ${msg.check.invalid}`;
      } else {
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
          ` ${msg.check.wrong(result.expected)}`,
        );
      }
    }
    summary.textContent = total ? msg.check.summary(right, total) : "";
  };
  // An article's numbers are its code's output, not worked from our tables: no slack.
  const fill = (values, places) => {
    for (const input of inputs) {
      input.value = String(values[input.dataset.i][input.dataset.j]);
      saved.typed[`${input.dataset.i}.${input.dataset.j}`] = input.value;
    }
    saved.asPrinted = true;
    decimals.value = String(places);
    saved.decimals = places;
    run();
  };
  const panel = el(
    "section",
    { class: "check", "aria-labelledby": "check-title" },
    el("h3", { id: "check-title", text: msg.check.title }),
    el("p", { text: msg.check.text }),
    el("div", { class: "scroll" }, grid),
    el(
      "div",
      { class: "check-tools" },
      el("label", {}, msg.check.decimals, decimals),
      el("button", { type: "button", id: "check", text: msg.check.button, onclick: run }),
      el("button", {
        type: "button",
        text: msg.check.clear,
        onclick: () => {
          for (const input of inputs) input.value = "";
          saved.typed = {};
          run();
        },
      }),
      seedValues &&
        el("button", {
          type: "button",
          id: "check-seed",
          text: msg.check.seedButton,
          onclick: () => fill(seedValues, 8),
        }),
      seed?.summary &&
        el("button", {
          type: "button",
          id: "check-summary",
          text: msg.check.summaryButton,
          onclick: () => fill(seed.summary, 3),
        }),
    ),
    seedValues && el("p", { class: "note", text: msg.check.seedNote }),
    summary,
  );
  if (saved.run) run();
  return panel;
}
