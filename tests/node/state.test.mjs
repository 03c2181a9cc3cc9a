// state.test.mjs: the state and its URL (web/state.js), lazy labs (web/lab.js) and the seeded
// generator (web/random.js), in Node: what the page writes into a link comes back from it, a
// default is left out, a lab that needs the labs module gets it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { coreFor, labOf, resolveScene } from "../../web/lab.js";
import { random } from "../../web/random.js";
import { sceneById } from "../../web/scenes.js";
import { scenes as listed } from "../../web/catalogue.js";
import {
  defaultLang,
  hasInputs,
  initialState,
  paramsFromState,
  stateFromParams,
} from "../../web/state.js";
import { tinyScene } from "../fixtures/tiny-lab.js";

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
