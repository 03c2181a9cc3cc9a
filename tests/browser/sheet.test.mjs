// sheet.test.mjs: "Download as a spreadsheet", as a learner uses it. On the cup scene's softmax
// step the learner presses the button from the keyboard and gets an .xlsx, which opens on that
// step; the real LibreOffice Calc (tests/node/calc.py) opens it, the learner types a new number
// into Q there, and the weights and the output Calc recomputes, at the page's decimals, are what
// the page shows after the same edit. exceljs loads only when the button is pressed. On a phone,
// in Chinese, the button is 44 px tall and the file's words are Chinese.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, openApp } from "./browser.mjs";
import { calc, ExcelJS } from "../node/calc.mjs";
import { fmtColumns } from "../../web/format.js";

let env;
const dir = mkdtempSync(join(tmpdir(), "attention-sheet-browser-"));
before(async () => (env = await start()));
after(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

// A matrix as the page shows it: its cells' text, row by row.
const shown = (page, id) =>
  page
    .locator(`[data-matrix="${id}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll("button.cell")].map((c) => c.textContent)),
    );

// A block of a sheet as Calc read it: the block named `label` (in the names' row, the 4th),
// its numbers from the 6th row, n×m.
function block(rows, label, n, m) {
  const c = rows[3].indexOf(label);
  assert.ok(c >= 0, `no block ${label} in ${JSON.stringify(rows[3])}`);
  return rows.slice(5, 5 + n).map((row) => row.slice(c + 1, c + 1 + m));
}

// The button pressed from the keyboard; the download saved; what the page said.
async function download(page, name) {
  await page.locator("#export-sheet").focus();
  const [file] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  const path = join(dir, name);
  await file.saveAs(path);
  await page.locator(".export .status", { hasText: file.suggestedFilename() }).waitFor();
  return { path, suggested: file.suggestedFilename() };
}

test("a step downloaded, opened in Calc, Q edited there: the weights and output the page shows for the same edit", async () => {
  const page = await openApp(env, "scene=cup&lang=en&step=4");
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  const { path, suggested } = await download(page, "cup.xlsx");
  assert.equal(suggested, "cup-4-weights.xlsx");
  assert.ok(
    fetched.some((p) => /\/chunks\/exceljs[^/]*\.js$/.test(p)),
    `exceljs is fetched when asked: ${fetched}`,
  );
  assert.match(
    await page.locator(".export .status").textContent(),
    /cup-4-weights\.xlsx downloaded/,
  );

  // it opens on the step the learner was on
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  assert.equal(wb.worksheets[wb.views[0].activeTab].name, "4 Softmax");

  // the same edit on the page: Q[2][2] (the voluntary cue's "readable") from 2 to 0.5
  const edit = await openApp(env, "scene=cup&lang=en&step=1");
  await edit.locator('[data-matrix="q"] button[data-i="1"][data-j="1"]').click();
  await edit.keyboard.type("0.5");
  await edit.keyboard.press("Enter");
  const url = new URL(edit.url());
  url.searchParams.set("step", "4");
  const softmax = await openApp(env, url.search.slice(1));
  const weights = await shown(softmax, "weights");
  url.searchParams.set("step", "5");
  const sum = await openApp(env, url.search.slice(1));
  const output = await shown(sum, "output");

  // and in Calc, typed into the downloaded file's Q on its inputs sheet (Q's name in the 4th
  // row, its first number two rows down and one column right)
  const names = wb.getWorksheet("1 Inputs").getRow(4).values;
  const q = names.indexOf("Q");
  const cell = wb.getWorksheet("1 Inputs").getCell(7, q + 2);
  assert.equal(cell.value, 2, "Q[2][2] is 2 before the edit");
  const set = [{ sheet: "1 Inputs", cell: cell.address, value: 0.5 }];
  const read = calc([{ path, set }]).files[0].sheets;
  const calcWeights = block(read["4 Softmax"], "weights", 2, 5);
  const calcOutput = block(read["5 Weighted sum"], "output", 2, 4);
  const asShown = (m) => {
    const columns = fmtColumns(m, 4);
    return m.map((row, i) => row.map((_, j) => columns[j][i]));
  };
  assert.deepEqual(asShown(calcWeights), weights);
  assert.deepEqual(asShown(calcOutput), output);
  // the edit changed the voluntary cue's weights (the unedited row stays)
  const before = await shown(page, "weights");
  assert.deepEqual(weights[0], before[0]);
  assert.notDeepEqual(weights[1], before[1]);
  assert.deepEqual(page.errors, []);
  for (const p of [page, edit, softmax, sum]) await p.close();
});

test("on a phone, in Chinese: the button is 44 px tall, and the file's sheets and note are in Chinese", async () => {
  const page = await openApp(env, "scene=book&lang=zh&step=5&causal=1", {
    viewport: { width: 390, height: 844 },
  });
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  const button = page.locator("#export-sheet");
  assert.equal(await button.textContent(), "下载为电子表格（.xlsx）");
  const box = await button.boundingBox();
  assert.ok(box.height >= 44 && box.width <= 390, JSON.stringify(box));
  assert.ok(!fetched.some((p) => /exceljs/.test(p)), "exceljs is not fetched before the press");
  const { path, suggested } = await download(page, "book.xlsx");
  assert.equal(suggested, "book-5-masked.xlsx");
  assert.match(await page.locator(".export .status").textContent(), /^已下载 book-5-masked\.xlsx/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  assert.deepEqual(
    wb.worksheets.map((s) => s.name),
    [
      "说明",
      "1 输入",
      "2 线性投影",
      "3 注意力分数",
      "4 缩放",
      "5 掩码",
      "6 Softmax 归一化",
      "7 加权求和",
      "8 结果",
    ],
  );
  assert.equal(wb.worksheets[wb.views[0].activeTab].name, "5 掩码");
  const note = wb.getWorksheet("说明").getColumn(1).values.filter(Boolean);
  assert.match(note[0], /^手算注意力：在“我昨天在图书馆读了一本很有趣的书”中/);
  assert.ok(note.some((line) => line.startsWith("试一试：在工作表“1 输入”里改 X 的一个数")));
  assert.ok(note.some((line) => line.includes("scene=book") && line.includes("causal=1")));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a lab's step downloads too: the heads lab in Chinese, its sheets its steps", async () => {
  const page = await openApp(env, "scene=heads&lang=zh&step=4");
  await page.locator("#export-sheet").waitFor();
  const { path, suggested } = await download(page, "heads.xlsx");
  assert.equal(suggested, "heads-4-headWeights.xlsx");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const names = wb.worksheets.map((s) => s.name);
  assert.equal(names.length, 7, names.join());
  assert.equal(names[0], "说明");
  assert.equal(wb.worksheets[wb.views[0].activeTab].name, names[4]);
  // the opened sheet: head 1's softmax written out before its weights, as formulas
  const sheet = wb.worksheets[wb.views[0].activeTab];
  const formulas = [];
  sheet.eachRow((row) => row.eachCell((cell) => cell.formula && formulas.push(cell.formula)));
  assert.ok(formulas.some((f) => /^EXP\(/.test(f)) && formulas.some((f) => /^SUM\(/.test(f)));
  assert.deepEqual(page.errors, []);
  await page.close();
});
