// gpt-bench.mjs: the real model's speed, for `make bench` (tools/bench.mjs):
//   natively, a training step of the shipped configuration on one thread (tools/gpt-bench.cpp):
//   tokens per second and the fraction of this machine's measured float32 matrix-multiply rate
//   it reaches; beside it Debian's PyTorch 1.13 doing the same step (tools/gpt-bench.py);
//   in Node, the WASM core's step as the lab takes it (tools/gpt-step-bench.mjs);
//   in Chromium, the lab's "Train it yourself": steps per second, and the seconds from Start
//   until the held-out loss (measured every 50 steps) is within 0.3 nats of the shipped
//   weights', from random weights, or the give-up time.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { openApp } from "../tests/browser/browser.mjs";
import { stepBench, stepLine } from "./gpt-step-bench.mjs";

const root = new URL("../", import.meta.url);
const json = JSON.parse(readFileSync(new URL("web/labs/gpt/tang.json", root), "utf8"));
const { vocab, context, dModel, layers, heads } = json.config;
const shape = [vocab, context, dModel, layers, heads, json.training.batch].map(String);
const giveUpSeconds = 300;

function native() {
  const binary = new URL("build/native/attention_gpt_bench", root).pathname;
  return JSON.parse(
    execFileSync(binary, shape, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  );
}

function pytorch() {
  const script = new URL("tools/gpt-bench.py", root).pathname;
  return JSON.parse(execFileSync("/usr/bin/python3", [script, ...shape], { encoding: "utf8" }));
}

// The lab's training in the page: the status line read every second.
async function browser(env) {
  const page = await openApp(env, "scene=model&lang=en&step=6", {
    viewport: { width: 1440, height: 900 },
  });
  const target = json.heldOut + 0.3;
  await page.locator("#train-start").click();
  const started = Date.now();
  const points = [];
  let reached;
  while (!reached && (Date.now() - started) / 1000 < giveUpSeconds) {
    await page.waitForTimeout(1000);
    const status = await page.locator("#train-status").textContent();
    const m = status.match(
      /^Training step (\d+) of \d+ after \d+ s on the clock, ([\d.]+) steps per second; .* held-out loss (\d+\.\d+|—)/,
    );
    if (!m) continue;
    const point = {
      seconds: (Date.now() - started) / 1000,
      step: Number(m[1]),
      stepsPerSecond: Number(m[2]),
      heldOut: m[3] === "—" ? null : Number(m[3]),
    };
    points.push(point);
    if (point.heldOut !== null && point.heldOut <= target) reached = point;
  }
  // a run that has ended has no Stop to press
  if (await page.locator("#train-stop").isEnabled()) await page.locator("#train-stop").click();
  await page.close();
  const last = points.at(-1);
  return { target, reached: reached ?? null, stepsPerSecond: last?.stepsPerSecond, points };
}

/** The model's figures, and the lines of the bench's table. */
export async function modelBench(env) {
  const report = {
    native: native(),
    pytorch: pytorch(),
    wasm: await stepBench(),
    browser: await browser(env),
  };
  const { native: n, pytorch: p, wasm: w, browser: b } = report;
  const rate = Math.max(...Object.values(n.gemmGflops));
  const lines = [
    "",
    `the real model (${dModel}-wide, ${layers} layers, ${heads} heads, vocabulary ${vocab}), a training step of ${json.training.batch}×${context} tokens, one thread:`,
    `  ours, native float32: ${n.stepMs.toFixed(1)} ms, ${n.tokensPerSecond.toFixed(0)} tokens/s, ${n.stepGflops.toFixed(1)} GFLOP/s of ${n.stepGflop.toFixed(2)} GFLOP: ${(100 * n.fractionOfGemm).toFixed(0)}% of this machine's Eigen float32 matrix product (${rate.toFixed(1)} GFLOP/s, best of 512³ and the model's shapes)`,
    stepLine(w),
    `  PyTorch ${p.torch}, float32: ${p.stepMs.toFixed(1)} ms, ${p.tokensPerSecond.toFixed(0)} tokens/s (Debian's build: a reference BLAS, about 5 GFLOP/s)`,
    `  in Chromium, the lab's training: ${b.stepsPerSecond} steps/s; held-out loss within 0.3 nats of the shipped ${json.heldOut.toFixed(2)} (≤ ${b.target.toFixed(2)}): ${b.reached ? `after ${b.reached.seconds.toFixed(0)} s (step ${b.reached.step}, ${b.reached.heldOut})` : `not within ${giveUpSeconds} s (last: step ${b.points.at(-1)?.step}, ${b.points.at(-1)?.heldOut})`}`,
  ];
  return { report, lines };
}
