// catalogue.js: the curriculum. Every scene and lab in the order a learner takes them, grouped
// in lessons; each lesson's labs live in web/labs/<lesson>/. A lab is lazy,
// { id, lazy: () => import(…) }: its code, and the labs module of the core, load only when it
// opens (lab.js resolves it). The walkthroughs are data (scenes.js) and load with the page.
import { scenes as walkthroughs } from "./scenes.js";

export const lessons = [
  { id: "walkthroughs", scenes: walkthroughs },
  {
    id: "inside",
    scenes: [
      { id: "heads", lazy: () => import("./labs/inside/heads.js") },
      { id: "gqa", lazy: () => import("./labs/inside/gqa.js") },
      { id: "kvcache", lazy: () => import("./labs/inside/kvcache.js") },
      { id: "order", lazy: () => import("./labs/inside/order.js") },
    ],
  },
  {
    id: "why",
    scenes: [
      { id: "scaling", lazy: () => import("./labs/why/scaling.js") },
      { id: "tiling", lazy: () => import("./labs/why/tiling.js") },
      { id: "stability", lazy: () => import("./labs/why/stability.js") },
      { id: "dropout", lazy: () => import("./labs/why/dropout.js") },
      { id: "scale", lazy: () => import("./labs/why/scale.js") },
    ],
  },
  {
    id: "learn",
    scenes: [
      { id: "sharpness", lazy: () => import("./labs/learn/sharpness.js") },
      { id: "teach", lazy: () => import("./labs/learn/teach.js") },
    ],
  },
  {
    id: "gpt",
    scenes: [
      { id: "induction", lazy: () => import("./labs/gpt/induction.js") },
      { id: "model", lazy: () => import("./labs/gpt/gpt.js") },
      { id: "text", lazy: () => import("./labs/gpt/text.js") },
    ],
  },
  {
    id: "real",
    scenes: [
      { id: "tokens", lazy: () => import("./labs/real/tokens.js") },
      { id: "bpe", lazy: () => import("./labs/real/bpe.js") },
      { id: "sizes", lazy: () => import("./labs/real/sizes.js") },
    ],
  },
];

/** Every scene and lab, in the curriculum's order. */
export const scenes = lessons.flatMap((lesson) => lesson.scenes);

/** The lesson a scene or lab belongs to, by scene id. */
export const lessonOf = Object.fromEntries(
  lessons.flatMap((lesson) => lesson.scenes.map((s) => [s.id, lesson.id])),
);
