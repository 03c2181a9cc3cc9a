// first-view.js: the page's first numbers before its script and core are ready. A classic script
// that web/index.html runs right after #app, bundled by tools/bundle.mjs into
// generated/first-view.js with the views tools/prerender.mjs drew at build time (the page's own
// view code and the WASM core, in Node). If the URL asks for a prerendered view, it is drawn
// into #app before the first paint, and app.js takes it over; any other URL keeps #app as it is
// until the live page draws it, so that no other numbers are ever shown.
import { table, views, scenes, langs } from "./generated/first-views.json";
import { draw, viewFor } from "./prerendered.js";

const root = document.getElementById("app");
const key = viewFor(new URLSearchParams(location.search), {
  scenes,
  langs,
  languages: navigator.languages?.length ? navigator.languages : [navigator.language ?? ""],
});
if (root && key) draw(root, { table, view: views[key], key });
