// bundle.mjs: builds the embeddable files into web/generated/ (ignored by git), after the WASM
// core is built:
//   attention-walkthrough.js    one classic script: the element, the page logic and the core
//   attention-walkthrough.html  one self-contained page that works from file://
import { build } from "esbuild";
import { readFile, writeFile } from "node:fs/promises";

const web = new URL("../web/", import.meta.url);
const out = new URL("generated/", web);

await build({
  entryPoints: [new URL("element.js", web).pathname],
  outfile: new URL("attention-walkthrough.js", out).pathname,
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  legalComments: "none",
  loader: { ".css": "text" },
  // The core's loader reads import.meta.url only to find a separate .wasm; ours is inlined.
  define: { "import.meta.url": "undefined" },
  banner: { js: "/* attention-by-hand: <attention-walkthrough>, with its WASM core inlined */" },
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
