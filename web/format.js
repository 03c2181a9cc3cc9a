// format.js: numbers as text, and text as numbers. Formatting only: no arithmetic on values.
//
// A number that is rounded for display keeps all its decimals (0.0820, not 0.082), so that a
// trailing zero says "rounded here"; a number that is exact at that precision drops them (0.26,
// 10). Rows and columns count from 1 in every name the page writes: scores[2][1].

/**
 * Whether x is exactly what it shows at `digits` decimals (0.26 at 4 is; 1/3 is not), to the
 * last bits of a double, relative to x itself: a weight of 1e-18 is not 0, it rounds to 0.0000.
 */
export function exactAt(x, digits) {
  if (!Number.isFinite(x)) return true;
  return Math.abs(x - Number(x.toFixed(digits))) <= 1e-15 * Math.abs(x);
}

// The sign as a minus sign, −0 as 0, infinities as symbols.
function tidy(x, text) {
  if (x === -Infinity) return "−∞";
  if (x === Infinity) return "∞";
  return (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text).replace("-", "−");
}

/** x for display at `digits` decimals: all of them when rounded, fewer when exact; −∞ for a mask. */
export function fmt(x, digits = 4) {
  if (!Number.isFinite(x)) return tidy(x, "");
  let text = x.toFixed(digits);
  if (exactAt(x, digits) && text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  return tidy(x, text);
}

/** How many decimals fmt(x, digits) shows. */
export function decimalsOf(x, digits) {
  const text = fmt(x, digits);
  return text.includes(".") ? text.length - text.indexOf(".") - 1 : 0;
}

/** A column of numbers at one number of decimals, the most any of them needs, so they line up. */
export function fmtColumn(values, digits) {
  const decimals = Math.max(0, ...values.map((x) => decimalsOf(x, digits)));
  return values.map((x) => (Number.isFinite(x) ? tidy(x, x.toFixed(decimals)) : tidy(x, "")));
}

/** A matrix's columns as text, each column lined up by fmtColumn: columns[j][i] is cell (i, j). */
export function fmtColumns(rows, digits) {
  return rows[0].map((_, j) =>
    fmtColumn(
      rows.map((row) => row[j]),
      digits,
    ),
  );
}

/** A factor inside a product: negative numbers get parentheses, 0.5×(−0.3). */
export function factor(x, digits) {
  const text = fmt(x, digits);
  return text.startsWith("−") ? `(${text})` : text;
}

/** A row's name, 1-based: row(“Q”, 0) is Q[1]. */
export const rowRef = (name, i) => `${name}[${i + 1}]`;

/** A cell's name, 1-based: cellRef(“scores”, 1, 0) is scores[2][1]. */
export const cellRef = (name, i, j) => `${name}[${i + 1}][${j + 1}]`;

/**
 * Parses what a learner typed: accepts −, a comma as the decimal mark, spaces around, and −∞
 * written as −∞, -inf or -Infinity (the masked step's answer).
 */
export function parseNumber(text) {
  const clean = String(text).trim().replace(/−/g, "-").replace(",", ".");
  const infinity = clean.match(/^([-+]?)(∞|inf|infinity)$/i);
  if (infinity) return infinity[1] === "-" ? -Infinity : Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(clean)) return undefined;
  return Number(clean);
}

/** Matrix ⇄ URL text: rows split by ";" and numbers by ",". */
export function matrixToText(m) {
  return m.map((row) => row.join(",")).join(";");
}

export function matrixFromText(text) {
  const rows = String(text)
    .split(";")
    .map((row) => row.split(",").map(parseNumber));
  return rows.every((row) => row.every((x) => x !== undefined)) ? rows : undefined;
}
