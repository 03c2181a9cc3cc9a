// ui/intro.js: the scene's title, its analogy, a note and where it comes from.
import { el } from "../views.js";

export function intro({ msg, scene }) {
  const words = msg.scenes[scene.id];
  return el(
    "section",
    { class: "intro", "aria-labelledby": "scene-title" },
    el("h2", { id: "scene-title", text: words.title }),
    el("p", { class: "analogy", text: words.analogy }),
    words.note && el("p", { class: "note", text: words.note }),
    scene.source && el("p", { class: "source", text: msg.ui.source(scene.source) }),
  );
}
