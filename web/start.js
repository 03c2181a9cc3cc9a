// start.js: the page's start, a script that web/index.html runs as soon as it arrives (async, in
// its <head>; bundled by tools/bundle.mjs into generated/start.js). If the URL asks for a view drawn
// at build time (tools/prerender.mjs: the page's own view code and the WASM core, in Node), it
// fetches that one view (about 5 KB), first, then loads the live page (app.js, the chunks it
// imports and the core's .wasm, all requested at once), and draws the view into #app once the
// document and its style sheet are in, where the live page takes it over. Any other URL loads the
// live page alone, and #app shows no numbers until the live page draws them.
import { scenes, langs, live } from "./generated/start.json";
import { draw, viewFor } from "./prerendered.js";

const here = document.currentScript.src;

function loadLivePage() {
  for (const href of live) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = new URL(href, here).href;
    document.head.append(link);
  }
  const wasm = document.createElement("link");
  Object.assign(wasm, { rel: "preload", as: "fetch", type: "application/wasm" });
  wasm.crossOrigin = "anonymous";
  wasm.href = new URL("attention-core.wasm", here).href;
  document.head.append(wasm);
  import(new URL("app.js", here).href);
}

// The document parsed and its style sheet loaded: what draw needs to ask the CSS for the width.
async function drawable() {
  if (document.readyState === "loading")
    await new Promise((resolve) => addEventListener("DOMContentLoaded", resolve, { once: true }));
  const css = document.querySelector('link[rel="stylesheet"]');
  if (css && !css.sheet) await new Promise((resolve) => css.addEventListener("load", resolve));
}

const key = viewFor(new URLSearchParams(location.search), {
  scenes,
  langs,
  languages: navigator.languages?.length ? navigator.languages : [navigator.language ?? ""],
});
if (key) {
  fetch(new URL(`prerendered/${key.replace(":", ".")}.json`, here))
    .then((response) => {
      if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
      return response.json();
    })
    .then(async (view) => {
      await drawable();
      const root = document.getElementById("app");
      // never over the live page, should it be first
      if (root && !root.dataset.ready) draw(root, { view, key });
    })
    // without its view (a host that lost the file), the page is the live page alone
    .catch(() => {});
}
loadLivePage();
