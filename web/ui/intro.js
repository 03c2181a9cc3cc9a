// ui/intro.js: the scene's title, its analogy, a note, and the article it comes from. When
// the learner has changed the inputs, the note about the published numbers gives way to one
// that says so. On a phone the analogy and the source fold into "About this scene", open when
// the scene opens on its first step (where the picture is needed), folded when it opens on a
// later one, so that the step is on the first screen. A scene whose weights were made by hand says so there, and points
// to the lab where they are learned.
import { el } from "../views.js";
import { sceneLink } from "./scene-list.js";

export function intro(ctx) {
  const { msg, scene, state } = ctx;
  const words = msg.scenes[scene.id];
  const edited = Object.keys(state.edits).length > 0;
  const source = scene.source && msg.sources[scene.source];
  const about = () => [
    el("p", { class: "analogy", text: words.analogy }),
    source &&
      el(
        "p",
        { class: "source" },
        `${msg.ui.sourceLabel} ${source.text}`,
        source.link && [" ", el("a", { href: source.link.href, text: source.link.text })],
      ),
    scene.handMade &&
      el(
        "p",
        { class: "hand-made" },
        msg.ui.handMade[0],
        sceneLink(ctx, "teach"),
        msg.ui.handMade[1],
      ),
  ];
  return el(
    "section",
    { class: "intro", "aria-labelledby": "scene-title" },
    el("h2", { id: "scene-title", text: words.title }),
    el("div", { class: "about-wide" }, about()),
    // on a phone, open when the scene opens on its first step, where the picture is needed
    el(
      "details",
      { class: "about", open: state.step === 0 },
      el("summary", { text: msg.ui.about }),
      about(),
    ),
    edited
      ? el("p", { class: "note edited", text: msg.ui.edited })
      : words.note && el("p", { class: "note", text: words.note }),
  );
}
