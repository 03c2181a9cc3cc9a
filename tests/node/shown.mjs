// shown.mjs: reads the arithmetic the page writes, as a learner would, and works it out from
// the numbers as written. Written apart from the page's code; the tests of the rule "every =
// holds at the precision it shows" (Node and Chromium) share it. It never sees the core.

// "−0.5", "12", "−∞" → a number; anything else → undefined.
export function shownNumber(text) {
  const t = text.trim().replace(/−/g, "-");
  if (t === "-∞") return -Infinity;
  if (t === "∞") return Infinity;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : undefined;
}

// The numbers, operators and brackets of an expression such as "0.5×(−0.3) + exp(1 − 2)",
// "10000^(−2×3/7)", "(19.47 − 19)²", "−ln 0.0230" or "⌊1024 × 3 / 7⌋" (rounded down).
function tokens(text) {
  const out = [];
  const re = /\s*(exp\(|ln|\d+(?:\.\d+)?|∞|[−+×÷/^()²⌊⌋])/y;
  let m;
  while (re.lastIndex < text.length && (m = re.exec(text))) out.push(m[1]);
  return re.lastIndex === text.length || /^\s*$/.test(text.slice(re.lastIndex)) ? out : null;
}

/**
 * The value of an expression written with numbers, + − × ÷ (or /), a power ^ or ², brackets,
 * exp() and ln, and ⌊ ⌋ (rounded down); or undefined.
 */
export function evaluate(text) {
  const list = tokens(text);
  if (!list || list.length === 0) return undefined;
  let at = 0;
  const peek = () => list[at];
  const expr = () => {
    let value = term();
    while (peek() === "+" || peek() === "−")
      value = list[at++] === "+" ? value + term() : value - term();
    return value;
  };
  const term = () => {
    let value = factor();
    while (peek() === "×" || peek() === "÷" || peek() === "/")
      value = list[at++] === "×" ? value * factor() : value / factor();
    return value;
  };
  // a ^ binds tighter than a sign in front of it: −2^2 = −4, 10000^(−1) = 0.0001
  const factor = () => {
    if (peek() === "−") {
      at++;
      return -factor();
    }
    if (peek() === "ln") {
      at++;
      return Math.log(factor());
    }
    const base = primary();
    if (peek() === "²") {
      at++;
      return base * base;
    }
    if (peek() !== "^") return base;
    at++;
    return base ** factor();
  };
  const primary = () => {
    const t = list[at++];
    if (t === "∞") return Infinity;
    if (t === "⌊") {
      const inner = expr();
      if (list[at++] !== "⌋") throw new Error(`unbalanced: ${text}`);
      return Math.floor(inner);
    }
    if (t === "(" || t === "exp(") {
      const inner = expr();
      if (list[at++] !== ")") throw new Error(`unbalanced: ${text}`);
      return t === "(" ? inner : Math.exp(inner);
    }
    const x = Number(t);
    if (Number.isNaN(x)) throw new Error(`not a number: ${t} in ${text}`);
    return x;
  };
  const value = expr();
  return at === list.length ? value : undefined;
}

// The expression with its k-th written number moved by `by`; or undefined.
function nudged(text, k, by) {
  let seen = -1;
  const moved = text.replace(/\d+(?:\.\d+)?/g, (n) => (++seen === k ? String(Number(n) + by) : n));
  return evaluate(moved);
}

// How far an expression's value can move when each written number moves by half a unit of its
// last digit, to first order (each number nudged on its own), with a margin.
function roundingRoom(text) {
  const numbers = text.match(/\d+(?:\.\d+)?/g) ?? [];
  const base = evaluate(text);
  let room = 0;
  numbers.forEach((n, k) => {
    const half = 0.5 * 10 ** -(n.split(".")[1]?.length ?? 0);
    const moved = nudged(text, k, half);
    if (moved !== undefined && Number.isFinite(moved)) room += Math.abs(moved - base);
  });
  return 1.05 * room + 1e-12;
}

/**
 * Checks one written line, such as "scores[1][2] = Q[1]·K[2] = 0.5×0.3 + 0.2×0.5 = 0.25", with
 * the page showing `digits` decimals. Returns null when its last "=" has no arithmetic in
 * front of it (an input, a max, a masked cell); else { shown, worked, relation, holds, clause }:
 * "=" holds when the expression, worked out from the written numbers, is within half a unit
 * of the last shown digit of the result; and every earlier clause that can be worked out is
 * within that, plus what its own written numbers' rounding can move it, of the result
 * (`clause` names the first one that is not).
 */
export function checkLine(text, digits) {
  const parts = text.split(/ (=|≈) /);
  if (parts.length < 3) return null;
  const relation = parts.at(-2);
  // a remark in brackets after the result, (…) or Chinese （…）, is not part of it
  const shown = shownNumber(parts.at(-1).replace(/(?: \(|\s*（).*[)）]$/, ""));
  const worked = evaluate(parts.at(-3));
  if (shown === undefined || worked === undefined) return null;
  const gap = worked === shown ? 0 : Math.abs(worked - shown);
  const half = 0.5 * 10 ** -digits + 1e-12;
  const allowed = relation === "=" ? half : 2 * half;
  // the clauses before: every other part, from the first
  let clause = null;
  for (let k = 0; k < parts.length - 3; k += 2) {
    const value = evaluate(parts[k]);
    if (value === undefined || !Number.isFinite(shown)) continue;
    const off = value === shown ? 0 : Math.abs(value - shown);
    if (!(off <= allowed + roundingRoom(parts[k]))) {
      clause = { text: parts[k], value };
      break;
    }
  }
  return { shown, worked, relation, holds: gap <= allowed && clause === null, clause };
}

// A line's part before its last "=" has arithmetic in it: numbers and operators, not only a
// cell's name.
export function hasArithmetic(text) {
  const before =
    text
      .split(/ (?:=|≈) /)
      .slice(0, -1)
      .at(-1) ?? "";
  const bare = before.replace(/[^\s=]*\[\d+\](\[\d+\])?/g, "").replace(/θ_\d+|W_\w|d_\w+/g, "");
  return /\d/.test(bare) && /[×÷+²^]|\s−\s|ln|exp\(/.test(bare);
}
