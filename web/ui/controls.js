// ui/controls.js: the scene's own controls (declared by its lab's params()), Reset, random
// values from a seed, and the decimals shown.
import { el } from "../views.js";
import { random } from "../random.js";
import { digitChoices, hasInputs, paramsOf } from "../state.js";

// A text field's change comes when the learner leaves it: often by pressing something else (a
// head to look at, on a phone). Taken at once, the page is drawn again under that press and its
// click is lost; so a change waits until the click that may follow has been dispatched (a
// mouse's comes when its button is up; a tap's right after the change).
let pressing = false;
if (typeof document === "object" && document.addEventListener) {
  document.addEventListener("pointerdown", () => (pressing = true), true);
  document.addEventListener("pointerup", () => (pressing = false), true);
  document.addEventListener("pointercancel", () => (pressing = false), true);
}
const afterPress = (apply) => {
  // a tap's mousedown, mouseup and click come in one go, after its pointerup: after this task
  if (!pressing) return setTimeout(apply, 0);
  let done = false;
  const once = () => {
    if (!done) ((done = true), apply());
  };
  // after the click's own handlers, or, when the press makes no click, soon after it ends
  document.addEventListener("click", () => setTimeout(once, 0), { once: true, capture: true });
  document.addEventListener("pointerup", () => setTimeout(once, 300), {
    once: true,
    capture: true,
  });
};

/** A labelled <select> bound to state[key]. */
export function choice({ state, update }, key, text, values, show) {
  const onchange = (e) => update({ [key]: Number(e.target.value) });
  const options = values.map((x) =>
    el("option", { value: x, selected: x === state[key], text: show(x) }),
  );
  return el(
    "label",
    { class: key },
    el("span", { class: "label-text", text }),
    el("select", { id: key, onchange }, options),
  );
}

// A range or a toggle for one parameter of the scene.
function paramControl({ msg, state, update }, param) {
  if (param.kind === "toggle") {
    return el(
      "label",
      { class: "toggle" },
      el("input", {
        type: "checkbox",
        id: param.id,
        checked: state[param.id],
        onchange: (e) => update({ [param.id]: e.target.checked }),
      }),
      msg.ui[param.id],
    );
  }
  if (param.kind === "text") {
    // the text is taken when the learner is done with it (Enter, or leaving the field), and
    // the hint under it says so, marked while what is typed is not yet read
    const hint = el("span", { class: "hint", id: `${param.id}-how`, text: msg.ui.textHow });
    return el(
      "label",
      { class: `text-param ${param.id}` },
      el("span", { class: "label-text", text: msg.ui[param.id] }),
      el("input", {
        type: "text",
        id: param.id,
        value: state[param.id],
        maxLength: param.maxLength,
        lang: param.lang,
        autocomplete: "off",
        "aria-describedby": hint.id,
        oninput: (e) => hint.toggleAttribute("data-unread", e.target.value !== state[param.id]),
        onchange: (e) => {
          const value = e.target.value.slice(0, param.maxLength);
          afterPress(() => update({ [param.id]: value }));
        },
      }),
      hint,
    );
  }
  // a range may stop short of its max where the state says so (a lab's step shown, say)
  // (a range of `values` may give no max: its values are its bounds)
  const top = param.max ?? Infinity;
  const max = param.limit ? Math.min(top, param.limit(state)) : top;
  const value = Math.min(state[param.id], max);
  // a range of given values (the √d_k lab's 1, 2, 4 … 512) slides over their places
  const { values } = param;
  const slider = values
    ? { min: 0, max: values.length - 1, step: 1, value: values.indexOf(value) }
    : { min: param.min, max, step: param.step, value };
  return el(
    "label",
    { class: param.id },
    msg.ui[param.id],
    el("input", {
      type: "range",
      id: param.id,
      ...slider,
      "aria-valuetext": values && `${param.symbol} = ${value}`,
      // the step's words follow the slider, and so does what a screen reader hears
      oninput: (e) =>
        update(
          { [param.id]: values ? values[Number(e.target.value)] : Number(e.target.value) },
          { announce: true },
        ),
    }),
    el("output", { for: param.id, text: `${param.symbol} = ${value}` }),
  );
}

// Random inputs of the same shapes, one decimal each so they can be worked by hand.
function randomInputs(scene, editable, seed) {
  const next = random(seed);
  const edits = {};
  for (const id of Object.keys(scene.inputs)) {
    edits[id] = editable[id].map((row) => row.map(() => Math.round(next() * 40 - 20) / 10));
  }
  return edits;
}

// Whether every input of `a` equals the same input of `b`.
const sameInputs = (a, b) =>
  Object.entries(a).every(([id, m]) => JSON.stringify(m) === JSON.stringify(b[id]));

/** The scene's own controls (the age scene's α, the book's causal mask), or nothing. */
export function paramControls(ctx) {
  // a parameter that matters on some steps only (`onSteps`) shows on those
  const params = paramsOf(ctx.scene).filter(
    (p) =>
      (p.kind !== "toggle" || p.control) &&
      !p.hidden &&
      (!p.onSteps || p.onSteps.includes(ctx.stepId)),
  );
  return params.length
    ? el(
        "div",
        { class: "scene-controls params" },
        params.map((p) => paramControl(ctx, p)),
      )
    : undefined;
}

/**
 * Reset, random values from a set number (for a scene with inputs, unless a class link hides
 * editing), the decimals shown, and the two prints: the worksheet and its answer key.
 */
export function sceneControls(ctx) {
  const { scene, msg, state, editable, update } = ctx;
  // a lab with nothing to edit changes only how its numbers are shown
  const edits = hasInputs(scene) && !state.hide.includes("edit");
  const title = edits ? msg.ui.tools : msg.ui.shownTools;
  const seedInput = el("input", {
    type: "number",
    id: "seed",
    min: 0,
    value: state.seed,
    inputmode: "numeric",
  });
  // Random values from the set number in the field; when that set is already on screen, the
  // next one. The field is read on the click, so that typing a number and clicking Random at
  // once draws that set (a change event would redraw the page under the click).
  const randomize = () => {
    let seed = Math.max(0, Math.round(Number(seedInput.value) || 0));
    if (sameInputs(randomInputs(scene, editable, seed), editable)) seed += 1;
    update({ edits: randomInputs(scene, editable, seed), seed });
  };
  return el(
    "section",
    { class: "scene-controls tools", "aria-labelledby": "tools-title" },
    el("h3", { id: "tools-title", text: title }),
    edits && [
      el("button", {
        type: "button",
        id: "reset",
        text: msg.ui.reset,
        onclick: () =>
          update({ edits: Object.fromEntries(Object.keys(scene.inputs).map((id) => [id, null])) }),
      }),
      el("button", {
        type: "button",
        id: "random",
        text: msg.ui.random,
        onclick: randomize,
      }),
      el("label", { class: "seed" }, msg.ui.seed, seedInput),
    ],
    choice(ctx, "digits", msg.ui.digits, digitChoices, String),
    ctx.host.page &&
      el("button", { type: "button", id: "print", text: msg.print.button, onclick: () => print() }),
    ctx.host.page &&
      !state.hide.includes("key") &&
      el("button", {
        type: "button",
        id: "print-key",
        text: msg.print.keyButton,
        onclick: () => ctx.printKey(),
      }),
  );
}
