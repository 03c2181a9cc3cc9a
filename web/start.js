// start.js: the page's start, at the end of web/index.html's <body> (tools/bundle.mjs puts it
// there, with style.css, so that nothing else is requested before it runs), before the first
// paint that could show #app. If the URL asks for a view drawn at build time (tools/prerender.mjs:
// the page's own view code and the WASM core, in Node; the page with no parameters in index.html
// as data, every other step of a walkthrough in a file of its own), it draws that view into #app,
// where the live page takes it over; until then, and for any other URL, #app holds the page's
// title until the live page draws. It loads the live page (app.js, the chunks it imports and the
// core's .wasm, all requested at once), after a view's file.
import { scenes, langs, steps, live, words } from "./generated/start.json";
import { draw, langOf, viewFor } from "./prerendered.js";

// what the build writes, from the page (web/index.html)
const here = new URL("generated/", document.baseURI);

// the live page: app.js, its chunks, the words of the language it shows, and the core's .wasm
function requestLivePage(lang) {
  for (const href of [...live, words[lang]]) {
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
}

const params = new URLSearchParams(location.search);
const languages = navigator.languages?.length ? navigator.languages : [navigator.language ?? ""];
const key = viewFor(params, { scenes, langs, steps, languages });
const root = document.getElementById("app");
// the views the HTML holds (the page with no parameters); any other is a file of its own,
// requested before the live page and drawn unless the live page came first (app.js then ends
// data-coming). A page without its views (a host that rewrote it) shows its title, as any other
// URL does.
const data = key && document.getElementById("first-views");
const { table, views = {} } = data ? JSON.parse(data.textContent) : {};
if (data && !views[key]) {
  root.dataset.coming = key;
  fetch(new URL(`views/${key.replaceAll(":", "-")}.json`, here))
    .then((response) => (response.ok ? response.json() : undefined))
    .then((file) => {
      if (root.dataset.coming !== key) return;
      delete root.dataset.coming;
      if (file) draw(root, { ...file, key });
    })
    .catch(() => {});
}
requestLivePage(langOf(params, { langs, languages }));
if (views[key]) draw(root, { table, view: views[key], key });
else root.textContent = document.title;
import(new URL("app.js", here).href);
