// hosts.test.mjs: where tutorials live. The `npm pack` tarball installed into an author's
// project, beside the hosts of the tools/hosts workspace: a VitePress site (Vue, rendered on the
// server at build time, then hydrated) and a reveal.js deck built with Vite. Each is built for
// production, served, and opened in Chromium: the element shows the right numbers, keys typed in
// it stay in it, one WASM instance survives VitePress's client-side navigation, custom scenes
// arrive through the scene property (Vue's :scene) and src=, and nothing is logged as an error
// and no hydration mismatch is reported.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build as vite } from "vite";
import { build as vitepress } from "vitepress";
import { openPage, start } from "./browser.mjs";
import { packInto, repo } from "./pack.mjs";
import {
  countInstances,
  dictionaryOutput,
  linkHosts,
  listen,
  outputCells,
  readsHomeThenCustom,
  backHome,
  scene,
  sceneText,
  weatherOutput,
} from "./hosts.mjs";

// --- the VitePress site: two pages, the element imported once by the theme ---------------

const vitepressConfig = `export default {
  title: "An author's tutorial",
  base: "/vitepress/",
  // no favicon to ask the server for (Chromium would log its 404 as an error)
  head: [["link", { rel: "icon", href: "data:," }]],
  vite: { logLevel: "warn" },
  vue: {
    template: {
      compilerOptions: { isCustomElement: (tag) => tag === "attention-walkthrough" },
    },
  },
};
`;

const vitepressTheme = `import DefaultTheme from "vitepress/theme";
import "attention-by-hand/element";

export default DefaultTheme;
`;

const vitepressHome = `# Attention by hand

The dictionary, at its output.

<attention-walkthrough id="home" scene="dictionary" lang="en" step="6"></attention-walkthrough>

[Your own scene](./custom)
`;

// The Vue wrapper of docs/embedding.md, as it is written there.
const vueWrapper = readFileSync(join(repo, "docs/embedding.md"), "utf8").match(
  /```vue\n([^`]*defineEmits[^`]*)```/,
)[1];

const vitepressCustom = `<script setup>
import { ref } from "vue";
import weather from "./weather.json";
import Walkthrough from "./Walkthrough.vue";
const heard = ref("");
</script>

# Your own scene

As an object, through the scene property:

<attention-walkthrough id="object" :scene="weather" lang="en" step="6"></attention-walkthrough>

From a JSON file:

<attention-walkthrough id="file" src="/vitepress/weather.json" lang="en" step="6"></attention-walkthrough>

Through the docs' Vue wrapper:

<Walkthrough id="wrapped" scene="age" lang="en" :step="2" :controls="false" @stepchange="(d) => (heard = d.step + ' of ' + d.total)" />

<p id="heard">{{ heard }}</p>
`;

// --- the reveal.js deck: built with Vite, the element on its second slide ------------------

const deckPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>An author's deck</title>
  </head>
  <body>
    <div class="reveal">
      <div class="slides">
        <section><h1>Attention by hand</h1></section>
        <section>
          <attention-walkthrough id="deck" scene="dictionary" lang="en" step="6" controls></attention-walkthrough>
        </section>
        <section>
          <attention-walkthrough id="slide" scene="book" lang="zh" step="4" layout="compact"></attention-walkthrough>
        </section>
        <section><h2>The end</h2></section>
      </div>
    </div>
    <script type="module" src="./src/deck.js"></script>
  </body>
</html>
`;

const deckScript = `import Reveal from "reveal.js";
import "reveal.js/reveal.css";
import "reveal.js/theme/white.css";
import "attention-by-hand/element";

window.deck = new Reveal({ hash: true });
window.deck.initialize();
`;

let env, app, remove;
before(async () => {
  ({ app, remove } = packInto("attention-by-hand-hosts-"));
  linkHosts(app, "tools/hosts");

  const docs = join(app, "docs");
  mkdirSync(join(docs, ".vitepress/theme"), { recursive: true });
  mkdirSync(join(docs, "public"));
  writeFileSync(join(docs, ".vitepress/config.mjs"), vitepressConfig);
  writeFileSync(join(docs, ".vitepress/theme/index.js"), vitepressTheme);
  writeFileSync(join(docs, "index.md"), vitepressHome);
  writeFileSync(join(docs, "custom.md"), vitepressCustom);
  writeFileSync(join(docs, "Walkthrough.vue"), vueWrapper);
  writeFileSync(join(docs, "weather.json"), sceneText);
  writeFileSync(join(docs, "public/weather.json"), sceneText);

  const deck = join(app, "deck");
  mkdirSync(join(deck, "src"), { recursive: true });
  writeFileSync(join(deck, "index.html"), deckPage);
  writeFileSync(join(deck, "src/deck.js"), deckScript);

  const site = join(app, "site");
  await vitepress(docs, { outDir: join(site, "vitepress") });
  await vite({
    root: deck,
    configFile: false,
    base: "./",
    logLevel: "warn",
    build: { outDir: join(site, "deck"), emptyOutDir: true },
  });
  // Served as a static host would, with no policy of ours: the hosts write inline scripts.
  env = await start(site, {});
});
after(async () => {
  await env?.close();
  remove?.();
});

test("docs: the React wrapper is the one tsc compiles (tests/node/types-check-react.tsx)", () => {
  const docs = readFileSync(join(repo, "docs/embedding.md"), "utf8");
  const wrapper = docs.match(/```tsx\n([^`]*)```/)[1];
  const checked = readFileSync(join(repo, "tests/node/types-check-react.tsx"), "utf8");
  assert.ok(checked.includes(wrapper), "types-check-react.tsx holds the docs' wrapper whole");
});

