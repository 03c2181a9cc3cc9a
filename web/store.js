// store.js: a walkthrough's state, the one way it changes, and the last good numbers. No DOM:
// update(change) merges a change into the state, recomputes through the scene's lab when the
// inputs or the scene's parameters changed (keeping the last good numbers when the core refuses
// them, and saying why), and tells each listener which parts of the state changed, so that the
// page redraws only those (walkthrough.js). A lab or a language that is not loaded yet loads
// first.
import { coreFor, labOf, resolveScene } from "./lab.js";
import { initialState, paramsOf, sceneDefaults, withEdits } from "./state.js";
import { wordsFor } from "./words.js";
import { loadLanguage } from "./i18n/index.js";

// The parts of the state that a page layer can depend on; "trace" stands for the numbers.
const tracked = (s) => Object.keys(s);

/**
 * The store of one walkthrough: core (from loadAttention), scenes (the list it may show, the
 * first resolved), partial (the initial state). listen(fn) is called after every change with
 * (changed: Set of state keys, "trace" when the numbers changed, { announce, arrive }).
 */
export function createStore({ core, scenes, partial }) {
  const byId = Object.fromEntries(scenes.map((s) => [s.id, s]));
  const listeners = [];
  let good; // the last good { inputs, trace } for the current scene and edits
  let state;

  const compute = (scene, s) => labOf(scene).compute(coreFor(labOf(scene), core), scene, s);
  const stepsOf = (s) => labOf(byId[s.scene]).steps(byId[s.scene], s);
  // The query row a scene points at in this state (the book's 书, or 读 under the mask).
  const focusRowOf = (s) => {
    const scene = byId[s.scene];
    return labOf(scene).focusRow?.(scene, s) ?? scene.focusRow ?? 0;
  };

  const env = { byId, scenes, core, stepsOf, focusRowOf, compute, good: () => good };
  const derive = (s, page) => deriveContext(env, s, page);
  const withFocus = (s) => focusOn(env, s);
  const clampStep = (s) => ({
    ...s,
    step: Math.min(Math.max(0, s.step), stepsOf(s).length - 1),
  });
  const next = (before, change) => nextState(env, before, change);

  /**
   * The one way the state changes. `change` is merged into the state: `edits` entries replace
   * (null removes) single inputs; `scene` starts that scene afresh (at `step`, if given). When
   * the inputs change, the lab recomputes them through the core; if the core refuses, the state stays as it was and
   * says why. Then the listeners hear what changed, and how: `announce` reads the step out,
   * `arrive` takes the learner to the top of a scene opened from a link.
   */
  function update(change, how = {}) {
    // A lazy scene (a lab) loads its code first, then opens; if it cannot load, the page says
    // so, offers to reload, and stays where it is.
    if (byId[change.scene]?.lazy) {
      const entry = byId[change.scene];
      resolveScene(entry).then(
        (scene) => {
          if (byId[entry.id] === entry) byId[entry.id] = scene;
          update(change, how);
        },
        // the page was rebuilt since it opened, or the network dropped: reloading helps
        () => update({ notice: { unloaded: true } }),
      );
      return;
    }
    // So does a language whose words the page has not loaded (the page loads the one it shows:
    // i18n/one-language.js).
    const words = change.lang && loadLanguage(change.lang);
    if (words) {
      words.then(
        () => update(change, how),
        () => update({ notice: { unloaded: "language" } }),
      );
      return;
    }
    const before = state;
    const beforeGood = good;
    const { s, numbers } = next(before, change);
    good = numbers;
    state = withFocus(clampStep(s));
    const changed = new Set(tracked(state).filter((k) => state[k] !== before[k]));
    if (good !== beforeGood) changed.add("trace");
    // A change of nothing asks for the whole page again (a panel's own choice, say).
    if (Object.keys(change).length === 0) changed.add("*");
    for (const listen of listeners) listen(changed, how);
  }

  // ---- start: the initial state, and numbers for it ----
  state = initialState(scenes, partial);
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

  return {
    get state() {
      return state;
    },
    get good() {
      return good;
    },
    byId,
    stepsOf,
    derive,
    update,
    listen: (fn) => listeners.push(fn),
  };
}

