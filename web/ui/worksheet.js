// ui/worksheet.js: what the page prints. Every step of the current scene: the given numbers
// filled in, the step's results left blank, and the results of earlier steps named, not
// printed (they are the learner's own answers by then); then an answer key on a page of its
// own. Built from the same step views as the screen, so it holds the learner's edits and
// decimals.
import { el, label } from "../views.js";
import { fmtColumns } from "../format.js";

// A matrix as a plain table: numbers, or empty boxes to fill.
function table(m, digits, blank, msg) {
  const columns = fmtColumns(m.data, digits);
  return el(
    "figure",
    {},
    el("figcaption", {}, el("code", { text: m.caption ?? m.label })),
    el(
      "table",
      {},
      // a table that runs onto the next page repeats its column names there
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th"),
          m.colLabels.map((c) => el("th", { scope: "col" }, label(c, msg.gloss(c)))),
        ),
      ),
      el(
        "tbody",
        {},
        m.data.map((row, i) =>
          el(
            "tr",
            {},
            el("th", { scope: "row" }, label(m.rowLabels[i] ?? "", msg.gloss(m.rowLabels[i]))),
            row.map((_, j) =>
              blank && i >= (m.knownRows ?? 0)
                ? el("td", { class: "blank" })
                : el("td", { text: columns[j][i] }),
            ),
          ),
        ),
      ),
    ),
  );
}

const isResult = (m) => m.role === "result" || m.role === "aux";

/** The worksheet for the state's scene: contexts[k] is what step k shows (derive's ctx). */
export function worksheet(contexts) {
  const { msg, scene, state } = contexts[0];
  const digits = state.digits;
  const madeAt = {}; // matrix id → the step whose result it is
  const steps = contexts.map((ctx, k) => {
    const blanks = ctx.view.focusMatrix !== null;
    const earlier = ctx.view.matrices.filter(
      (m) => madeAt[m.id] !== undefined && !(blanks && isResult(m)),
    );
    const shown = ctx.view.matrices.filter((m) => !earlier.includes(m));
    for (const m of shown) if (blanks && isResult(m)) madeAt[m.id] ??= k;
    return el(
      "section",
      {},
      el("h3", { text: `${k + 1}. ${msg.steps[ctx.stepId].title}` }),
      el("p", { text: ctx.text }),
      earlier.length > 0 &&
        el("p", {
          class: "from",
          text: msg.print.from(earlier.map((m) => `${m.caption ?? m.label} (${madeAt[m.id] + 1})`)),
        }),
      el(
        "div",
        { class: "matrices" },
        shown.map((m) => table(m, digits, blanks && isResult(m), msg)),
      ),
    );
  });
  const answers = contexts
    .filter((ctx) => ctx.view.focusMatrix !== null)
    .map((ctx) =>
      el(
        "section",
        {},
        el("h3", { text: `${ctx.state.step + 1}. ${msg.steps[ctx.stepId].title}` }),
        el(
          "div",
          { class: "matrices" },
          ctx.view.matrices.filter(isResult).map((m) => table(m, digits, false, msg)),
        ),
      ),
    );
  return el(
    "div",
    { class: "worksheet" },
    el("h2", { text: `${msg.title}: ${msg.scenes[scene.id].title}` }),
    el("p", { class: "name", text: msg.print.name }),
    el("p", { text: msg.scenes[scene.id].analogy }),
    el("p", { text: msg.print.how(digits) }),
    steps,
    el(
      "div",
      { class: "answers" },
      el("h2", { text: msg.print.answers }),
      el("p", { text: msg.print.answersNote }),
      answers,
    ),
  );
}
