// ui/result-view.js: the result in words, built from the core's numbers, so that it stays
// true after any edit. Each built-in scene says its own thing; a custom scene says its own
// words, if it has any.
import { el, label, tableFigure } from "../views.js";
import { fmt, fmtColumn, rowRef } from "../format.js";
import { ranking } from "../steps.js";

// a row as the sentence writes it: at 3 decimals, or at the tables' `digits` where a sentence
// sits under a table of the same numbers (its numbers must read as the table's)
const vector = (row, digits = 3) => `[${row.map((x) => fmt(x, digits)).join(", ")}]`;
const paragraph = (...words) =>
  el(
    "div",
    { class: "result" },
    words.filter(Boolean).map((text) => el("p", { text })),
  );
// A token with its meaning in the page's language, when it has one: 我 (I).
const glossed = (msg, token) => (msg.gloss(token) ? `${token} (${msg.gloss(token)})` : token);

// Each scene's sentences, from the trace and the labels.
const sentences = {
  // 苹果 in two sentences: its own value, one average, and its two outputs, each made from the
  // word it attends to most; with edits, the numbers alone
  apple({ msg, scene, state, labels, trace, inputs }) {
    const words = msg.scenes.apple;
    const digits = Math.min(state.digits, 3);
    const each = trace.output.map((out, i) => {
      const top = ranking(trace, i)[0];
      return {
        word: labels.keys[top],
        weight: fmt(trace.weights[i][top], 3),
        output: vector(out, digits),
      };
    });
    const own = scene.own.map((j) => inputs.v[j]);
    const same = own.every((row) => row.join() === own[0].join());
    const designed = Object.keys(state.edits).length === 0;
    const [ownText, ...outText] = [own[0], ...trace.output].map((row) => fmtColumn(row, digits));
    const table = same
      ? tableFigure(
          "meaning",
          words.table,
          [
            words.own(rowRef("V", scene.own[0])),
            ...trace.output.map((_, i) => words.in(rowRef("output", i), i + 1)),
          ],
          labels.values.map((name, c) =>
            el(
              "tr",
              {},
              el("th", { scope: "row" }, label(name, msg.gloss(name))),
              el("td", { text: ownText[c] }),
              outText.map((column) => el("td", { text: column[c] })),
            ),
          ),
        )
      : undefined;
    return el(
      "div",
      { class: "result" },
      el("p", {
        text:
          designed && same ? words.result(vector(own[0], digits), each) : words.resultEdited(each),
      }),
      table,
    );
  },
  classroom({ msg, labels, trace, inputs, state }) {
    const v = trace.v ?? inputs.v;
    const words = msg.scenes.classroom;
    const x = inputs.x ?? [];
    const say = (say, i) =>
      say(
        glossed(msg, labels.queries[i]),
        rowRef("V", i),
        vector(v[i], state.digits),
        vector(trace.output[i], state.digits),
        rowRef("X", i),
        x[i] && vector(x[i], state.digits),
      );
    // the article's two examples: the first word, 我, and the last, 你
    return paragraph(say(words.result, 0), say(words.also, v.length - 1));
  },
  age({ msg, scene, state, trace, labels }) {
    const words = msg.scenes.age;
    const value = fmt(trace.output[0][0], state.digits);
    // With other inputs, the article's exact lookup and mean are not this question's.
    if (Object.keys(state.edits).length) return paragraph(words.resultEdited(value));
    const weights = trace.weights[0];
    const outlier = weights[scene.compare.outlier];
    // α = 0 weighs every key alike; a small weight left for Li Si is a nearly hard lookup.
    const how = weights.every((w) => w === weights[0])
      ? words.flat(fmt(weights[0], 3))
      : outlier < 0.01
        ? words.hard(state.alpha, labels.keys[scene.compare.outlier], fmt(outlier, 3))
        : words.soft(labels.keys[scene.compare.outlier], fmt(outlier, 3));
    const rows = [
      [words.attention, value],
      [words.exact, fmt(scene.compare.exact, state.digits)],
      [words.mean, fmt(scene.compare.mean, state.digits)],
    ];
    return el(
      "div",
      { class: "result" },
      el("p", { text: words.result(value, scene.compare.exact, scene.compare.mean) }),
      el("p", { text: how }),
      el(
        "dl",
        { class: "compare" },
        rows.map(([name, x]) => [el("dt", { text: name }), el("dd", { text: x })]),
      ),
    );
  },
  dictionary({ msg, labels, trace, inputs }) {
    const top = ranking(trace, 0)[0];
    const weight = fmt(trace.weights[0][top], 2);
    return paragraph(
      msg.scenes.dictionary.result(
        labels.keys[top],
        weight,
        vector(inputs.v[top]),
        vector(trace.output[0]),
      ),
    );
  },
  book({ msg, scene, state, labels, trace }) {
    const top = ranking(trace, scene.focusRow)
      .map((j) => labels.keys[j])
      .slice(0, 3);
    const words = msg.scenes.book;
    return paragraph(
      words.result(msg.list(top), top.join() === "读,有趣,图书馆"),
      state.causal && words.masked,
    );
  },
  cup({ msg, labels, trace }) {
    // The task's second choice is "pulled" when it is what the query without a task picks.
    const [byEye, [byTask, second]] = [ranking(trace, 0), ranking(trace, 1)];
    const name = (j) => labels.keys[j];
    return paragraph(
      msg.scenes.cup.result(name(byEye[0]), name(byTask), second === byEye[0] && name(second)),
    );
  },
};

export function resultView(ctx) {
  const { scene, msg } = ctx;
  // in predict mode, before the answer, the sentences would give away the numbers still hidden
  if (["weights", "output"].some((id) => ctx.hidden?.(id))) return undefined;
  const text = msg.scenes[scene.id].result;
  if (scene.text || !sentences[scene.id]) return text ? paragraph(text) : undefined;
  return sentences[scene.id](ctx);
}
