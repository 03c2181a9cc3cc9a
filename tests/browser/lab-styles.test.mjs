// lab-styles.test.mjs: a lab's styles are its folder's, linked when it opens (lab.js). The first
// view links none of them; a lab opened from a link, or from the scene list, has those it names
// (the kit's, its lesson's) loaded before it draws, each linked once however
// often it opens; and every stylesheet under web/labs/ is one that a lab names.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, existsSync } from "node:fs";
import "../node/gpt-files.mjs";
import { start, openApp } from "./browser.mjs";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

const web = new URL("../../web/", import.meta.url);
const labs = await Promise.all(listed.filter((s) => s.lazy).map((s) => resolveScene(s)));

// The stylesheets linked in the page, by path from web/, each with how many rules it has.
const linkedSheets = (page) =>
  page.evaluate(() =>
    [...document.styleSheets]
      .filter((s) => s.href && new URL(s.href).pathname.includes("/labs/"))
      .map((s) => [new URL(s.href).pathname.replace(/^.*?\/labs\//, "labs/"), s.cssRules.length]),
  );

test("every lab stylesheet exists, and every one under web/labs/ is declared", () => {
  const declared = new Set(labs.flatMap((s) => s.lab.styles ?? []));
  for (const path of declared) assert.ok(existsSync(new URL(path, web)), path);
  const files = readdirSync(new URL("labs/", web), { recursive: true })
    .filter((f) => f.endsWith(".css"))
    .map((f) => `labs/${f}`);
  assert.deepEqual(files.sort(), [...declared].sort());
});

test("the first view links no lab styles; a lab's are loaded before it draws, once each", async () => {
  const page = await openApp(env, "scene=classroom&lang=en", {
    viewport: { width: 1440, height: 900 },
  });
  assert.deepEqual(await linkedSheets(page), []);
  // from a link: the induction lab's sequence is laid out by labs/gpt/style.css
  await page.goto(`${env.url}?scene=induction&lang=en&step=1`);
  await page.waitForSelector("#app[data-ready] .induction-sequence");
  assert.equal(
    await page.$eval(".induction-sequence .tokens", (ol) => getComputedStyle(ol).display),
    "flex",
  );
  // from the scene list: the scale lab's plot by labs/why/style.css, the kit's tables by kit.css
  await page.getByRole("button", { name: "Scale", exact: true }).click();
  await page.waitForSelector(".scale-plot, .scale-table");
  await page.getByRole("button", { name: "Online softmax" }).click();
  await page.waitForSelector("svg.tiling-walk");
  assert.equal(
    await page.$eval("svg.tiling-walk", (svg) => getComputedStyle(svg).display),
    "block",
    "the walk's picture is styled",
  );
  await page.getByRole("button", { name: "An induction head forms" }).click();
  await page.waitForSelector(".induction-sequence");
  const sheets = await linkedSheets(page);
  assert.deepEqual(sheets.map(([path]) => path).sort(), [
    "labs/gpt/style.css",
    "labs/kit.css",
    "labs/why/style.css",
  ]);
  for (const [path, rules] of sheets) assert.ok(rules > 5, `${path}: ${rules} rules`);
  assert.equal(page.errors.length, 0, page.errors.join("\n"));
  await page.close();
});
