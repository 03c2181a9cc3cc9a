// walkthrough.js: one walkthrough, rendered into any container: the page's #app or a custom
// element's shadow root. The flow is one-way: scene → its lab's core call → trace → steps →
// views. The state is one small object (web/state.js) and update() is the only way it
// changes: update merges a change, recomputes through the lab when the inputs changed (keeping
// the last good numbers when the core refuses), then redraws. The parts of the page are
// modules in web/ui/; what a scene shows comes from its lab (web/lab.js).
import { coreFor, labOf, resolveScene } from "./lab.js";
import { wordsFor } from "./words.js";
import { createPlayback } from "./playback.js";
import { initialState, messages, paramsOf, sceneDefaults, withEdits } from "./state.js";
import { el } from "./views.js";
import { header } from "./ui/header.js";
import { sceneList } from "./ui/scene-list.js";
import { intro } from "./ui/intro.js";
import { sceneControls, paramControls } from "./ui/controls.js";
import { markScrollers } from "./ui/scroll-cue.js";
import { worksheet } from "./ui/worksheet.js";
import { player } from "./ui/player.js";
import { stepPanel } from "./ui/step-panel.js";
import { checkPanelFor } from "./ui/check-panel.js";
import { exportPanel } from "./ui/export-panel.js";

export { messages, defaultLang, stateFromParams, paramsFromState } from "./state.js";

/**
 * Renders a walkthrough into `root` and returns its controller.
 * options: core (from loadAttention), scenes (those it may show; the initial one resolved, see
 * resolveScene in lab.js), state (initial, partial),
 * page (the full page: it sets the document's title and language), nav (the title, the
 * language switch and the scene list; always on a page), controls (the player, the input
 * tools and "check my numbers"; always on a page), keyTarget (where keys are heard),
 * onChange(state, stepChanged) after every render.
 */
