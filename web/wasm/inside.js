// wasm/inside.js: lesson 2's wrappers, inside a model (src/wasm/inside.cpp): multi-head and
// grouped-query attention, the KV cache, positions; and the packing of a layer's options and
// weights, which lesson 4's gradients (learn.js) share, as inside.hpp is shared in C++.
import { packMatrix, unpacked, whole } from "./core.js";

const positionKinds = { none: 0, sinusoidal: 1, rope: 2 };

// { heads, kvHeads, causal, mask, positions, base, peScale, scale } → what the bindings read
export function packMultiHeadOptions(options = {}) {
  const { heads = 1, kvHeads = heads, positions = "none", base = 10000, peScale = 1 } = options;
  const { scale } = options;
  whole("heads", heads, 1);
  whole("kvHeads", kvHeads, 1);
  if (!(positions in positionKinds)) {
    throw new Error(`positions must be "none", "sinusoidal" or "rope", not ${positions}`);
  }
  if (typeof base !== "number") throw new Error("base must be a number");
  if (typeof peScale !== "number") throw new Error("peScale must be a number");
  if (options.mask !== undefined && options.mask !== "causal") {
    throw new Error("mask must be 'causal' (multi-head attention takes no other mask)");
  }
  const packed = {
    heads,
    kvHeads,
    causal: Boolean(options.causal || options.mask === "causal"),
    positions: positionKinds[positions],
    base,
    peScale,
  };
  if (scale !== undefined) {
    if (typeof scale !== "number") throw new Error("scale must be a number");
    packed.scale = scale;
  }
  return packed;
}

export function packWeights(weights) {
  if (typeof weights !== "object" || weights === null) {
    throw new Error("weights must be an object { wq, wk, wv, wo }");
  }
  return {
    wq: packMatrix("W_Q", weights.wq),
    wk: packMatrix("W_K", weights.wk),
    wv: packMatrix("W_V", weights.wv),
    wo: packMatrix("W_O", weights.wo),
  };
}

// A cache is JS's own: { k, v: Float64Array (length × width, row-major), length, width }.
function packCache(cache) {
  if (cache === undefined || cache === null) {
    return [
      { rows: 0, cols: 0, data: new Float64Array(0) },
      { rows: 0, cols: 0, data: new Float64Array(0) },
    ];
  }
  const { k, v, length, width } = cache;
  whole("cache.length", length);
  whole("cache.width", width);
  return [
    ["k", k],
    ["v", v],
  ].map(([name, data]) => {
    if (!(data instanceof Float64Array)) throw new Error(`cache.${name} must be a Float64Array`);
    if (data.length !== length * width) {
      throw new Error(
        `cache.${name} has ${data.length} numbers but length×width is ${length}×${width}`,
      );
    }
    return { rows: length, cols: width, data };
  });
}

function checkPositions(positions) {
  if (!Array.isArray(positions)) throw new Error("positions must be an array of numbers");
  return Float64Array.from(positions);
}

export function insideLabs(core) {
  const labs = {
    multiHeadAttention(x, weights, options) {
      return unpacked(
        core.multiHeadAttention(
          packMatrix("X", x),
          packWeights(weights),
          packMultiHeadOptions(options),
        ),
      );
    },

    decodeStep(cache, x, weights, options) {
      if (!Array.isArray(x)) throw new Error("x must be one token's row, an array of numbers");
      const [k, v] = packCache(cache);
      const step = unpacked(
        core.decodeStep(
          packMatrix("x", [x]),
          k,
          v,
          packWeights(weights),
          packMultiHeadOptions(options),
        ),
      );
      const { kCache, vCache, ...rest } = step;
      return {
        ...rest,
        cache: { k: kCache.data, v: vCache.data, length: kCache.rows, width: kCache.cols },
        output: step.trace.output[0],
      };
    },

    decoder(weights, options) {
      let cache = null;
      return {
        step(x) {
          const result = labs.decodeStep(cache, x, weights, options);
          cache = result.cache;
          return result;
        },
        reset() {
          cache = null;
        },
        get cache() {
          return cache;
        },
        get length() {
          return cache?.length ?? 0;
        },
      };
    },

    sinusoidalPositions(positions, dModel, { base = 10000 } = {}) {
      const at = checkPositions(positions);
      whole("dModel", dModel, 1);
      if (typeof base !== "number") throw new Error("base must be a number");
      return unpacked(core.sinusoidalPositions(at, dModel, base));
    },

    rotary(m, positions, dHead, { base = 10000 } = {}) {
      const at = checkPositions(positions);
      whole("dHead", dHead, 1);
      if (typeof base !== "number") throw new Error("base must be a number");
      return unpacked(core.rotary(packMatrix("M", m), at, dHead, base));
    },
  };
  return labs;
}
