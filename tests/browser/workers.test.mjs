// workers.test.mjs: the labs' worker in Chromium, sharing each step with 0, 1 and 2 helpers (real
// Web Workers it starts, under the server's Content-Security-Policy): the own-text lab's run and
// the induction lab's end with the same weights to the last bit whatever the number of workers,
// and with those of a trainer stepped apart here in Node (labs/share.js, train-slices.test.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp, openPage } from "./browser.mjs";
import { loadLabs } from "../../web/attention.js";
import { configOf, task, training } from "../../web/labs/gpt/induction-run.js";

let env;
const blank = "/workers-test";
before(
  async () =>
    (env = await start(undefined, undefined, {
      [blank]: (request, response) =>
        response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html>"),
    })),
);
after(() => env.close());

const core = await loadLabs();
const config = { vocab: 8, context: 8, dModel: 16, layers: 1, heads: 2 };
const train = Array.from({ length: 400 }, (_, i) => (i * 5 + (i >> 3)) % 8);
const heldOut = Array.from({ length: 64 }, (_, i) => (i * 3) % 8);
const options = { batch: 16, lr: 3e-3, total: 12, seed: 4 };

// In a page of the test server: the labs' worker asked for `workers` in all, then each message of
// `script` sent, and waited for until the worker sends one with the field named beside it (null:
// not waited for). All it sent, in order.
async function talk(page, workers, script) {
  return page.evaluate(
    async ({ workers, script }) => {
      const worker = new Worker("/generated/train-worker.js", { type: "module" });
      const heard = [];
      const waiters = [];
      worker.onmessage = ({ data }) => {
        heard.push(data);
        for (const w of waiters.splice(0)) w();
      };
      const until = async (key) => {
        while (!heard.some((m) => key in m)) await new Promise((r) => waiters.push(r));
      };
      worker.postMessage({ lab: "workers", use: workers });
      await until("using");
      for (const [message, key] of script) {
        worker.postMessage(message);
        if (key) await until(key);
      }
      worker.terminate();
      return heard;
    },
    { workers, script },
  );
}

const bits = (params) => Array.from(new Uint32Array(Float32Array.from(params).buffer));

test("the own-text lab's run: the same bits with 1, 2 and 3 workers, and as a trainer apart", async () => {
  const apart = core.gptTrainer(config, train, options);
  const losses = [];
  while (losses.length < options.total) {
    const r = apart.slice(1);
    if (r.loss !== undefined) losses.push(r.loss);
  }
  const want = bits(apart.params());
  apart.close();
  const page = await openPage(env.browser, new URL(blank, env.url).href);
  for (const workers of [1, 2, 3]) {
    const open = { config, train, heldOut, options };
    const said = await talk(page, workers, [
      [{ lab: "text", open }, null],
      [{ lab: "text", run: true }, "done"],
      [{ lab: "text", stop: true }, "stopped"],
    ]);
    const got = [];
    const weights = [];
    for (const m of said) {
      if (m.losses) got.push(...m.losses);
      if (m.params) weights.push(m);
    }
    assert.deepEqual(got, losses, `${workers} workers: the losses`);
    // no helper failed on the way (the worker would have said it has fewer)
    const using = said.filter((m) => m.using !== undefined).map((m) => m.using);
    assert.deepEqual(using, [workers], `${workers} workers: the workers used`);
    assert.equal(weights.at(-1).at, options.total, `${workers} workers: the weights' step`);
    assert.deepEqual(bits(weights.at(-1).params), want, `${workers} workers: the weights`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the induction lab's run to its first kept step: the same bits with 1 and 2 workers", async () => {
  const apart = core.inductionTrainer(configOf(1), task, training);
  let steps = 0;
  while (steps < 25) if (apart.slice(8).loss !== undefined) steps += 1;
  const want = bits(apart.params());
  apart.close();
  const page = await openPage(env.browser, new URL(blank, env.url).href);
  for (const workers of [1, 2]) {
    const said = await talk(page, workers, [
      [{ lab: "induction", run: 1 }, "kept"],
      [{ lab: "induction", stop: true }, null],
    ]);
    const using = said.filter((m) => m.using !== undefined).map((m) => m.using);
    assert.deepEqual(using, [workers], `${workers} workers: the workers used`);
    const kept = said.find((m) => m.kept === 25);
    assert.ok(kept, `${workers} workers: step 25 kept`);
    assert.deepEqual(bits(kept.params), want, `${workers} workers: the weights at step 25`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The control's note, read by meaning: the count it says beside the count chosen and the
// device's cores, in each language.
const notes = {
  en: /^Each step is (?:shared among (\d+) workers, which can each run on a processor core of their own|taken by (1) worker) \(this device reports (\d+) cores?\)\. The numbers are the same with any count; only the speed changes\.$/,
  zh: /^每一步由 (?:(\d+) 个工作线程分担，每个可以各用一个处理器核心|(1) 个工作线程完成)（这台设备报告有 (\d+) 个处理器核心）。线程数不同，算出的数一模一样，只有快慢不同。$/,
};

test("the control beside Start: 1 to the device's cores, all chosen at first, its note true after a choice, in en and zh", async () => {
  for (const [lang, note] of Object.entries(notes)) {
    const page = await openApp(env, `scene=text&lang=${lang}&step=3`, {
      viewport: { width: 1440, height: 900 },
    });
    // the choice is drawn without starting the worker: it starts with the first run
    const started = () =>
      page.evaluate(() =>
        performance.getEntriesByType("resource").some((e) => /train-worker\.js$/.test(e.name)),
      );
    assert.equal(await started(), false, "the worker loads only when training starts");
    // the intro says where the work is done: by the workers, off the page's thread
    const intro = await page.locator("#text-train-model > p").first().textContent();
    assert.match(
      intro,
      lang === "en"
        ? /done by the workers below, off the page's own thread/
        : /计算由下面的工作线程在页面的线程之外完成/,
    );
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const most = Math.min(cores, 4);
    const choice = page.locator("#text-train-workers");
    assert.deepEqual(
      await choice.locator("option").allTextContents(),
      Array.from({ length: most }, (_, k) => String(k + 1)),
    );
    assert.equal(await choice.inputValue(), String(most));
    // [the count in use, the cores reported]
    const said = async () => {
      const m = note.exec(await page.locator("#text-train-workers-note").textContent());
      return m && [Number(m[1] ?? m[2]), Number(m[3])];
    };
    const first = await said();
    assert.ok(first, `${lang}: ${await page.locator("#text-train-workers-note").textContent()}`);
    assert.deepEqual(first, [most, cores]);
    await choice.selectOption("1");
    assert.deepEqual(await said(), [1, cores], `${lang}: after 1 is chosen`);
    await choice.selectOption(String(most));
    assert.deepEqual(await said(), [most, cores]);
    assert.equal(await started(), false, "a choice alone does not start it");
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
