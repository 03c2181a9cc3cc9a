// ui/purpose.js: what attention is for, said before the first matrix: a few sentences and one
// picture, the classroom analogy (you, with the person you look for in mind, look over every
// student's name tag and take in more of what the better matches say). It shows on the path's
// first scene at its first step, on the page, with a link to the scene that shows it in numbers
// (苹果 in two sentences). The picture is words and lines, with no number in it: the numbers
// start at the first matrix, and the core computes every one of them.
import { el, svg } from "../views.js";
import { sceneLink } from "./scene-list.js";

// The three students, from the top: how thick the line to each is drawn (the middle one's tag
// matches best). Drawing only: the classroom's own weights are the core's, in the steps below.
const students = [
  { y: 40, width: 2 },
  { y: 86, width: 8 },
  { y: 132, width: 3 },
];

function picture(words) {
  const you = { x: 44, y: 96 };
  const tagX = 196;
  const figure = svg("svg", {
    viewBox: "0 0 376 160",
    class: "purpose-picture",
    role: "img",
    "aria-label": words.picture,
  });
  figure.append(
    svg("rect", { x: 2, y: 24, width: 150, height: 26, rx: 6, class: "query-bubble" }),
    svg("text", { x: 10, y: 42, class: "query-text", text: `Q ${words.query}` }),
    svg("circle", { cx: you.x, cy: you.y, r: 22, class: "person you" }),
    svg("text", { x: you.x, y: you.y + 5, class: "person-name", text: words.you }),
    svg("text", { x: tagX + 38, y: 14, class: "head key-text end", text: `K ${words.key}` }),
    svg("text", { x: 266, y: 14, class: "head value-text start", text: `V ${words.value}` }),
  );
  for (const s of students) {
    figure.append(
      svg("line", {
        x1: you.x + 22,
        y1: you.y,
        x2: tagX,
        y2: s.y,
        "stroke-width": s.width,
        class: "match",
      }),
      svg("rect", { x: tagX, y: s.y - 10, width: 38, height: 20, rx: 3, class: "key-tag" }),
      svg("text", { x: tagX + 19, y: s.y + 5, class: "tag-text", text: "K" }),
      svg("circle", { cx: 250, cy: s.y, r: 12, class: "person" }),
      svg("rect", { x: 270, y: s.y - 10, width: 60, height: 20, rx: 8, class: "value-bubble" }),
      svg("text", { x: 300, y: s.y + 5, class: "tag-text", text: "V" }),
    );
  }
  return figure;
}

/** What attention is for, with its picture; undefined where it does not show. */
export function purpose(ctx) {
  const { msg, scene, state, lessons, host } = ctx;
  const first = lessons?.[0]?.scenes[0]?.id;
  if (!host?.page || scene.id !== first || state.step !== 0) return undefined;
  const words = msg.purpose;
  return el(
    "div",
    { class: "purpose", role: "group", "aria-labelledby": "purpose-title" },
    el(
      "div",
      { class: "purpose-text" },
      el("h3", { id: "purpose-title", text: words.title }),
      words.text.map((text) => el("p", { text })),
      // the scene that shows it in numbers, where the page offers it
      ctx.scenes?.some((s) => s.id === "apple") &&
        el("p", {}, words.next[0], sceneLink(ctx, "apple"), words.next[1]),
    ),
    el(
      "figure",
      { class: "purpose-figure" },
      picture(words),
      el("figcaption", { text: words.caption }),
    ),
  );
}
