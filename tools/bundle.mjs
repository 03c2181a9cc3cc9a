// bundle.mjs: builds into web/generated/ (ignored by git), after the WASM core is built:
//   start.js                    the page's start (web/index.html runs it): the view prerendered
//                               for the URL (prerendered/, tools/prerender.mjs), then app.js
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
await rm(new URL("chunks/", out), { recursive: true, force: true });
const page = await build({
  ...common,
  entryPoints: [new URL("app.js", web).pathname],
  outdir: out.pathname,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  plugins: [streamingCore],
  metafile: true,
  write: false,
  logLevel: "warning",
});
const live = await writeFirstView(page);

// The page's start: each first view drawn now in Node by the page's own view code and core
// (tools/prerender.mjs), one file a view, and the classic script that index.html runs right after
// #app: it draws the one the URL asks for, then loads the live page (`live`: app.js, its chunks
// and the core's .wasm, all requested at once).
await rm(new URL("prerendered/", out), { recursive: true, force: true });
await mkdir(new URL("prerendered/", out));
const prerendered = await prerender();
for (const [key, view] of Object.entries(prerendered.views))
  await writeFile(
    new URL(`prerendered/${key.replace(":", ".")}.json`, out),
    JSON.stringify(onlyIts(prerendered.table, view)),
  );
const { scenes, langs } = prerendered;
await writeFile(new URL("start.json", out), JSON.stringify({ scenes, langs, live }));
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
await build({
  ...common,
  entryPoints: [new URL("start.js", web).pathname],
  outfile: new URL("start.js", out).pathname,
  format: "iife",
  // the page's modules only define things when imported: what the script does not use (the
  // words of both languages, which scene-list.js imports) stays out
  plugins: [sideEffectFree],
  logLevel: "warning",
});

/** A view with the part of the shared table it uses, its ids renumbered. */
function onlyIts(table, view) {
  const ids = new Map();
  const own = [];
  const take = (id) => {
    if (typeof id !== "number") return id;
    if (!ids.has(id)) {
      const [tag, attributes, ...children] = table[id];
      const entry = [tag, attributes, ...children.map(take)];
      ids.set(id, own.push(entry) - 1);
    }
    return ids.get(id);
  };
  const narrow = view.narrow.map(take);
  const wide = view.wide.map(take);
  return { ...view, table: own, narrow, wide };
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
 * Writes the page's build; resolves to what its first view loads: app.js and the chunks it
 * imports statically (modules that the first view shares with the labs), named
 * chunks/first-view-<module>.js, which start.js requests with the core's .wasm (one round trip,
 * not a second after app.js).
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
  return [
    "app.js",
    ...[...first].map(([path, name]) => relative(out.pathname, resolve(dirname(path), name))),
  ];
}
