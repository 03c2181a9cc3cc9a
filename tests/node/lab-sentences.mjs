// lab-sentences.mjs: what the lab-sentence tests share. They read the numbers and names inside
// the labs' sentences as a learner reads them (a number is what the words next to it say it is:
// "head 2", "第 3 个键值头", "Keys 4 to 6 (图书馆 … 读)"), in English and in Chinese, and compare them
// with the core's values for that step: the step's words, the lines of a cell's derivation that
// are sentences, and the panels' summaries (built on a text-only document,
// tests/node/text-dom.mjs). Where a value can be worked out from other numbers of the core (a
// running max from the whole row's scores, a loss from its weight, a variance from the core's own
// q and k), it is, so that a sentence that says the right field of the wrong step fails too. Each
// pattern reads one sentence in one language; a sentence reworded so that it no longer reads
// fails with the sentence quoted. One file per lesson: inside-, why-, learn-, gpt-sentences and
// lab-languages; the dropout lab's sentences are in dropout-draws.test.mjs.
import assert from "node:assert/strict";
import { installTextDom } from "./text-dom.mjs";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
export const core = await loadLabs();
// every lab of the catalogue, by id
export const labScenes = Object.fromEntries(
  await Promise.all(listed.filter((s) => s.lazy).map(async (s) => [s.id, await resolveScene(s)])),
);
// and what each goes on loading after it opens
await Promise.all(Object.values(labScenes).map((s) => s.lab.settled?.()));
export const langs = ["en", "zh"];

// A number as the page writes it: −0.25, 12, 1.1e−16, −∞.
export const NUM = String.raw`−?(?:\d+(?:\.\d+)?(?:e[−+]?\d+)?|∞)`;
export const pattern = (source) => new RegExp(source.replaceAll("NUM", NUM));
export const num = (s) => Number(s.replace(/−/g, "-").replace("∞", "Infinity"));

// The named groups of `source` in `text`, or a failure that quotes the text.
export function read(text, source, where) {
  const m = pattern(source).exec(text);
  assert.ok(m, `${where}: cannot read /${source}/ in «${text}»`);
  return m.groups;
}

// Reads `texts[lang]` with `sources[lang]` in both languages; every expected group must be there
// as written (a string) or, for a number given as { near, digits }, within half a unit of its
// last shown digit. Returns the groups read, by language.
export function says(texts, sources, expected, where) {
  const out = {};
  for (const lang of langs) {
    const g = read(texts[lang], sources[lang], `${where} (${lang})`);
    for (const [key, want] of Object.entries(expected)) {
      const got = g[key];
      const at = `${where} (${lang}): ${key} in «${texts[lang]}»`;
      if (typeof want === "object") {
        const room = 0.5 * 10 ** -want.digits + 1e-9;
        assert.ok(Math.abs(num(got) - want.near) <= room, `${at}: ${got}, not ${want.near}`);
      } else assert.equal(got, String(want), at);
    }
    out[lang] = g;
  }
  return out;
}

// A lab at a state: its steps, and each step's context, words, panels and derivations by language.
export function lab(id, partial = {}) {
  const scene = labScenes[id];
  const { state, inputs, trace, at } = labAt(core, scene, partial);
  const both = (f) => Object.fromEntries(langs.map((lang) => [lang, f(lang)]));
  return {
    scene,
    state,
    inputs,
    trace,
    at,
    steps: scene.lab.steps(scene, state).map((s) => s.id),
    text: (stepId) =>
      both((lang) => {
        const c = at(lang, stepId);
        return c.lab.text ? c.lab.text(stepId, c) : c.msg.steps[stepId].text;
      }),
    panel: (stepId, name) => both((lang) => panelOf(at(lang, stepId), name)),
    lines: (stepId, mid, i, j) =>
      both((lang) => {
        const c = at(lang, stepId);
        return c.lab.derivation(mid, i, j, c).lines.map((l) => l.text);
      }),
  };
}
export const panelOf = (ctx, name) => ctx.lab.panels[name](ctx);
export const pick = (both, f) => Object.fromEntries(langs.map((lang) => [lang, f(both[lang])]));
