// mutate-js.mjs: mutation testing for the page's pure modules and the JS wrapper (`make
// mutate`), with Stryker's command runner. Each group mutates some modules and runs only the
// Node suites that import them, so that a mutant costs seconds, not the whole suite. Prints
// each group's score, the survivors, and the total. Not part of `make test`.
// Usage: node tools/mutate-js.mjs [group ...]   (default: every group)
import { Stryker } from "@stryker-mutator/core";

const node = (...files) =>
  `node --test --test-concurrency=1 ${files.map((f) => `tests/node/${f}.test.mjs`).join(" ")}`;
// The JS wrapper: the core's API (web/attention.js, web/wasm/core.js), and the labs' of lessons
// 2 and 3 (web/wasm/inside.js, why.js: multi-head, decoding, positions, tiling, statistics),
// each against the suites that call it (the 10,000-step heap test, decode-heap, guards WASM
// memory, which no line of JS here frees).
const groups = {
  wrapper: {
    mutate: ["web/attention.js", "web/wasm/core.js"],
    command: node("attention", "batched", "steps"),
  },
  labs: {
    mutate: ["web/wasm/inside.js", "web/wasm/why.js"],
    command: node("multihead", "why"),
  },
  format: {
    mutate: ["web/format.js", "web/check.js"],
    command: node("steps", "arithmetic", "lab"),
  },
  steps: {
    mutate: ["web/steps.js", "web/derive.js"],
    command: node("steps-parts", "steps", "arithmetic", "lab"),
  },
  scenes: { mutate: ["web/custom-scene.js"], command: node("scene-schema") },
  state: {
    mutate: ["web/state.js", "web/lab.js", "web/words.js", "web/random.js"],
    command: node("state", "lab"),
  },
};

const only = process.argv.slice(2);
const chosen = Object.entries(groups).filter(([name]) => !only.length || only.includes(name));
const total = { killed: 0, all: 0 };
const survivors = [];
for (const [name, { mutate, command }] of chosen) {
  const results = await new Stryker({
    testRunner: "command",
    commandRunner: { command },
    mutate,
    // The built core (ignored by git) is what the suites run on.
    ignorePatterns: ["**", "!web/**", "!tests/**", "!package.json"],
    coverageAnalysis: "off",
    concurrency: 2,
    reporters: ["progress", "json"],
    jsonReporter: { fileName: `build/mutation-${name}.json` },
    logLevel: "warn",
    tempDirName: "build/stryker-tmp",
    cleanTempDir: "always",
  }).runMutationTest();
  const counted = results.filter(
    (r) => !["CompileError", "RuntimeError", "Ignored"].includes(r.status),
  );
  const killed = counted.filter((r) => r.status === "Killed" || r.status === "Timeout");
  total.killed += killed.length;
  total.all += counted.length;
  for (const r of counted.filter((r) => !killed.includes(r))) {
    survivors.push(
      `${r.fileName}:${r.location.start.line + 1} ${r.mutatorName}: ${r.replacement ?? ""}`,
    );
  }
  const score = ((100 * killed.length) / counted.length).toFixed(1);
  console.log(`mutate-js ${name}: ${killed.length} of ${counted.length} killed (${score}%)`);
}
console.log(survivors.map((s) => `survived ${s}`).join("\n"));
const score = ((100 * total.killed) / total.all).toFixed(1);
console.log(`mutate-js: ${total.killed} of ${total.all} mutants killed (${score}%)`);
