// package.test.mjs: `npm pack`, the tarball installed into an empty folder, then used the way
// a user would: the core API from Node, and the element in a page served from that folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { start, openPage } from "./browser.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "attention-by-hand-"));
const app = join(folder, "app");
const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: "utf8" });

let env;
before(async () => {
  run("npm", ["pack", "--silent", "--pack-destination", folder], repo);
  const tarball = readdirSync(folder).find((f) => f.endsWith(".tgz"));
  run("mkdir", ["-p", app], folder);
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true, "type": "module" }');
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(folder, tarball)], app);
  env = await start(app);
});
after(async () => {
  await env?.close();
  rmSync(folder, { recursive: true, force: true });
});

test("the tarball's core API works from Node", () => {
  writeFileSync(
    join(app, "use.mjs"),
    `import { loadAttention } from "attention-by-hand";
const core = await loadAttention();
const { output } = core.attention([[1, 0, 0]], [[1, 2, 0], [1, 2, 0], [0, 0, 2], [1, 4, 0]], [[18], [20], [22], [19]]);
try { core.attention([[1, 2]], [[1, 2, 3]], [[1]]); } catch (error) { console.log(error.message); }
console.log(output[0][0].toFixed(4));
console.log(import.meta.resolve("attention-by-hand/element"));`,
  );
  const [error, age, element] = run("node", ["use.mjs"], app).trim().split("\n");
  assert.equal(error, "K has 3 columns but Q has 2 (d_k must match)");
  assert.equal(age, "19.4729");
  assert.match(
    element,
    /node_modules\/attention-by-hand\/web\/generated\/attention-walkthrough\.js$/,
  );
});

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
