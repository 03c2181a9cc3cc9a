// modules.test.mjs: web/'s modules depend one way, data → pure logic → core wrapper → views →
// labs → walkthrough → entry points, with no cycle (lazy imports counted), and every pure
// module, every view and every lab imports in plain Node with no DOM and no web/generated/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const web = fileURLToPath(new URL("../../web/", import.meta.url));

// The layers, lowest first; a module may import its own layer and those below it.
const layers = ["data", "logic", "core", "views", "labs", "walkthrough", "entry"];
const layerRules = [
  ["data", /^(scenes\.js|i18n\/.*|labs\/names\.js|labs\/[^/]+\/(data|words)\.js)$/],
  [
    "logic",
    /^(format|random|derive|steps|state|words|check|custom-scene|export|tokens|sheet|sheet-scene|sheet-xlsx)\.js$/,
  ],
  ["core", /^(attention\.(js|cjs)|wasm\/.*|generated\/.*)$/],
  ["views", /^(views\.js|ui\/.*)$/],
  ["labs", /^labs\/.*$/],
  ["walkthrough", /^(lab|catalogue|quiz|walkthrough|playback|store|keys|focus|prerendered)\.js$/],
  ["entry", /^(app|element|embed|embedding|heads|start|train-worker)\.(js|cjs)$/],
];
const layerOf = (file) => layerRules.find(([, pattern]) => pattern.test(file))?.[0];

function modules(dir = web) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : modules(path);
    return /\.(c?js|mjs)$/.test(entry.name) ? [relative(web, path).split("\\").join("/")] : [];
  });
}

// Every module a file imports, statically or lazily, as paths inside web/. Comments are left
// out, so that a comment that shows an import is not one.
function importsOf(file) {
  const source = readFileSync(join(web, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  const patterns = [
    /\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+[\w*{}\s,$]+\s+from\s+["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const [, target] of source.matchAll(pattern)) {
      if (target.startsWith(".")) found.push(posix.normalize(posix.join(dirname(file), target)));
    }
  }
  return [...new Set(found)];
}

const files = modules();
const graph = Object.fromEntries(files.map((f) => [f, importsOf(f)]));

test("every module of web/ has a layer, and its imports go to its layer or below", () => {
  assert.ok(files.length > 40, `only ${files.length} modules found`);
  const unplaced = files.filter((f) => !layerOf(f));
  assert.deepEqual(unplaced, [], "modules that no layer names");
  const upward = [];
  for (const [file, targets] of Object.entries(graph)) {
    for (const target of targets) {
      if (/\.css$/.test(target)) continue;
      const from = layers.indexOf(layerOf(file));
      const to = layers.indexOf(layerOf(target));
      if (to > from) upward.push(`${file} (${layerOf(file)}) → ${target} (${layerOf(target)})`);
    }
  }
  assert.deepEqual(upward, []);
});

// The first cycle found by a depth-first walk, as a list of modules, or null.
function cycleIn(graph) {
  const state = {};
  const path = [];
  const visit = (file) => {
    if (state[file] === "done") return null;
    if (state[file] === "open") return [...path.slice(path.indexOf(file)), file];
    state[file] = "open";
    path.push(file);
    for (const target of graph[file] ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    path.pop();
    state[file] = "done";
    return null;
  };
  for (const file of Object.keys(graph)) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

test("no import cycle in web/, lazy imports included", () => {
  assert.equal(cycleIn(graph)?.join(" → ") ?? null, null);
  // the walk finds one where there is one
  assert.deepEqual(cycleIn({ a: ["b"], b: ["c"], c: ["a"] }), ["a", "b", "c", "a"]);
  assert.deepEqual(cycleIn({ a: ["b"], b: [] }), null);
  // and the import reader sees each kind of import
  assert.deepEqual(graph["catalogue.js"].includes("labs/inside/heads.js"), true);
  assert.deepEqual(graph["element.cjs"], ["generated/attention-walkthrough.mjs"]);
});

test("pure modules, views and labs import in plain Node without web/generated/", () => {
  const copy = mkdtempSync(join(tmpdir(), "web-without-generated-"));
  try {
    cpSync(web, copy, { recursive: true, filter: (src) => !/[\\/]generated([\\/]|$)/.test(src) });
    const wanted = files.filter((f) => ["data", "logic", "views", "labs"].includes(layerOf(f)));
    assert.ok(wanted.includes("state.js") && wanted.includes("labs/why/scale.js"));
    const script = `
      const failed = [];
      for (const f of ${JSON.stringify(wanted)}) {
        try { await import(${JSON.stringify(copy + "/")} + f); } catch (e) { failed.push(f + ": " + e.message); }
      }
      let core = "loaded";
      try { await import(${JSON.stringify(copy + "/attention.js")}); } catch { core = "missing"; }
      console.log(JSON.stringify({ failed, core, document: typeof document }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
    );
    assert.deepEqual(out.failed, []);
    assert.equal(out.document, "undefined", "no DOM in this Node");
    assert.equal(out.core, "missing", "the core wrapper needs the build, so the copy lacks it");
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
