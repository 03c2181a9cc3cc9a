// ui/scene-list.js: the scenes (and labs) to pick from, each named in its own words.
import { el } from "../views.js";
import { wordsFor } from "../words.js";

/**
 * Another scene by its scene-list name: a link that opens it in place where the walkthrough
 * offers it (and a plain link on a page), else just its name.
 */
export function sceneLink({ msg, state, scenes, update }, id) {
  const name = msg.scenes[id].name;
  if (!scenes.some((s) => s.id === id)) return name;
  return el("a", {
    href: `?scene=${id}&lang=${state.lang}`,
    "data-scene-link": id,
    text: name,
    onclick: (event) => {
      event.preventDefault();
      update({ scene: id }, { announce: true });
    },
  });
}

export function sceneList({ msg, state, scenes, update }) {
  return el(
    "nav",
    { "aria-label": msg.ui.scenes },
    // On a phone the scenes are one row that scrolls sideways.
    el(
      "ul",
      { class: "scroll", "data-no-hint": "" },
      scenes.map((s) =>
        el(
          "li",
          {},
          el("button", {
            type: "button",
            id: `scene-${s.id}`,
            "aria-current": s.id === state.scene ? "page" : undefined,
            text: wordsFor(state.lang, s).scenes[s.id].name,
            onclick: () => update({ scene: s.id }, { announce: true }),
          }),
        ),
      ),
    ),
  );
}
