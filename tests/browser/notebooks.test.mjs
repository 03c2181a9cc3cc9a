// notebooks.test.mjs: the two notebooks (notebooks/*.ipynb, zh and en) executed by the real
// Jupyter (Debian's nbconvert, the kernel of build/venv where `make venv` installed the wheel),
// exported to HTML, and opened from file:// in Chromium with every network request refused.
// Every walkthrough in them must show its numbers: a scene's are checked against
// tests/fixtures/scenes.json, a custom one's against softmax(QKᵀ/√d)·V worked out here in
// float64 from the matrices written into its output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { start, openPage } from "./browser.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const python = `${root}build/venv/bin/python`;
const out = `${root}build/notebooks`;
const notebooks = { zh: "注意力手算", en: "attention-by-hand" };
const scenes = JSON.parse(readFileSync(`${root}tests/fixtures/scenes.json`, "utf8"));

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

// softmax(Q·Kᵀ·scale)·V, a mask's blocked cells left out: every step the walkthrough can show.
function reference({ q, k, v, mask }) {
  const scale = 1 / Math.sqrt(q[0].length);
  const scores = q.map((row) => k.map((key) => row.reduce((s, x, d) => s + x * key[d], 0)));
  const seen = (i, j) => (mask === "causal" ? j <= i : mask ? mask[i][j] : true);
  const weights = scores.map((row, i) => {
    const top = Math.max(...row.filter((_, j) => seen(i, j)).map((s) => s * scale));
    const e = row.map((s, j) => (seen(i, j) ? Math.exp(s * scale - top) : 0));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((s, x, j) => s + x * v[j][c], 0)));
  return { scores, weights, output };
}

// What each walkthrough in a page is given (its scene, or its own matrices) and what it shows.
async function walkthroughs(page) {
  return page.$$eval("attention-walkthrough", (elements) =>
    elements.map((e) => {
      const inline = e.querySelector('script[type="application/json"]');
      const shown = {};
      for (const m of (e.shadowRoot ?? e).querySelectorAll("[data-matrix]")) {
        const cells = [...m.querySelectorAll("button.cell")].map((c) => c.textContent);
        if (cells.length) shown[m.dataset.matrix] = cells;
      }
      return {
        scene: e.getAttribute("scene"),
        step: e.getAttribute("step"),
        custom: inline && JSON.parse(inline.textContent),
        shown,
      };
    }),
  );
}

const rounded = (m) => m.flat().map((x) => Number(x.toFixed(4)));
// A cell as shown: the page writes a minus sign (−), not a hyphen.
const number = (text) => Number(text.replace("−", "-"));

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
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll("attention-walkthrough")].every((e) =>
          (e.shadowRoot ?? e).querySelector("[data-matrix] button.cell"),
        ),
      null,
      { timeout: 20000 },
    );
    const views = await walkthroughs(page);
    assert.equal(views.length, 4, "four show() outputs in each notebook");
    let checked = 0;
    for (const view of views) {
      const expected = view.scene
        ? scenes[view.scene]
        : reference(
            view.custom.inputs ? { ...view.custom.inputs, mask: view.custom.mask } : view.custom,
          );
      const names = Object.keys(view.shown).filter(
        (m) => m in expected && m !== "q" && m !== "k" && m !== "v",
      );
      assert.ok(
        names.length > 0,
        `${view.scene ?? "a custom view"} at step ${view.step} shows a computed matrix`,
      );
      for (const m of names) {
        assert.deepEqual(
          view.shown[m].map(number),
          rounded(expected[m]),
          `${view.scene ?? view.custom.title}: ${m}`,
        );
        checked += view.shown[m].length;
      }
    }
    assert.ok(checked >= 20, `checked ${checked} numbers`);
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
