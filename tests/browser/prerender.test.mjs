// prerender.test.mjs: the views drawn at build time (tools/prerender.mjs; drawn in the page by
// generated/start.js: the page with no parameters from the HTML, every other step of a walkthrough
// from its own file) and the live page's takeover. With app.js held back, the prerendered view is
// on screen; once app.js runs, the live view replaces it: the same DOM, every element in the same
// place, the focus and an opened explanation kept, the keys working. A URL that asks for any other
// view shows no prerendered numbers.
import { readFileSync } from "node:fs";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openPage } from "./browser.mjs";
import { scenes } from "../../web/scenes.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

/**
 * The page at ?query with generated/app.js held back until `release()`, once start.js has asked
 * for app.js and drawn the prerendered view (from the HTML or its file; `view: false` for a URL
 * that has none): { page, release }. options: openPage's (viewport, locale …).
 */
async function heldPage(query, { view = true, ...options } = {}) {
  const page = await openPage(env.browser, "about:blank", options);
  let release, asked;
  const held = new Promise((resolve) => (release = resolve));
  const requested = new Promise((resolve) => (asked = resolve));
  await page.route("**/generated/app.js", async (route) => {
    asked();
    await held;
    await route.continue();
  });
  await page.goto(`${env.url}${query}`, { waitUntil: "commit" });
  await requested;
  if (view) await page.waitForSelector("#app[data-first-view]");
  return { page, release };
}

// #app's markup, and every element's box under it (the page scrolled to the top), after two
// frames (what the page does before it paints again, a ResizeObserver's callback, has run).
const snapshot = (page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const app = document.getElementById("app");
    return {
      html: app.innerHTML,
      boxes: [...app.querySelectorAll("*")].map((e) => {
        const r = e.getBoundingClientRect();
        return `${e.localName}#${e.id}.${e.className?.baseVal ?? e.className} ${r.x},${r.y} ${r.width}×${r.height}`;
      }),
      cells: [...app.querySelectorAll("[data-matrix] button.cell")].map((c) => c.textContent),
      title: document.title,
      lang: document.documentElement.lang,
      firstView: app.dataset.firstView,
    };
  });

function assertSame(before, after, what) {
  assert.ok(before.cells.length > 0, `${what}: no numbers prerendered`);
  assert.deepEqual(after.cells, before.cells, `${what}: the numbers`);
  assert.equal(after.title, before.title, `${what}: the title`);
  assert.equal(after.lang, before.lang, `${what}: the language`);
  assert.equal(after.html, before.html, `${what}: the DOM`);
  const moved = before.boxes.filter((box, i) => box !== after.boxes[i]);
  assert.deepEqual(moved, [], `${what}: elements that moved`);
  assert.equal(after.boxes.length, before.boxes.length, `${what}: elements`);
}

for (const [width, height, expected] of [
  [390, 844, "narrow"],
  [1280, 900, "wide"],
]) {
  test(`at ${width} px, each walkthrough's first step in both languages is prerendered, and the live page takes it over unchanged`, async () => {
    for (const scene of scenes) {
      for (const lang of ["zh", "en"]) {
        const { page, release } = await heldPage(`?scene=${scene.id}&lang=${lang}`, {
          viewport: { width, height },
        });
        const first = await snapshot(page);
        assert.equal(first.firstView, `${scene.id}:${lang}:1:${expected}`);
        release();
        await page.waitForSelector("#app[data-ready]");
        const live = await snapshot(page);
        assertSame(first, live, `${scene.id} in ${lang} at ${width} px`);
        assert.equal(live.firstView, undefined);
        assert.deepEqual(page.errors, [], `${scene.id} ${lang}`);
        await page.close();
      }
    }
  });
}

