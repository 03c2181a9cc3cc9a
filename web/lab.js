// lab.js: what a scene runs on. A scene is data (its inputs and words); a lab is the diagram
// around it: its parameters, its algorithm (calls into the core, through web/attention.js
// only), its steps, and the panels each step shows. The walkthrough knows nothing else about
// a scene, so a new lab is new files: a lab module, its panels, its words and its scenes.
//
// A lab is an object:
//   id                                   a name
//   core?                                "labs": compute gets the labs module (loadLabs),
//                                          which loads when the lab first opens
//   compute(core, scene, state)          → { inputs, trace }: the core's numbers for these
//                                          inputs; throws the core's Error when it refuses them
//   steps(scene, state)                  → [{ id, panels: [panel id…], inStep?: [panel id…],
//                                          lead?: [panel id…] }]: the steps in order; `panels`
//                                          are drawn beside the step, `inStep` inside it, after
//                                          its matrices, `lead` inside it, before them (the
//                                          picture of what the step does)
//   view(stepId, ctx)                    → { matrices, focusMatrix }: pure, see steps.js
//   params(scene)?                       → [{ id, kind: "range" | "toggle" | "text",
//                                          initial, min?, max?, step?, values?, symbol?,
//                                          control?, hidden?, maxLength?, onSteps? }]: the
//                                          scene's own controls (on the steps `onSteps` lists,
//                                          if given; none for a `hidden` one, which a panel
//                                          of the lab sets);
//                                          each is a state key and a URL parameter (a range of
//                                          `values` slides over those)
//   load(core)?                          → a promise: what the lab needs before it opens (the
//                                          model lab's weights), after its code and the labs
//                                          module have loaded
//   settled()?                           → a promise: what the lab goes on loading after it
//                                          opens (the tokens lab's larger vocabularies), for
//                                          the tests and the bench to wait for
//   labels(scene, msg, trace, inputs)?   → names for rows and columns
//   text(stepId, ctx)?                   → the step's words when msg.steps[id].text won't do
//   highlights(mid, i, j, ctx)?          → what lights up when a cell is picked
//   derivation(mid, i, j, ctx)?          → { lines: [{ text }], extra, approx }: the written-out
//                                          arithmetic of a cell, holding as shown
//   worked(mid, i, j, ctx)?              → [numbers]: what a learner gets working the cell out
//                                          from the numbers as the tables show them; "check my
//                                          numbers" takes each, rounded or cut off, as right
//   question(stepId, ctx)?               → { text, options, answer: [index…] }: predict mode's
//                                          question with choices for a step
//   focusRow(scene, state)?              → the query row the scene points at
//   linkedShapes?                        → input id → { rows, cols }: inputs that grow together
//   panels?                              → panel id → (ctx) => Node | undefined
//   words?                               → { zh, en }: its own strings, merged over i18n/*.js
//   styles?                              → [path…]: its stylesheets, from the page: kit.js's
//                                          (kitStyles) and its lesson's ("labs/<lesson>/
//                                          style.css"), loaded before it first draws
//   script(kind, ctx)?                   → the scene as a Python script, kind "numpy" or
//                                          "pytorch" (web/export.js): "Copy as NumPy" and
//                                          "Copy as PyTorch" show for labs that have it
//   scriptKinds?                         → the kinds it writes, when not both
//   sheet(ctx, link)?                    → a promise of the scene as a book of live formulas
//                                          (web/sheet.js's book), opened on the step shown;
//                                          `link` is the page's address for this state:
//                                          "Download as a spreadsheet" shows for labs that
//                                          have it (import its module lazily)
//
// ctx, handed to everything that draws: { scene, lab, state, msg, steps, step, stepId,
// trace, inputs, editable, labels, view, focus, focusRow, predicting, host, core, update }
// (`core` for a lab that calls it from a panel, as the scale lab times it).
// `update(change)` is the only way to change the state; `predicting` says the step's results
// are hidden until the learner answers.
//
// A scene in a list may be lazy, { id, lazy: () => import("./labs/<lesson>/x.js") }, where the module's
// default export is its scenes (each with its lab): the lab's code and the labs module then
// load only when the scene opens. Its name for the scene list is in i18n (scenes.<id>.name).
// The list itself is web/catalogue.js.
import attention from "./labs/walkthroughs/attention.js";
import { loadLabs } from "./attention.js";

/** A scene's lab: the five scenes and custom JSON scenes run on the attention lab. */
export function labOf(scene) {
  return scene.lab ?? attention;
}

let labsCore; // the labs module, once a lab that needs it has opened

/** The full scene for a list entry, with whatever its lab needs loaded: lazy entries import
 * their lab's module (once; the browser keeps it), and its stylesheets. */
export async function resolveScene(entry) {
  const scene = entry.lazy ? (await entry.lazy()).default.find((s) => s.id === entry.id) : entry;
  if (!scene) throw new Error(`the module for the scene "${entry.id}" does not define it`);
  await linkStyles(labOf(scene).styles ?? []);
  if (labOf(scene).core === "labs") labsCore ??= await loadLabs();
  await labOf(scene).load?.(labsCore);
  return scene;
}

const linked = new Map(); // a stylesheet's URL → the promise of its loading

// Stylesheets (paths from the page, as the labs' files are) linked into the page's head, once
// each; the promise settles when they have loaded, so that a lab never draws unstyled. Where
// there is no page (Node, or the tests' text-only document), nothing.
function linkStyles(paths) {
  if (typeof document !== "object" || !document.baseURI) return Promise.resolve();
  return Promise.all(
    paths.map((path) => {
      const href = new URL(path, document.baseURI).href;
      if (!linked.has(href)) {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = href;
        const loaded = new Promise((resolve, reject) => {
          link.onload = resolve;
          link.onerror = () => reject(new Error(`the stylesheet ${path} did not load`));
        });
        // a stylesheet that failed may be tried again, when the lab is opened again
        linked.set(
          href,
          loaded.catch((error) => (linked.delete(href), Promise.reject(error))),
        );
        document.head.append(link);
      }
      return linked.get(href);
    }),
  );
}

/** The core that a lab computes with: the labs module, or the one the page loaded first. */
export function coreFor(lab, core) {
  return lab.core === "labs" ? labsCore : core;
}
