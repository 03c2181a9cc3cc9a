// bench.mjs: `make bench`. Speed and size, measured, never asserted: the batched WASM core in
// GFLOP/s (4·S²·d per head, the convention of docs/toolchain.md), and the page's first view
// in headless Chromium with its bytes transferred, gzipped.
import { gzipSync } from "node:zlib";
import { loadAttention } from "../web/attention.js";
import { random } from "../web/random.js";
import { start } from "../tests/browser/browser.mjs";

const core = await loadAttention();
const next = random(1);
const filled = (n) => Float32Array.from({ length: n }, () => next() * 2 - 1);

console.log("batched attention, WASM core in Node, one thread");
for (const [batch, heads, s, d] of [
  [1, 8, 128, 64],
  [1, 8, 512, 64],
  [1, 1, 2048, 64],
]) {
  const shape = { batch, heads, nQ: s, nK: s, dK: d, dV: d };
  const n = batch * heads * s * d;
  const [q, k, v] = [filled(n), filled(n), filled(n)];
  core.attentionBatched(q, k, v, shape);
  const times = [];
  for (let rep = 0; rep < 7; rep++) {
    const t0 = performance.now();
    core.attentionBatched(q, k, v, shape);
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  const gflops = (4 * s * s * d * batch * heads) / (best * 1e6);
  console.log(
    `  ${batch}x${heads}x${s}x${d}: best of 7 ${best.toFixed(2)} ms, ${gflops.toFixed(1)} GFLOP/s`,
  );
}

const env = await start();
const loads = [];
let bytes = 0;
for (let rep = 0; rep < 6; rep++) {
  const page = await env.browser.newPage();
  const bodies = [];
  page.on("response", (r) => bodies.push(r.body().catch(() => Buffer.alloc(0))));
  const t0 = Date.now();
  await page.goto(`${env.url}?scene=classroom&step=7&lang=en`);
  await page.waitForSelector('[data-matrix="output"] button.cell');
  loads.push(Date.now() - t0);
  bytes = (await Promise.all(bodies)).reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
  await page.close();
}
await env.close();
const [cold, ...warm] = loads;
warm.sort((a, b) => a - b);
console.log("page, headless Chromium on localhost");
console.log(`  first view with real numbers: ${cold} ms in a just-started browser,`);
console.log(
  `  then median ${warm[Math.floor(warm.length / 2)]} ms over ${warm.length} more loads (${warm.join(", ")})`,
);
console.log(`  transferred, gzipped: ${(bytes / 1024).toFixed(1)} KB`);
