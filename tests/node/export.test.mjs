// export.test.mjs: "Copy as NumPy" and "Copy as PyTorch". The scripts are run with Debian's
// /usr/bin/python3 (python3-numpy, python3-torch 1.13; tools/install-deps.sh installs them), for
// every scene, an edited one, a masked one, a row whose keys are all masked and α = 5, and what
// they print is compared with the core's output (at the page's decimals, and at 12 decimals) and
// with the float64 values of docs/scenes.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAttention } from "../../web/attention.js";
import { labOf } from "../../web/lab.js";
import { wordsFor } from "../../web/words.js";
import { scenes, sceneById } from "../../web/scenes.js";
import { initialState } from "../../web/state.js";
import { exportKinds, exportScript } from "../../web/export.js";
import en from "../../web/i18n/en.js";

// The teaching scenes; the labs in the list load lazily and have their own tests.

const python = "/usr/bin/python3";
const core = await loadAttention();
const fixtures = JSON.parse(readFileSync(new URL("../fixtures/scenes.json", import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), "attention-export-"));

// A scene in a state, as the page's "Copy as …" button writes it.
function pageScript(kind, sceneId, partial = {}) {
  const scene = sceneById[sceneId];
  const state = initialState(scenes, { scene: sceneId, lang: "en", ...partial });
  const lab = labOf(scene);
  const { inputs, trace } = lab.compute(core, scene, state);
  const msg = wordsFor(state.lang, scene);
  const ctx = {
    scene,
    state,
    msg,
    trace,
    editable: { ...scene.inputs, ...state.edits },
    labels: lab.labels(scene, msg, trace, inputs),
  };
  return { script: lab.script(kind, ctx), trace };
}

// Runs scripts in one Python process (one import of torch), each as `python3 file.py` would
// (runpy.run_path, as __main__). Returns what each printed, and torch's version if it was loaded.
function runAll(scripts) {
  const files = scripts.map((script, n) => {
    const file = join(dir, `script-${n}.py`);
    writeFileSync(file, script);
    return file;
  });
  const driver = [
    "import runpy, sys",
    "for f in sys.argv[1:]:",
    "    print('=== ' + f, flush=True)",
    "    runpy.run_path(f, run_name='__main__')",
    "print('=== torch ' + getattr(sys.modules.get('torch'), '__version__', 'none'))",
  ].join("\n");
  const out = execFileSync(python, ["-c", driver, ...files], { encoding: "utf8" });
  const parts = out.split(/^=== /m).slice(1);
  const torch = parts
    .pop()
    .trim()
    .replace(/^torch /, "");
  return { outputs: parts.map((part) => part.slice(part.indexOf("\n") + 1)), torch };
}

// What a script printed: the numbers of each output row (the last d_v fields of its line).
function printed(text, dV) {
  const lines = text.trim().split("\n");
  assert.match(lines[0], /^output \(\d+×\d+\)$/);
  return lines.slice(1).map((line) => line.trim().split(/\s+/).slice(-dV));
}

// Every case: a script and the core's output it must print.
function cases(kind) {
  const all = [];
  for (const scene of scenes) {
    for (const digits of [4, 12]) {
      all.push({
        name: `${scene.id} at ${digits}`,
        digits,
        ...pageScript(kind, scene.id, { digits }),
      });
    }
  }
  all.push({
    name: "classroom edited",
    digits: 12,
    ...pageScript(kind, "classroom", {
      digits: 12,
      edits: {
        x: [
          [1.5, -0.25],
          [0.5, 0.5],
          [-2, 1e-3],
        ],
      },
    }),
  });
  all.push({
    name: "book causal",
    digits: 12,
    ...pageScript(kind, "book", { digits: 12, causal: true }),
  });
  all.push({ name: "age α = 5", digits: 12, ...pageScript(kind, "age", { digits: 12, alpha: 5 }) });
  all.push({
    name: "cup in Chinese",
    digits: 12,
    ...pageScript(kind, "cup", { digits: 12, lang: "zh" }),
  });
  // An explicit mask whose second row sees no key: the core gives it weights 0 and output 0.
  const q = [
    [1, 2],
    [0.5, -1],
    [3, 0],
  ];
  const k = [
    [1, 0],
    [0, 1],
    [1, 1],
  ];
  const v = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, -9],
  ];
  const mask = [
    [true, false, true],
    [false, false, false],
    [true, true, true],
  ];
  const trace = core.attention(q, k, v, { mask });
  assert.deepEqual(trace.blockedRows, [1]);
  const labels = { queries: ["a", "b", "c"], keys: ["x", "y", "z"] };
  const scene = { title: "blocked row", inputs: { q, k, v }, mask, labels, trace, digits: 12 };
  all.push({
    name: "a blocked row",
    digits: 12,
    trace,
    script: exportScript(kind, scene, en.export),
  });
  return all;
}

