// astro.test.mjs (make test-hosts, not make test): the `npm pack` tarball in an Astro 5 site
// (the workspace tools/hosts-more), built for production, served and opened in Chromium: the
// dictionary's output numbers, a custom scene through src= and as inline JSON, one WASM
// instance across Astro's client-side navigation (its ClientRouter), no console error.
import { test, before, after } from "node:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "astro";
import { start } from "../browser/browser.mjs";
import {
  countInstances,
  listen,
  readsHomeThenCustom,
  backHome,
  scene,
  sceneText,
} from "../browser/hosts.mjs";
import { packInto, repo } from "../browser/pack.mjs";

// One layout for both pages: the client router, and the element imported once (Astro bundles
// the script as a module, which runs once however many pages the router shows).
const layout = `---
import { ClientRouter } from "astro:transitions";
---
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="icon" href="data:," />
    <title>An author's tutorial</title>
    <ClientRouter />
  </head>
  <body>
    <slot />
    <script>
      import "attention-by-hand/element";
    </script>
  </body>
</html>
`;

const home = `---
import Layout from "../layouts/Layout.astro";
---
<Layout>
  <h1>Attention by hand</h1>
  <attention-walkthrough id="home" scene="dictionary" lang="en" step="6"></attention-walkthrough>
  <a href="/astro/custom/">Your own scene</a>
</Layout>
`;

const custom = `---
import Layout from "../layouts/Layout.astro";
import weather from "../weather.json?raw";
---
<Layout>
  <h1>Your own scene</h1>
  <attention-walkthrough id="file" src="/astro/weather.json" lang="en" step="6"></attention-walkthrough>
  <attention-walkthrough id="inline" lang="en" step="6">
    <script type="application/json" set:html={weather} />
  </attention-walkthrough>
</Layout>
`;

let env, app, remove;
before(async () => {
  // Inside the repository's build/, where Astro and its dependencies are found as in a
  // workspace: linked into a project elsewhere, Astro loses its own components' paths.
  ({ app, remove } = packInto("attention-by-hand-astro-", join(repo, "build/hosts")));
  const site = join(app, "astro");
  mkdirSync(join(site, "src/pages"), { recursive: true });
  mkdirSync(join(site, "src/layouts"));
  mkdirSync(join(site, "public"));
  writeFileSync(join(site, "src/layouts/Layout.astro"), layout);
  writeFileSync(join(site, "src/pages/index.astro"), home);
  writeFileSync(join(site, "src/pages/custom.astro"), custom);
  writeFileSync(join(site, "src/weather.json"), sceneText);
  writeFileSync(join(site, "public/weather.json"), sceneText);
  await build({
    root: site,
    base: "/astro/",
    outDir: join(app, "site/astro"),
    logLevel: "warn",
    telemetry: false,
  });
  env = await start(join(app, "site"), {});
});
after(async () => {
  await env?.close();
  remove?.();
});

test("Astro: numbers, custom scenes by src and inline JSON, one instance across navigation", async () => {
  const page = await env.browser.newPage();
  listen(page);
  await countInstances(page);
  await readsHomeThenCustom(page, `${env.url}astro/`, ["file", "inline"]);
  // and back: the home page's element again, still one instance
  await backHome(page);
  await page.close();
});
