// induction.test.mjs: the induction lab in Chromium, trained in the tab. While it trains, the
// page follows the kept steps, a slider moved takes effect and keeps the focus; once stopped,
// layer 2's heatmap, the two plots' tables and the circuit's first row are those of a trainer
// run apart in Node to the step the slider shows (the same seed, sequences and slices), at the
// decimals shown. In English at 1440 px from the keyboard, in Chinese at 390 px by touch.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp } from "./browser.mjs";
import { loadLabs } from "../../web/attention.js";
import { fmt } from "../../web/format.js";
import { configOf, held, task, training } from "../../web/labs/gpt/induction-run.js";

let env;
before(async () => (env = await start()));
after(() => env.close());

const core = await loadLabs();
const batch = core.inductionBatch(task, { batch: held.batch, seed: held.seed });

// The trainer apart, `n` steps taken 8 sequences at a time as the page takes them.
function trainApart(n) {
  const trainer = core.inductionTrainer(configOf(2), task, training);
  for (let s = 0; s < n;) if (trainer.slice(8).loss !== undefined) s++;
  const model = { config: configOf(2), params: trainer.params() };
  trainer.close();
  return model;
}

const shownStep = async (page) =>
  Number((await page.locator("output[for=at]").textContent()).match(/\d+/)[0]);

// A table's rows as { label: [cells] } (the text of th and each td).
const tableRows = (page, selector) =>
  page.$eval(selector, (figure) =>
    Object.fromEntries(
      [...figure.querySelectorAll("tr")]
        .filter((tr) => tr.querySelector("td"))
        .map((tr) => [
          tr.querySelector("th").textContent.trim(),
          [...tr.querySelectorAll("td")].map((td) => td.textContent.trim()),
        ]),
    ),
  );

