// lifetime.test.mjs: the page used for a long time, in Chromium. 1,000 actions: stepping by
// keyboard, good and bad edits, switching scenes and languages. Afterwards the WASM heap, the
// live embind handles, the JS heap (after a real collection, read through the DevTools
// protocol), the DOM and the event listeners are where they were after the first 100 actions.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage, pageMemory } from "./browser.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
let env;
before(async () => (env = await start(repo)));
after(() => env.close());

const actions = 1000;

test(`${actions} steps, edits and scene switches leave every heap flat`, async () => {
  const page = await openPage(env.browser, `${env.url}tests/browser/pages/lifetime.html`);
  await page.waitForSelector("#app[data-ready]");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");

  // Actions in turn: steps by keyboard and through the API, an edit the core takes, one it
  // refuses (the last good numbers stay), a reset, a scene, the other language.
  const play = (from, count) =>
    page.evaluate(
      async ([from, count]) => {
        const ids = ["classroom", "age", "dictionary", "book", "cup"];
        const key = (k) => dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
        const first = () => Object.keys(walk.state.inputs)[0];
        const shifted = (m, by) => m.map((row) => row.map((x) => x + by));
        let original;
        let refused = 0;
        const actions = [
          () => key("ArrowRight"),
          () => key("End"),
          (n) => walk.goTo(1 + (n % 3)),
          (n) => {
            original = walk.state.inputs[first()];
            walk.setInputs({ [first()]: shifted(original, (n % 7) / 10) });
          },
          () => {
            try {
              walk.setInputs({ [first()]: [[1, 2], [3]] });
            } catch {
              refused++;
            }
          },
          () => walk.setInputs({ [first()]: original }),
          () => key("Home"),
          (n) => walk.setLang(n % 2 ? "zh" : "en"),
          (n) => walk.setScene(ids[n % ids.length]),
          () => key("ArrowRight"),
        ];
        for (let n = from; n < from + count; n++) {
          actions[n % actions.length](Math.floor(n / actions.length));
          if (n % 100 === 0) await new Promise((done) => setTimeout(done));
        }
        walk.setScene("classroom");
        walk.setLang("en");
        walk.goTo(0);
        return refused;
      },
      [from, count],
    );

  async function measure() {
    return {
      ...(await page.evaluate(() => window.core.memory())),
      ...(await pageMemory(page, cdp)),
    };
  }

  assert.equal(await play(0, 100), 10, "warm-up: every bad edit refused");
  const first = await measure();
  assert.equal(await play(100, actions), actions / 10, "every bad edit refused");
  const last = await measure();
  for (const key of ["inUse", "heapTop", "heapBytes", "handles", "domNodes"]) {
    assert.equal(last[key], first[key], `${key}: ${first[key]} → ${last[key]}`);
  }
  assert.ok(last.listeners <= first.listeners, `listeners: ${first.listeners} → ${last.listeners}`);
  const growth = last.jsHeap - first.jsHeap;
  assert.ok(growth < 1_000_000, `JS heap grew by ${growth} bytes over ${actions} actions`);
  console.log(`# lifetime: ${actions} actions, JS heap ${first.jsHeap} → ${last.jsHeap} bytes`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
