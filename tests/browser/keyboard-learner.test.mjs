// keyboard-learner.test.mjs: two keyboard faults a new learner met on the page (keyboard only,
// 1440 px): Space on a focused scroller played the walkthrough (and left lesson 5's training
// step, which paused its training), and a glossary entry's "Computed in" link reloaded the page,
// leaving the focus on the page instead of on where it leads.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const stepOf = (page) => new URL(page.url()).searchParams.get("step");

test("Space, the arrows, Home and End on a focused scroller scroll it and leave the step alone", async () => {
  const page = await openApp(env, "scene=book&lang=en&step=3", {
    viewport: { width: 390, height: 844 },
  });
  // a table wider than the phone: Chromium gives it a tab stop
  await page.evaluate(() => {
    const wide = [...document.querySelectorAll(".step .scroll")].find(
      (s) => s.scrollWidth > s.clientWidth + 1,
    );
    wide.dataset.testWide = "";
  });
  await page.locator("[data-test-wide]").focus();
  assert.equal(await page.evaluate(() => "testWide" in document.activeElement.dataset), true);
  for (const key of [" ", "ArrowRight", "End", "Home", "ArrowLeft"]) {
    await page.keyboard.press(key === " " ? "Space" : key);
    await page.waitForTimeout(150);
    assert.equal(stepOf(page), "3", `${key} moved the step`);
    assert.equal(
      await page.evaluate(() => document.activeElement.classList.contains("scroll")),
      true,
      `${key} took the focus`,
    );
  }
  assert.equal(await page.locator('button[aria-label="Pause"]').count(), 0, "it plays");
  // Space elsewhere (the step's title) still plays, as the hint says
  await page.locator(".step h2, .step h3").first().focus();
  await page.keyboard.press("Space");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("step") !== "3");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a glossary entry's link opens its step in place and puts the focus on that scene's title", async () => {
  const page = await openApp(env, "scene=age&lang=en");
  await page.evaluate(() => (window.keptAcrossTheLink = true)); // gone if the page loads again
  await page.locator("button.term").first().focus();
  await page.keyboard.press("Enter");
  const link = page.locator("#glossary-panel .glossary-where a");
  const href = new URL(await link.getAttribute("href"), page.url());
  await link.focus();
  await page.keyboard.press("Enter");
  const scene = href.searchParams.get("scene");
  await page.waitForFunction(
    (id) => new URL(location.href).searchParams.get("scene") === id,
    scene,
  );
  assert.equal(stepOf(page), href.searchParams.get("step"));
  await page.waitForFunction(() => document.activeElement?.id === "scene-title");
  assert.equal(await page.locator("#glossary-panel").isHidden(), true);
  assert.equal(await page.evaluate(() => window.keptAcrossTheLink), true, "the page loaded again");
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The learners' fourth pass: "Skip to the step" focused the step's title 825 px down a 900 px
// screen, with the step itself below the fold. The title comes to the top, under the player.
test("skip to the step brings the step's title to the top of the screen, below the player", async () => {
  for (const lang of ["en", "zh"]) {
    const page = await openApp(env, `scene=classroom&lang=${lang}&step=3`, {
      viewport: { width: 1440, height: 900 },
    });
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.hash), "#step-title");
    await page.keyboard.press("Enter");
    const at = await page.evaluate(() => {
      const title = document.activeElement.getBoundingClientRect();
      const player = document.querySelector(".player").getBoundingClientRect();
      return { id: document.activeElement.id, top: title.top, player: player.bottom };
    });
    assert.equal(at.id, "step-title");
    assert.ok(at.top >= at.player && at.top < 300, `${lang}: ${JSON.stringify(at)}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// The learners' fourth pass: "Link copied" pushed the header's buttons 90 px to the left.
test("copy link says so without moving a button of the header", async () => {
  for (const width of [1440, 390]) {
    const page = await openApp(env, "scene=classroom&lang=en", {
      viewport: { width, height: 900 },
    });
    const boxes = () =>
      page
        .locator("header button")
        .evaluateAll((bs) => bs.map((b) => JSON.stringify(b.getBoundingClientRect())));
    const before = await boxes();
    await page.locator("#copy-link").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("header .status").textContent !== "");
    assert.deepEqual(await boxes(), before, `${width} px`);
    const said = await page.locator("header .status").boundingBox();
    assert.ok(said.x >= 0 && said.x + said.width <= width, JSON.stringify(said));
    await page.close();
  }
});
