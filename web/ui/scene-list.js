// ui/scene-list.js: the scenes (and labs) to pick from, each named in its own words.
import { el } from "../views.js";
import { wordsFor } from "../words.js";

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
