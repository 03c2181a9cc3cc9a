// learn.test.mjs: the "how it learns" labs in Chromium as a learner uses them: opened from a
// walkthrough's "made by hand" note, stepped with the trainer's buttons from the keyboard, in
// both languages, at 1440 and 390 px; every "=" in a gradient's derivation holds as shown
// (tests/node/shown.mjs); predict mode; a few steps of training lower the loss; the exported
// PyTorch script (autograd) prints the page's numbers. Expected values are worked out here:
// output(α) = 19 + 3/(3e^{α/√3} + 1) for the age lookup.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, openApp } from "./browser.mjs";
import { checkLine } from "../node/shown.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const open = (query, options) => openApp(env, query, options);
const text = (page, selector) => page.locator(selector).first().textContent();
const cell = (page, id, i = 0, j = 0) =>
  page.locator(`[data-matrix="${id}"] button[data-i="${i}"][data-j="${j}"]`);
const number = (t) => Number(t.replace("−", "-"));
const url = (page) => new URL(page.url()).searchParams;

// output(α), the loss and dL/dα of the age lookup, by hand
const output = (a) => 19 + 3 / (3 * Math.exp(a / Math.sqrt(3)) + 1);
const loss = (a, target = 19) => (output(a) - target) ** 2;
const slope = (a, target = 19) => (loss(a + 1e-6, target) - loss(a - 1e-6, target)) / 2e-6;

