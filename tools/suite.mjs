// suite.mjs: runs one test suite, passes its output through, reads how many tests ran and
// passed from that output (never from the exit code alone), and records the counts in
// build/results/<name>.json for `tools/summary.mjs`, with the seconds it took and the CPU
// seconds it and everything it started used. A suite that runs no test fails.
// Usage: node tools/suite.mjs <name> <command> [args...]
// Understood outputs: TAP summaries (`# tests N`, `# pass N`, from node --test), CTest's
// `N% tests passed, F tests failed out of T`, libFuzzer's `Done N runs`, and pytest's last line.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";

const [name, command, ...args] = process.argv.slice(2);
if (!name || !command) {
  console.error("usage: node tools/suite.mjs <name> <command> [args...]");
  process.exit(2);
}

/** Counts from a suite's output: { ran, passed } or null when no summary line is found. */
function counts(text) {
  const last = (re) => {
    const all = [...text.matchAll(re)];
    return all.length ? Number(all.at(-1)[1]) : null;
  };
  const tapTests = last(/^# tests (\d+)$/gm);
  if (tapTests !== null) return { ran: tapTests, passed: last(/^# pass (\d+)$/gm) ?? 0 };
  const ctest = [...text.matchAll(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/g)].at(-1);
  if (ctest) return { ran: Number(ctest[3]), passed: Number(ctest[3]) - Number(ctest[2]) };
  const fuzz = last(/^Done (\d+) runs in/gm);
  if (fuzz !== null) return { ran: fuzz, passed: fuzz };
  // pytest's last line: "==== 3 failed, 40 passed, 1 skipped in 2.10s ====", or with -q
  // "40 passed in 2.10s" (skips not run)
  const pytest = [
    ...text.matchAll(/^=*\s*((?:\d+ \w+, )*\d+ (?:passed|failed|errors?)\b.*?) in [\d.]+s/gm),
  ].at(-1);
  if (pytest) {
    const n = (word) => Number(pytest[1].match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
    const passed = n("passed");
    return { ran: passed + n("failed") + n("errors?"), passed };
  }
  return null;
}

// The CPU time of a process tree, sampled from /proc (Linux; null elsewhere): Chromium does not
// wait for all of its processes, so the kernel's count of waited children misses most of a
// browser's time. Each process's last sample counts, so at most one interval of a process that
// ends between two samples is missed, and a process shorter than one is missed whole (CTest's):
// the larger of that sum and the kernel's count of this process's waited children is kept.
const tick = 100; // USER_HZ, 100 on Linux
function cpuSampler(root) {
  const last = new Map(); // "pid start" → CPU ticks
  const tree = new Set([root]);
  const sample = () => {
    const stats = [];
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const text = readFileSync(`/proc/${pid}/stat`, "utf8");
        const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
        stats.push({ pid: Number(pid), ppid: Number(f[1]), ticks: +f[11] + +f[12], start: f[19] });
      } catch {
        // the process ended while it was read
      }
    }
    for (let grown = true; grown;) {
      grown = false;
      for (const p of stats) {
        if (!tree.has(p.pid) && tree.has(p.ppid)) grown = tree.add(p.pid);
      }
    }
    for (const p of stats) if (tree.has(p.pid)) last.set(`${p.pid} ${p.start}`, p.ticks);
  };
  try {
    sample();
  } catch {
    return { stop: () => null };
  }
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      const text = readFileSync("/proc/self/stat", "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const sampled = [...last.values()].reduce((a, b) => a + b, 0);
      const ticks = Math.max(sampled, +f[13] + +f[14]);
      const own = process.cpuUsage();
      return Math.round((ticks * 10) / tick + (own.user + own.system) / 1e5) / 10;
    },
  };
}

const started = Date.now();
const child = spawn(command, args, { stdio: ["inherit", "pipe", "pipe"] });
const cpu = cpuSampler(child.pid);
let text = "";
child.stdout.on("data", (d) => {
  text += d;
  process.stdout.write(d);
});
child.stderr.on("data", (d) => {
  text += d;
  process.stderr.write(d);
});
const code = await new Promise((done) => child.on("close", (c, signal) => done(c ?? signal)));
const cpuSeconds = cpu.stop();

const found = counts(text) ?? { ran: 0, passed: 0 };
const problems = [];
if (code !== 0) problems.push(`exited with ${code}`);
if (found.ran === 0) problems.push("ran no tests");
if (found.passed !== found.ran) problems.push(`${found.ran - found.passed} did not pass`);
const seconds = Math.round((Date.now() - started) / 1000);
const result = { suite: name, ...found, seconds, cpuSeconds, ok: problems.length === 0, problems };
mkdirSync("build/results", { recursive: true });
writeFileSync(`build/results/${name}.json`, JSON.stringify(result) + "\n");
if (!result.ok) {
  console.error(`suite ${name}: FAILED (${problems.join(", ")})`);
  process.exit(1);
}
console.error(`suite ${name}: ${found.passed} of ${found.ran} passed`);
