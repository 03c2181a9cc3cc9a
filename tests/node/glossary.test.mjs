// glossary.test.mjs: the glossary's data (web/i18n/glossary.js) holds. Every entry has both
// languages, whose term its own pattern finds; it links to a scene or lab of the catalogue, at a
// step it has; the numbers its formulas quote are the model's and the core's own, read here from
// tang.json and from the C++ source (AdamW's β, ε and weight decay, LayerNorm's ε, the warmup and
// the learning rate's floor), and both languages quote the same numbers. The page's side (each
// word linked where it first appears) is tests/browser/glossary.test.mjs's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { glossary, patternsFor, whereHref } from "../../web/i18n/glossary.js";
import { scenes } from "../../web/catalogue.js";
import { initialState } from "../../web/state.js";
import { labOf, resolveScene } from "../../web/lab.js";
import "./gpt-files.mjs";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const json = JSON.parse(read("web/labs/gpt/tang.json"));
const gptHpp = read("src/gpt.hpp");
const gptCpp = read("src/gpt.cpp");
const langs = ["en", "zh"];
const entry = (id) => glossary.find((e) => e.id === id);

test("every entry: both languages, a term its own pattern finds, a plain sentence and a formula", () => {
  assert.equal(new Set(glossary.map((e) => e.id)).size, glossary.length, "one entry per id");
  for (const lang of langs) {
    const patterns = patternsFor(lang);
    for (const [k, e] of glossary.entries()) {
      const { term, text, formula } = e[lang];
      for (const [name, value] of Object.entries({ term, text, formula })) {
        assert.ok(typeof value === "string" && value.trim(), `${e.id} ${lang} ${name}`);
      }
      const { pattern } = patterns[k];
      pattern.lastIndex = 0;
      assert.ok(pattern.test(term), `${e.id} ${lang}: /${pattern.source}/ misses “${term}”`);
      // a sentence, then the formula: one sentence or two, ended
      assert.match(text, lang === "en" ? /[.)]$/ : /[。）]$/, `${e.id} ${lang}`);
    }
    // one term per entry in a language: no two entries named alike
    const terms = glossary.map((e) => e[lang].term.toLowerCase());
    assert.equal(new Set(terms).size, terms.length, lang);
  }
});

test("every entry links to a scene or lab of the path, at a step it has", async () => {
  const ids = new Set(scenes.map((s) => s.id));
  // a scene's steps as its lab lists them, in the state the link asks for
  const stepsAt = async ({ scene: id, params }) => {
    const scene = await resolveScene(scenes.find((s) => s.id === id));
    const state = initialState([scene], { scene: id, ...params });
    return labOf(scene).steps(scene, state).length;
  };
  for (const e of glossary) {
    const { scene, step } = e.where;
    assert.ok(ids.has(scene), `${e.id}: ${scene}`);
    const steps = await stepsAt(e.where);
    assert.ok(Number.isInteger(step) && step >= 1 && step <= steps, `${e.id}: ${step} of ${steps}`);
    for (const lang of langs) {
      const params = e.where.params ? "&causal=1" : "";
      assert.equal(whereHref(e, lang), `?scene=${scene}&lang=${lang}&step=${step}${params}`);
    }
  }
});

// The numbers in a text, as written (1,497 → 1497; 3e-3 → 0.003).
// Each number in a text, with its sign where a minus stands before it and after no name or
// number (θᵢ = base^(−2i/d) reads −2; t−1 reads 1): a planted bug dropped zh's minus there.
const numbersIn = (text) =>
  [...text.matchAll(/(?:(?<![\w.)])[−-])?\d[\d,]*(?:\.\d+)?(?:e-?\d+)?/g)].map((m) =>
    Number(m[0].replace("−", "-").replaceAll(",", "")),
  );

