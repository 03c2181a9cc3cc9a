// page.test.mjs: the page in Chromium shows the classroom output computed by the WASM core.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openPage } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

test("the page shows the classroom output, computed by the WASM core", async () => {
  const page = await openPage(env.browser, env.url);
  const cells = page.locator("#output tr");
  await cells.first().waitFor();
  const rows = await cells.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.cells]
        .slice(1)
        .map((td) => td.textContent)
        .join(" "),
    ),
  );
  assert.deepEqual(rows, ["0.551 0.498", "0.544 0.509", "0.537 0.521"]);
  assert.deepEqual(page.errors, []);
});
