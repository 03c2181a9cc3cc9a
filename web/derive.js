// derive.js: the rules behind every written-out derivation, for the walkthrough and every lab.
// Pure: numbers in, text out, no DOM and no core.
//
import { fmt, factor, exactAt } from "./format.js";

// Every "=" the page writes holds at the precision it shows: worked out from the numbers as
// written, the left side rounds to the right side. The core's numbers are rounded for display,
// so each line carries its terms with as many decimals as it needs (from `digits` up to 12);
// how many follows from a bound on how far rounding the terms can move the result, never from
// working the result out again. A line that no number of decimals makes exact is written with
// "≈".

/** Half a unit in the last place of x shown at `p` decimals; 0 when x shows exactly. */
export function roundingOf(x, p) {
  return exactAt(x, p) ? 0 : 0.5 * 10 ** -p;
}

/** x as a table shows it at `p` decimals, as a number: what a learner works from. */
export const shownAt = (x, p) => (Number.isFinite(x) ? Number(x.toFixed(p)) : x);

/** Σ a_c·b_c worked out from a and b as the tables show them at `p` decimals. */
export const shownDot = (a, b, p) =>
  a.reduce((sum, x, c) => sum + shownAt(x, p) * shownAt(b[c], p), 0);

// How far the core's r may be moved before it stops rounding to what it shows at `digits`.
function room(r, digits) {
  return 0.5 * 10 ** -digits - Math.abs(r - Number(r.toFixed(digits)));
}

// Bounds on how far the result moves when its terms are shown at p decimals.
export const bounds = {
  // Σ a_c·b_c
  dot: (a, b) => (p) =>
    a.reduce((sum, x, c) => {
      const ua = roundingOf(x, p);
      const ub = roundingOf(b[c], p);
      return sum + Math.abs(b[c]) * ua + Math.abs(x) * ub + ua * ub;
    }, 0),
  // Σ e_c
  sum: (terms) => (p) => terms.reduce((sum, x) => sum + roundingOf(x, p), 0),
  // exp(x − m), which is e; x − m is exactly 0 as written when x is the max itself
  exp: (x, m, e) => (p) => (x === m ? 0 : e * Math.expm1(roundingOf(x, p) + roundingOf(m, p))),
  // e ÷ s, which is w
  divide: (e, s, w) => (p) => {
    const us = roundingOf(s, p);
    return (roundingOf(e, p) + w * us) / (s - us);
  },
};

// The fewest decimals for the terms at which the line holds as shown, or null for none.
function termDecimals(r, digits, bound) {
  const free = room(r, digits);
  for (let p = digits; p <= Math.max(digits, 12); p++) {
    const moved = bound(p);
    if (moved === 0 || moved < free) return p;
  }
  return null;
}

// A line `lhs terms = r`: terms(p) writes the terms at p decimals.
export function line(lhs, r, digits, bound, terms) {
  const p = termDecimals(r, digits, bound);
  return {
    text: `${lhs}${terms(p ?? 12)} ${p === null ? "≈" : "="} ${fmt(r, digits)}`,
    extra: p !== null && p > digits,
    approx: p === null,
  };
}

export const plain = (text) => ({ text, extra: false, approx: false });

/** A cell's derivation from its lines: `extra` when one carries more decimals than the tables,
 * `approx` when one is written with ≈. */
export const derivationOf = (lines) => ({
  lines,
  extra: lines.some((l) => l.extra),
  approx: lines.some((l) => l.approx),
});
export const products = (a, b) => (p) =>
  a.map((x, c) => `${factor(x, p)}×${factor(b[c], p)}`).join(" + ");
