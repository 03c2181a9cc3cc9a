// browser.mjs: Debian's Chromium (its headless shell) through playwright-core, and web/ served on
// a free port. The pages a file opens share one browser context, kept warm by a page left open on
// the server.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { policy, serve } from "../../tools/serve.mjs";

const flags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// A blank page on the test server's origin, which the shared context keeps open.
const keepAlive = "/__keep-alive";

// Each browser's shared context. The page app keeps nothing of its own (no storage, no cookies),
// so pages in one context see what pages in their own would; while the context's kept page is
// open, Chromium gives every new page of the origin the same renderer process, with the scripts
// and the WASM it has compiled: a page costs about half the CPU time (0.7 s instead of 1.6 s
// here; docs/testing.md).
const shared = new WeakMap();

/**
 * Starts the server and the browser; returns { browser, url, close }. Pages are served under
 * our Content-Security-Policy unless headers say otherwise.
 */
export async function start(
  root = new URL("../../web/", import.meta.url).pathname,
  headers = { "content-security-policy": policy() },
  routes = {},
) {
  const blank = (request, response) =>
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html>");
  const { server, url } = await serve(root, 0, headers, { ...routes, [keepAlive]: blank });
  const browser = await chromium.launch({
    // Debian's headless shell (Chromium's old headless mode, Playwright's own headless browser),
    // or $CHROMIUM: Chromium's renderer without the browser's windows and their pages, about a
    // third less CPU time a page here (docs/testing.md).
    executablePath: process.env.CHROMIUM ?? "/usr/lib/chromium/chromium-headless-shell",
    headless: true,
    args: flags,
  });
  const context = await browser.newContext();
  await (await context.newPage()).goto(new URL(keepAlive, url).href);
  shared.set(browser, context);
  return {
    browser,
    url,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** The walkthrough page (web/index.html) at `?query`, once its first view is drawn. */
export async function openApp(env, query, options) {
  const page = await openPage(env.browser, `${env.url}?${query}`, options);
  await page.waitForSelector("#app[data-ready]");
  return page;
}

/**
 * Presses the page's switch to `lang` ("en" or "zh") and waits until the page is in it: the
 * page loads a language's words the first time it is asked for (web/i18n/one-language.js).
 */
export async function switchLanguage(page, lang) {
  await page.locator(`#lang-${lang}`).click();
  await page.locator(`#lang-${lang}[aria-pressed="true"]`).waitFor();
}

/**
 * A new page in the browser's shared context, or in a context of its own when options ask for
 * more than a viewport (isMobile, hasTouch, reducedMotion …) or the browser was not started here.
 */
async function newPage(browser, { viewport, ...rest }) {
  const context = shared.get(browser);
  if (!context || Object.keys(rest).length) return browser.newPage({ viewport, ...rest });
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  return page;
}

/** A new page that records console errors and page errors into page.errors. */
export async function openPage(browser, url, options = {}) {
  const page = await newPage(browser, options);
  page.errors = [];
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(url);
  return page;
}

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Serious or critical axe-core violations on the page (inside open shadow roots too). */
export async function axeViolations(page) {
  await page.evaluate(readFileSync(axePath, "utf8"));
  const result = await page.evaluate(() => window.axe.run(document));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length} × ${v.nodes[0].target})`);
}

/**
 * Runs Python code with the package installed from the wheel (build/venv, make venv); returns
 * the JSON it prints. A view's HTML holds its script and core inlined: past the default 1 MB.
 */
export function venvPython(code) {
  const root = new URL("../../", import.meta.url).pathname;
  const out = execFileSync(`${root}build/venv/bin/python`, ["-c", code], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out);
}

/**
 * The page's own memory after a real collection, through the DevTools protocol (`cdp`, with
 * Performance enabled): its JS heap, its DOM nodes and its event listeners.
 */
export async function pageMemory(page, cdp) {
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name) => metrics.find((m) => m.name === name).value;
  return {
    jsHeap: metric("JSHeapUsedSize"),
    domNodes: await page.evaluate(() => document.getElementsByTagName("*").length),
    listeners: metric("JSEventListeners"),
  };
}
