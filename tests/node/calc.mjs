// calc.mjs: spreadsheets opened, edited and recalculated by the real LibreOffice Calc
// (tests/node/calc.py, through LibreOffice's own UNO bridge, on Debian's /usr/bin/python3), and a
// book of web/sheet.js written as the page writes it. Only the tests use it.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { xlsxBytes } from "../../web/sheet-xlsx.js";

export { ExcelJS };

const driver = fileURLToPath(new URL("calc.py", import.meta.url));

/**
 * Runs `files` ([{ path, recalculate?, set?: [{ sheet, cell, value }], read?: [sheet] }]) in one
 * LibreOffice: → { files: [{ sheets: { name: rows of cells } }], version }.
 */
export function calc(files) {
  const out = execFileSync("/usr/bin/python3", [driver], {
    input: JSON.stringify({ files }),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 300_000,
  });
  return JSON.parse(out);
}

/** The .xlsx bytes of a book, as the page's download writes them. */
export const bytesOf = (book) => xlsxBytes(ExcelJS, book);

/** The A1 name of a book's cell (r and c from 0). */
export const nameOf = (cell) => {
  let name = "";
  for (let n = cell.c + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return `${name}${cell.r + 1}`;
};

// Every block cell of `book` as Calc read it, against the truth: the mismatches.
export function mismatches(book, read, truth) {
  const wrong = [];
  let checked = 0;
  for (const sheet of book.sheets) {
    const rows = read.sheets[sheet.name];
    for (const cell of sheet.cells) {
      if (cell.key === undefined) continue;
      const want = truth.cell(cell.key, cell.i, cell.j);
      const got = rows[cell.r]?.[cell.c];
      checked++;
      // Infinity or NaN where the page's own JavaScript overflows: an error in the spreadsheet,
      // which Calc reads as no value
      const ok =
        !Number.isFinite(want) && want !== -Infinity
          ? got === null
          : want === -Infinity
            ? got === "−∞"
            : typeof got === "number" && Math.abs(got - want) <= 1e-12;
      if (!ok)
        wrong.push(
          `${sheet.name}!${nameOf(cell)} ${cell.key}[${cell.i + 1}][${cell.j + 1}]: ${got} ≠ ${want}`,
        );
    }
  }
  assert.ok(checked > 20, `only ${checked} cells checked`);
  return wrong;
}

// Where an input cell is laid out (the yellow one, not a copy): its sheet and name.
export function inputCell(book, key, i, j) {
  for (const sheet of book.sheets) {
    const cell = sheet.cells.find(
      (c) => c.kind === "input" && c.key === key && c.i === i && c.j === j,
    );
    if (cell) return { sheet: sheet.name, cell: nameOf(cell) };
  }
  throw new Error(`no input ${key}[${i}][${j}]`);
}

// The same book with every cached number wrong: 999 where a derived cell has a number.
export const stale = (book) => ({
  ...book,
  sheets: book.sheets.map((s) => ({
    ...s,
    cells: s.cells.map((c) => (c.formula ? { ...c, value: 999 } : c)),
  })),
});

/**
 * The functions the four programs (LibreOffice, WPS, Excel, Google Sheets) share that the books
 * may use, and those `books` use: read from every formula, quoted text and sheet names left out.
 */
export const sharedFunctions = [
  ...["EXP", "LN", "SQRT", "SIN", "COS", "MAX", "SUM", "COUNT"],
  ...["ROWS", "COLUMNS", "ISNUMBER", "IF"],
];
export function functionsUsed(books) {
  const used = new Set();
  for (const book of books) {
    for (const sheet of book.sheets) {
      for (const cell of sheet.cells) {
        if (!cell.formula) continue;
        const text = cell.formula.replace(/"[^"]*"/g, "").replace(/'[^']*'!/g, "");
        for (const [, name] of text.matchAll(/([A-Z]+)\(/g)) used.add(name);
      }
    }
  }
  return used;
}
