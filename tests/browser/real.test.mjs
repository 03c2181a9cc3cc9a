// real.test.mjs: lesson 6 as a learner uses it. Their tokens in Chinese on a 390 px phone by
// touch: the chips read the token counts the tokenizers' own packages give (called here), a preset
// and a typed text change them and the URL, a text past the limit is refused inline in Chinese and
// the tokens before stay. Their sizes in English at 1440 px by keyboard: the context slider moves
// the sentence and the URL, a head is timed on this machine, and the times go when n changes (they
// were for another n). The vocabularies load only when the tokens lab opens.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { encode as gpt2Encode } from "gpt-tokenizer/encoding/r50k_base";
import { start, openApp, openPage } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const text = (page, selector) => page.locator(selector).first().textContent();
const chips = (page, model) =>
  page.locator(`[data-model="${model}"] .token-text`).allTextContents();

test("their tokens: zh, 390 px, touch: presets, a typed text, one refused", async () => {
  const page = await openApp(env, "scene=tokens&lang=zh", {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  assert.equal(await text(page, "#step-title"), "1. 模型读的是数");
  // the Tang model: a character a token, 你 unknown to it
  assert.equal(await text(page, '[data-model="ours"] figcaption'), "唐诗模型：3 个词元");
  assert.deepEqual(await chips(page, "ours"), ["我", "爱", "�"]);
  assert.deepEqual(await page.locator('[data-model="ours"] .token-bytes').allTextContents(), [
    "E6 88 91",
    "E7 88 B1",
    "E4 BD A0",
  ]);
  // the mixed preset, by touch
  await page.locator("#tokens-preset-mixed").tap();
  const mixed = "我爱 attention，123 😀！";
  await page.waitForFunction((t) => document.querySelector("#text").value === t, mixed);
  assert.equal(new URL(page.url()).searchParams.get("text"), mixed);
  assert.equal(await page.locator('[data-model="ours"] .token').count(), [...mixed].length);
  assert.equal(await page.locator("#tokens-preset-mixed").getAttribute("aria-pressed"), "true");
  // step 2: GPT-2's tokens, as many as its own package makes
  await page.locator("#forward").tap();
  assert.equal(await text(page, "#step-title"), "2. GPT-2：字节，和字的碎片");
  const count = gpt2Encode(mixed).length;
  assert.equal(await text(page, '[data-model="gpt2"] figcaption'), `GPT-2：${count} 个词元`);
  assert.match(await text(page, ".step-text"), new RegExp(`是 ${count} 个词元`));
  // a typed text: not read while it is typed, and the hint under the box says how, marked
  await page.locator("#text").fill("明月");
  assert.equal(await text(page, "#text-how"), "按回车键或离开输入框，读入你输入的文字。");
  assert.equal(await page.locator("#text-how").getAttribute("data-unread"), "");
  assert.equal(await text(page, '[data-model="gpt2"] figcaption'), `GPT-2：${count} 个词元`);
  await page.locator("#text").press("Enter");
  const own = gpt2Encode("明月").length;
  await page.waitForFunction(
    (c) => document.querySelector('[data-model="gpt2"] figcaption').textContent === c,
    `GPT-2：${own} 个词元`,
  );
  assert.equal(await page.locator("#text-how").getAttribute("data-unread"), null);
  assert.equal(await text(page, '[data-model="gpt2"] figcaption'), `GPT-2：${own} 个词元`);
  // a text past the limit: refused in Chinese, the tokens before kept
  await page.locator("#text").fill("月".repeat(2001));
  await page.locator("#text").press("Enter");
  await page.waitForFunction(() => /2001/.test(document.querySelector("#app").textContent));
  assert.match(
    await page.locator("#app").textContent(),
    /这段文字有 2001 个字符；这里最多读 2000 个，好让每个词元都能显示出来/,
  );
  assert.equal(await text(page, '[data-model="gpt2"] figcaption'), `GPT-2：${own} 个词元`);
  // the tokens wrap: nothing wider than the phone, on this step and on the last, whose
  // choice of a matrix to check names its matrices in full (it stuck out by a pixel)
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  await page.locator("#forward").tap();
  await page.locator("#forward").tap();
  await page.locator("#forward").tap();
  assert.equal(await text(page, "#step-title"), "5. 代价：上下文");
  await page.locator("#check-matrix").waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("their sizes: en, 1440 px, keyboard: the context, a head timed here, the times not kept for another n", async () => {
  const page = await openApp(env, "scene=sizes&lang=en&step=3", {
    viewport: { width: 1440, height: 900 },
  });
  assert.match(await text(page, ".step-text"), /536,870,912 at n = 4,096/);
  // the slider, by keyboard: 4,096 → 1,024
  await page.locator("#n").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() =>
    /at n = 1,024/.test(document.querySelector(".step-text").textContent),
  );
  assert.match(await text(page, ".step-text"), /134,217,728 at n = 1,024/); // 131,072 × 1,024
  assert.equal(new URL(page.url()).searchParams.get("n"), "1024");
  // the last step: time it
  await page.locator("#scene-title").click();
  await page.keyboard.press("End");
  assert.equal(await text(page, "#step-title"), "5. One real-size head, timed here");
  assert.equal(await text(page, "#sizes-measure"), "Time it at n = 1,024");
  await page.locator("#sizes-measure").focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("#sizes-times", { timeout: 60000 });
  const head = await text(page, "#sizes-head-time");
  const token = await text(page, "#sizes-token-time");
  const ms = (s) => Number(s.match(/: ([\d.]+) ms/)[1]);
  assert.match(
    head,
    /^One head, one query against 1,024 keys: [\d.]+ ms \(the median of 15 calls\)$/,
  );
  const [, total, each] = token.match(
    /^The same head 28 × 28 = 784 times, as Qwen2\.5 7B does for one token: ([\d.]+) ms in all, timed as the 784 calls ran, ([\d.]+) ms a call on average \(not 784 × the median: a machine's load changes from call to call\)$/,
  );
  assert.ok(ms(head) > 0 && Number(total) > 0, `${head} | ${token}`);
  // the average is the total over the 784 calls, at the decimals shown
  const decimals = (x) => (x.split(".")[1] ?? "").length;
  assert.ok(
    Math.abs(Number(total) / 784 - Number(each)) <=
      0.5 * 10 ** -decimals(each) + (Number(total) * 0.5 * 10 ** -decimals(total)) / 784,
    token,
  );
  // another n: those times were not for it, so they go
  await page.locator("#n").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() =>
    /4,096/.test(document.querySelector("#sizes-measure").textContent),
  );
  assert.equal(await page.locator("#sizes-times").count(), 0);
  // past the longest a head can be timed: the button is off and says why, no error (it once
  // threw and stayed 'Measuring…' with Stop doing nothing)
  await page.keyboard.press("End");
  await page.waitForFunction(() =>
    /32,768/.test(document.querySelector("#sizes-measure").textContent),
  );
  assert.equal(await page.locator("#sizes-measure").isDisabled(), true);
  assert.equal(
    await text(page, "#sizes-too-long"),
    "n = 32,768 is past what this page's core times: one head takes at most 8,192 keys. Pick n of 8,192 or less to time it; the tables above count any n.",
  );
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => !document.querySelector("#sizes-measure").disabled);
  assert.equal(await text(page, "#sizes-measure"), "Time it at n = 8,192");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the vocabularies load only when the tokens lab opens", async () => {
  const page = await openPage(env.browser, `${env.url}?lang=en`);
  const fetched = [];
  page.on("response", (r) => fetched.push(r.url()));
  await page.waitForSelector("#app[data-ready]");
  await page.waitForLoadState("networkidle");
  const vocab = (urls) =>
    urls.filter((u) => /r50k_base|o200k_base|tokenizer-qwen3|\/main-/.test(u));
  assert.deepEqual(vocab(fetched), []);
  await page.locator("#scene-tokens").first().click();
  await page.waitForSelector('[data-model="ours"]');
  // GPT-2's vocabulary came with the lab; GPT-4o's and Qwen3's arrive after it is drawn, and
  // Qwen3's step shows its tokens once they are in
  assert.ok(vocab(fetched).some((u) => /r50k_base/.test(u)));
  for (let k = 0; k < 3; k++) await page.locator("#forward").click();
  assert.equal(await text(page, "#step-title"), "4. Qwen3: Chinese words whole");
  await page.waitForSelector('[data-model="qwen3"]');
  assert.equal(await text(page, '[data-model="qwen3"] figcaption'), "Qwen3: 1 token");
  assert.match(
    await text(page, ".step-text"),
    /Your 3 characters are 1 token, 0\.3333 per character/,
  );
  assert.equal(vocab(fetched).length, 3, fetched.join("\n"));
  assert.equal(new URL(page.url()).searchParams.get("loaded"), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the vocabularies' arrival changes nothing the learner did: a refusal's message and a picked cell stay", async () => {
  const page = await openApp(env, "scene=tokens&lang=en&step=5", {
    viewport: { width: 1440, height: 900 },
  });
  const rows = () => page.locator('[data-matrix="counts"] th[scope="row"]').allTextContents();
  // before GPT-4o's and Qwen3's vocabularies are in: pick a cell, send a text that is refused
  await page.locator('[data-matrix="counts"] button.cell').first().click();
  await page.locator("#text").fill("a".repeat(2001));
  await page.locator("#text").press("Enter");
  await page.waitForFunction(() =>
    /2001 characters/.test(document.querySelector("#app").textContent),
  );
  // then they arrive, and the table is drawn again with them
  await page.waitForFunction(
    () => document.querySelectorAll('[data-matrix="counts"] th[scope="row"]').length === 4,
  );
  assert.deepEqual(await rows(), ["Tang model", "GPT-2", "GPT-4o", "Qwen3"]);
  assert.match(await page.locator("#app").textContent(), /the text has 2001 characters/);
  assert.equal(new URL(page.url()).searchParams.get("cell"), "counts.0.0");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a vocabulary that cannot load is said where it would show, in both languages", async () => {
  for (const [lang, said] of [
    ["en", /^GPT-4o's vocabulary could not be loaded \(is the network down\?\)/],
    ["zh", /^GPT-4o 的词表没能加载（网络断了吗？）/],
  ]) {
    const page = await openPage(env.browser, "about:blank");
    await page.route(/o200k_base/, (route) => route.abort());
    await page.goto(`${env.url}?scene=tokens&lang=${lang}&step=3`);
    await page.waitForSelector("#app[data-ready]");
    await page.waitForFunction(() =>
      /could not be loaded|没能加载/.test(document.body.textContent),
    );
    assert.match(await text(page, ".step-text"), said);
    // the page itself goes on: GPT-2's step draws its tokens
    await page.locator("#back").click();
    await page.waitForSelector('[data-model="gpt2"]');
    await page.close();
  }
});
