// slide.test.mjs: the compact layout (layout="compact", embed.html?layout=compact) in the boxes of
// a 16:9 slide, 960×540 and 1280×720: every built-in scene, every step, with a cell picked, in
// both languages, fits in the window with its numbers, its derivation and its player, for the
// element and for an iframe sized by its resize messages. Then the keyboard, and a box the
// author sizes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage } from "./browser.mjs";
import { scenes } from "../../web/scenes.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const empty = "tests/browser/pages/empty.html";
const viewports = [
  { width: 960, height: 540 },
  { width: 1280, height: 720 },
];
const builtIn = scenes.filter((s) => !s.lazy).map((s) => s.id);
let env;
before(async () => (env = await start(repo, {})));
after(() => env.close());

// In the page: everything the assertions need about one element (or the element inside an
// iframe) at its current step, measured against the top window.
function measureInPage([hostSelector, frameSelector]) {
  const frame = frameSelector && document.querySelector(frameSelector);
  const doc = frame ? frame.contentDocument : document;
  const offset = frame ? frame.getBoundingClientRect().top + frame.clientTop : 0;
  const walk = doc.querySelector(hostSelector);
  const root = walk.shadowRoot;
  const bottomOf = (node) => node && Math.ceil(node.getBoundingClientRect().bottom + offset);
  const cells = [...root.querySelectorAll("[data-matrix] button.cell")].map((b) => b.textContent);
  const scroller = document.scrollingElement;
  return {
    step: walk.state.step,
    stepId: walk.state.stepId,
    bottom: frame ? Math.ceil(frame.getBoundingClientRect().bottom) : bottomOf(walk),
    innerBottom: bottomOf(walk),
    forward: bottomOf(root.querySelector("#forward")),
    counter: root.querySelector("#counter")?.textContent,
    derivation: bottomOf(root.querySelector(".derivation")),
    derivationText: root.querySelector(".derivation")?.textContent ?? "",
    matrices: root.querySelectorAll("[data-matrix]").length,
    cells,
    pageScrolls: scroller.scrollHeight > innerHeight || scroller.scrollWidth > innerWidth,
    frameScrolls: frame ? doc.scrollingElement.scrollHeight > frame.clientHeight : false,
  };
}

const number = /^(−|-)?\d+(\.\d+)?$|^−∞$/;

// What must hold at every step: in the window, the player there, every cell a number, and the
// derivation in view when a cell is picked.
function checkFits(m, where, { picked }) {
  const at = `${where}, step ${m.step} (${m.stepId})`;
  assert.ok(m.bottom <= where.height, `${at}: the bottom ${m.bottom} is below ${where.height}`);
  assert.ok(m.innerBottom <= where.height, `${at}: the element's bottom ${m.innerBottom}`);
  assert.equal(m.pageScrolls, false, `${at}: the page scrolls`);
  assert.equal(m.frameScrolls, false, `${at}: the iframe scrolls`);
  assert.ok(m.forward <= where.height, `${at}: the player is cut off (${m.forward})`);
  assert.ok(m.matrices > 0 && m.cells.length > 0, `${at}: no matrices`);
  const bad = m.cells.filter((c) => !number.test(c));
  assert.deepEqual(bad, [], `${at}: cells that are not numbers`);
  if (picked) {
    assert.ok(m.derivation, `${at}: no derivation for the picked cell`);
    assert.ok(m.derivation <= where.height, `${at}: the derivation ends at ${m.derivation}`);
    assert.match(m.derivationText, /=/, `${at}: the derivation has no equation`);
  }
}

// Picks the last cell of the last matrix that is not an input (an input's cell opens a field).
function pickInPage([hostSelector, frameSelector]) {
  const frame = frameSelector && document.querySelector(frameSelector);
  const doc = frame ? frame.contentDocument : document;
  const root = doc.querySelector(hostSelector).shadowRoot;
  const results = [...root.querySelectorAll("[data-matrix]:not(.role-input)")];
  const cell = results.at(-1)?.querySelectorAll("button.cell");
  if (!cell?.length) return false;
  cell[cell.length - 1].click();
  return true;
}

// One element per scene, created in the page: at its last step first, then every step with a
// cell picked.
async function elementRuns(page, scene, lang, where) {
  const total = await page.evaluate(
    async ([scene, lang]) => {
      await customElements.whenDefined("attention-walkthrough");
      document.body.replaceChildren();
      const walk = document.createElement("attention-walkthrough");
      for (const [k, v] of Object.entries({ scene, lang, controls: "", layout: "compact" }))
        walk.setAttribute(k, v);
      walk.setAttribute("step", "99");
      const ready = new Promise((done) => walk.addEventListener("ready", done, { once: true }));
      document.body.append(walk);
      await ready;
      return walk.state.steps.length;
    },
    [scene, lang],
  );
  const args = ["attention-walkthrough", null];
  const last = await page.evaluate(measureInPage, args);
  assert.equal(last.step, total, `${scene}: opens at its last step`);
  checkFits(last, where, { picked: false });
  for (let step = 1; step <= total; step++) {
    await page.evaluate((s) => document.querySelector("attention-walkthrough").goTo(s), step);
    const picked = await page.evaluate(pickInPage, args);
    checkFits(await page.evaluate(measureInPage, args), where, { picked });
  }
  return last;
}

