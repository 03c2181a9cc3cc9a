// ui/quiz.js: the check at the end of each lesson, after the last step of its last scene on the
// path (as the recap follows the path's end): a few questions, each answered with a number or a
// choice and marked in the tab against the core's answer (web/quiz.js works them out; marking
// is check.js's, at the question's decimals); a wrong answer links to the step that explains
// it. Then a summary for the teacher, per lesson checked so far, with the page's link: copied,
// or downloaded as a .txt made in the tab. Nothing is sent anywhere.
import { el, label } from "../views.js";
import { checkValue } from "../check.js";
import { wordsFor } from "../words.js";
import { groupsOf } from "./scene-list.js";
import { classParams } from "../state.js";
import { copyOrShow } from "./copy.js";

/**
 * The lesson of the scene on screen among the lessons offered: { lesson, number (as the scene
 * list numbers it), last (whether the scene is its last) }, or undefined.
 */
export function lessonOfScene({ scene, scenes, lessons }) {
  if (!lessons) return undefined;
  const groups = groupsOf(scenes, lessons).filter((g) => g.lesson);
  const k = groups.findIndex((g) => g.scenes.some((s) => s.id === scene.id));
  if (k < 0) return undefined;
  return { lesson: groups[k].lesson, number: k + 1, last: groups[k].scenes.at(-1).id === scene.id };
}

/** The lesson that ends at this step: lessonOfScene's on its last scene's last step. */
export function lessonEnd(ctx) {
  const at = ctx.state.step === ctx.steps.length - 1 ? lessonOfScene(ctx) : undefined;
  return at?.last ? at : undefined;
}

// A number typed with thousands separators (131,072 or 131 072), for a whole-number answer.
const whole = (text) =>
  /^[−-]?\d{1,3}([, \u00a0\u202f]\d{3})+$/.test(text) ? text.replace(/\D/g, "") : text;

/**
 * An answer marked: "right", "short" (right at fewer decimals than asked: `had`, and `how`,
 * rounded or cut off), "wrong", "invalid"
 * (not a number) or "empty". `typed`: the text typed, or the index of the choice picked.
 */
export function markAnswer(question, answer, typed) {
  if (question.choices) {
    if (typed === undefined) return { status: "empty" };
    return { status: typed === answer.choice ? "right" : "wrong" };
  }
  const text = String(typed ?? "").trim();
  const decimals = question.decimals;
  return checkValue(decimals === 0 ? whole(text) : text, answer.value, decimals);
}

/** How a question's answer reads: its choice's words, or the text typed. */
const shownAnswer = (question, words, typed, msg) =>
  question.choices
    ? typed === undefined
      ? msg.quiz.empty
      : words.options[typed]
    : String(typed ?? "").trim() || msg.quiz.empty;

// a date as the summary writes it: 2026-12-03 14:05, the learner's time
const stamp = (d) => {
  const two = (x) => String(x).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
};

/** How many of the marked answers are right: the score's and the summary's one count. */
export const rightOf = (answers) => answers.filter((a) => a.status === "right").length;

/**
 * The summary for the teacher, as text: every lesson checked (results: [{ lesson: its name as
 * numbered, answers: [{ text, typed: as it reads, status, review: the step's reference or
 * undefined }] }]), with the name, the date and the page's link.
 */
