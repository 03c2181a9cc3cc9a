// gpt-lab-meaning.test.mjs: the model lab's loss with meaning, in Chromium, in both languages
// (1440 px with English, 390 px with Chinese): the nat sentence and its "1 in N"; the link to
// lesson 4's −ln of a weight; the table and the plot's labelled lines of the uniform, unigram and
// bigram models and the shipped weights (baselines.json, tested against NumPy in
// tests/node/gpt-baselines.test.mjs); why the training loss jumps; why the named heads help
// (ablation.json); and a generated line that ends the poem at once says why.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { start, openApp } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const read = (name) =>
  JSON.parse(readFileSync(new URL(`../../web/labs/gpt/${name}`, import.meta.url), "utf8"));
const json = read("tang.json");
const baselines = read("baselines.json");
const ablation = read("ablation.json");
const at2 = (x) => x.toFixed(2);
const text = (page, selector) => page.locator(selector).first().textContent();
const views = [
  ["en", 1440],
  ["zh", 390],
];

test("the train step: what a nat is, lesson 4's loss, the baselines as a table and as lines", async () => {
  for (const [lang, width] of views) {
    const page = await openApp(env, `scene=model&lang=${lang}&step=6`, {
      viewport: { width, height: 900 },
    });
    await page.waitForSelector("#loss-meaning");
    // 5.25 nats: e^5.25 = 190.6, about 1 in 191
    const nat = await text(page, "#loss-nat");
    assert.ok(nat.includes(at2(json.heldOut)) && nat.includes("191"), nat);
    assert.match(nat, lang === "en" ? /e\^\(−L\)/ : /e\^\(−L\)/);
    const lesson4 = await text(page, "#loss-lesson4");
    assert.match(
      lesson4,
      lang === "en" ? /L = −ln weights\[书\]\[读\]/ : /L = −ln 权重\[书\]\[读\]/,
    );
    assert.ok(lesson4.includes(String(baselines.targets)) && lesson4.includes("31"), lesson4);
    // −ln(1/1497) = ln 1497 = 7.31, and the other two as measured
    const said = await text(page, "#loss-baselines");
    assert.ok(said.includes(`ln 1497 = ${at2(Math.log(1497))}`), said);
    for (const x of [baselines.unigram, baselines.bigram, json.heldOut]) {
      assert.ok(said.includes(at2(x)), `${at2(x)} in ${said}`);
    }
    // the table: each model's loss and its 1 in N: e^L of the loss as shown (a learner's e^5.62
    // is 276, not the 275 of the loss unrounded), at three decimals
    const rows = await page
      .locator(".model-baselines tr:has(th[scope=row])")
      .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const losses = [baselines.uniform, baselines.unigram, baselines.bigram, json.heldOut];
    assert.equal(rows.length, 4);
    rows.forEach((row, k) => {
      assert.equal(row[1], losses[k].toFixed(3));
      const n = Math.round(Math.exp(Number(row[1])));
      assert.ok(row[2].replaceAll(",", "").includes(String(n)), row.join(" | "));
    });
    assert.ok(rows[0][2].includes("1497"));
    // the plot before a run: the shipped weights' own training, and four labelled lines
    const levels = await page.locator("#shipped-plot text.level").allTextContents();
    assert.deepEqual(
      levels.map((l) => l.split(" ")[0]),
      losses.map(at2),
    );
    const circles = await page.locator("#shipped-plot circle").count();
    assert.equal(circles, 2 * json.curve.length);
    const jumps = await text(page, "#loss-jumps");
    assert.ok(jumps.includes(String(json.training.batch)) && jumps.includes("31"), jumps);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `${wide} px`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("the roles step: why the named heads help, with the measured losses", async () => {
  for (const [lang, width] of views) {
    const page = await openApp(env, `scene=model&lang=${lang}&step=4`, {
      viewport: { width, height: 900 },
    });
    await page.waitForSelector("#heads-help");
    for (const group of ablation.off) {
      const said = await text(page, `#without-${group.role}`);
      for (const x of [ablation.full.character, group.character, ablation.full.mark, group.mark]) {
        assert.ok(said.includes(at2(x)), `${at2(x)} in ${said}`);
      }
      assert.ok(said.includes(String(ablation.targets.mark)), said);
      // each line and its why, one paragraph: a space between sentences in English only
      assert.ok(!said.includes("undefined"), said);
      assert.equal(/[。）] /.test(said), false, said);
    }
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `${wide} px`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("a line the model ends at once: the generated line says why, with ⏎'s probability", async () => {
  for (const [lang, width] of views) {
    const line = json.examples[0]; // a whole couplet: at τ = 0 the model writes ⏎ first
    const page = await openApp(
      env,
      `scene=model&lang=${lang}&step=5&temperature=0&line=${encodeURIComponent(line)}`,
      { viewport: { width, height: 900 } },
    );
    const said = await text(page, "#ended-at-once");
    // ⏎ is the likeliest: the first of the top five, whose p the sentence states
    const head = await page.locator('[data-matrix="probs"] th').allTextContents();
    assert.ok(
      head.some((h) => h.includes("⏎")),
      head.join(" "),
    );
    const p = await page.locator('[data-matrix="probs"] button.cell').first().textContent();
    assert.ok(said.includes(p), `${p} in ${said}`);
    assert.match(said, lang === "en" ? /τ = 0/ : /τ = 0/);
    // a line that does not end the poem says nothing of it
    await page.locator("#line").fill("白日依山尽，");
    await page.locator("#line").press("Enter");
    await page.waitForFunction(() => !document.querySelector("#ended-at-once"));
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("for English readers: the top five's pinyin and meaning, and each example's gloss", async () => {
  const glosses = read("glosses.json");
  const en = await openApp(env, "scene=model&lang=en&step=5", {
    viewport: { width: 390, height: 900 },
  });
  const rows = await en
    .locator(".model-glosses tr:has(th[scope=row])")
    .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const top = (await en.locator('[data-matrix="probs"] th[scope="col"]').allTextContents()).slice(
    1,
  );
  assert.equal(rows.length, 5);
  rows.forEach(([c, pinyin, meaning], k) => {
    assert.ok(top[k].includes(c), `${c} in ${top[k]}`);
    if (glosses[c]) assert.deepEqual([pinyin, meaning], glosses[c]);
    else assert.ok(meaning.length > 3, `${c}: ${meaning}`); // ⏎, � or a mark, named
  });
  assert.ok(rows.some(([c]) => glosses[c]));
  await en.goto(en.url().replace("step=5", "step=1"));
  await en.waitForSelector("#example-1");
  assert.match(await text(en, "#example-1 .gloss"), /cold/);
  const wide = await en.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `${wide} px`);
  assert.deepEqual(en.errors, []);
  await en.close();
  const zh = await openApp(env, "scene=model&lang=zh&step=5");
  assert.equal(await zh.locator("#next-glosses").count(), 0);
  assert.equal(await zh.locator("#example-1 .gloss").count(), 0);
  await zh.close();
});

// The learner's third pass: the shipped run's table listed some steps and did not say which. Its
// title names them, and its rows are exactly those of tang.json's curve.
test("the shipped run's table says which steps it lists, and lists those", async () => {
  for (const [lang, width] of views) {
    const page = await openApp(env, `scene=model&lang=${lang}&step=6`, {
      viewport: { width, height: 900 },
    });
    const figure = page.locator("#shipped-plot figure.why-numbers");
    const caption = await figure.locator("figcaption").textContent();
    const [first, every] = (caption.match(/\d+/g) ?? []).map(Number);
    const listed = json.curve.filter((c) => c.step === first || c.step % every === 0);
    assert.ok(listed.length >= 2, caption);
    const rows = await figure.locator('th[scope="row"]').allTextContents();
    assert.deepEqual(
      rows.map((r) => Number(r.match(/\d+/)[0])),
      listed.map((c) => c.step),
      caption,
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
