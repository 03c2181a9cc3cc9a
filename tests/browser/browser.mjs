// browser.mjs: Debian's Chromium through playwright-core, and web/ served on a free port.
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

/**
 * Starts the server and the browser; returns { browser, url, close }. Pages are served under
 * our Content-Security-Policy unless headers say otherwise.
 */
export async function start(
  root = new URL("../../web/", import.meta.url).pathname,
  headers = { "content-security-policy": policy() },
  routes = {},
) {
  const { server, url } = await serve(root, 0, headers, routes);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: flags,
  });
  return {
    browser,
    url,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** A new page that records console errors and page errors into page.errors. */
export async function openPage(browser, url, options = {}) {
  const page = await browser.newPage(options);
  page.errors = [];
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(url);
  return page;
}
