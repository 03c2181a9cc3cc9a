// ui/result-view.js: the result in words, built from the core's numbers, so that it stays
// true after any edit. Each built-in scene says its own thing; a custom scene says its own
// words, if it has any.
import { el } from "../views.js";
import { fmt } from "../format.js";
import { ranking } from "../steps.js";

const vector = (row) => `[${row.map((x) => fmt(x, 3)).join(", ")}]`;
const paragraph = (words) => el("div", { class: "result" }, el("p", { text: words }));

// Each scene's sentence, from the trace and the labels.
const sentences = {
  classroom: ({ msg, labels, trace, inputs }) =>
    paragraph(
      msg.scenes.classroom.result(labels.queries[0], vector(inputs.x[0]), vector(trace.output[0])),
    ),
  age({ msg, scene, state, trace }) {
    const words = msg.scenes.age;
    const value = fmt(trace.output[0][0], state.digits);
    if (state.edits.k || state.edits.v) return paragraph(words.resultEdited(value));
    const rows = [
      [words.attention, value],
      [words.exact, fmt(scene.compare.exact, state.digits)],
      [words.mean, fmt(scene.compare.mean, state.digits)],
    ];
    return el(
      "div",
      { class: "result" },
      el("p", { text: words.result(value, scene.compare.exact, scene.compare.mean) }),
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
  book({ msg, scene, labels, trace }) {
    const top = ranking(trace, scene.focusRow)
      .map((j) => labels.keys[j])
      .slice(0, 3);
    return paragraph(msg.scenes.book.result(msg.list(top), top.join() === "读,有趣,图书馆"));
  },
  cup({ msg, labels, trace }) {
    const first = (row) => labels.keys[ranking(trace, row)[0]];
    return paragraph(msg.scenes.cup.result(first(0), first(1)));
  },
};

export function resultView(ctx) {
  const { scene, msg } = ctx;
  const text = msg.scenes[scene.id].result;
  if (scene.text || !sentences[scene.id]) return text ? paragraph(text) : undefined;
  return sentences[scene.id](ctx);
}
