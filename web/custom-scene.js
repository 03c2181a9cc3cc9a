// custom-scene.js: an author's scene, described in JSON (web/scene.schema.json), checked field
// by field and turned into the same shape as the built-in scenes. Shapes that only the core
// can judge (d_k must match, …) are left to the core, whose message the element shows.

import { stepIds } from "./steps.js";

const langs = ["zh", "en"];

class SceneError extends Error {}

/** A scene's JSON is at most this many characters; each matrix at most maxSide rows or columns. */
export const maxSceneLength = 1_000_000;
export const maxSide = 16;

function fail(field, reason) {
  throw new SceneError(`${field}: ${reason}`);
}

// A key named in a message, cut short.
const key = (name) => (name.length > 30 ? `${name.slice(0, 30)}…` : name);

// A value named in a message: short, and never the whole of what an author sent.
function shown(x) {
  if (Array.isArray(x)) return "an array";
  if (x !== null && typeof x === "object") return "an object";
  if (typeof x === "string") return JSON.stringify(x.length > 20 ? `${x.slice(0, 20)}…` : x);
  return String(x);
}

function matrix(value, field) {
  if (!Array.isArray(value) || value.length === 0) fail(field, "must be a non-empty array of rows");
  const side = Math.max(value.length, ...value.map((row) => (Array.isArray(row) ? row.length : 0)));
  if (side > maxSide) {
    fail(field, `has ${side} rows or columns; a scene to work by hand has at most ${maxSide}`);
  }
  // Rows and columns count from 1 in messages, as everywhere on the page.
  value.forEach((row, i) => {
    if (!Array.isArray(row) || row.length === 0)
      fail(`${field} row ${i + 1}`, "must be a non-empty array of numbers");
    if (row.length !== value[0].length) {
      const numbers = row.length === 1 ? "number" : "numbers";
      fail(
        `${field} row ${i + 1}`,
        `has ${row.length} ${numbers} but row 1 has ${value[0].length}`,
      );
    }
    row.forEach((x, j) => {
      if (typeof x !== "number" || !Number.isFinite(x)) {
        fail(`${field}[${i + 1}][${j + 1}]`, `must be a finite number, not ${shown(x)}`);
      }
    });
  });
  return value;
}

const maxText = 2000;

function texts(value, field, required) {
  if (value === undefined && !required) return undefined;
  const both = typeof value === "string" ? { zh: value, en: value } : value;
  if (!both || typeof both !== "object") fail(field, 'must be a string or { "zh": …, "en": … }');
  for (const lang of langs) {
    const text = both[lang];
    const where = typeof value === "string" ? field : `${field}.${lang}`;
    if (typeof text !== "string" || !text.trim()) fail(where, "must be a non-empty string");
    if (text.length > maxText) fail(where, `has ${text.length} characters; at most ${maxText}`);
  }
  return both;
}

function labels(value, field, n, what = "rows") {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((x) => typeof x !== "string" || x.length > 40)) {
    fail(field, "must be an array of strings of at most 40 characters");
  }
  if (value.length !== n) {
    fail(field, `has ${value.length} labels for ${n} ${n === 1 ? what.replace(/s\b/, "") : what}`);
  }
  return value;
}

/**
 * Parses a scene from JSON text or an object. Returns a scene for createWalkthrough; throws an
 * Error whose message names the field and the reason, such as
 * `inputs.k row 2: has 3 numbers but row 1 has 2`.
 */