test("a walkthrough made by hand says so and opens Teach 书 to read in place", async () => {
  for (const [lang, words] of [
    ["en", /chosen by hand/],
    ["zh", /手工挑选/],
  ]) {
    const page = await open(`scene=classroom&lang=${lang}`);
    assert.match(await text(page, ".about-wide .hand-made"), words);
    await page.locator('.about-wide .hand-made a[data-scene-link="teach"]').click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("scene") === "teach");
    await page.waitForSelector("#trainer-status");
    assert.match(
      await text(page, "#scene-title"),
      lang === "en" ? /^Teach 书 to read/ : /^教“书”去读/,
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // the labs that learn, or measure, say nothing of the kind
  const page = await open("scene=scaling&lang=en");
  assert.equal(await page.locator(".hand-made").count(), 0);
  await page.close();
});

test("learn the sharpness: the chain at α = 1, the trainer from the keyboard, every = as shown", async () => {
  const page = await open("scene=sharpness&lang=en&step=2&digits=4", {
    viewport: { width: 1440, height: 900 },
  });
  assert.equal(number(await cell(page, "dAlpha").textContent()), Number(slope(1).toFixed(4)));
  assert.equal(await cell(page, "dAlpha").textContent(), "−0.2175");
  assert.equal(number(await cell(page, "output").textContent()), Number(output(1).toFixed(4)));
  // every cell's derivation holds at the precision shown
  let lines = 0;
  for (const id of ["dOutput", "dWeights", "rowDot", "dScaled", "dScores", "dAlpha"]) {
    const count = await page.locator(`[data-matrix="${id}"] button.cell`).count();
    for (let j = 0; j < count; j++) {
      await cell(page, id, 0, j).click();
      for (const line of await page.locator(".derivation code").allTextContents()) {
        const r = checkLine(line, 4);
        if (!r) continue;
        assert.ok(r.holds, `${line} (worked ${r.worked})`);
        lines++;
      }
    }
  }
  assert.ok(lines >= 12, `${lines} lines`);
  // Step from the keyboard: α moves to 1 − 10·dL/dα
  await page.locator("#train-step").focus();
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    () => document.querySelector("#trainer-status")?.textContent === "Training step 2 of 20.",
  );
  assert.equal(url(page).get("at"), "2");
  const alpha2 = 1 - 10 * slope(1);
  assert.equal(number(await cell(page, "dAlpha").textContent()), Number(slope(alpha2).toFixed(4)));
  await page.locator("#train-reset").click();
  await page.waitForFunction(
    () => document.querySelector("#trainer-status")?.textContent === "Training step 1 of 20.",
  );
  // the update step writes α ← α − η·dL/dα out
  await page.locator("#forward").click();
  await page.waitForFunction(() =>
    document.querySelector("#step-title")?.textContent.startsWith("3."),
  );
  await cell(page, "next").click();
  const update = await page.locator(".derivation code").allTextContents();
  assert.match(update.join("\n"), /α − η × dL\/dα = 1 − 10 × \(−0\.2175\d*\) = 3\.1752/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("learn the sharpness: the finite target is reached, and the curve's numbers are the core's", async () => {
  const page = await open("scene=sharpness&lang=en&step=4&finite=1&eta=20&steps=25&digits=4");
  // α* = √3·ln(14/3): its loss is 0 to 4 decimals after 25 steps
  const table = await page.locator("#loss-plot table tr").allTextContents();
  assert.equal(table.length, 26);
  let a = 1;
  for (let t = 0; t < 25; t++) {
    const row = await page
      .locator("#loss-plot table tr")
      .nth(t + 1)
      .locator("td")
      .allTextContents();
    assert.equal(number(row[0]), Number(loss(a, 19.2).toFixed(4)), `step ${t + 1}`);
    a -= 20 * slope(a, 19.2);
  }
  assert.ok(Math.abs(a - Math.sqrt(3) * Math.log(14 / 3)) < 1e-3);
  assert.match(await text(page, "#sharpness-summary"), /^At step 25, the last, α = 2\.66\d\d/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("learn the sharpness in Chinese on a phone: no sideways scroll, the words are Chinese", async () => {
  const page = await open("scene=sharpness&lang=zh&step=2", {
    viewport: { width: 390, height: 844 },
  });
  assert.match(await text(page, "#step-title"), /沿着链式法则求梯度/);
  assert.equal(await text(page, "#train-step"), "走一步");
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("predict mode: the update stays hidden until the learner says which way α moves", async () => {
  const page = await open("scene=sharpness&lang=en&step=3&predict=1");
  assert.equal(await cell(page, "next").textContent(), "?");
  await page.locator(".choices label", { hasText: "it grows" }).click();
  await page.locator("#check").click();
  assert.match(await text(page, ".choices .verdict"), /^✓/);
  assert.equal(await cell(page, "next").textContent(), "3.1752");
  await page.close();
});

test("teach 书 to read: training in the page lowers the loss, and the gradient's terms add up", async () => {
  const page = await open("scene=teach&lang=en&step=1&steps=20");
  const first = number(await cell(page, "loss").textContent());
  const weight = number(await cell(page, "weights", 0, 4).textContent());
  // a cross-entropy: L = −ln weights[书][读]
  assert.ok(Math.abs(first + Math.log(weight)) < 5e-3, `${first} vs −ln ${weight}`);
  await page.locator("#train-play").click();
  await page.waitForFunction(
    () => document.querySelector("#trainer-status")?.textContent === "Training step 20 of 20.",
    null,
    {
      timeout: 20_000,
    },
  );
  const last = number(await cell(page, "loss").textContent());
  assert.ok(last < first / 2, `${first} → ${last}`);
  // the gradient step: an entry of dW_K as the sum of its terms
  await page.locator("#step-title").click();
  await page.keyboard.press("ArrowRight");
  await cell(page, "dwk", 3, 0).click();
  const lines = await page.locator(".derivation code").allTextContents();
  const sums = lines.map((l) => checkLine(l, 4)).filter(Boolean);
  assert.ok(sums.length >= 1 && sums.every((r) => r.holds), lines.join("\n"));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the PyTorch script of the sharpness lab uses autograd and prints the page's α", async () => {
  const page = await open("scene=sharpness&lang=en&step=4&steps=5&digits=6");
  await page.evaluate(() =>
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true }),
  );
  await page.locator("#export-pytorch").click();
  await page.waitForSelector("#export-script");
  const script = await page.locator("#export-script").inputValue();
  assert.match(script, /loss\.backward\(\)/);
  const file = join(mkdtempSync(join(tmpdir(), "learn-")), "script.py");
  writeFileSync(file, script);
  const printed = execFileSync("/usr/bin/python3", [file], { encoding: "utf8" }).trim().split("\n");
  let a = 1;
  for (let t = 0; t < 5; t++) a -= 10 * slope(a);
  assert.equal(printed.at(-1), `alpha ${a.toFixed(6)}`);
  await page.close();
});

test("teach, as the learner pass found it: predict hides dW's pictures, phones fit, the text follows the start, t stops at N", async () => {
  const predict = await open("scene=teach&lang=en&step=2&predict=1");
  assert.equal(await predict.locator(".heatmap.signed").count(), 0, "no answers in pictures");
  await predict.locator(".choices label", { hasText: "is a thing" }).click();
  await predict.locator("#check").click();
  assert.equal(await predict.locator(".heatmap.signed").count(), 2, "shown once answered");
  await predict.close();
  const phone = await open("scene=teach&lang=zh&step=2", { viewport: { width: 390, height: 844 } });
  const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide`);
  await phone.close();
  // step 1 of the hand-made start says so; shown at step 5, the words say where the run is
  const start = await open("scene=teach&lang=en&step=1&hand=1&eta=0.7&steps=5&at=1");
  assert.match(
    await text(start, ".step-text"),
    /^Training step 1 of 5, η = 0\.7\. Before training, W_Q is the book scene's hand-made one/,
  );
  await start.close();
  const hand = await open("scene=teach&lang=en&step=1&hand=1&eta=0.7&steps=5&at=9");
  assert.match(
    await text(hand, ".step-text"),
    /^Training step 5 of 5, η = 0\.7\. After 4 updates of W_Q and W_K, 书 gives 读 0\.\d{4} of its weight/,
  );
  assert.equal(await hand.locator("#at").getAttribute("max"), "5");
  assert.equal(await text(hand, "output[for=at]"), "t = 5");
  await hand.emulateMedia({ media: "print" });
  await hand.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  assert.match(await text(hand, ".worksheet"), /η = 0\.7/, "the worksheet says η");
  assert.deepEqual(hand.errors, []);
  await hand.close();
});
