// purpose.test.mjs: what the page says attention is for before its first matrix, measured in
// Chromium: on the path's first step, a few sentences and one picture (the classroom analogy)
// fit the first screen at 390×844 in Chinese and at 1440×900 in English, and the first matrix
// follows them; a later step or another scene goes straight to its numbers. Step 1 of each
// walkthrough says what its rows and columns are, by their names; the shape buttons say what
// they do, and which other matrices change with them, in words a screen reader reads. After the
// last lesson's last step, a recap, with the small model's sizes read from its own tang.json.
import { readFileSync } from "node:fs";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp } from "./browser.mjs";
import { loadLabs } from "../../web/attention.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

const screens = [
  { lang: "zh", viewport: { width: 390, height: 844 }, title: "注意力是做什么的" },
  { lang: "en", viewport: { width: 1440, height: 900 }, title: "What attention is for" },
];

// Where the purpose block and the first matrix are, and whether the matrix comes after it.
const layout = (page) =>
  page.evaluate(() => {
    const purpose = document.querySelector(".purpose");
    const matrix = document.querySelector("[data-matrix]");
    const box = (e) => e && e.getBoundingClientRect().toJSON();
    return {
      purpose: box(purpose),
      picture: box(purpose?.querySelector("svg[role=img]")),
      matrix: box(matrix),
      after:
        !!purpose && !!(purpose.compareDocumentPosition(matrix) & Node.DOCUMENT_POSITION_FOLLOWING),
      overflow: document.documentElement.scrollWidth - innerWidth,
      scrolled: scrollY,
    };
  });