test("the page with no parameters: the first paint already has the numbers, on a slow network, and the HTML holds them", async () => {
  for (const query of ["", "?lang=zh"]) {
    const page = await openPage(env.browser, "about:blank", {
      viewport: { width: 390, height: 844 },
    });
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector("#app [data-matrix] button.cell")) return;
        window.__cells = performance.now();
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: 1.6e6 / 8,
      uploadThroughput: 750e3 / 8,
    });
    const response = await page.goto(`${env.url}${query}`, { waitUntil: "commit" });
    assert.match(await response.text(), /<script type="application\/json" id="first-views">/);
    await page.waitForSelector("#app[data-ready]");
    const { cells, paints, fetched } = await page.evaluate(() => ({
      cells: window.__cells,
      paints: performance.getEntriesByType("paint").map((p) => [p.name, p.startTime]),
      fetched: performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname),
    }));
    // the first frame with any text in it (a blank one may come before, as the HTML streams in)
    const [, contentful] = paints.find(([name]) => name === "first-contentful-paint");
    assert.ok(
      contentful >= cells,
      `${query}: text painted at ${contentful} ms, numbers at ${cells}`,
    );
    // the view came with the HTML: nothing fetched for it
    assert.deepEqual(
      fetched.filter((p) => p.endsWith(".json")),
      [],
      query,
    );
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test("the age scene's prerendered keys and values are the article's (docs/scenes.md)", async () => {
  const { page, release } = await heldPage("?scene=age&lang=en");
  const matrix = (id) =>
    page
      .locator(`[data-matrix="${id}"] button.cell`)
      .evaluateAll((cells) => cells.map((c) => Number(c.textContent)));
  assert.deepEqual(await matrix("k"), [1, 2, 0, 1, 2, 0, 0, 0, 2, 1, 4, 0]);
  assert.deepEqual(await matrix("v"), [18, 20, 22, 19]);
  release();
  await page.close();
});

test("with no parameters, the first scene in the browser's language; a link's lang wins", async () => {
  for (const [locale, query, view] of [
    ["en-US", "", "classroom:en:1"],
    ["zh-CN", "", "classroom:zh:1"],
    ["en-US", "?lang=zh", "classroom:zh:1"],
    ["zh-CN", "?scene=cup&step=1&lang=en", "cup:en:1"],
  ]) {
    const { page, release } = await heldPage(query, {
      locale,
      viewport: { width: 1280, height: 900 },
    });
    const first = await snapshot(page);
    assert.equal(first.firstView, `${view}:wide`, `${locale} ${query}`);
    release();
    await page.waitForSelector("#app[data-ready]");
    assertSame(first, await snapshot(page), `${locale} ${query}`);
    await page.close();
  }
});

test("each later step of each walkthrough, in both languages and at both widths, is prerendered in a file of its own, and the live page takes it over unchanged", async () => {
  // every step once, the language and the width taking turns (both of each in every scene)
  const { steps } = JSON.parse(
    readFileSync(new URL("../../web/generated/start.json", import.meta.url), "utf8"),
  );
  for (const scene of scenes) {
    for (let step = 2; step <= steps[scene.id]; step++) {
      const lang = step % 2 ? "zh" : "en";
      const [width, height, expected] =
        Math.floor(step / 2) % 2 ? [390, 844, "narrow"] : [1280, 900, "wide"];
      const query = `?scene=${scene.id}&step=${step}&lang=${lang}`;
      const { page, release } = await heldPage(query, { viewport: { width, height } });
      const first = await snapshot(page);
      assert.equal(first.firstView, `${scene.id}:${lang}:${step}:${expected}`);
      release();
      await page.waitForSelector("#app[data-ready]");
      const live = await snapshot(page);
      assertSame(first, live, `${query} at ${width} px`);
      assert.equal(live.firstView, undefined);
      assert.deepEqual(page.errors, [], query);
      await page.close();
    }
  }
});

test("a later step's prerendered numbers are the core's: the age scene at step 6 shows 19.4729 (docs/scenes.md)", async () => {
  const { page, release } = await heldPage("?scene=age&lang=zh&step=6");
  const output = await page
    .locator('[data-matrix="output"] button.cell')
    .evaluateAll((cells) => cells.map((c) => c.textContent));
  assert.deepEqual(output, ["19.4729"]);
  release();
  await page.close();
});

