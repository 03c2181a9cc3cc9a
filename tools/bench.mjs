// bench.mjs: `make bench`. Speed and size, measured, never asserted.
//   1. attention side by side in one Node process, round-robin, every output checked against
//      float64: ours (fast path with and without the weights, the Eigen reference), plain JS
//      loops, tfjs-backend-wasm and onnxruntime-web (wasm, 1 thread), with a probe of this
//      machine's wasm SIMD multiply-add peak run between them;
//   2. the core module: its size, its cold instantiation, its heap at 8,192 tokens;
//   3. the page's first view in headless Chromium, on localhost and on a phone profile, with
//      its milestones (first-view.mjs);
//   4. the real model's training: natively, beside PyTorch, and in the page (gpt-bench.mjs);
//   5. the induction lab's training in the page: the seconds to the step in its loss, its
//      frame times (induction-bench.mjs); the three labs that train, on one worker and on all
//      the device's cores, in turns (workers-bench.mjs);
//   6. lesson 6's tokens lab: the bytes it fetches when it opens, and the first view before it
//      (real-bench.mjs);
//   7. a tab that trains for LONG_RUN_MINUTES (30): tests/browser/long-run.test.mjs's rounds,
//      its memory at the start and the end (the test's own line, and its verdict).
// Writes a table to stdout and everything to build/bench.json.
//
// Part 1's table and the kernel's targets are printed, and written to build/bench-kernel.json,
// as soon as part 1 is done. `node tools/bench.mjs --kernel` runs part 1 only; `--web <dir>`
// loads the core from another built web/ (a copy made before a change), so that before and
// after can take turns, one process per run.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";
import * as tf from "@tensorflow/tfjs-core";
import { setThreadsCount, setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import * as ort from "onnxruntime-web";
import { random } from "../web/random.js";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { start } from "../tests/browser/browser.mjs";
import { attentionModel } from "./onnx.mjs";
import { modelBench } from "./gpt-bench.mjs";
import { realBench } from "./real-bench.mjs";
import { inductionBench } from "./induction-bench.mjs";
import { workersBench } from "./workers-bench.mjs";
import { firstViewBench } from "./first-view.mjs";

// A bench measures the browser a learner runs (the tests use the lighter headless shell).
process.env.CHROMIUM ??= "/usr/bin/chromium";

const { values: options } = parseArgs({
  options: { kernel: { type: "boolean", default: false }, web: { type: "string" } },
});
const web = options.web ? pathToFileURL(options.web + "/") : new URL("../web/", import.meta.url);
const { loadAttention } = await import(new URL("attention.js", web).href);

const require = createRequire(import.meta.url);
const report = { machine: machine(), when: new Date().toISOString(), shapes: [] };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function machine() {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
  const cores = readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm)?.length ?? "?";
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  return { cpu, cores, node: process.version, v8: process.versions.v8, load };
}

// ---- the peak probe: eight independent f32x4 multiply-adds per iteration, hand-assembled ----

function peakProbe() {
  const leb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const vec = (bytes) => [...leb(bytes.length), ...bytes];
  const simd = (op) => [0xfd, ...leb(op)];
  const f32 = (x) => [...new Uint8Array(Float32Array.of(x).buffer)];
  // (func (param $n i32) (result f32)): acc1..acc8 += x·y until $n runs out
  const code = [0x43, ...f32(1.0001), ...simd(0x13), 0x21, 9, 0x43, ...f32(0.5), ...simd(0x13)];
  code.push(0x21, 10, 0x02, 0x40, 0x03, 0x40);
  for (let a = 1; a <= 8; a++)
    code.push(0x20, a, 0x20, 9, 0x20, 10, ...simd(0xe6), ...simd(0xe4), 0x21, a);
  code.push(0x20, 0, 0x41, 1, 0x6b, 0x22, 0, 0x0d, 0, 0x0b, 0x0b, 0x20, 1);
  for (let a = 2; a <= 8; a++) code.push(0x20, a, ...simd(0xe4));
  code.push(...simd(0x1f), 0, 0x0b);
  const body = vec([2, 8, 0x7b, 2, 0x7b, ...code]);
  const bytes = Uint8Array.from([
    ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...[1, ...vec([1, 0x60, 1, 0x7f, 1, 0x7d])],
    ...[3, ...vec([1, 0])],
    ...[7, ...vec([1, ...vec([0x70]), 0, 0])],
    ...[10, ...vec([1, ...body])],
  ]);
  const { p } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
  const iterations = 2e7;
  p(iterations); // tier up
  return () => {
    const t0 = performance.now();
    p(iterations);
    return (iterations * 64) / ((performance.now() - t0) * 1e6);
  };
}

