// state.test.mjs: the state and its URL (web/state.js), lazy labs (web/lab.js) and the seeded
// generator (web/random.js), in Node: what the page writes into a link comes back from it, a
// default is left out, a lab that needs the labs module gets it; a teacher's class link (its
// language, predict mode, what it hides, its path and its start) comes back whole, through
// the page's own rewriting of the URL too, and what a link gets wrong is ignored and listed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { coreFor, labOf, resolveScene } from "../../web/lab.js";
import { random } from "../../web/random.js";
import { sceneById } from "../../web/scenes.js";
import { scenes as listed } from "../../web/catalogue.js";
import {
  classFromParams,
  classParams,
  defaultLang,
  hasInputs,
  hideable,
  initialState,
  paramsFromState,
  stateFromParams,
} from "../../web/state.js";
import { lessons } from "../../web/catalogue.js";
import { linkOf } from "../../web/ui/share.js";
import { tinyScene } from "../fixtures/tiny-lab.js";
import "./gpt-files.mjs"; // the sizes lab reads the Tang model's description

const scenes = listed.filter((s) => !s.lazy);
const core = await loadAttention();
const roundTrip = (state) =>
  stateFromParams(paramsFromState(state, sceneById[state.scene]), listed);

test("a link holds every choice the learner made, and gives it back", () => {
  const age = initialState(scenes, {
    scene: "age",
    step: 3,
    lang: "zh",
    alpha: 2.5,
    digits: 6,
    speed: 2,
    predict: true,
    edits: { q: [[0, 1, 0]] },
    focus: { m: "weights", i: 0, j: 2 },
  });
  const p = paramsFromState(age, sceneById.age);
  assert.equal(
    p.toString(),
    "scene=age&step=4&lang=zh&alpha=2.5&digits=6&speed=2&predict=1&q=0%2C1%2C0&cell=weights.0.2",
  );
  const back = roundTrip(age);
  for (const key of ["scene", "step", "lang", "alpha", "digits", "speed", "predict", "edits"]) {
    assert.deepEqual(back[key], age[key], key);
  }
  assert.deepEqual(back.focus, age.focus);
});

test("a link leaves the defaults out", () => {
  const plain = initialState(scenes, { scene: "age", lang: "en" });
  assert.equal(paramsFromState(plain, sceneById.age).toString(), "scene=age&step=1&lang=en");
  const back = roundTrip(plain);
  assert.equal(back.alpha, 1);
  assert.equal(back.digits, 4);
  assert.equal(back.speed, 1);
  assert.equal(back.predict, false);
  assert.equal(back.focus, null);
});

test("a toggle is in the link when it is on, and only where the scene offers it", () => {
  const book = initialState(scenes, { scene: "book", lang: "en", causal: true });
  assert.equal(paramsFromState(book, sceneById.book).get("causal"), "1");
  assert.equal(roundTrip(book).causal, true);
  assert.equal(roundTrip({ ...book, causal: false }).causal, false);
  const cup = stateFromParams(new URLSearchParams("scene=cup&causal=1"), listed);
  assert.equal(cup.causal, false, "the cup scene has no causal toggle");
  const on = stateFromParams(new URLSearchParams("scene=book&causal=yes"), listed);
  assert.equal(on.causal, false, "only 1 turns it on");
});

test("the initial state: its notice kept, an unknown or lazy scene gives the first", () => {
  assert.deepEqual(initialState(scenes, { notice: { typed: "x" } }).notice, { typed: "x" });
  assert.equal(initialState(scenes, {}).notice, null);
  assert.equal(initialState(listed, { scene: "nowhere" }).scene, listed[0].id);
  assert.equal(initialState(listed, { scene: "scale" }).scene, listed[0].id, "a stub is no scene");
  assert.equal(initialState(scenes, { scene: "book" }).causal, false, "the scene's parameters");
  assert.equal(initialState(scenes, { scene: "age" }).alpha, 1);
});

test("a link's matrices: at most 16 rows and columns, cells inside them", () => {
  const row = (n) => Array.from({ length: n }, () => "1").join(",");
  const fits = stateFromParams(new URLSearchParams(`scene=dictionary&q=${row(16)}`), listed);
  assert.equal(fits.edits.q[0].length, 16);
  assert.equal(fits.notice, null);
  const wide = stateFromParams(new URLSearchParams(`scene=dictionary&q=1;${row(17)}`), listed);
  assert.deepEqual(wide.notice, { link: true, tooBig: { id: "q", rows: 2, cols: 17 } });
  const cell = (c) => stateFromParams(new URLSearchParams(`cell=${c}`), listed).focus;
  assert.deepEqual(cell("scores.15.0"), { m: "scores", i: 15, j: 0 });
  assert.equal(cell("scores.16.0"), null);
  assert.equal(cell("scores.0.123"), null);
  assert.equal(cell("1scores.0.0"), null);
  assert.equal(cell("scores!.0.0"), null);
  assert.deepEqual(cell("w.1.2"), { m: "w", i: 1, j: 2 });
  // a head's own matrix, as the model labs name them
  assert.deepEqual(cell("h3-weights.1.2"), { m: "h3-weights", i: 1, j: 2 });
  assert.equal(cell("-weights.1.2"), null);
});

