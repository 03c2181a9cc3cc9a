// state.js: a walkthrough's state, and the state as URL parameters. Pure: no DOM, no core, so
// Node tests import it. The state is one small object:
//
//   { scene, step, lang, edits, digits, speed, seed, focus, predict, notice, playing, reveal,
//     revealed, hide, path, refused, ...the scene's own parameters (alpha, causal, … declared by
//     its lab's params()) }
//
// `step` counts from 0 here and from 1 in the URL; `edits` holds the inputs the learner
// changed, by input id; `focus` is the picked cell { m, i, j }; `notice` is the inline message
// after a rejected edit, as data ({ core: message } or { typed: text }), worded when drawn;
// `predict` hides each step's results until the learner has answered, and `revealed` lists the
// steps answered (by "scene:stepId"); `predictFrom` is the step where predict mode began.
// A teacher's class link adds `hide` (the controls a class does not touch, of `hideable`) and
// `path` (the scenes the class takes, by id; null for all of them); `refused` lists what a
// link gave that is no such thing ([{ key, value }]), ignored and said on the page.
import { parseNumber, matrixToText, matrixFromText } from "./format.js";
import { languages, messages } from "./i18n/index.js";
import { sceneParams } from "./steps.js";
import { maxSide } from "./custom-scene.js";

export { messages };

/** Whether a scene has inputs to change and predict from (the scale lab has none). */
export const hasInputs = (scene) => Object.keys(scene.inputs).length > 0;

/** The decimals that "Decimals shown" offers; a link's other values go to the nearest. */
export const digitChoices = [2, 3, 4, 6, 8, 10];
const nearest = (choices, x) =>
  choices.reduce((best, c) => (Math.abs(c - x) < Math.abs(best - x) ? c : best));

/** The playing speeds that the player offers. */
export const speeds = [0.5, 1, 2, 4];

/** The browser's language if it is Chinese, else English. */
export function defaultLang() {
  const nav = globalThis.navigator;
  const wanted = nav?.languages?.length ? nav.languages : [nav?.language ?? ""];
  return wanted.some((l) => /^zh/i.test(l)) ? "zh" : "en";
}

/**
 * The parameters a scene declares through its lab (a slider, a toggle …), [] for none. A scene
 * without a lab of its own runs on the attention lab, whose parameters are sceneParams.
 */
export function paramsOf(scene) {
  return (scene.lab ? scene.lab.params?.(scene) : sceneParams(scene)) ?? [];
}

/** The values a scene starts with: its parameters at their initial values. */
export function sceneDefaults(scene) {
  return Object.fromEntries(paramsOf(scene).map((p) => [p.id, p.initial]));
}

/** A full state from a partial one: defaults first, the scene's parameters filled in. */
export function initialState(scenes, partial = {}) {
  const byId = Object.fromEntries(scenes.map((s) => [s.id, s]));
  const state = {
    scene: scenes[0].id,
    step: 0,
    lang: defaultLang(),
    edits: {},
    digits: 4,
    speed: 1,
    seed: 1,
    focus: null,
    predict: false,
    hide: [],
    path: null,
    refused: [],
    ...partial,
    notice: partial.notice ?? null,
    playing: false,
    reveal: Infinity,
    revealed: {},
  };
  if (!byId[state.scene] || byId[state.scene].lazy) state.scene = scenes[0].id;
  for (const [id, value] of Object.entries(sceneDefaults(byId[state.scene]))) state[id] ??= value;
  return state;
}

const sameMatrix = (a, b) =>
  a.length === b.length &&
  a.every((row, i) => row.length === b[i].length && row.every((x, j) => x === b[i][j]));

/**
 * State from URL parameters: ?scene=age&step=4&lang=en, plus the scene's own, digits and edits.
 * A URL is anyone's text: every value is checked, clamped to what the page offers, or dropped
 * (an unknown scene opens the first, a matrix over maxSide rows or columns is not applied and
 * says so, a cell that is not one is no pick).
 */
// A range's value on its slider's grid (min, min + step, …, or the nearest of its `values`): a
// link may say dk=1.5 or p=0.55.
function onGrid(x, { min = 0, max = Infinity, step, values }) {
  // the nearest of the values, the larger on a tie, as rounding would
  if (values) return values.reduce((best, v) => (Math.abs(v - x) <= Math.abs(best - x) ? v : best));
  if (!step) return x;
  const snapped = min + Math.round((x - min) / step) * step;
  const decimals = (String(step).split(".")[1] ?? "").length;
  return Math.min(max, Number(snapped.toFixed(decimals)));
}

/** What a class link can hide, in the order the link writes them (hide=lang.predict). */
export const hideable = ["lang", "predict", "edit", "export", "key", "share"];

// A list in a link: its items between dots, each once (hide=lang.edit, path=classroom.age).
const listOf = (text) => [...new Set(text.split(".").filter(Boolean))];

/**
 * A class link's settings from URL parameters: { hide, path, opening, refused }. `hide` keeps
 * the known controls, in hideable's order; `path` the known scenes, in the curriculum's (the
 * order of `scenes`), or null when the link names none; `opening` is the scene the link opens:
 * its `scene` if that is in the path, else the path's first. Anything else the link gave is
 * refused: ignored, and listed so that the page says so.
 */