/** Everything a part of the page needs to draw the state `s`, but the page itself. */
function deriveContext({ byId, scenes, core, stepsOf, focusRowOf, good: numbers }, s, page = {}) {
  const good = numbers();
  const scene = byId[s.scene];
  const lab = labOf(scene);
  const msg = wordsFor(s.lang, scene);
  const steps = stepsOf(s);
  const step = steps[s.step];
  const ctx = {
    ...page,
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
    core: coreFor(lab, core),
    // a class link's path: the scenes the scene list, the next-up link and → offer
    scenes: s.path ? scenes.filter((x) => s.path.includes(x.id)) : scenes,
  };
  ctx.panel = (id) => lab.panels?.[id]?.(ctx);
  ctx.labels = lab.labels?.(scene, msg, good.trace, good.inputs) ?? {};
  ctx.view = lab.view(step.id, ctx);
  // Predict mode hides a step's results until the learner has answered; the results of an
  // earlier step not yet answered (since predict mode was turned on) stay hidden where a
  // later step shows them too.
  const controls = page.host?.controls ?? false;
  const unanswered = (k) => !s.revealed[`${s.scene}:${steps[k].id}`];
  ctx.predicting = controls && s.predict && !!ctx.view.focusMatrix && unanswered(s.step);
  ctx.concealed = new Set();
  // the earlier steps not answered whose results this step shows (hidden): the first is the
  // one to answer before this step can be worked out
  ctx.waiting = [];
  for (let k = s.predictFrom ?? 0; controls && s.predict && k < s.step; k++) {
    if (!unanswered(k)) continue;
    const earlier = lab.view(steps[k].id, { ...ctx, step: steps[k], stepId: steps[k].id });
    if (!earlier.focusMatrix) continue;
    const results = earlier.matrices.filter((m) => m.role === "result" || m.role === "aux");
    for (const m of results) ctx.concealed.add(m.id);
    if (results.some((m) => ctx.view.matrices.some((x) => x.id === m.id))) ctx.waiting.push(k);
  }
  // What the step shows in place of a number, by matrix id: a result of this step while the
  // learner predicts it, or of an earlier step not answered. Tables and pictures ask the same.
  const mine = new Set(
    ctx.view.matrices.filter((m) => m.role === "result" || m.role === "aux").map((m) => m.id),
  );
  ctx.hidden = (id) => ctx.concealed.has(id) || (ctx.predicting && mine.has(id));
  return ctx;
}

// The picked cell, if it is on this step; else the first cell of the step's focus matrix,
// in the scene's row of interest.
function focusOn(env, s) {
  const { view } = deriveContext(env, s);
  const on = (m, f) => f && f.i < m.data.length && f.j < m.data[0].length;
  const picked = s.focus && view.matrices.find((m) => m.id === s.focus.m);
  if (picked && on(picked, s.focus)) return s;
  const m = view.matrices.find((x) => x.id === view.focusMatrix);
  const row = Math.min(env.focusRowOf(s), (m?.data.length ?? 1) - 1);
  return { ...s, focus: m ? { m: m.id, i: row, j: 0 } : null };
}

// The state after `change`, and the numbers for it: a new scene starts afresh; changed
// inputs or parameters are computed again, or refused with the core's words.
function nextState({ byId, compute, stepsOf, good }, before, change) {
  let s = { ...before, ...change };
  if (change.edits) s.edits = withEdits(before.edits, change.edits, byId[s.scene]);
  // a language now in: the notice that it could not load is no longer true
  if (change.lang && before.notice?.unloaded === "language" && !("notice" in change))
    s.notice = null;
  const switching = change.scene !== undefined;
  if (switching) {
    for (const p of paramsOf(byId[before.scene])) s[p.id] = undefined;
    // afresh, at its first step and with its parameters' initial values unless the change names
    // them (a glossary entry's link: the book's masked step)
    const step = change.step ?? 0;
    const fresh = { step, edits: {}, focus: null, notice: null, playing: false, revealed: {} };
    const named = paramsOf(byId[change.scene]).filter((p) => p.id in change);
    const own = Object.fromEntries(named.map((p) => [p.id, change[p.id]]));
    s = { ...s, ...fresh, reveal: Infinity, ...sceneDefaults(byId[change.scene]), ...own };
  }
  // Predict mode counts from the step where it was turned on: earlier steps stay as given.
  if (s.predict && (!before.predict || switching)) s.predictFrom = s.step;
  const scene = byId[s.scene];
  const params = paramsOf(scene).map((p) => p.id);
  const paramChanged = params.some((id) => id in change && change[id] !== before[id]);
  // A changed parameter changes the diagram: the focus goes back to where the scene points.
  if (paramChanged && !("focus" in change)) s.focus = null;
  let numbers = good();
  if (switching || change.edits || paramChanged) {
    try {
      numbers = compute(scene, s);
      if (!("notice" in change)) s.notice = null;
      // New numbers are to be predicted again, from this step on: the steps before it are
      // given, as when predict mode is turned on here.
      s.revealed = {};
      s.predictFrom = Infinity;
    } catch (error) {
      s = { ...before, notice: { core: error.message } };
    }
    // Stay on the same step when the mask adds or removes one.
    if (!switching) {
      const id = stepsOf(before)[before.step].id;
      const at = stepsOf(s).findIndex((x) => x.id === id);
      if (at >= 0) s.step = at;
    }
    if (s.predictFrom === Infinity) s.predictFrom = s.step;
  }
  return { s, numbers };
}
