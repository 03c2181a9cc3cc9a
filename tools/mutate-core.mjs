// mutate-core.mjs: mutation testing for the C++ core (`make mutate`). Applies each mutant of
// tests/mutants/core.json alone, rebuilds, and runs the native suite, then the Node suite
// (through the WASM build). A mutant is killed when a suite fails. The source is restored
// after every mutant, whatever happens. Prints each result, the score and the survivors.
// Usage: node tools/mutate-core.mjs [index ...]   (default: every mutant)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const { mutants } = JSON.parse(readFileSync("tests/mutants/core.json", "utf8"));
const only = process.argv.slice(2).map(Number);
const chosen = mutants
  .map((m, i) => ({ ...m, index: i }))
  .filter((m) => !only.length || only.includes(m.index));

// Runs a command quietly; true when it succeeds.
function passes(command, args) {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const suites = [
  [
    "native",
    () =>
      passes("cmake", ["--build", "--preset", "native", "-j2"]) &&
      passes("ctest", ["--preset", "native"]),
  ],
  ["node", () => passes("make", ["wasm"]) && passes("node", ["--test", "tests/node/"])],
];

function check() {
  for (const [name, run] of suites) if (!run()) return name;
  return null;
}

if (check()) {
  console.error("mutate-core: the suites fail before any mutation; fix them first");
  process.exit(1);
}

const results = [];
for (const m of chosen) {
  const original = readFileSync(m.file, "utf8");
  const count = original.split(m.find).length - 1;
  if (count !== 1) {
    console.error(
      `mutant ${m.index}: its text occurs ${count} times in ${m.file}; fix tests/mutants/core.json`,
    );
    process.exit(1);
  }
  writeFileSync(
    m.file,
    original.replace(m.find, () => m.replace),
  );
  let killedBy;
  try {
    killedBy = check();
  } finally {
    writeFileSync(m.file, original);
  }
  results.push({ ...m, killedBy });
  const status = killedBy
    ? `killed by ${killedBy}`
    : m.equivalent
      ? "survived (equivalent)"
      : "SURVIVED";
  console.log(
    `${String(m.index).padStart(3)} ${status.padEnd(22)} ${m.file}: ${m.find.trim().slice(0, 70)}`,
  );
}
// Leave the builds as the source is.
check();

const equivalent = results.filter((r) => !r.killedBy && r.equivalent);
const killed = results.filter((r) => r.killedBy).length;
const counted = results.length - equivalent.length;
console.log(
  `\ncore mutation score: ${killed} of ${counted} killed (${((100 * killed) / counted).toFixed(1)}%), ${equivalent.length} equivalent left out`,
);
for (const r of results.filter((r) => !r.killedBy)) {
  console.log(
    `  survivor ${r.index}: ${r.file}: ${r.find.trim()} → ${r.replace.trim() || "(removed)"}`,
  );
  if (r.equivalent) console.log(`    equivalent: ${r.equivalent}`);
}
