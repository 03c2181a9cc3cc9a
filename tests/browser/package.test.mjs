// package.test.mjs: `npm pack`, the tarball installed into an empty folder, then used the way
// a user would: the core API from Node through import and require, the element imported in
// Node (server-side rendering), and the element in a page served from that folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { start, openPage } from "./browser.mjs";
import { packInto, repo, run } from "./pack.mjs";

let env, app, remove;
before(async () => {
  ({ app, remove } = packInto("attention-by-hand-"));
  env = await start(app);
});
after(async () => {
  await env?.close();
  remove?.();
});

test("the tarball's core API works from Node", () => {
  writeFileSync(
    join(app, "use.mjs"),
    `import { loadAttention } from "attention-by-hand";
const core = await loadAttention();
const { output } = core.attention([[1, 0, 0]], [[1, 2, 0], [1, 2, 0], [0, 0, 2], [1, 4, 0]], [[18], [20], [22], [19]]);
try { core.attention([[1, 2]], [[1, 2, 3]], [[1]]); } catch (error) { console.log(error.message); }
console.log(output[0][0].toFixed(4));
console.log(import.meta.resolve("attention-by-hand/element"));
for (const name of ["element.js", "embed.html", "embed.css", "embed.js", "standalone"])
  console.log(import.meta.resolve("attention-by-hand/" + name));`,
  );
  const [error, age, element, ...files] = run("node", ["use.mjs"], app).trim().split("\n");
  assert.equal(error, "K has 3 columns but Q has 2 (d_k must match)");
  assert.equal(age, "19.4729");
  assert.match(
    element,
    /node_modules\/attention-by-hand\/web\/generated\/attention-walkthrough\.mjs$/,
  );
  // the classic script and the iframe's files, by name; each is in the tarball
  const paths = [
    "web/generated/attention-walkthrough.js",
    "web/embed.html",
    "web/embed.css",
    "web/embed.js",
    "web/generated/attention-walkthrough.html",
  ];
  assert.deepEqual(
    files.map((f) => f.replace(/^.*node_modules\/attention-by-hand\//, "")),
    paths,
  );
  for (const f of files) assert.ok(readFileSync(new URL(f)).length > 100, f);
});

test("server-side rendering: Node imports the element cleanly and defines nothing", () => {
  writeFileSync(
    join(app, "ssr.mjs"),
    `import { loadAttention } from "attention-by-hand";
import "attention-by-hand/element";
console.log(typeof HTMLElement, typeof customElements, typeof CSSStyleSheet);
const core = await loadAttention();
console.log(core.attention([[1, 0, 0]], [[1, 2, 0], [0, 0, 2]], [[18], [22]]).output[0][0].toFixed(4));`,
  );
  const [globals, output] = run("node", ["ssr.mjs"], app).trim().split("\n");
  assert.equal(globals, "undefined undefined undefined", "Node has no DOM, and the test none");
  const e = Math.exp(1 / Math.sqrt(3)); // the first weight over the second
  assert.equal(output, ((18 * e + 22) / (e + 1)).toFixed(4));
});

// engines says Node 20; require() of an ES module came in 20.19 and 22.12. The flag turns it
// off, as on the Node versions before those: require() must work there too, through the
// CommonJS entries, and share the one core with import.
for (const flags of [[], ["--no-experimental-require-module"]]) {
  const how = flags.length ? "off, as before Node 20.19" : "on";
  test(`require() works and shares the core with import (require of ESM ${how})`, () => {
    writeFileSync(
      join(app, "use.cjs"),
      `const { loadAttention } = require("attention-by-hand");
const element = require("attention-by-hand/element");
try { require("./node_modules/attention-by-hand/web/attention.js"); console.log("required ESM"); }
catch (error) { console.log(error.code); }
(async () => {
  const core = await loadAttention();
  const imported = await (await import("attention-by-hand")).loadAttention();
  await element;
  const labs = await (await import("attention-by-hand")).loadLabs();
  console.log(core === imported, labs === (await require("attention-by-hand").loadLabs()), typeof customElements);
  console.log(core.attention([[1, 0]], [[1, 0], [0, 1]], [[1], [3]], { scale: 1 }).output[0][0].toFixed(4));
  try { core.attention([[1, 2]], [[1, 2, 3]], [[1]]); } catch (error) { console.log(error.message); }
})();`,
    );
    const [esm, shared, output, error] = run("node", [...flags, "use.cjs"], app)
      .trim()
      .split("\n");
    const engines = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).engines;
    assert.equal(engines.node, ">=20", "the range these two runs stand for");
    assert.equal(esm, flags.length ? "ERR_REQUIRE_ESM" : "required ESM");
    assert.equal(shared, "true true undefined");
    assert.equal(output, ((1 + 3 * Math.exp(-1)) / (1 + Math.exp(-1))).toFixed(4));
    assert.equal(error, "K has 3 columns but Q has 2 (d_k must match)");
  });
}

test("the tarball's element works in a page", async () => {
  writeFileSync(
    join(app, "index.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><attention-walkthrough scene="dictionary" lang="en" step="6"></attention-walkthrough>
<script src="node_modules/attention-by-hand/web/generated/attention-walkthrough.js"></script></body></html>`,
  );
  const page = await openPage(env.browser, env.url);
  const cells = page.locator('attention-walkthrough [data-matrix="output"] button.cell');
  await cells.first().waitFor();
  assert.deepEqual(await cells.allTextContents(), ["9.6804", "42.9798"]);
  assert.deepEqual(page.errors, []);
  await page.close();
});
