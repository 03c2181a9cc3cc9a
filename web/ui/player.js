// ui/player.js: restart, back, play or pause, forward, the step scrubber, the speed and the
// step counter. Every button goes through the playback (web/playback.js).
import { el } from "../views.js";
import { choice } from "./controls.js";
import { speeds, hasInputs } from "../state.js";
import { nextInPath } from "./scene-list.js";

// → on the last step: the next scene of the path, where there is one (named in its label, as
// the link at the foot of the step names it); else nothing to go to, and it says so
// (aria-disabled keeps it focusable, so that the focus stays where the learner pressed).
function forward(ctx, button) {
  const { msg, state, steps, playback, update } = ctx;
  if (state.step < steps.length - 1)
    return button("forward", msg.ui.forward, () => playback.go(state.step + 1), { text: "→" });
  const next = nextInPath(ctx);
  if (!next)
    return button("forward", msg.ui.lastStep, () => {}, { text: "→", "aria-disabled": "true" });
  const name = `${msg.ui.nextUp(next.lesson)}${msg.scenes[next.id].name}`;
  return button(
    "forward",
    name,
    () => update({ scene: next.id }, { announce: true, arrive: true }),
    { text: "→", "data-next-scene": next.id },
  );
}

export function player(ctx) {
  const { msg, state, steps, playback } = ctx;
  const button = (id, text, onclick, extra = {}) =>
    el("button", { type: "button", id, "aria-label": text, title: text, onclick, ...extra });
  return el(
    "section",
    { class: "player", id: "player", "aria-label": msg.ui.scrubber },
    // On a slide the step's title sits here, in the player's row (its heading stays for
    // screen readers).
    ctx.host.compact &&
      el("span", {
        class: "slide-title",
        "aria-hidden": "true",
        text: `${state.step + 1}. ${msg.steps[steps[state.step].id].title}`,
      }),
    button("restart", msg.ui.restart, () => playback.go(0), { text: "↺" }),
    button("back", msg.ui.back, () => playback.go(state.step - 1), { text: "←" }),
    button("play", state.playing ? msg.ui.pause : msg.ui.play, () => playback.set(!state.playing), {
      text: state.playing ? "❚❚" : "▶",
      "aria-pressed": String(state.playing),
    }),
    forward(ctx, button),
    // A scene without inputs (the scale lab's timings) has no numbers to predict, unless its
    // lab asks a question (the learn labs' descents).
    // A slide has no "check my numbers" to answer in: no predict mode there.
    !ctx.host.compact &&
      (hasInputs(ctx.scene) || !!ctx.lab.question) &&
      !state.hide.includes("predict") &&
      el("button", {
        type: "button",
        id: "predict",
        class: "mode",
        "aria-pressed": String(state.predict),
        text: msg.ui.predict,
        onclick: () => ctx.update({ predict: !state.predict }),
      }),
    el(
      "label",
      { class: "scrubber" },
      el("span", { class: "visually-hidden", text: msg.ui.scrubber }),
      el("input", {
        type: "range",
        id: "scrubber",
        min: 1,
        max: steps.length,
        value: state.step + 1,
        "aria-valuetext": `${msg.ui.stepOf(state.step + 1, steps.length)}: ${msg.steps[steps[state.step].id].title}`,
        oninput: (e) => playback.go(Number(e.target.value) - 1),
      }),
    ),
    choice(ctx, "speed", msg.ui.speed, speeds, (x) => `${x}×`),
    el("p", {
      class: "counter",
      id: "counter",
      text: msg.ui.stepOf(state.step + 1, steps.length),
    }),
    !ctx.host.compact && el("p", { class: "hint keys", text: msg.ui.keyboard }),
  );
}
