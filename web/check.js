// check.js: "check my numbers". A learner's typed value against the core's value at a chosen
// number of decimals, and the first decimal that is wrong.
import { parseNumber, fmt } from "./format.js";

/**
 * Returns { status: 'right' | 'wrong' | 'invalid' | 'empty', expected, wrongAt }.
 * `expected` is the core's value written to `decimals` places; `wrongAt` is the index, in the
 * typed text, of the first character that differs from it (for highlighting). `slack` is how
 * far an answer worked out from the rounded numbers on screen may be from the core's value
 * (steps.js's slack()); such an answer is right.
 */
export function checkValue(typed, value, decimals, slack = 0) {
  const text = String(typed).trim();
  const expected = Number.isFinite(value) ? value.toFixed(decimals) : fmt(value);
  if (text === "") return { status: "empty", expected, wrongAt: -1 };
  const number = parseNumber(text);
  if (number === undefined) return { status: "invalid", expected, wrongAt: 0 };
  if (!Number.isFinite(value) || !Number.isFinite(number)) {
    return number === value
      ? { status: "right", expected, wrongAt: -1 }
      : { status: "wrong", expected, wrongAt: 0 };
  }
  // Right when it rounds to the same `decimals` places as the core's value, or is within one
  // unit in the last place (the learner may have cut the number off instead of rounding), plus
  // what rounding the numbers it was worked out from can do.
  const tolerance = 10 ** -decimals * (1 + 1e-9) + slack;
  if (number.toFixed(decimals) === expected || Math.abs(number - value) <= tolerance) {
    return { status: "right", expected, wrongAt: -1 };
  }
  const normal = text.replace(/−/g, "-").replace(",", ".");
  let wrongAt = 0;
  while (wrongAt < normal.length && normal[wrongAt] === expected[wrongAt]) wrongAt++;
  return { status: "wrong", expected, wrongAt };
}