test("the numbers in the formulas are the model's and the core's own", () => {
  const field = (name) => Number(gptHpp.match(new RegExp(`\\b${name} = ([\\d.e-]+)`))[1]);
  const adam = numbersIn(entry("adamw").en.formula);
  for (const name of ["beta1", "beta2", "eps", "weight_decay"]) {
    assert.ok(adam.includes(field(name)), `AdamW's ${name} = ${field(name)}: ${adam}`);
  }
  const lnEps = Number(gptCpp.match(/kLnEps = ([\d.e-]+);/)[1]);
  assert.ok(numbersIn(entry("layernorm").en.formula).includes(lnEps), `LayerNorm's ε ${lnEps}`);
  const lr = numbersIn(entry("learning-rate").en.formula);
  assert.ok(lr.includes(json.training.lr), `the learning rate ${json.training.lr}: ${lr}`);
  const warm = Number(gptCpp.match(/warm = std::min<std::int64_t>\((\d+),/)[1]);
  assert.ok(lr.includes(warm), `the warmup ${warm}`);
  // the cosine's floor: lr·(0.1 + 0.45·(1 + cos π)) = lr·0.1, "a tenth"
  const [floor, half] = gptCpp.match(/lr \* \(([\d.]+) \+ ([\d.]+) \* \(1 \+ std::cos/).slice(1);
  assert.equal(Number(floor), 0.1);
  assert.equal(Number(floor) + 2 * Number(half), 1);
  assert.match(entry("learning-rate").en.formula, /down to a tenth/);
  assert.match(entry("learning-rate").zh.formula, /降到十分之一/);
  assert.ok(numbersIn(entry("vocabulary").en.formula).includes(json.config.vocab));
  assert.ok(numbersIn(entry("rope").en.formula).includes(json.config.base));
});

test("both languages quote the same numbers", () => {
  for (const e of glossary) {
    const [en, zh] = langs.map((lang) => numbersIn(e[lang].formula).sort((a, b) => a - b));
    assert.deepEqual(zh, en, e.id);
  }
});

// A planted bug flipped zh's causal mask to j < i: each comparison of two names in a formula
// (j > i, t ≤ T), read the same way round, is in both languages.
test("both languages state the same comparisons, the same way round", () => {
  const flip = { ">": "<", "<": ">", "≥": "≤", "≤": "≥" };
  const comparisons = (text) =>
    [...text.matchAll(/(?<![\w·])([A-Za-z](?:_\w+)?)\s*([<>≤≥])\s*([A-Za-z](?:_\w+)?)(?![\w(])/g)]
      .map(([, a, op, b]) =>
        op === ">" || op === "≥" ? `${b} ${flip[op]} ${a}` : `${a} ${op} ${b}`,
      )
      .sort();
  let seen = 0;
  for (const e of glossary) {
    const [en, zh] = langs.map((lang) => comparisons(e[lang].formula));
    assert.deepEqual(zh, en, e.id);
    seen += en.length;
  }
  assert.ok(seen >= 1, `${seen} comparisons`);
});

// A planted bug gave W_O's shape as 7 × 8 in the Chinese entry only: the heads lab's shapes in
// the entries, in both languages, read against the lab's own matrices and the core's d_head.
test("the glossary's heads-lab shapes are the lab's: d_head, h × d_head, W_O's rows and columns (en, zh)", async () => {
  const { loadLabs } = await import("../../web/attention.js");
  const { labAt } = await import("./lab-context.mjs");
  const { headsScene } = await import("../../web/labs/inside/heads.js");
  const data = await import("../../web/labs/inside/data.js");
  const { trace } = labAt(await loadLabs(), headsScene);
  const dHead = trace.dHead;
  const width = data.wq[0].length; // h·d_head
  const heads = width / dHead;
  const [rows, cols] = [data.wo.length, data.wo[0].length];
  assert.deepEqual([rows, cols], [width, data.x[0].length], "W_O maps h·d_head back to d_model");
  const entry = (id) => glossary.find((e) => e.id === id);
  const read = {
    en: {
      "d-head": /the heads lab: d_head = (\d+)/,
      concat: /the heads lab: (\d+) × (\d+) = (\d+)/,
      "w-o": /the heads lab: (\d+) × (\d+)/,
    },
    zh: {
      "d-head": /多头实验：d_head = (\d+)/,
      concat: /多头实验：(\d+) × (\d+) = (\d+)/,
      "w-o": /多头实验：(\d+) × (\d+)/,
    },
  };
  const expected = { "d-head": [dHead], concat: [heads, dHead, width], "w-o": [rows, cols] };
  for (const lang of ["en", "zh"]) {
    for (const [id, re] of Object.entries(read[lang])) {
      const found = re.exec(entry(id)[lang].formula);
      assert.ok(found, `${lang} ${id}: ${entry(id)[lang].formula}`);
      assert.deepEqual(found.slice(1).map(Number), expected[id], `${lang} ${id}`);
    }
  }
});
