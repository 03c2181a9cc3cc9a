// hosts.mjs: what the tests of tutorial hosts share (hosts.test.mjs here, tests/hosts/ for
// the heavier ones): the numbers a page must show, worked out apart from the project, the
// host's packages linked into the author's project, and what a page logs and instantiates.
import assert from "node:assert/strict";
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { repo } from "./pack.mjs";

// The dictionary scene at its output step (docs/scenes.md), as bundlers.test.mjs reads it.
export const dictionaryOutput = ["9.6804", "42.9798"];

// The custom scene of the docs, web/example-scene.json: one query, three keys, a value each.
export const sceneText = readFileSync(join(repo, "web/example-scene.json"), "utf8");
export const scene = JSON.parse(sceneText);
// Its output, by hand: softmax(q·kᵀ / √2) · v.
export const weatherOutput = (() => {
  const [q] = scene.inputs.q;
  const scores = scene.inputs.k.map((k) => (q[0] * k[0] + q[1] * k[1]) / Math.sqrt(2));
  const e = scores.map(Math.exp);
  const sum = e.reduce((a, b) => a + b, 0);
  return e.reduce((out, w, i) => out + (w / sum) * scene.inputs.v[i][0], 0);
})();

// Records what a host's page logs: errors, and any warning or error about hydration.
export function listen(page) {
  page.logged = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /hydrat/i.test(m.text()))
      page.logged.push(`${m.text()} ${m.location().url}`);
  });
  page.on("response", (r) => r.status() >= 400 && page.logged.push(`${r.status()} ${r.url()}`));
}

// Counts WebAssembly instances made in a page, however they are made.
export async function countInstances(page) {
  await page.addInitScript(() => {
    window.instances = 0;
    for (const name of ["instantiate", "instantiateStreaming"]) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        window.instances += 1;
        return original.apply(this, args);
      };
    }
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
      construct(target, args) {
        window.instances += 1;
        return Reflect.construct(target, args);
      },
    });
  });
}

export const outputCells = (element) => element.locator('[data-matrix="output"] button.cell');

/** Links a workspace's packages (the hosts) into the author's project, as its own dependencies. */
export function linkHosts(app, workspace) {
  const hosts = JSON.parse(readFileSync(join(repo, workspace, "package.json"), "utf8"));
  for (const name of Object.keys(hosts.dependencies)) {
    symlinkSync(join(repo, "node_modules", name), join(app, "node_modules", name), "dir");
  }
}

/**
 * A host's page as an author's reader meets it: the home page's element (#home) shows the
 * dictionary's numbers; a click on the link "Your own scene" (inside `within`, when given) goes to
 * the custom page in the same window, where each element of `ids` shows the custom scene.
 */
export async function readsHomeThenCustom(page, url, ids, within = page) {
  await page.goto(url);
  const home = page.locator("#home");
  await outputCells(home).first().waitFor();
  assert.deepEqual(await outputCells(home).allTextContents(), dictionaryOutput);
  await page.evaluate(() => (window.sameWindow = true));
  await within.getByRole("link", { name: "Your own scene" }).click();
  await page.waitForURL(/custom/);
  for (const id of ids) {
    const element = page.locator(`#${id}`);
    await outputCells(element).first().waitFor();
    assert.equal(await element.locator("#scene-title").textContent(), scene.title.en, id);
    assert.deepEqual(await outputCells(element).allTextContents(), [weatherOutput.toFixed(4)], id);
  }
  assert.equal(await page.evaluate(() => window.sameWindow), true, "client-side navigation");
}

/** Back to the home page: its numbers again, still one WASM instance, and nothing logged. */
export async function backHome(page) {
  assert.equal(await page.evaluate(() => window.instances), 1, "one WASM instance");
  await page.goBack();
  await outputCells(page.locator("#home")).first().waitFor();
  assert.deepEqual(await outputCells(page.locator("#home")).allTextContents(), dictionaryOutput);
  assert.equal(await page.evaluate(() => window.instances), 1, "one WASM instance");
  assert.deepEqual(page.logged, []);
}
