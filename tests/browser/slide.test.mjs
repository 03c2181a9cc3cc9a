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
      assert.equal(counters.length, 5);
      assert.match(counters[1], lang === "en" ? /^Step 6 of 6$/ : /^第 6 步，共 6 步$/);
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
