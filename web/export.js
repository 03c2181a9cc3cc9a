// export.js: a scene as a short Python script, for NumPy or for PyTorch. Pure: text in, text out.
// The script holds the exact inputs (edits included), computes every step with plain operations
// (no torch.nn, no scaled_dot_product_attention, so it runs on PyTorch 1.13 and 2.x), writes the
// core's numbers in comments under each step, and prints the output as the page shows it.
// Formatting only: every number here is an input or comes from the core's trace.
import { fmtColumns } from "./format.js";

// How each library writes the few operations that differ.
const libraries = {
  numpy: {
    import: ["import numpy as np"],
    matrix: (rows) => `np.array(${rows}, dtype=np.float64)`,
    bools: (rows) => `np.array(${rows})`,
    causal: "np.tril(np.ones((n_q, n_k), dtype=bool))",
    sqrt: "np.sqrt(d_k)",
    mask: "np.where(allowed, scaled, -np.inf)",
    max: "masked.max(axis=1, keepdims=True)",
    exp: (x) => `np.exp(${x})`,
    sum: "e.sum(axis=1, keepdims=True)",
    finite: "np.where(np.isfinite(row_max), row_max, 0.0)",
    blockedWeights: "np.divide(e, row_sum, out=np.zeros_like(e), where=row_sum > 0)",
    shape: (m) => `${m}.shape`,
  },
  pytorch: {
    import: ["import math", "", "import torch"],
    matrix: (rows) => `torch.tensor(${rows}, dtype=torch.float64)`,
    bools: (rows) => `torch.tensor(${rows})`,
    causal: "torch.tril(torch.ones(n_q, n_k, dtype=torch.bool))",
    sqrt: "math.sqrt(d_k)",
    mask: 'scaled.masked_fill(~allowed, float("-inf"))',
    max: "masked.amax(dim=1, keepdim=True)",
    exp: (x) => `torch.exp(${x})`,
    sum: "e.sum(dim=1, keepdim=True)",
    finite: "torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))",
    blockedWeights: "torch.where(row_sum > 0, e / row_sum, torch.zeros_like(e))",
    shape: (m) => `tuple(${m}.shape)`,
  },
};

export const exportKinds = Object.keys(libraries);

/** A matrix as a literal of the library's (np.array or torch.tensor), rows labelled. */
export const pythonMatrix = (kind, rows, labels) =>
  libraries[kind].matrix(matrixLiteral(rows, labels));

/** The library's imports, a line each. */
export const pythonImports = (kind) => libraries[kind].import;

/** A number as Python reads it back to the same double. */
export const pythonNumber = (x) => literal(x);
export const exportNames = { numpy: "NumPy", pytorch: "PyTorch" };

// A number as Python reads it back to the same double: JS's shortest round-trip form.
const literal = (x) => String(x);

// A matrix literal, one row a line, columns lined up, each row's label as a comment.
function matrixLiteral(rows, labels, bool = false) {
  const cells = rows.map((row) => row.map((x) => (bool ? (x ? "True" : "False") : literal(x))));
  const widths = cells[0].map((_, j) => Math.max(...cells.map((row) => row[j].length)));
  const lines = cells.map((row, i) => {
    const text = `    [${row.map((c, j) => c.padStart(widths[j])).join(", ")}],`;
    return labels?.[i] ? `${text}  # ${labels[i]}` : text;
  });
  return `[\n${lines.join("\n")}\n]`;
}

// The core's numbers as a comment: "# core: [[0.26, 0.25],\n#        [0.24, 0.29]]".
function coreComment(rows, digits, words) {
  const columns = fmtColumns(rows, digits);
  const widths = columns.map((col) => Math.max(...col.map((c) => c.length)));
  const lines = rows.map((row, i) => {
    const cells = row.map((_, j) => columns[j][i].padStart(widths[j])).join(", ");
    const open = i === 0 ? "[[" : " [";
    const close = i === rows.length - 1 ? "]]" : "],";
    return `${open}${cells}${close}`;
  });
  const lead = `# ${words.core}: `;
  const pad = `#${" ".repeat(lead.length - 1)}`;
  return lines.map((line, i) => (i === 0 ? lead : pad) + line).join("\n");
}

const shapeOf = (rows) => `${rows.length}×${rows[0].length}`;

