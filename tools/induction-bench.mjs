// induction-bench.mjs: the induction lab's training, for `make bench` (tools/bench.mjs), in
// Chromium: the seconds from Start until the step in the loss (the first kept measure with the
// repeated half's loss under half of ln 32, as the lab's status says it), against the target of
// 30 s; the steps per second; and the frame times while it trains (requestAnimationFrame's
// intervals from Start to the step: their median, 95th percentile and longest). On the desktop, and on the
// phone profile (390 px, 4× CPU throttling). Run alone: `node tools/induction-bench.mjs`.
import { openApp, start } from "../tests/browser/browser.mjs";

const targetSeconds = 30;

/** The frames' intervals from now on, kept in the page (window.frameGaps). */
export const recordFrames = (page) =>
  page.evaluate(() => {
    window.frameGaps = [];
    let last = performance.now();
    const tick = (now) => {
      window.frameGaps.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
const giveUpSeconds = 180;

async function run(env, { phone }) {
  const page = await openApp(env, "scene=induction&lang=en&step=2", {
    viewport: phone ? { width: 390, height: 844 } : { width: 1440, height: 900 },
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  if (phone) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  }
  await recordFrames(page);
  await page.locator("#induction-start").click();
  const started = Date.now();
  let drop;
  let status = "";
  while (!drop && (Date.now() - started) / 1000 < giveUpSeconds) {
    await page.waitForTimeout(500);
    status = await page.locator("#induction-status").textContent();
    const m = status.match(/at step (\d+), (\d+) s after Start/);
    if (m) drop = { step: Number(m[1]), seconds: Number(m[2]) };
  }
  // the frames from Start to the step
  const gaps = await page.evaluate(() => window.frameGaps.slice(2));
  const rate = Number(status.match(/([\d.]+) steps per second/)?.[1] ?? NaN);
  await page.locator("#induction-stop").click();
  await page.close();
  const sorted = [...gaps].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    phone,
    drop: drop ?? null,
    stepsPerSecond: rate,
    frames: { count: gaps.length, median: at(0.5), p95: at(0.95), longest: sorted.at(-1) },
  };
}

/** The lab's figures, and the lines of the bench's table. */
export async function inductionBench(env) {
  const runs = [await run(env, { phone: false }), await run(env, { phone: true })];
  const lines = [
    "",
    "the induction lab: 2 layers of one head, d_model 64, 32 sequences of 20 tokens a step, in Chromium:",
  ];
  for (const r of runs) {
    const where = r.phone ? "phone profile (4× CPU)" : "desktop";
    const drop = r.drop
      ? `the step in the loss (repeated half under ½ ln 32) at training step ${r.drop.step}, ${r.drop.seconds} s after Start: target ≤ ${targetSeconds} s, ${r.drop.seconds <= targetSeconds ? "met" : "missed"}`
      : `no step in the loss within ${giveUpSeconds} s`;
    const f = r.frames;
    lines.push(
      `  ${where}: ${drop}; ${r.stepsPerSecond} steps/s; frames while training: median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, longest ${f.longest.toFixed(0)} ms (${f.count} frames)`,
    );
  }
  return { report: runs, lines };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.CHROMIUM ??= "/usr/bin/chromium";
  const env = await start();
  const { lines } = await inductionBench(env);
  console.log(lines.join("\n"));
  await env.close();
}
