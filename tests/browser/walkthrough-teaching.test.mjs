// walkthrough-teaching.test.mjs: the walkthrough as a learner meets it, point by point of the teaching
// issue: predict then reveal, the defects, the teaching gaps, phones and print. Expected
// numbers come from docs/scenes.md (tests/fixtures/scenes.json), from hand values, or
// from the float64 reference in tests/node/reference.mjs, never from the page's own output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { start, openPage, openApp, switchLanguage } from "./browser.mjs";
import { referenceAttention } from "../node/reference.mjs";

const scenes = JSON.parse(readFileSync(new URL("../fixtures/scenes.json", import.meta.url)));
const artifacts = new URL("../artifacts/", import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
const sceneIds = ["classroom", "age", "dictionary", "book", "cup"];

let env;
before(async () => (env = await start()));
after(() => env.close());

const open = (query, options) => openApp(env, query, options);

const text = (page, selector) => page.locator(selector).first().textContent();
const cells = (page, id) =>
  page
    .locator(`[data-matrix="${id}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((tr) => [...tr.querySelectorAll("button.cell")].map((b) => b.textContent)),
    );

// ---- 2. predict, then reveal ----

test("predict mode: off by default, one click, in the URL; hidden until answered, then marked", async () => {
  const page = await open("scene=classroom&lang=en&step=5");
  assert.equal(await page.locator("#predict").getAttribute("aria-pressed"), "false");
  assert.equal(await page.locator("button.cell", { hasText: "?" }).count(), 0, "off by default");
  await page.locator("#predict").click();
  assert.equal(await page.locator("#predict").getAttribute("aria-pressed"), "true");
  assert.equal(new URL(page.url()).searchParams.get("predict"), "1", "kept in the URL");
  // The weights, and the working (max, exp, Σ), are hidden; the scaled scores are not.
  for (const id of ["weights", "exp", "rowMax", "rowSum"]) {
    assert.ok(
      (await cells(page, id)).flat().every((t) => t === "?"),
      `${id} hidden`,
    );
  }
  assert.deepEqual((await cells(page, "scaled"))[0], ["0.1838", "0.1768", "0.1697"]);
  assert.equal(await page.locator(".heatmap, .lines-view").count(), 0, "no weights in pictures");
  assert.equal(await page.locator(".derivation").count(), 0, "no derivation to copy");
  assert.equal(await text(page, "#check-title"), "Predict, then reveal");
  assert.equal(await text(page, ".choices legend"), "Which key gets the most weight from “我”?");

  // A wrong choice, and the first row worked out (scenes.md: 0.3357, 0.3333, 0.3310).
  await page.locator(".choices label", { hasText: "你" }).click();
  const typed = ["0.3357", "0.3333", "0.3310"];
  for (const [j, value] of typed.entries()) {
    await page.locator(`.check-grid input[data-i="0"][data-j="${j}"]`).fill(value);
  }
  await page.locator("#check").click();
  assert.deepEqual((await cells(page, "weights"))[0], typed, "revealed");
  assert.equal(await text(page, "#check-title"), "Revealed");
  assert.match(await text(page, ".choices .verdict"), /^✗ the answer is “我”/);
  // the wrong choice counts too: 3 numbers right, the question wrong
  assert.match(await text(page, ".check-summary"), /3 of 4 right/);

  // A teacher's link opens in predict mode.
  const link = await open(new URL(page.url()).search.slice(1).replace("step=5", "step=3"));
  assert.ok((await cells(link, "scores")).flat().every((t) => t === "?"));
  assert.deepEqual(page.errors, []);
  await page.close();
  await link.close();
});

test("predict mode: ties all count, the question follows the picked row, and it speaks Chinese", async () => {
  // The age scene's three Zhangs share the largest weight (scenes.md: 0.2808 each).
  const page = await open("scene=age&lang=en&step=4&predict=1");
  await page.locator(".choices label", { hasText: "Zhang Mazi" }).click();
  await page.locator("#check").click();
  assert.match(
    await text(page, ".choices .verdict"),
    /^✓ right \(a tie: “Zhang San”, “Zhang San” and “Zhang Mazi” are all right\)/,
  );
  const zh = await open("scene=book&lang=zh&step=3&predict=1");
  assert.equal(await text(zh, ".choices legend"), "哪个键从“书”得到的分数最高？");
  assert.equal(await text(zh, "#check"), "核对并揭晓");
  await zh.locator('[data-matrix="q"] button[data-i="4"][data-j="0"]').click();
  assert.equal(await text(zh, ".choices legend"), "哪个键从“读”得到的分数最高？");
  assert.deepEqual([...page.errors, ...zh.errors], []);
  await page.close();
  await zh.close();
});

test("predict mode in the element and the iframe", async () => {
  const page = await openPage(
    env.browser,
    `${env.url}embed.html?scene=dictionary&step=4&lang=en&predict=1`,
  );
  const weights = page.locator('attention-walkthrough [data-matrix="weights"] button.cell');
  await weights.first().waitFor();
  assert.deepEqual(await weights.allTextContents(), ["?", "?", "?"]);
  await page.evaluate(() =>
    document.querySelector("attention-walkthrough").removeAttribute("predict"),
  );
  assert.deepEqual(await weights.allTextContents(), ["0.7944", "0.1677", "0.0380"]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// ---- the learner's second pass, §1: the checker calls no wrong answer right ----

test("predict mode marks 0.35 wrong for the classroom's exact 0.34, and says the rule", async () => {
  for (const [lang, rule] of [
    ["en", /^Right means: at the decimals you chose, the core's number rounded or cut off/],
    ["zh", /^判为正确的只有：在你选的小数位上/],
  ]) {
    const page = await open(`scene=classroom&lang=${lang}&step=3&predict=1`);
    await page.locator("#check-decimals").selectOption("2");
    // scenes.md: scores = [[0.26, 0.25, 0.24], [0.24, 0.29, 0.34], [0.22, 0.33, 0.44]]
    const typed = [
      ["0.26", "0.25", "0.24"],
      ["0.24", "0.29", "0.35"],
      ["0.22", "0.33", "0.44"],
    ];
    for (const [i, row] of typed.entries()) {
      for (const [j, value] of row.entries()) {
        await page.locator(`.check-grid input[data-i="${i}"][data-j="${j}"]`).fill(value);
      }
    }
    assert.match(await text(page, "#check-rule"), rule);
    await page.locator("#check").click();
    const verdicts = await page.locator(".check-grid .verdict").allTextContents();
    assert.deepEqual(
      verdicts.map((v) => v.slice(0, 1)),
      ["✓", "✓", "✓", "✓", "✓", "✗", "✓", "✓", "✓"],
      lang,
    );
    assert.match(await text(page, ".check-summary"), lang === "en" ? /^8 of 9 right/ : /8/);
    await page.close();
  }
});

// A learner cut 0.28079 to 0.2807 where the page shows 0.2808 and read "right" as "the same":
// a right answer that is not the core's number rounded says the rounded one beside it.
test("a right answer cut off, not rounded, is right and says what rounding gives", async () => {
  // scenes.md, the age scene's weights: 0.2807897223 ×3 and 0.1576308332
  const [heavy, , light] = scenes.age.weights[0];
  const four = (x) => x.toFixed(4);
  const cut = (x) => (Math.floor(x * 1e4) / 1e4).toFixed(4);
  assert.notEqual(cut(heavy), four(heavy), "the fixture's weight rounds up at 4 decimals");
  for (const [lang, rounded] of [
    ["en", (x) => `✓ right; rounded, the core's number is ${x}`],
    ["zh", (x) => `✓ 正确；四舍五入的话，核心算出的是 ${x}`],
  ]) {
    const page = await open(`scene=age&lang=${lang}&step=4`);
    assert.equal(await page.locator("#check-decimals").inputValue(), "4");
    const typed = [cut(heavy), four(heavy), four(light), cut(heavy - 1e-4)];
    for (const [j, value] of typed.entries()) {
      await page.locator(`.check-grid input[data-i="0"][data-j="${j}"]`).fill(value);
    }
    await page.locator("#check").click();
    const verdicts = await page.locator(".check-grid .verdict").allTextContents();
    const right = lang === "en" ? "✓ right" : "✓ 正确";
    assert.deepEqual(verdicts.slice(0, 3), [rounded(four(heavy)), right, right], lang);
    assert.match(verdicts[3], /^✗/, `${lang}: one unit below the cut is wrong`);
    await page.close();
  }
});

