// reference.mjs: a float64 attention written apart from the core, plain loops and the textbook
// formula, for comparisons on random input. Only the tests use it.

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

// A small deterministic generator (mulberry32), so every run sees the same "random" input.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomMatrix(next, rows, cols, spread = 2) {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => (next() * 2 - 1) * spread),
  );
}
