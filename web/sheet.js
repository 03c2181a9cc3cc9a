// sheet.js: a scene as a spreadsheet, as data. A book is sheets of blocks (a matrix with its
// name, row and column labels, laid out as the page shows it); an input block's cells are
// numbers, every other cell a formula over the cells it comes from, with the core's number as
// its cached value. Pure: no DOM, no core, no file format; web/sheet-xlsx.js writes a book
// with exceljs, and the labs say what their blocks are (web/sheet-scene.js for the walkthroughs).
//
// The formulas use only what LibreOffice, WPS, Excel and Google Sheets share: + − × ÷ ^, EXP,
// LN, SQRT, SIN, COS, MAX, SUM, COUNT, ROWS, COLUMNS, ISNUMBER and IF, cell by cell (no array
// formula, no dynamic array, no name), so that every cell reads as the page writes its arithmetic.

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(c) {
  let name = "";
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/** The A1 name of row r, column c (both from 0). */
export const a1 = (r, c) => `${columnName(c)}${r + 1}`;

/** What a masked cell holds, as the page shows it: text, which MAX, SUM and COUNT skip. */
export const minusInfinity = "−∞";

// A sheet's name as a reference: always quoted, a quote doubled.
const sheetRef = (name) => `'${name.replaceAll("'", "''")}'!`;

// Where the first band's blocks start: under the sheet's title, its sentence and a blank row,
// each block's name, then its column labels, then its numbers.
const firstRow = 5;
// The note's one column, in characters: its lines wrap inside it.
const noteWidth = 100;

/**
 * A book from its spec: { sheets: [{ name, title, text?, blocks | bands }], active? (a sheet's
 * index),
 * note?: { name, lines } (a sheet before the others), digits? (the decimals shown) }. A block
 * is { key, label, rowLabels, colLabels, data, input?, formula?(i, j, ref) }: `data` is the
 * core's numbers (−Infinity for a masked cell), `formula` gives cell (i, j)'s formula (without
 * "=") through `ref`, and a block with none (or `input`) is numbers to edit. A sheet's blocks
 * stand side by side; its `bands`, lists of blocks, one under another. A key seen before is the
 * same block again: its cells refer to where it was first laid out. ref(key, i, j) is that
 * cell's name, ref.row(key, i), ref.col(key, j) and ref.block(key) a row's, a column's or the
 * whole block's range, each with its sheet where it lies on another.
 *
 * → { sheets: [{ name, cells: [{ r, c, kind, value, formula?, key?, i?, j? }], widths }],
 * active, digits }, where kind is "title", "text", "note", "label", "head", "input" or
 * "derived", a derived cell's value is its cached number (or the text −∞), and a block's cell
 * names its block and place (key, i, j).
 */
export function book(spec) {
  const home = new Map(); // key → { sheet, r, c, rows, cols }
  const laid = spec.sheets.map((sheet, s) => {
    let r = firstRow;
    return (sheet.bands ?? [sheet.blocks]).flatMap((band) => {
      let c = 0;
      const placed = band.map((block) => {
        const at = { sheet: s, r, c: c + 1 };
        if (!home.has(block.key)) {
          home.set(block.key, { ...at, rows: block.data.length, cols: block.data[0].length });
        }
        c += block.data[0].length + 2;
        return { block, at };
      });
      // the next band: under the tallest block, a blank row, its names and its column labels
      r += Math.max(...band.map((block) => block.data.length)) + 3;
      return placed;
    });
  });
  const names = spec.sheets.map((sheet) => sheet.name);
  const refFrom = (s) => {
    const where = (key) => {
      const h = home.get(key);
      if (!h) throw new Error(`sheet: no block "${key}" to refer to`);
      return { h, prefix: h.sheet === s ? "" : sheetRef(names[h.sheet]) };
    };
    const ref = (key, i, j) => {
      const { h, prefix } = where(key);
      if (i >= h.rows || j >= h.cols) {
        throw new Error(`sheet: ${key}[${i + 1}][${j + 1}] is outside its ${h.rows}×${h.cols}`);
      }
      return prefix + a1(h.r + i, h.c + j);
    };
    ref.row = (key, i) => {
      const { h, prefix } = where(key);
      return `${prefix}${a1(h.r + i, h.c)}:${a1(h.r + i, h.c + h.cols - 1)}`;
    };
    ref.block = (key) => {
      const { h, prefix } = where(key);
      return `${prefix}${a1(h.r, h.c)}:${a1(h.r + h.rows - 1, h.c + h.cols - 1)}`;
    };
    ref.col = (key, j) => {
      const { h, prefix } = where(key);
      return `${prefix}${a1(h.r, h.c + j)}:${a1(h.r + h.rows - 1, h.c + j)}`;
    };
    return ref;
  };

  const sheets = spec.sheets.map((sheet, s) => {
    const ref = refFrom(s);
    const cells = [{ r: 0, c: 0, kind: "title", value: sheet.title }];
    if (sheet.text) cells.push({ r: 1, c: 0, kind: "text", value: sheet.text });
    const widths = [];
    const widen = (c, text) => (widths[c] = Math.max(widths[c] ?? 0, String(text).length));
    for (const { block, at } of laid[s]) {
      const h = home.get(block.key);
      const copy = h.sheet !== s || h.r !== at.r || h.c !== at.c;
      cells.push({ r: at.r - 2, c: at.c - 1, kind: "label", value: block.label });
      block.colLabels.forEach((text, j) => {
        cells.push({ r: at.r - 1, c: at.c + j, kind: "head", value: text });
        widen(at.c + j, text);
      });
      block.data.forEach((row, i) => {
        cells.push({ r: at.r + i, c: at.c - 1, kind: "head", value: block.rowLabels[i] ?? "" });
        widen(at.c - 1, block.rowLabels[i] ?? "");
        row.forEach((x, j) => {
          const value = x === -Infinity ? minusInfinity : x;
          const cell = { r: at.r + i, c: at.c + j, value, key: block.key, i, j };
          if (copy) cells.push({ ...cell, kind: "derived", formula: ref(block.key, i, j) });
          else if (block.input || !block.formula) cells.push({ ...cell, kind: "input" });
          else cells.push({ ...cell, kind: "derived", formula: block.formula(i, j, ref) });
        });
      });
    }
    return { name: sheet.name, cells, widths };
  });
  if (spec.note) {
    const cells = spec.note.lines.map((value, r) => ({
      r,
      c: 0,
      kind: r ? "note" : "title",
      value,
    }));
    sheets.unshift({ name: spec.note.name, cells, widths: [noteWidth] });
  }
  const active = (spec.active ?? 0) + (spec.note ? 1 : 0);
  return { sheets, active, digits: spec.digits ?? 4 };
}

/** Σ_c a(c)·b(c), written out: "B5*F5+C5*F6". */
export const sumOfProducts = (n, a, b) =>
  Array.from({ length: n }, (_, c) => `${a(c)}*${b(c)}`).join("+");

/** The blocks of one head in order, from its inputs to its output: headRules's names. */
export const headKeys = [
  "q",
  "k",
  "v",
  "scale",
  "scores",
  "scaled",
  "rowMax",
  "exp",
  "rowSum",
  "weights",
  "output",
];

/** Blocks named by their own keys, `prefix` before each: (["exp"], "whole:") → { exp: "whole:exp" }. */
export const ownNames = (keys, prefix = "") => Object.fromEntries(keys.map((k) => [k, prefix + k]));

/**
 * The formulas of one attention head, by the names of its blocks (`names`: q, k, v, scale, mask,
 * scores, scaled, masked, rowMax, exp, rowSum, weights, output; those it has: without scores,
 * `scaled` names the logits as given, and without v there is no output). Its query and key
 * rows are d columns of q and k from qAt and kAt, its values columns of v from vAt; its keys
 * are nk. A masked cell is the text −∞: MAX, SUM and COUNT skip it, exp is
 * IF(ISNUMBER(x), EXP(x − max), 0), a row with no key to see has the max −∞, Σ 0 and weights
 * IF(Σ > 0, e/Σ, 0), so 0 and never a division by zero.
 */
export function headRules(names, { d, nk, qAt = 0, kAt = 0, vAt = 0 }) {
  const n = names;
  const masked = Boolean(n.masked);
  const logits = masked ? n.masked : n.scaled;
  const rules = {};
  if (n.scores && n.q && n.k) {
    rules[n.scores] = (i, j, r) =>
      sumOfProducts(
        d,
        (c) => r(n.q, i, qAt + c),
        (c) => r(n.k, j, kAt + c),
      );
  }
  if (n.scores && n.scale)
    rules[n.scaled] = (i, j, r) => `${r(n.scores, i, j)}*${r(n.scale, 0, 0)}`;
  if (masked) {
    rules[n.masked] = (i, j, r) =>
      `IF(${r(n.mask, i, j)}=0,"${minusInfinity}",${r(n.scaled, i, j)})`;
  }
  rules[n.rowMax] = (i, j, r) => {
    const row = r.row(logits, i);
    return masked ? `IF(COUNT(${row})=0,"${minusInfinity}",MAX(${row}))` : `MAX(${row})`;
  };
  rules[n.exp] = (i, j, r) => {
    const x = r(logits, i, j);
    const e = `EXP(${x}-${r(n.rowMax, i, 0)})`;
    return masked ? `IF(ISNUMBER(${x}),${e},0)` : e;
  };
  rules[n.rowSum] = (i, j, r) => `SUM(${r.row(n.exp, i)})`;
  rules[n.weights] = (i, j, r) => {
    const [e, s] = [r(n.exp, i, j), r(n.rowSum, i, 0)];
    return masked ? `IF(${s}>0,${e}/${s},0)` : `${e}/${s}`;
  };
  if (n.output && n.v) {
    rules[n.output] = (i, j, r) =>
      sumOfProducts(
        nk,
        (c) => r(n.weights, i, c),
        (c) => r(n.v, c, vAt + j),
      );
  }
  return rules;
}

/** X·W, cell (i, j), for a block of key `x` times a block of key `w` (d rows). */
export const productRule = (x, w, d) => (i, j, r) =>
  sumOfProducts(
    d,
    (c) => r(x, i, c),
    (c) => r(w, c, j),
  );
