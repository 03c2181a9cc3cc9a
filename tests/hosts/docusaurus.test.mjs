// docusaurus.test.mjs (make test-hosts, not make test): the `npm pack` tarball in a Docusaurus 3
// site with React 19 (the workspace tools/hosts-more), built for production (MDX, rendered on
// the server), served and opened in Chromium: the dictionary's output numbers, a custom scene
// as an object (React 19 sets scene={…} as the property) and through src=, docs/embedding.md's
// React wrapper as written there (props, its stepchange through a ref), one WASM instance
// across Docusaurus's client-side navigation, no console error and no hydration error.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { start } from "../browser/browser.mjs";
import {
  countInstances,
  listen,
  readsHomeThenCustom,
  backHome,
  scene,
  sceneText,
} from "../browser/hosts.mjs";
import { packInto, repo, run } from "../browser/pack.mjs";

const config = `export default {
  title: "An author's tutorial",
  url: "http://127.0.0.1",
  baseUrl: "/docusaurus/",
  onBrokenLinks: "throw",
  headTags: [{ tagName: "link", attributes: { rel: "icon", href: "data:," } }],
  presets: [["classic", { docs: { routeBasePath: "/" }, blog: false, pages: false }]],
  clientModules: ["./src/element.js"],
};
`;

// The docs' React wrapper, as it is written there, and a component that shows what it heard.
const wrapper = readFileSync(join(repo, "docs/embedding.md"), "utf8").match(
  /```tsx\n([^`]*)```/,
)[1];
const heard = `import { useState } from "react";
import { Walkthrough } from "./Walkthrough";

export default function Heard() {
  const [step, setStep] = useState(0);
  return (
    <>
      <Walkthrough id="wrapped" scene="age" lang="en" step={2} controls={false} onStepChange={setStep} />
      <p id="heard">{step ? "step " + step : ""}</p>
    </>
  );
}
`;

const home = `---
slug: /
---

# Attention by hand

<attention-walkthrough id="home" scene="dictionary" lang="en" step="6"></attention-walkthrough>

[Your own scene](./custom)
`;

const custom = `import weather from "@site/src/weather.json";
import Heard from "@site/src/Heard";

# Your own scene

<attention-walkthrough id="object" scene={weather} lang="en" step="6"></attention-walkthrough>

<attention-walkthrough id="file" src="/docusaurus/weather.json" lang="en" step="6"></attention-walkthrough>

<Heard />
`;

let env, app, remove;
before(async () => {
  // Inside the repository's build/, where Docusaurus and React are found as in a workspace.
  ({ app, remove } = packInto("attention-by-hand-docusaurus-", join(repo, "build/hosts")));
  const site = join(app, "docusaurus");
  for (const dir of ["docs", "src", "static"]) mkdirSync(join(site, dir), { recursive: true });
  // The site's own package.json, as Docusaurus's template has it: not "type": "module" (the
  // author's project is), under which webpack would leave Docusaurus's require() calls alone.
  writeFileSync(join(site, "package.json"), '{ "name": "site", "private": true }');
  writeFileSync(join(site, "docusaurus.config.mjs"), config);
  writeFileSync(join(site, "src/element.js"), 'import "attention-by-hand/element";\n');
  writeFileSync(join(site, "src/Walkthrough.tsx"), wrapper);
  writeFileSync(join(site, "src/Heard.jsx"), heard);
  writeFileSync(join(site, "src/weather.json"), sceneText);
  writeFileSync(join(site, "static/weather.json"), sceneText);
  writeFileSync(join(site, "docs/index.md"), home);
  writeFileSync(join(site, "docs/custom.mdx"), custom);
  const cli = join(repo, "node_modules/@docusaurus/core/bin/docusaurus.mjs");
  run("node", [cli, "build", "--out-dir", join(app, "site/docusaurus")], site);
  env = await start(join(app, "site"), {});
});
after(async () => {
  await env?.close();
  remove?.();
});

test("Docusaurus: numbers, scene={…} and src, the docs' React wrapper, one instance across navigation", async () => {
  const page = await env.browser.newPage();
  listen(page);
  page.on("pageerror", (e) => page.logged.push(e.message));
  await countInstances(page);
  await readsHomeThenCustom(
    page,
    `${env.url}docusaurus/`,
    ["object", "file"],
    page.locator("article"),
  );
  // the wrapper: its props become attributes (false: none), the element's stepchange its event
  const wrapped = page.locator("#wrapped");
  await page.waitForFunction(() => document.getElementById("wrapped").state);
  assert.equal(await wrapped.getAttribute("step"), "2");
  assert.equal(await wrapped.getAttribute("controls"), null, "controls={false} is no attribute");
  await page.evaluate(() => document.getElementById("wrapped").goTo(4));
  await page.locator("#heard", { hasText: "step 4" }).waitFor();
  // and back: the home page's element again, still one instance
  await backHome(page);
  await page.close();
});
