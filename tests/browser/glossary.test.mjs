// glossary.test.mjs: the glossary (web/i18n/glossary.js) on the page, in Chromium. Every scene and lab,
// at every step, in English and in Chinese: each technical word a learner reads in the prose
// (paragraphs, list items, captions) has an entry, and the first time an entry's word appears
// it is the button that opens that entry, the only one; no word of the list of synonyms the page
// gave up appears anywhere. An entry opens from the keyboard and closes with Escape, back to its
// word; the whole glossary opens from the header; every entry's link leads to a step that uses
// the word; at 390 px the panel fits the screen; axe-core with the panel open. The training's
// announcements are gpt-lab.test's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { start, openApp } from "./browser.mjs";
import { scenes } from "../../web/catalogue.js";
import { glossary, whereHref } from "../../web/i18n/glossary.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

const open = (query, options) => openApp(env, query, options);
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const langs = ["en", "zh"];

// The technical words the page uses, each of which must have an entry wherever it appears,
// written here apart from the glossary's own patterns: English words, Chinese regular
// expressions (a single character such as 值 or 头 only where it means the thing: not 数值, 开头).
const technical = {
  en: [
    "the core",
    "concat",
    "W_O",
    "variance",
    "one-hot",
    "MLP",
    "embedding",
    "d_head",
    "h_kv",
    "token",
    "vocabulary",
    "query",
    "queries",
    "key",
    "value",
    "score",
    "dot product",
    "softmax",
    "weight",
    "output",
    "mask",
    "head",
    "KV cache",
    "RoPE",
    "logit",
    "probability",
    "temperature",
    "loss",
    "cross-entropy",
    "nats",
    "held-out",
    "training step",
    "learning rate",
    "gradient",
    "AdamW",
    "LayerNorm",
    "residual stream",
    "dropout",
    "seed",
    "transformer",
  ],
  zh: [
    "核心",
    "concat",
    "W_O",
    "方差",
    "独热",
    "MLP",
    "嵌入",
    "d_head",
    "h_kv",
    "词元",
    "词表",
    "查询",
    "键(?!盘)",
    "值(?=向量| ?V|（V)|(?<=[的键])值",
    "分数",
    "点积",
    "softmax",
    "权重",
    "输出",
    "掩码",
    "(?<=[多个询值])头",
    "KV ?缓存",
    "RoPE",
    "logit",
    "概率",
    "温度",
    "损失",
    "交叉熵",
    "nats",
    "留出",
    "训练步",
    "学习率",
    "梯度",
    "AdamW",
    "LayerNorm",
    "残差流",
    "dropout",
    "种子",
    "[Tt]ransformer",
    "奈特",
  ],
};

// Words the page no longer uses, each for a thing that has one word now; and the build's
// commands, which are the maintainers' words, not a learner's.
const forbidden = {
  en: [
    /\bRandom set\b/,
    /\bSampling seed\b/,
    /\bRandom start\b/,
    /\bseed article\b/i,
    /\bmake train\b/,
  ],
  zh: [
    // the unit of a loss is 奈特 on the Chinese page (issue 39)
    /\bnats\b/,
    /随机组/,
    /随机起点/,
    /采样种子/,
    /[\u4e00-\u9fff] ?tokens?\b|\btokens? ?[\u4e00-\u9fff]/,
    /\bmake train\b/,
  ],
};

// In the page: the prose's text nodes that are drawn, in reading order, each with the term its button names
// (or null); then, for every pattern, where it first matches, and every term button.
function readProse({ sources, flags }) {
  const main = document.getElementById("main");
  const prose = "p, li, figcaption, dd";
  const not =
    "a, button:not(.term), label, select, option, textarea, input, svg, summary, table, h1, h2, h3, h4, h5, h6, pre, code, [aria-hidden='true'], .visually-hidden, [aria-live], [role='status'], [data-glossary='off']";
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (p.closest(prose) && !p.closest(not) && p.checkVisibility()) nodes.push(n);
  }
  const firsts = {};
  for (const [id, source] of Object.entries(sources)) {
    const pattern = new RegExp(source, flags);
    for (const n of nodes) {
      const m = n.data.match(pattern);
      if (!m) continue;
      const button = n.parentElement.closest("button.term");
      firsts[id] = {
        word: m[0],
        text: n.data,
        linkedAs: button?.dataset.term ?? null,
        whole: button ? button.textContent === m[0] : false,
      };
      break;
    }
  }
  const buttons = [...main.querySelectorAll("button.term")].map((b) => ({
    id: b.dataset.term,
    expanded: b.getAttribute("aria-expanded"),
    controls: b.getAttribute("aria-controls"),
  }));
  const text = nodes.map((n) => n.data).join(" ");
  return { firsts, buttons, text, all: document.getElementById("app").textContent };
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("every scene and lab, every step, both languages: each word linked where it first appears, and once", async () => {
  for (const lang of langs) {
    const flags = lang === "en" ? "i" : "";
    const sources = Object.fromEntries(glossary.map((e) => [e.id, e[lang].match]));
    const patterns = glossary.map((e) => new RegExp(e[lang].match, flags));
    const words = Object.fromEntries(
      technical[lang].map((w) => [w, lang === "en" ? String.raw`\b${escape(w)}(?:s|es)?\b` : w]),
    );
    for (const { id } of scenes) {
      const page = await open(`scene=${id}&lang=${lang}`);
      const count = Number(await page.locator("#scrubber").getAttribute("max"));
      for (let step = 1; step <= count; step += 1) {
        const where = `${lang} ${id} step ${step}`;
        const seen = await page.evaluate(readProse, { sources, flags });
        // every entry's first word is its button, all of it; one button per entry
        for (const [term, first] of Object.entries(seen.firsts)) {
          assert.equal(first.linkedAs, term, `${where}: "${first.word}" in “${first.text}”`);
          assert.ok(first.whole, `${where}: ${term}'s button is more or less than its word`);
        }
        const ids = seen.buttons.map((b) => b.id);
        assert.deepEqual([...ids].sort(), Object.keys(seen.firsts).sort(), `${where}: ${ids}`);
        for (const b of seen.buttons) {
          assert.equal(b.controls, "glossary-panel", where);
          assert.equal(b.expanded, "false", where);
        }
        // every technical word the prose uses is one of an entry's words: inside a match of
        // an entry's pattern (the entries' matches found once a step)
        const entries = patterns.flatMap((p) =>
          [...seen.text.matchAll(new RegExp(p.source, `g${flags}`))].map((e) => [
            e.index,
            e.index + e[0].length,
          ]),
        );
        for (const [word, source] of Object.entries(words)) {
          const re = new RegExp(source, `g${flags}`);
          for (const m of seen.text.matchAll(re)) {
            const around = seen.text.slice(Math.max(0, m.index - 12), m.index + m[0].length + 12);
            const end = m.index + m[0].length;
            const covered = entries.some(([from, to]) => from <= m.index && to >= end);
            assert.ok(covered, `${where}: “${word}” has no entry, in “…${around}…”`);
          }
        }
        for (const re of forbidden[lang]) assert.doesNotMatch(seen.all, re, where);
        if (step < count) {
          await page.locator("#main").focus();
          await page.keyboard.press("ArrowRight");
          await page.waitForFunction(
            (n) => document.querySelector("#scrubber").value === n,
            String(step + 1),
          );
        }
      }
      assert.deepEqual(page.errors, [], `${lang} ${id}`);
      await page.close();
    }
  }
});

