// browser-suite.mjs: runs a folder's test files the largest first, a few at a time, and reports
// TAP as `node --test --test-reporter=tap` does (`make test-browser`). `node --test` runs its
// files in the order of their names, which put the browser suite's longest files last, one of
// them alone on one core at the end; the size of a file stands in for its time.
// Usage: node tools/browser-suite.mjs <folder> [concurrency]; exits 1 when a test failed.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { run } from "node:test";
import { tap } from "node:test/reporters";

const [folder, concurrency = "2"] = process.argv.slice(2);
if (!folder) {
  console.error("usage: node tools/browser-suite.mjs <folder> [concurrency]");
  process.exit(2);
}

const files = readdirSync(folder)
  .filter((f) => f.endsWith(".test.mjs"))
  .map((f) => join(folder, f))
  .sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b));

let failed = false;
const stream = run({ files, concurrency: Number(concurrency) });
stream.on("test:fail", () => (failed = true));
const report = stream.compose(tap);
report.pipe(process.stdout);
await finished(report);
process.exit(failed ? 1 : 0);