for (const kind of exportKinds) {
  test(`${kind}: every exported script runs and prints the core's output and scenes.md's`, () => {
    const all = cases(kind);
    // and the scenes whose float64 values scenes.md gives (an independent reference)
    const ids = ["classroom", "age", "dictionary"];
    const scripts = [...all, ...ids.map((id) => pageScript(kind, id, { digits: 12 }))];
    // Every comment is written out: no text is missing from the words.
    for (const { name, script } of scripts) {
      assert.doesNotMatch(script, /undefined|\[object|NaN/, name ?? "a page's scene");
    }
    const { outputs, torch } = runAll(scripts.map((c) => c.script));
    assert.equal(outputs.length, scripts.length);
    all.forEach(({ name, digits, trace }, n) => {
      const rows = printed(outputs[n], trace.output[0].length);
      assert.equal(rows.length, trace.output.length, name);
      trace.output.forEach((row, i) =>
        row.forEach((x, j) => {
          const text = rows[i][j];
          // At the page's decimals, the same text as x.toFixed (−0 printed as 0).
          const zero = (t) => t.replace(/^-(0\.0*)$/, "$1");
          assert.equal(zero(text), zero(x.toFixed(digits)), `${name} [${i + 1}][${j + 1}]`);
          // At 12 decimals: the core's number, to rounding and a few ulps.
          if (digits === 12) {
            assert.ok(Math.abs(Number(text) - x) <= 5e-13 + 1e-14 * Math.abs(x), name);
          }
        }),
      );
    });
    ids.forEach((id, n) => {
      const expected = fixtures[id].output;
      const rows = printed(outputs[all.length + n], expected[0].length);
      expected.forEach((row, i) =>
        row.forEach((x, j) =>
          assert.ok(Math.abs(Number(rows[i][j]) - x) < 1e-9, `${kind} ${id} [${i + 1}][${j + 1}]`),
        ),
      );
    });
    // PyTorch 1.13 is Debian's python3-torch, the one tools/install-deps.sh installs.
    if (kind === "pytorch") assert.match(torch, /^(1\.13|2)\./);
  });
}

test("a script runs on its own with python3, holds the exact inputs and uses plain operations", () => {
  for (const kind of exportKinds) {
    const { script, trace } = pageScript(kind, "dictionary", { edits: { q: [[0.1, 1 / 3]] } });
    // the edit, to the last digit, so that Python reads back the same double
    assert.ok(script.includes("[0.1, 0.3333333333333333]"));
    const code = script
      .split("\n")
      .filter((line) => !line.startsWith("#"))
      .join("\n");
    assert.doesNotMatch(code, /\bnn\.|functional|softmax|scaled_dot_product/);
    const file = join(dir, `alone-${kind}.py`);
    writeFileSync(file, script);
    const rows = printed(execFileSync(python, [file], { encoding: "utf8" }), 2);
    assert.deepEqual(
      rows,
      trace.output.map((row) => row.map((x) => x.toFixed(4))),
    );
    // the core's numbers, in the comments
    assert.ok(
      script.includes(`# core: [[${trace.output[0].map((x) => x.toFixed(4)).join(", ")}]]`),
    );
  }
});
