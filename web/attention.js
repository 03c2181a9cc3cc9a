// attention.js: the only JS that touches the WASM core. Arrays of rows go in, a trace of named
// steps comes out as arrays of rows; a core error becomes a thrown Error. Same import in Node
// and in the browser.
import createAttentionCore from "./generated/attention-core.mjs";

let loading, loadingLabs;

/** Loads the WASM core once; every call shares the same instance. */
export function loadAttention() {
  loading ??= createAttentionCore().then(wrap);
  return loading;
}

/**
 * Loads the labs module once: a second instance with the core's functions and the labs' (the
 * first view does not load it). Its own memory: its results never mix with the core's.
 */
export function loadLabs() {
  loadingLabs ??= import("./generated/attention-labs.mjs").then(async (labs) => {
    const core = await labs.default();
    // the core's functions, then each lab's section below
    return {
      ...wrap(core),
      ...wrapModel(core),
      ...whyLabs(core),
      ...learnLabs(core),
      ...descentLabs(core),
      ...modelLabs(core),
    };
  });
  return loadingLabs;
}

// rows: number[][] → { rows, cols, data: Float64Array }, or an Error naming the bad entry.
// Messages count rows and columns from 1, as the core's and the page's do.
function packMatrix(name, rows) {
  if (!Array.isArray(rows)) throw new Error(`${name} must be an array of rows`);
  const cols = rows.length > 0 && Array.isArray(rows[0]) ? rows[0].length : 0;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    if (!Array.isArray(row)) throw new Error(`${name} row ${i + 1} is not an array`);
    if (row.length !== cols) {
      const numbers = row.length === 1 ? "number" : "numbers";
      throw new Error(`${name} row ${i + 1} has ${row.length} ${numbers} but row 1 has ${cols}`);
    }
    row.forEach((x, j) => {
      if (typeof x !== "number") {
        throw new Error(`${name}[${i + 1}][${j + 1}] is ${JSON.stringify(x)}, not a number`);
      }
      data[i * cols + j] = x;
    });
  });
  return { rows: rows.length, cols, data };
}

function unpackMatrix({ rows, cols, data }) {
  return Array.from({ length: rows }, (_, i) =>
    Array.from(data.subarray(i * cols, (i + 1) * cols)),
  );
}

// options → what the bindings read: { scale?, causal, mask?, maskValue?, dropoutP, seed }
function packOptions({ scale, mask, causal = false, dropout, maskValue } = {}) {
  const packed = { causal: causal || mask === "causal", dropoutP: 0, seed: 0 };
  if (maskValue !== undefined) {
    if (typeof maskValue !== "number") throw new Error("maskValue must be a number");
    packed.maskValue = maskValue;
  }
  if (scale !== undefined) {
    if (typeof scale !== "number") throw new Error("scale must be a number");
    packed.scale = scale;
  }
  if (Array.isArray(mask)) {
    const cells = packMatrix(
      "mask",
      mask.map((row) =>
        Array.isArray(row) ? row.map((x) => (typeof x === "boolean" ? +x : x)) : row,
      ),
    );
    if (cells.data.some((x) => x !== 0 && x !== 1)) {
      throw new Error("mask must hold only true and false");
    }
    packed.mask = { ...cells, data: Uint8Array.from(cells.data) };
  } else if (mask !== undefined && mask !== "causal") {
    throw new Error("mask must be 'causal' or an n_q×n_k array of booleans");
  }
  if (dropout !== undefined) {
    const { p, seed = 0 } = dropout;
    if (typeof p !== "number") throw new Error("dropout.p must be a number");
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new Error("dropout.seed must be a whole number from 0 to 2^53");
    }
    packed.dropoutP = p;
    packed.seed = seed;
  }
  return packed;
}

const batchDims = ["batch", "heads", "nQ", "nK", "dK", "dV"];

function checkFloat32(name, array) {
  if (!(array instanceof Float32Array)) throw new Error(`${name} must be a Float32Array`);
}

function checkFlag(name, flag) {
  if (typeof flag !== "boolean") throw new Error(`${name} must be true or false`);
}

function check(result) {
  if (result.error !== undefined) throw new Error(result.error);
  return result;
}

const matrixSteps = [
  "q",
  "k",
  "v",
  "scores",
  "scaled",
  "masked",
  "exp",
  "weights",
  "dropped",
  "output",
];

