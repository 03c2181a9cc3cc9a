// notebook.test.mjs (make test-hosts, not make test): the English notebook in the real classic
// Jupyter Notebook (Debian's jupyter-notebook, run from build/venv, where `make venv` installed
// the wheel and its python3 kernel), opened in Chromium with every request off the machine
// refused: Cell ▸ Run All, then every walkthrough shows its numbers (checked as in the exported
// notebooks), and one moves a step when its → is pressed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { start, openPage } from "../browser/browser.mjs";
import { checkWalkthroughs, drawn } from "../browser/notebook-views.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const name = "attention-by-hand.ipynb";

// A port nothing listens on.
function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let env, jupyter, port;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "notebook-"));
  copyFileSync(join(root, "notebooks", name), join(dir, name));
  port = await freePort();
  const args = ["-m", "notebook", "--no-browser", `--port=${port}`, "--ip=127.0.0.1"];
  args.push("--NotebookApp.token=", "--NotebookApp.password=", `--notebook-dir=${dir}`);
  if (process.getuid?.() === 0) args.push("--allow-root");
  jupyter = spawn(join(root, "build/venv/bin/python"), args, {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: "1" },
  });
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  env = await start();
});
after(() => {
  env?.close();
  if (jupyter) process.kill(-jupyter.pid, "SIGTERM"); // the server and its kernels
});

test("the classic Notebook runs the notebook live: every walkthrough shows its numbers and steps", async () => {
  const page = await openPage(env.browser, "about:blank", {
    viewport: { width: 1440, height: 900 },
  });
  const away = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`http://127.0.0.1:${port}/`)) return route.continue();
    away.push(url);
    return route.abort();
  });
  await page.goto(`http://127.0.0.1:${port}/notebooks/${name}`);
  await page.waitForFunction(() => window.Jupyter?.notebook?.kernel?.is_connected?.(), null, {
    timeout: 60000,
  });
  await page.evaluate(() => window.Jupyter.notebook.execute_all_cells());
  await page.waitForFunction(
    () =>
      document.querySelectorAll(".output_area attention-walkthrough").length === 4 &&
      !window.Jupyter.notebook.kernel_busy,
    null,
    { timeout: 120000, polling: 500 },
  );
  const errors = await page.locator(".output_error").count();
  assert.equal(errors, 0, "no cell raised");
  await drawn(page);
  assert.ok((await checkWalkthroughs(page, 4)) >= 20);
  // the fruit dictionary, shown at step 5: → moves it to step 6 of 6
  const first = page.locator("attention-walkthrough").first();
  assert.match(await first.evaluate((e) => e.shadowRoot.textContent), /Step 5 of 6/);
  await first.locator("button", { hasText: /^→$/ }).first().click();
  await page.waitForFunction(() =>
    /Step 6 of 6/.test(document.querySelector("attention-walkthrough").shadowRoot.textContent),
  );
  assert.deepEqual(away, [], "nothing fetched from off the machine");
  await page.close();
});
