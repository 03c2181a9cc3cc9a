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

// A keyboard learner's run ended and the focus fell to the page (about 50 Tabs back to "Start
// again"): the page was drawn again as the run ended, with the focus on Stop, and Stop came back
// disabled. focus.js hands it to the first enabled control of the group.
test("a control drawn again disabled hands the focus to its group's enabled one: a run's end, Stop to Start again", async () => {
  const page = await openApp("scene=classroom&lang=en");
  const after = await page.evaluate(async (url) => {
    const { remember, restore } = await import(url);
    const root = document.body.appendChild(document.createElement("div"));
    const layer = (running) => {
      const node = document.createElement("div");
      const group = node.appendChild(document.createElement("div"));
      group.setAttribute("role", "group");
      for (const [id, disabled] of [
        ["t-start", running],
        ["t-stop", !running],
      ]) {
        const button = group.appendChild(document.createElement("button"));
        Object.assign(button, { id, disabled, textContent: id });
      }
      return node;
    };
    const before = root.appendChild(layer(true));
    before.querySelector("#t-stop").focus();
    const kept = remember(root, before);
    const redrawn = layer(false);
    before.replaceWith(redrawn);
    restore(root, redrawn, kept);
    return document.activeElement.id;
  }, `${env.url}web/focus.js`);
  assert.equal(after, "t-start");
  await page.close();
  // the real thing: the induction lab's run, started and left to end from the keyboard
  const lab = await openApp("scene=induction&lang=en&step=2&layers=1");
  await lab.locator("#induction-start").focus();
  await lab.keyboard.press("Enter");
  await lab.waitForFunction(
    () => /^Done/.test(document.querySelector("#induction-status").textContent),
    null,
    { timeout: 120000 },
  );
  await lab.waitForTimeout(500);
  assert.equal(await focused(lab), "button#induction-start");
  assert.equal(await lab.locator("#induction-start").textContent(), "Start again");
  assert.deepEqual(lab.errors, []);
  await lab.close();
});

test("a wide table scrolled sideways stays where the learner left it through redraws, one pick or many in one go", async () => {
  const page = await openPage(env.browser, `${env.url}web/index.html?scene=book&step=5&lang=en`, {
    viewport: { width: 390, height: 800 },
  });
  await page.waitForSelector("#app[data-ready]");
  const left = (m) =>
    page.evaluate((m) => document.querySelector(`[data-matrix="${m}"] .scroll`).scrollLeft, m);
  await page.evaluate(() => {
    document.querySelector('[data-matrix="scaled"] .scroll').scrollLeft = 200;
  });
  assert.equal(await left("scaled"), 200);
  // a pick in another table redraws the step: the scaled table keeps its place
  await page.locator('[data-matrix="rowSum"] button.cell').nth(1).click();
  assert.equal(await left("scaled"), 200, "after one pick");
  // several picks in one script, before the page is laid out again (marked a frame later)
  await page.evaluate(() => {
    for (const i of [2, 3, 4]) {
      document.querySelector(`[data-matrix="rowSum"] button[data-i="${i}"][data-j="0"]`).click();
    }
  });
  assert.equal(await left("scaled"), 200, "after three picks in one go");
  await page.close();
});
