// gpt-training.test.mjs: "Train it yourself" in Chromium, what the learner reads once Stop is
// pressed, against the core's own trainer run apart in Node with tang.json's training options
// (the same seed, batch and learning rate) for as many steps as the status says: the status's
// training loss is that step's and its held-out loss step 1's; the head heatmap is the head the
// URL chose, forward on the line with those weights, titled with that step; the loss plot draws
// each step at its x on the axis. In English at 1440 px on layer 1's first head and in Chinese
// at 390 px on the last layer's last head. Served over http, the steps are the labs' Web Worker's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import "../node/gpt-files.mjs";
import { start, openApp } from "./browser.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { initialState } from "../../web/state.js";
import { fmt } from "../../web/format.js";
import { readConfig, readStreams } from "../../web/labs/gpt/files.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

const core = await loadLabs();
const scene = await resolveScene(listed.find((s) => s.id === "model"));
const json = await readConfig();
const streams = await readStreams();
const { layers, heads } = json.config;

// The core's trainer with the page's options, `n` steps: its losses, step 1's held-out loss
// and the model it has made.
function trainApart(n) {
  const t = json.training;
  const trainer = core.gptTrainer(json.config, streams.train, {
    batch: t.batch,
    lr: t.lr,
    total: t.steps,
    seed: t.seed,
  });
  const losses = [];
  let held;
  while (losses.length < n) {
    const r = trainer.slice(1);
    if (r.loss === undefined) continue;
    losses.push(r.loss);
    if (r.step === 1)
      held = core.gptStreamLoss({ config: json.config, params: trainer.params() }, streams.heldOut);
  }
  const params = trainer.params();
  trainer.close();
  return { losses, held, model: { config: json.config, params } };
}

const views = [
  {
    lang: "en",
    width: 1440,
    layer: 1,
    head: 1,
    status:
      /^Paused at training step (\d+) of \d+; training loss ([\d.]+), held-out loss ([\d.]+) \(measured at step (\d+)\)\.$/,
    title: /^layer (\d+), head (\d+) after (\d+) steps$/,
  },
  {
    lang: "zh",
    width: 390,
    layer: layers,
    head: heads,
    status:
      /^已暂停：第 (\d+) 个训练步，共 \d+ 个；训练损失 ([\d.]+)，留出损失 ([\d.]+)（第 (\d+) 步测得）。$/,
    title: /^(\d+) 步之后的第 (\d+) 层第 (\d+) 个头$/,
  },
];

