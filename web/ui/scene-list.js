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
      update({ scene: id }, { announce: true, arrive: true });
    },
  });
}

/**
 * Each sideways row that holds the page's current place, scrolled so that it is in view: the
 * scene in the scene list (a phone's one row), and whatever a step marks as its own current one
 * (data-current, as the online softmax's block).
 */
export function showCurrent(root) {
  for (const current of root.querySelectorAll('nav [aria-current="page"], [data-current]')) {
    const row = current.closest(".scroll");
    if (!row || row.scrollWidth <= row.clientWidth) continue;
    const [box, item] = [row.getBoundingClientRect(), current.getBoundingClientRect()];
    row.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
  }
}

const sceneButton = ({ state, update }, s) =>
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
  );

/**
 * The curriculum's groups of the scenes shown, in order: [{ lesson, scenes }]. A lesson is
 * { id, scenes: [{ id }] } (web/catalogue.js); scenes in no lesson (custom ones) come last, in a
 * group without a lesson.
 */
export function groupsOf(scenes, lessons = []) {
  const shown = new Map(scenes.map((s) => [s.id, s]));
  const groups = lessons
    .map((lesson) => ({
      lesson,
      scenes: lesson.scenes.map((s) => shown.get(s.id)).filter(Boolean),
    }))
    .filter((g) => g.scenes.length > 0);
  const placed = new Set(groups.flatMap((g) => g.scenes));
  const rest = scenes.filter((s) => !placed.has(s));
  return rest.length ? [...groups, { lesson: null, scenes: rest }] : groups;
}

/**
 * The scene list. With lessons, it is the curriculum: each lesson numbered and named, its
 * scenes after it, in the order a learner takes them. On a phone it is one row that scrolls
 * sideways, the lessons' names inside it.
 */
export function sceneList(ctx) {
  const { msg, scenes, lessons } = ctx;
  const groups = groupsOf(scenes, lessons);
  if (groups.length === 1 && !groups[0].lesson)
    return el(
      "nav",
      { "aria-label": msg.ui.scenes },
      el(
        "ul",
        { class: "scroll", "data-no-hint": "" },
        scenes.map((s) => sceneButton(ctx, s)),
      ),
    );
  return el(
    "nav",
    { "aria-label": msg.ui.path, class: "path" },
    el(
      "ol",
      { class: "scroll lessons", "data-no-hint": "" },
      groups.map(({ lesson, scenes: inLesson }, k) =>
        el(
          "li",
          { class: "lesson", "data-lesson": lesson?.id },
          lesson &&
            el("span", {
              class: "lesson-name",
              id: `lesson-${lesson.id}`,
              text: msg.ui.lesson(k + 1, msg.ui.lessons[lesson.id]),
            }),
          el(
            "ul",
            lesson ? { "aria-labelledby": `lesson-${lesson.id}` } : {},
            inLesson.map((s) => sceneButton(ctx, s)),
          ),
        ),
      ),
    ),
  );
}

/**
 * The scene after this one in the curriculum: { id, lesson } (lesson: its lesson's number and
 * name when it starts a new one, else false); null after the last scene; undefined without
 * lessons or for a scene in none.
 */
export function nextInPath({ msg, scene, scenes, lessons }) {
  if (!lessons) return undefined;
  const groups = groupsOf(scenes, lessons).filter((g) => g.lesson);
  const order = groups.flatMap((g, k) => g.scenes.map((s) => ({ s, k })));
  const at = order.findIndex((o) => o.s.id === scene.id);
  if (at < 0) return undefined;
  const next = order[at + 1];
  if (!next) return null;
  const lesson =
    next.k !== order[at].k && msg.ui.lesson(next.k + 1, msg.ui.lessons[groups[next.k].lesson.id]);
  return { id: next.s.id, lesson };
}

/**
 * What comes after this scene in the curriculum, on its last step: a link that opens it, with
 * its lesson's name when it starts a new one. Nothing after the last scene, or without lessons.
 */
export function nextUp(ctx) {
  const { msg, state, steps } = ctx;
  if (state.step !== steps.length - 1) return undefined;
  const next = nextInPath(ctx);
  if (next === undefined) return undefined;
  if (!next) return el("p", { class: "next-up", text: msg.ui.pathEnd });
  return el("p", { class: "next-up" }, msg.ui.nextUp(next.lesson), sceneLink(ctx, next.id));
}