test("the browser's language: Chinese if any preferred language is, else English", () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  const as = (navigator) =>
    Object.defineProperty(globalThis, "navigator", { value: navigator, configurable: true });
  try {
    as({ languages: ["en-GB", "zh-CN"], language: "en-GB" });
    assert.equal(defaultLang(), "zh");
    as({ languages: ["en-US"], language: "zh-TW" });
    assert.equal(defaultLang(), "en", "languages come first");
    as({ languages: [], language: "zh-TW" });
    assert.equal(defaultLang(), "zh");
    as({ language: "de" });
    assert.equal(defaultLang(), "en");
    as({ languages: ["fr", "xzh"] });
    assert.equal(defaultLang(), "en", "zh must start the tag");
    as(undefined);
    assert.equal(defaultLang(), "en");
  } finally {
    if (had) Object.defineProperty(globalThis, "navigator", had);
    else delete globalThis.navigator;
  }
});

test("scenes with inputs have input tools; the scale lab has none", async () => {
  assert.ok(scenes.every(hasInputs));
  const [scale] = (await import("../../web/labs/why/scale.js")).default;
  assert.equal(hasInputs(scale), false);
});

test("a lazy scene loads its lab, and a lab that asks for it computes on the labs module", async () => {
  const entry = { id: "tiny-lazy", lazy: () => import("../fixtures/tiny-lab-lazy.js") };
  const scene = await resolveScene(entry);
  assert.equal(scene.id, "tiny-lazy");
  assert.equal(labOf(scene).core, "labs");
  const labs = await loadLabs();
  assert.equal(coreFor(labOf(scene), core), labs);
  assert.notEqual(labs, core);
  assert.equal(coreFor(labOf(tinyScene), core), core, "other labs keep the page's core");
  assert.equal(coreFor(labOf(scenes[0]), core), core);
  assert.equal(await resolveScene(scenes[0]), scenes[0], "a scene that is not lazy is itself");
  await assert.rejects(resolveScene({ ...entry, id: "elsewhere" }), {
    message: 'the module for the scene "elsewhere" does not define it',
  });
});