test("a view from a file that comes after the live page has drawn is not drawn over it", async () => {
  const page = await openPage(env.browser, "about:blank");
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route("**/generated/views/age-zh-6.json", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${env.url}?scene=age&lang=zh&step=6`);
  await page.waitForSelector("#app[data-ready]");
  const before = await page.locator("#app").innerHTML();
  release();
  await page.waitForResponse("**/generated/views/age-zh-6.json");
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  assert.equal(await page.locator("#app").innerHTML(), before);
  assert.equal(await page.locator("#app").getAttribute("data-first-view"), null);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a URL that asks for anything more than a step shows no prerendered numbers", async () => {
  for (const query of [
    "?scene=age&lang=zh&step=06",
    "?scene=age&lang=zh&step=7",
    "?scene=age&lang=zh&step=0",
    "?scene=heads&lang=en",
    "?scene=age&lang=en&digits=2",
    "?scene=age&lang=en&lang=zh",
    "?scene=nothing",
    "?lang=fr",
  ]) {
    const { page, release } = await heldPage(query, { view: false });
    const first = await snapshot(page);
    assert.equal(first.firstView, undefined, query);
    assert.deepEqual(first.cells, [], query);
    release();
    await page.waitForSelector("#app[data-ready]");
    assert.ok((await snapshot(page)).cells.length > 0, query);
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

test("what the learner did before the takeover stays: the focus, an explanation closed, the keys then work", async () => {
  const { page, release } = await heldPage("?scene=dictionary&lang=en", {
    viewport: { width: 390, height: 844 },
  });
  // the phone's "About this scene", open on a first step: closed by the learner
  await page.locator("details.about > summary").click();
  await page.locator('[data-matrix="k"] button.cell').first().focus();
  const focused = () =>
    page.evaluate(() => {
      const a = document.activeElement;
      return `${a.closest("[data-matrix]")?.dataset.matrix} ${a.dataset.i},${a.dataset.j}`;
    });
  assert.equal(await focused(), "k 0,0");
  release();
  await page.waitForSelector("#app[data-ready]");
  assert.equal(await focused(), "k 0,0");
  assert.equal(await page.locator("details.about").evaluate((d) => d.open), false);
  // the live page's keys: → moves the focused cell, then the step moves on with the player
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(), "k 0,1");
  await page.locator("#forward").click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "2");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("fields changed and the player's keys pressed before the takeover are done again by the live page", async () => {
  // the book at step 5 (from its file): the causal mask ticked while the live page loads
  let { page, release } = await heldPage("?scene=book&lang=zh&step=5", {
    viewport: { width: 390, height: 844 },
  });
  await page.locator("#causal").check();
  release();
  await page.waitForSelector("#app[data-ready]");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("causal") === "1");
  assert.equal(await page.locator("#causal").isChecked(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
  // the age scene at step 4: α moved to 5 with the keyboard, then → on the player's button, and
  // → again with nothing focused (where a keyboard learner starts)
  ({ page, release } = await heldPage("?scene=age&lang=en&step=4", {
    viewport: { width: 1280, height: 900 },
  }));
  await page.locator("#alpha").fill("5");
  await page.locator("#forward").focus();
  await page.keyboard.press("ArrowRight");
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("ArrowRight");
  release();
  await page.waitForSelector("#app[data-ready]");
  await page.waitForFunction(() => {
    const p = new URLSearchParams(location.search);
    return p.get("alpha") === "5" && p.get("step") === "6";
  });
  assert.equal(await page.locator("#alpha").inputValue(), "5");
  assert.equal(await page.locator("#step-title").textContent(), "6. Result");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("buttons pressed before the takeover are pressed again by the live page, in order", async () => {
  const { page, release } = await heldPage("?scene=age&lang=en", {
    viewport: { width: 390, height: 844 },
  });
  // → twice and ← once while the live page loads: step 2
  for (const id of ["forward", "forward", "back"]) await page.locator(`#${id}`).click();
  assert.equal(new URL(page.url()).searchParams.get("step"), null, "nothing happens yet");
  release();
  await page.waitForSelector("#app[data-ready]");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "2");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "back");
  // and nothing more: a press after the takeover is the live page's own
  await page.locator("#forward").click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "3");
  assert.equal(
    await page.evaluate(() => document.getElementById("app").dataset.pressed),
    undefined,
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a page whose views a host took out is the live page alone, with no error", async () => {
  const page = await openPage(env.browser, "about:blank");
  await page.route(/\/(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script type="application\/json"[^]*?<\/script>/,
      "",
    );
    assert.ok(!body.includes("application/json"));
    await route.fulfill({ response, body });
  });
  await page.goto(`${env.url}?scene=age&lang=en`);
  await page.waitForSelector("#app[data-ready]");
  assert.deepEqual(
    await page
      .locator('[data-matrix="v"] button.cell')
      .evaluateAll((cells) => cells.map((c) => Number(c.textContent))),
    [18, 20, 22, 19],
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});
