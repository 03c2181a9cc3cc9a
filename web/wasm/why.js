// wasm/why.js: lesson 3's wrappers, why attention is built this way (src/wasm/why.cpp): tiling,
// the 1/√d_k statistics, dropout.
import { packMatrix, packOptions, unpacked, whole } from "./core.js";

// The 1/√d_k statistics' arguments, checked in the order the core takes them.
const scalingArgs = ({ dK, nKeys = 8, rows = 100, seed = 1 } = {}) => [
  whole("dK", dK),
  whole("nKeys", nKeys),
  whole("rows", rows),
  whole("seed", seed),
];

export function whyLabs(core) {
  return {
    /** Online softmax over blocks of keys: m, ℓ and the partial output after every block. */
    tiledAttention(q, k, v, { block, ...options } = {}) {
      return unpacked(
        core.tiledAttention(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          whole("block", block),
          packOptions(options),
        ),
      );
    },

    /** The seeded unit-variance q (rows×dK) and keys (rows·nKeys×dK) behind scalingStats. */
    scalingBatch: (options) => unpacked(core.scalingBatch(...scalingArgs(options))),

    /** The spread of q·k and the mean largest softmax weight, with and without 1/√dK. */
    scalingStats: (options) => unpacked(core.scalingStats(...scalingArgs(options))),

    /** Dropout: one draw (seed), and the average of draws draws (seeds seed, seed + 1 …). */
    dropoutStats(q, k, v, { p, seed = 0, draws = 1000, ...options } = {}) {
      return unpacked(
        core.dropoutStats(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          packOptions({ ...options, dropout: { p, seed } }),
          whole("draws", draws),
        ),
      );
    },
  };
}
