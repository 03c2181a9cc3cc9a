// notebook.test.mjs: attention_by_hand.show() as a notebook displays it. Its HTML (the element's
// script and WASM core inlined) is opened in Chromium with every request refused, as offline:
// a scene and a custom q, k, v (at two steps) side by side in one page, each showing the numbers that the
// Python trace of the same matrices has (the same core, in WASM and natively), and one element
// registration for both.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { start, openPage, venvPython } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const { html, output, weights } = venvPython(`
import json, attention_by_hand as abh
q = [[1, 0.5], [0, 2]]
k = [[1, 0], [0.5, 1], [2, -1]]
v = [[1], [2], [3]]
mine = dict(q=q, k=k, v=v, queries=["a", "b"], keys=["x", "y", "z"], values=["n"], lang="en")
page = abh.show(scene="age", lang="en", step=6)._repr_html_() + abh.show(**mine, step=6)._repr_html_() + abh.show(**mine, step=5)._repr_html_()
t = abh.attention(q, k, v)
print(json.dumps({"html": page, "output": t.output.tolist(), "weights": t.weights.tolist()}))
`);

test("show() displays offline: a scene and your own q, k, v, each with the core's numbers", async () => {
  const page = await openPage(env.browser, "about:blank");
  const requests = [];
  await page.route("**/*", (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${html}</body>`);
  const elements = page.locator("attention-walkthrough");
  assert.equal(await elements.count(), 3);
  const outputs = (i) =>
    elements.nth(i).locator('[data-matrix="output"] button.cell').allTextContents();
  await page.waitForFunction(() =>
    [...document.querySelectorAll("attention-walkthrough")].every((e) =>
      (e.shadowRoot ?? e).querySelector("[data-matrix] button.cell"),
    ),
  );
  // the age scene's output, 19.4729 (docs/scenes.md)
  assert.deepEqual((await outputs(0)).map(Number), [19.4729]);
  // the custom matrices: the page's 4 decimals are the Python trace's, rounded
  assert.deepEqual(
    (await outputs(1)).map(Number),
    output.flat().map((x) => Number(x.toFixed(4))),
  );
  const shown = await elements
    .nth(2)
    .locator('[data-matrix="weights"] button.cell')
    .allTextContents();
  assert.deepEqual(
    shown.map(Number),
    weights.flat().map((x) => Number(x.toFixed(4))),
  );
  assert.deepEqual(requests, [], "nothing fetched");
  assert.deepEqual(page.errors, []);
});

test("a walkthrough saved as one file opens from file:// with the network cut, the core's numbers in it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "abh-saved-"));
  const saved = venvPython(`
import json, attention_by_hand as abh
w = abh.show(q=${JSON.stringify([
    [1, 0.5],
    [0, 2],
  ])}, k=${JSON.stringify([
    [1, 0],
    [0.5, 1],
    [2, -1],
  ])},
             v=[[1], [2], [3]], queries=["a", "b"], keys=["x", "y", "z"], lang="zh", step=6)
print(json.dumps({"path": str(w.save(${JSON.stringify(join(dir, "mine.html"))}))}))
`);
  const page = await openPage(env.browser, "about:blank");
  const requests = [];
  const file = pathToFileURL(saved.path).href;
  await page.route("**/*", (route) => {
    if (route.request().url() === file) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(file);
  const cells = page.locator('attention-walkthrough [data-matrix="output"] button.cell');
  await cells.first().waitFor();
  assert.deepEqual(
    (await cells.allTextContents()).map(Number),
    output.flat().map((x) => Number(x.toFixed(4))),
  );
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
  assert.deepEqual(requests, [], "nothing fetched");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("where a notebook runs no script (untrusted), each walkthrough says how to show it, in its language", async () => {
  const page = await openPage(env.browser, "about:blank");
  await page.route("**/*", (route) => route.abort());
  // Jupyter's sanitizer drops an untrusted output's scripts
  const sanitized = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${sanitized}</body>`);
  const notes = await page.locator("attention-walkthrough > p").allInnerTexts();
  assert.equal(notes.length, 3);
  for (const note of notes) assert.match(note, /trust this notebook .* or run this cell again/);
  const zh = venvPython(`
import json, attention_by_hand as abh
print(json.dumps({"html": abh.show(scene="age", lang="zh")._repr_html_()}))
`).html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "");
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${zh}</body>`);
  assert.match(await page.locator("attention-walkthrough > p").innerText(), /请信任这个笔记本/);
  await page.close();
});

test("where the script runs, the note for untrusted notebooks is hidden", async () => {
  const page = await openPage(env.browser, "about:blank");
  await page.route("**/*", (route) => route.abort());
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${html}</body>`);
  await page.waitForSelector("attention-walkthrough >> [data-matrix] button.cell");
  // the light DOM's notes (a locator would also find the element's own, in its shadow root)
  const visible = await page.evaluate(() =>
    [...document.querySelectorAll("attention-walkthrough > p")].map(
      (p) => p.getClientRects().length > 0,
    ),
  );
  assert.deepEqual(visible, [false, false, false]);
  await page.close();
});