/**
 * The scene as a Python script. kind: "numpy" or "pytorch". scene: { title, inputs: { q, k, v }
 * or { x, wq, wk, wv }, alpha?, mask?: "causal" | boolean[][], labels: { queries, keys },
 * trace, digits }, where trace is the core's trace for these inputs (α applied). words: the
 * page's msg.export, for the comments.
 */
export function exportScript(kind, scene, words) {
  const lib = libraries[kind];
  if (!lib) throw new Error(`exportScript: kind must be ${exportKinds.join(" or ")}, not ${kind}`);
  const { inputs, alpha, mask, labels, trace, digits } = scene;
  const core = (rows) => coreComment(rows, digits, words);
  const out = [];
  const line = (...texts) => out.push(...texts);
  const matrix = (name, rows, rowLabels, what) => {
    line(`# ${name} (${shapeOf(rows)})${what ? `: ${what}` : ""}`);
    line(`${name} = ${lib.matrix(matrixLiteral(rows, rowLabels))}`);
  };

  line(`# ${words.heading(scene.title)}`);
  for (const text of words.intro(exportNames[kind], digits)) {
    line(`# ${text}`);
  }
  line("", ...lib.import, "");

  // the inputs, and the projections of self-attention
  line(`# ${words.inputs}`);
  if (inputs.x) {
    matrix("X", inputs.x, labels.queries, words.tokens);
    for (const [name, id] of [
      ["W_Q", "wq"],
      ["W_K", "wk"],
      ["W_V", "wv"],
    ]) {
      matrix(name, inputs[id]);
    }
    line("", `# ${words.projections}`);
    line("Q = X @ W_Q", core(trace.q), "K = X @ W_K", core(trace.k), "V = X @ W_V", core(trace.v));
  } else if (alpha !== undefined) {
    matrix("q", inputs.q, labels.queries, words.queries);
    line(`alpha = ${literal(alpha)}  # ${words.alpha}`, "Q = alpha * q");
    matrix("K", inputs.k, labels.keys, words.keys);
    matrix("V", inputs.v, labels.keys, words.values);
  } else {
    matrix("Q", inputs.q, labels.queries, words.queries);
    matrix("K", inputs.k, labels.keys, words.keys);
    matrix("V", inputs.v, labels.keys, words.values);
  }
  line(`n_q, d_k = ${lib.shape("Q")}`, `n_k = ${lib.shape("K")}[0]`);

  line("", `# 1. ${words.steps.scores} (${shapeOf(trace.scores)})`);
  line("scores = Q @ K.T", core(trace.scores));

  line("", `# 2. ${words.steps.scaled}`);
  line(
    `scale = 1 / ${lib.sqrt}`,
    `# ${words.core}: scale = ${fmtColumns([[trace.scale]], digits)[0][0]}`,
  );
  line("scaled = scores * scale", core(trace.scaled));

  const blocked = trace.blockedRows.length > 0;
  line("", `# 3. ${words.steps.masked}`);
  if (mask) {
    if (mask === "causal") line(`allowed = ${lib.causal}  # ${words.causal}`);
    else line(`allowed = ${lib.bools(matrixLiteral(mask, labels.queries, true))}`);
    line(`masked = ${lib.mask}`, core(trace.masked));
  } else {
    line(`masked = scaled  # ${words.noMask}`);
  }

  line("", `# 4. ${words.steps.weights}`);
  line(`row_max = ${lib.max}`);
  if (blocked) line(`# ${words.blocked}`, `row_max = ${lib.finite}`);
  line(`e = ${lib.exp("masked - row_max")}`, core(trace.exp));
  line(`row_sum = ${lib.sum}`, core(trace.rowSum.map((x) => [x])));
  line(blocked ? `weights = ${lib.blockedWeights}` : "weights = e / row_sum");
  line(core(trace.weights));

  line("", `# 5. ${words.steps.output} (${shapeOf(trace.output)})`);
  line("output = weights @ V", core(trace.output));

  line("", `# ${words.print(digits)}`);
  line(`labels = ${JSON.stringify(labels.queries)}`);
  line(`print("output (${shapeOf(trace.output)})")`);
  line("for label, row in zip(labels, output.tolist()):");
  line(`    print(label, " ".join(f"{x:.${digits}f}" for x in row))`);
  return out.join("\n") + "\n";
}
