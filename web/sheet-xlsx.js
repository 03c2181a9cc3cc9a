// sheet-xlsx.js: a book of web/sheet.js as an .xlsx file, written by exceljs, which the caller
// hands in (the page imports it lazily, in its own chunk, when the learner asks for a sheet;
// the tests import the package's Node build). Formats only: the cells, their formulas and
// cached numbers are the book's. The file asks to be calculated on load (fullCalcOnLoad), so
// that a program that trusts no cached number computes every formula itself.

// Inputs are yellow, as a spreadsheet marks what to change; names bold; sentences grey.
const yellow = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFFF2CC" } };
const styles = {
  title: (c) => (c.font = { bold: true, size: 14 }),
  text: (c) => (c.font = { color: { argb: "FF555555" } }),
  note: (c) => (c.alignment = { wrapText: true, vertical: "top" }),
  label: (c) => (c.font = { bold: true }),
  head: (c) => {
    c.font = { bold: true, color: { argb: "FF444444" } };
    c.alignment = { horizontal: "center" };
  },
  input: (c) => (c.fill = yellow),
  derived: () => {},
};

/** An exceljs workbook of `book`; `ExcelJS` is the exceljs module. */
export function workbookOf(ExcelJS, book) {
  const wb = new ExcelJS.Workbook();
  wb.creator = "attention-by-hand";
  wb.calcProperties.fullCalcOnLoad = true;
  wb.views = [{ x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab: book.active }];
  const shown = `0.${"0".repeat(book.digits)}`;
  book.sheets.forEach((sheet) => {
    const ws = wb.addWorksheet(sheet.name);
    for (const cell of sheet.cells) {
      const c = ws.getCell(cell.r + 1, cell.c + 1);
      c.value =
        cell.formula === undefined ? cell.value : { formula: cell.formula, result: cell.value };
      styles[cell.kind](c);
      if (cell.kind === "derived") {
        if (typeof cell.value === "number") c.numFmt = shown;
        c.alignment = { horizontal: "right" };
      }
    }
    const note = sheet.cells.some((cell) => cell.kind === "note");
    sheet.widths.forEach((n, c) => {
      // a label widens its column up to 24 characters; the note's column is as wide as it asks
      if (n !== undefined)
        ws.getColumn(c + 1).width = note ? n : Math.min(24, Math.max(book.digits + 5, n + 2));
    });
  });
  return wb;
}

/** The .xlsx file's bytes. */
export async function xlsxBytes(ExcelJS, book) {
  return new Uint8Array(await workbookOf(ExcelJS, book).xlsx.writeBuffer());
}
