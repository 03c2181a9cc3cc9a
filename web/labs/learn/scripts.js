// labs/learn/scripts.js: the two "how it learns" labs as Python scripts, for NumPy or PyTorch.
// The NumPy script writes every gradient out by hand, as the page does; the PyTorch one asks
// autograd for them, an independent check. Both run the same descent and print each step at
// the page's decimals. Text only: every number here is an input, a parameter or the core's.
import { fmt } from "../../format.js";
import { pythonImports, pythonMatrix, pythonNumber } from "../../export.js";

// One loop that prints a step's numbers as the page shows them.
const printed = (names, digits) =>
  `    print(step, ${names.map((n) => `f"{${n}:.${digits}f}"`).join(", ")})`;

/** The sharpness lab: gradient descent on α in the age lookup. */
export function sharpnessScript(kind, { q, k, v, target, alpha, eta, steps, digits, path, title }) {
  const torch = kind === "pytorch";
  const out = [
    `# Attention by hand: ${title}`,
    torch
      ? "# Gradient descent on α, with PyTorch's autograd computing dL/dα (plain operations, no torch.nn)."
      : "# Gradient descent on α, with every gradient written out by hand in NumPy.",
    `# Each step prints: the step, α, L = (output − target)², dL/dα, at ${digits} decimals.`,
    "",
    ...pythonImports(kind),
    "",
    `q = ${pythonMatrix(kind, q)}`,
    `K = ${pythonMatrix(kind, k)}`,
    `V = ${pythonMatrix(kind, v)}`,
    `target = ${pythonNumber(target)}`,
    `eta = ${pythonNumber(eta)}`,
    torch
      ? `alpha = torch.tensor(${pythonNumber(alpha)}, dtype=torch.float64, requires_grad=True)`
      : `alpha = ${pythonNumber(alpha)}`,
    `scale = 1 / ${torch ? "math.sqrt" : "np.sqrt"}(K.shape[1])`,
    "",
    `for step in range(1, ${steps} + 1):`,
    "    scores = (alpha * q) @ K.T",
    "    scaled = scores * scale",
    `    e = ${torch ? "torch.exp" : "np.exp"}(scaled - scaled.max())`,
    "    weights = e / e.sum()",
    "    output = (weights @ V)[0, 0]",
    "    loss = (output - target) ** 2",
  ];
  if (torch) {
    out.push(
      "    loss.backward()  # autograd: dL/dα",
      "    d_alpha = alpha.grad.item()",
      printed(["alpha.item()", "loss.item()", "d_alpha"], digits),
      "    with torch.no_grad():",
      "        alpha -= eta * alpha.grad",
      "    alpha.grad = None",
    );
  } else {
    out.push(
      "    d_output = 2 * (output - target)",
      "    d_weights = d_output * V.T",
      "    d_scaled = weights * (d_weights - (weights * d_weights).sum())",
      "    d_scores = d_scaled * scale",
      "    d_alpha = (d_scores @ K @ q.T)[0, 0]",
      printed(["alpha", "loss", "d_alpha"], digits),
      "    alpha = alpha - eta * d_alpha",
    );
  }
  const last = path[path.length - 1];
  out.push(
    "",
    `# core: after ${steps} steps α = ${fmt(last.next, digits)}`,
    `print("alpha", f"{${torch ? "alpha.item()" : "alpha"}:.${digits}f}")`,
  );
  return out.join("\n") + "\n";
}

/** The teach lab: gradient descent on W_Q and W_K, on −log weights[row][key]. */
export function teachScript(kind, { x, wq, wk, wv, row, key, eta, steps, digits, run, title }) {
  const torch = kind === "pytorch";
  const lib = torch ? "torch" : "np";
  const out = [
    `# Attention by hand: ${title}`,
    torch
      ? "# Gradient descent on W_Q and W_K, with PyTorch's autograd (plain operations, no torch.nn)."
      : "# Gradient descent on W_Q and W_K, with every gradient written out by hand in NumPy.",
    `# Each step prints: the step, L = −ln weights[${row + 1}][${key + 1}], that weight, at ${digits} decimals.`,
    "",
    ...pythonImports(kind),
    "",
    `X = ${pythonMatrix(kind, x)}`,
    `W_Q = ${pythonMatrix(kind, wq)}`,
    `W_K = ${pythonMatrix(kind, wk)}`,
    `W_V = ${pythonMatrix(kind, wv)}`,
    `row, key, eta = ${row}, ${key}, ${pythonNumber(eta)}`,
    `scale = 1 / ${torch ? "math.sqrt" : "np.sqrt"}(W_Q.shape[1])`,
  ];
  if (torch) out.push("W_Q.requires_grad_()", "W_K.requires_grad_()");
  out.push(
    "",
    `for step in range(1, ${steps} + 1):`,
    "    Q, K = X @ W_Q, X @ W_K",
    "    scaled = (Q @ K.T) * scale",
    `    e = ${lib}.exp(scaled - scaled.max(${torch ? "dim=1, keepdim=True).values" : "axis=1, keepdims=True)"})`,
    `    weights = e / e.sum(${torch ? "dim=1, keepdim=True" : "axis=1, keepdims=True"})`,
    `    loss = -${lib}.log(weights[row, key])`,
  );
  if (torch) {
    out.push(
      "    loss.backward()  # autograd: dL/dW_Q and dL/dW_K",
      printed(["loss.item()", "weights[row, key].item()"], digits),
      "    with torch.no_grad():",
      "        W_Q -= eta * W_Q.grad",
      "        W_K -= eta * W_K.grad",
      "    W_Q.grad = None",
      "    W_K.grad = None",
    );
  } else {
    out.push(
      "    d_scaled = np.zeros_like(weights)",
      "    d_scaled[row] = weights[row]  # the cross-entropy: weights − one-hot, on its row only",
      "    d_scaled[row, key] -= 1",
      "    d_scores = d_scaled * scale",
      "    d_Q, d_K = d_scores @ K, d_scores.T @ Q",
      printed(["loss", "weights[row, key]"], digits),
      "    W_Q = W_Q - eta * (X.T @ d_Q)",
      "    W_K = W_K - eta * (X.T @ d_K)",
    );
  }
  const last = run.steps[run.steps.length - 1];
  out.push("", `# core: at step ${steps} the loss is ${fmt(last.loss, digits)}`);
  return out.join("\n") + "\n";
}
