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

// The weights of one multi-head layer: h query heads and h_kv key-value heads of d columns.
export function randomLayer(next, dModel, heads, kvHeads, d) {
  return {
    wq: randomMatrix(next, dModel, heads * d, 1),
    wk: randomMatrix(next, dModel, kvHeads * d, 1),
    wv: randomMatrix(next, dModel, kvHeads * d, 1),
    wo: randomMatrix(next, heads * d, dModel, 1),
  };
}

// splitmix64 in BigInt, the stream the core documents for dropout: uniform() in [0, 1).
export function splitmix64(seed) {
  const mask = (1n << 64n) - 1n;
  let state = BigInt(seed) & mask;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
}

/**
 * Every step of attention in float64, from the definitions: scores = Q·Kᵀ, scaled, masked
 * (−∞ where a key is hidden), the softmax with the row max subtracted, dropout drawn cell by
 * cell in row order (kept when uniform() ≥ p, then divided by 1 − p), output = weights·V.
 * dropout.stream, when given, is a splitmix64 stream shared with earlier calls (batched heads).
 * A row whose keys are all hidden has zero weights and is listed in blockedRows.
 */
export function referenceTrace(q, k, v, { scale, causal = false, mask, dropout } = {}) {
  const dot = (a, b) => a.reduce((s, x, c) => s + x * b[c], 0);
  const s = scale ?? 1 / Math.sqrt(q[0].length);
  const scores = q.map((qi) => k.map((kj) => dot(qi, kj)));
  const scaled = scores.map((row) => row.map((x) => x * s));
  const hidden = (i, j) => (causal && j > i) || (Array.isArray(mask) && !mask[i][j]);
  const masked = scaled.map((row, i) => row.map((x, j) => (hidden(i, j) ? -Infinity : x)));
  const rowMax = masked.map((row) => Math.max(...row));
  const exp = masked.map((row, i) =>
    row.map((x) => (rowMax[i] === -Infinity || x === -Infinity ? 0 : Math.exp(x - rowMax[i]))),
  );
  const rowSum = exp.map((row) => row.reduce((a, b) => a + b, 0));
  const weights = exp.map((row, i) => row.map((x) => (rowSum[i] === 0 ? 0 : x / rowSum[i])));
  const blockedRows = rowMax.flatMap((m, i) => (m === -Infinity ? [i] : []));
  let dropped;
  if (dropout && dropout.p > 0) {
    const uniform = dropout.stream ?? splitmix64(dropout.seed ?? 0);
    dropped = weights.map((row) =>
      row.map((w) => (uniform() < dropout.p ? 0 : w / (1 - dropout.p))),
    );
  }
  const used = dropped ?? weights;
  const output = used.map((w) => v[0].map((_, c) => w.reduce((a, x, j) => a + x * v[j][c], 0)));
  return { scores, scaled, masked, rowMax, exp, rowSum, weights, dropped, output, blockedRows };
}
