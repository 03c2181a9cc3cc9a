// reference.mjs: a float64 attention written apart from the core, plain loops and the textbook
// formula, for comparisons on random input. Only the tests use it.
export { random } from "../../web/random.js";

export function referenceAttention(
  q,
  k,
  v,
  { scale = 1 / Math.sqrt(q[0].length), causal = false } = {},
) {
  const weights = q.map((qi, i) => {
    const e = k.map((kj, j) =>
      causal && j > i ? 0 : Math.exp(scale * qi.reduce((s, x, c) => s + x * kj[c], 0)),
    );
    const sum = e.reduce((s, x) => s + x, 0);
    return e.map((x) => x / sum);
  });
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((s, x, j) => s + x * v[j][c], 0)));
  return { weights, output };
}

export function randomMatrix(next, rows, cols, spread = 2) {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => (next() * 2 - 1) * spread),
  );
}
