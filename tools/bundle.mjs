// bundle.mjs: builds into web/generated/ (ignored by git), after the WASM core is built:
//   ../index.html               the page: index.template.html with its first views (drawn by
//                               tools/prerender.mjs), style.css and its start (start.js) in it
//   views/<scene>-<lang>-<step>.json  every other step's view, which the start fetches
//   app.js                      the page as an ES module, which imports
//   chunks/first-view-*.js      what the first view shares with the labs (start.js preloads them),
//   chunks/                     and what a lab loads when it opens; the page's core is
//                               attention-core-stream.mjs with attention-core.wasm (embed-core.mjs)
//   attention-walkthrough.js    one classic script: the element, the page logic and the core
//   attention-walkthrough.mjs   the element as an ES module that imports the core (see below)
//   attention-walkthrough.html  one self-contained page that works from file://
//   train-worker.js             the labs' training (induction, the real model), in a Web Worker
import { build } from "esbuild";
import { prerender } from "./prerender.mjs";
import { languages } from "../web/i18n/languages.js";
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, relative, resolve } from "node:path";

const web = new URL("../web/", import.meta.url);
const out = new URL("generated/", web);
const wrapper = new URL("attention.js", web).pathname;

const common = { bundle: true, target: "es2022", minify: true, legalComments: "none" };

// The page's labs, and the labs module, are chunks that load when a lab opens. Chunks are
// named by their hash: the last build's would otherwise pile up. The page's core is
// attention-core-stream.mjs (the loader; the WASM streams in from attention-core.wasm), not the
// module with the bytes inlined, which stays a chunk that loads only where streaming cannot.
const streamingCore = {
  name: "streaming-core",
  setup(b) {
    b.onResolve({ filter: /attention-core\.mjs$/ }, (args) =>
      args.importer === wrapper
        ? { path: new URL("generated/attention-core-stream.mjs", web).pathname }
        : undefined,
    );
  },
};
// The page loads the words of the language it shows, not both: i18n/one-language.js takes
// i18n/index.js's place in the page's bundle (the element's bundles and Node keep both at once).
const oneLanguage = {
  name: "one-language",
  setup(b) {
    b.onResolve({ filter: /i18n\/index\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/index\.js$/, "one-language.js")),
    }));
  },
};
// exceljs, which writes the spreadsheets (web/ui/sheet-download.js), is its browser build: one
// UMD script, taken in as a module of its own (its module.exports as the default export, and no
// `require` of its own to look for), so that esbuild needs no CommonJS helpers: it would share
// them with the first view as a chunk of their own.
const umdExcel = {
  name: "umd-exceljs",
  setup(b) {
    b.onLoad({ filter: /[\\/]exceljs[\\/]dist[\\/]exceljs\.min\.js$/ }, async (args) => ({
      contents: `const module = { exports: {} };\n(function (module, exports, define, require) {\n${await readFile(args.path, "utf8")}\n})(module, module.exports, undefined, undefined);\nexport default module.exports;\n`,
      loader: "js",
    }));
  },
};
await rm(new URL("chunks/", out), { recursive: true, force: true });
const page = await build({
  ...common,
  entryPoints: [new URL("app.js", web).pathname],
  outdir: out.pathname,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  plugins: [streamingCore, oneLanguage, umdExcel],
  metafile: true,
  write: false,
  logLevel: "warning",
});
const { live, words } = await writeFirstView(page);

// The page: web/index.html, web/index.template.html with the view of the page with no parameters
// (in each language) drawn now in Node by the page's own view code and core (tools/prerender.mjs)
// in it, as data (one table of elements, a subtree shared by several once), for the page's start
// (web/start.js) to draw before the first paint, then to load the live page (`live`: app.js, its
// chunks and the core's .wasm, all requested at once); every other step's view is a file the
// start fetches first. style.css and the start are in the page too, so that the first paint
// waits for no other request.
const prerendered = await prerender();
const { scenes, langs, steps } = prerendered;
await writeFile(new URL("start.json", out), JSON.stringify({ scenes, langs, steps, live, words }));
// every other step's view, a file of its own that the start fetches for a link to that step
const files = new URL("views/", out);
await rm(files, { recursive: true, force: true });
await mkdir(files);
for (const [key, view] of Object.entries(prerendered.files))
  await writeFile(new URL(`${key.replaceAll(":", "-")}.json`, files), JSON.stringify(view));