// ---- the learner's second pass, §3: predict mode cannot be skipped by accident ----

test("predict mode: a step not answered keeps its results hidden in the steps after it", async () => {
  const page = await open("scene=dictionary&lang=en&step=2&predict=1");
  assert.deepEqual((await cells(page, "scores")).flat(), ["?", "?", "?"]);
  // forward without answering: step 3 shows Q·Kᵀ as its operand, still hidden
  await page.locator("#forward").click();
  assert.match(await text(page, "#step-title"), /^3\./);
  assert.deepEqual((await cells(page, "scores")).flat(), ["?", "?", "?"]);
  assert.match(await text(page, ".concealed"), /earlier step you have not answered/);
  // back, answer step 2, forward: now its numbers show (scenes.md: 5, 2.8, 0.7)
  await page.locator("#back").click();
  for (const [j, value] of ["5", "2.8", "0.7"].entries()) {
    await page.locator(`.check-grid input[data-i="0"][data-j="${j}"]`).fill(value);
  }
  await page.locator("#check").click();
  await page.locator("#forward").click();
  assert.deepEqual((await cells(page, "scores")).flat(), ["5", "2.8", "0.7"]);
  assert.equal(await page.locator(".concealed").count(), 0);
  await page.close();
});

// ---- issue 39 §3: predict mode shows what a step is worked from ----

test("predict mode: a step worked from an unanswered one says so; reveal shows it whole; q·k is the scores'", async () => {
  // step 4 opened in predict mode: its operand, Q·Kᵀ, is given, and so is the plot's q·k
  // (scenes.md: scores[1][1] = 0.26)
  const given = await open("scene=classroom&lang=en&step=4&predict=1");
  assert.deepEqual((await cells(given, "scores"))[0], ["0.26", "0.25", "0.24"]);
  assert.equal(await text(given, ".plot-score"), "q·k = 0.26");
  assert.ok((await cells(given, "scaled")).flat().every((t) => t === "?"));
  await given.close();
  // step 3 skipped: step 4 cannot be worked from the numbers above, and says which step first
  const page = await open("scene=classroom&lang=en&step=3&predict=1");
  await page.locator("#forward").click();
  assert.ok((await cells(page, "scores")).flat().every((t) => t === "?"));
  assert.equal(await page.locator(".plot-score").count(), 0, "q·k is step 3's answer");
  const said = await text(page, "section.check .waiting");
  assert.match(said, /worked out from the results of step 3, Scores, which you have not answered/);
  assert.doesNotMatch(await text(page, "section.check"), /Work them out from the numbers above/);
  assert.match(await text(page, ".derivation-hint"), /results of step 3, not answered yet/);
  // Check and reveal: the step whole, its operand and the plot's q·k with it
  await page.locator("#check").click();
  assert.deepEqual((await cells(page, "scores"))[0], ["0.26", "0.25", "0.24"]);
  assert.deepEqual((await cells(page, "scaled"))[0], ["0.1838", "0.1768", "0.1697"]);
  assert.equal(await text(page, ".plot-score"), "q·k = 0.26");
  assert.equal(await page.locator(".concealed").count(), 0);
  // "Go to step 3" from the waiting words, in Chinese
  const zh = await open("scene=classroom&lang=zh&step=3&predict=1");
  await zh.locator("#forward").click();
  assert.match(await text(zh, "section.check .waiting"), /第 3 步“注意力分数”的结果/);
  await zh.locator("#predict-earlier").click();
  assert.match(await text(zh, "#step-title"), /^3\./);
  for (const p of [page, zh]) {
    assert.deepEqual(p.errors, []);
    await p.close();
  }
});

