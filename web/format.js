// format.js: numbers as text, and text as numbers. Formatting only: no arithmetic on values.

/** x rounded for display to at most `digits` decimals, trailing zeros dropped; −∞ for a mask. */
export function fmt(x, digits = 4) {
  if (x === -Infinity) return "−∞";
  if (x === Infinity) return "∞";
  let text = x.toFixed(digits);
  if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  if (/^-0$/.test(text)) text = "0";
  return text.replace("-", "−");
}

/** A factor inside a product: negative numbers get parentheses, 0.5×(−0.3). */
export function factor(x, digits) {
  const text = fmt(x, digits);
  return text.startsWith("−") ? `(${text})` : text;
}

/** Parses what a learner typed: accepts −, a comma as the decimal mark, spaces around. */
export function parseNumber(text) {
  const clean = String(text).trim().replace(/−/g, "-").replace(",", ".");
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
