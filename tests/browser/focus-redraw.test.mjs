// focus-redraw.test.mjs: what a review of the page's fixes found, used as a learner and as a tutorial
// author would: the keyboard focus survives a step change, and an open explanation survives a
// redraw.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage } from "./browser.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
let env;
// The element's test page is an author's page with inline styles: served without our policy,
// as in embed.test.mjs.
before(async () => (env = await start(repo, {})));
after(() => env.close());

async function openApp(query) {
  const page = await openPage(env.browser, `${env.url}web/index.html?${query}`);
  await page.waitForSelector("#app[data-ready]");
  return page;
}

// The focused element, described by its tag and id, looking into a shadow root when there is one.
const focused = (page) =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return `${a.tagName.toLowerCase()}#${a.id}`;
  });

test("a step change by keyboard keeps the focus in the walkthrough, wherever it was", async () => {
  const page = await openApp("scene=classroom&lang=en");
  // A shape tool of step 1: step 2 has none (its inputs are not editable).
  await page.locator("#wq-add-rows").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator("#counter").textContent(), "Step 2 of 7");
  assert.equal(await focused(page), "h3#step-title", "from a control the next step does not have");
  // A control without an id: the explanation's summary on the scale step.
  await page.goto(`${env.url}web/index.html?scene=classroom&lang=en&step=4`);
  await page.waitForSelector("#app[data-ready]");
  await page.locator("details.why summary").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator("#counter").textContent(), "Step 5 of 7");
  assert.equal(await focused(page), "h3#step-title", "from a summary");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("in the element, → twice from a summary walks two steps and never reaches the host", async () => {
  const page = await openPage(env.browser, `${env.url}tests/browser/pages/hostile.html`);
  await page.waitForFunction(() => window.events.filter((e) => e.type === "ready").length >= 2);
  await page.evaluate(() => {
    window.hostKeys = [];
    document.addEventListener("keydown", (e) => window.hostKeys.push(e.key));
  });
  const a = page.locator("#a");
  // The age scene opens on step 3 (Scale), which has "Why divide by √d_k?".
  await a.locator("details.why summary").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.getElementById("a").state.step), 5);
  assert.equal(await focused(page), "h3#step-title");
  assert.deepEqual(await page.evaluate(() => window.hostKeys), [], "the host heard no key");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("an open explanation stays open when the learner picks a cell", async () => {
  const page = await openApp("scene=classroom&lang=en&step=4");
  const why = page.locator("details.why");
  await why.locator("summary").click();
  await page.locator('[data-matrix="scaled"] button[data-i="1"][data-j="1"]').click();
  assert.match(await page.locator(".derivation").textContent(), /scaled\[2\]\[2\]/);
  assert.equal(await why.evaluate((d) => d.open), true, "still open after the redraw");
  // Closed again by the learner, it stays closed.
  await why.locator("summary").click();
  await page.locator('[data-matrix="scaled"] button[data-i="0"][data-j="0"]').click();
  assert.equal(await why.evaluate((d) => d.open), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});