export function createWalkthrough(root, options) {
  const { core, scenes, page = false, keyTarget = root, onChange } = options;
  const host = { page, nav: page || !!options.nav, controls: page || !!options.controls };
  const byId = Object.fromEntries(scenes.map((s) => [s.id, s]));
  let state;
  let good; // the last good { inputs, trace } for the current scene and edits
  let focusAfter = null; // a cell { m, i, j } to focus after the next render
  const drafts = {}; // what the learner typed in "check my numbers", by scene and step
  let lastStep;
  // A scene's numbers from its lab, through the core that the lab computes with.
  const compute = (scene, s) => labOf(scene).compute(coreFor(labOf(scene), core), scene, s);

  const stepsOf = (s) => labOf(byId[s.scene]).steps(byId[s.scene], s);
  // The query row a scene points at in this state (the book's 书, or 读 under the mask).
  const focusRowOf = (s) => {
    const scene = byId[s.scene];
    return labOf(scene).focusRow?.(scene, s) ?? scene.focusRow ?? 0;
  };

  // Everything a part of the page needs to draw the state `s`.
  function derive(s) {
    const scene = byId[s.scene];
    const lab = labOf(scene);
    const msg = wordsFor(s.lang, scene);
    const steps = stepsOf(s);
    const step = steps[s.step];
    const ctx = {
      scene,
      lab,
      state: s,
      msg,
      steps,
      step,
      stepId: step.id,
      trace: good.trace,
      inputs: good.inputs,
      editable: { ...scene.inputs, ...s.edits },
      focus: s.focus,
      focusRow: focusRowOf(s),
      host,
      core: coreFor(lab, core),
      scenes,
      root,
      update,
      playback,
      refocus: (cell) => (focusAfter = cell),
      panel: (id) => lab.panels?.[id]?.(ctx),
    };
    ctx.labels = lab.labels?.(scene, msg, good.trace, good.inputs) ?? {};
    ctx.view = lab.view(step.id, ctx);
    // Predict mode hides a step's results until the learner has answered; the results of an
    // earlier step not yet answered (since predict mode was turned on) stay hidden where a
    // later step shows them too.
    const unanswered = (k) => !s.revealed[`${s.scene}:${steps[k].id}`];
    ctx.predicting = host.controls && s.predict && !!ctx.view.focusMatrix && unanswered(s.step);
    ctx.concealed = new Set();
    for (let k = s.predictFrom ?? 0; host.controls && s.predict && k < s.step; k++) {
      if (!unanswered(k)) continue;
      const earlier = lab.view(steps[k].id, { ...ctx, step: steps[k], stepId: steps[k].id });
      if (!earlier.focusMatrix) continue;
      for (const m of earlier.matrices) {
        if (m.role === "result" || m.role === "aux") ctx.concealed.add(m.id);
      }
    }
    return ctx;
  }

  // The picked cell, if it is on this step; else the first cell of the step's focus matrix,
  // in the scene's row of interest.
  function withFocus(s) {
    const { view } = derive(s);
    const on = (m, f) => f && f.i < m.data.length && f.j < m.data[0].length;
    const picked = s.focus && view.matrices.find((m) => m.id === s.focus.m);
    if (picked && on(picked, s.focus)) return s;
    const m = view.matrices.find((x) => x.id === view.focusMatrix);
    const row = Math.min(focusRowOf(s), (m?.data.length ?? 1) - 1);
    return { ...s, focus: m ? { m: m.id, i: row, j: 0 } : null };
  }

  const clampStep = (s) => ({
    ...s,
    step: Math.min(Math.max(0, s.step), stepsOf(s).length - 1),
  });

  /**
   * The one way the state changes. `change` is merged into the state: `edits` entries replace
   * (null removes) single inputs; `scene` starts that scene afresh. When the inputs change, the
   * lab recomputes them through the core; if the core refuses, the state stays as it was and
   * says why. Then everything is drawn again; `announce` reads the step out.
   */
  function update(change, { announce = false } = {}) {
    // A lazy scene (a lab) loads its code first, then opens; if it cannot load, the page says
    // why and stays where it is.
    if (byId[change.scene]?.lazy) {
      const entry = byId[change.scene];
      resolveScene(entry).then(
        (scene) => {
          if (byId[entry.id] === entry) byId[entry.id] = scene;
          update(change, { announce });
        },
        (error) => update({ notice: { core: error.message } }),
      );
      return;
    }
    const before = state;
    let next = { ...before, ...change };
    if (change.edits) next.edits = withEdits(before.edits, change.edits, byId[next.scene]);
    const switching = change.scene !== undefined;
    if (switching) {
      playback.stop();
      for (const p of paramsOf(byId[before.scene])) next[p.id] = undefined;
      const fresh = { step: 0, edits: {}, focus: null, notice: null, playing: false, revealed: {} };
      next = { ...next, ...fresh, reveal: Infinity, ...sceneDefaults(byId[change.scene]) };
    }
    // Predict mode counts from the step where it was turned on: earlier steps stay as given.
    if (next.predict && (!before.predict || switching)) next.predictFrom = next.step;
    const scene = byId[next.scene];
    const params = paramsOf(scene).map((p) => p.id);
    const paramChanged = params.some((id) => id in change && change[id] !== before[id]);
    // A changed parameter changes the diagram: the focus goes back to where the scene points.
    if (paramChanged && !("focus" in change)) next.focus = null;
    if (switching || change.edits || paramChanged) {
      try {
        good = compute(scene, next);
        if (!("notice" in change)) next.notice = null;
        // New numbers are to be predicted again.
        next.revealed = {};
      } catch (error) {
        next = { ...before, notice: { core: error.message } };
      }
      // Stay on the same step when the mask adds or removes one.
      if (!switching) {
        const id = stepsOf(before)[before.step].id;
        const at = stepsOf(next).findIndex((s) => s.id === id);
        if (at >= 0) next.step = at;
      }
    }
    state = withFocus(clampStep(next));
    render({ announce });
  }

  const playback = createPlayback({
    state: () => state,
    update,
    view: (s) => derive(s).view,
    steps: stepsOf,
  });

  function onKey(event) {
    const target = event.target;
    if (target.closest?.("input:not([type=checkbox]), select, textarea")) return;
    const last = stepsOf(state).length - 1;
    const keys = {
      ArrowRight: () => playback.go(state.step + 1),
      ArrowLeft: () => playback.go(state.step - 1),
      Home: () => playback.go(0),
      End: () => playback.go(last),
      " ": () => playback.set(!state.playing),
    };
    if (!keys[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    // Space presses an ordinary button, ticks a box and edits an input cell; elsewhere
    // (the page, a result cell) it plays or pauses.
    const own = "button:not(.cell), a, summary, input, .role-input button.cell";
    if (event.key === " " && (target.closest?.(own) || !host.controls)) return;
    event.preventDefault();
    if (!page) event.stopPropagation(); // in someone else's page, our keys stay ours
    keys[event.key]();
  }

  // Before printing, the page adds the worksheet: every step, with its words.
  function printWorksheet() {
    const contexts = stepsOf(state).map((_, k) => {
      const ctx = derive({ ...state, step: k, focus: null, reveal: Infinity });
      const custom = ctx.scene.text?.[state.lang]?.steps?.[ctx.stepId];
      return {
        ...ctx,
        text: custom ?? ctx.lab.text?.(ctx.stepId, ctx) ?? ctx.msg.steps[ctx.stepId].text,
      };
    });
    content.firstChild.querySelector(":scope > .worksheet")?.remove();
    content.firstChild.append(worksheet(contexts));
  }

  function render({ announce = false } = {}) {
    const ctx = derive(state);
    const { msg, scene, steps, stepId } = ctx;
    if (page) {
      document.documentElement.lang = msg.htmlLang;
      document.title = `${msg.title} · ${msg.scenes[scene.id].name}`;
    }
    const active = root.getRootNode().activeElement;
    const activeCell = active?.closest?.("[data-matrix] button.cell");
    const activeKey = activeCell && {
      m: activeCell.closest("[data-matrix]").dataset.matrix,
      i: activeCell.dataset.i,
      j: activeCell.dataset.j,
    };
    const activeId = active?.id;
    const hadFocus = !!active && content.contains(active);
    // The explanations the learner has open, by their summary, stay open through the redraw.
    const open = new Set(
      [...content.querySelectorAll("details[open] > summary")].map((s) => s.textContent),
    );
    const beside = steps[state.step].panels.map((id) => ctx.panel(id)).filter(Boolean);

    content.replaceChildren(
      el(
        "div",
        { class: page ? "walkthrough page" : "walkthrough", lang: msg.htmlLang },
        host.nav && header(ctx),
        host.nav && scenes.length > 1 && sceneList(ctx),
        // The step comes before everything that is not needed to follow it, so that on a
        // phone it is on the first screen; the player stays in reach (sticky).
        el(
          page ? "main" : "div",
          { id: "main", tabindex: -1 },
          intro(ctx),
          host.controls && player(ctx),
          stepPanel(ctx, host.controls && paramControls(ctx)),
          host.controls && checkPanelFor(ctx, drafts),
          beside.length ? el("section", { class: "views" }, beside) : undefined,
          host.controls && sceneControls(ctx),
          host.controls && exportPanel(ctx),
        ),
      ),
    );
    for (const summary of content.querySelectorAll("details > summary")) {
      if (open.has(summary.textContent)) summary.parentElement.open = true;
    }
    markScrollers(root, msg.ui.scrollHint);
    if (announce) {
      const text = root.querySelector(".step-text").textContent;
      live.textContent = `${msg.ui.stepOf(state.step + 1, steps.length)}: ${msg.steps[stepId].title}. ${text}`;
    }
    const wanted = focusAfter ?? activeKey;
    focusAfter = null;
    if (wanted) {
      const cell = root.querySelector(
        `[data-matrix="${wanted.m}"] button[data-i="${wanted.i}"][data-j="${wanted.j}"]`,
      );
      // A cell that is gone (another step) hands the focus to the step's title.
      (cell ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
    } else if (hadFocus) {
      // A control that is gone (a shape tool of another step), or that has no id, hands the
      // focus to the step's title, so that the keys still reach the walkthrough.
      const again = activeId ? root.querySelector(`#${CSS.escape(activeId)}`) : null;
      (again ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
    }
    const stepChanged = lastStep !== undefined && lastStep !== `${state.scene}:${state.step}`;
    lastStep = `${state.scene}:${state.step}`;
    onChange?.(publicState(), stepChanged);
  }

  // What the outside sees: the state, the step's id, the inputs and the output.
  function publicState() {
    const { reveal, notice, revealed, ...rest } = state;
    const scene = byId[state.scene];
    const steps = stepsOf(state).map((s) => s.id);
    return {
      ...rest,
      stepId: steps[state.step],
      steps,
      inputs: { ...scene.inputs, ...state.edits },
      output: good.trace.output,
    };
  }

  // ---- start ----

  // The live region stays while the rest is redrawn, so screen readers hear each change.
  const content = el("div");
  const live = el("p", { id: "announce", class: "visually-hidden", "aria-live": "polite" });
  root.replaceChildren(content, live);

  state = initialState(scenes, options.state);
  state.predictFrom = state.step;
  const scene = byId[state.scene];
  try {
    good = compute(scene, state);
  } catch (error) {
    // Edits the core rejects (from a URL, say) give way to the scene as published, and say why;
    // then, if the scene's own parameters are refused too, to their initial values.
    state = { ...state, edits: {}, notice: { link: true, core: error.message } };
    try {
      good = compute(scene, state);
    } catch {
      state = { ...state, ...sceneDefaults(scene) };
      good = compute(scene, state);
    }
  }
  state = withFocus(clampStep(state));
  keyTarget.addEventListener("keydown", onKey);
  if (page) addEventListener("beforeprint", printWorksheet);
  // A narrower or wider column shows more or less of a table: the scroll cues follow.
  const resized = new ResizeObserver(() =>
    markScrollers(root, wordsFor(state.lang, byId[state.scene]).ui.scrollHint),
  );
  render({ announce: true });
  resized.observe(content);

  return {
    get state() {
      return publicState();
    },
    goTo(step) {
      if (!Number.isFinite(step)) throw new Error(`goTo: the step must be a number, not ${step}`);
      playback.go(Math.round(step));
    },
    play: () => playback.set(true),
    pause: () => playback.set(false),
    setLang(lang) {
      if (Object.hasOwn(messages, lang) && lang !== state.lang)
        update({ lang }, { announce: true });
    },
    /** Predict mode on or off: each step's results hidden until the learner has answered. */
    setPredict(on) {
      if (Boolean(on) !== state.predict) update({ predict: Boolean(on) });
    },
    setScene: (id) =>
      Object.hasOwn(byId, id) && id !== state.scene && update({ scene: id }, { announce: true }),
    /** Replaces inputs ({ x, wq, … } as arrays of rows); throws the core's error if rejected. */
    setInputs(edits) {
      const scene = byId[state.scene];
      const names = Object.keys(scene.inputs).join(", ");
      if (!edits || typeof edits !== "object") throw new Error(`setInputs: give { ${names} }`);
      for (const [id, rows] of Object.entries(edits)) {
        if (!scene.inputs[id]) throw new Error(`setInputs: ${id} is not an input here (${names})`);
        if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
          throw new Error(`setInputs: ${id} must be an array of rows of numbers`);
        }
      }
      update({ edits });
      if (state.notice) throw new Error(wordsFor(state.lang, scene).coreError(state.notice.core));
    },
    destroy() {
      playback.stop();
      resized.disconnect();
      removeEventListener("beforeprint", printWorksheet);
      keyTarget.removeEventListener("keydown", onKey);
      root.replaceChildren();
    },
  };
}
