// first-view.test.mjs: what the page's first view fetches. Over HTTP the core's WASM comes from
// its own file (application/wasm, once) and compiles while it streams in; everything the first
// view loads is requested at once by web/index.html's start and none of it is a lab's; where
// the .wasm cannot stream, the core's inlined bytes still give the same numbers. (How fast:
// `make bench`.)
import { readFileSync } from "node:fs";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openPage } from "./browser.mjs";
import { policy } from "../../tools/serve.mjs";

const web = new URL("../../web/", import.meta.url);
// what the page loads at once, after the HTML (which holds its style and its start): what its
// start requests together (tools/bundle.mjs writes the list: app.js and the chunks it imports,
// and the words of the page's language, here Chinese, and not the other's) and the core's .wasm
const { live, words } = JSON.parse(readFileSync(new URL("generated/start.json", web), "utf8"));
const preloaded = [
  ...[...live, words.zh].map((href) => `/generated/${href}`),
  "/generated/attention-core.wasm",
];
// The age scene at its last step: 19.4729, the key-value lookup by hand (docs/scenes.md).
const query = "?scene=age&lang=zh&step=6";

let env;
before(async () => (env = await start()));
after(() => env.close());

// Runs in the page first: what its WebAssembly was compiled from, a streamed response's URL or
// "bytes".
function compiledFrom() {
  const from = [];
  Object.defineProperty(window, "compiledFrom", { value: from });
  for (const name of ["compile", "compileStreaming", "instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (source, ...rest) {
      if (name.endsWith("Streaming")) Promise.resolve(source).then((r) => from.push(r.url));
      else if (!(source instanceof WebAssembly.Module)) from.push("bytes");
      return original.call(this, source, ...rest);
    };
  }
}

// The page at ?query on env, with the responses it got until its first view was drawn.
async function firstView(env) {
  const page = await openPage(env.browser, "about:blank");
  await page.addInitScript(compiledFrom);
  const responses = [];
  page.on("response", (r) => responses.push(r));
  await page.goto(`${env.url}${query}`);
  await page.waitForSelector("#app[data-ready]");
  const output = await page
    .locator('[data-matrix="output"] button.cell')
    .evaluateAll((cells) => cells.map((c) => c.textContent));
  return {
    page,
    output,
    responses,
    paths: responses.map((r) => new URL(r.url()).pathname),
    compiledFrom: await page.evaluate(() => window.compiledFrom),
  };
}

