// ui/intro.js: the scene's title, its analogy, a note, and the article it comes from. When
// the learner has changed the inputs, the note about the published numbers gives way to one
// that says so. A scene whose weights were made by hand says so, and points to the lab where
// they are learned. On a phone the analogy and the source move below the step, so that the
// step is on the first screen, into "About this scene" (aboutBelow): open when the scene opens
// on its first step, where the picture is needed, folded when it opens on a later one. On the
// path's first step, what attention is for comes first (purpose.js): its picture is the
// classroom's analogy, which the wide screen then does not write again.
import { el } from "../views.js";
import { sceneLink } from "./scene-list.js";
import { purpose } from "./purpose.js";

function about(ctx, analogy = true) {
  const { msg, scene } = ctx;
  const source = scene.source && msg.sources[scene.source];
  return [
    analogy && el("p", { class: "analogy", text: msg.scenes[scene.id].analogy }),
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
}

export function intro(ctx) {
  const { msg, scene, state } = ctx;
  const words = msg.scenes[scene.id];
  const edited = Object.keys(state.edits).length > 0;
  const forWhat = purpose(ctx);
  return el(
    "section",
    { class: "intro", "aria-labelledby": "scene-title" },
    forWhat,
    el("h2", { id: "scene-title", tabindex: -1, text: words.title }),
    el("div", { class: "about-wide" }, about(ctx, !forWhat)),
    edited
      ? el("p", { class: "note edited", text: msg.ui.edited })
      : words.note && el("p", { class: "note", text: words.note }),
  );
}

/** The phone's "About this scene", below the step; hidden on a wide screen. */
export function aboutBelow(ctx) {
  return el(
    "details",
    { class: "about", open: ctx.state.step === 0 },
    el("summary", { text: ctx.msg.ui.about }),
    about(ctx),
  );
}
