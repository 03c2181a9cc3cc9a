// prerender.mjs: the page's first views, drawn at build time (tools/bundle.mjs calls it). In
// Node, the page's own view code (createWalkthrough, page: true) draws every step of each
// walkthrough, in each language, into a small DOM (linkedom), with the real WASM core: every
// number is still the core's. Each view is drawn for the two widths whose DOM differs (the
// glossary links a term where it is first *drawn*, and a narrow column hides the wide screen's
// copy of the analogy, style.css's @container (max-width: 480px)). The trees are data, shared
// subtrees once: the page with no parameters in web/index.html, every other view in a file of
// its own (tools/bundle.mjs), where web/start.js draws the view the URL asks for, and app.js
// takes it over (docs/performance.md, "The first numbers with the HTML").
import { parseHTML } from "linkedom";
import { scenes as walkthroughs } from "../web/scenes.js";

// What a narrow or a wide column does not draw (style.css): the glossary links only prose
// that is drawn. The browser test (tests/browser/prerender.test.mjs) compares these views with
// the live page's at 390 and 1280 px, so a rule changed there and not here fails it.
const hiddenAlways = "[hidden], .worksheet, details:not([open]) > :not(summary)";
const hiddenAt = {
  narrow: `${hiddenAlways}, .tagline, .player .keys, .about-wide, header .tools a`,
  wide: `${hiddenAlways}, details.about`,
};

const langs = ["zh", "en"];
const SVG = "http://www.w3.org/2000/svg";

/** A window with a DOM and the few browser calls the view code makes while it draws. */
function domFor(width) {
  const { window, document } = parseHTML(
    '<!doctype html><html lang="zh-CN"><head><title></title></head><body><div id="app"></div></body></html>',
  );
  const hidden = hiddenAt[width];
  window.Element.prototype.checkVisibility = function () {
    return !this.closest(hidden);
  };
  // what linkedom lacks, as the DOM standard says it
  window.Text.prototype.splitText ??= function (offset) {
    const rest = this.ownerDocument.createTextNode(this.data.slice(offset));
    this.data = this.data.slice(0, offset);
    this.after(rest);
    return rest;
  };
  const globals = {
    window,
    document,
    navigator: { languages: [], language: "" },
    location: new URL("http://localhost/"),
    NodeFilter: window.NodeFilter ?? { SHOW_ELEMENT: 1, SHOW_TEXT: 4 },
    ResizeObserver: class {
      observe() {}
      disconnect() {}
    },
    matchMedia: () => ({ matches: false, addEventListener() {}, removeEventListener() {} }),
    addEventListener() {},
    removeEventListener() {},
    CSS: { escape: (s) => s.replace(/[^\w-]/g, (c) => `\\${c}`) },
  };
  return { document, globals };
}

/**
 * A node as data: text is a string, a comment is null, an element is [tag, attributes, ...child
 * ids] (an SVG element's tag starts with "svg:"). `intern` gives an element's id in the shared
 * table, the same id for the same subtree.
 */
function encoder() {
  const table = [];
  const ids = new Map();
  const intern = (node) => {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType === 8) {
      if (node.data !== "") throw new Error(`prerender: a comment with text: ${node.data}`);
      return null;
    }
    const tag = node.namespaceURI === SVG ? `svg:${node.localName}` : node.localName;
    // linkedom lists an element's attributes last set first; a browser, first set first
    const attributes = {};
    for (const a of [...node.attributes].reverse()) attributes[a.name] = a.value;
    const entry = [tag, attributes, ...[...node.childNodes].map(intern)];
    const key = JSON.stringify(entry);
    if (!ids.has(key)) ids.set(key, table.push(entry) - 1);
    return ids.get(key);
  };
  return { table, intern };
}

/**
 * Every first view: { table, views: { "scene:lang:1": { narrow, wide, title, htmlLang,
 * scrollHint } }, scenes, langs, steps, files }, each width's nodes ids in the table: the page
 * with no parameters (the first scene's first step, in each language), which index.html holds.
 * `steps` counts each scene's steps, and `files` holds every other step's view, both widths with a
 * table of their own ({ table, view }): the files that web/start.js fetches for a link to it.
 */
export async function prerender() {
  const { table, intern } = encoder();
  const views = {};
  const files = {};
  const steps = {};
  for (const width of ["narrow", "wide"]) {
    const { document, globals } = domFor(width);
    const saved = Object.fromEntries(
      Object.keys(globals).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]),
    );
    for (const [k, v] of Object.entries(globals))
      Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
    try {
      // imported here: the view code reads the globals above as it draws
      const { loadAttention } = await import("../web/attention.js");
      const { createWalkthrough, stateFromParams } = await import("../web/walkthrough.js");
      const { scenes, lessons } = await import("../web/catalogue.js");
      const { messages } = await import("../web/state.js");
      const { stepsFor } = await import("../web/steps.js");
      const { questionsOf, answersOf } = await import("../web/quiz.js");
      const core = await loadAttention();
      for (const scene of walkthroughs) {
        steps[scene.id] = stepsFor(scene).length;
        for (const lang of langs) {
          for (let step = 1; step <= steps[scene.id]; step++) {
            const root = document.getElementById("app");
            const params = new URLSearchParams({ scene: scene.id, lang, step });
            const walk = createWalkthrough(root, {
              core,
              scenes,
              lessons,
              quiz: { questionsOf, answersOf },
              state: stateFromParams(params, scenes),
              page: true,
              keyTarget: globals.window,
            });
            const key = `${scene.id}:${lang}:${step}`;
            const inHtml = scene === walkthroughs[0] && step === 1;
            const own = inHtml ? undefined : (files[key] ??= { ...encoder(), view: {} });
            const view = own ? own.view : (views[key] ??= {});
            view[width] = [...root.childNodes].map(own ? own.intern : intern);
            view.title = document.title;
            view.htmlLang = document.documentElement.lang;
            view.scrollHint = messages[lang].ui.scrollHint;
            walk.destroy();
          }
        }
      }
    } finally {
      for (const [k, d] of Object.entries(saved)) {
        if (d) Object.defineProperty(globalThis, k, d);
        else delete globalThis[k];
      }
    }
  }
  for (const [key, { table, view }] of Object.entries(files)) files[key] = { table, view };
  return { table, views, scenes: walkthroughs.map((s) => s.id), langs, steps, files };
}