test("VitePress: the server's HTML holds the element, not a comment", () => {
  const html = readFileSync(join(app, "site/vitepress/index.html"), "utf8");
  const tag = '<attention-walkthrough id="home" scene="dictionary" lang="en" step="6">';
  assert.ok(html.includes(tag), "the element in the server's HTML");
});

test("VitePress: numbers, custom scenes by property and src, one instance across navigation", async () => {
  const page = await env.browser.newPage();
  listen(page);
  await countInstances(page);
  // a client-side navigation keeps the window (and what the test put on it)
  await readsHomeThenCustom(page, `${env.url}vitepress/`, ["object", "file"]);
  // the wrapper: its props become attributes (false: none), the element's stepchange its event
  const wrapped = page.locator("#wrapped");
  await page.waitForFunction(() => document.getElementById("wrapped").state);
  assert.equal(await wrapped.getAttribute("step"), "2");
  assert.equal(await wrapped.getAttribute("controls"), null, ':controls="false" is no attribute');
  await page.evaluate(() => document.getElementById("wrapped").goTo(4));
  await page.locator("#heard", { hasText: "4 of" }).waitFor();
  assert.equal(await wrapped.getAttribute("step"), "4");
  // and back: the home page's element again, still one instance
  await backHome(page);
  await page.close();
});

test("VitePress: a page opened directly hydrates without a mismatch", async () => {
  const page = await env.browser.newPage();
  listen(page);
  await page.goto(`${env.url}vitepress/custom.html`);
  const element = page.locator("#object");
  await outputCells(element).first().waitFor();
  assert.deepEqual(await outputCells(element).allTextContents(), [weatherOutput.toFixed(4)]);
  assert.deepEqual(page.logged, []);
  await page.close();
});

test("reveal.js: the numbers, and keys typed in the element turn no slide", async () => {
  const page = await openPage(env.browser, `${env.url}deck/index.html#/1`);
  listen(page);
  await page.waitForFunction(() => window.deck?.isReady());
  const indices = () => page.evaluate(() => window.deck.getIndices().h);
  assert.equal(await indices(), 1);
  const element = page.locator("#deck");
  await outputCells(element).first().waitFor();
  assert.deepEqual(await outputCells(element).allTextContents(), dictionaryOutput);
  await page.evaluate(() => document.getElementById("deck").setAttribute("step", "1"));

  // an input cell opens a number field: 0.5 is typed whole, ← and o stay in it
  await element.locator("[data-matrix] button.cell").first().waitFor();
  await element.locator("[data-matrix] button.cell").first().click();
  const field = element.locator("input.cell-edit");
  await field.fill("");
  await field.press("0");
  await field.press(".");
  await field.press("5");
  assert.equal(await field.inputValue(), "0.5");
  await field.press("ArrowLeft");
  await field.press("o");
  assert.equal(await field.inputValue(), "0.o5", "the caret moved left in the field");
  assert.equal(await indices(), 1, "← in a field turns no slide");
  assert.equal(await page.evaluate(() => window.deck.isOverview()), false, "no overview");
  assert.equal(await page.evaluate(() => window.deck.isPaused()), false, "not paused");
  await field.fill("0.5");
  await field.press("Enter");
  const typed = await page.evaluate(() => document.getElementById("deck").state.inputs.q[0][0]);
  assert.equal(typed, 0.5);

  // the step scrubber's ← steps the walkthrough back, not the deck
  await element.locator("#scrubber").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => document.getElementById("deck").state.step), 2);
  assert.equal(await indices(), 1, "← on the scrubber turns no slide");

  // outside the element, the deck's keys are the deck's
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  assert.equal(await indices(), 2, "the deck still turns its slides");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.logged, []);
  await page.close();
});

// A slide holds a whole step in the compact layout: the book scene's 11×11 softmax step, in
// Chinese, with a cell picked, inside the deck's 16:9 window.
test("reveal.js: the compact layout fits its slide, a cell's derivation included", async () => {
  const page = await openPage(env.browser, `${env.url}deck/index.html#/2`, {
    viewport: { width: 1280, height: 720 },
  });
  listen(page);
  await page.waitForFunction(() => window.deck?.isReady());
  const element = page.locator("#slide");
  const cells = element.locator("[data-matrix]:not(.role-input) button.cell");
  await cells.first().waitFor();
  await cells.last().click();
  await element.locator(".derivation code").first().waitFor();
  const [box, slide] = await page.evaluate(() => {
    const rect = (e) => e.getBoundingClientRect();
    return [rect(document.getElementById("slide")), rect(document.querySelector(".reveal"))];
  });
  assert.ok(
    box.top >= slide.top && box.bottom <= slide.bottom,
    `${JSON.stringify(box)} in ${JSON.stringify(slide)}`,
  );
  assert.ok(box.left >= slide.left && box.right <= slide.right, "and across");
  assert.equal(await page.evaluate(() => window.deck.getIndices().h), 2);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.logged, []);
  await page.close();
});