test("predict mode: new numbers (W_Q × 20) are to be predicted from the step in view; earlier steps stay given", async () => {
  const page = await open("scene=classroom&lang=en&predict=1");
  // every step answered by revealing it, up to the weights (step 5)
  for (let n = 2; n <= 5; n++) {
    await page.locator("#forward").click();
    await page.locator("#check").click();
  }
  assert.match(await text(page, "#step-title"), /^5\. Softmax/);
  await page.locator("#sharpen").click();
  // the new weights wait for an answer; the scaled scores they are worked from do not
  assert.ok((await cells(page, "weights")).flat().every((t) => t === "?"));
  const { x, wq, wk } = scenes.classroom;
  const times = (a, b) =>
    a.map((row) => b[0].map((_, c) => row.reduce((s, v, m) => s + v * b[m][c], 0)));
  const q = times(
    x,
    wq.map((row) => row.map((v) => 20 * v)),
  );
  const k = times(x, wk);
  const scaled = q.map((qi) => k.map((kj) => (qi[0] * kj[0] + qi[1] * kj[1]) / Math.SQRT2));
  const shown = (await cells(page, "scaled")).map((row) => row.map(Number));
  shown.forEach((row, i) =>
    row.forEach((s, j) => assert.ok(Math.abs(s - scaled[i][j]) < 5e-5, `${s} ${scaled[i][j]}`)),
  );
  await page.locator("#back").click();
  assert.ok(
    (await cells(page, "scores")).flat().every((t) => t !== "?"),
    "step 4 given",
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("answers checked before new numbers are not marked against them until Check is pressed", async () => {
  const page = await open("scene=classroom&lang=en&step=5");
  // scenes.md's weights, right at 4 decimals
  const weights = [
    ["0.3357", "0.3333", "0.3310"],
    ["0.3216", "0.3332", "0.3452"],
    ["0.3078", "0.3327", "0.3596"],
  ];
  for (const [i, row] of weights.entries()) {
    for (const [j, value] of row.entries()) {
      await page.locator(`.check-grid input[data-i="${i}"][data-j="${j}"]`).fill(value);
    }
  }
  await page.locator("#check").click();
  assert.equal(await text(page, ".check-summary"), "9 of 9 right.");
  await page.locator("#sharpen").click();
  assert.equal(await text(page, ".check-summary"), "", "no count for numbers not checked");
  assert.deepEqual(
    new Set(await page.locator(".check-grid .verdict").allTextContents()),
    new Set([""]),
    "no mark beside an answer",
  );
  assert.deepEqual(
    await page.locator(".check-grid input").evaluateAll((inputs) => inputs.map((i) => i.value)),
    weights.flat(),
    "what was typed stays",
  );
  // checked again, against the new numbers: 你's row is far from even now (0.796 on 你)
  await page.locator("#check").click();
  assert.match(await text(page, ".check-summary"), /^\d of 9 right\.$/);
  assert.notEqual(await text(page, ".check-summary"), "9 of 9 right.");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("→ on a scene's last step opens the next scene of the path; without one it says so", async () => {
  const page = await open("scene=classroom&lang=en&step=7");
  const forward = page.locator("#forward");
  assert.equal(await forward.getAttribute("aria-label"), await text(page, ".next-up"));
  await forward.click();
  assert.equal(await page.locator("#scene-classroom").getAttribute("aria-current"), null);
  // the path's next scene is the apple scene (its mask step makes 7)
  assert.equal(await page.locator("#scene-apple").getAttribute("aria-current"), "page");
  assert.equal(await text(page, "#counter"), "Step 1 of 7");
  assert.equal(await page.evaluate(() => document.activeElement.id), "scene-title");
  const zh = await open("scene=cup&lang=zh&step=7");
  assert.equal(await zh.locator("#forward").getAttribute("aria-label"), "下一课 2 模型里面：多头");
  await zh.close();
  // an element has no path: on its last step → has nothing to open, and keeps the focus
  const element = await openPage(
    env.browser,
    `${env.url}embed.html?scene=dictionary&step=6&lang=en`,
  );
  const button = element.locator("attention-walkthrough #forward");
  await button.waitFor();
  assert.equal(await button.getAttribute("aria-disabled"), "true");
  assert.equal(await button.getAttribute("aria-label"), "Step forward: this is the last step");
  await button.focus();
  await element.keyboard.press("Enter");
  assert.equal(
    await element.locator("attention-walkthrough #counter").textContent(),
    "Step 6 of 6",
  );
  assert.equal(
    await element.evaluate(
      () => document.querySelector("attention-walkthrough").shadowRoot.activeElement?.id,
    ),
    "forward",
  );
  for (const p of [page, element]) {
    assert.deepEqual(p.errors, []);
    await p.close();
  }
});

// ---- the learner's second pass, §3: Space, as the hint says ----

test("Space presses a focused button, and plays or pauses elsewhere, as the hint says", async () => {
  const page = await open("scene=classroom&lang=en&step=2");
  assert.match(await text(page, ".keys"), /on a focused button, Space presses that button/);
  await page.locator("#forward").focus();
  await page.keyboard.press(" ");
  assert.match(await text(page, "#counter"), /^Step 3 of/, "Space pressed the → button");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "false");
  await page.locator("#step-title").focus();
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "true", "Space plays");
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "false", "and pauses");
  // a matrix's cell is a button too: Space picks it and does not play
  await page.locator('[data-matrix="q"] button[data-i="1"][data-j="0"]').click();
  await page.keyboard.press(" ");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "false", "a cell");
  await page.close();
});

// ---- 3. defects ----

test("−∞ can be typed into the check: −∞, -inf and -Infinity", async () => {
  const page = await open("scene=book&lang=en&causal=1&step=5");
  assert.match(await text(page, "#step-title"), /Mask/);
  await page.locator('[data-matrix="masked"] button[data-i="0"][data-j="0"]').click();
  const input = (j) => page.locator(`.check-grid input[data-i="0"][data-j="${j}"]`);
  await input(1).fill("−∞");
  await input(2).fill("-inf");
  await input(3).fill("-Infinity");
  await input(4).fill("0");
  await page.locator("#check").click();
  const verdicts = await page.locator(".check-grid .verdict").allTextContents();
  assert.deepEqual(
    verdicts.slice(1, 5).map((v) => v.slice(0, 1)),
    ["✓", "✓", "✓", "✗"],
  );
  await page.close();
});

test("rows and columns count from 1 everywhere, and the page says so", async () => {
  const page = await open("scene=classroom&lang=en&step=3");
  await page.locator('[data-matrix="scores"] button[data-i="1"][data-j="0"]').click();
  // scenes.md: Q[2] = [0.3, 0.4], K[1] = [0.4, 0.3], scores[2][1] = 0.24.
  assert.equal(
    await text(page, ".derivation code"),
    "scores[2][1] = Q[2]·K[1] = 0.3×0.4 + 0.4×0.3 = 0.24",
  );
  assert.match(await text(page, ".derivation"), /Rows and columns count from 1/);
  assert.equal(
    await page
      .locator('[data-matrix="scores"] button[data-i="1"][data-j="0"]')
      .getAttribute("aria-label"),
    "Q·Kᵀ[2][1]: 0.24",
  );
  await page.keyboard.press("ArrowLeft");
  await page.locator('[data-matrix="q"] button[data-i="0"][data-j="1"]').click();
  assert.equal(
    await text(page, ".derivation code"),
    "Q[1][2] = X[1] · column 2 of W_Q = 1×0.2 + 0×0.6 = 0.2",
  );
  assert.equal(await page.locator("text=W_Q[:]").count(), 0, "no NumPy slices");
  await page.close();
});

test("the lines view shows every label whole (surname Zhang?, at 1440 and 390 px)", async () => {
  for (const width of [1440, 390]) {
    const page = await open("scene=age&lang=en&step=6", { viewport: { width, height: 900 } });
    const labels = await page.locator(".lines-grid li").evaluateAll((items) =>
      items.map((li) => {
        const box = li.getBoundingClientRect();
        const figure = li.closest("figure").getBoundingClientRect();
        return {
          text: li.textContent,
          whole: li.scrollWidth <= li.clientWidth + 1 && box.left >= figure.left - 1,
        };
      }),
    );
    assert.equal(labels[0].text, "surname Zhang?");
    for (const l of labels) assert.ok(l.whole, `${width} px: “${l.text}” is clipped`);
    await page.close();
  }
});

test("a bad URL edit says the core's message in Chinese; English glosses the Chinese tokens", async () => {
  const page = await open("scene=classroom&lang=zh&x=1,0;1");
  assert.match(await text(page, ".error"), /X 的第 2 行有 1 个数，而第 1 行有 2 个/);
  const en = await open("scene=classroom&lang=en");
  assert.deepEqual(await en.locator('[data-matrix="x"] th[scope=row]').allTextContents(), [
    "我 I",
    "爱 love",
    "你 you",
  ]);
  const book = await open("scene=book&lang=en");
  const rows = await book
    .locator('[data-matrix="x"] th[scope=row]')
    .evaluateAll((ths) => ths.map((th) => th.querySelector(".gloss")?.textContent));
  assert.equal(rows.filter(Boolean).length, 11, `every token glossed: ${rows}`);
  await page.close();
  await en.close();
  await book.close();
});

test("text follows the numbers: the reconstruction note, Li Si at α = 10, edits equal to the original", async () => {
  const page = await open("scene=dictionary&lang=en");
  assert.match(await text(page, ".intro .note"), /reconstruction/);
  await page.locator("#random").click();
  assert.doesNotMatch(await text(page, ".intro"), /reconstruction/);
  assert.match(await text(page, ".intro .note"), /your own inputs/);
  await page.locator("#reset").click();
  assert.match(await text(page, ".intro .note"), /reconstruction/);
  await page.locator("#step-title").focus();
  await page.keyboard.press("End");
  assert.match(await text(page, ".result"), /^The largest weight, 0\.79, goes to apple/);

  // At α = 10 Li Si's weight is 1 / (3·e^(10/√3) + 1), by hand.
  const liSi = 1 / (3 * Math.exp(10 / Math.sqrt(3)) + 1);
  const age = await open("scene=age&lang=en&step=6&alpha=10");
  const result = await text(age, ".result");
  assert.doesNotMatch(result, /still gets/);
  assert.match(result, new RegExp(`Li Si's weight is down to ${liSi.toFixed(3)}`));
  const flat = await open("scene=age&lang=en&step=6&alpha=0");
  assert.match(await text(flat, ".result"), /same weight, 0\.25: attention gives the plain mean/);

  // Edits that equal the article's numbers are no edits.
  const same = await open("scene=age&lang=en&step=6&k=1,2,0;1,2,0;0,0,2;1,4,0");
  assert.equal(await same.locator(".edited").count(), 0);
  assert.equal(await same.locator(".compare").count(), 1, "the comparison with the article");
  assert.equal(new URL(same.url()).searchParams.has("k"), false);
  for (const p of [page, age, flat, same]) await p.close();
});

test("check my numbers says which matrix it checks, and the projections offer Q, K and V", async () => {
  const page = await open("scene=classroom&lang=en&step=2");
  assert.equal(await text(page, ".check .which"), "You check Q (3×2).");
  await page.locator("#check-matrix").selectOption("k");
  assert.equal(await text(page, ".check .which"), "You check K (3×2).");
  const k = scenes.classroom.k;
  for (const [i, row] of k.entries()) {
    for (const [j, x] of row.entries()) {
      await page.locator(`.check-grid input[data-i="${i}"][data-j="${j}"]`).fill(String(x));
    }
  }
  await page.locator("#check").click();
  assert.match(await text(page, ".check-summary"), /6 of 6 right/);
  await switchLanguage(page, "zh");
  assert.equal(await text(page, ".check .which"), "核对的是 K（3×2）。");
  await page.close();
});

test("the vector plot's note names the colour it draws the key's shadow in", async () => {
  const page = await open("scene=classroom&lang=en&step=3");
  const stroke = await page
    .locator(".plot .shadow")
    .evaluate((line) => getComputedStyle(line).stroke.match(/\d+/g).map(Number));
  const [r, g, b] = stroke;
  assert.ok(r >= 200 && r > g && g > b, `an orange, not ${stroke}`);
  assert.match(await text(page, ".plot-view .note"), /pale orange band/);
  const swatch = await page
    .locator(".plot-view .note .shadow")
    .evaluate((line) => getComputedStyle(line).stroke);
  assert.equal(swatch, `rgb(${r}, ${g}, ${b})`, "the note's swatch is the line's colour");
  await switchLanguage(page, "zh");
  assert.match(await text(page, ".plot-view .note"), /浅橙色/);
  await page.close();
});

test("End from a focused cell moves the focus to the step's title, without a frame around the page", async () => {
  const page = await open("scene=classroom&lang=en&step=3");
  await page.locator('[data-matrix="scores"] button[data-i="0"][data-j="1"]').focus();
  await page.keyboard.press("End");
  const focused = await page.evaluate(() => {
    const box = document.activeElement.getBoundingClientRect();
    return { id: document.activeElement.id, height: box.height };
  });
  assert.equal(focused.id, "step-title");
  assert.ok(focused.height < 60, `a small focus: ${focused.height} px`);
  assert.match(await text(page, "#counter"), /Step 7 of 7/);
  await page.keyboard.press("ArrowLeft");
  assert.match(await text(page, "#counter"), /Step 6 of 7/, "the arrows still step");
  await page.close();
});

// The contrast ratio of two CSS colours, by WCAG's relative luminance.
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css
      .match(/\d+(\.\d+)?/g)
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test("the heatmap: a legend, readable numbers, weights that look different, masked keys hatched", async () => {
  const page = await open("scene=cup&lang=en&step=4");
  const tds = await page.locator(".heatmap td").evaluateAll((list) =>
    list.map((td) => ({
      w: Number(td.textContent),
      fg: getComputedStyle(td).color,
      bg: getComputedStyle(td).backgroundColor,
    })),
  );
  for (const td of tds) assert.ok(contrast(td.fg, td.bg) >= 4.5, `${td.w}: ${td.fg} on ${td.bg}`);
  // Weights that differ by 0.3 or more differ in colour by a contrast of at least 1.8 (the old
  // colours gave 1.3 for 0.214 and 0.528).
  for (const a of tds) {
    for (const b of tds) {
      if (b.w - a.w >= 0.3) assert.ok(contrast(a.bg, b.bg) >= 1.8, `${a.w} and ${b.w} look alike`);
    }
  }
  assert.deepEqual(await page.locator(".heatmap .legend .swatch").allTextContents(), [
    "0",
    "0.1",
    "0.25",
    "0.5",
    "1",
  ]);
  const book = await open("scene=book&lang=en&causal=1&step=6");
  const masked = book.locator(".heatmap td.masked");
  assert.equal(await masked.count(), 55, "the upper triangle of 11×11");
  assert.match(
    await masked.first().evaluate((td) => getComputedStyle(td).backgroundImage),
    /repeating-linear-gradient/,
  );
  await book.keyboard.press("ArrowLeft");
  await book.locator("#step-title").click();
  assert.equal(await book.locator('[data-matrix="masked"] td.minus-infinity').count(), 55);
  await page.close();
  await book.close();
});

test("no “seed” for two things: the random box is the random seed, the source is an article", async () => {
  for (const id of sceneIds) {
    const page = await open(`scene=${id}&lang=en`);
    assert.doesNotMatch(await text(page, "#app"), /seed article/i);
    assert.equal(
      await page.locator("label.seed").evaluate((l) => l.firstChild.textContent),
      "Random seed",
    );
    assert.match(await text(page, ".about-wide .source"), /^Source: a Chinese article/);
    await page.close();
  }
  const cup = await open("scene=cup&lang=zh");
  assert.match(await text(cup, ".about-wide .source"), /《动手学深度学习》/);
  assert.equal(
    await cup.locator(".about-wide .source a").getAttribute("href"),
    "https://zh-v2.d2l.ai/chapter_attention-mechanisms/attention-cues.html",
  );
  await cup.close();
});

// ---- 4. teaching gaps ----

test("d_k is defined, √d_k explained and tied to α; the age scene names its dimensions and α·q", async () => {
  const page = await open("scene=classroom&lang=en&step=4");
  assert.match(
    await text(page, ".step-text"),
    /d_k is the length of each query and key row .* here 2/,
  );
  await page.locator("details.why summary").click();
  assert.match(
    await text(page, "details.why p"),
    /variance .* inverse temperature: the age scene's α/,
  );
  const age = await open("scene=age&lang=en&step=1&alpha=2");
  assert.deepEqual(
    (await age.locator('[data-matrix="k"] thead th[scope=col]').allTextContents()).slice(1),
    ["surname Zhang", "given name (a code)", "surname Li"],
  );
  assert.match(await text(age, ".inputs-note"), /q = \[1, 0, 0\] asks about the first number only/);
  assert.match(await text(age, "label.alpha"), /inverse temperature/);
  await age.locator("#forward").click();
  assert.match(await text(age, ".step-text"), /Here Q is α·q with α = 2/);
  assert.equal(await text(age, '[data-matrix="q"] figcaption code'), "Q = α·q, α = 2");
  await page.close();
  await age.close();
});

test("the classroom's nearly equal weights are explained, and a sharper query tells them apart", async () => {
  const page = await open("scene=classroom&lang=en&step=5&digits=10");
  // scenes.md: weights 0.3078 … 0.3596, scaled scores 0.1556 … 0.3111.
  assert.match(
    await text(page, ".note-box"),
    /nearly equal \(0\.3078 to 0\.3596\).*close together \(0\.1556 to 0\.3111\)/,
  );
  // why so flat: 我's scores before the scale are x_我·W_Q·(X·W_K)ᵀ = 0.26, 0.25 and 0.24
  assert.match(
    await text(page, ".flat-why"),
    /我's three scores, before the scale, are 0\.26, 0\.25 and 0\.24/,
  );
  assert.equal(await text(page, "#sharpen"), "Try a sharper query: W_Q × 20");
  const flatEn = await text(page, ".flat-why");
  const zh = await open("scene=classroom&lang=zh&step=5");
  const flatZh = await text(zh, ".flat-why");
  assert.match(flatZh, /“我”的三个分数（缩放之前）是 0\.26、0\.25 和 0\.24/);
  await zh.close();
  await page.locator("#sharpen").click();
  assert.equal(await page.locator(".note-box").count(), 0);
  const { x, wq, wk, wv } = scenes.classroom;
  const times = (a, b) =>
    a.map((row) => b[0].map((_, c) => row.reduce((s, v, m) => s + v * b[m][c], 0)));
  const sharp = wq.map((row) => row.map((v) => 20 * v));
  const expected = referenceAttention(times(x, sharp), times(x, wk), times(x, wv)).weights;
  const shown = (await cells(page, "weights")).map((row) => row.map(Number));
  shown.forEach((row, i) => row.forEach((w, j) => assert.ok(Math.abs(w - expected[i][j]) < 1e-9)));
  // 你 looks mostly at itself now: 0.80 (NumPy: 0.796)
  assert.ok(Math.max(...expected[2]) > 0.75, "visibly sharp");
  // and 我's row moves too, so the note must not say that a sharper query leaves it alone
  assert.ok(Math.max(...expected[0]) - Math.min(...expected[0]) > 0.05, "我's row moves");
  for (const note of [flatEn, flatZh]) {
    assert.doesNotMatch(note, /barely changes|几乎不变|under any softmax|怎样做 softmax/, note);
  }
  assert.ok(Math.abs(shown[2][2] - 0.796) < 0.001);
  await page.close();
});

test("the result step reads the output: the classroom's V row, the book's named dimensions", async () => {
  // at 3 decimals, as the article prints them (the sentence writes the tables' decimals)
  const page = await open("scene=classroom&lang=en&step=7&digits=3");
  assert.equal(await page.locator(".derivation").count(), 0, "no weighted sum again");
  // scenes.md: V[1] = [0.8, 0.1]; output[1] = [0.551, 0.498] to 3 decimals.
  assert.match(
    await text(page, ".result"),
    /我 \(I\)'s own value is V\[1\] = \[0\.8, 0\.1\], and its output is \[0\.551, 0\.498\]/,
  );
  // and the last word, the article's second example: 你 goes from [0, 1] to [0.537, 0.521]
  assert.match(
    await page.locator(".result").textContent(),
    /the last word, 你 \(you\): its input X\[3\] = \[0, 1\], its value V\[3\] = \[0\.3, 0\.9\], and its output \[0\.537, 0\.521\]/,
  );
  assert.match(await text(page, ".meaning figcaption"), /What 我 carries/);
  const book = await open("scene=book&lang=en&step=7");
  assert.deepEqual(await book.locator(".meaning th[scope=col]").allTextContents(), [
    "own value V[11]",
    "after attention, output[11]",
  ]);
  assert.match(await text(book, ".meaning p"), /书's own value says only “is a thing”/);
  await page.close();
  await book.close();
});

test("the causal mask points at 读, whose row it changes, not at 书, whose row it does not", async () => {
  const page = await open("scene=book&lang=en&step=3");
  await page.locator("#causal").check();
  await page.locator("#forward").click();
  await page.locator("#forward").click();
  assert.match(await text(page, "#step-title"), /Mask/);
  assert.match(await text(page, ".step-text"), /Look at 读's row instead/);
  await page.locator("#forward").click();
  assert.equal(await text(page, ".heatmap .focus-row th"), "读 read");
  await page.close();
});

test("the mask says why (next-token training, writing one token at a time), the result where it goes", async () => {
  for (const [lang, why, next] of [
    ["en", /predicting each next token.*one token at a time/, /residual stream.*next layer/],
    ["zh", /预测下一个词.*一次只写一个词/, /残差流.*下一层/],
  ]) {
    const page = await open(`scene=book&lang=${lang}&causal=1&step=5`);
    assert.match(await text(page, "#step-title"), lang === "en" ? /Mask/ : /掩码/);
    await page.locator("details.why summary").click();
    assert.match(await text(page, "details.why p"), why);
    await page.locator("#forward").click();
    await page.locator("#forward").click();
    await page.locator("#forward").click();
    assert.match(await text(page, "#step-title"), lang === "en" ? /Result/ : /结果/);
    await page.locator("details.why summary").click();
    assert.match(await text(page, "details.why p"), next);
    await page.close();
  }
});

test("the softmax step shows in one line that exp(x − m) / Σ is eˣ / Σ, and why it subtracts m", async () => {
  const page = await open("scene=classroom&lang=en&step=5");
  assert.match(await text(page, ".step-line"), /= eˣ \/ Σ eˣ: e⁻ᵐ cancels.*cannot overflow/);
  await page.close();
});

// ---- 5. phones and print ----

// The visible controls smaller than 44×44 px (a box or radio counts its label; a link inside a
// sentence is exempt, and so is a glossary word, which is one wherever its prose is), and how far
// the page scrolls sideways.
const phoneTrouble = (page) =>
  page.evaluate(() => ({
    small: [...document.querySelectorAll("button, a[href], input, select, summary")]
      .filter((e) => e.checkVisibility() && !e.closest("p") && !e.matches("button.term"))
      .map((e) => (e.matches("[type=checkbox], [type=radio]") ? e.closest("label") : e))
      .map((e) => [e.id || e.textContent.trim().slice(0, 12), e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
      .map(([name, r]) => `${name} ${Math.round(r.width)}×${Math.round(r.height)}`),
    overflow: document.documentElement.scrollWidth - innerWidth,
  }));

test("at 390 px: the step on the first screen, the player sticky, 44 px targets, wide tables say so", async () => {
  const phone = { viewport: { width: 390, height: 844 } };
  for (const lang of ["zh", "en"]) {
    for (const id of sceneIds) {
      const page = await open(`scene=${id}&lang=${lang}${id === "book" ? "&causal=1" : ""}`, phone);
      // Step 1 has the most above its first matrix: the scene's controls and the edit hint.
      const firstRow = await page
        .locator("[data-matrix] tbody tr")
        .first()
        .evaluate((tr) => tr.getBoundingClientRect().bottom);
      // The path's first step opens on what attention is for, which fills that first screen
      // (purpose.test.mjs measures it and the first matrix after it).
      if (id !== "classroom") {
        assert.ok(firstRow < 844, `${id} ${lang}: the first matrix row ends at ${firstRow} px`);
      }
      const total = Number((await text(page, "#counter")).match(/\d+/g).at(-1));
      for (let step = 1; step <= total; step++) {
        const { small, overflow } = await phoneTrouble(page);
        assert.deepEqual(small, [], `${id} ${lang} step ${step}: tap targets under 44×44`);
        assert.ok(overflow <= 0, `${id} ${lang} step ${step}: the page is ${overflow} px too wide`);
        await page.locator("#forward").click();
      }
      await page.close();
    }
  }
  const page = await open("scene=book&lang=en&step=3", phone);
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  const player = await page.locator(".player").evaluate((p) => p.getBoundingClientRect());
  assert.ok(
    player.top >= -1 && player.bottom < 250,
    `the player in reach: ${JSON.stringify(player)}`,
  );
  assert.ok((await page.locator(".scroll[data-more]").count()) > 0, "wide tables fade at the edge");
  assert.match(await text(page, ".scroll-hint"), /scroll sideways/);
  await page.close();
});

test("printing gives a worksheet: every step with blanks, its answer key a print of its own", async () => {
  const page = await open("scene=classroom&lang=en&step=3");
  const pdf = await page.pdf({ path: `${artifacts}worksheet-classroom-en.pdf`, format: "A4" });
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page\b/g) ?? []).length;
  assert.ok(pages >= 2, `${pages} pages`);
  await page.emulateMedia({ media: "print" });
  const sheet = page.locator(".worksheet");
  assert.equal(await sheet.isVisible(), true);
  assert.equal(await page.locator(".player").isVisible(), false, "not the live interface");
  const titles = await sheet.locator(":scope > section h3").allTextContents();
  assert.deepEqual(
    titles.map((t) => t.replace(/^\d+\. /, "")),
    ["Inputs", "Projections", "Scores", "Scale", "Softmax", "Weighted sum", "Result"],
  );
  assert.ok((await sheet.locator("td.blank").count()) >= 6 + 9 * 6 + 6, "blanks for every result");
  // the answers are the key's (classroom.test.mjs): none printed with the worksheet
  const key = await sheet.locator("td").allTextContents();
  for (const v of scenes.classroom.output.flat()) assert.ok(!key.includes(v.toFixed(4)), `${v}`);
  assert.equal(await sheet.locator(".answers").count(), 0);
  await page.emulateMedia({ media: "screen" });
  const zh = await open("scene=book&lang=zh&step=1");
  await zh.pdf({ path: `${artifacts}worksheet-book-zh.pdf`, format: "A4" });
  // the book's 11×11 tables run onto a second page: their column names repeat there
  await zh.emulateMedia({ media: "print" });
  const heads = zh.locator(".worksheet table > thead");
  assert.equal(await heads.count(), await zh.locator(".worksheet table").count());
  assert.equal(
    await heads.first().evaluate((h) => getComputedStyle(h).display),
    "table-header-group",
  );
  // its title in Chinese punctuation (it read '手算注意力: …')
  assert.match(await zh.locator(".worksheet.sheet h2").textContent(), /^手算注意力：[^:]+$/);
  assert.deepEqual([...page.errors, ...zh.errors], []);
  await page.close();
  await zh.close();
});

test("on a phone, a scene opened on its first step shows its analogy; on a later step it is folded", async () => {
  const phone = { viewport: { width: 390, height: 844 } };
  for (const [lang, words] of [
    ["en", /name tags/],
    ["zh", /标签是键 K/],
  ]) {
    const first = await open(`scene=classroom&lang=${lang}`, phone);
    assert.equal(await first.locator("details.about .analogy").isVisible(), true, lang);
    assert.match(await first.locator("details.about .analogy").textContent(), words);
    await first.close();
  }
  const later = await open("scene=classroom&lang=en&step=4", phone);
  assert.equal(await later.locator("details.about .analogy").isVisible(), false);
  await later.close();
});

// The curriculum, in the order a learner takes it: web/catalogue.js's lessons, named here by
// hand in both languages so that a lesson lost, renamed or out of order fails.
const path = {
  en: [
    ["1 Walkthroughs", ["classroom", "apple", "age", "dictionary", "book", "cup"]],
    ["2 Inside a model", ["heads", "gqa", "kvcache", "order"]],
    ["3 Why it is built this way", ["scaling", "tiling", "stability", "dropout", "scale"]],
    ["4 How it learns", ["sharpness", "teach"]],
    ["5 A real model", ["induction", "model", "text"]],
    ["6 Models you use", ["tokens", "bpe", "sizes"]],
  ],
  zh: [
    "1 一步步算",
    "2 模型里面",
    "3 为什么这样设计",
    "4 它怎么学",
    "5 真正的模型",
    "6 你用的模型",
  ],
};

test("the scene list is the curriculum: six lessons in order, named in zh and en, at 1440 and 390 px", async () => {
  for (const [lang, width] of [
    ["en", 1440],
    ["zh", 390],
  ]) {
    const page = await open(`scene=classroom&lang=${lang}`, { viewport: { width, height: 844 } });
    const lessons = await page
      .locator("nav.path li.lesson")
      .evaluateAll((items) =>
        items.map((li) => [
          li.querySelector(".lesson-name").textContent,
          [...li.querySelectorAll("button")].map((b) => b.id.replace("scene-", "")),
          li.querySelector("ul").getAttribute("aria-labelledby") ===
            li.querySelector(".lesson-name").id,
        ]),
      );
    assert.deepEqual(
      lessons.map(([name]) => name),
      lang === "en" ? path.en.map(([name]) => name) : path.zh,
    );
    assert.deepEqual(
      lessons.map(([, ids]) => ids),
      path.en.map(([, ids]) => ids),
    );
    assert.ok(
      lessons.every(([, , labelled]) => labelled),
      "each lesson's list is named by it",
    );
    if (width === 390) {
      // One row that scrolls sideways: the list stays one button high.
      const box = await page.locator("nav.path ol").boundingBox();
      assert.ok(box.height < 60, `the scene list is ${box.height} px high`);
      assert.ok(box.width <= 390);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("each scene's last step names the next one in the path, and the link opens it", async () => {
  const page = await open("scene=classroom&lang=en&step=7");
  assert.equal(await text(page, ".next-up"), "Next: 苹果 in two sentences");
  await page.locator(".next-up a").click();
  await page.waitForFunction(() => document.querySelector("#scene-title")?.textContent !== "");
  assert.equal(await page.locator("#scene-apple").getAttribute("aria-current"), "page");
  assert.equal(await page.locator(".next-up").count(), 0, "not on the first step");
  // the learner lands on the new scene's title, focused and in view, from the mouse or the keys
  const arrived = (p) =>
    p.evaluate(() => {
      const title = document.getElementById("scene-title");
      const box = title.getBoundingClientRect();
      return [document.activeElement === title, box.top >= 0 && box.bottom <= innerHeight];
    });
  assert.deepEqual(await arrived(page), [true, true]);
  const phone = await open("scene=cup&lang=zh&step=7", { viewport: { width: 390, height: 844 } });
  await phone.locator(".next-up a").focus();
  await phone.keyboard.press("Enter");
  await phone.waitForFunction(() => document.querySelector("#scene-heads")?.ariaCurrent === "page");
  assert.deepEqual(await arrived(phone), [true, true]);
  // and the sideways row of scenes shows the one it is in
  const shown = await phone.evaluate(() => {
    const row = document.querySelector("nav ol.lessons").getBoundingClientRect();
    const button = document.getElementById("scene-heads").getBoundingClientRect();
    return button.left >= row.left && button.right <= row.right;
  });
  assert.ok(shown, "the current scene is in view in the scene list");
  await phone.close();
  const zh = await open("scene=cup&lang=zh&step=7");
  assert.equal(await text(zh, ".next-up"), "下一课 2 模型里面：多头");
  const model = await open("scene=model&lang=en&step=99");
  assert.equal(await text(model, ".next-up"), "Next: Your own text");
  await model.close();
  const text5 = await open("scene=text&lang=en&step=99");
  assert.equal(await text(text5, ".next-up"), "Next, lesson 6 Models you use: Their tokens");
  await text5.close();
  const end = await open("scene=sizes&lang=en&step=99");
  assert.match(await text(end, ".next-up"), /end of the path/);
  for (const p of [page, zh, end]) {
    assert.deepEqual(p.errors, []);
    await p.close();
  }
});
