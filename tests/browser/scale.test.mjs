// scale.test.mjs: the scale lab runs and plots on this machine. How fast is not tested (that
// is `make bench`): that every figure is a measured time, that the plot draws what the table
// holds, and that it works by keyboard in both languages.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp, switchLanguage } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

test("the scale lab measures n = 64 … 4,096 and plots what it measured", async () => {
  const page = await openApp(env, "scene=scale&lang=en");
  assert.equal(await page.locator("#step-title").textContent(), "1. Time it here");
  assert.equal(await page.locator("#predict").count(), 0, "no numbers to predict");
  assert.equal(await page.locator("#random").count(), 0, "no inputs to change");
  await page.locator("#scale-run").focus();
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("#scale-run").textContent(), "Stop");
  await page.waitForFunction(
    () => document.getElementById("scale-run").textContent === "Measure",
    null,
    { timeout: 300_000 },
  );
  const times = await page.evaluate(() =>
    [...document.querySelectorAll(".scale-table tbody tr")].map((tr) => [
      Number(tr.dataset.n),
      ...[...tr.querySelectorAll("td")].map((td) => td.textContent),
    ]),
  );
  assert.deepEqual(
    times.map((row) => row[0]),
    [64, 128, 256, 512, 1024, 2048, 4096],
  );
  // A line stops before a call that could take over 0.6 s (a busy machine stops it sooner):
  // its figures are times up to there, then dashes.
  const measured = (column) => times.map((row) => row[column]).filter((t) => t !== "–");
  for (const column of [1, 2, 3]) {
    const figures = measured(column);
    assert.ok(figures.length >= 4, `at least up to 512 tokens: ${figures}`);
    assert.ok(
      figures.every((t) => Number(t) > 0),
      String(figures),
    );
    assert.deepEqual(
      times.slice(figures.length).map((row) => row[column]),
      Array(7 - figures.length).fill("–"),
      "dashes only after the last figure",
    );
  }
  assert.equal(times[6][3], "–", "the reference stops at 2,048 tokens");
  const fast = measured(1);
  assert.ok(Number(fast.at(-1)) > Number(fast[0]), "the largest n takes longer than 64");

  await page.keyboard.press("ArrowRight");
  assert.equal(
    await page.locator("#step-title").textContent(),
    "2. Twice the tokens, four times the work",
  );
  const series = (v) =>
    page.locator(`.scale-plot polyline[data-variant=${v}]`).getAttribute("points");
  for (const [column, variant] of [
    [1, "fast"],
    [2, "causal"],
    [3, "reference"],
  ]) {
    assert.equal((await series(variant)).split(" ").length, measured(column).length, variant);
  }
  assert.equal(await page.locator(".scale-plot polyline.guide").count(), 1);

  await switchLanguage(page, "zh");
  assert.equal(await page.locator("#step-title").textContent(), "2. 词元翻倍，工作量翻四倍");
  assert.equal(
    await page.locator(".scale-table caption").textContent(),
    "每次调用的毫秒数，在这台设备上测得",
  );
  assert.equal(
    (await page.locator(".scale-table tbody td").allTextContents()).join(" "),
    times.flatMap((row) => row.slice(1)).join(" "),
    "the figures stay through a language switch",
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("Stop ends a measurement, and the lab answers again", async () => {
  const page = await openApp(env, "scene=scale&lang=en");
  await page.locator("#scale-run").click();
  await page.waitForFunction(() => document.querySelector(".scale-table td")?.textContent !== "–");
  await page.locator("#scale-run").click();
  assert.equal(await page.locator("#scale-run").textContent(), "Measure");
  const filled = await page.locator(".scale-table td:not(:has-text('–'))").count();
  await page.waitForTimeout(1000);
  assert.equal(await page.locator(".scale-table td:not(:has-text('–'))").count(), filled);
  await page.locator("#scene-dictionary").click();
  assert.equal(await page.locator("#counter").textContent(), "Step 1 of 6");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("on a phone the figures' table scrolls in its own box, not the page", async () => {
  for (const lang of ["en", "zh"]) {
    const page = await openApp(env, `scene=scale&lang=${lang}`, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const widths = await page.evaluate(() => ({
      page: document.scrollingElement.scrollWidth,
      box: document.querySelector(".scale-table").parentElement.classList.contains("scroll"),
    }));
    assert.ok(widths.page <= 390, `${lang}: the page is ${widths.page} px wide`);
    assert.ok(widths.box, `${lang}: the table sits in a scroller`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