test("the first view says what attention is for, with its picture, on the first screen; the first matrix follows", async () => {
  for (const { lang, viewport, title } of screens) {
    // the first view: the page as opened with nothing in its address
    const page = await openApp(env, `lang=${lang}`, { viewport });
    const at = await layout(page);
    assert.ok(at.purpose, `${lang}: no purpose block`);
    assert.equal(at.scrolled, 0);
    assert.ok(at.purpose.top >= 0, `${lang}: it starts at ${at.purpose.top} px`);
    assert.ok(
      at.purpose.bottom <= viewport.height,
      `${lang}: it ends at ${at.purpose.bottom} px, below the first screen of ${viewport.height}`,
    );
    assert.ok(at.picture.width >= 300, `${lang}: the picture is ${at.picture.width} px wide`);
    assert.ok(at.picture.bottom <= viewport.height, `${lang}: the picture is cut off`);
    assert.ok(at.after && at.matrix.top >= at.purpose.bottom, `${lang}: the first matrix follows`);
    assert.ok(at.overflow <= 0, `${lang}: the page is ${at.overflow} px too wide`);
    assert.equal(await page.locator(".purpose h3").textContent(), title);
    // a screen reader hears the picture as one image, described, and then its caption
    const picture = page.locator(".purpose svg[role=img]");
    const caption = await page.locator(".purpose figcaption").textContent();
    const described = await picture.getAttribute("aria-label");
    assert.match(described, lang === "en" ? /^A drawing: .*thickest/ : /^一幅图：.*最粗/);
    assert.notEqual(described, caption);
    const words = await page.locator(".purpose").textContent();
    for (const name of lang === "en" ? ["query", "key", "value"] : ["查询", "键", "值"]) {
      assert.ok(words.includes(name), `${lang}: the purpose never says ${name}`);
    }
    // one step on, the numbers come first
    await page.locator("#forward").click();
    assert.equal(await page.locator(".purpose").count(), 0, `${lang}: still there at step 2`);
    await page.locator("#back").click();
    assert.equal(await page.locator(".purpose").count(), 1, `${lang}: not back at step 1`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // another scene's first step, and the element, go straight to their numbers
  const page = await openApp(env, "scene=age&lang=en");
  assert.equal(await page.locator(".purpose").count(), 0);
  await page.close();
});

test("step 1 of each walkthrough says what its rows and columns are, by their names", async () => {
  const expected = {
    en: {
      classroom: ["“我 (I)”, “爱 (love)” and “你 (you)”", "2 numbers with no names"],
      age: ["“Zhang San”, “Zhang San”, “Li Si” and “Zhang Mazi”", "“age”", "“surname Li”"],
      dictionary: ["“apple”, “banana” and “chair”", "“fruit”"],
      book: ["the 11 from “我” to “书”", "“is a place”"],
      cup: ["“red coffee cup”", "“no task” and “I want to read”", "“holds a drink”"],
    },
    zh: {
      classroom: ["“我”、“爱”、“你”", "2 个没有名字的数"],
      age: ["“张三”、“张三”、“李四”、“张麻子”", "“年龄”"],
      dictionary: ["“苹果 apple”、“香蕉 banana”、“椅子 chair”"],
      book: ["从“我”到“书”的 11 个词", "“是地点”"],
      cup: ["“红色咖啡杯”", "“没有任务”、“我要读书”"],
    },
  };
  for (const [lang, scenes] of Object.entries(expected)) {
    const seen = new Set();
    for (const [id, parts] of Object.entries(scenes)) {
      const page = await openApp(env, `scene=${id}&lang=${lang}`);
      const words = await page.locator(".step-text").textContent();
      for (const part of parts) assert.ok(words.includes(part), `${id} ${lang}: ${words}`);
      seen.add(words);
      await page.close();
    }
    assert.equal(seen.size, 5, `${lang}: two scenes share one step 1`);
  }
  // the words follow an edit: a fourth word, unnamed, is counted
  const page = await openApp(env, "scene=classroom&lang=en");
  await page.locator("#x-add-rows").click();
  assert.match(await page.locator(".step-text").textContent(), /“你 \(you\)” and “#4”/);
  await page.close();
});

test("the shape buttons say what they do, and which other matrices change with them", async () => {
  const page = await openApp(env, "scene=classroom&lang=en");
  const add = page.getByRole("button", {
    name: "X: Add a column; also a row in W_Q, W_K, W_V",
    exact: true,
  });
  assert.equal(await add.getAttribute("title"), await add.getAttribute("aria-label"));
  await add.click();
  // what the name says is what happens
  const shape = (id) =>
    page
      .locator(`[data-matrix="${id}"] tbody tr`)
      .evaluateAll((rows) => [rows.length, rows[0].querySelectorAll("button.cell").length]);
  assert.deepEqual(await shape("x"), [3, 3]);
  for (const id of ["wq", "wk", "wv"]) assert.deepEqual(await shape(id), [3, 2], id);
  await page.close();
  const zh = await openApp(env, "scene=age&lang=zh");
  const names = await zh
    .locator("button.tool")
    .evaluateAll((b) => b.map((x) => x.getAttribute("aria-label")));
  assert.ok(names.includes("K: 加一行；同时V也加一行"), names.join(" | "));
  assert.ok(names.includes("V: 删去最后一列"), names.join(" | "));
  await zh.close();
});

test("after the last lesson's last step, a recap: what the learner can compute, how it sits inside the models they use, where next", async () => {
  // the last lesson's last lab: the sizes of real models; the recap's sizes are the core's counts
  // of the Tang model's tang.json and of Llama 3 8B's published configuration
  const tang = JSON.parse(readFileSync(new URL("../../web/labs/gpt/tang.json", import.meta.url)));
  const { layers, heads, dModel, vocab } = tang.config;
  const core = await loadLabs();
  const shape = (c) => ({ ...c, kvHeads: c.heads, dHead: c.dModel / c.heads, dFf: 4 * c.dModel });
  const ours = core.modelSize(
    {
      ...shape({ vocab, context: tang.config.context, dModel, layers, heads }),
      mlp: "gelu",
      norm: "layer",
      positions: "rotary",
      tied: true,
      qkvBias: false,
      oBias: false,
      mlpBias: true,
      qkNorm: false,
    },
    { n: 1 },
  ).total;
  assert.equal(ours, 195392); // the Tang model's parameters, as lesson 5 counts them
  for (const [lang, small, words] of [
    [
      "en",
      `The Tang model of lesson 5 has ${layers} layers of ${heads} heads, vectors ${dModel} numbers wide and 195,392 parameters; Llama 3 8B has 32 layers of 32 heads sharing 8 K/V heads, vectors 4,096 wide and 8,030,261,248 parameters, counted in lesson 6 from its published configuration.`,
      [/What you can now compute by hand/, /BPE/, /KV cache/, /d2l\.ai/],
    ],
    [
      "zh",
      `第 5 课的唐诗模型有 ${layers} 层，每层 ${heads} 个头，向量宽 ${dModel} 个数，共 195,392 个参数；Llama 3 8B 有 32 层，每层 32 个头共用 8 个键值头，向量宽 4,096，共 8,030,261,248 个参数，都是第 6 课从公开的配置数出来的。`,
      [/现在你能手算的/, /BPE/, /KV 缓存/, /动手学深度学习/],
    ],
  ]) {
    const page = await openApp(env, `scene=sizes&lang=${lang}`);
    const last = Number((await page.locator("#counter").textContent()).match(/\d+/g).at(-1));
    assert.equal(await page.locator(".recap").count(), 0, `${lang}: a recap at step 1`);
    await page.keyboard.press("End");
    await page.waitForSelector(".recap");
    assert.match(await page.locator("#counter").textContent(), new RegExp(`${last}\\D+${last}`));
    assert.equal(await page.locator("#recap-small").textContent(), small);
    const text = await page.locator(".recap").textContent();
    for (const w of words) assert.match(text, w, lang);
    const links = await page.locator(".recap a").evaluateAll((a) => a.map((x) => x.href));
    assert.ok(
      links.some((h) => h.startsWith("https://d2l.ai/")),
      links.join(" "),
    );
    assert.ok(
      links.some((h) => h.startsWith("https://zh-v2.d2l.ai/")),
      links.join(" "),
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // no recap at the end of any other scene
  const page = await openApp(env, "scene=teach&lang=en");
  await page.keyboard.press("End");
  assert.equal(await page.locator(".recap").count(), 0);
  await page.close();
});