test("over HTTP the core's .wasm is fetched once, as application/wasm, and the age scene shows 19.4729", async () => {
  const { page, output, responses, paths, compiledFrom } = await firstView(env);
  assert.deepEqual(output, ["19.4729"]);
  assert.deepEqual(compiledFrom, [`${env.url}generated/attention-core.wasm`]);
  const wasm = responses.filter((r) => r.url().endsWith("/generated/attention-core.wasm"));
  assert.equal(wasm.length, 1, paths.join(" "));
  assert.equal(wasm[0].headers()["content-type"], "application/wasm");
  assert.equal(wasm[0].status(), 200);
  // the module with the bytes inlined is not loaded as well
  assert.ok(!paths.some((p) => /attention-core-\w+\.js$/.test(p)), paths.join(" "));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the first view fetches what the page's start requests, all of it, and no lab's code", async () => {
  const { page, paths } = await firstView(env);
  const scripts = paths.filter((p) => /\.(m?js|wasm)$/.test(p));
  assert.deepEqual([...scripts].sort(), [...preloaded].sort());
  // the HTML, and the step's view drawn at build time (the step is not the first)
  assert.deepEqual(
    paths.filter((p) => !scripts.includes(p)),
    ["/", "/generated/views/age-zh-6.json"],
  );
  // the labs' chunks are named after their modules (heads-…, model-…, attention-labs-…)
  const labs = readFileSync(new URL("catalogue.js", web), "utf8").match(/labs\/[\w/]+\.js/g);
  assert.ok(labs.length >= 10);
  for (const lab of [...labs, "labs/attention-labs.js"]) {
    const name = lab.split("/").at(-1).replace(/\.js$/, "");
    assert.ok(!paths.some((p) => p.includes(`/${name}-`)), `${name} fetched: ${paths.join(" ")}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("where the .wasm cannot stream (served as octet-stream), the inlined core gives the same numbers", async () => {
  const wasm = readFileSync(new URL("generated/attention-core.wasm", web));
  const octets = await start(
    undefined,
    { "content-security-policy": policy() },
    {
      "/generated/attention-core.wasm": (request, response) =>
        response.writeHead(200, { "content-type": "application/octet-stream" }).end(wasm),
    },
  );
  try {
    const { page, output, paths, compiledFrom } = await firstView(octets);
    assert.deepEqual(output, ["19.4729"]);
    assert.deepEqual(compiledFrom, [`${octets.url}generated/attention-core.wasm`, "bytes"]);
    assert.ok(
      paths.some((p) => /\/chunks\/attention-core-\w+\.js$/.test(p)),
      paths.join(" "),
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await octets.close();
  }
});

test("the page loads the words of its language only; the other's come when the learner switches, and a switch whose words cannot load says so and keeps the page", async () => {
  const page = await openPage(env.browser, "about:blank");
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(`${env.url}?scene=age&lang=zh&step=6`);
  await page.waitForSelector("#app[data-ready]");
  assert.ok(fetched.includes(`/generated/${words.zh}`), fetched.join(" "));
  assert.ok(!fetched.includes(`/generated/${words.en}`), fetched.join(" "));
  // the switch: the English words load (the button says so meanwhile), then the page is in
  // English, at the same step
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(`**/generated/${words.en}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.click("#lang-en");
  await page.locator('#lang-en[aria-busy="true"]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
  release();
  await page.waitForFunction(() => document.documentElement.lang === "en");
  assert.equal(await page.locator("#lang-en").getAttribute("aria-busy"), null);
  assert.ok(fetched.includes(`/generated/${words.en}`));
  assert.equal(await page.locator("#step-title").textContent(), "6. Result");
  assert.deepEqual(await page.locator('[data-matrix="output"] button.cell').allTextContents(), [
    "19.4729",
  ]);
  assert.deepEqual(page.errors, []);
  await page.close();

  // the English words cannot load: the page stays in Chinese, says why, and still works
  const offline = await openPage(env.browser, "about:blank");
  await offline.route(`**/generated/${words.en}`, (route) => route.abort());
  await offline.goto(`${env.url}?scene=age&lang=zh&step=6`);
  await offline.waitForSelector("#app[data-ready]");
  await offline.click("#lang-en");
  const alert = offline.locator('[role="alert"]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /另一种语言没能加载/);
  assert.equal(await offline.locator("#lang-en").getAttribute("aria-busy"), null);
  assert.equal(await offline.evaluate(() => document.documentElement.lang), "zh-CN");
  assert.equal(await offline.locator("#lang-zh").getAttribute("aria-pressed"), "true");
  // back online: the switch works, and the notice that it could not is gone
  await offline.unroute(`**/generated/${words.en}`);
  await offline.click("#lang-en");
  await offline.waitForFunction(() => document.documentElement.lang === "en");
  assert.equal(await offline.locator('[role="alert"]').count(), 0);
  await offline.click("#back");
  await offline.waitForFunction(() =>
    document.querySelector("#step-title")?.textContent.startsWith("5."),
  );
  await offline.close();
});

test("at 390 px, the current scene's button stays in view in the scene list after a language switch", async () => {
  const page = await openPage(env.browser, `${env.url}?scene=cup&lang=zh&step=2`, {
    viewport: { width: 390, height: 844 },
  });
  await page.waitForSelector("#app[data-ready]");
  const inView = () =>
    page.evaluate(() => {
      const current = document.querySelector('nav.path [aria-current="page"]');
      const row = current.closest(".scroll").getBoundingClientRect();
      const box = current.getBoundingClientRect();
      return box.left >= row.left - 1 && box.right <= row.right + 1;
    });
  assert.equal(await inView(), true, "on load");
  for (const lang of ["en", "zh"]) {
    await page.click(`#lang-${lang}`);
    await page.locator(`#lang-${lang}[aria-pressed="true"]`).waitFor();
    assert.equal(await inView(), true, `after the switch to ${lang}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