for (const v of views) {
  test(`train it yourself (${v.lang}, layer ${v.layer} head ${v.head}): the status and the head are the step's`, async () => {
    const query = `scene=model&lang=${v.lang}&step=6&layer=${v.layer}&head=${v.head}`;
    const page = await openApp(env, query, { viewport: { width: v.width, height: 900 } });
    const requested = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    await page.locator("#train-start").click();
    // a few steps, so that a loss frozen at step 1 or a head drawn from other weights shows
    await page.waitForFunction(
      () =>
        Number((/(\d+)/.exec(document.querySelector("#train-status").textContent) ?? [])[1]) >= 4,
      null,
      { timeout: 120000 },
    );
    await page.locator("#train-stop").click();
    // served over http: the steps were taken in the labs' Web Worker; paused once it stopped
    assert.ok(requested.includes("/generated/train-worker.js"), String(requested));
    await page.waitForFunction(() => !document.querySelector("#train-start").disabled);
    const status = (await page.locator("#train-status").textContent()).trim();
    const m = v.status.exec(status);
    assert.ok(m, status);
    const n = Number(m[1]);
    const apart = trainApart(n);
    assert.equal(m[2], fmt(apart.losses[n - 1], 3), `${status}: step ${n}'s training loss`);
    assert.notEqual(fmt(apart.losses[n - 1], 3), fmt(apart.losses[0], 3), "the loss moved");
    assert.equal(m[3], fmt(apart.held, 3), `${status}: the held-out loss measured at step 1`);
    assert.equal(m[4], "1", `${status}: said to be step 1's`);

    // the plot: step s is drawn at the x the axis's ticks give it (tick "0" and the next tick);
    // the training loss at steps 1, 10, 20 … up to the step shown, the held-out one at step 1
    const plot = page.locator("#train-plot svg");
    const ticks = await plot
      .locator("text.tick.middle")
      .evaluateAll((els) => els.map((e) => [Number(e.textContent), Number(e.getAttribute("x"))]));
    const [[s0, x0], [s1, x1]] = ticks;
    const px = (step) => x0 + ((step - s0) * (x1 - x0)) / (s1 - s0);
    const xsOf = async (cls) =>
      [...(await plot.locator(`path.${cls}`).getAttribute("d")).matchAll(/[ML](-?[\d.]+),/g)].map(
        (x) => Number(x[1]),
      );
    const trained = Array.from({ length: n }, (_, k) => k + 1).filter(
      (s) => s === 1 || s % 10 === 0,
    );
    const drawn = await xsOf("series-0");
    assert.equal(drawn.length, trained.length, "a training point per step drawn");
    drawn.forEach((x, k) =>
      assert.ok(Math.abs(x - px(trained[k])) < 1e-6, `step ${trained[k]} at x ${x}`),
    );
    assert.ok(Math.abs((await xsOf("series-1"))[0] - px(1)) < 1e-6, "the held-out loss of step 1");

    // the head heatmap: its title and its numbers
    const figure = page.locator("#train-body figure.heatmap");
    const title = (await figure.locator("figcaption").textContent()).trim();
    const t = v.title.exec(title);
    assert.ok(t, title);
    const [steps, layer, head] = v.lang === "en" ? [t[3], t[1], t[2]] : [t[1], t[2], t[3]];
    assert.deepEqual([layer, head, steps].map(Number), [v.layer, v.head, n], title);
    const state = initialState([scene], {
      scene: "model",
      lang: v.lang,
      layer: v.layer,
      head: v.head,
    });
    const { trace } = scene.lab.compute(core, scene, state);
    const f = core.gptForward(apart.model, trace.tokens);
    const want = f.layers[v.layer - 1].weights[v.head - 1].flat();
    const got = (await figure.locator("td").allTextContents()).map(Number);
    assert.equal(got.length, want.length, "a cell for each pair of the line's tokens");
    got.forEach((x, c) =>
      assert.ok(
        Math.abs(x - want[c]) <= 0.005 + 1e-9,
        `cell ${c}: ${x}, the head's weight with the run's weights ${want[c]}`,
      ),
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test("train it yourself: a slider moved while it trains takes effect, and the focus stays on it", async () => {
  const page = await openApp(env, "scene=model&lang=en&step=6", {
    viewport: { width: 1440, height: 900 },
  });
  await page.locator("#train-start").click();
  const stepNow = () =>
    page.$eval("#train-status", (p) => Number((/step (\d+) of/.exec(p.textContent) ?? [])[1] ?? 0));
  await page.waitForFunction(() =>
    /after \d+ steps$/.test(
      document.querySelector("#train-body figure.heatmap figcaption")?.textContent.trim() ?? "",
    ),
  );
  // the layer slider, moved from the keyboard while the worker trains
  await page.locator("#layer").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() =>
    /^layer 2, head 1 after \d+ steps$/.test(
      document.querySelector("#train-body figure.heatmap figcaption")?.textContent.trim() ?? "",
    ),
  );
  // it goes on training, drawn again several times, and the focus stays on the slider
  const before = await stepNow();
  await page.waitForFunction((n) => {
    const m = /step (\d+) of/.exec(document.querySelector("#train-status").textContent);
    return m && Number(m[1]) >= n + 10;
  }, before);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "layer");
  assert.equal(await page.locator("output[for=layer]").textContent(), "ℓ = 2");
  await page.locator("#train-stop").click();
  await page.waitForFunction(() => !document.querySelector("#train-start").disabled);
  assert.deepEqual(page.errors, []);
  await page.close();
});