// ---- the implementations: each prepare(shape, inputs, causal) → run() → output ----

const core = await loadAttention();

const ours =
  (options) =>
  (shape, { q, k, v }, causal) =>
  () =>
    core.attentionBatched(q, k, v, shape, { causal, ...options }).output;

function plainJs({ batch, heads, nQ, nK, dK, dV }, { q, k, v }, causal) {
  return () => {
    const out = new Float32Array(batch * heads * nQ * dV);
    const row = new Float32Array(nK);
    const scale = 1 / Math.sqrt(dK);
    for (let h = 0; h < batch * heads; h++) {
      for (let i = 0; i < nQ; i++) {
        const seen = causal ? Math.min(i + 1, nK) : nK;
        let max = -Infinity;
        for (let j = 0; j < seen; j++) {
          let dot = 0;
          for (let c = 0; c < dK; c++) dot += q[(h * nQ + i) * dK + c] * k[(h * nK + j) * dK + c];
          row[j] = dot * scale;
          if (row[j] > max) max = row[j];
        }
        let sum = 0;
        for (let j = 0; j < seen; j++) sum += row[j] = Math.exp(row[j] - max);
        for (let j = 0; j < seen; j++) {
          const w = row[j] / sum;
          for (let c = 0; c < dV; c++) out[(h * nQ + i) * dV + c] += w * v[(h * nK + j) * dV + c];
        }
      }
    }
    return out;
  };
}

// tfjs: one small graph per head with an explicit transpose; its batched matMul over
// [batch·heads, n, d] measured slower here, so heads are looped.
function tfjs({ batch, heads, nQ, nK, dK, dV }, { q, k, v }, causal) {
  const H = batch * heads;
  const qs = [],
    kts = [],
    vs = [];
  for (let h = 0; h < H; h++) {
    qs.push(tf.tensor2d(q.subarray(h * nQ * dK, (h + 1) * nQ * dK), [nQ, dK]));
    kts.push(tf.transpose(tf.tensor2d(k.subarray(h * nK * dK, (h + 1) * nK * dK), [nK, dK])));
    vs.push(tf.tensor2d(v.subarray(h * nK * dV, (h + 1) * nK * dV), [nK, dV]));
  }
  const mask = causal
    ? tf.mul(tf.sub(tf.linalg.bandPart(tf.ones([nQ, nK]), -1, 0), 1), 1e30)
    : null;
  const scale = tf.scalar(1 / Math.sqrt(dK));
  return () => {
    const out = new Float32Array(H * nQ * dV);
    for (let h = 0; h < H; h++) {
      const o = tf.tidy(() => {
        let s = tf.mul(tf.matMul(qs[h], kts[h]), scale);
        if (mask) s = tf.add(s, mask);
        return tf.matMul(tf.softmax(s), vs[h]);
      });
      out.set(o.dataSync(), h * nQ * dV);
      o.dispose();
    }
    return out;
  };
}

async function onnxruntime(shape, { q, k, v }, causal) {
  const session = await ort.InferenceSession.create(attentionModel(shape, { causal }), {
    executionProviders: ["wasm"],
  });
  const { batch, heads, nQ, nK, dK, dV } = shape;
  const feeds = {
    Q: new ort.Tensor("float32", q, [batch, heads, nQ, dK]),
    K: new ort.Tensor("float32", k, [batch, heads, nK, dK]),
    V: new ort.Tensor("float32", v, [batch, heads, nK, dV]),
  };
  return async () => (await session.run(feeds)).O.data;
}