test("trained in the tab (en, keyboard): the page follows the run, a slider moved takes effect, the numbers are the core's", async () => {
  const page = await openApp(env, "scene=induction&lang=en&step=3", {
    viewport: { width: 1440, height: 900 },
  });
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  await page.locator("#induction-start").focus();
  await page.keyboard.press("Enter");
  // the page follows the kept steps: the slider's t moves on by itself
  await page.waitForFunction(
    () => /t = (\d+)/.exec(document.querySelector("output[for=at]").textContent)[1] >= 100,
  );
  // a slider moved while it trains takes effect, and the focus stays on it through the redraws
  await page.locator("#sequence").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(
    () => document.querySelector("output[for=sequence]").textContent === "# = 2",
  );
  const before = await shownStep(page);
  await page.waitForFunction(
    (t) => /t = (\d+)/.exec(document.querySelector("output[for=at]").textContent)[1] > t,
    before,
  );
  assert.equal(await page.evaluate(() => document.activeElement?.id), "sequence");
  // served over http: the steps are taken in the Web Worker, off the page's thread
  assert.ok(requested.includes("/generated/train-worker.js"), String(requested));
  // a hidden tab pauses the run, and the clock with it; shown again, it goes on
  const stepsNow = () =>
    page.$eval("#induction-status", (p) => Number(/step (\d+) of/.exec(p.textContent)[1]));
  const visibility = (hidden) =>
    page.evaluate((h) => {
      Object.defineProperty(document, "hidden", { value: h, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await visibility(true);
  await page.waitForTimeout(300);
  const paused = await stepsNow();
  await page.waitForTimeout(1500);
  assert.ok((await stepsNow()) <= paused + 1, "no steps while the tab is hidden");
  await visibility(false);
  await page.waitForFunction((n) => {
    const m = /step (\d+) of/.exec(document.querySelector("#induction-status").textContent);
    return Number(m[1]) > n + 5;
  }, paused);
  // Stop: Start answers again once the worker has ended its step and said so; the status then
  // says the run's last step, and it stays (it went on by the step in flight, after "Paused",
  // before). Three times, as a step is in flight at a Stop about half the time.
  let status;
  for (let round = 0; round < 3; round++) {
    if (round) {
      const from = await stepsNow();
      await page.locator("#induction-start").click();
      await page.waitForFunction((n) => {
        const m = /step (\d+) of/.exec(document.querySelector("#induction-status").textContent);
        return /^Training/.test(m.input) && Number(m[1]) > n + 5;
      }, from);
    }
    await page.locator("#induction-stop").click();
    await page.waitForFunction(() => !document.querySelector("#induction-start").disabled);
    status = await page.locator("#induction-status").textContent();
    await page.waitForTimeout(300);
    assert.equal(await page.locator("#induction-status").textContent(), status, "paused, it stays");
  }
  const [, steps] = status.match(/^Paused at step (\d+) of 1000/);
  await page.waitForFunction(
    (n) =>
      Number(/t = (\d+)/.exec(document.querySelector("output[for=at]").textContent)[1]) >=
      n - (n % 25),
    Number(steps),
  );
  const at = await shownStep(page);
  assert.ok(at >= 125 && at % 25 === 0, `kept step ${at}`);
  assert.equal(await page.locator("#induction-status").textContent(), status, "no step since");
  assert.ok(Number(steps) >= at && Number(steps) < at + 25, status);

  // layer 2's heads' weights on sequence 2 at that step, as Node computes them apart
  const model = trainApart(at);
  const T = task.context;
  const tokens = batch.tokens.slice(T, 2 * T);
  const pass = core.gptForward(model, tokens, { precise: true });
  const cells = await page.$$eval('[data-matrix="weightsLayer2"] tbody tr', (rows) =>
    rows.map((tr) => [...tr.querySelectorAll("button.cell")].map((b) => b.textContent)),
  );
  const weights = pass.layers[1].weights[0];
  cells.forEach((row, i) =>
    row.forEach((text, j) =>
      // every cell at 4 decimals (a column keeps one number of decimals: 1.0000)
      assert.ok(
        /^\d\.\d{4}$/.test(text) && Math.abs(Number(text) - (j <= i ? weights[i][j] : 0)) <= 5e-5,
        `weights[${i}][${j}] at step ${at}: ${text}, not ${weights[i][j]}`,
      ),
    ),
  );
  // and the same heatmap shades the stripe: a weight near 1 is dark, a weight of 0 pale
  const shaded = await page.$$eval('[data-matrix="weightsLayer2"] tbody td', (tds) =>
    tds.map((td) => td.style.background || td.style.backgroundColor),
  );
  assert.ok(shaded.every(Boolean) && new Set(shaded).size > 5, "every cell shaded, in many shades");

  // the plots' tables: the kept step's measures on the held-out sequences
  const scores = core.inductionScores(model, batch);
  await page.getByRole("button", { name: "Step back" }).click();
  await page.waitForSelector("#induction-losses");
  const losses = await tableRows(page, "#induction-losses");
  assert.deepEqual(losses[`step ${at}`], [fmt(scores.firstLoss, 4), fmt(scores.repeatLoss, 4)]);
  const heads = await tableRows(page, "#induction-scores");
  assert.deepEqual(
    heads[`step ${at}`],
    [
      scores.previous[0][0],
      scores.induction[1][0],
      scores.induction[0][0],
      scores.previous[1][0],
    ].map((x) => fmt(x, 4)),
  );

  // the circuit's first row: the first token of the repeat, from the forward pass
  const forward = page.getByRole("button", { name: "Step forward" });
  for (let k = 0; k < 3; k++) await forward.click();
  await page.waitForSelector(".induction-copies");
  const copies = await tableRows(page, ".induction-copies");
  const m = batch.segments[1];
  const probs = pass.probs;
  assert.deepEqual(copies[`position ${m + 1}: ${Object.keys(copies)[0].split(": ")[1]}`].slice(4), [
    fmt(weights[m][1], 4),
    fmt(probs[m][tokens[1]], 4),
  ]);
  // trained to the end, the page shows the last kept step (a step kept while a drawing waited
  // was once left behind)
  await page.locator("#induction-start").click();
  await page.waitForFunction(
    () => document.querySelector("#induction-status").textContent.startsWith("Done"),
    null,
    { timeout: 120000 },
  );
  await page.waitForFunction(
    () => document.querySelector("output[for=at]").textContent === "t = 1000",
  );
  assert.match(await page.locator(".step-text").textContent(), /At step 1000:/);
  assert.equal(page.errors.length, 0, page.errors.join("\n"));
  await page.close();
});

test("on a phone (zh, touch): Stop and Start in a row keep one run, the next step opens at its title, nothing scrolls sideways", async () => {
  const page = await openApp(env, "scene=induction&lang=zh&step=1", {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await page.locator("#induction-start").tap();
  await page.waitForFunction(() =>
    /第 (\d+) 步/.test(document.querySelector("#induction-status").textContent),
  );
  // Stop, then Start the moment it answers again (once the worker has ended its step): the run
  // goes on in one loop, its kept steps every 25
  await page.evaluate(() => document.querySelector("#induction-stop").click());
  await page.waitForFunction(() => !document.querySelector("#induction-start").disabled);
  await page.evaluate(() => document.querySelector("#induction-start").click());
  await page.waitForFunction(() => {
    const m = /训练中：第 (\d+) 步/.exec(document.querySelector("#induction-status").textContent);
    return m && Number(m[1]) >= 110;
  });
  await page.locator("#induction-stop").tap();
  // the next step, from the player, opens at its title though the learner had read down
  // (the worker's last messages may still redraw the panel: the button is found anew)
  await page.waitForTimeout(300);
  await page.evaluate(() => document.querySelector("#induction-start").scrollIntoView());
  await page.getByRole("button", { name: "下一步" }).tap();
  await page.waitForFunction(() =>
    document.querySelector("#step-title").textContent.startsWith("2."),
  );
  const top = await page.$eval("#step-title", (t) => t.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 844, `the step's title at ${top} px`);
  const losses = await tableRows(page, "#induction-losses");
  const steps = Object.keys(losses).map((s) => Number(s.match(/\d+/)[0]));
  const status = await page.locator("#induction-status").textContent();
  const [, taken] = status.match(/^暂停在第 (\d+) 步/);
  const last = steps.at(-1);
  assert.deepEqual(steps.slice(0, 2), [0, 100]);
  assert.ok(
    last % 25 === 0 && Number(taken) >= last && Number(taken) < last + 25,
    `${steps} ${status}`,
  );
  // the kept step's measure is a trainer's apart, at that step
  const scores = core.inductionScores(trainApart(last), batch);
  assert.deepEqual(losses[`第 ${last} 步`], [fmt(scores.firstLoss, 4), fmt(scores.repeatLoss, 4)]);
  for (const step of [3, 5]) {
    await page.getByRole("button", { name: "下一步" }).tap();
    if (step === 5) await page.getByRole("button", { name: "下一步" }).tap();
    await page.waitForFunction(
      (n) => document.querySelector("#step-title").textContent.startsWith(`${n}.`),
      step,
    );
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  }
  assert.equal(page.errors.length, 0, page.errors.join("\n"));
  await page.close();
});

// A learner trained one layer, read another lesson and came back: the lab opens at L = 2, whose
// run has not started. The status says the one-layer run is kept, at its step, and how to see it.
test("back at the lab after another scene: L = 2 not started says the one-layer run is kept at its step (en, zh)", async () => {
  for (const [lang, kept, paused] of [
    [
      "en",
      (n) => `The one-layer run is kept: paused at step ${n}; set L = 1 to see it.`,
      "Paused at step",
    ],
    ["zh", (n) => `一层的那次训练还在：暂停在第 ${n} 步；把 L 设为 1 就能看到。`, "暂停在第"],
  ]) {
    const page = await openApp(env, `scene=induction&lang=${lang}&step=2&layers=1`);
    await page.locator("#induction-start").click();
    // a few steps taken (the status counts them), then Stop
    await page.waitForFunction(
      (n) => Number(/(\d+)/.exec(document.querySelector("#induction-status").textContent)[1]) >= n,
      5,
    );
    await page.locator("#induction-stop").click();
    await page.waitForFunction(() => !document.querySelector("#induction-start").disabled);
    // the worker's steps in flight when Stop was pressed still arrive: the status settles
    let status = await page.locator("#induction-status").textContent();
    for (let again = ""; again !== status;) {
      again = status;
      await page.waitForTimeout(400);
      status = await page.locator("#induction-status").textContent();
    }
    const step = Number(/(\d+)/.exec(status)[1]);
    assert.ok(status.startsWith(paused) && step > 0, status);
    await page.locator("#scene-classroom").click();
    await page.locator("#scene-induction").click();
    await page.locator("#forward").click();
    await page.waitForFunction(() =>
      /L = 2/.test(document.querySelector("output[for=layers]").textContent),
    );
    const back = await page.locator("#induction-status").textContent();
    assert.ok(back.endsWith(kept(step)), back);
    await page.locator("#layers").focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() =>
      /L = 1/.test(document.querySelector("output[for=layers]").textContent),
    );
    assert.ok((await page.locator("#induction-status").textContent()).startsWith(`${paused}`));
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
