// workers-bench.mjs: training on more than one worker (labs/share.js), for `make bench`
// (tools/bench.mjs), in Chromium, through the page as a learner trains: each lab that trains
// (the real model's "Train it yourself", the own-text lab, the induction lab) is opened afresh,
// its choice of workers set, and Start pressed; after a warm-up, the steps per second over a
// window (from the status's step count and this process's clock) and the frames' intervals
// while it trains (requestAnimationFrame's: median, 95th percentile). One worker and all of the
// device's take turns, run after run. The induction lab is also timed to the step in its loss
// (the status's seconds after Start), on the desktop and on the phone profile (390 px, 4× CPU).
// Targets: steps per second ≥ 1.7× one worker's for the Tang model and the own-text
// lab; the induction step in half one worker's time; frames p95 ≤ 20 ms while training.
// Run alone: `node tools/workers-bench.mjs [--turns N]`.
import { parseArgs } from "node:util";
import { openApp, start } from "../tests/browser/browser.mjs";
import { recordFrames } from "./induction-bench.mjs";

const warmUpMs = 4000;
const windowMs = 15000;
const giveUpSeconds = 150;

// The induction lab's 1,000 steps take seconds: its window is short enough to end before them.
const labs = {
  tang: { query: "scene=model&lang=en&step=6", id: "train", step: /step (\d+) of/ },
  text: { query: "scene=text&lang=en&step=3", id: "text-train", step: /step (\d+) of/ },
  induction: {
    query: "scene=induction&lang=en&step=2",
    id: "induction",
    step: /step (\d+) of/,
    warmUpMs: 1500,
    windowMs: 4000,
  },
};

const sortedAt = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function open(env, lab, workers, phone) {
  const page = await openApp(env, labs[lab].query, {
    viewport: phone ? { width: 390, height: 844 } : { width: 1440, height: 900 },
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  if (phone) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  await page.locator(`#${labs[lab].id}-workers`).selectOption(String(workers));
  return page;
}

const stepOf = async (page, lab) =>
  Number(
    labs[lab].step.exec(await page.locator(`#${labs[lab].id}-status`).textContent())?.[1] ?? 0,
  );

// Steps per second over the window after the warm-up, and the frames in it.
async function rate(env, lab, workers) {
  const page = await open(env, lab, workers, false);
  await page.locator(`#${labs[lab].id}-start`).click();
  await page.waitForTimeout(labs[lab].warmUpMs ?? warmUpMs);
  await recordFrames(page);
  const [s0, t0] = [await stepOf(page, lab), Date.now()];
  await page.waitForTimeout(labs[lab].windowMs ?? windowMs);
  const [s1, t1] = [await stepOf(page, lab), Date.now()];
  const gaps = await page.evaluate(() => window.frameGaps.slice(2));
  const stop = page.locator(`#${labs[lab].id}-stop`);
  if (await stop.isEnabled()) await stop.click();
  await page.close();
  return {
    stepsPerSecond: (s1 - s0) / ((t1 - t0) / 1000),
    frames: { median: sortedAt(gaps, 0.5), p95: sortedAt(gaps, 0.95), count: gaps.length },
  };
}

// The seconds from Start to the induction lab's step in the loss, as its status says them.
async function toStep(env, workers, phone) {
  const page = await open(env, "induction", workers, phone);
  await page.locator("#induction-start").click();
  const began = Date.now();
  let seconds = null;
  while (seconds === null && (Date.now() - began) / 1000 < giveUpSeconds) {
    await page.waitForTimeout(500);
    const status = await page.locator("#induction-status").textContent();
    const m = /at step \d+, (\d+) s after Start/.exec(status);
    if (m) seconds = Number(m[1]);
  }
  const stop = page.locator("#induction-stop");
  if (await stop.isEnabled()) await stop.click();
  await page.close();
  return seconds;
}

const median = (xs) => sortedAt(xs, 0.5);
const fmt = (x, d = 1) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(d));

/** The figures, one worker and all in turns, and the lines of the bench's table. */
export async function workersBench(env, { turns = 2 } = {}) {
  const page = await openApp(env, labs.text.query);
  const cores = await page.evaluate(() => Math.min(navigator.hardwareConcurrency, 4));
  await page.close();
  const counts = cores > 1 ? [1, cores] : [1];
  const report = { cores, rates: {}, toStep: { desktop: {}, phone: {} } };
  for (const lab of Object.keys(labs)) {
    report.rates[lab] = Object.fromEntries(counts.map((n) => [n, []]));
    for (let turn = 0; turn < turns; turn += 1) {
      for (const n of counts) report.rates[lab][n].push(await rate(env, lab, n));
    }
  }
  for (const [where, phone, times] of [
    ["desktop", false, turns],
    ["phone", true, 1],
  ]) {
    for (const n of counts) report.toStep[where][n] = [];
    for (let turn = 0; turn < times; turn += 1) {
      for (const n of counts) report.toStep[where][n].push(await toStep(env, n, phone));
    }
  }
  const most = counts.at(-1);
  const lines = [
    "",
    `training on more workers (labs/share.js), in Chromium, 1 and ${most} workers in turns (${turns} runs each; this device reports ${cores} cores):`,
  ];
  for (const lab of Object.keys(labs)) {
    const r = report.rates[lab];
    const speed = (n) => median(r[n].map((x) => x.stepsPerSecond));
    const p95 = (n) => Math.max(...r[n].map((x) => x.frames.p95));
    const times = speed(most) / speed(1);
    const goal = lab === "induction" ? "" : `: target ≥ 1.7×, ${times >= 1.7 ? "met" : "missed"}`;
    lines.push(
      `  ${lab}: ${fmt(speed(1), 2)} steps/s on 1, ${fmt(speed(most), 2)} on ${most} (runs ${r[most].map((x) => fmt(x.stepsPerSecond, 2)).join(", ")}): ×${fmt(times, 2)}${goal}; frames p95 while training ${fmt(p95(1))} ms on 1, ${fmt(p95(most))} ms on ${most}: target ≤ 20 ms, ${p95(most) <= 20 ? "met" : "missed"}`,
    );
  }
  for (const where of ["desktop", "phone"]) {
    const t = report.toStep[where];
    const one = median(t[1]);
    const all = median(t[most]);
    lines.push(
      `  the induction step, ${where === "phone" ? "phone profile (4× CPU)" : "desktop"}: ${t[1].join(", ")} s after Start on 1, ${t[most].join(", ")} s on ${most}: target ≤ half, ${all !== null && one !== null && all <= one / 2 ? "met" : "missed"}`,
    );
  }
  return { report, lines };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { turns: { type: "string", default: "2" } } });
  process.env.CHROMIUM ??= "/usr/bin/chromium";
  const env = await start();
  const { lines, report } = await workersBench(env, { turns: Number(values.turns) });
  console.log(lines.join("\n"));
  console.log(JSON.stringify(report));
  await env.close();
}