// float64, for checking every implementation's output
function reference64({ batch, heads, nQ, nK, dK, dV }, { q, k, v }, causal) {
  const out = new Float64Array(batch * heads * nQ * dV);
  const row = new Float64Array(nK);
  for (let h = 0; h < batch * heads; h++) {
    for (let i = 0; i < nQ; i++) {
      const seen = causal ? Math.min(i + 1, nK) : nK;
      let max = -Infinity;
      for (let j = 0; j < seen; j++) {
        let dot = 0;
        for (let c = 0; c < dK; c++) dot += q[(h * nQ + i) * dK + c] * k[(h * nK + j) * dK + c];
        row[j] = dot / Math.sqrt(dK);
        max = Math.max(max, row[j]);
      }
      let sum = 0;
      for (let j = 0; j < seen; j++) sum += row[j] = Math.exp(row[j] - max);
      for (let j = 0; j < seen; j++) {
        for (let c = 0; c < dV; c++)
          out[(h * nQ + i) * dV + c] += (row[j] / sum) * v[(h * nK + j) * dV + c];
      }
    }
  }
  return out;
}

function relativeError(a, b) {
  let diff = 0,
    size = 0;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    size = Math.max(size, Math.abs(b[i]));
  }
  return diff / size;
}

// ---- 1. side by side ----

