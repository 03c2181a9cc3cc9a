// first-view.mjs: the page's first view in headless Chromium, part 3 of `make bench`; alone:
// `node tools/first-view.mjs [runs] [web directory …]` (it needs the bundle; the runs of several
// directories, e.g. a build before and after a change, take turns; FIRST_VIEW_PROFILES=phone
// measures the phone profile alone, FIRST_VIEW_NAMES="age,cup step 1" those views alone). On
// localhost and on a phone profile (390 px, 4× CPU throttling, Fast 3G: 150 ms latency, 1.6 Mb/s
// down), for the URLs whose first view is drawn at build time (tools/prerender.mjs): the page
// with no parameters, in the HTML; each walkthrough's first step and two later steps (the age
// scene in Chinese at step 6, 19.4729; the classroom at step 7, the README's run; the book at
// step 5, the largest), whose views are
// files of their own that the page's start fetches (these on the phone profile only, unless
// named); and for two that wait for the live page (the age scene at step 6 with 2 digits; the
// heads lab, which loads the labs' code and core). Milestones from the page's own clock, ms since
// navigation: the HTML in, the scripts in (the last .js the page fetched before it was ready), the
// core compiled and instantiated (the first WebAssembly instance, seen by wrapping
// WebAssembly.instantiate*), the first numbers (the first frame with a matrix's cells in #app,
// prerendered or live), the page usable (the first frame after it says it is ready: its controls
// answer). Speed is measured here, never asserted.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { start } from "../tests/browser/browser.mjs";

// A bench measures the browser a learner runs (the tests use the lighter headless shell).
process.env.CHROMIUM ??= "/usr/bin/chromium";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The targets on the phone profile: the first numbers of the page with no parameters, of any
// other URL, and the page usable.
export const target = { prerenderedMs: 800, anyMs: 1200, usableMs: 1500 };

export const views = [
  { name: "no parameters", query: "", prerendered: true },
  ...["classroom", "age", "dictionary", "book", "cup"].map((scene, i) => ({
    name: `${scene} step 1`,
    query: `scene=${scene}&lang=${i % 2 ? "zh" : "en"}`,
    file: true,
  })),
  { name: "age", query: "scene=age&lang=zh&step=6", shows: "19.47", file: true },
  { name: "classroom", query: "scene=classroom&step=7&lang=en", file: true },
  // the largest view's file (19.5 KB gzipped)
  { name: "book step 5", query: "scene=book&step=5&lang=zh", file: true },
  { name: "age 2 digits", query: "scene=age&lang=zh&step=6&digits=2", shows: "19.47" },
  { name: "heads", query: "scene=heads&lang=en" },
];

// Runs in the page before its own scripts: records when the core was instantiated, and when the
// first frame came after a matrix's cells were first in #app and after #app[data-ready].
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
    if (seen.cells === undefined && document.querySelector("#app [data-matrix] button.cell")) {
      seen.cells = performance.now();
      seen.prerendered = !!document.querySelector("#app[data-first-view]");
      requestAnimationFrame(() => (seen.numbers = performance.now()));
    }
    if (!document.querySelector("#app[data-ready]")) return;
    observer.disconnect();
    seen.ready = performance.now();
    requestAnimationFrame(() => (seen.usable = performance.now()));
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

async function oneView(page) {
  await page.waitForFunction(() => window.__firstView?.usable !== undefined);
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
        usable: Math.round(seen.usable),
      },
      prerendered: seen.prerendered,
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
      await page.goto(`${env.url}${query && "?"}${query}`, { waitUntil: "commit" });
      const view = await oneView(page);
      // The main thread's time until just after the page is usable, throttled: scripts (and the
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
      usableMs: views.map((v) => v.milestones.usable),
      prerendered: warm.filter((v) => v.prerendered).length,
      requests: warm[0].requests,
      bytes: warm[0].bytes,
      waterfall: warm[0].waterfall,
    };
  });
}

/**
 * The phone profile's targets, met or missed by the medians, and what limits them: for a view in
 * the HTML, the HTML itself and the main thread's work after it; for the live page, its scripts
 * in (the last one), the core compiled, and its first render.
 */
function verdict({ milestonesMs: m, targetMs, prerendered, runs, file }) {
  const said = (what, ms, target) =>
    `${what} ${ms} ms, target ${target}: ${ms <= target ? "met" : "missed"}`;
  const limits =
    prerendered === runs
      ? `the HTML in at ${m.html} ms, the view ${file ? "fetched, " : ""}drawn and painted ${m.numbers - m.html} ms later`
      : `the live page's scripts in at ${m.scripts} ms, its core compiled at ${m.core}, drawn ${m.numbers - m.core} ms later`;
  return `${said("first numbers", m.numbers, targetMs.numbers)}; ${said("usable", m.usable, targetMs.usable)} (the live page's scripts in at ${m.scripts} ms); what limits the numbers: ${limits}`;
}

/**
 * Every view on both profiles; resolves to { report, lines } for bench.mjs's table. envs: one
 * started server and browser (tests/browser/browser.mjs), or several, whose runs take turns.
 */
export async function firstViewBench(
  envs,
  runs = 7,
  names = envs.map(() => ""),
  profiles = ["localhost", "phone"],
) {
  const report = {};
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const lines = ["", `page first view, load average at the start ${load()}`];
  const only = process.env.FIRST_VIEW_NAMES?.split(",");
  // the prerendered views' targets are the phone's: on localhost, only when named
  const measured = (v, profile) =>
    only ? only.includes(v.name) : profile === "phone" || !(v.prerendered || v.file);
  for (const profile of profiles)
    for (const view of views.filter((v) => measured(v, profile))) {
      const results = await firstViews(envs, { ...view, phone: profile === "phone" }, runs);
      results.forEach((r, i) => {
        report[[profile, view.name, names[i]].join(" ").trim()] = {
          ...r,
          file: view.file,
          targetMs:
            profile === "phone"
              ? {
                  numbers: view.prerendered ? target.prerenderedMs : target.anyMs,
                  usable: target.usableMs,
                }
              : undefined,
        };
      });
    }
  for (const [k, r] of Object.entries(report)) {
    const m = r.milestonesMs;
    lines.push(
      `  ${k}: medians of ${r.runs}, ms from navigation: HTML ${m.html}, scripts ${m.scripts}, core compiled ${m.core}, first numbers ${m.numbers}, usable ${m.usable}; main thread by then: script ${m.cpuScript}, style ${m.cpuStyle}, layout ${m.cpuLayout}`,
      `    all runs' first numbers: ${r.numbersMs.join(", ")}; usable: ${r.usableMs.join(", ")} (the first in a just-started browser); prerendered in ${r.prerendered} of ${r.runs}; ${r.requests.length} requests, ${(r.bytes / 1024).toFixed(1)} KB on the wire`,
    );
    if (r.targetMs) lines.push(`    ${verdict(r)}`);
  }
  lines.push(`  load average at the end ${load()}`);
  return { report, lines };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [runs = "7", ...dirs] = process.argv.slice(2);
  const envs = await Promise.all((dirs.length ? dirs : [undefined]).map((dir) => start(dir)));
  const profiles = process.env.FIRST_VIEW_PROFILES?.split(",") ?? ["localhost", "phone"];
  const { report, lines } = await firstViewBench(envs, Number(runs), dirs, profiles);
  await Promise.all(envs.map((env) => env.close()));
  console.log(lines.join("\n"));
  if (process.env.FIRST_VIEW_JSON)
    writeFileSync(process.env.FIRST_VIEW_JSON, JSON.stringify(report, null, 2));
}