for (const viewport of viewports) {
  for (const lang of ["en", "zh"]) {
    const where = {
      ...viewport,
      lang,
      toString: () => `${viewport.width}×${viewport.height} ${lang}`,
    };
    test(`element, layout="compact", ${where}: every scene and step fits, a cell picked`, async () => {
      const page = await openPage(env.browser, `${env.url}${empty}`, { viewport });
      const counters = [];
      for (const scene of builtIn) {
        const last = await elementRuns(page, scene, lang, where);
        counters.push(last.counter);
      }
      assert.equal(counters.length, 6);
      // the average age's last step (the apple scene's mask step makes it 7, the others 6)
      assert.match(
        counters[builtIn.findIndex((s) => s === "age")],
        lang === "en" ? /^Step 6 of 6$/ : /^第 6 步，共 6 步$/,
      );
      assert.deepEqual(page.errors, []);
      await page.close();
    });

    test(`iframe, embed.html?layout=compact, ${where}: sized by its resize messages, it fits`, async () => {
      const page = await openPage(env.browser, `${env.url}${empty}`, { viewport });
      for (const scene of builtIn) {
        // the author's page: an iframe as wide as the slide, its height from resize messages
        await page.evaluate(
          ([scene, lang]) => {
            document.body.replaceChildren();
            document.body.style.margin = "0";
            const frame = document.createElement("iframe");
            frame.id = "frame";
            frame.title = "walkthrough";
            frame.style.cssText = "display: block; width: 100%; border: 0";
            frame.src = `/web/embed.html?scene=${scene}&lang=${lang}&layout=compact&step=99`;
            window.heights = [];
            window.onmessage = (event) => {
              if (event.data?.source !== "attention-walkthrough") return;
              if (event.data.type === "ready") window.ready = true;
              if (event.data.type !== "resize") return;
              frame.style.height = `${event.data.height}px`;
              window.heights.push(event.data.height);
            };
            window.ready = false;
            document.body.append(frame);
          },
          [scene, lang],
        );
        await page.waitForFunction(() => window.ready);
        const settled = () =>
          page.waitForFunction(() => {
            const frame = document.getElementById("frame");
            const inner = frame.contentDocument.documentElement;
            return (
              window.heights.length > 0 &&
              frame.clientHeight === window.heights.at(-1) &&
              inner.scrollHeight <= frame.clientHeight
            );
          });
        await settled();
        const args = ["attention-walkthrough", "#frame"];
        const last = await page.evaluate(measureInPage, args);
        checkFits(last, where, { picked: false });
        const total = last.step;
        for (let step = 1; step <= total; step++) {
          await page.evaluate(
            (s) =>
              document
                .getElementById("frame")
                .contentWindow.postMessage({ source: "host", type: "goTo", step: s }, "*"),
            step,
          );
          await page.waitForFunction(
            (s) =>
              document
                .getElementById("frame")
                .contentDocument.querySelector("attention-walkthrough").state.step === s,
            step,
          );
          const picked = await page.evaluate(pickInPage, args);
          await settled();
          checkFits(await page.evaluate(measureInPage, args), where, { picked });
        }
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
}

// One element on the empty page, made in the page with these attributes, once it is ready.
async function oneElement(page, attributes, style = "") {
  await page.evaluate(
    async ([attributes, style]) => {
      await customElements.whenDefined("attention-walkthrough");
      document.body.replaceChildren();
      const walk = document.createElement("attention-walkthrough");
      for (const [k, v] of Object.entries(attributes)) walk.setAttribute(k, v);
      walk.style.cssText = style;
      window.errors = [];
      walk.addEventListener("error", (e) => window.errors.push(e.detail.message));
      const ready = new Promise((done) => walk.addEventListener("ready", done, { once: true }));
      document.body.append(walk);
      await ready;
    },
    [attributes, style],
  );
  return page.locator("attention-walkthrough");
}

test('layout="compact" and the keyboard: arrows step, Tab reaches every control', async () => {
  const page = await openPage(env.browser, `${env.url}${empty}`, { viewport: viewports[0] });
  const walk = await oneElement(page, {
    scene: "age",
    lang: "zh",
    step: "3",
    controls: "",
    layout: "compact",
  });
  const counter = walk.locator("#counter");
  await walk.locator("#forward").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await counter.textContent(), "第 4 步，共 6 步");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await counter.textContent(), "第 2 步，共 6 步");
  await page.keyboard.press("End");
  assert.equal(await counter.textContent(), "第 6 步，共 6 步");
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  assert.equal(await counter.textContent(), "第 2 步，共 6 步");

  // Tab from the page's start goes through every control once, then out.
  const stops = await page.evaluate(() => {
    const root = document.querySelector("attention-walkthrough").shadowRoot;
    const name = (n) => n.id || `${n.closest("[data-matrix]")?.dataset.matrix} cell`;
    const all = root.querySelectorAll("button, input, select, textarea, a[href], [tabindex]");
    return [...all].filter((n) => n.tabIndex >= 0 && !n.disabled && n.checkVisibility()).map(name);
  });
  // from a control of the page's own, just before the element
  await page.evaluate(() => {
    const before = document.createElement("button");
    before.textContent = "before";
    document.body.prepend(before);
    before.focus();
  });
  const visited = [];
  for (let n = 0; n < 40; n++) {
    await page.keyboard.press("Tab");
    const now = await page.evaluate(() => {
      const walk = document.querySelector("attention-walkthrough");
      const inside = walk.shadowRoot.activeElement;
      if (document.activeElement !== walk || !inside) return null;
      const box = inside.getBoundingClientRect();
      return {
        name: inside.id || `${inside.closest("[data-matrix]")?.dataset.matrix} cell`,
        seen: box.bottom <= innerHeight && box.right <= innerWidth && box.top >= 0,
      };
    });
    if (!now) break;
    assert.ok(now.seen, `${now.name} is out of the window when it has the focus`);
    visited.push(now.name);
  }
  // the player, the scene's α and each matrix
  assert.deepEqual(stops.slice(0, 7), [
    "restart",
    "back",
    "play",
    "forward",
    "scrubber",
    "speed",
    "alpha",
  ]);
  assert.ok(stops.length >= 9, `and each matrix: ${stops}`);
  assert.deepEqual(visited, stops);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('layout="compact" follows a height the author gives it; matrices take what is left', async () => {
  const page = await openPage(env.browser, `${env.url}${empty}`, { viewport: viewports[0] });
  for (const height of [300, 540]) {
    const walk = await oneElement(
      page,
      { scene: "book", lang: "en", step: "5", controls: "", layout: "compact" },
      `height: ${height}px`,
    );
    await page.evaluate(pickInPage, ["attention-walkthrough", null]);
    const m = await walk.evaluate((host) => {
      const root = host.shadowRoot;
      const bottom = (s) => root.querySelector(s).getBoundingClientRect().bottom;
      const row = root.querySelector(".matrices");
      return {
        host: host.getBoundingClientRect(),
        inner: bottom(".walkthrough"),
        forward: bottom("#forward"),
        derivation: !!root.querySelector(".derivation"),
        rowScrolls: row.scrollHeight > row.clientHeight + 1,
      };
    });
    assert.equal(Math.round(m.host.height), height, "the element is as tall as its box");
    assert.ok(m.inner <= m.host.bottom + 0.5, `${height}: its inside ends at ${m.inner}`);
    assert.ok(m.forward <= m.host.bottom, `${height}: the player is in the box`);
    assert.ok(m.derivation);
    // 300 px is less than the 11 rows need: the row of matrices scrolls; 540 is enough.
    assert.equal(m.rowScrolls, height === 300, `${height}: the row scrolls down`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("layout: live, keeps the step; a layout that does not exist is an error that names it", async () => {
  const page = await openPage(env.browser, `${env.url}${empty}`, { viewport: viewports[1] });
  const walk = await oneElement(page, { scene: "age", lang: "en", step: "4", controls: "" });
  assert.equal(await walk.locator("#scene-title").count(), 1, "the normal layout has the intro");
  // Sets (or removes) the attribute, then waits for the element to show `shown` (a selector).
  const set = async (value, shown) => {
    await page.evaluate((v) => {
      const walk = document.querySelector("attention-walkthrough");
      if (v === null) walk.removeAttribute("layout");
      else walk.setAttribute("layout", v);
    }, value);
    await walk.locator(shown).waitFor();
  };
  await set("compact", ".slide-title");
  assert.equal(await walk.locator("#scene-title").count(), 0, "a slide has its own title");
  assert.equal(await walk.locator("#counter").textContent(), "Step 4 of 6");
  assert.equal(await walk.locator(".player .slide-title").textContent(), "4. Softmax");
  await set("slides", ".embed-error");
  assert.deepEqual(await page.evaluate(() => window.errors), [
    'layout: "slides" is not a layout (compact, or none)',
  ]);
  assert.equal(
    await walk.locator(".embed-error").textContent(),
    'attention-walkthrough: layout: "slides" is not a layout (compact, or none)',
  );
  await set(null, "#scene-title");
  assert.equal(await walk.locator("#scene-title").count(), 1);
  assert.equal(await walk.locator("#counter").textContent(), "Step 4 of 6", "from its attribute");
  // The output, 19.47 (the article's weighted mean of the ages), in the compact layout too.
  await set("compact", ".slide-title");
  await page.evaluate(() => document.querySelector("attention-walkthrough").goTo(6));
  assert.equal(await walk.locator('[data-matrix="output"] button.cell').textContent(), "19.4729");
  // the error stays inside the element: nothing in the console
  assert.deepEqual(page.errors, []);
  await page.close();
});
