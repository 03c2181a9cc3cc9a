// notebooks.test.mjs: the two notebooks (notebooks/*.ipynb, zh and en) executed by the real
// Jupyter (Debian's nbconvert, the kernel of build/venv where `make venv` installed the wheel),
// exported to HTML, and opened from file:// in Chromium with every network request refused.
// Every walkthrough in them must show its numbers (notebook-views.mjs: a scene's from
// tests/fixtures/scenes.json, a custom one's from a float64 softmax of the matrices written into
// its output), and every head of the grid that ends each (show_heads) its weights.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { start, openPage } from "./browser.mjs";
import { checkHeads, checkWalkthroughs, drawn } from "./notebook-views.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const python = `${root}build/venv/bin/python`;
const out = `${root}build/notebooks`;
const notebooks = { zh: "注意力手算", en: "attention-by-hand" };

let env;
before(async () => {
  assert.ok(existsSync(python), "build/venv is missing: run make venv (the wheel, installed)");
  rmSync(out, { recursive: true, force: true });
  // --execute fails on any cell's error (an assert in a cell included): execFileSync throws
  execFileSync(
    python,
    [
      "-m",
      "nbconvert",
      "--execute",
      "--to",
      "html",
      "--output-dir",
      out,
      ...Object.values(notebooks).map((n) => `${root}notebooks/${n}.ipynb`),
    ],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: "1" },
    },
  );
  env = await start();
});
after(() => env?.close());

for (const [lang, name] of Object.entries(notebooks)) {
  test(`the ${lang} notebook, executed and exported, shows every walkthrough's numbers offline`, async () => {
    const file = `${out}/${name}.html`;
    const page = await openPage(env.browser, "about:blank");
    // Nothing from the network; files only, and of those only the notebook may be missing
    // nothing: nbconvert's template names Debian's require.js and MathJax, which need not be
    // installed (the walkthroughs use neither).
    const requested = [];
    const missing = [];
    await page.route("**/*", (route) => {
      requested.push(route.request().url());
      return route.request().url().startsWith("file:") ? route.continue() : route.abort();
    });
    page.on("requestfailed", (request) => missing.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await drawn(page);
    const checked = await checkWalkthroughs(page, 4);
    assert.ok(checked >= 20, `checked ${checked} numbers`);
    // the last cell's grid of an nn.MultiheadAttention's two heads, one opened
    assert.equal(await checkHeads(page, 1), 2);
    assert.deepEqual(
      requested.filter((url) => !url.startsWith("file:")),
      [],
      "no request leaves the machine",
    );
    const template = /^file:\/\/\/usr\/share\/javascript\/(requirejs|mathjax)\//;
    assert.deepEqual(
      missing.filter((url) => !template.test(url)),
      [],
    );
    assert.deepEqual(
      page.errors.filter((e) => e !== "Failed to load resource: net::ERR_FILE_NOT_FOUND"),
      [],
    );
    assert.ok(page.errors.length <= missing.length);
    await page.close();
  });
}
