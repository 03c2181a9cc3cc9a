// bpe.test.mjs: the BPE lab as a learner uses it. In Chinese on a 390 px phone by touch: a preset
// and a typed text change the tokens and the URL; 啊啊啊 on two lines counts 5 places and merges 3
// (worked out here by hand), and the page's sentence, its table and its numbered chips say so; a
// text past the limit is refused inline in Chinese, the tokens before kept and the typed text
// left in its box; nothing is wider than the phone. In English at 1440 px by keyboard only: the
// slider k, the bytes toggle and a new line typed move the words, the table and the URL together,
// and a link with the URL opens the same state.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const text = (page, selector) => page.locator(selector).first().textContent();
const chips = (page) => page.locator(".bpe-text .token").count();
const firstCount = (page) => text(page, '[data-matrix="pairs"] button[data-i="0"][data-j="0"]');

test("zh, 390 px, touch: a preset, a typed text, its counts by hand, a refusal", async () => {
  const page = await openApp(env, "scene=bpe&lang=zh", {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  assert.equal(await text(page, "#step-title"), "1. 你的文字：字符或字节");
  // the Tang lines: one chip per character, line breaks not counted
  assert.match(await text(page, ".step-text"), /这段文字有 180 个字符，共 13 行/);
  assert.equal(await chips(page), 180);
  // the English preset, by touch
  await page.locator("#bpe-preset-english").tap();
  await page.waitForFunction(() =>
    /66 个字符/.test(document.querySelector(".step-text").textContent),
  );
  const english = "the cat sat on the mat.\nthe rat sat on the hat.\nthe cat ate the rat.";
  assert.equal(new URL(page.url()).searchParams.get("text"), english);
  assert.equal(await page.locator("#bpe-text").inputValue(), english);
  assert.equal(await page.locator("#bpe-preset-english").getAttribute("aria-pressed"), "true");
  // a text of one's own: 啊啊啊 and 啊啊啊啊 on two lines
  await page.locator("#bpe-text").fill("啊啊啊\n啊啊啊啊");
  await page.locator("#bpe-use").tap();
  await page.waitForFunction(() =>
    /7 个字符，共 2 行/.test(document.querySelector(".step-text").textContent),
  );
  assert.equal(new URL(page.url()).searchParams.get("text"), "啊啊啊\n啊啊啊啊");
  assert.equal(await chips(page), 7);
  // step 2: 啊啊 at 2 places in the first line and 3 in the second (overlapping ones counted)
  await page.locator("#forward").tap();
  assert.equal(await text(page, "#step-title"), "2. 数出每一对");
  assert.match(
    await text(page, ".step-text"),
    /最多的是 “啊” \+ “啊”：5 次，下面按 1 到 5 标了出来/,
  );
  assert.equal(await firstCount(page), "5");
  assert.deepEqual(await page.locator(".bpe-text .token-mark").allTextContents(), [
    "1",
    "2",
    "3",
    "4",
    "5",
  ]);
  // step 3: merged left to right without overlap, 1 + 2 = 3 places; 7 − 3 = 4 tokens
  await page.locator("#forward").tap();
  const merge = await text(page, ".step-text");
  assert.match(merge, /它的 5 处里，从左到右合并了 3 处。另外 2 处和已经合并的一处重叠/);
  assert.match(merge, /文字从 7 个词元变成 7 − 3 = 4 个/);
  assert.deepEqual(await page.locator(".bpe-text .token-text").allTextContents(), [
    "啊啊",
    "啊",
    "啊啊",
    "啊啊",
  ]);
  // a text past the limit, typed on step 1: refused in Chinese, the tokens before kept
  await page.locator("#back").tap();
  await page.locator("#back").tap();
  await page.locator("#bpe-text").fill("月".repeat(2001));
  await page.locator("#bpe-use").tap();
  await page.waitForFunction(() => /2001/.test(document.querySelector("#app").textContent));
  assert.match(
    await page.locator("#app").textContent(),
    /这段文字有 2001 个字符（换行也算）；这里最多读 2000 个，好让每个词元都能显示出来/,
  );
  assert.equal(await chips(page), 7);
  assert.equal(new URL(page.url()).searchParams.get("text"), "啊啊啊\n啊啊啊啊");
  assert.equal((await page.locator("#bpe-text").inputValue()).length, 2001);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("en, 1440 px, keyboard only: k, bytes, a new line; the URL opens the same state", async () => {
  const page = await openApp(env, "scene=bpe&lang=en&step=2", {
    viewport: { width: 1440, height: 900 },
  });
  assert.match(
    await text(page, ".step-text"),
    /^Merge 1: .* The most frequent is “明” \+ “月”: 9 times/,
  );
  // k from 1 to 3 with the arrow keys
  await page.locator("#merges").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() =>
    /^Merge 3:/.test(document.querySelector(".step-text").textContent),
  );
  assert.equal(new URL(page.url()).searchParams.get("merges"), "3");
  const said = (await text(page, ".step-text")).match(/The most frequent is (.+?): (\d+) times?/);
  assert.equal(said[1], "“不” + “知”");
  assert.equal(await firstCount(page), said[2]);
  assert.equal(await text(page, '[data-matrix="pairs"] th[scope="row"]'), "不 + 知");
  // bytes, from the keyboard: Tab to the toggle, Space
  await page.locator("#merges").focus();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "bytes");
  await page.keyboard.press("Space");
  await page.waitForFunction(() =>
    /EF \+ BC/.test(document.querySelector(".step-text").textContent),
  );
  assert.equal(new URL(page.url()).searchParams.get("bytes"), "1");
  assert.match(
    await text(page, ".step-text"),
    /5 pairs occur 13 times; the rule here takes the one that occurs first/,
  );
  // step 5 (End jumps to the last, ← back one): a new line typed, Enter
  await page.locator("#forward").focus();
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => /^5\./.test(document.querySelector("#step-title").textContent));
  await page.locator("#line").fill("明月");
  await page.locator("#line").press("Enter");
  await page.waitForFunction(() =>
    /Its 2 characters \(6 bytes\)/.test(document.querySelector(".step-text").textContent),
  );
  // 明 E6 98 8E, 月 E6 9C 88: merges 1 (E6 98) and 2 (E6 9C) apply, 6 − 2 = 4 tokens
  assert.match(
    await text(page, ".step-text"),
    /merge 1 \(E6 98, 1 time\), merge 2 \(E6 9C, 1 time\)\. It is 4 tokens\./,
  );
  assert.deepEqual(await page.locator(".bpe-text .token-text").allTextContents(), [
    "E6 98",
    "8E",
    "E6 9C",
    "88",
  ]);
  assert.equal(new URL(page.url()).searchParams.get("line"), "明月");
  // the URL holds it all: opened again, the same words
  const words = await text(page, ".step-text");
  const again = await openApp(env, new URL(page.url()).search.slice(1), {
    viewport: { width: 1440, height: 900 },
  });
  assert.equal(await text(again, ".step-text"), words);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await again.close();
  await page.close();
});