// mulberry32 as published (Tommy Ettinger), written out again here.
function mulberry32(seed) {
  let a = seed;
  return () => {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("random values: the published mulberry32 stream, in [0, 1)", () => {
  for (const seed of [0, 1, 7, 42, 2 ** 31, 2 ** 32 - 1]) {
    const ours = random(seed);
    const theirs = mulberry32(seed);
    for (let k = 0; k < 100; k++) {
      const x = ours();
      assert.equal(x, theirs(), `seed ${seed}, draw ${k}`);
      assert.ok(x >= 0 && x < 1);
    }
  }
});

test("a link's slider values land on the slider's grid, as the slider would put them", async () => {
  const [dropout] = (await import("../../web/labs/why/dropout.js")).default;
  const [scaling] = (await import("../../web/labs/why/scaling.js")).default;
  const read = (scene, query) =>
    stateFromParams(new URLSearchParams(`scene=${scene.id}&${query}`), [scene]);
  assert.equal(read(scaling, "dk=1.5").dk, 2);
  // the √d_k slider's places are powers of 2: a link's 100 goes to the nearest, 128
  assert.equal(read(scaling, "dk=100").dk, 128);
  assert.equal(read(scaling, "dk=5000").dk, 512);
  assert.equal(read(scaling, "dk=64.4").dk, 64);
  assert.equal(read(scaling, "dk=9999").dk, 512);
  assert.equal(read(dropout, "draw=2.5").draw, 3);
  assert.equal(read(dropout, "p=0.55").p, 0.6);
  assert.equal(
    read(dropout, "p=0.3").p,
    0.3,
    "0.1 + 2·0.1 is written 0.3, not 0.30000000000000004",
  );
  assert.equal(read(dropout, "p=-1").p, 0.1);
  const age = stateFromParams(new URLSearchParams("scene=age&alpha=1.3"), listed);
  assert.equal(age.alpha, 1.5);
});

// ---- a teacher's class link ----

const lessonScenes = (id) => lessons.find((l) => l.id === id).scenes.map((s) => s.id);
const classLinks = [
  // the walkthroughs in Chinese, predict first, the usual controls hidden
  {
    scene: "classroom",
    step: 0,
    lang: "zh",
    predict: true,
    hide: ["predict", "key", "share"],
    path: lessonScenes("walkthroughs"),
  },
  // two scenes of two lessons, in English, starting on step 4 of the second, everything hidden
  {
    scene: "kvcache",
    step: 3,
    lang: "en",
    predict: true,
    hide: hideable,
    path: ["age", "kvcache"],
  },
  // no path (every scene), predict off, only editing hidden
  { scene: "book", step: 2, lang: "en", predict: false, hide: ["edit"], path: null },
  // one lab alone
  { scene: "sizes", step: 0, lang: "zh", predict: false, hide: [], path: ["sizes"] },
];

// A link read as the page reads it (app.js): the lab it opens loaded first.
async function opened(p) {
  const entry = listed.find((s) => s.id === classFromParams(p, listed).opening);
  const scene = entry && (await resolveScene(entry));
  return stateFromParams(
    p,
    listed.map((s) => (s === entry ? scene : s)),
  );
}

test("a class link gives back its language, predict mode, what it hides, its path and its start", async () => {
  for (const link of classLinks) {
    const p = classParams(link);
    const back = await opened(new URLSearchParams(p.toString()));
    for (const key of ["scene", "step", "lang", "predict", "hide", "path"]) {
      assert.deepEqual(back[key], link[key], `${key} of ${p}`);
    }
    assert.deepEqual(back.refused, [], `${p}: nothing refused`);
    // the page writes the URL again from its state after every change: the settings stay
    const again = await opened(paramsFromState(back, { id: back.scene, inputs: {} }));
    for (const key of ["scene", "step", "lang", "predict", "hide", "path"]) {
      assert.deepEqual(again[key], link[key], `${key} after the page rewrote ${p}`);
    }
  }
  assert.equal(
    classParams(classLinks[1]).toString(),
    "scene=kvcache&step=4&lang=en&predict=1&hide=lang.predict.edit.export.key.share&path=age.kvcache",
  );
  // a link with no class settings writes none
  assert.equal(
    paramsFromState(initialState(scenes, { scene: "age", lang: "en" }), sceneById.age).toString(),
    "scene=age&step=1&lang=en",
  );
});

test("a class link's path is in the curriculum's order, and opens its first scene when it names none of it", () => {
  const read = (query) => stateFromParams(new URLSearchParams(query), listed);
  assert.deepEqual(read("path=book.classroom.book").path, ["classroom", "book"]);
  const first = read("path=book.classroom");
  assert.equal(first.scene, "classroom", "no scene: the path's first");
  assert.deepEqual(first.refused, []);
  const outside = classFromParams(new URLSearchParams("scene=age&path=book.dictionary"), listed);
  assert.equal(outside.opening, "dictionary");
  assert.deepEqual(outside.refused, [{ key: "scene", value: "age" }]);
  // the page opens a lab of the path before it reads the link (app.js), as it does any lab's
  assert.equal(classFromParams(new URLSearchParams("path=sizes.tokens"), listed).opening, "tokens");
});

test("what a class link gets wrong is ignored and listed, never wrapped or guessed", () => {
  const read = (query) => stateFromParams(new URLSearchParams(query), listed);
  const bad = read("hide=lang.Lang.sound.lang&path=classroom.nowhere&lang=en");
  assert.deepEqual(bad.hide, ["lang"]);
  assert.deepEqual(bad.path, ["classroom"]);
  assert.deepEqual(bad.refused, [
    { key: "hide", value: "Lang" },
    { key: "hide", value: "sound" },
    { key: "path", value: "nowhere" },
  ]);
  const none = read("path=nowhere.nothing&hide=");
  assert.equal(none.path, null, "no scene of the path is known: every scene");
  assert.deepEqual(none.hide, []);
  assert.deepEqual(none.refused, [
    { key: "hide", value: "" },
    { key: "path", value: "nowhere" },
    { key: "path", value: "nothing" },
  ]);
  assert.deepEqual(read("path=..&lang=en").refused, [{ key: "path", value: ".." }]);
});

test("the teacher's panel makes the class link from what it picks", () => {
  const state = { scene: "age", step: 3 };
  const draft = (more) => ({
    lang: "zh",
    predict: true,
    hide: new Set(["key", "share"]),
    picked: new Set(["classroom", "age", "heads"]),
    start: "first",
    ...more,
  });
  const at = (d) => Object.fromEntries(linkOf(d, { lessons, state }));
  assert.deepEqual(at(draft()), {
    scene: "classroom",
    step: "1",
    lang: "zh",
    predict: "1",
    hide: "key.share",
    path: "classroom.age.heads",
  });
  // "this step": the scene and step on screen, when it is picked
  assert.deepEqual(at(draft({ start: "here" })).scene, "age");
  assert.deepEqual(at(draft({ start: "here" })).step, "4");
  assert.equal(at(draft({ start: "here", picked: new Set(["book"]) })).scene, "book");
  // every scene picked: no path; predict off and nothing hidden: neither is written
  const all = new Set(lessons.flatMap((l) => l.scenes.map((s) => s.id)));
  assert.deepEqual(at(draft({ picked: all, predict: false, hide: new Set(), lang: "en" })), {
    scene: "classroom",
    step: "1",
    lang: "en",
  });
  assert.equal(linkOf(draft({ picked: new Set() }), { lessons, state }), undefined);
});
