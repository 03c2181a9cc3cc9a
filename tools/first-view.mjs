// first-view.mjs: the page's first view in headless Chromium, part 3 of `make bench`; alone:
// `node tools/first-view.mjs [runs] [web directory …]` (it needs the bundle; the runs of several
// directories, e.g. a build before and after a change, take turns). On localhost and on a phone
// profile (390 px, 4× CPU throttling, Fast 3G: 150 ms latency, 1.6 Mb/s down), for the age
// scene in Chinese at step 6 (19.4729) and the classroom at step 7 (the README's run).
// Milestones from the page's own clock, ms since navigation: the HTML in, the scripts in (the
// last .js the first view fetched), the core compiled and instantiated (the first WebAssembly
// instance, seen by wrapping WebAssembly.instantiate*), the first numbers drawn (the first
// frame after the page says it is ready). Speed is measured here, never asserted.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { start } from "../tests/browser/browser.mjs";

// A bench measures the browser a learner runs (the tests use the lighter headless shell).
process.env.CHROMIUM ??= "/usr/bin/chromium";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const views = [
  { name: "age", query: "scene=age&lang=zh&step=6", shows: "19.47" },
  { name: "classroom", query: "scene=classroom&step=7&lang=en" },
];

export const target = { phoneMs: 1200 };

// Runs in the page before its own scripts: records when the core was instantiated and when the
// first frame after #app[data-ready] came.
function probe() {
  const seen = {};
  Object.defineProperty(window, "__firstView", { value: seen });
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      const result = original.apply(this, args);
      result.then(
        () => (seen.core ??= performance.now()),
        () => {},
      );
      return result;
    };
  }
  new MutationObserver((_, observer) => {
    if (!document.querySelector("#app[data-ready]")) return;
    observer.disconnect();
    seen.ready = performance.now();
    requestAnimationFrame(() => (seen.numbers = performance.now()));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
}

async function oneView(page) {
  await page.waitForFunction(() => window.__firstView?.numbers !== undefined);
  return page.evaluate(() => {
    const seen = window.__firstView;
    const [nav] = performance.getEntriesByType("navigation");
    const before = performance.getEntriesByType("resource").filter((r) => r.startTime < seen.ready);
    const scripts = before.filter((r) => /\.m?js$/.test(new URL(r.name).pathname));
    return {
      milestones: {
        html: Math.round(nav.responseEnd),
        scripts: Math.round(Math.max(0, ...scripts.map((r) => r.responseEnd))),
        core: Math.round(seen.core ?? 0),
        numbers: Math.round(seen.numbers),
      },
      requests: [nav, ...before].map((r) => new URL(r.name).pathname),
      waterfall: [nav, ...before].map((r) => ({
        path: new URL(r.name).pathname,
        start: Math.round(r.startTime),
        end: Math.round(r.responseEnd),
        bytes: r.encodedBodySize,
      })),
      bytes: [nav, ...before].reduce((sum, r) => sum + r.encodedBodySize, 0),
      text: document.getElementById("app").textContent,
    };
  });
}

// One view on one profile, `runs` times on each of the servers in envs, taking turns (so that
// they share whatever else the machine is doing); the first run is in a just-started browser.
async function firstViews(envs, { phone, query, shows }, runs) {
  const all = envs.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, env] of envs.entries()) {
      const context = await env.browser.newContext(
        phone
          ? {
              viewport: { width: 390, height: 844 },
              deviceScaleFactor: 3,
              isMobile: true,
              hasTouch: true,
            }
          : {},
      );
      await context.addInitScript(probe);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      if (phone) {
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6e6 / 8) * 0.9,
          uploadThroughput: (750e3 / 8) * 0.9,
        });
      }
      await page.goto(`${env.url}?${query}`);
      const view = await oneView(page);
      // The main thread's time until just after the first numbers, throttled: scripts (and the
      // core's compilation), style, layout.
      const { metrics } = await cdp.send("Performance.getMetrics");
      const seconds = Object.fromEntries(metrics.map((m) => [m.name, m.value]));
      view.milestones.cpuScript = Math.round(1000 * seconds.ScriptDuration);
      view.milestones.cpuStyle = Math.round(1000 * seconds.RecalcStyleDuration);
      view.milestones.cpuLayout = Math.round(1000 * seconds.LayoutDuration);
      if (shows && !view.text.includes(shows))
        throw new Error(`first view of ?${query}: ${shows} is not on the page`);
      all[i].push(view);
      await context.close();
    }
  }
  return all.map((views) => {
    const warm = views.slice(1);
    return {
      runs: warm.length,
      milestonesMs: Object.fromEntries(
        Object.keys(warm[0].milestones).map((k) => [k, median(warm.map((v) => v.milestones[k]))]),
      ),
      numbersMs: views.map((v) => v.milestones.numbers),
      requests: warm[0].requests,
      bytes: warm[0].bytes,
      waterfall: warm[0].waterfall,
    };
  });
}

/**
 * Every view on both profiles; resolves to { report, lines } for bench.mjs's table. envs: one
 * started server and browser (tests/browser/browser.mjs), or several, whose runs take turns.
 */
export async function firstViewBench(envs, runs = 7, names = envs.map(() => "")) {
  const report = {};
  for (const phone of [false, true])
    for (const view of views) {
      const results = await firstViews(envs, { ...view, phone }, runs);
      results.forEach((r, i) => {
        report[[phone ? "phone" : "localhost", view.name, names[i]].join(" ").trim()] = r;
      });
    }
  const lines = [
    "",
    `page first view (target on the phone profile: ${target.phoneMs} ms), load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  ];
  for (const [k, r] of Object.entries(report)) {
    const m = r.milestonesMs;
    lines.push(
      `  ${k}: medians of ${r.runs}, ms from navigation: HTML ${m.html}, scripts ${m.scripts}, core compiled ${m.core}, first numbers ${m.numbers}; main thread by then: script ${m.cpuScript}, style ${m.cpuStyle}, layout ${m.cpuLayout}`,
      `    all runs' first numbers: ${r.numbersMs.join(", ")} (the first in a just-started browser); ${r.requests.length} requests, ${(r.bytes / 1024).toFixed(1)} KB on the wire`,
    );
  }
  return { report, lines };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [runs = "7", ...dirs] = process.argv.slice(2);
  const envs = await Promise.all((dirs.length ? dirs : [undefined]).map((dir) => start(dir)));
  const { report, lines } = await firstViewBench(envs, Number(runs), dirs);
  await Promise.all(envs.map((env) => env.close()));
  console.log(lines.join("\n"));
  if (process.env.FIRST_VIEW_JSON)
    writeFileSync(process.env.FIRST_VIEW_JSON, JSON.stringify(report, null, 2));
}
