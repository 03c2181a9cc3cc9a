// ui/sheet-download.js: a book (web/sheet.js) as an .xlsx file the browser downloads. It is the
// only module that imports exceljs, lazily, when the learner asks for a sheet: exceljs is a chunk
// of its own, never in the first view.
import { xlsxBytes } from "../sheet-xlsx.js";

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Writes `book` and hands it to the browser as the download `name`. */
export async function downloadSheet(book, name) {
  const { default: ExcelJS } = await import("exceljs");
  const bytes = await xlsxBytes(ExcelJS, book);
  const url = URL.createObjectURL(new Blob([bytes], { type: xlsxType }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // the download has started from the address; it is freed a minute later
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
