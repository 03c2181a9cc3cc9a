// wasm/learn.js: lesson 4's wrappers, how attention learns (src/wasm/learn.cpp): the gradients,
// given dL/d(output), and gradient descent as the labs run it.
import { packMatrix, packOptions, quote, unpacked, whole } from "./core.js";
import { packMultiHeadOptions, packWeights } from "./inside.js";

// dL/d(output), and a loss's own dL/d(weights) when it has one → what the bindings read
function packLoss(dOutput, dWeights) {
  const loss = { output: packMatrix("dOutput", dOutput) };
  if (dWeights !== undefined) loss.weights = packMatrix("dWeights", dWeights);
  return loss;
}

function checkNumbers(numbers) {
  for (const [name, x] of Object.entries(numbers)) {
    if (typeof x !== "number") throw new Error(`${name} must be a number, not ${quote(x)}`);
  }
}

export function learnLabs(core) {
  return {
    /**
     * attention()'s trace, and dL/d of every step and input for dL/d(output) = dOutput; a loss
     * on the weights themselves adds its own dL/d(weights) as options.dWeights.
     */
    attentionBackward(q, k, v, dOutput, { dWeights, ...options } = {}) {
      return unpacked(
        core.attentionBackward(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          packLoss(dOutput, dWeights),
          packOptions(options),
        ),
      );
    },

    /** The same for selfAttention(): also dL/dX, dL/dW_Q, dL/dW_K and dL/dW_V. */
    selfAttentionBackward(x, wq, wk, wv, dOutput, { dWeights, ...options } = {}) {
      return unpacked(
        core.selfAttentionBackward(
          packMatrix("X", x),
          packMatrix("W_Q", wq),
          packMatrix("W_K", wk),
          packMatrix("W_V", wv),
          packLoss(dOutput, dWeights),
          packOptions(options),
        ),
      );
    },

    /** multiHeadAttention()'s trace and the layer's gradients: dW_O, each head's, dX … */
    multiHeadBackward(x, weights, dOutput, options) {
      return unpacked(
        core.multiHeadBackward(
          packMatrix("X", x),
          packWeights(weights),
          packMatrix("dOutput", dOutput),
          packMultiHeadOptions(options),
        ),
      );
    },

    /**
     * Gradient descent on α, which multiplies the query q (1, dK) of a lookup with one value
     * column: L = (output − target)², α ← α − eta·dL/dα, `steps` times from `alpha`.
     */
    sharpnessDescent(q, k, v, { target, alpha, eta, steps } = {}) {
      checkNumbers({ target, alpha, eta });
      return unpacked(
        core.sharpnessDescent(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          target,
          alpha,
          eta,
          whole("steps", steps),
        ),
      );
    },

    /**
     * Gradient descent on W_Q and W_K of self-attention (W_V kept), on the cross-entropy
     * −log weights[row][key] (row and key from 0), `steps` times with learning rate eta.
     */
    teachDescent(x, wq, wk, wv, { row, key, eta, steps } = {}) {
      checkNumbers({ eta });
      const run = unpacked(
        core.teachDescent(
          packMatrix("X", x),
          packMatrix("W_Q", wq),
          packMatrix("W_K", wk),
          packMatrix("W_V", wv),
          whole("row", row),
          whole("key", key),
          eta,
          whole("steps", steps),
        ),
      );
      return { ...run, after: { trace: run.after } };
    },
  };
}
