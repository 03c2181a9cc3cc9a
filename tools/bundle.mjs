// bundle.mjs: builds into web/generated/ (ignored by git), after the WASM core is built:
//   app.js                      the page (web/index.html) as one ES module: one request, not 14;
//   chunks/                     and what a lab loads when it opens
//   attention-walkthrough.js    one classic script: the element, the page logic and the core
//   attention-walkthrough.mjs   the element as an ES module that imports the core (see below)
//   attention-walkthrough.html  one self-contained page that works from file://
import { build } from "esbuild";
import { readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

const web = new URL("../web/", import.meta.url);
const out = new URL("generated/", web);

const common = { bundle: true, target: "es2022", minify: true, legalComments: "none" };

// The page's labs, and the labs module, are chunks that load when a lab opens. Chunks are
// named by their hash: the last build's would otherwise pile up.
await rm(new URL("chunks/", out), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: [new URL("app.js", web).pathname],
  outdir: out.pathname,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  logLevel: "warning",
});

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
const wrapper = new URL("attention.js", web).pathname;
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
