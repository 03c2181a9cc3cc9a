// multihead.test.mjs: "A real model" in Chromium as a learner uses it: the weights load when the
// lab opens; every layer's and head's heatmap on the line; a head picked from the grid and from
// the URL; a cell's derivation holds as shown (tests/node/shown.mjs); a typed line; the top five
// and a generated line; a few seconds of training in the tab lower the loss while the page
// answers; both languages, 1440 and 390 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { start, openApp } from "./browser.mjs";
import { checkLine } from "../node/shown.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const json = JSON.parse(readFileSync(new URL("../../web/labs/gpt/tang.json", import.meta.url)));
const { layers, heads } = json.config;
const open = (query, options) => openApp(env, query, options);
const text = (page, selector) => page.locator(selector).first().textContent();
const cell = (page, id, i = 0, j = 0) =>
  page.locator(`[data-matrix="${id}"] button[data-i="${i}"][data-j="${j}"]`);
const url = (page) => new URL(page.url()).searchParams;

test("the weights load only when the lab opens", async () => {
  const page = await open("scene=classroom&lang=en");
  const asked = [];
  page.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await page.locator("#scene-model").click();
  await page.waitForSelector("#model-unknown");
  assert.ok(
    asked.some((p) => p.endsWith("/labs/gpt/tang.bin")),
    asked.join(" "),
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("every head's heatmap, one picked from the grid, its numbers made as shown", async () => {
  for (const [lang, width] of [
    ["en", 1440],
    ["zh", 390],
  ]) {
    const page = await open(`scene=model&lang=${lang}&step=2`, {
      viewport: { width, height: 900 },
    });
    assert.equal(await page.locator(".head-pick").count(), layers * heads);
    await page.locator(`#head-2-3`).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("head") === "3");
    assert.equal(url(page).get("layer"), "2");
    assert.equal(await page.locator("#head-2-3").getAttribute("aria-pressed"), "true");
    // the chosen head's weights, a cell's derivation: the softmax, every = as shown
    await cell(page, "weights", 5, 2).click();
    let lines = 0;
    for (const line of await page.locator(".derivation code").allTextContents()) {
      const r = checkLine(line, 4);
      if (!r) continue;
      assert.ok(r.holds, `${line} (worked ${r.worked})`);
      lines++;
    }
    assert.ok(lines >= 3, `${lines} lines`);
    assert.equal(url(page).get("cell"), "weights.5.2");
    // nothing wider than the phone
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `${wide} px`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("a typed line: its tokens, the URL holds it, an unknown character says so", async () => {
  const page = await open("scene=model&lang=en");
  const line = page.locator("#line");
  await line.fill("床前明月光，疑是地上霜。");
  await line.press("Enter");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("line") !== null);
  assert.equal(url(page).get("line"), "床前明月光，疑是地上霜。");
  assert.match(await text(page, ".model-tokens figcaption"), /^13 tokens/);
  await line.fill("月光é");
  await line.press("Enter");
  await page.waitForFunction(() =>
    /unknown/.test(document.querySelector("#model-unknown").textContent),
  );
  assert.match(await text(page, "#model-unknown"), /One character is unknown/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the next character's top five, derivable, and a generated line", async () => {
  const page = await open("scene=model&lang=zh&step=5&temperature=0");
  assert.equal(await page.locator('[data-matrix="probs"] button.cell').count(), 5);
  await cell(page, "probs", 0, 1).click();
  const lines = await page.locator(".derivation code").allTextContents();
  const checked = lines.map((l) => checkLine(l, 4)).filter(Boolean);
  assert.ok(checked.length >= 1 && checked.every((r) => r.holds), lines.join("\n"));
  // the line, and what the model writes after it
  const line = await page.locator("#line").inputValue();
  const generated = await text(page, "#generated .poem");
  assert.ok(generated.startsWith(line) && generated.length > line.length + 2, generated);
  assert.match(await page.locator(".why-note").last().textContent(), /仿作/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("train it yourself: a few seconds lower the loss; the page answers; Stop and Resume", async () => {
  const page = await open("scene=model&lang=en&step=6", {
    viewport: { width: 1440, height: 900 },
  });
  await page.locator("#train-start").click();
  // the held-out loss at step 1 and at step 50
  await page.waitForFunction(() => document.querySelectorAll("#train-plot td").length >= 2, null, {
    timeout: 90000,
  });
  // the page answers while it trains: Stop is heard, and no step is taken after it (how fast
  // it answers is make bench's to measure, not a test's)
  await page.locator("#train-stop").click();
  // the worker stops, sends its weights and says so: the run is paused then
  await page.waitForFunction(() => !document.querySelector("#train-start").disabled);
  const status = await text(page, "#train-status");
  await page.waitForTimeout(500);
  assert.equal(await text(page, "#train-status"), status, "no step after Stop");
  const m = status.match(
    /^Paused at training step (\d+) of \d+; training loss ([\d.]+), held-out loss ([\d.]+) \(measured at step (\d+)\)\.$/,
  );
  assert.ok(m, status);
  // the held-out loss is measured every 50 steps, and the status says which one it quotes
  const n = Number(m[1]);
  assert.equal(Number(m[4]), n < 50 ? 1 : n - (n % 50), status);
  // the pressed Stop went away: the focus is on Resume, so Space resumes, not the player
  assert.equal(await page.evaluate(() => document.activeElement?.id), "train-start");
  const held = (await page.locator("#train-plot td").allTextContents()).map(Number);
  assert.ok(held[0] > 7 && held[1] < held[0] - 0.3, held.join(" "));
  assert.equal(await text(page, "#train-start"), "Resume");
  await page.locator("#train-start").click();
  await page.waitForFunction(
    (n) => Number(document.querySelector("#train-status").textContent.match(/tep (\d+)/)[1]) > n,
    Number(m[1]),
  );
  await page.locator("#train-stop").click();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("training tells a screen reader only when it starts, every 500 steps, stops or ends", async () => {
  const page = await open("scene=model&lang=en&step=6", {
    viewport: { width: 1440, height: 900 },
  });
  // the status on screen is no live region, nor inside one: it changes four times a second
  assert.equal(
    await page.evaluate(() => document.querySelector("#train-status").closest("[aria-live]")),
    null,
  );
  assert.equal(await page.locator("#train-announce").getAttribute("aria-live"), "polite");
  await page.evaluate(() => {
    window.heard = { status: 0, announce: [] };
    new MutationObserver((records) => {
      for (const r of records) {
        const host = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        if (host?.id === "train-status") window.heard.status += 1;
        if (host?.id === "train-announce") window.heard.announce.push(host.textContent);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.locator("#train-start").click();
  await page.waitForFunction(() => window.heard.status >= 8, null, { timeout: 60000 });
  await page.locator("#train-stop").click();
  // paused once the worker has stopped (Resume enabled again)
  await page.waitForFunction(() => !document.querySelector("#train-start").disabled);
  const heard = await page.evaluate(() => window.heard);
  const paused = await text(page, "#train-status");
  const steps = Number(paused.match(/^Paused at training step (\d+)/)[1]);
  // started, then paused, with one more for each 500 steps passed on the way
  const milestones = Math.floor(steps / 500);
  assert.equal(heard.announce.length, 2 + milestones, heard.announce.join(" | "));
  // each true of its moment whenever it is read: the step it started from, each 500th step
  // passed, then the status paused
  assert.match(heard.announce[0], /^Training from step 0 of \d+;/);
  heard.announce.slice(1, -1).forEach((said, k) => {
    assert.match(said, new RegExp(`^Training step ${500 * (k + 1)} of \\d+ done: training loss`));
  });
  assert.equal(heard.announce.at(-1), paused);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The learners' fourth pass: with a long line, step 3's scaled table showed rows 2–13 while
// masked and weights just below showed rows 1–12. The tables of one step show the same rows.
test("a long line: every table of the written-out head shows the same rows", async () => {
  const line = encodeURIComponent("国破山河在，城春草木深。感时花溅泪");
  const page = await openApp(env, `scene=model&lang=en&step=3&line=${line}`);
  const rows = await page
    .locator("[data-matrix]")
    .evaluateAll((ms) =>
      ms.map((m) => [...m.querySelectorAll("tr th[scope=row]")].map((t) => t.textContent).join("")),
    );
  assert.equal(rows.length, 5);
  assert.ok(rows[0].length >= 12 && rows[0].length < 18, rows[0]);
  for (const r of rows) assert.equal(r, rows[0], rows.join(" | "));
  assert.deepEqual(page.errors, []);
  await page.close();
});