function unpackTrace(raw) {
  const trace = {};
  for (const step of matrixSteps) {
    if (raw[step] !== undefined) trace[step] = unpackMatrix(raw[step]);
  }
  trace.rowMax = Array.from(raw.rowMax);
  trace.rowSum = Array.from(raw.rowSum);
  trace.blockedRows = Array.from(raw.blockedRows);
  trace.scale = raw.scale;
  return trace;
}

// The batched call's layout, as the core defines it (batchLayout in bindings.cpp): the
// request's fields, doubles in their order, and the planned buffers' addresses. A request is
// written by name; a field that one side has and the other lacks is an error at the call.
function batchLayoutOf(core) {
  const layout = core.batchLayout();
  const fields = [...layout.request];
  return {
    fields,
    buffers: Object.fromEntries(layout.buffers.map((name, i) => [name, i])),
    request(values) {
      const given = Object.keys(values);
      if (given.length !== fields.length || !fields.every((f) => Object.hasOwn(values, f))) {
        throw new Error(`the batched request has ${given}, but the core reads ${fields}`);
      }
      return Float64Array.from(fields, (f) => Number(values[f]));
    },
  };
}

function wrap(core) {
  const { buffers, request: batchRequest } = batchLayoutOf(core);
  return {
    attention(q, k, v, options) {
      return unpackTrace(
        check(
          core.attend(
            packMatrix("Q", q),
            packMatrix("K", k),
            packMatrix("V", v),
            packOptions(options),
          ),
        ),
      );
    },

    selfAttention(x, wq, wk, wv, options) {
      return unpackTrace(
        check(
          core.selfAttention(
            packMatrix("X", x),
            packMatrix("W_Q", wq),
            packMatrix("W_K", wk),
            packMatrix("W_V", wv),
            packOptions(options),
          ),
        ),
      );
    },

    attentionBatched(q, k, v, shape, options = {}) {
      checkFloat32("Q", q);
      checkFloat32("K", k);
      checkFloat32("V", v);
      for (const dim of batchDims) {
        if (!Number.isSafeInteger(shape?.[dim]) || shape[dim] < 0) {
          throw new Error(`shape.${dim} must be a whole number, not ${shape?.[dim]}`);
        }
      }
      const { weights = true, reference = false, copy = true } = options;
      checkFlag("weights", weights);
      checkFlag("reference", reference);
      checkFlag("copy", copy);
      if (options.maskValue !== undefined) {
        throw new Error(
          "maskValue is for attention() and selfAttention(); attentionBatched masks with -Infinity",
        );
      }
      const packed = packOptions(options);
      const { batch, heads, nQ, nK, dK, dV } = shape;
      // 1. plan the call: the core checks everything and gives it one block of memory
      const request = batchRequest({
        ...Object.fromEntries(batchDims.map((dim) => [dim, shape[dim]])),
        qSize: q.length,
        kSize: k.length,
        vSize: v.length,
        causal: packed.causal,
        mask: packed.mask !== undefined,
        maskRows: packed.mask?.rows ?? 0,
        maskCols: packed.mask?.cols ?? 0,
        weights,
        reference,
        hasScale: packed.scale !== undefined,
        scale: packed.scale ?? 0,
        dropoutP: packed.dropoutP,
        seed: packed.seed,
      });
      core.HEAPF64.set(request, core._batch_request() >> 3);
      const planned = core._batch_plan();
      if (!planned) throw new Error(core.batchError());
      // 2. copy the inputs in; the heap may have grown, so its views are read afresh
      const at = core.HEAPU32;
      const heap = core.HEAPF32;
      const buffer = (name) => at[(planned >> 2) + buffers[name]];
      heap.set(q, buffer("q") >> 2);
      heap.set(k, buffer("k") >> 2);
      heap.set(v, buffer("v") >> 2);
      if (packed.mask) core.HEAPU8.set(packed.mask.data, buffer("mask"));
      // 3. run it, then hand out the results: copies the caller owns, or views of the block
      if (!core._batch_run()) throw new Error(core.batchError());
      const take = (address, n) =>
        copy
          ? heap.slice(address >> 2, (address >> 2) + n)
          : heap.subarray(address >> 2, (address >> 2) + n);
      const result = { output: take(buffer("output"), batch * heads * nQ * dV) };
      if (weights) result.weights = take(buffer("weights"), batch * heads * nQ * nK);
      if (copy) core._batch_release();
      return result;
    },

    /** Diagnostics for the leak tests: malloc'd bytes, heap top and size, live JS handles. */
    memory() {
      return {
        inUse: core.heapInUse(),
        heapTop: core.heapTop(),
        heapBytes: core.HEAP8.length,
        handles: core.count_emval_handles(),
      };
    },
  };
}

