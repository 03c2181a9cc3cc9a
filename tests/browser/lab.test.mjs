// lab.test.mjs: a lab that lives only in the tests (tests/fixtures/tiny-lab.js) runs in the
// walkthrough beside a built-in scene, with its own parameter, steps, panel and words: a lab
// is new files, not an edit of the walkthrough.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage, switchLanguage } from "./browser.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
let env;
before(async () => (env = await start(repo)));
after(() => env.close());

// softmax([2, 1, 0]) and softmax([1, 0.5, 0]) (T = 2), worked out by hand:
// e² = 7.389056, e¹ = 2.718282, e⁰ = 1, sum 11.107338; e^0.5 = 1.648721, sum 5.367003.
const atT1 = ["0.6652", "0.2447", "0.0900"];
const atT2 = ["0.5065", "0.3072", "0.1863"];

const cells = (page, id) => page.locator(`[data-matrix="${id}"] button.cell`).allTextContents();
const near = (shown, expected) =>
  shown.every((x, i) => Math.abs(Number(x) - Number(expected[i])) <= 0.00005);

test("a test-only lab: its steps, its panel, its parameter and an edit, by keyboard", async () => {
  const page = await openPage(env.browser, `${env.url}tests/browser/pages/lab.html`);
  await page.waitForSelector("#app[data-ready]");
  assert.equal(await page.locator("#scene-title").textContent(), "The softmax of one row");
  assert.equal(await page.locator("#counter").textContent(), "Step 1 of 2");
  assert.equal(await page.locator("#step-title").textContent(), "1. A row");
  await page.locator("#scene-title").click();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator("#step-title").textContent(), "2. Weights");
  assert.ok(near(await cells(page, "weights"), atT1), String(await cells(page, "weights")));
  assert.equal(await page.locator(".bars figcaption").textContent(), "Weights as bars");
  assert.equal(await page.locator("[data-bar]").count(), 3);

  await page.locator("#t").fill("2");
  assert.equal(await page.locator("output[for=t]").textContent(), "T = 2");
  assert.ok(near(await cells(page, "weights"), atT2), String(await cells(page, "weights")));
  assert.equal(await page.evaluate(() => window.walk.state.t), 2);

  await switchLanguage(page, "zh");
  assert.equal(await page.locator("#step-title").textContent(), "2. 权重");
  assert.equal(await page.locator(".bars figcaption").textContent(), "权重条");

  // The built-in scene beside it still runs on the attention lab.
  await page.locator("#scene-dictionary").click();
  assert.equal(await page.locator("#counter").textContent(), "第 1 步，共 6 步");
  await page.locator("#scene-tiny").click();
  assert.equal(await page.evaluate(() => window.walk.state.t), 1, "a fresh start at T = 1");
  await page.locator('[data-matrix="s"] button[data-i="0"][data-j="2"]').click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("2");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowRight");
  await page.locator("#scene-title").click();
  await page.keyboard.press("ArrowRight");
  // softmax([2, 1, 2]): e² / (2e² + e) = 0.4223, e / (2e² + e) = 0.1554.
  assert.ok(near(await cells(page, "weights"), ["0.4223", "0.1554", "0.4223"]));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a lazy lab loads its code and the labs module only when it opens", async () => {
  const page = await openPage(env.browser, `${env.url}tests/browser/pages/lab.html`);
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  await page.waitForSelector("#app[data-ready]");
  const late = (path) => requested.some((p) => p.endsWith(path));
  assert.ok(!late("tiny-lab-lazy.js") && !late("attention-labs.mjs"), String(requested));
  assert.equal(await page.locator("#scene-tiny-lazy").textContent(), "Softmax, loaded late");

  await page.locator("#scene-tiny-lazy").click();
  await page.waitForFunction(() => window.walk.state.scene === "tiny-lazy");
  assert.ok(late("tiny-lab-lazy.js") && late("attention-labs.mjs"), String(requested));
  await page.keyboard.press("ArrowRight");
  // softmax([3, 1]): e³ / (e³ + e) = 1 / (1 + e⁻²) = 0.8808.
  assert.ok(near(await cells(page, "weights"), ["0.8808", "0.1192"]));
  await page.locator("#t").fill("2");
  // softmax([1.5, 0.5]) = 1 / (1 + e⁻¹) = 0.7311.
  assert.ok(near(await cells(page, "weights"), ["0.7311", "0.2689"]));
  await page.locator("#scene-dictionary").click();
  await page.locator("#scene-tiny-lazy").click();
  assert.equal(await page.evaluate(() => window.walk.state.t), 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A lazy lab's code that cannot be fetched (the page was rebuilt since it opened: its chunks have
// new names; or the network dropped) is said in words, with a way out, not as the browser's
// "Failed to fetch dynamically imported module"; the page stays where it was, and a reload opens
// the lab.
test("a lab whose code cannot load says so, offers a reload, and keeps the page as it was", async () => {
  const chunk = /\/chunks\/sharpness-\w+\.js$/;
  for (const lang of ["en", "zh"]) {
    const url = `${env.url}web/index.html?scene=classroom&lang=${lang}&step=3`;
    const page = await openPage(env.browser, url);
    await page.waitForSelector("#app[data-ready]");
    const title = await page.locator("#scene-title").textContent();
    const where = () => page.evaluate(() => [location.search, document.title]);
    const before = await where();
    await page.route(chunk, (route) => route.abort());
    await page.locator("#scene-sharpness").click();
    const notice = page.locator('p.error[role="alert"]');
    await notice.waitFor();
    const text = await notice.textContent();
    assert.doesNotMatch(text, /fetch|import|module/i, text);
    assert.match(text, lang === "en" ? /could not be loaded/ : /没能加载/, text);
    assert.equal(await page.locator("#scene-title").textContent(), title);
    assert.equal(await page.locator("#scrubber").inputValue(), "3");
    assert.deepEqual(await where(), before);
    await page.unroute(chunk);
    await Promise.all([page.waitForEvent("load"), notice.locator("button").click()]);
    await page.waitForSelector("#app[data-ready]");
    await page.locator("#scene-sharpness").click();
    await page.waitForFunction(
      (t) => document.querySelector("#scene-title").textContent !== t,
      title,
    );
    assert.match(page.url(), /scene=sharpness/);
    const errors = page.errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e));
    assert.deepEqual(errors, [], lang);
    await page.close();
  }
});