export function parseScene(source) {
  const json = sceneJson(source);
  const known = [
    "$schema",
    "id",
    "title",
    "analogy",
    "note",
    "result",
    "tokens",
    "queries",
    "keys",
    "values",
    "inputs",
    "mask",
    "steps",
  ];
  for (const name of Object.keys(json)) {
    if (!known.includes(name)) fail(key(name), "is not a scene field");
  }
  const { self, checked } = sceneInputs(json.inputs);
  const rows = self ? checked.x.length : checked.q.length;
  const keyRows = self ? checked.x.length : checked.k.length;
  const mask = sceneMask(json.mask, rows, keyRows);
  if (
    json.id !== undefined &&
    (typeof json.id !== "string" || !/^[a-z][a-z0-9-]*$/.test(json.id))
  ) {
    fail("id", "must be lowercase letters, digits and dashes");
  }
  const text = sceneTexts(json);
  return {
    id: json.id ?? "custom",
    inputs: checked,
    tokens: self ? labels(json.tokens, "tokens", rows) : undefined,
    queryLabels: labels(json.queries, "queries", rows) ?? [],
    keyLabels: labels(json.keys, "keys", keyRows) ?? [],
    valueLabels:
      json.values &&
      labels(json.values, "values", (self ? checked.wv : checked.v)[0].length, "columns of V"),
    mask,
    text,
  };
}

// The scene as an object: from JSON text (within its length limit) or as given.
function sceneJson(source) {
  let json = source;
  if (typeof source === "string") {
    if (source.length > maxSceneLength) {
      fail("scene", `is ${source.length} characters, over the limit of ${maxSceneLength}`);
    }
    try {
      json = JSON.parse(source);
    } catch (error) {
      throw new SceneError(`scene: not valid JSON (${error.message})`);
    }
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    fail("scene", "must be a JSON object");
  return json;
}

// The inputs: { q, k, v } or { x, wq, wk, wv }, each a matrix of numbers.
function sceneInputs(inputs) {
  if (!inputs || typeof inputs !== "object")
    fail("inputs", "must be an object: { q, k, v } or { x, wq, wk, wv }");
  const self = inputs.x !== undefined;
  const names = self ? ["x", "wq", "wk", "wv"] : ["q", "k", "v"];
  for (const name of Object.keys(inputs)) {
    if (!names.includes(name)) {
      fail(
        `inputs.${key(name)}`,
        self
          ? "does not go with x (give x, wq, wk and wv)"
          : "is not an input (give q, k and v, or x, wq, wk and wv)",
      );
    }
  }
  const checked = {};
  for (const name of names) {
    if (inputs[name] === undefined) fail(`inputs.${name}`, "is missing");
    checked[name] = matrix(inputs[name], `inputs.${name}`);
  }
  return { self, checked };
}

// "causal", or a matrix of true and false, one row per query and one column per key.
function sceneMask(mask, rows, keyRows) {
  if (mask === undefined || mask === "causal") return mask;
  if (
    !Array.isArray(mask) ||
    mask.some((row) => !Array.isArray(row) || row.some((x) => typeof x !== "boolean"))
  ) {
    fail("mask", 'must be "causal" or an array of rows of true and false');
  }
  if (mask.length !== rows || mask.some((row) => row.length !== keyRows)) {
    fail("mask", `must be ${rows}×${keyRows} (one row per query, one column per key)`);
  }
  return mask;
}

// The scene's words, by language: its title (also its name), analogy, note, result, steps.
function sceneTexts(json) {
  const title = texts(json.title, "title", true);
  const analogy = texts(json.analogy, "analogy", false);
  const note = texts(json.note, "note", false);
  const result = texts(json.result, "result", false);
  const steps = {};
  if (json.steps !== undefined) {
    if (!json.steps || typeof json.steps !== "object")
      fail("steps", "must be an object keyed by step");
    for (const [id, value] of Object.entries(json.steps)) {
      if (!stepIds.includes(id)) {
        fail(`steps.${key(id)}`, `is not a step (${stepIds.join(", ")})`);
      }
      steps[id] = texts(value, `steps.${id}`, true);
    }
  }
  return Object.fromEntries(
    langs.map((lang) => [
      lang,
      {
        name: title[lang],
        title: title[lang],
        analogy: analogy?.[lang] ?? "",
        note: note?.[lang],
        result: result?.[lang],
        steps: Object.fromEntries(Object.entries(steps).map(([id, t]) => [id, t[lang]])),
      },
    ]),
  );
}
