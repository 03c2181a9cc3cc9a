// real-bench.mjs: make bench's lesson 6 part. What the tokens lab costs when it opens: the page
// at its first view (whose bytes the first-view bench reports, and which lesson 6 must not grow),
// then a click on the tokens lab; the bytes fetched from the click on (gzipped, as served), the
// time until its first tokens are drawn and until Qwen3's are (step 4), each vocabulary's chunk
// named. Medians of `runs`.
// Alone: node tools/real-bench.mjs [runs]
import { fileURLToPath } from "node:url";
import { start, openPage } from "../tests/browser/browser.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(env) {
  const page = await openPage(env.browser, `${env.url}?lang=en`);
  await page.waitForSelector("#app[data-ready]");
  await page.waitForLoadState("networkidle");
  const firstView = await page.evaluate(() =>
    performance.getEntriesByType("resource").reduce((sum, r) => sum + r.encodedBodySize, 0),
  );
  const clicked = await page.evaluate(() => performance.now());
  await page.locator("#scene-tokens").click();
  await page.waitForSelector('[data-model="ours"]');
  const drawn = await page.evaluate(() => performance.now());
  for (let k = 0; k < 3; k++) await page.locator("#forward").click();
  await page.waitForSelector('[data-model="qwen3"]');
  const result = await page.evaluate((from) => {
    const after = performance
      .getEntriesByType("resource")
      .filter((r) => r.startTime >= from)
      .map((r) => ({ path: new URL(r.name).pathname, bytes: r.encodedBodySize }));
    return { after, allMs: performance.now() - from };
  }, clicked);
  result.drawnMs = drawn - clicked;
  await page.close();
  return { firstView, ...result };
}

export async function realBench(env, runs = 3) {
  const all = [];
  for (let r = 0; r < runs; r++) all.push(await once(env));
  const opened = all.map((a) => a.after.reduce((sum, x) => sum + x.bytes, 0));
  const vocabularies = all[0].after.filter((x) => /r50k_base|o200k_base|\/main-/.test(x.path));
  const report = {
    firstViewBytes: median(all.map((a) => a.firstView)),
    openedBytes: median(opened),
    drawnMs: median(all.map((a) => a.drawnMs)),
    allMs: median(all.map((a) => a.allMs)),
    vocabularies,
    requests: all[0].after.length,
  };
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  const lines = [
    "",
    `lesson 6, the tokens lab opened from the first view (localhost, medians of ${runs}):`,
    `  the first view before it: ${kb(report.firstViewBytes)} on the wire (the tokenizers are not in it)`,
    `  fetched when it opens: ${kb(report.openedBytes)} in ${report.requests} requests, of which the vocabularies ${vocabularies.map((v) => `${v.path.split("/").pop()} ${kb(v.bytes)}`).join(", ")}; its first tokens drawn ${report.drawnMs.toFixed(0)} ms after the click (GPT-2's vocabulary with it), Qwen3's ${report.allMs.toFixed(0)} ms after it (GPT-4o's and Qwen3's load while the first steps are read)`,
  ];
  return { report, lines };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = await start();
  const { lines } = await realBench(env, Number(process.argv[2] ?? 3));
  await env.close();
  console.log(lines.join("\n"));
}
