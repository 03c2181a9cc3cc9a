// start.js: the page's start, at the end of web/index.html's <body> (tools/bundle.mjs puts it
// there, with style.css, so that nothing else is requested before it runs), before the first
// paint that could show #app. If the URL asks for a view drawn at build time (tools/prerender.mjs:
// the page's own view code and the WASM core, in Node; in index.html as data), it draws that view
// into #app, where the live page takes it over; any other URL gets the page's title there until
// the live page draws. It loads the live page (app.js, the chunks it imports and the core's
// .wasm, all requested at once) first.
import { scenes, langs, live } from "./generated/start.json";
import { draw, viewFor } from "./prerendered.js";

// what the build writes, from the page (web/index.html)
const here = new URL("generated/", document.baseURI);

function requestLivePage() {
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
}

const key = viewFor(new URLSearchParams(location.search), {
  scenes,
  langs,
  languages: navigator.languages?.length ? navigator.languages : [navigator.language ?? ""],
});
requestLivePage();
const data = key && document.getElementById("first-views");
const root = document.getElementById("app");
const { table, views = {} } = data ? JSON.parse(data.textContent) : {};
// a page without its views (a host that rewrote it) shows its title, as any other URL does
if (views[key]) draw(root, { table, view: views[key], key });
else root.textContent = document.title;
import(new URL("app.js", here).href);