// ---- Labs: attention inside a model: multi-head and grouped-query attention, the KV
// cache, positions ----

const positionKinds = { none: 0, sinusoidal: 1, rope: 2 };

function checkWhole(name, x, least) {
  if (!Number.isSafeInteger(x) || x < least) {
    throw new Error(`${name} must be a whole number of at least ${least}, not ${x}`);
  }
}

// { heads, kvHeads, causal, mask, positions, base, peScale, scale } → what the bindings read
function packModelOptions(options = {}) {
  const { heads = 1, kvHeads = heads, positions = "none", base = 10000, peScale = 1 } = options;
  const { scale } = options;
  checkWhole("heads", heads, 1);
  checkWhole("kvHeads", kvHeads, 1);
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

function packWeights(weights) {
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

function unpackAngles(raw) {
  const out = {
    positions: Array.from(raw.positions),
    theta: Array.from(raw.theta),
    angles: unpackMatrix(raw.angles),
    cos: unpackMatrix(raw.cos),
    sin: unpackMatrix(raw.sin),
  };
  if (raw.encoding) out.encoding = unpackMatrix(raw.encoding);
  if (raw.rotated) out.rotated = unpackMatrix(raw.rotated);
  return out;
}

function unpackMultiHead(raw) {
  const trace = {
    h: raw.h,
    hKv: raw.hKv,
    dHead: raw.dHead,
    kvHead: Array.from(raw.kvHead),
    x: unpackMatrix(raw.x),
    q: unpackMatrix(raw.q),
    k: unpackMatrix(raw.k),
    v: unpackMatrix(raw.v),
    heads: raw.heads.map(unpackTrace),
    concat: unpackMatrix(raw.concat),
    output: unpackMatrix(raw.output),
  };
  if (raw.sinusoidal) trace.sinusoidal = unpackAngles(raw.sinusoidal);
  if (raw.qRotated) trace.qRotated = unpackAngles(raw.qRotated);
  if (raw.kRotated) trace.kRotated = unpackAngles(raw.kRotated);
  return trace;
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
  checkWhole("cache.length", length, 0);
  checkWhole("cache.width", width, 0);
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

function wrapModel(core) {
  const model = {
    multiHeadAttention(x, weights, options) {
      return unpackMultiHead(
        check(
          core.multiHeadAttention(
            packMatrix("X", x),
            packWeights(weights),
            packModelOptions(options),
          ),
        ),
      );
    },

    decodeStep(cache, x, weights, options) {
      if (!Array.isArray(x)) throw new Error("x must be one token's row, an array of numbers");
      const [k, v] = packCache(cache);
      const raw = check(
        core.decodeStep(
          packMatrix("x", [x]),
          k,
          v,
          packWeights(weights),
          packModelOptions(options),
        ),
      );
      const trace = unpackMultiHead(raw.trace);
      return {
        cache: {
          k: raw.kCache.data,
          v: raw.vCache.data,
          length: raw.kCache.rows,
          width: raw.kCache.cols,
        },
        position: raw.position,
        output: trace.output[0],
        trace,
        cost: { ...raw.cost },
        full: { ...raw.full },
      };
    },

    decoder(weights, options) {
      let cache = null;
      return {
        step(x) {
          const result = model.decodeStep(cache, x, weights, options);
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
      if (!Array.isArray(positions)) throw new Error("positions must be an array of numbers");
      checkWhole("dModel", dModel, 1);
      if (typeof base !== "number") throw new Error("base must be a number");
      return unpackAngles(
        check(core.sinusoidalPositions(Float64Array.from(positions), dModel, base)),
      );
    },

    rotary(m, positions, dHead, { base = 10000 } = {}) {
      if (!Array.isArray(positions)) throw new Error("positions must be an array of numbers");
      checkWhole("dHead", dHead, 1);
      if (typeof base !== "number") throw new Error("base must be a number");
      return unpackAngles(
        check(core.rotary(packMatrix("M", m), Float64Array.from(positions), dHead, base)),
      );
    },
  };
  return model;
}

// ---- Labs: why it is built this way: tiling, the 1/√d_k statistics, dropout ----

function wholeNumber(name, x) {
  if (!Number.isSafeInteger(x) || x < 0) {
    throw new Error(`${name} must be a whole number, not ${JSON.stringify(x)}`);
  }
  return x;
}

const vectors = (raw, names) => Object.fromEntries(names.map((n) => [n, Array.from(raw[n])]));

function whyLabs(core) {
  return {
    /** Online softmax over blocks of keys: m, ℓ and the partial output after every block. */
    tiledAttention(q, k, v, { block, ...options } = {}) {
      const raw = check(
        core.tiledAttention(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          wholeNumber("block", block),
          packOptions(options),
        ),
      );
      const blocks = [];
      for (let b = 0; b < raw.blocks.length; ++b) {
        const one = raw.blocks[b];
        blocks.push({
          start: one.start,
          end: one.end,
          logits: unpackMatrix(one.logits),
          p: unpackMatrix(one.p),
          acc: unpackMatrix(one.acc),
          partial: unpackMatrix(one.partial),
          ...vectors(one, ["blockMax", "m", "rescale", "l"]),
        });
      }
      return {
        block: raw.block,
        scale: raw.scale,
        blocks,
        output: unpackMatrix(raw.output),
        full: unpackMatrix(raw.full),
        maxDifference: raw.maxDifference,
        blockedRows: Array.from(raw.blockedRows),
      };
    },

    /** The seeded unit-variance q (rows×dK) and keys (rows·nKeys×dK) behind scalingStats. */
    scalingBatch({ dK, nKeys = 8, rows = 100, seed = 1 } = {}) {
      const raw = check(
        core.scalingBatch(
          wholeNumber("dK", dK),
          wholeNumber("nKeys", nKeys),
          wholeNumber("rows", rows),
          wholeNumber("seed", seed),
        ),
      );
      return { q: unpackMatrix(raw.q), k: unpackMatrix(raw.k) };
    },

    /** The spread of q·k and the mean largest softmax weight, with and without 1/√dK. */
    scalingStats({ dK, nKeys = 8, rows = 100, seed = 1 } = {}) {
      const raw = check(
        core.scalingStats(
          wholeNumber("dK", dK),
          wholeNumber("nKeys", nKeys),
          wholeNumber("rows", rows),
          wholeNumber("seed", seed),
        ),
      );
      const { exampleQ, exampleK, exampleScores, exampleUnscaled, exampleScaled, ...numbers } = raw;
      return {
        ...numbers,
        exampleK: unpackMatrix(exampleK),
        ...vectors(raw, ["exampleQ", "exampleScores", "exampleUnscaled", "exampleScaled"]),
      };
    },

    /** Dropout: one draw (seed), and the average of draws draws (seeds seed, seed + 1 …). */
    dropoutStats(q, k, v, { p, seed = 0, draws = 1000, ...options } = {}) {
      const raw = check(
        core.dropoutStats(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          packOptions({ ...options, dropout: { p, seed } }),
          wholeNumber("draws", draws),
        ),
      );
      const matrices = [
        "weights",
        "output",
        "dropped",
        "drawOutput",
        "meanDropped",
        "meanOutput",
        "kept",
      ];
      return {
        ...Object.fromEntries(matrices.map((m) => [m, unpackMatrix(raw[m])])),
        ...vectors(raw, ["droppedRowSums", "counts", "differences"]),
        maxDifference: raw.maxDifference,
      };
    },
  };
}

// ---- Labs: how attention learns: the gradients, given dL/d(output) ----

// { output, weights, scaled, … } of raw gradients → arrays of rows, rowDot as numbers
function unpackGradients(raw) {
  const out = {};
  for (const [name, value] of Object.entries(raw)) {
    out[name] = ArrayBuffer.isView(value) ? Array.from(value) : unpackMatrix(value);
  }
  return out;
}

// dL/d(output), and a loss's own dL/d(weights) when it has one → what the bindings read
function packLoss(dOutput, dWeights) {
  const loss = { output: packMatrix("dOutput", dOutput) };
  if (dWeights !== undefined) loss.weights = packMatrix("dWeights", dWeights);
  return loss;
}

function learnLabs(core) {
  return {
    /**
     * attention()'s trace, and dL/d of every step and input for dL/d(output) = dOutput; a loss
     * on the weights themselves adds its own dL/d(weights) as options.dWeights.
     */
    attentionBackward(q, k, v, dOutput, { dWeights, ...options } = {}) {
      const raw = check(
        core.attentionBackward(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          packLoss(dOutput, dWeights),
          packOptions(options),
        ),
      );
      return { trace: unpackTrace(raw.trace), gradients: unpackGradients(raw.gradients) };
    },

    /** The same for selfAttention(): also dL/dX, dL/dW_Q, dL/dW_K and dL/dW_V. */
    selfAttentionBackward(x, wq, wk, wv, dOutput, { dWeights, ...options } = {}) {
      const raw = check(
        core.selfAttentionBackward(
          packMatrix("X", x),
          packMatrix("W_Q", wq),
          packMatrix("W_K", wk),
          packMatrix("W_V", wv),
          packLoss(dOutput, dWeights),
          packOptions(options),
        ),
      );
      return { trace: unpackTrace(raw.trace), gradients: unpackGradients(raw.gradients) };
    },

    /** multiHeadAttention()'s trace and the layer's gradients: dW_O, each head's, dX … */
    multiHeadBackward(x, weights, dOutput, options) {
      const raw = check(
        core.multiHeadBackward(
          packMatrix("X", x),
          packWeights(weights),
          packMatrix("dOutput", dOutput),
          packModelOptions(options),
        ),
      );
      const { heads, ...layer } = raw.gradients;
      return {
        trace: unpackMultiHead(raw.trace),
        gradients: { ...unpackGradients(layer), heads: heads.map(unpackGradients) },
      };
    },
  };
}

// ---- Labs: how it learns, gradient descent as the labs run it ----

function descentLabs(core) {
  return {
    /**
     * Gradient descent on α, which multiplies the query q (1, dK) of a lookup with one value
     * column: L = (output − target)², α ← α − eta·dL/dα, `steps` times from `alpha`.
     */
    sharpnessDescent(q, k, v, { target, alpha, eta, steps }) {
      for (const [name, x] of Object.entries({ target, alpha, eta })) {
        if (typeof x !== "number") throw new Error(`${name} must be a number`);
      }
      const raw = check(
        core.sharpnessDescent(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          target,
          alpha,
          eta,
          wholeNumber("steps", steps),
        ),
      );
      return raw.map(({ trace, gradients, ...numbers }) => ({
        ...numbers,
        trace: unpackTrace(trace),
        gradients: unpackGradients(gradients),
      }));
    },

    /**
     * Gradient descent on W_Q and W_K of self-attention (W_V kept), on the cross-entropy
     * −log weights[row][key] (row and key from 0), `steps` times with learning rate eta.
     */
    teachDescent(x, wq, wk, wv, { row, key, eta, steps }) {
      if (typeof eta !== "number") throw new Error("eta must be a number");
      const raw = check(
        core.teachDescent(
          packMatrix("X", x),
          packMatrix("W_Q", wq),
          packMatrix("W_K", wk),
          packMatrix("W_V", wv),
          wholeNumber("row", row),
          wholeNumber("key", key),
          eta,
          wholeNumber("steps", steps),
        ),
      );
      return {
        steps: raw.steps.map(({ trace, gradients, wq: q, wk: k, loss }) => ({
          wq: unpackMatrix(q),
          wk: unpackMatrix(k),
          loss,
          trace: unpackTrace(trace),
          gradients: unpackGradients(gradients),
        })),
        wq: unpackMatrix(raw.wq),
        wk: unpackMatrix(raw.wk),
        after: { trace: unpackTrace(raw.after) },
      };
    },
  };
}

// ---- A real model: the small transformer trained on Tang poems ----

const gptFields = ["vocab", "context", "dModel", "layers", "heads"];

// { vocab, context, dModel, layers, heads, base? } → what the bindings read
function packGptConfig(config) {
  if (typeof config !== "object" || config === null) throw new Error("config must be an object");
  const packed = {};
  for (const name of gptFields) packed[name] = wholeNumber(`config.${name}`, config[name]);
  const base = config.base ?? 10000;
  if (typeof base !== "number") throw new Error("config.base must be a number");
  return { ...packed, base };
}

function packTokens(name, tokens) {
  if (!Array.isArray(tokens) && !ArrayBuffer.isView(tokens)) {
    throw new Error(`${name} must be an array of token ids`);
  }
  const ids = Int32Array.from(tokens);
  Array.from(tokens).forEach((t, i) => {
    if (!Number.isInteger(t))
      throw new Error(`${name}[${i + 1}] is ${JSON.stringify(t)}, not an id`);
  });
  return ids;
}

function packParams(model) {
  if (!(model?.params instanceof Float32Array) && !(model?.params instanceof Float64Array)) {
    throw new Error("model.params must be a Float32Array or a Float64Array");
  }
  return model.params;
}

function modelLabs(core) {
  const run = (model, f) => check(f(packGptConfig(model?.config), packParams(model)));
  return {
    /** Where each parameter lives in the flat buffer: [{ name, rows, cols, offset, decay }]. */
    gptLayout(config) {
      return check(core.gptLayout(packGptConfig(config)));
    },

    /** The shipped weights file (int8 with a float32 scale per matrix row) → { config, params }. */
    gptModel(config, bytes) {
      if (!(bytes instanceof Uint8Array)) throw new Error("bytes must be a Uint8Array");
      const packed = packGptConfig(config);
      return { config: packed, params: check(core.gptDequantize(packed, bytes)) };
    },

    /**
     * One sequence through the model: per layer the rotated q and k, and v (T, C); per head the
     * scores q·k/√d_head and the causal weights (T, T); the logits and probabilities of the
     * next token (T, V); with targets (−1 where none), the mean loss. precise: in float64.
     */
    gptForward(model, tokens, { targets, precise = false } = {}) {
      checkFlag("precise", precise);
      const ids = packTokens("tokens", tokens);
      const wanted = targets === undefined ? undefined : packTokens("targets", targets);
      const raw = run(model, (c, p) => core.gptForward(c, p, ids, wanted, precise));
      return {
        layers: raw.layers.map(({ q, k, v, scores, weights }) => ({
          q: unpackMatrix(q),
          k: unpackMatrix(k),
          v: unpackMatrix(v),
          scores: scores.map(unpackMatrix),
          weights: weights.map(unpackMatrix),
        })),
        logits: unpackMatrix(raw.logits),
        probs: unpackMatrix(raw.probs),
        top: Array.from(raw.top),
        sum: Array.from(raw.sum),
        loss: raw.loss,
      };
    },

    /** The mean loss of `batch` sequences and its gradient, flat, in gptLayout's order. */
    gptGradients(model, tokens, targets, { batch = 1, precise = false } = {}) {
      checkFlag("precise", precise);
      const ids = packTokens("tokens", tokens);
      const wanted = packTokens("targets", targets);
      return run(model, (c, p) =>
        core.gptGradients(c, p, ids, wholeNumber("batch", batch), wanted, precise),
      );
    },

    /** Up to `count` tokens after the prompt, sampled at `temperature` with a seeded stream. */
    gptGenerate(model, prompt, { count, temperature = 1, seed = 1 }) {
      if (typeof temperature !== "number") throw new Error("temperature must be a number");
      const ids = packTokens("prompt", prompt);
      const n = wholeNumber("count", count);
      const s = wholeNumber("seed", seed);
      return Array.from(run(model, (c, p) => core.gptGenerate(c, p, ids, n, temperature, s)));
    },

    /** The mean loss over a stream, in windows of the context, each predicting the next id. */
    gptStreamLoss(model, stream) {
      const ids = packTokens("stream", stream);
      return run(model, (c, p) => core.gptStreamLoss(c, p, ids)).loss;
    },

    /**
     * A training run in float32, from seeded random weights: step(n) takes n AdamW steps and
     * returns their losses; params() the weights now; close() frees it.
     */
    gptTrainer(config, data, { batch = 16, lr = 3e-3, total, seed = 1 }) {
      if (typeof lr !== "number") throw new Error("lr must be a number");
      const packed = packGptConfig(config);
      const { id } = check(
        core.gptTrainOpen(
          packed,
          packTokens("data", data),
          wholeNumber("batch", batch),
          lr,
          wholeNumber("total", total),
          wholeNumber("seed", seed),
        ),
      );
      return {
        config: packed,
        step(n) {
          const raw = check(core.gptTrainSteps(id, wholeNumber("n", n)));
          return { losses: Array.from(raw.losses), step: raw.step };
        },
        /** Part of a step: the next `sequences` of its batch; the loss when the step ends. */
        slice(sequences) {
          return check(core.gptTrainSlice(id, wholeNumber("sequences", sequences)));
        },
        params: () => check(core.gptTrainParams(id)),
        close: () => core.gptTrainClose(id),
      };
    },
  };
}