test("an entry opens from the keyboard, reads as a dialog, and Escape takes the focus back to its word", async () => {
  for (const lang of langs) {
    const page = await open(`scene=classroom&lang=${lang}&step=2`);
    const word = page.locator('button.term[data-term="query"]');
    await word.focus();
    await page.keyboard.press("Enter");
    const panel = page.locator("#glossary-panel");
    assert.equal(await panel.isVisible(), true);
    assert.equal(await panel.getAttribute("role"), "dialog");
    assert.equal(await word.getAttribute("aria-expanded"), "true");
    const entry = glossary.find((e) => e.id === "query")[lang];
    assert.equal(await page.locator("#glossary-title").textContent(), entry.term);
    const body = await panel.textContent();
    assert.ok(body.includes(entry.text) && body.includes(entry.formula), body);
    assert.equal(await page.evaluate(() => document.activeElement.id), "glossary-panel");
    await page.keyboard.press("Escape");
    assert.equal(await panel.isVisible(), false);
    assert.equal(await word.getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.term), "query");
    // Space opens it too; Escape closes it from anywhere on the page, and the close button
    await page.keyboard.press(" ");
    assert.equal(await panel.isVisible(), true);
    await page.locator("#step-title").focus();
    await page.keyboard.press("Escape");
    assert.equal(await panel.isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.term), "query");
    await page.keyboard.press(" ");
    await page.locator(".glossary-close").click();
    assert.equal(await panel.isVisible(), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("the whole glossary from the header; each entry's link leads to a step that uses the word", async () => {
  for (const lang of langs) {
    const page = await open(`scene=classroom&lang=${lang}`);
    await page.locator("#glossary-open").click();
    const items = page.locator(".glossary-index > li");
    assert.equal(await items.count(), glossary.length);
    // the entries by the step they link to: each step opened once
    const byHref = new Map();
    for (const [k, entry] of glossary.entries()) {
      const item = items.nth(k);
      assert.equal(await item.locator("h3").textContent(), entry[lang].term);
      const href = await item.locator("a").getAttribute("href");
      assert.equal(href, whereHref(entry, lang));
      byHref.set(href, [...(byHref.get(href) ?? []), entry]);
    }
    for (const [href, entries] of byHref) {
      const there = await open(href.slice(1));
      const shown = await there.locator("#main").innerText();
      for (const entry of entries) {
        const word = new RegExp(entry[lang].match, lang === "en" ? "i" : "");
        assert.match(shown, word, `${lang} ${entry.id}: ${href}`);
      }
      assert.deepEqual(there.errors, []);
      await there.close();
    }
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => document.activeElement.id), "glossary-open");
    await page.close();
  }
});

test("at 390 px the panel fits the screen and the words are tappable", async () => {
  const page = await open("scene=classroom&lang=zh&step=3", {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const word = page.locator("#main button.term").first();
  await word.tap();
  assert.equal(await word.getAttribute("aria-expanded"), "true");
  const box = await page.locator("#glossary-panel").boundingBox();
  assert.ok(
    box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844,
    JSON.stringify(box),
  );
  const close = await page.locator(".glossary-close").boundingBox();
  assert.ok(close.width >= 44 && close.height >= 44, JSON.stringify(close));
  assert.equal(
    await page.evaluate(() => document.documentElement.scrollWidth),
    390,
    "nothing wider than the screen",
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("axe-core finds nothing serious with an entry open, nor with the whole glossary", async () => {
  for (const lang of langs) {
    const page = await open(`scene=classroom&lang=${lang}&step=3`);
    await page.evaluate(readFileSync(axePath, "utf8"));
    for (const opener of ["#main button.term", "#glossary-open"]) {
      await page.locator(opener).first().click();
      const result = await page.evaluate(() => window.axe.run(document));
      const bad = result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0].target}`);
      assert.deepEqual(bad, [], `${lang} ${opener}`);
      await page.keyboard.press("Escape");
    }
    await page.close();
  }
});
