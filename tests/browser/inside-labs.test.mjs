// inside-labs.test.mjs: the four model labs ("inside a model") in Chromium. Each is opened from the scene
// list (its code and the labs module load then), walked to its end by keyboard in English and
// in Chinese, its numbers on screen compared at the precision shown with
// tests/fixtures/inside-labs.json (float64 NumPy, apart from the core), the derivation of a cell
// of every step checked as written, and its state restored from the URL.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { start, openApp } from "./browser.mjs";
import { checkLine } from "../node/shown.mjs";

const fixture = JSON.parse(readFileSync(new URL("../fixtures/inside-labs.json", import.meta.url)));
let env;
before(async () => (env = await start()));
after(() => env.close());

const counter = (page) => page.locator("#counter").textContent();

// A matrix's numbers on screen, row by row, as numbers (− as minus).
function matrixNumbers(page, id) {
  return page
    .locator(`[data-matrix="${id}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((tr) =>
        [...tr.querySelectorAll("button.cell")].map((b) => Number(b.textContent.replace("−", "-"))),
      ),
    );
}

// Shown at 4 decimals: within half a unit of the last one (and a hair for the float64 noise).
function assertShown(shown, expected, what) {
  assert.equal(shown.length, expected.length, `${what}: rows`);
  shown.forEach((row, i) =>
    row.forEach((x, j) =>
      assert.ok(
        Math.abs(x - expected[i][j]) <= 0.5e-4 + 1e-12,
        `${what}[${i + 1}][${j + 1}] shows ${x}, the fixture has ${expected[i][j]}`,
      ),
    ),
  );
}

// The derivation of the step's first cell that is not an input to edit (a click on one of
// those opens a field): every line with arithmetic holds as shown.
async function checkDerivation(page, what) {
  const cell = page.locator("[data-matrix]:not(.role-input) button.cell").first();
  if ((await cell.count()) === 0) return 0;
  await cell.click();
  const lines = await page.locator(".derivation code").allTextContents();
  assert.ok(lines.length > 0, `${what}: a derivation`);
  let checked = 0;
  for (const text of lines) {
    const result = checkLine(text, 4);
    if (!result) continue;
    checked++;
    assert.ok(result.holds, `${what}: ${text}`);
  }
  return checked;
}

// Walks to the end with → (focus on the title, so that keys drive the player), checking each
// step as it comes; returns the titles.
async function walk(page, check = async () => {}) {
  const titles = [];
  await page.locator("h1").click();
  for (let i = 0; i < 12; i++) {
    titles.push(await page.locator("#step-title").textContent());
    await check(titles.length);
    const [n, total] = (await counter(page)).match(/\d+/g).map(Number);
    if (n === total) return titles;
    await page.locator("h1").click();
    await page.keyboard.press("ArrowRight");
  }
  throw new Error("the keyboard never reached the last step");
}

const labs = {
  heads: {
    en: [
      "Inputs",
      "Projections",
      "Each head's scores",
      "Each head's weights",
      "Concatenation",
      "Output = concat·W_O",
    ],
    zh: ["输入", "投影", "每个头的分数", "每个头的权重", "拼接", "输出 = concat·W_O"],
    async numbers(page, step) {
      const f = fixture.heads["4"];
      if (step === 4) {
        for (let h = 0; h < 4; h++) {
          assertShown(
            await matrixNumbers(page, `h${h + 1}-weights`),
            f.weights[h],
            `head ${h + 1}`,
          );
        }
      }
      if (step === 5) assertShown(await matrixNumbers(page, "concat"), f.concat, "concat");
      if (step === 6) assertShown(await matrixNumbers(page, "output"), f.output, "output");
    },
  },
  gqa: {
    en: [
      "h_kv = 4: a key-value head per query head",
      "h_kv = 2: pairs share",
      "h_kv = 1: multi-query",
      "The cache memory saved",
    ],
    zh: [
      "h_kv = 4：每个查询头有自己的键值头",
      "h_kv = 2：两两共用",
      "h_kv = 1：多查询注意力",
      "省下的缓存",
    ],
    async numbers(page, step) {
      if (step <= 3) {
        const f = fixture.heads[["4", "2", "1"][step - 1]];
        for (let h = 0; h < 4; h++) {
          assertShown(
            await matrixNumbers(page, `h${h + 1}-weights`),
            f.weights[h],
            `head ${h + 1}`,
          );
        }
        const groups = await page.locator("[data-groups]").textContent();
        const expected = {
          1: "1→1, 2→2, 3→3, 4→4",
          2: "1→1, 2→1, 3→2, 4→2",
          3: "1→1, 2→1, 3→1, 4→1",
        };
        assert.ok(groups.includes(expected[step]), groups);
      } else {
        const cache = ["4", "2", "1"].map((k) => Object.values(fixture.heads[k].cache));
        assert.deepEqual(await matrixNumbers(page, "cache"), cache);
      }
    },
  },
  kvcache: {
    en: [
      "Token 1: 我",
      "Token 2: 在",
      "Token 3: 图书馆",
      "Token 4: 读",
      "Token 5: 书",
      "The same as the full causal pass",
    ],
    zh: [
      "第 1 个词元：我",
      "第 2 个词元：在",
      "第 3 个词元：图书馆",
      "第 4 个词元：读",
      "第 5 个词元：书",
      "和完整的因果计算一样",
    ],
    async numbers(page, step) {
      if (step <= 5) {
        const f = fixture.kvcache.steps[step - 1];
        assertShown(await matrixNumbers(page, "output"), [f.output], `step ${step} output`);
        assertShown(await matrixNumbers(page, "h1-weights"), [f.weights[0]], `step ${step} head 1`);
        assert.equal((await matrixNumbers(page, "kcache")).length, step, "the cache grows a row");
        const costs = await page.locator("[data-cost]").allTextContents();
        assert.ok(costs[4].endsWith(`= ${f.cost.total}`), costs[4]);
        assert.ok(costs[9].endsWith(`= ${f.full.total}`), costs[9]);
        for (const text of costs) assert.ok(checkLine(text, 0).holds, text);
        // the factors named: d_model = 7, h = 4, h_kv = 2, d_head = 2 (data.js), n = the step
        const factors = await page.locator(".counter .factors").textContent();
        for (const part of ["d_model = 7", "h = 4", "h_kv = 2", "d_head = 2", `n = ${step}`])
          assert.ok(factors.includes(part), `${part} in ${factors}`);
      } else {
        assertShown(await matrixNumbers(page, "cachedout"), fixture.kvcache.fullOutput, "cached");
        assertShown(await matrixNumbers(page, "fullout"), fixture.kvcache.fullOutput, "full");
      }
    },
  },
  order: {
    en: [
      "Shuffled, without positions",
      "Sinusoidal positions",
      "Rotary positions (RoPE)",
      "RoPE: only m − n counts, sign and all",
    ],
    zh: [
      "没有位置时打乱顺序",
      "正弦位置编码",
      "旋转位置编码（RoPE）",
      "RoPE：只有 m − n 要紧，连正负在内",
    ],
    async numbers(page, step) {
      const f = fixture.order;
      if (step === 1) {
        assertShown(await matrixNumbers(page, "outputOriginal"), f.none.outputA, "in order");
        assertShown(await matrixNumbers(page, "outputShuffled"), f.none.outputB, "shuffled");
      }
      if (step === 2) {
        assertShown(await matrixNumbers(page, "pe"), f.pe, "PE");
        assertShown(
          await matrixNumbers(page, "weightsShuffled"),
          f.sinusoidal.weights1B,
          "weights shuffled",
        );
      }
      if (step === 3)
        assertShown(await matrixNumbers(page, "weightsShuffled"), f.rope.weights1B, "RoPE weights");
      if (step === 4)
        assertShown(await matrixNumbers(page, "scores"), f.distance.scores, "q_m·k_n");
    },
  },
};

for (const [id, lab] of Object.entries(labs)) {
  test(`${id}: opens from the scene list, walks by keyboard with its numbers as the fixture's, in English`, async () => {
    const page = await openApp(env, "scene=classroom&lang=en");
    await page.locator(`#scene-${id}`).click();
    await page.waitForFunction(
      (scene) => window.walk?.state.scene === scene || location.search.includes(`scene=${scene}`),
      id,
    );
    await page.waitForSelector("#step-title");
    let derivations = 0;
    const titles = await walk(page, async (step) => {
      await lab.numbers(page, step);
      derivations += await checkDerivation(page, `${id} step ${step}`);
    });
    assert.deepEqual(
      titles,
      lab.en.map((t, i) => `${i + 1}. ${t}`),
    );
    assert.ok(derivations > 0, "some lines with arithmetic");
    // the state is in the URL: a reload comes back to the same step
    await page.waitForFunction(() => location.search.includes("step="));
    const search = await page.evaluate(() => location.search);
    assert.match(search, new RegExp(`scene=${id}`));
    const again = await openApp(env, search.slice(1));
    assert.equal(await again.locator("#step-title").textContent(), titles.at(-1));
    assert.deepEqual(page.errors, []);
    assert.deepEqual(again.errors, []);
    await again.close();
    await page.close();
  });

  test(`${id}: in Chinese, by keyboard, from a link`, async () => {
    const page = await openApp(env, `scene=${id}&lang=zh`);
    const titles = await walk(page);
    assert.deepEqual(
      titles,
      lab.zh.map((t, i) => `${i + 1}. ${t}`),
    );
    await page.keyboard.press("Home");
    assert.match(await counter(page), /^第 1 步/);
    assert.equal(await page.locator("html").getAttribute("lang"), "zh-CN");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test("the labs at 390 px: no sideways scroll of the page", async () => {
  for (const id of Object.keys(labs)) {
    const page = await openApp(env, `scene=${id}&lang=en&step=2`, {
      viewport: { width: 390, height: 844 },
    });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `${id}: the page is ${wide} px wide`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// M1: the KV-cache lab's steps are its sentence's five tokens; a link's X of another row count
// gave a blank page (step 3 of a 1-row X) or a page stuck on step 3 (a 3-row X).
test("kvcache: a link's X of 1 or 3 rows is not applied, says why, and every step is reachable", async () => {
  const row = "0,0,0,1,0,-1,0";
  for (const rows of [1, 3]) {
    const x = Array.from({ length: rows }, () => row).join(";");
    const page = await openApp(env, `scene=kvcache&x=${x}&lang=en&step=3`);
    const notice = await page.locator(".step .error").textContent();
    assert.match(notice, /^The link's values were not applied; the scene's own are shown:/);
    assert.match(notice, new RegExp(`X has ${rows} rows? but this lab's sentence has 5 tokens`));
    assert.equal(await page.locator("#step-title").textContent(), "3. Token 3: 图书馆");
    assert.equal((await matrixNumbers(page, "kcache")).length, 3, "the scene's own cache");
    assert.doesNotMatch(await page.evaluate(() => location.search), /[?&]x=/);
    await page.locator("h1").click();
    await page.keyboard.press("End");
    assert.equal(
      await page.locator("#step-title").textContent(),
      "6. The same as the full causal pass",
    );
    assertShown(await matrixNumbers(page, "cachedout"), fixture.kvcache.fullOutput, "cached");
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// M5: a link's X of 6 rows gave unlabelled rows (heads), a shuffle without the 6th token
// (order); one of 3 rows "X row 1 is not an array" (order).
test("heads, gqa and order: a link's X of another row count is not applied and says why, in both languages", async () => {
  const x = (n) => Array.from({ length: n }, () => "0,0,0,1,0,-1,0").join(";");
  const cases = [
    ["heads", 6, "en", 4, "h1-weights", /X has 6 rows but this lab's sentence has 5 tokens/],
    ["gqa", 6, "zh", 2, "h1-weights", /X 有 6 行，而这个实验的句子有 5 个词元/],
    ["order", 6, "en", 1, "outputShuffled", /X has 6 rows but this lab's sentence has 5 tokens/],
    ["order", 3, "zh", 1, "outputOriginal", /X 有 3 行，而这个实验的句子有 5 个词元/],
  ];
  for (const [id, rows, lang, step, matrix, said] of cases) {
    const page = await openApp(env, `scene=${id}&x=${x(rows)}&lang=${lang}&step=${step}`);
    const notice = await page.locator(".step .error").textContent();
    assert.match(notice, said, `${id}, ${rows} rows`);
    assert.equal((await matrixNumbers(page, matrix)).length, 5, `${id}: the scene's own X`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// M3: step 1 said "Click a number to edit it" but no number in the lab was editable. Now X is,
// and the hint says so; the weights stay the lab's (a click shows where they come from).
test("heads: a number of X is edited in place, as the hint says, and the projections follow", async () => {
  const page = await openApp(env, "scene=heads&lang=en&step=1");
  assert.equal(
    await page.locator(".step .hint").first().textContent(),
    "Click a number of X to edit it. Enter applies, Escape cancels.",
  );
  // X[4][6], 读's "pos cos", from −1 to 2
  await page.locator('[data-matrix="x"] button[data-i="3"][data-j="5"]').click();
  await page.locator("input.cell-edit").fill("2");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.search.includes("x="));
  await page.locator("h1").click();
  await page.keyboard.press("ArrowRight");
  // Q[4] = X[4]·W_Q = 1 × W_Q[4] + 2 × W_Q[6], by hand
  const q = await matrixNumbers(page, "q");
  assert.deepEqual(q[3], [3, 0, 4, -6.928, 0, 0, 0, 0]);
  // a weight is not an input to edit: a click picks it
  await page.keyboard.press("ArrowLeft");
  await page.locator('[data-matrix="wq"] button[data-i="0"][data-j="1"]').click();
  assert.equal(await page.locator("input.cell-edit").count(), 0);
  assert.match(await page.locator(".derivation").textContent(), /W_Q\[1\]\[2\] = 3/);
  assert.deepEqual(page.errors, []);
  await page.close();
  const zh = await openApp(env, "scene=heads&lang=zh&step=1");
  assert.equal(
    await zh.locator(".step .hint").first().textContent(),
    "点击 X 中的数字即可修改。回车确认，Esc 取消。",
  );
  await zh.close();
});

// M4: predict mode hid numbers without showing what they are made from: the KV-cache lab never
// showed W_Q, W_K, W_V, W_O and hid the rows kept from earlier steps; the order lab never
// showed the q and k that step 4 rotates.
test("predict mode: the operands of every hidden number are on the page", async () => {
  const cells = (page, id) =>
    page
      .locator(`[data-matrix="${id}"] tbody tr`)
      .evaluateAll((rows) =>
        rows.map((tr) => [...tr.querySelectorAll("button.cell")].map((b) => b.textContent)),
      );
  const kv = await openApp(env, "scene=kvcache&lang=en&step=2&predict=1");
  for (const [id, w] of [
    ["wq", fixture.inputs.wq],
    ["wk", fixture.inputs.wk2],
    ["wv", fixture.inputs.wv2],
    ["wo", fixture.inputs.wo],
  ]) {
    assert.deepEqual(await matrixNumbers(kv, id), w, id);
  }
  // 我's K row was made at step 1 and is kept: X[1]·W_K = W_K[1] + W_K[6], by hand
  const k = await cells(kv, "kcache");
  assert.deepEqual(k[0].map(Number), [0.5, 0, 0, 0]);
  assert.deepEqual(k[1], ["?", "?", "?", "?"], "the new row is to be predicted");
  assert.ok((await cells(kv, "vcache"))[0].every((c) => c !== "?"));
  assert.ok((await cells(kv, "q"))[0].every((c) => c === "?"));
  assert.deepEqual(kv.errors, []);
  await kv.close();
  // order step 4: head 1's q of 我 and k of 书 before rotation, X[1]·W_Q and X[5]·W_K (the
  // fixture's NumPy values)
  const order = await openApp(env, "scene=order&lang=en&step=4&predict=1");
  assert.deepEqual(await matrixNumbers(order, "q"), [[0, 3]]);
  assert.deepEqual(await matrixNumbers(order, "k"), [[1, 0]]);
  assert.ok((await cells(order, "qAtM")).flat().every((c) => c === "?"));
  assert.deepEqual(order.errors, []);
  await order.close();
});

// M6: the heads lab named the positions lab by a title that is not its scene-list name, as text.
test("heads: the note links to the word-order lab by its scene-list name, from the keyboard", async () => {
  for (const lang of ["en", "zh"]) {
    const page = await openApp(env, `scene=heads&lang=${lang}&step=1`);
    const link = page.locator(".step .note a");
    assert.equal(await link.textContent(), await page.locator("#scene-order").textContent());
    assert.match(await link.getAttribute("href"), new RegExp(`^\\?scene=order&lang=${lang}$`));
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.search.includes("scene=order"));
    const title = await page.locator("#step-title").textContent();
    assert.equal(title, lang === "en" ? "1. Shuffled, without positions" : "1. 没有位置时打乱顺序");
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// M15: at 390 px the row names "m = 0" of q_m·k_n wrapped onto three lines.
test("order at 390 px: the position names of step 4 stay on one line", async () => {
  const page = await openApp(env, "scene=order&lang=en&step=4", {
    viewport: { width: 390, height: 844 },
  });
  const lines = await page.locator('[data-matrix="scores"] th').evaluateAll((ths) =>
    ths
      .filter((th) => th.textContent.trim())
      .map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return [th.textContent, new Set([...range.getClientRects()].map((r) => r.top)).size];
      }),
  );
  assert.equal(lines.length, 10);
  for (const [text, n] of lines) assert.equal(n, 1, `"${text}" is on ${n} lines`);
  // scrolled sideways, the table keeps its row names in view
  const [label, box] = await page.locator('[data-matrix="scores"] .scroll').evaluate((s) => {
    s.scrollLeft = s.scrollWidth;
    const th = s.querySelector("th[scope=row]").getBoundingClientRect();
    return [th.left, s.getBoundingClientRect().left];
  });
  assert.ok(
    Math.abs(label - box) < 1,
    `the row names moved to ${label} px, the table starts at ${box} px`,
  );
  await page.close();
});

// The sinusoidal step: PE at a quarter, its note's numbers the fixture's (NumPy), in both
// languages; the shuffled sentence's heatmaps drawn in the original order, so that a square
// is the same pair of tokens in both.
test("order, sinusoidal step: the note's numbers, and the shuffled heatmaps in the original order", async () => {
  const f = fixture.order;
  // at 2 decimals; an exact number without its trailing zeros, as the page writes it (0.2)
  const two = (x) =>
    Math.abs(x - Number(x.toFixed(2))) < 1e-12 ? String(Number(x.toFixed(2))) : x.toFixed(2);
  const back = [0, 1, 2, 3, 4].map((i) => [4, 3, 0, 2, 1].indexOf(i)); // data.js's order
  for (const lang of ["en", "zh"]) {
    const page = await openApp(env, `scene=order&lang=${lang}&step=2`);
    assertShown(await matrixNumbers(page, "xPlusPe"), f.xPlusPe, `${lang} X + ¼·PE`);
    const note = await page.locator("[data-pe-note]").textContent();
    // the note leads the step, before its tables, where the step's text points to it
    const [noteTop, tableTop] = await page.evaluate(() => [
      document.querySelector("[data-pe-note]").getBoundingClientRect().top,
      document.querySelector("[data-matrix]").getBoundingClientRect().top,
    ]);
    assert.ok(noteTop < tableTop, `the note at ${noteTop} px, the first table at ${tableTop} px`);
    // the inside labs' source is the sentence, not the article's content
    assert.match(
      await page.locator(".about-wide .source").textContent(),
      lang === "en"
        ? /the sentence 我在图书馆读书 is shortened from/
        : /“我在图书馆读书”这句话缩短自/,
    );
    const { full, quarter, none } = f.bookOnItself;
    // the scale twice, 书 at full size, the scale again, 书 at a quarter, 书 without positions
    const numbers = note.match(/\d+\.\d+/g);
    assert.deepEqual(
      numbers,
      ["0.25", "0.25", two(full), "0.25", two(quarter), two(none)],
      `${lang}: ${note}`,
    );
    assert.match(note, lang === "en" ? /at 0\.25 of its size/ : /按 0\.25 倍/);
    const maps = page.locator(".head-heatmaps");
    assert.equal(await maps.count(), 2);
    const heads = await maps
      .nth(1)
      .locator("table")
      .evaluateAll((tables) =>
        tables.map((t) => ({
          rows: [...t.querySelectorAll("th[scope=row]")].map((th) => th.textContent),
          cells: [...t.querySelectorAll("tr")]
            .slice(1)
            .map((tr) => [...tr.querySelectorAll("td")].map((td) => Number(td.textContent))),
        })),
      );
    const inOrder = await maps
      .nth(0)
      .locator("table")
      .first()
      .evaluate((t) => [...t.querySelectorAll("th[scope=row]")].map((th) => th.textContent));
    assert.equal(heads.length, 4, "four heads");
    assert.equal(heads[0].cells.flat().length, 25);
    assert.deepEqual(heads[0].rows, inOrder, "the same row order as the sentence in order");
    const expected = back.map((r) => back.map((c) => f.sinusoidal.weights1B[r][c]));
    heads[0].cells.forEach((row, i) =>
      row.forEach((w, j) =>
        assert.ok(
          Math.abs(w - expected[i][j]) <= 0.005 + 1e-12,
          `${lang} head 1 [${i}][${j}]: ${w}`,
        ),
      ),
    );
    // A weight starts from its score, q·k, which no table of this step shows
    await page.locator('[data-matrix="weightsShuffled"] button[data-i="0"][data-j="0"]').click();
    const weightLines = await page.locator(".derivation code").allTextContents();
    assert.match(weightLines[1], /^scores\[1\]\[1\] = Q\[1\]·K\[1\] = /, weightLines.join(" | "));
    assert.ok(checkLine(weightLines[1], 4).holds, weightLines[1]);
    // A shuffled output's line says "changed" exactly where its number differs, as shown, from
    // the same token's in order.
    const lines = await page.evaluate(() => {
      // each cell found again after the last click, which may have drawn the step again
      const cell = (i, j) =>
        document.querySelector(
          `[data-matrix="outputShuffled"] button[data-i="${i}"][data-j="${j}"]`,
        );
      const out = [];
      for (let i = 0; cell(i, 0); i++) {
        for (let j = 0; cell(i, j); j++) {
          // as a pointer does: the focus moves to the cell, then it is clicked
          cell(i, j).focus();
          cell(i, j).click();
          const said = [...document.querySelectorAll(".derivation code")].at(-1).textContent;
          out.push([cell(i, j).textContent, said]);
        }
      }
      return out;
    });
    assert.equal(lines.length, 35);
    for (const [shown, said] of lines) {
      const there =
        said.match(/(?:there its output is|那里它的输出是) (−?[\d.]+)/)?.[1] ?? assert.fail(said);
      const changed = /position changed it$|位置改变了它$/.test(said);
      assert.equal(changed, there !== shown, `${shown}: ${said}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// Issue 39 §3: the words promised a counter beside this step's; it was a panel titled otherwise,
// five phone screens below the step.
test("kvcache: the counter the step's words name is right after them, this step beside a full recompute", async () => {
  for (const [lang, viewport, word] of [
    ["zh", { width: 390, height: 844 }, "计数器"],
    ["en", { width: 1440, height: 900 }, "counter"],
  ]) {
    const page = await openApp(env, `scene=kvcache&lang=${lang}&step=3`, { viewport });
    await page.locator("figure.counter").waitFor();
    const where = await page.evaluate(() => {
      const counter = document.querySelector("figure.counter");
      const step = document.querySelector("section.step");
      const text = step.querySelector(".step-text");
      const first = step.querySelector(".matrices");
      const [a, b] = [...counter.querySelectorAll(".counter-columns > *")].map((c) =>
        c.getBoundingClientRect(),
      );
      return {
        inStep: step.contains(counter),
        beforeTables: !!(counter.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING),
        afterText: !!(text.compareDocumentPosition(counter) & Node.DOCUMENT_POSITION_FOLLOWING),
        caption: counter.querySelector("figcaption").textContent,
        text: text.textContent,
        sideBySide: Math.abs(a.top - b.top) < 1 && b.left > a.right,
      };
    });
    assert.ok(
      where.inStep && where.beforeTables && where.afterText,
      `${lang}: ${JSON.stringify(where)}`,
    );
    const named = lang === "zh" ? /紧接着的计数器/ : /The counter just below/;
    assert.match(where.text, named);
    assert.ok(where.caption.toLowerCase().includes(word), where.caption);
    // side by side where the column is wide; one above the other on a phone
    assert.equal(where.sideBySide, lang === "en", `${lang}: side by side`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
