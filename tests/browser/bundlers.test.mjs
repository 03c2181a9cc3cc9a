// bundlers.test.mjs: an author's small project, with the `npm pack` tarball installed offline,
// built by Vite, webpack and esbuild (the devDependencies, from the lock file) and loaded in
// Chromium under a Content-Security-Policy without data: (default-src 'self'). The project
// imports both the core and the element: the page must load one core and make one WASM
// instance, fetch nothing, and work; no script may keep a path of the machine that built it.
// (The labs module, which only a lab loads, is a lazy chunk of each bundle.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build as esbuild } from "esbuild";
import { build as vite } from "vite";
import webpack from "webpack";
import { start } from "./browser.mjs";
import { packInto } from "./pack.mjs";
import { countInstances } from "./hosts.mjs";

const policy =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

const main = `import { loadAttention } from "attention-by-hand";
import "attention-by-hand/element";

loadAttention().then((core) => {
  const K = [[1, 2, 0], [1, 2, 0], [0, 0, 2], [1, 4, 0]];
  const { output } = core.attention([[1, 0, 0]], K, [[18], [20], [22], [19]]);
  document.getElementById("core").textContent = output[0][0].toFixed(4);
});
`;

const page = (script) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>An author's page</title></head>
  <body>
    <p id="core"></p>
    <attention-walkthrough scene="dictionary" lang="en" step="6"></attention-walkthrough>
    ${script}
  </body>
</html>
`;

// Each bundler builds src/main.js into dist/<name>/, with an index.html that loads it.
const bundlers = {
  async esbuild(app, out) {
    await esbuild({
      absWorkingDir: app,
      entryPoints: ["src/main.js"],
      outdir: out,
      bundle: true,
      format: "esm",
      // As for any code with import(): without splitting, esbuild inlines what loads lazily.
      splitting: true,
      minify: true,
      logLevel: "warning",
    });
    writeFileSync(join(out, "index.html"), page('<script type="module" src="main.js"></script>'));
  },
  async vite(app, out) {
    await vite({
      root: app,
      configFile: false,
      base: "./",
      logLevel: "warn",
      build: { outDir: out, emptyOutDir: true },
    });
  },
  async webpack(app, out) {
    const stats = await new Promise((done, fail) =>
      webpack(
        {
          mode: "production",
          context: app,
          entry: "./src/main.js",
          output: { path: out, filename: "main.js" },
          performance: { hints: false },
        },
        (error, result) => (error ? fail(error) : done(result)),
      ),
    );
    assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
    writeFileSync(join(out, "index.html"), page('<script src="main.js"></script>'));
  },
};

let env, folder, app, remove, marker;
before(async () => {
  ({ folder, app, remove } = packInto("attention-by-hand-bundlers-"));
  mkdirSync(join(app, "src"));
  writeFileSync(join(app, "src", "main.js"), main);
  // Vite starts from the page; the others from main.js.
  writeFileSync(
    join(app, "index.html"),
    page('<script type="module" src="./src/main.js"></script>'),
  );
  // The core's inlined WASM, whole: the page must load it once.
  const core = join(app, "node_modules/attention-by-hand/web/generated/attention-core.mjs");
  marker = readFileSync(core, "utf8").match(/"([A-Za-z0-9+/]{1000,}={0,2})"/)[1];
  env = await start(app, { "content-security-policy": policy });
});
after(async () => {
  await env?.close();
  remove?.();
});

const scripts = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => /\.m?js$/.test(f))
    .map((f) => readFileSync(join(dir, f), "utf8"));

for (const [name, bundle] of Object.entries(bundlers)) {
  test(`${name}: one core, one WASM instance, no fetch, no build path, and it works`, async (t) => {
    const out = join(app, "dist", name);
    await bundle(app, out);

    const code = scripts(out);
    const all = code.join("\n");
    assert.ok(!all.includes(folder), "no path of the machine that built it");
    const bytes = Buffer.byteLength(all);
    const gzipped = code.reduce((sum, c) => sum + gzipSync(c, { level: 9 }).length, 0);
    t.diagnostic(`${name}: ${code.length} script(s) built, ${bytes} bytes, ${gzipped} gzipped`);

    const tab = await env.browser.newPage();
    const errors = [];
    tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    tab.on("pageerror", (e) => errors.push(e.message));
    const loaded = [];
    tab.on("response", (r) => r.request().resourceType() === "script" && loaded.push(r.text()));
    await countInstances(tab);
    await tab.addInitScript(() => {
      window.violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const response = await tab.goto(`${env.url}dist/${name}/index.html`);
    assert.equal(response.headers()["content-security-policy"], policy);

    const cells = tab.locator('attention-walkthrough [data-matrix="output"] button.cell');
    await cells.first().waitFor();
    assert.deepEqual(await cells.allTextContents(), ["9.6804", "42.9798"]);
    await tab.locator("#core:not(:empty)").waitFor();
    const e = Math.exp(1 / Math.sqrt(3)); // exp(score·scale) for the three keys that match
    const age = (e * (18 + 20 + 19) + 22) / (3 * e + 1);
    assert.equal(await tab.locator("#core").textContent(), age.toFixed(4));

    assert.equal(await tab.evaluate(() => window.instances), 1, "one WASM instance");
    const first = await Promise.all(loaded);
    const firstGzipped = first.reduce((sum, c) => sum + gzipSync(c, { level: 9 }).length, 0);
    t.diagnostic(`${name}: the page loads ${first.length} script(s), ${firstGzipped} gzipped`);
    assert.equal(first.join("\n").split(marker).length - 1, 1, "the page loads the core once");
    assert.deepEqual(await tab.evaluate(() => window.violations), []);
    assert.deepEqual(errors, []);
    await tab.close();
  });
}
