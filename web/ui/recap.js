// ui/recap.js: the end of the path, after the last lesson's last step: what the learner can
// now compute by hand, how it sits inside the models they use (the Tang model's sizes beside a
// real model's, as the last lab's trace gives them: `recap`, the core's counts), and where to go
// next; the path's own last line (scene-list.js) says to take any scene
// again. Nothing shows before that step or without lessons.
import { el } from "../views.js";

/** The recap, on the last step of the path's last scene; undefined anywhere else. */
export function recap(ctx) {
  const { msg, scene, lessons, state, steps, trace } = ctx;
  const last = lessons?.at(-1)?.scenes.at(-1)?.id;
  if (!last || scene.id !== last || state.step !== steps.length - 1) return undefined;
  const words = msg.recap;
  const sizes = trace?.recap;
  return el(
    "section",
    { class: "recap", "aria-labelledby": "recap-title" },
    el("h3", { id: "recap-title", text: words.title }),
    el("h4", { text: words.canTitle }),
    el(
      "ul",
      {},
      words.can.map((item) => el("li", { text: item })),
    ),
    el("h4", { text: words.fullTitle }),
    sizes && el("p", { id: "recap-small", text: words.small(sizes) }),
    el("p", { text: words.full }),
    el("h4", { text: words.nextTitle }),
    el(
      "ul",
      {},
      words.next.map(({ text, href, link }) =>
        el("li", {}, text, href && [" ", el("a", { href, text: link })]),
      ),
    ),
  );
}
