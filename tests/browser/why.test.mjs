// why.test.mjs: the labs of "why it is built this way" and the export, in Chromium, as a learner uses them: each lab
// opened from the scene list, stepped by keyboard, its controls in the URL, both languages; each
// lab's claim read off the page; "Copy as NumPy" and "Copy as PyTorch" copied, run with Debian's
// /usr/bin/python3 and compared with the numbers on the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, openApp, switchLanguage } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const open = (query, options) => openApp(env, query, options);
const counter = (page) => page.locator("#counter").textContent();
const cells = (page, id) =>
  page.locator(`[data-matrix="${id}"] button.cell`).evaluateAll((b) => b.map((x) => x.textContent));
const number = (text) => Number(text.replace("−", "-"));
const url = (page) => new URL(page.url()).searchParams;

// The page's numbers in a sentence, as numbers.
const numbersIn = (text) => (text.match(/−?\d+(\.\d+)?(e[−-]\d+)?/g) ?? []).map(number);

test("every lab opens from the scene list, loads the labs module only then, and steps by keyboard", async () => {
  const page = await open("scene=classroom&lang=en");
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  for (const [id, title, steps] of [
    ["scaling", "Why divide by √d_k?", 4],
    ["tiling", "Online softmax: FlashAttention's tiling, on the book sentence", 6],
    ["stability", "Numerical stability: why subtract the max, and how to mask", 3],
    ["dropout", "Dropout on the weights: one draw, and the average of many", 3],
  ]) {
    await page.locator(`#scene-${id}`).click();
    await page.waitForFunction(
      (t) => document.querySelector("#scene-title")?.textContent === t,
      title,
    );
    assert.equal(await counter(page), `Step 1 of ${steps}`);
    await page.locator("#scene-title").click();
    await page.keyboard.press("End");
    assert.equal(await counter(page), `Step ${steps} of ${steps}`);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await counter(page), `Step ${steps - 1} of ${steps}`);
    assert.equal(url(page).get("scene"), id);
  }
  assert.ok(
    requested.some((p) => p.includes("attention-labs")),
    String(requested),
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("√d_k: saturation without the scale at d_k = 512, and soft weights with it", async () => {
  const page = await open("scene=scaling&dk=512&step=2&lang=en");
  // step 2: softmax(q·k), one key takes nearly everything; the summary gives the mean over 100
  const unscaled = (await cells(page, "unscaled")).map(number);
  assert.ok(Math.max(...unscaled) > 0.9, String(unscaled));
  // "Over the 100 queries, the largest weight is 0.9450 on average; …"
  const mean = async () =>
    number((await page.locator("#scaling-summary").textContent()).match(/is (\S+) on average/)[1]);
  const top = await mean();
  assert.ok(top > 0.9, `mean largest weight ${top} without the scale`);
  await page.keyboard.press("ArrowRight");
  const scaled = await mean();
  assert.ok(scaled < 0.6, `mean largest weight ${scaled} with the scale`);
  // the plot, its table, and the statement of the threshold
  assert.equal(await page.locator("#scaling-plot svg circle").count(), 20);
  await page.keyboard.press("ArrowRight");
  assert.match(await page.locator(".threshold").textContent(), /above 0\.9 .* below 0\.6/);
  assert.equal(
    await page.locator("#age-link").getAttribute("href"),
    "?scene=age&alpha=10&step=4&lang=en",
  );
  // the slider by keyboard, kept in the URL
  await page.locator("#dk").focus();
  await page.keyboard.press("Home");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("dk") === "1");
  assert.equal(await page.locator("output[for=dk]").textContent(), "d_k = 1");
  // each step of the slider doubles d_k, as the plot's log axis does
  for (const dk of ["2", "4"]) {
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((v) => new URLSearchParams(location.search).get("dk") === v, dk);
  }
  await page.keyboard.press("Home");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("dk") === "1");
  // at d_k = 1 the scale is 1: the same weights either way
  await page.keyboard.press("ArrowRight");
  await page.locator("#scene-title").click();
  await page.keyboard.press("ArrowLeft");
  const atOne = await cells(page, "unscaled");
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await cells(page, "scaled"), atOne);
  await switchLanguage(page, "zh");
  assert.equal(await page.locator("#scene-title").textContent(), "为什么要除以 √d_k？");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("online softmax: tiled equals whole rows to 1e-12 for every block size 1..n", async () => {
  const page = await open("scene=tiling&lang=en");
  for (const causal of [false, true]) {
    if (causal) await page.locator("#causal").check();
    for (let block = 1; block <= 11; ++block) {
      await page.locator("#block").fill(String(block));
      assert.equal(await page.locator("output[for=block]").textContent(), `B = ${block}`);
      await page.locator("#scene-title").click();
      await page.keyboard.press("End");
      const text = await page.locator("#tiling-difference").textContent();
      const [difference] = numbersIn(text);
      assert.ok(difference <= 1e-12, `B = ${block}: ${text}`);
      assert.match(text, /At most 1e−12/);
      const steps = Math.ceil(11 / block) + 2;
      assert.equal(await counter(page), `Step ${steps} of ${steps}`);
      // the tiled output is the whole-row output, as shown
      assert.deepEqual(await cells(page, "output"), await cells(page, "full"));
    }
  }
  assert.equal(url(page).get("block"), "11");
  assert.equal(url(page).get("causal"), "1");
  // a block step: m, ℓ, the rescale and the partial output, with 书's row in words
  await page.locator("#block").fill("3");
  await page.locator("#scene-title").click();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator("#step-title").textContent(), "3. Block 2");
  assert.match(await page.locator(".step-text").textContent(), /^Keys 4 to 6 .* For 书: m = /);
  for (const id of ["logits", "m", "rescale", "l", "partial"]) {
    assert.ok((await cells(page, id)).length > 0, id);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("stability: the naive softmax is Infinity and NaN where the core's is finite", async () => {
  const page = await open("scene=stability&lang=en");
  const naive = await page.locator("#naive").textContent();
  assert.match(naive, /The wrong way, computed by this page in plain JavaScript/);
  assert.match(naive, /Infinity.*NaN/s);
  assert.match(naive, /the only arithmetic the page does itself/);
  assert.match(
    await page.locator("#naive-verdict").textContent(),
    /^Here: all 3 scores are above 709\.78, so exp makes each Infinity/,
  );
  await page.locator("#scene-title").click();
  await page.keyboard.press("ArrowRight");
  const weights = (await cells(page, "weights")).map(number);
  assert.ok(weights.every(Number.isFinite) && weights[0] > 0.88, String(weights));
  await page.keyboard.press("ArrowRight");
  // −∞: row 2 sees no key, weights 0 and said to be blocked; −1e9: 1/3 on keys it may not see
  assert.deepEqual((await cells(page, "weightsInf")).slice(3).map(number), [0, 0, 0]);
  assert.deepEqual((await cells(page, "weights1e9")).slice(3), ["0.3333", "0.3333", "0.3333"]);
  assert.match(await page.locator("#blocked-note").textContent(), /row 2 sees no key/);
  assert.deepEqual((await cells(page, "maskedInf")).slice(3), ["−∞", "−∞", "−∞"]);
  // an edit of the scores, kept in the URL; small scores: the naive way works too
  await page.keyboard.press("Home");
  for (let j = 0; j < 3; ++j) {
    await page.locator(`[data-matrix="s"] button[data-j="${j}"]`).click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type(String(j + 1));
    await page.keyboard.press("Enter");
  }
  assert.equal(url(page).get("s"), "1,2,3");
  assert.doesNotMatch(await page.locator("#naive").textContent(), /NaN|Infinity/);
  assert.match(await page.locator("#naive-verdict").textContent(), /happens to work/);
  // every score far below 0: exp underflows to 0, and 0 / 0 is NaN
  await page.goto(page.url().replace(/s=[^&]*/, "s=-1000,-1000,-1000"));
  await page.waitForSelector("#app[data-ready]");
  assert.match(await page.locator("#naive-verdict").textContent(), /0 \/ 0 is NaN/);
  // each exp finite, their sum not: every weight 0
  await page.goto(page.url().replace(/s=[^&]*/, "s=709,709,709"));
  await page.waitForSelector("#app[data-ready]");
  assert.match(await page.locator("#naive-verdict").textContent(), /their sum passes/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("dropout: a draw's row does not sum to 1, and the average of many approaches the output", async () => {
  const page = await open("scene=dropout&step=2&lang=en");
  const [sum] = numbersIn(await page.locator("#row-sum").textContent());
  assert.ok(Math.abs(sum - 1) > 0.01, `row sum ${sum}`);
  const dropped = (await cells(page, "dropped")).map(number);
  const weights = (await cells(page, "weights")).map(number);
  // each weight dropped (0) or kept and doubled (p = 0.5), to the decimals shown
  dropped.forEach((d, j) => assert.ok(d === 0 || Math.abs(d - 2 * weights[j]) <= 0.0002));
  // another seed, another draw
  await page.locator("#draw").fill("2");
  assert.equal(url(page).get("draw"), "2");
  await page.locator("#scene-title").click();
  await page.keyboard.press("ArrowRight");
  const [draws, mean, output, difference] = numbersIn(await page.locator("#average").textContent());
  assert.equal(draws, 10000);
  assert.ok(Math.abs(mean - output) < 0.05 * output && difference < 0.05 * output);
  assert.ok(Math.abs(output - 19.4729) < 1e-9, "scenes.md: 19.4729");
  // the convergence: the last average is nearer than the first draw
  const rows = await page
    .locator("#dropout-plot tr")
    .evaluateAll((r) => r.map((x) => x.textContent));
  assert.ok(rows.length > 10);
  assert.ok(number(rows.at(-1).replace(/^10000/, "")) < number(rows[1].replace(/^1/, "")));
  await switchLanguage(page, "zh");
  assert.match(await page.locator("#average").textContent(), /次抽取的平均答案/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The copied script, run with Debian's python3: what it prints against the page's output.
async function copied(page, kind) {
  await page.locator(`#export-${kind}`).click();
  await page.waitForFunction(() => document.querySelector(".export .status")?.textContent);
  return page.evaluate(() => navigator.clipboard.readText());
}

function runPython(script) {
  const file = join(mkdtempSync(join(tmpdir(), "attention-copied-")), "script.py");
  writeFileSync(file, script);
  const out = execFileSync("/usr/bin/python3", [file], { encoding: "utf8" });
  return out
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/).at(-1));
}

test("Copy as NumPy and Copy as PyTorch: the scripts run and print the page's output", async () => {
  // the age scene with α = 5, at the result step; a masked book scene; an edited dictionary
  for (const [query, edit] of [
    ["scene=age&alpha=5&step=6&lang=en", undefined],
    ["scene=book&causal=1&step=7&lang=zh", undefined],
    ["scene=dictionary&step=1&lang=en", "2.5"],
  ]) {
    const page = await open(query);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    if (edit) {
      await page.locator('[data-matrix="q"] button[data-i="0"][data-j="0"]').click();
      await page.keyboard.press("Control+A");
      await page.keyboard.type(edit);
      await page.keyboard.press("Enter");
      await page.locator("#scene-title").click();
      await page.keyboard.press("End");
    }
    const shown = (await cells(page, "output")).map(number);
    for (const kind of ["numpy", "pytorch"]) {
      const script = await copied(page, kind);
      assert.match(script, kind === "numpy" ? /import numpy as np/ : /import torch/);
      if (edit) assert.match(script, /\[2\.5, 1\]/);
      // the last number of each printed row, for scenes with one value column; else every one
      const printed = runPython(script).map(number);
      const columns = shown.length / printed.length;
      const lastOfRows = shown.filter((_, n) => n % columns === columns - 1);
      printed.forEach((x, i) =>
        assert.ok(Math.abs(x - lastOfRows[i]) <= 0.00005, `${query} ${kind}`),
      );
    }
    assert.match(await page.locator(".export .status").textContent(), /PyTorch/);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("without the clipboard, the script shows in a box to copy by hand", async () => {
  const page = await open("scene=classroom&step=1&lang=en");
  await page.evaluate(() =>
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new Error("denied")) },
    }),
  );
  await page.locator("#export-numpy").click();
  await page.waitForSelector("#export-script");
  assert.match(await page.locator("#export-script").inputValue(), /^# Attention by hand: /);
  assert.match(await page.locator(".export .status").textContent(), /copy the script from the box/);
  await page.close();
});

test("axe-core finds no serious or critical violations in the labs, and they fit 390 px", async () => {
  const axe = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  for (const [id, steps] of [
    ["scaling", [1, 4]],
    ["tiling", [2, 99]],
    ["stability", [1, 3]],
    ["dropout", [2, 3]],
  ]) {
    for (const step of steps) {
      const lang = step === 1 ? "zh" : "en";
      const page = await open(`scene=${id}&lang=${lang}&step=${step}`, {
        viewport: { width: 390, height: 844 },
      });
      await page.evaluate(axe);
      const result = await page.evaluate(() => window.axe.run(document));
      const bad = result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0].target}`);
      assert.deepEqual(bad, [], `${id} ${lang} step ${step}`);
      // nothing wider than the phone but what scrolls sideways on purpose
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `${id} step ${step}: ${wide} px wide`);
      await page.close();
    }
  }
});

test("a link's slider value off the slider's grid opens the lab on the grid", async () => {
  for (const [query, id, value] of [
    // the √d_k slider's places are the plot's points: d_k = 100 goes to the nearest, 128 (the 8th)
    ["scene=scaling&dk=100", "dk", "7"],
    ["scene=tiling&block=2.5", "block", "3"],
    ["scene=dropout&draw=2.5&p=0.55", "draw", "3"],
  ]) {
    const page = await open(`${query}&lang=en`);
    assert.equal(await page.locator(`#${id}`).inputValue(), value, query);
    assert.deepEqual(page.errors, [], query);
    await page.close();
  }
});

// The online softmax's picture: 书's row of keys in blocks of B, the current block outlined, and
// m and ℓ after each block walked, checked against a float64 running max and sum written here
// from the book scene's inputs (web/scenes.js's data, not the page's numbers).
test("online softmax: the walk along 书's row, its blocks and m and ℓ, in both languages", async () => {
  const { sceneById } = await import("../../web/scenes.js");
  const { x, wq, wk } = sceneById.book.inputs;
  const { tokens } = sceneById.book;
  const times = (a, b) =>
    a.map((row) => b[0].map((_, c) => row.reduce((s, v, r) => s + v * b[r][c], 0)));
  const [q, k] = [times(x, wq), times(x, wk)];
  const last = q.length - 1;
  const s = k.map(
    (kj) => q[last].reduce((sum, v, c) => sum + v * kj[c], 0) / Math.sqrt(q[0].length),
  );
  for (const [lang, block] of [
    ["en", 3],
    ["zh", 2],
  ]) {
    const blocks = Math.ceil(s.length / block);
    const page = await open(`scene=tiling&lang=${lang}&block=${block}&step=2`);
    for (let at = 0; at < blocks; at++) {
      // the next block by keyboard, as a learner steps
      if (at > 0) {
        await page.locator("#step-title").focus();
        await page.keyboard.press("ArrowRight");
        await page.waitForFunction(
          (n) => document.querySelector("[data-walk] rect.current")?.dataset.block === String(n),
          at + 1,
        );
      }
      const walk = page.locator("[data-walk]");
      assert.equal(await walk.locator("rect.block").count(), blocks);
      assert.equal(
        await walk.locator("rect.block.current").getAttribute("data-block"),
        String(at + 1),
      );
      assert.equal(await walk.locator("rect.block.done").count(), at);
      assert.equal(await walk.locator("rect.block.ahead").count(), blocks - at - 1);
      const items = await walk.locator("li").allTextContents();
      assert.equal(items.length, at + 1);
      items.forEach((text, b) => {
        const seen = s.slice(0, (b + 1) * block);
        const m = Math.max(...seen);
        const l = seen.reduce((sum, v) => sum + Math.exp(v - m), 0);
        const [mShown, lShown] = numbersIn(text).slice(-2);
        assert.ok(
          Math.abs(mShown - m) <= 0.5e-4 + 1e-12,
          `${lang} B=${block} block ${b + 1}: ${text} (m ${m})`,
        );
        assert.ok(
          Math.abs(lShown - l) <= 0.5e-4 + 1e-12,
          `${lang} B=${block} block ${b + 1}: ${text} (ℓ ${l})`,
        );
        const [first, lastKey] = [tokens[b * block], tokens[seen.length - 1]];
        const keys = first === lastKey ? first : `${first} … ${lastKey}`;
        assert.ok(
          text.startsWith(
            lang === "en" ? `After block ${b + 1} (${keys})` : `第 ${b + 1} 块（${keys}）`,
          ),
          text,
        );
      });
      assert.equal(
        await walk.locator("li[aria-current]").getAttribute("data-block"),
        String(at + 1),
      );
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // On a phone the strip scrolls sideways, and keeps the current block in view
  const phone = await open("scene=tiling&lang=zh&block=1&step=11", {
    viewport: { width: 390, height: 844 },
  });
  const inView = await phone.evaluate(() => {
    const row = document.querySelector("[data-walk] .scroll").getBoundingClientRect();
    const block = document.querySelector("[data-walk] [data-current]").getBoundingClientRect();
    return block.left >= row.left && block.right <= row.right;
  });
  assert.ok(inView, "block 10 of 11 in view at 390 px");
  await phone.close();
});

// What a screen reader hears follows a slider, as the step's words do.
test("Why √d_k: the spoken step text follows the slider", async () => {
  const page = await open("scene=scaling&lang=en");
  await page.locator("#dk").focus();
  await page.keyboard.press("End");
  assert.match(await page.locator("#announce").textContent(), /with d_k = 512 random entries/);
  assert.match(await page.locator(".step-text").textContent(), /with d_k = 512 random entries/);
  await page.close();
});

// The player follows the number of steps, which the online softmax's B decides (11 keys).
test("online softmax: the counter and the scrubber follow B", async () => {
  const page = await open("scene=tiling&lang=en&step=3");
  assert.equal(await counter(page), "Step 3 of 6");
  await page.locator("#block").focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.locator("output[for=block]").textContent(), "B = 1");
  assert.equal(await counter(page), "Step 3 of 13");
  assert.equal(await page.locator("#scrubber").getAttribute("max"), "13");
  await page.close();
});
