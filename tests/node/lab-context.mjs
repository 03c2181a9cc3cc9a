// lab-context.mjs: a lab's numbers at a state, through the real core, and the context each of
// its steps is drawn from in a language: what the page hands a lab's view, text and panels.
// Only the tests use it.
import { wordsFor } from "../../web/words.js";
import { initialState } from "../../web/state.js";

/** { state, inputs, trace, at(lang, stepId) } for `scene` at the state `partial`. */
export function labAt(core, scene, partial = {}) {
  const state = initialState([scene], { scene: scene.id, lang: "en", ...partial });
  const { inputs, trace } = scene.lab.compute(core, scene, state);
  const at = (lang, stepId) => {
    const msg = wordsFor(lang, scene);
    const ctx = {
      scene,
      lab: scene.lab,
      state: { ...state, lang },
      msg,
      trace,
      inputs,
      labels: scene.lab.labels?.(scene, msg, trace, inputs) ?? {},
      step: scene.lab.steps(scene, state).find((s) => s.id === stepId),
      stepId,
      focus: null,
      editable: { ...scene.inputs, ...state.edits },
    };
    ctx.view = scene.lab.view(stepId, ctx);
    return ctx;
  };
  return { state, inputs, trace, at };
}