export function classFromParams(p, scenes) {
  const refused = [];
  const hide = [];
  if (p.has("hide")) {
    const asked = listOf(p.get("hide"));
    for (const item of asked)
      if (!hideable.includes(item)) refused.push({ key: "hide", value: item });
    hide.push(...hideable.filter((item) => asked.includes(item)));
    if (!asked.length) refused.push({ key: "hide", value: p.get("hide") });
  }
  let path = null;
  if (p.has("path")) {
    const asked = listOf(p.get("path"));
    const known = new Set(scenes.map((s) => s.id));
    for (const id of asked) if (!known.has(id)) refused.push({ key: "path", value: id });
    const kept = scenes.map((s) => s.id).filter((id) => asked.includes(id));
    if (kept.length) path = kept;
    else if (!asked.length) refused.push({ key: "path", value: p.get("path") });
  }
  let opening = p.get("scene") ?? undefined;
  if (path && !path.includes(opening)) {
    if (opening !== undefined) refused.push({ key: "scene", value: opening });
    opening = path[0];
  }
  return { hide, path, opening, refused };
}

export function stateFromParams(p, scenes) {
  const settings = classFromParams(p, scenes);
  const scene = scenes.find((s) => s.id === settings.opening && !s.lazy) ?? scenes[0];
  const edits = {};
  let notice = null;
  for (const id of Object.keys(scene.inputs)) {
    const m = p.has(id) ? matrixFromText(p.get(id)) : undefined;
    if (m && Math.max(m.length, ...m.map((row) => row.length)) > maxSide) {
      const cols = Math.max(...m.map((row) => row.length));
      notice = { link: true, tooBig: { id, rows: m.length, cols } };
    } else if (m && !sameMatrix(m, scene.inputs[id])) edits[id] = m;
  }
  const number = (key, fallback, min = -Infinity, max = Infinity) => {
    const x = parseNumber(p.get(key) ?? "");
    return x === undefined || Number.isNaN(x) ? fallback : Math.min(max, Math.max(min, x));
  };
  const own = {};
  for (const param of paramsOf(scene)) {
    own[param.id] =
      param.kind === "toggle"
        ? Boolean(param.control && p.get(param.id) === "1")
        : param.kind === "text"
          ? (p.get(param.id) ?? param.initial).slice(0, param.maxLength)
          : onGrid(number(param.id, param.initial, param.min, param.max), param);
  }
  const speed = number("speed", 1);
  const [m, i, j] = (p.get("cell") ?? "").split(".");
  const index = (x) => (/^\d{1,2}$/.test(x ?? "") && Number(x) < maxSide ? Number(x) : undefined);
  const cell = /^[a-z][\w-]{0,23}$/i.test(m) && { m, i: index(i), j: index(j) };
  return {
    scene: scene.id,
    lang: Object.hasOwn(languages, p.get("lang")) ? p.get("lang") : defaultLang(),
    step: Math.round(number("step", 1, 1, 1000)) - 1,
    edits,
    ...own,
    digits: nearest(digitChoices, number("digits", 4)),
    speed: speeds.includes(speed) ? speed : 1,
    seed: Math.round(number("seed", 1, 0, 2 ** 32 - 1)),
    focus: cell && cell.i !== undefined && cell.j !== undefined ? cell : null,
    predict: p.get("predict") === "1",
    hide: settings.hide,
    path: settings.path,
    refused: settings.refused,
    notice,
  };
}

/** The state as URL parameters; defaults are left out. */
export function paramsFromState(state, scene) {
  const p = new URLSearchParams({ scene: state.scene, step: state.step + 1, lang: state.lang });
  for (const param of paramsOf(scene)) {
    const value = state[param.id];
    if (param.kind === "toggle" && value) p.set(param.id, "1");
    else if (param.kind !== "toggle" && value !== param.initial) p.set(param.id, value);
  }
  if (state.digits !== 4) p.set("digits", state.digits);
  if (state.speed !== 1) p.set("speed", state.speed);
  if (state.predict) p.set("predict", "1");
  if (state.hide?.length) p.set("hide", state.hide.join("."));
  if (state.path) p.set("path", state.path.join("."));
  for (const [id, m] of Object.entries(state.edits)) p.set(id, matrixToText(m));
  if (state.focus) p.set("cell", `${state.focus.m}.${state.focus.i}.${state.focus.j}`);
  return p;
}

/**
 * A teacher's class link as URL parameters: { scene, step (from 0), lang, predict, hide, path }
 * (ui/share.js builds it), written as paramsFromState writes any state, so that
 * stateFromParams gives each setting back.
 */
export function classParams({ scene, step = 0, lang, predict, hide = [], path = null }) {
  const state = { scene, step, lang, digits: 4, speed: 1, predict, hide, path, edits: {} };
  return paramsFromState(state, { id: scene, inputs: {} });
}

/**
 * Edits with `change` applied: a matrix replaces one, null removes one, and a matrix equal to
 * the scene's own is no edit.
 */
export function withEdits(edits, change, scene) {
  const next = { ...edits, ...change };
  for (const [id, m] of Object.entries(next)) {
    if (m === null || (scene.inputs[id] && sameMatrix(m, scene.inputs[id]))) delete next[id];
  }
  return next;
}
