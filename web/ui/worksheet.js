// ui/worksheet.js: what the page prints. The worksheet: every step of the current scene, the
// given numbers filled in, the step's results left blank, and the results of earlier steps
// named, not printed (they are the learner's own answers by then). Its answer key, a print of
// its own ("Print the answer key"): every step's results, the core's numbers, and the answers
// of the lesson's check. Built from the same step views as the screen, so both hold the
// learner's edits and decimals.
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
  return el(
    "div",
    { class: "worksheet sheet" },
    el("h2", { text: msg.print.title(msg.title, msg.scenes[scene.id].title) }),
    el("p", { class: "name", text: msg.print.name }),
    el("p", { text: msg.scenes[scene.id].analogy }),
    el("p", { text: msg.print.how(digits) }),
    steps,
  );
}

// The lesson's check in the key: each question and the core's answer (a number at the
// question's decimals, or its choice's words).
function checkKey({ questions, lesson, answers, failed }, msg) {
  return el(
    "section",
    { class: "quiz-key" },
    el("h3", { text: msg.print.quiz(lesson) }),
    failed
      ? el("p", { text: msg.print.quizFailed })
      : [
          el("p", { text: msg.print.quizNote }),
          el(
            "ol",
            {},
            questions.map((q, k) => {
              const words = msg.quiz.questions[q.id];
              const answer = q.choices
                ? words.options[answers[k].choice]
                : answers[k].value.toFixed(q.decimals);
              return el("li", {
                "data-question": q.id,
                text: msg.print.quizAnswer(words.text, answer),
              });
            }),
          ),
        ],
  );
}

/**
 * The answer key for the state's scene (contexts as for worksheet), and `check`, the lesson's
 * check if it has one: { questions, lesson (its name), answers (web/quiz.js's) or failed }.
 */
export function answerKey(contexts, check) {
  const { msg, scene, state } = contexts[0];
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
          ctx.view.matrices.filter(isResult).map((m) => table(m, state.digits, false, msg)),
        ),
      ),
    );
  return el(
    "div",
    { class: "worksheet key" },
    el("h2", { text: msg.print.key(msg.print.title(msg.title, msg.scenes[scene.id].title)) }),
    el("p", { text: msg.print.keyHow(state.digits) }),
    el("div", { class: "answers" }, el("p", { text: msg.print.answersNote }), answers),
    check && checkKey(check, msg),
  );
}