export function summaryText({ msg, results, name, url, date }) {
  const w = msg.quiz.sheet;
  const lines = [w.heading, w.name(name.trim()), w.date(stamp(date)), w.link(url), ""];
  if (!results.length) lines.push(w.none);
  for (const { lesson, answers } of results) {
    lines.push(w.lesson(lesson, rightOf(answers), answers.length));
    answers.forEach((a, k) => {
      const mark = a.status === "right" ? msg.quiz.right : msg.quiz.wrong;
      const review = a.status === "right" ? undefined : a.review;
      lines.push(w.answer(k + 1, a.text, a.typed, mark, review));
    });
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

// A question's field: a number's text box (with ± for the sign, which a phone's decimal keypad
// lacks), or the choices as radio buttons.
function field(question, words, saved, msg, check) {
  const id = `quiz-${question.id}`;
  if (!question.choices) {
    const input = el("input", {
      type: "text",
      id,
      inputmode: question.decimals === 0 ? "numeric" : "decimal",
      autocomplete: "off",
      value: saved.typed[question.id] ?? "",
      "aria-describedby": `${id}-text`,
      oninput: (e) => (saved.typed[question.id] = e.target.value),
      onkeydown: (e) => e.key === "Enter" && check(),
    });
    const flip = () => {
      const text = input.value.trim();
      input.value = /^[−-]/.test(text) ? text.slice(1) : `−${text}`;
      saved.typed[question.id] = input.value;
      input.focus();
    };
    return el(
      "div",
      { class: "quiz-number" },
      el(
        "label",
        {},
        el("span", { class: "label-text", text: msg.quiz.number(question.decimals) }),
        input,
      ),
      question.decimals > 0 &&
        el("button", {
          type: "button",
          id: `${id}-sign`,
          text: msg.check.sign,
          "aria-label": msg.check.signFor,
          title: msg.check.signFor,
          // a tap keeps the field focused, and the phone's keypad open
          onmousedown: (e) => e.preventDefault(),
          onclick: flip,
        }),
    );
  }
  return el(
    "div",
    { class: "choices", role: "radiogroup", "aria-labelledby": `${id}-text` },
    words.options.map((option, k) =>
      el(
        "label",
        {},
        el("input", {
          type: "radio",
          name: id,
          id: `${id}-${k}`,
          value: k,
          checked: saved.typed[question.id] === k,
          onchange: () => (saved.typed[question.id] = k),
        }),
        label(option),
      ),
    ),
  );
}

/**
 * The check, on the step that ends a lesson; undefined elsewhere. ctx.quiz (walkthrough.js):
 * { questionsOf(lesson id, scenes), answers(questions) → promise of web/quiz.js's answers,
 * drafts (what was typed, by lesson), results (what was marked, by lesson), name, url() }.
 */
export function quizPanel(ctx) {
  const { msg, quiz, state, update } = ctx;
  const end = quiz && lessonEnd(ctx);
  if (!end) return undefined;
  const questions = quiz.questionsOf(end.lesson.id, ctx.scenes);
  if (!questions.length) return undefined;
  const lessonName = msg.ui.lesson(end.number, msg.ui.lessons[end.lesson.id]);
  const saved = (quiz.drafts[end.lesson.id] ??= { typed: {}, marked: false });
  // worked out when first asked for (the labs of the lesson load then), and kept
  const answers = () => quiz.answers(questions);
  const status = el("p", { class: "quiz-score", role: "status" });
  const verdicts = [];
  const summary = summaryBox(ctx);

  // where a wrong answer sends the learner: the step that explains it
  const review = (question, answer) => {
    const scene = msg.scenes[question.scene].name;
    const title = wordsFor(state.lang, answer.scene).steps[question.step].title;
    const ref = msg.quiz.stepRef(scene, answer.step + 1, title);
    // the link keeps the class's settings (opened in a new tab too); followed on the page, it
    // leaves the check in the history first, so that Back returns to it (app.js)
    const { lang, predict, hide, path } = state;
    const params = classParams({
      scene: question.scene,
      step: answer.step,
      lang,
      predict,
      hide,
      path,
    });
    const link = el("a", {
      href: `?${params}`,
      "data-review": question.id,
      text: ref,
      onclick: (event) => {
        event.preventDefault();
        if (ctx.host.page) history.pushState(null, "", location.href);
        update({ scene: question.scene, step: answer.step }, { announce: true, arrive: true });
      },
    });
    return { ref, link };
  };

  const mark = (worked) => {
    const marked = questions.map((q, k) => {
      const words = msg.quiz.questions[q.id];
      const typed = saved.typed[q.id];
      const result = markAnswer(q, worked[k], typed);
      const verdict = verdicts[k];
      verdict.className = `verdict ${result.status}`;
      const { ref, link } = review(q, worked[k]);
      if (result.status === "right") verdict.replaceChildren(`✓ ${msg.quiz.right}`);
      else {
        const why =
          result.status === "short"
            ? msg.check.short(result.had, q.decimals, result.how)
            : result.status === "invalid"
              ? msg.check.invalid
              : result.status === "empty"
                ? msg.quiz.empty
                : msg.quiz.wrong;
        const [before, after] = msg.quiz.review(why, result.status === "short" ? "≈" : "✗");
        verdict.replaceChildren(before, link, after);
      }
      return {
        text: words.text,
        typed: shownAnswer(q, words, typed, msg),
        status: result.status,
        review: result.status === "right" ? undefined : ref,
      };
    });
    status.textContent = msg.quiz.score(rightOf(marked), marked.length);
    quiz.results[end.lesson.id] = { lesson: lessonName, answers: marked };
    summary.hidden = false;
  };
  const check = () => {
    saved.marked = true;
    status.textContent = msg.quiz.working;
    answers().then(mark, () => (status.textContent = msg.quiz.failed));
  };

  const panel = el(
    "section",
    { class: "quiz", "aria-labelledby": "quiz-title", "data-lesson": end.lesson.id },
    el("h3", { id: "quiz-title", text: msg.quiz.title(lessonName) }),
    el("p", { text: msg.quiz.intro }),
    el(
      "ol",
      { class: "quiz-questions" },
      questions.map((q) => {
        const words = msg.quiz.questions[q.id];
        const verdict = el("p", { class: "verdict", "aria-live": "polite" });
        verdicts.push(verdict);
        return el(
          "li",
          { "data-question": q.id },
          el("p", { id: `quiz-${q.id}-text`, class: "quiz-text", text: words.text }),
          field(q, words, saved, msg, check),
          verdict,
        );
      }),
    ),
    el("button", { type: "button", id: "quiz-check", text: msg.quiz.check, onclick: check }),
    status,
    summary,
  );
  // drawn again (a language switched, a step reviewed and back): the marks again
  summary.hidden = !saved.marked;
  if (saved.marked) answers().then(mark, () => (status.textContent = msg.quiz.failed));
  return panel;
}

// The summary for the teacher: a name, copy, download; the text is made when asked.
function summaryBox(ctx) {
  const { msg, quiz, lessons } = ctx;
  const status = el("p", { class: "status", role: "status" });
  const box = el("div", { class: "export-box" });
  const text = () => {
    const order = lessons.map((l) => l.id);
    const results = Object.entries(quiz.results)
      .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
      .map(([, r]) => r);
    return summaryText({ msg, results, name: quiz.name, url: quiz.url(), date: new Date() });
  };
  const copy = () =>
    copyOrShow(text(), {
      status,
      box,
      copied: msg.quiz.copied,
      failed: msg.quiz.copyFailed,
      id: "quiz-summary-text",
      label: msg.quiz.box,
      rows: 12,
    });
  const download = () => {
    const url = URL.createObjectURL(new Blob([text()], { type: "text/plain;charset=utf-8" }));
    const a = el("a", { href: url, download: msg.quiz.file, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
    status.textContent = msg.quiz.downloaded;
  };
  return el(
    "div",
    { class: "quiz-summary" },
    el("h4", { text: msg.quiz.summaryTitle }),
    el("p", { text: msg.quiz.summaryText }),
    el(
      "label",
      { class: "quiz-name" },
      el("span", { class: "label-text", text: msg.quiz.name }),
      el("input", {
        type: "text",
        id: "quiz-name",
        autocomplete: "name",
        value: quiz.name,
        oninput: (e) => (quiz.name = e.target.value),
      }),
    ),
    el("button", { type: "button", id: "quiz-copy", text: msg.quiz.copy, onclick: copy }),
    el("button", {
      type: "button",
      id: "quiz-download",
      text: msg.quiz.download,
      onclick: download,
    }),
    status,
    box,
  );
}