setThreadsCount(1);
setWasmPaths(
  dirname(require.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm")) + "/",
);
await tf.setBackend("wasm");
await tf.ready();
ort.env.wasm.numThreads = 1;

const implementations = [
  { name: "ours, fast, no weights", prepare: ours({ weights: false }), ours: true },
  { name: "ours, fast, weights", prepare: ours({ weights: true }) },
  { name: "ours, weights as views", prepare: ours({ weights: true, copy: false }) },
  { name: "ours, Eigen reference", prepare: ours({ weights: false, reference: true }) },
  { name: "plain JS loops", prepare: plainJs, peer: true, slow: true },
  { name: "tfjs-backend-wasm 4.22", prepare: tfjs, peer: true },
  { name: "onnxruntime-web 1.30", prepare: onnxruntime, peer: true },
];

const shapes = [
  { batch: 1, heads: 1, n: 3, d: 2, calls: true },
  { batch: 1, heads: 8, n: 128, d: 64 },
  { batch: 1, heads: 8, n: 512, d: 64, target: true },
  { batch: 1, heads: 1, n: 2048, d: 64, target: true },
  { batch: 1, heads: 8, n: 1024, d: 64 },
  { batch: 1, heads: 8, n: 1024, d: 64, causal: true },
];

// The kernel's targets: 45 GFLOP/s at the shapes marked `target` (ours, fast, no weights), and
// ≥ ×1.4 the best peer at every shape but the smallest.
const targetGflops = 45;
const targetOverPeers = 1.4;

// The kernel's time t(d) at d and 2d, the same heads and n, taking turns: its products grow
// with d, its softmax (2^x, the row max and sum, the rescaling) does not, so 2·t(d) − t(2d) is
// the part that does not grow with d, and the rest the products' time at d. An estimate: the
// micro-kernels' loops are longer at 2d, so a little of their fixed cost counts as the softmax.
async function splitByD(s, causal) {
  const at = (d) => {
    const shape = { batch: s.batch, heads: s.heads, nQ: s.n, nK: s.n, dK: d, dV: d };
    const size = s.batch * s.heads * s.n * d;
    const fill = () => Float32Array.from({ length: size }, () => next() * 2 - 1);
    return { call: ours({ weights: false })(shape, { q: fill(), k: fill(), v: fill() }, causal) };
  };
  const both = [at(s.d), at(2 * s.d)];
  for (const b of both) {
    b.times = [];
    const until = performance.now() + 1000;
    for (let w = 0; w < 3 || performance.now() < until; w++) b.call();
  }
  // each round's pair is taken back to back, so that a change of load moves both
  const notGrowing = [];
  for (let round = 0; round < 15; round++) {
    for (const b of both) {
      const t0 = performance.now();
      b.call();
      b.times.push(performance.now() - t0);
    }
    notGrowing.push(2 * both[0].times[round] - both[1].times[round]);
  }
  const [ms, msAt2d] = both.map((b) => median(b.times));
  const notGrowingMs = median(notGrowing);
  return { ms, msAt2d, notGrowingMs, productsMs: ms - notGrowingMs };
}

const probe = peakProbe();
const peaks = [];
const next = random(1);
for (const s of shapes) {
  const shape = { batch: s.batch, heads: s.heads, nQ: s.n, nK: s.n, dK: s.d, dV: s.d };
  const size = s.batch * s.heads * s.n * s.d;
  const fill = () => Float32Array.from({ length: size }, () => next() * 2 - 1);
  const inputs = { q: fill(), k: fill(), v: fill() };
  const causal = Boolean(s.causal);
  const flops = 4 * s.batch * s.heads * s.n * s.n * s.d;
  const exact = reference64(shape, inputs, causal);
  const label = `${s.batch}x${s.heads}x${s.n}x${s.d}${causal ? " causal" : ""}`;
  process.stderr.write(`bench ${label} `);
  // Each run is one call, or for the smallest shape as many calls as take about 50 ms.
  const runs = [];
  for (const impl of implementations) {
    const call = await impl.prepare(shape, inputs, causal);
    const t0 = performance.now();
    const output = await call();
    let repeat = 1;
    if (s.calls) {
      for (let w = 0; w < 2000; w++) await call(); // warm up
      const t1 = performance.now();
      for (let w = 0; w < 200; w++) await call();
      repeat = Math.max(1, Math.round(50 / ((performance.now() - t1) / 200)));
    } else if (!impl.slow || performance.now() - t0 < 200) {
      // at least 3 calls and a second: V8 compiles hot WASM functions in the background
      const until = performance.now() + 1000;
      for (let w = 0; w < 3 || performance.now() < until; w++) await call();
    }
    const run = async () => {
      for (let r = 0; r < repeat; r++) await call();
    };
    runs.push({ impl, run, repeat, times: [], error: relativeError(output, exact) });
  }
  // round-robin: every implementation once per round, the probe between rounds
  const budget = performance.now() + 12000;
  for (let round = 0; round < 15 && (round < 5 || performance.now() < budget); round++) {
    for (const r of runs) {
      if (r.impl.slow && r.times.length >= 3 && !s.calls) continue;
      const t0 = performance.now();
      await r.run();
      r.times.push((performance.now() - t0) / r.repeat);
    }
    peaks.push(probe());
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  const result = {
    shape: label,
    d: s.d,
    flops,
    causal,
    target: Boolean(s.target),
    implementations: [],
  };
  if (s.target) result.split = await splitByD(s, causal);
  for (const r of runs) {
    const ms = median(r.times);
    result.implementations.push({
      name: r.impl.name,
      ms,
      callsPerSecond: 1000 / ms,
      gflops: flops / (ms * 1e6),
      relativeError: r.error,
      rounds: r.times.length,
    });
  }
  report.shapes.push(result);
}
report.peakGflops = median(peaks);

// ---- the attention table, and the kernel's targets ----

const fmt = (x, digits = 1) => (x >= 100 ? x.toFixed(0) : x.toFixed(digits));
const lines = [];
lines.push(
  `machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node} (V8 ${report.machine.v8}), load average ${report.machine.load}`,
);
lines.push(
  `wasm SIMD multiply-add peak (probe, median of ${peaks.length} runs between rounds): ${fmt(report.peakGflops)} GFLOP/s`,
);
lines.push("");
lines.push(
  "GFLOP/s = 4·n_q·n_k·d per head / median time; causal counts the unmasked 4·n²·d, an effective rate.",
);
lines.push("Ratios: a peer's median time over ours (fast, no weights); > 1 means ours is faster.");
const peers = implementations.filter((i) => i.peer).map((i) => i.name);
for (const r of report.shapes) {
  lines.push("");
  const tiny = r.shape.startsWith("1x1x3x2");
  lines.push(`${r.shape}`);
  const oursFast = r.implementations.find((i) => i.name === "ours, fast, no weights");
  for (const i of r.implementations) {
    const speed = tiny
      ? `${fmt(i.callsPerSecond / 1000, 0)}k calls/s`
      : `${fmt(i.ms, 2)} ms  ${fmt(i.gflops)} GFLOP/s`;
    const ratio = i === oursFast ? "" : `  ours ×${fmt(i.ms / oursFast.ms, 2)}`;
    const peak = tiny ? "" : `  ${fmt((100 * i.gflops) / report.peakGflops, 0)}% of peak`;
    lines.push(
      `  ${i.name.padEnd(26)} ${speed.padStart(28)}${peak.padStart(14)}${ratio.padEnd(14)}  error ${i.relativeError.toExponential(1)}`,
    );
  }
  const best = Math.min(
    ...r.implementations.filter((i) => peers.includes(i.name)).map((i) => i.ms),
  );
  r.oursOverBestPeer = best / oursFast.ms;
  lines.push(`  ours over the best peer: ×${fmt(r.oursOverBestPeer, 2)}`);
}
const causal = report.shapes.find((r) => r.causal);
const full = report.shapes.find((r) => r.shape === "1x8x1024x64");
const speedOf = (r) => r.implementations.find((i) => i.name === "ours, fast, no weights").ms;
report.causalSpeedup = speedOf(full) / speedOf(causal);
lines.push("");
lines.push(
  `causal 1x8x1024x64 is ×${fmt(report.causalSpeedup, 2)} faster than unmasked (ours, no weights)`,
);

// the kernel's targets, met or missed, and what limits it
lines.push("");
lines.push(
  `targets (ours, fast, no weights): ${targetGflops} GFLOP/s at ${report.shapes
    .filter((r) => r.target)
    .map((r) => r.shape)
    .join(" and ")}; ≥ ×${targetOverPeers} the best peer at every shape but 1x1x3x2`,
);
report.targets = [];
for (const r of report.shapes.filter((r) => r.target)) {
  const { gflops } = r.implementations.find((i) => i.name === "ours, fast, no weights");
  const { ms, msAt2d, notGrowingMs, productsMs } = r.split;
  const productsGflops = r.flops / (productsMs * 1e6);
  const met = gflops >= targetGflops;
  report.targets.push({ shape: r.shape, gflops, target: targetGflops, met });
  lines.push(
    `  ${r.shape}: ${fmt(gflops)} GFLOP/s, target ${targetGflops}: ${met ? "met" : "missed"} (${fmt((100 * gflops) / report.peakGflops, 0)}% of the probe's peak)`,
  );
  lines.push(
    `    what limits it (estimated from d = ${r.d} and ${2 * r.d}, ${fmt(msAt2d, 2)} ms): of ${fmt(ms, 2)} ms, ${fmt(notGrowingMs, 2)} ms (${fmt((100 * notGrowingMs) / ms, 0)}%) does not grow with d: the softmax (2^x, the row max and sum, the rescaling); the products run at ${fmt(productsGflops)} GFLOP/s (${fmt((100 * productsGflops) / report.peakGflops, 0)}% of the peak)`,
  );
}
const sized = report.shapes.filter((r) => !r.shape.startsWith("1x1x3x2"));
const short = sized.filter((r) => r.oursOverBestPeer < targetOverPeers);
report.targets.push({ overBestPeer: targetOverPeers, met: short.length === 0 });
lines.push(
  `  ours over the best peer: ${sized.map((r) => `×${fmt(r.oursOverBestPeer, 2)} (${r.shape})`).join(", ")}: ${short.length ? `missed at ${short.map((r) => r.shape).join(", ")}` : "met"}`,
);

// printed and written now, so that a later part that fails does not take these figures with it
console.log(lines.join("\n"));
const printed = lines.length;
mkdirSync(new URL("../build/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("../build/bench-kernel.json", import.meta.url),
  JSON.stringify({ ...report, table: lines.join("\n") }, null, 2) + "\n",
);
if (options.kernel) {
  console.log("\nwrote build/bench-kernel.json");
  process.exit(0);
}

// ---- 2. the core module ----

const coreFile = new URL("../web/generated/attention-core.mjs", import.meta.url);
const coreBytes = readFileSync(coreFile);
report.module = { raw: coreBytes.length, gzipped: gzipSync(coreBytes, { level: 9 }).length };
const child = (script) =>
  JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
  );
const instantiate = [];
for (let i = 0; i < 7; i++) {
  instantiate.push(
    child(`const t0 = performance.now();
const { default: create } = await import(${JSON.stringify(coreFile.href)});
await create();
console.log(JSON.stringify(performance.now() - t0));`),
  );
}
report.module.coldInstantiateMs = median(instantiate);
report.heapAt8192 = {};
for (const weights of [false, true]) {
  report.heapAt8192[weights ? "weights" : "noWeights"] = child(`
import { loadAttention } from ${JSON.stringify(new URL("../web/attention.js", import.meta.url).href)};
const core = await loadAttention();
const shape = { batch: 1, heads: 1, nQ: 8192, nK: 8192, dK: 64, dV: 64 };
const x = new Float32Array(8192 * 64).fill(0.5);
const before = core.memory();
core.attentionBatched(x, x, x, shape, { weights: ${weights} });
const after = core.memory();
console.log(JSON.stringify({ heapTopGrowth: after.heapTop - before.heapTop, memoryGrowth: after.heapBytes - before.heapBytes, inputsAndOutput: 4 * 4 * x.length${weights ? " + 4 * 8192 * 8192" : ""} }));`);
}

// ---- 3. the page's first view: tools/first-view.mjs ----

const env = await start();
const firstView = await firstViewBench([env]);
report.page = firstView.report;
const model = await modelBench(env);
report.model = model.report;
const induction = await inductionBench(env);
report.induction = induction.report;
const workers = await workersBench(env);
report.workers = workers.report;
const real = await realBench(env);
report.real = real.report;
await env.close();

// ---- the table ----

lines.push("");
lines.push(
  `core module (web/generated/attention-core.mjs, wasm inside): ${report.module.raw} bytes, ${report.module.gzipped} gzipped; cold instantiation (import + create, fresh Node) median ${fmt(report.module.coldInstantiateMs)} ms`,
);
for (const [k, h] of Object.entries(report.heapAt8192)) {
  lines.push(
    `heap growth at 1x1x8192x64, ${k === "weights" ? "with" : "without"} the weights: top +${(h.heapTopGrowth / 2 ** 20).toFixed(1)} MiB, memory +${(h.memoryGrowth / 2 ** 20).toFixed(1)} MiB (inputs, output${k === "weights" ? " and weights" : ""}: ${(h.inputsAndOutput / 2 ** 20).toFixed(1)} MiB)`,
  );
}
lines.push(...firstView.lines);
lines.push(...model.lines);
lines.push(...induction.lines);
lines.push(...workers.lines);
lines.push(...real.lines);

// ---- 7. the long run ----

const minutes = process.env.LONG_RUN_MINUTES ?? "30";
let longRun;
try {
  longRun = execFileSync(process.execPath, ["--test", "tests/browser/long-run.test.mjs"], {
    cwd: new URL("..", import.meta.url),
    env: { ...process.env, LONG_RUN_MINUTES: minutes },
    encoding: "utf8",
  });
} catch (failed) {
  longRun = `${failed.stdout}\nnot ok: the long run failed`;
}
const said = /# long run: (.*)/.exec(longRun)?.[1] ?? "no measure (see the test's output)";
report.longRun = { minutes: Number(minutes), said, passed: !/^not ok/m.test(longRun) };
lines.push(
  `a tab trained for ${minutes} minutes (long-run.test.mjs): ${said}; ${report.longRun.passed ? "flat, its numbers the trainer's apart" : "FAILED"}`,
);
const table = lines.join("\n");
console.log(lines.slice(printed).join("\n"));
mkdirSync(new URL("../build/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("../build/bench.json", import.meta.url),
  JSON.stringify({ ...report, table }, null, 2) + "\n",
);
console.log("\nwrote build/bench.json");
