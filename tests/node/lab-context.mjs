// lab-context.mjs: a lab's numbers at a state, through the real core, and the context each of
// its steps is drawn from in a language: what the page hands a lab's view, text and panels.
// Only the tests use it.
import { wordsFor } from "../../web/words.js";
import { initialState } from "../../web/state.js";

/**
 * { state, inputs, trace, steps, at(lang, stepId), each() } for `scene` at the state `partial`:
 * at() is the context the page hands a step's view, text and panels (its view drawn), each()
 * every step's in both languages.
 */
export function labAt(core, scene, partial = {}) {
  const lab = scene.lab;
  const state = initialState([scene], { scene: scene.id, lang: "en", ...partial });
  const { inputs, trace } = lab.compute(core, scene, state);
  const steps = lab.steps(scene, state);
  const at = (lang, stepId) => {
    const msg = wordsFor(lang, scene);
    const step = steps.find((s) => s.id === stepId);
    const ctx = {
      scene,
      lab,
      state: { ...state, lang },
      msg,
      trace,
      inputs,
      labels: lab.labels?.(scene, msg, trace, inputs) ?? {},
      steps,
      step,
      stepId,
      focus: null,
      editable: { ...scene.inputs, ...state.edits },
    };
    ctx.view = lab.view(stepId, ctx);
    return ctx;
  };
  const each = () => ["en", "zh"].flatMap((lang) => steps.map((step) => at(lang, step.id)));
  return { state, inputs, trace, steps, at, each };
}
