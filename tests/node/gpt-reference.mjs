// gpt-reference.mjs: the small character transformer in float64, plain loops from its written
// specification, apart from the core (src/gpt.cpp), for the model tests; and a reader of the
// weights file (tang.bin). Matrices are arrays of rows. Only the tests use it.
//
// x = wte[tokens]; per layer x += attention(LN1(x))·w_o, x += gelu(LN2(x)·w_fc + b_fc)·w_proj
// + b_proj; logits = LNf(x)·wteᵀ. Attention: H causal heads of d_head = C/H, RoPE on q and k.

/** The parameters in the flat buffer's order: [{ name, rows, cols, offset }]. */
export function referenceLayout({ vocab: V, dModel: C, layers }) {
  const shapes = [["wte", V, C]];
  for (let l = 0; l < layers; l++) {
    shapes.push(
      [`l${l}.ln1_g`, 1, C],
      [`l${l}.ln1_b`, 1, C],
      [`l${l}.w_q`, C, C],
      [`l${l}.w_k`, C, C],
      [`l${l}.w_v`, C, C],
      [`l${l}.w_o`, C, C],
      [`l${l}.ln2_g`, 1, C],
      [`l${l}.ln2_b`, 1, C],
      [`l${l}.w_fc`, C, 4 * C],
      [`l${l}.b_fc`, 1, 4 * C],
      [`l${l}.w_proj`, 4 * C, C],
      [`l${l}.b_proj`, 1, C],
    );
  }
  shapes.push(["lnf_g", 1, C], ["lnf_b", 1, C]);
  let offset = 0;
  return shapes.map(([name, rows, cols]) => {
    const t = { name, rows, cols, offset };
    offset += rows * cols;
    return t;
  });
}

/**
 * The weights file → Float32Array in layout order. Per tensor: a matrix (rows > 1) is, row by
 * row, a little-endian float32 scale then cols int8, each value int8·scale in float32; a vector
 * is cols float32. Throws if the file is not exactly that long.
 */
export function readWeights(config, bytes) {
  const layout = referenceLayout(config);
  const last = layout.at(-1);
  const params = new Float32Array(last.offset + last.rows * last.cols);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (const { rows, cols, offset } of layout) {
    if (rows === 1) {
      for (let j = 0; j < cols; j++, at += 4) params[offset + j] = view.getFloat32(at, true);
      continue;
    }
    for (let i = 0; i < rows; i++) {
      const scale = view.getFloat32(at, true);
      at += 4;
      for (let j = 0; j < cols; j++, at++) {
        params[offset + i * cols + j] = Math.fround(view.getInt8(at) * scale);
      }
    }
  }
  if (at !== bytes.byteLength) throw new Error(`weights: read ${at} of ${bytes.byteLength} bytes`);
  return params;
}

// ---- float64 pieces, on arrays of rows ----

const matmul = (a, b) =>
  a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));
const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));
const add = (a, b) => a.map((row, i) => row.map((x, j) => x + b[i][j]));
const addRow = (a, bias) => a.map((row) => row.map((x, j) => x + bias[j]));
const columns = (a, from, count) => a.map((row) => row.slice(from, from + count));

// LayerNorm of each row: biased variance, eps 1e-5, then ·g + b.
function layerNorm(x, g, b) {
  return x.map((row) => {
    const mean = row.reduce((s, v) => s + v, 0) / row.length;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length;
    const inv = 1 / Math.sqrt(variance + 1e-5);
    return row.map((v, j) => (v - mean) * inv * g[j] + b[j]);
  });
}

// RoPE on one head's columns (T, d): row t, pair i = (2i, 2i+1) turns by t·base^(−2i/d).
function rope(x, base) {
  const d = x[0].length;
  return x.map((row, t) => {
    const out = row.slice();
    for (let i = 0; i < d / 2; i++) {
      const angle = t * base ** ((-2 * i) / d);
      const [a, b] = [row[2 * i], row[2 * i + 1]];
      out[2 * i] = a * Math.cos(angle) - b * Math.sin(angle);
      out[2 * i + 1] = a * Math.sin(angle) + b * Math.cos(angle);
    }
    return out;
  });
}

// A softmax of each row over its first `upTo(i)` entries; the rest are 0.
function softmaxRows(x, upTo = () => x[0].length) {
  return x.map((row, i) => {
    const n = upTo(i);
    const top = Math.max(...row.slice(0, n));
    const e = row.map((v, j) => (j < n ? Math.exp(v - top) : 0));
    const sum = e.reduce((s, v) => s + v, 0);
    return e.map((v) => v / sum);
  });
}

const gelu = (u) => 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u ** 3)));

/**
 * One sequence through the model in float64. params: flat, layout order (any array of numbers).
 * targets: −1 where none. Returns per layer q, k (T, C) after RoPE and per head the scores
 * q·k/√d_head (T, T, every cell, above the diagonal too) and the causal weights (T, T); the
 * logits and probs (T, V) and the loss (mean −log probs[target] over rows with a target; 0 if none).
 */
export function referenceForward(config, params, tokens, targets) {
  const { dModel: C, heads: H, base = 10000 } = config;
  const d = C / H;
  const tensor = {};
  for (const { name, rows, cols, offset } of referenceLayout(config)) {
    const flat = Array.from(params.subarray(offset, offset + rows * cols));
    tensor[name] =
      rows === 1
        ? flat
        : Array.from({ length: rows }, (_, i) => flat.slice(i * cols, (i + 1) * cols));
  }
  let x = tokens.map((t) => tensor.wte[t].slice()); // (T, C)
  const layers = [];
  for (let l = 0; l < config.layers; l++) {
    const p = (name) => tensor[`l${l}.${name}`];
    const h = layerNorm(x, p("ln1_g"), p("ln1_b")); // (T, C)
    const [q0, k0, v] = [matmul(h, p("w_q")), matmul(h, p("w_k")), matmul(h, p("w_v"))]; // (T, C)
    const q = q0.map(() => []);
    const k = k0.map(() => []);
    const concat = x.map(() => []); // (T, C)
    const scores = [];
    const weights = [];
    for (let head = 0; head < H; head++) {
      const qh = rope(columns(q0, head * d, d), base); // (T, d)
      const kh = rope(columns(k0, head * d, d), base);
      const s = matmul(qh, transpose(kh)).map((row) => row.map((v) => v / Math.sqrt(d))); // (T, T)
      const w = softmaxRows(s, (i) => i + 1); // causal: key j ≤ query i
      const out = matmul(w, columns(v, head * d, d)); // (T, d)
      qh.forEach((row, t) => q[t].push(...row));
      kh.forEach((row, t) => k[t].push(...row));
      out.forEach((row, t) => concat[t].push(...row));
      scores.push(s);
      weights.push(w);
    }
    x = add(x, matmul(concat, p("w_o")));
    const h2 = layerNorm(x, p("ln2_g"), p("ln2_b"));
    const hidden = addRow(matmul(h2, p("w_fc")), p("b_fc")).map((row) => row.map(gelu)); // (T, 4C)
    x = add(x, addRow(matmul(hidden, p("w_proj")), p("b_proj")));
    layers.push({ q, k, scores, weights });
  }
  const hf = layerNorm(x, tensor.lnf_g, tensor.lnf_b);
  const logits = matmul(hf, transpose(tensor.wte)); // (T, V)
  const probs = softmaxRows(logits);
  let total = 0;
  let counted = 0;
  (targets ?? []).forEach((target, t) => {
    if (target < 0) return;
    total -= Math.log(probs[t][target]);
    counted++;
  });
  return { layers, logits, probs, loss: counted ? total / counted : 0 };
}
