// summary.mjs: the last lines of `make test`. One row per suite named on the command line,
// from build/results/<name>.json as tools/suite.mjs wrote it: counts, seconds and CPU seconds.
// A suite with no result (it was never run, or it crashed before it could report) counts as
// failed.
// Usage: node tools/summary.mjs <suite> [suite...]
import { readFileSync } from "node:fs";

const rows = process.argv.slice(2).map((suite) => {
  try {
    return JSON.parse(readFileSync(`build/results/${suite}.json`, "utf8"));
  } catch {
    return { suite, ran: 0, passed: 0, ok: false, problems: ["no result: it did not run"] };
  }
});
const width = Math.max(...rows.map((r) => r.suite.length));
// CPU seconds, the suite's and its children's (tools/suite.mjs); less sensitive than the wall
// clock to what else the machine runs.
const cpu = (r) => (typeof r.cpuSeconds === "number" ? r.cpuSeconds.toFixed(1) : "?");
console.log("\ntest summary");
for (const r of rows) {
  const status = r.ok ? "ok" : `FAILED: ${r.problems.join(", ")}`;
  console.log(
    `  ${r.suite.padEnd(width)}  ${String(r.passed).padStart(7)} of ${String(r.ran).padEnd(7)} passed  ${String(r.seconds ?? "?").padStart(4)} s  ${cpu(r).padStart(8)} s CPU  ${status}`,
  );
}
const failed = rows.filter((r) => !r.ok).length;
console.log(failed ? `${failed} suite(s) failed` : `all ${rows.length} suites passed`);
process.exit(failed ? 1 : 0);