const sideEffectFree = {
  name: "side-effect-free",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.path.endsWith(".json")
        ? undefined
        : { path: resolve(args.resolveDir, args.path), sideEffects: false },
    );
  },
};
const start = await build({
  ...common,
  entryPoints: [new URL("start.js", web).pathname],
  format: "iife",
  // the page's modules only define things when imported: what the script does not use (the
  // words of both languages, which scene-list.js imports) stays out
  plugins: [sideEffectFree],
  write: false,
  logLevel: "warning",
});
await writeFile(
  new URL("index.html", web),
  pageFrom(await readFile(new URL("index.template.html", web), "utf8"), {
    css: await readFile(new URL("style.css", web), "utf8"),
    start: start.outputFiles[0].text,
    views: { table: prerendered.table, views: prerendered.views },
  }),
);

/**
 * The page from its template: style.css in a <style>, the start in a <script>, each allowed by
 * its hash in the page's policy (which allows no other inline script or style; a server that
 * sends the policy as a header adds the same hashes: tools/serve.mjs), and the views as JSON in a
 * script element that is never run, its "<" escaped so that nothing in it can end it.
 */
function pageFrom(template, { css, start, views }) {
  const hash = (text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  let html = template;
  const replace = (from, to) => {
    if (html.split(from).length !== 2) throw new Error(`index.template.html: not one ${from}`);
    html = html.replace(from, () => to);
  };
  if (/<\/style/i.test(css) || /<\/script/i.test(start))
    throw new Error("style.css or start.js would end its element early");
  replace(/[ ]*<!-- first views:[^]*?-->\n/, "");
  replace(
    '<div id="app"',
    `<script type="application/json" id="first-views">${JSON.stringify(views).replaceAll("<", "\\u003c")}</script>\n    <div id="app"`,
  );
  replace('<link rel="stylesheet" href="style.css" />', `<style>${css}</style>`);
  replace('<script src="generated/start.js"></script>', `<script>${start}</script>`);
  replace(
    "script-src 'self' 'wasm-unsafe-eval'",
    `script-src 'self' 'wasm-unsafe-eval' ${hash(start)}`,
  );
  replace("style-src 'self'", `style-src 'self' ${hash(css)}`);
  return html;
}

// The element shows no labs: what only a lab loads stays out of its one script, as a module
// that says so if it is ever imported (so that the script itself still bundles).
const noLabs = {
  name: "no-labs",
  setup(build) {
    build.onResolve({ filter: /./ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "no-labs" } : undefined,
    );
    build.onLoad({ filter: /./, namespace: "no-labs" }, (args) => ({
      contents: `throw new Error("${args.path}: the labs load on the page, not in the classic script");`,
    }));
  },
};

await build({
  ...common,
  entryPoints: [new URL("element.js", web).pathname],
  outfile: new URL("attention-walkthrough.js", out).pathname,
  format: "iife",
  loader: { ".css": "text" },
  plugins: [noLabs],
  // The core's loader reads import.meta.url only to find a separate .wasm; ours is inlined.
  define: { "import.meta.url": "undefined" },
  banner: { js: "/* attention-by-hand: <attention-walkthrough>, with its WASM core inlined */" },
  logLevel: "warning",
});

// "attention-by-hand/element" under the `import` condition (bundlers, Node): web/attention.js
// stays an import, of the package's own file, so an author who imports the core too gets one
// core and one WASM instance.
const sharedCore = {
  name: "shared-core",
  setup(b) {
    b.onResolve({ filter: /attention\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === wrapper
        ? { path: "../attention.js", external: true }
        : undefined,
    );
  },
};
await build({
  ...common,
  entryPoints: [new URL("element.js", web).pathname],
  outfile: new URL("attention-walkthrough.mjs", out).pathname,
  format: "esm",
  loader: { ".css": "text" },
  plugins: [sharedCore],
  banner: { js: "/* attention-by-hand: <attention-walkthrough>; the core is ../attention.js */" },
  logLevel: "warning",
});

const script = await readFile(new URL("attention-walkthrough.js", out), "utf8");
const template = await readFile(new URL("standalone.html", web), "utf8");
// A script's text may not contain "</script"; the bundle gets it escaped.
const inline = script.replace(/<\/script/gi, "<\\/script");
await writeFile(
  new URL("attention-walkthrough.html", out),
  template.replace("/* the bundle goes here */", () => inline),
);

// The labs' Web Worker (web/train-worker.js): one module with the labs
// core inlined, loaded only when a lab's training starts on a page served over http(s).
await build({
  ...common,
  entryPoints: [new URL("train-worker.js", web).pathname],
  outfile: new URL("train-worker.js", out).pathname,
  format: "esm",
  logLevel: "warning",
});

/**
 * Writes the page's build; resolves to what its first view loads: `live`, app.js and the chunks
 * it imports statically (modules that the first view shares with the labs), named
 * chunks/first-view-<module>.js, which start.js requests with the core's .wasm (one round trip,
 * not a second after app.js), and `words`, each language's words (i18n/one-language.js imports
 * them), chunks/first-view-words-<lang>.js, of which start.js requests the page's language.
 */
async function writeFirstView({ metafile, outputFiles }) {
  const outputs = Object.fromEntries(
    Object.entries(metafile.outputs).map(([path, o]) => [resolve(path), o]),
  );
  const app = resolve(out.pathname, "app.js");
  const first = new Map(); // a static chunk's path → its new name
  const visit = (path) => {
    for (const i of outputs[path].imports) {
      const chunk = resolve(i.path);
      if (i.kind !== "import-statement" || first.has(chunk)) continue;
      const module = basename(Object.keys(outputs[chunk].inputs)[0]).replace(/\.m?js$/, "");
      let name = `first-view-${module}.js`;
      for (let n = 2; [...first.values()].includes(name); n++)
        name = `first-view-${module}-${n}.js`;
      first.set(chunk, name);
      visit(chunk);
    }
  };
  visit(app);
  const words = {};
  for (const [path, o] of Object.entries(outputs)) {
    const lang = o.entryPoint?.match(/i18n\/(\w+)\.js$/)?.[1];
    if (!Object.hasOwn(languages, lang)) continue;
    words[lang] = `chunks/first-view-words-${lang}.js`;
    first.set(path, basename(words[lang]));
    visit(path);
  }
  const renames = [...first].map(([path, name]) => [basename(path), name]);
  // The streaming loader finds the .wasm next to itself (import.meta.url), where it was built,
  // wherever the bundle puts it.
  const stream = new URL("generated/attention-core-stream.mjs", web).pathname;
  const streamIn = Object.keys(outputs).filter((path) =>
    Object.keys(outputs[path].inputs).some((input) => resolve(input) === stream),
  );
  const wasmUrl = 'new URL("attention-core.wasm",import.meta.url)';
  for (const file of outputFiles) {
    let text = file.text;
    for (const [from, to] of renames) text = text.replaceAll(from, to);
    if (streamIn.includes(file.path)) {
      if (text.split(wasmUrl).length !== 2)
        throw new Error(`bundle: ${file.path} should have ${wasmUrl} once`);
      const where = relative(dirname(file.path), resolve(out.pathname, "attention-core.wasm"));
      text = text.replace(wasmUrl, `new URL(${JSON.stringify(where)},import.meta.url)`);
    }
    const path = first.has(file.path)
      ? resolve(dirname(file.path), first.get(file.path))
      : file.path;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  const chunks = [...first].map(([path, name]) =>
    relative(out.pathname, resolve(dirname(path), name)),
  );
  return {
    live: ["app.js", ...chunks.filter((c) => !Object.values(words).includes(c))],
    words,
  };
}
