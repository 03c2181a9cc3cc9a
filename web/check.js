// check.js: "check my numbers". A learner's typed value against the core's value at a chosen
// number of decimals, and the first decimal that is wrong.
//
// The rule, which the page says in one line: an answer is right when, at the decimals chosen,
// it is the core's value rounded or cut off (toward zero), or the value that working from the
// numbers shown on the page gives, rounded or cut off. Nothing else: no unit either way.
import { parseNumber, fmt } from "./format.js";

// Decimal arithmetic on whole numbers of 10⁻¹² (the most decimals the page ever writes), so
// that cutting off is exact: the core's 0.34 held as 0.33999999999999997 is 0.34, not 0.33.
const places = 12;

// x in units of 10⁻¹², or undefined where x is too large for that (|x| ≥ 1e20).
function units(x) {
  if (!(Math.abs(x) < 1e20)) return undefined;
  return BigInt(x.toFixed(places).replace(".", ""));
}

// a / b rounded (half away from zero) first, then cut off toward zero when that differs, for
// whole numbers. At an exact tie both neighbours are roundings: school rounding and rounding
// half to even differ there.
function roundings(a, b) {
  const cut = a / b;
  const rest = (a < 0n ? -a : a) % b;
  const away = cut + (a < 0n ? -1n : 1n);
  return 2n * rest >= b ? [away, cut] : [cut];
}

/** The answers that count as right at `decimals`, in units of 10^−decimals, as strings. */
function rightAnswers(values, decimals) {
  const unit = 10n ** BigInt(places - decimals);
  const answers = new Set();
  for (const x of values) {
    const u = units(x);
    if (u !== undefined) for (const n of roundings(u, unit)) answers.add(String(n));
  }
  return answers;
}

// How a short answer (`given`, in units of 10⁻¹², right at `had` decimals) is right: "rounded"
// when it is a rounding of the core's value or of a worked one at `had` decimals (at an exact
// tie, either neighbour), else "cut" (cut off toward zero). A number too large for units is the
// core's own: rounded.
function howShort(given, value, had, worked) {
  if (given === undefined) return "rounded";
  const unit = 10n ** BigInt(places - had);
  const [answer] = roundings(given, unit);
  const rounded = [value, ...worked.filter(Number.isFinite)].some((x) => {
    const u = units(x);
    if (u === undefined) return false;
    const rest = (u < 0n ? -u : u) % unit;
    const [first, ...tie] = roundings(u, unit);
    return answer === first || (2n * rest === unit && tie.includes(answer));
  });
  return rounded ? "rounded" : "cut";
}

/**
 * Returns { status: 'right' | 'short' | 'wrong' | 'invalid' | 'empty', expected, wrongAt, had? }.
 * `expected` is the core's value written to `decimals` places; `wrongAt` is the index, in the
 * typed text, of the first character that differs from it (for highlighting). `worked` are the
 * values that working from the numbers shown on the page gives (steps.js's worked()); each of
 * them, rounded or cut off, is right too. 'short': fewer decimals typed than asked (`had`), and
 * right at those (the article's 0.551 where 4 are asked): not right, but not a wrong number;
 * `how` says how it is right at those: "rounded" or "cut" (cut off).
 */
export function checkValue(typed, value, decimals, worked = []) {
  const text = String(typed).trim();
  const expected = Number.isFinite(value) ? value.toFixed(decimals) : fmt(value);
  if (text === "") return { status: "empty", expected, wrongAt: -1 };
  const number = parseNumber(text);
  if (number === undefined) return { status: "invalid", expected, wrongAt: 0 };
  const right = { status: "right", expected, wrongAt: -1 };
  if (!Number.isFinite(value) || !Number.isFinite(number)) {
    return number === value ? right : { status: "wrong", expected, wrongAt: 0 };
  }
  const given = units(number);
  if (given === undefined || units(value) === undefined) {
    // Too large for decimals: right only as the core's own number, to 12 significant digits.
    if (Math.abs(number - value) <= 1e-12 * Math.abs(value)) return right;
  } else {
    // What the learner typed, at the decimals chosen (more decimals than asked are rounded).
    const [answer] = roundings(given, 10n ** BigInt(places - decimals));
    const finite = worked.filter(Number.isFinite);
    if (rightAnswers([value, ...finite], decimals).has(String(answer))) return right;
  }
  const normal = text.replace(/−/g, "-").replace(",", ".");
  const had = /\.(\d+)$/.exec(normal)?.[1].length ?? 0;
  if (had > 0 && had < decimals && checkValue(text, value, had, worked).status === "right") {
    return {
      status: "short",
      expected,
      wrongAt: -1,
      had,
      how: howShort(given, value, had, worked),
    };
  }
  let wrongAt = 0;
  while (wrongAt < normal.length && normal[wrongAt] === expected[wrongAt]) wrongAt++;
  return { status: "wrong", expected, wrongAt };
}
