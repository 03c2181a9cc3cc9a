// attention.js: the only JS that touches the WASM core. Arrays of rows go in, a trace of named
// steps comes out as arrays of rows; a core error becomes a thrown Error. Same import in Node
// and in the browser.
import createAttentionCore from "./generated/attention-core.mjs";

// The small model's tokenizer, the one its lab reads a line with (pure; no core needed).
export { gptEncode, gptDecode } from "./tokens.js";

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
      ...insideLabs(core),
      ...whyLabs(core),
      ...learnLabs(core),
      ...gptLabs(core),
      ...realLabs(core),
    };
  });
  return loadingLabs;
}

// A value as a message quotes it: numbers as JS writes them (NaN, Infinity), the rest as JSON.
const quote = (x) => (typeof x === "number" ? String(x) : JSON.stringify(x));

// The one check of a whole number (a count, a size, an index, a seed): a safe integer of at
// least `least`, returned as it was given.
function whole(name, x, least = 0) {
  if (!Number.isSafeInteger(x) || x < least) {
    const bound = least > 0 ? ` of at least ${least}` : "";
    throw new Error(`${name} must be a whole number${bound}, not ${quote(x)}`);
  }
  return x;
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
        throw new Error(`${name}[${i + 1}][${j + 1}] is ${quote(x)}, not a number`);
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

// Results arrive as the core declares them (src/fields.hpp, walked by src/wasm/convert.hpp):
// objects of camelCase fields, matrices as { rows, cols, data }, vectors as typed arrays.
// unpack() makes every matrix arrays of rows and every vector an array of numbers, except the
// fields named here, which stay as the core gave them:
const staysTyped = new Set([
  // the KV cache is the caller's own typed arrays, handed back at the next step unchanged
  "kCache",
  "vCache",
  // a model's gradient: one flat Float32Array in gptLayout's order (195,392 numbers for the
  // shipped model), as the parameters are
  "gradients",
  // a text's token streams (textCorpus): up to a million ids each, handed to a trainer as they are
  "train",
  "validation",
  "heldOut",
]);

const isMatrix = (x) =>
  ArrayBuffer.isView(x.data) && Object.keys(x).length === 3 && "rows" in x && "cols" in x;

function unpack(value, name) {
  if (ArrayBuffer.isView(value)) return staysTyped.has(name) ? value : Array.from(value);
  if (Array.isArray(value)) return value.map((one) => unpack(one));
  if (typeof value !== "object" || value === null) return value;
  if (isMatrix(value)) return staysTyped.has(name) ? value : unpackMatrix(value);
  return Object.fromEntries(Object.entries(value).map(([key, one]) => [key, unpack(one, key)]));
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
      throw new Error("mask must hold only true and false (or 1 and 0)");
    }
    packed.mask = { ...cells, data: Uint8Array.from(cells.data) };
  } else if (mask !== undefined && mask !== "causal") {
    throw new Error("mask must be 'causal' or an n_q×n_k array of booleans (or of 1s and 0s)");
  }
  if (dropout !== undefined) {
    const { p, seed = 0 } = dropout;
    if (typeof p !== "number") throw new Error("dropout.p must be a number");
    packed.dropoutP = p;
    packed.seed = whole("dropout.seed", seed);
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

// A core call's result, unpacked, or its error thrown.
const unpacked = (result) => unpack(check(result));

// The batched call's layout, as the core defines it (batchLayout in src/wasm/core.cpp): the
// request's fields, doubles in their order, and the planned buffers' addresses. A request is
// written by name, always with the same names; a field that one side has and the other lacks is
// an error at the first call (checked once: a call at 3 tokens is a few microseconds).
function batchLayoutOf(core) {
  const layout = core.batchLayout();
  const fields = [...layout.request];
  let checked = false;
  return {
    fields,
    buffers: Object.fromEntries(layout.buffers.map((name, i) => [name, i])),
    request(values) {
      if (!checked) {
        const given = Object.keys(values);
        if (given.length !== fields.length || !fields.every((f) => Object.hasOwn(values, f))) {
          throw new Error(`the batched request has ${given}, but the core reads ${fields}`);
        }
        checked = true;
      }
      const doubles = new Float64Array(fields.length);
      fields.forEach((f, i) => (doubles[i] = Number(values[f])));
      return doubles;
    },
  };
}

function wrap(core) {
  const { buffers, request: batchRequest } = batchLayoutOf(core);
  return {
    attention(q, k, v, options) {
      return unpacked(
        core.attend(
          packMatrix("Q", q),
          packMatrix("K", k),
          packMatrix("V", v),
          packOptions(options),
        ),
      );
    },

    selfAttention(x, wq, wk, wv, options) {
      return unpacked(
        core.selfAttention(
          packMatrix("X", x),
          packMatrix("W_Q", wq),
          packMatrix("W_K", wk),
          packMatrix("W_V", wv),
          packOptions(options),
        ),
      );
    },

    attentionBatched(q, k, v, shape, options = {}) {
      checkFloat32("Q", q);
      checkFloat32("K", k);
      checkFloat32("V", v);
      for (const dim of batchDims) whole(`shape.${dim}`, shape?.[dim]);
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
        batch,
        heads,
        nQ,
        nK,
        dK,
        dV,
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

// ---- Lesson 2, inside a model (src/wasm/inside.cpp): multi-head and grouped-query
// attention, the KV cache, positions ----

const positionKinds = { none: 0, sinusoidal: 1, rope: 2 };

// { heads, kvHeads, causal, mask, positions, base, peScale, scale } → what the bindings read
function packMultiHeadOptions(options = {}) {
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

function insideLabs(core) {
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

// ---- Lesson 3, why it is built this way (src/wasm/why.cpp): tiling, the 1/√d_k
// statistics, dropout ----

function whyLabs(core) {
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
    scalingBatch({ dK, nKeys = 8, rows = 100, seed = 1 } = {}) {
      return unpacked(
        core.scalingBatch(
          whole("dK", dK),
          whole("nKeys", nKeys),
          whole("rows", rows),
          whole("seed", seed),
        ),
      );
    },

    /** The spread of q·k and the mean largest softmax weight, with and without 1/√dK. */
    scalingStats({ dK, nKeys = 8, rows = 100, seed = 1 } = {}) {
      return unpacked(
        core.scalingStats(
          whole("dK", dK),
          whole("nKeys", nKeys),
          whole("rows", rows),
          whole("seed", seed),
        ),
      );
    },

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

// ---- Lesson 4, how attention learns (src/wasm/learn.cpp): the gradients, given
// dL/d(output), and gradient descent as the labs run it ----

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

function learnLabs(core) {
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

// ---- Lesson 5, a real model (src/wasm/gpt.cpp): the small transformer trained on Tang
// poems ----

const gptFields = ["vocab", "context", "dModel", "layers", "heads"];

// { vocab, context, dModel, layers, heads, base?, mlp? } → what the bindings read
function packGptConfig(config) {
  if (typeof config !== "object" || config === null) throw new Error("config must be an object");
  const packed = {};
  for (const name of gptFields) packed[name] = whole(`config.${name}`, config[name]);
  const base = config.base ?? 10000;
  if (typeof base !== "number") throw new Error("config.base must be a number");
  const mlp = config.mlp ?? true;
  checkFlag("config.mlp", mlp);
  return { ...packed, base, mlp };
}

// The most bytes of a text that textCorpus reads (src/text.hpp's kMaxTextBytes).
const textLimit = 1 << 20;

const inductionFields = ["vocab", "context", "minSegment", "maxSegment"];

// { vocab, context, minSegment, maxSegment } → what the bindings read
function packInductionTask(task) {
  if (typeof task !== "object" || task === null) throw new Error("task must be an object");
  return Object.fromEntries(
    inductionFields.map((name) => [name, whole(`task.${name}`, task[name])]),
  );
}

// Token ids, each checked as the number the caller gave (a whole number from 0 to vocab − 1;
// targets may also be −1, "no target") before they are packed, so that none is wrapped.
function packTokens(name, tokens, vocab, { noTarget = false } = {}) {
  if (!Array.isArray(tokens) && !ArrayBuffer.isView(tokens)) {
    throw new Error(`${name} must be an array of token ids`);
  }
  const least = noTarget ? -1 : 0;
  Array.from(tokens).forEach((t, i) => {
    if (!Number.isInteger(t) || t < least || t >= vocab) {
      const range = `an id from ${least} to ${vocab - 1}`;
      throw new Error(`${name}[${i + 1}] is ${quote(t)}, not ${range}`);
    }
  });
  return Int32Array.from(tokens);
}

// The parameters, checked finite where they enter; a bad one is named by its tensor and cell.
function packParams(core, model, config) {
  const params = model?.params;
  if (!(params instanceof Float32Array) && !(params instanceof Float64Array)) {
    throw new Error("model.params must be a Float32Array or a Float64Array");
  }
  const bad = params.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) {
    const layout = check(core.gptLayout(config));
    const t = layout.findLast((one) => one.offset <= bad);
    const cell = t && bad < t.offset + t.rows * t.cols ? t : null;
    const at = bad - (cell?.offset ?? 0);
    const where = cell ? ` (${t.name}[${Math.floor(at / t.cols) + 1}][${(at % t.cols) + 1}])` : "";
    throw new Error(`model.params[${bad}]${where} is ${params[bad]}, not a finite number`);
  }
  return params;
}

// ---- A model's two files (src/gpt_file.hpp): its weights and its description, the JSON of
// { format, version, config, chars, … }. What the description says about the model is checked
// in the core; its JSON's shape here. ----

const modelFormat = "attention-by-hand model";
const modelVersion = 1;
const int32 = 2 ** 31 - 1; // a size the core reads: larger ones are refused here, named

// What a value is, for a message: the string "…", the number 5, an array, a Uint8Array, null.
function kindOf(x) {
  if (x === null || x === undefined || typeof x === "boolean") return String(x);
  if (Array.isArray(x)) return "an array";
  if (typeof x === "number") return `the number ${x}`;
  if (typeof x === "string") return `the string ${JSON.stringify(x.slice(0, 40))}`;
  if (typeof x !== "object") return `a ${typeof x}`;
  const made = Object.getPrototypeOf(x)?.constructor?.name;
  if (!made || made === "Object") return "an object";
  return `${/^[AEIO]/.test(made) ? "an" : "a"} ${made}`; // a Uint8Array, an Int8Array
}

// A plain object, as JSON.parse makes them: not an array, a typed array or a class's instance.
const isObject = (x) =>
  typeof x === "object" &&
  x !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(x));

// Where JSON.parse stopped in `text`: the index of the first character that is not JSON (the
// text's length when it ends too soon). Engines word and place their errors differently (V8 gives
// no position for an unexpected token), so the place is found here, by the grammar of RFC 8259.
function jsonErrorAt(text) {
  let i = 0;
  const fail = () => {
    throw i;
  };
  const space = () => {
    while (" \t\n\r".includes(text[i] ?? "x")) i++;
  };
  const word = (w) => {
    for (const c of w) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c < " ") fail();
      i++;
      if (c === '"') return;
      if (c !== "\\") continue;
      if (text[i] === "u") {
        i++;
        for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
      } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) {
        i++;
      } else {
        fail();
      }
    }
  };
  const value = () => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ":") fail();
          i++;
        }
        value();
        space();
        if (text[i] === close) return void i++;
        if (text[i] !== ",") fail();
        i++;
      }
    }
    if (c === '"') return string();
    if (c === "t" || c === "f" || c === "n") return word({ t: "true", f: "false", n: "null" }[c]);
    numberPattern.lastIndex = i;
    if (!numberPattern.test(text)) fail();
    i = numberPattern.lastIndex;
  };
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (at) {
    if (typeof at === "number") return at;
    return -1; // nested too deep to follow here: the engine's words alone
  }
}

// The description's text parsed, or an Error saying what JSON.parse said and where: line and
// column (from 1, in characters).
function parseDescription(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = e.message
      .replace(/,? (?:\.\.\.)?".*" is not valid JSON$/s, "")
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(/^JSON\.parse: /, "");
    const at = jsonErrorAt(text);
    if (at < 0) throw new Error(`the description is not JSON: ${reason}`);
    const before = text.slice(0, at).split("\n");
    const where = `line ${before.length}, column ${[...before.at(-1)].length + 1}`;
    throw new Error(`the description is not JSON: ${reason} (${where})`);
  }
}

// The description as an object, its format and version read (no format: version 1, as tang.json).
function readDescription(description) {
  const d = typeof description === "string" ? parseDescription(description) : description;
  if (!isObject(d)) {
    const given = typeof description === "string" ? "JSON of " : "";
    throw new Error(
      `the description must be an object { format, version, config, chars, … } or its JSON text, not ${given}${kindOf(d)}`,
    );
  }
  if ("format" in d && d.format !== modelFormat) {
    throw new Error(`format is ${kindOf(d.format)}; this reads only "${modelFormat}" files`);
  }
  if (!("config" in d) && !("format" in d)) {
    const fields = Object.keys(d);
    const shown = fields.slice(0, 6).join(", ") + (fields.length > 6 ? ", …" : "");
    throw new Error(
      `the description has no config: it is not a model's description (its fields: ${shown || "none"})`,
    );
  }
  if ("format" in d && !("version" in d)) throw new Error("version is missing");
  if ("version" in d && d.version !== modelVersion) {
    throw new Error(`version is ${kindOf(d.version)}; this reads version ${modelVersion}`);
  }
  return d;
}

// A description's config, each field checked as the JSON gives it, packed for the core, which
// checks the ranges.
function readDescriptionConfig(config) {
  if (config === undefined) throw new Error("config is missing");
  if (!isObject(config)) throw new Error(`config is ${kindOf(config)}, not an object`);
  // a field the loader does not know (a misspelt Base) would be ignored, and the model run with
  // another base: refused, named, with the names it knows
  const known = [...gptFields, "base", "mlp"];
  const unknown = Object.keys(config).find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new Error(`config has no field "${unknown}"; its fields are ${known.join(", ")}`);
  }
  const packed = {};
  for (const name of gptFields) {
    const x = config[name];
    if (x === undefined) throw new Error(`config.${name} is missing`);
    if (typeof x !== "number") throw new Error(`config.${name} is ${kindOf(x)}, not a number`);
    if (!Number.isInteger(x)) throw new Error(`config.${name} is ${x}, not a whole number`);
    if (Math.abs(x) > int32) {
      throw new Error(`config.${name} is ${x}, past any size the core reads (${int32})`);
    }
    packed[name] = x;
  }
  const base = config.base ?? 10000;
  if (typeof base !== "number") throw new Error(`config.base is ${kindOf(base)}, not a number`);
  const mlp = config.mlp ?? true;
  if (typeof mlp !== "boolean") throw new Error(`config.mlp is ${kindOf(mlp)}, not true or false`);
  return { ...packed, base, mlp };
}

// chars as the JSON gives it: a string of whole characters (no lone surrogate, which the core's
// UTF-8 cannot hold); the core checks its count and that no character comes twice.
function readChars(chars) {
  if (chars === undefined) throw new Error("chars is missing: the model's characters, a string");
  if (typeof chars !== "string") throw new Error(`chars is ${kindOf(chars)}, not a string`);
  const lone = [...chars].findIndex((c) => /\p{Surrogate}/u.test(c));
  if (lone >= 0) {
    const code = [...chars][lone].codePointAt(0).toString(16).toUpperCase();
    throw new Error(`chars character ${lone + 1} is a lone surrogate (U+${code}), not a character`);
  }
  return chars;
}

// A trainer lives in the core between calls (src/wasm/gpt.cpp says why); one whose object is
// collected without close() is closed here.
const trainerRegistry = (core) =>
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((id) => core.gptTrainClose(id))
    : { register() {}, unregister() {} };

function gptLabs(core) {
  const run = (model, f) => {
    const config = packGptConfig(model?.config);
    return check(f(config, packParams(core, model, config)));
  };
  const trainers = trainerRegistry(core);
  // A session opened in the core: the trainer object of gptTrainer and inductionTrainer.
  const session = (id, config) => {
    const trainer = {
      config,
      step(n) {
        return unpacked(core.gptTrainSteps(id, whole("n", n)));
      },
      /** Part of a step: the next `sequences` of its batch; the loss when the step ends. */
      slice(sequences) {
        return check(core.gptTrainSlice(id, whole("sequences", sequences)));
      },
      params: () => check(core.gptTrainParams(id)),
      close() {
        trainers.unregister(trainer);
        core.gptTrainClose(id);
      },
    };
    trainers.register(trainer, id, trainer);
    return trainer;
  };
  return {
    /** Where each parameter lives in the flat buffer: [{ name, rows, cols, offset, decay }]. */
    gptLayout(config) {
      return unpacked(core.gptLayout(packGptConfig(config)));
    },

    /** The shipped weights file (int8 with a float32 scale per matrix row) → { config, params }. */
    gptModel(config, bytes) {
      if (!(bytes instanceof Uint8Array)) throw new Error("bytes must be a Uint8Array");
      const packed = packGptConfig(config);
      return { config: packed, params: check(core.gptDequantize(packed, bytes)) };
    },

    /**
     * A model's two files, to keep it: { weights: the weights file's bytes (int8, as tang.bin),
     * description: the JSON text of { format, version, config, chars, …the rest of description } }.
     * description must give chars; its format, version and config, if given, must be these.
     */
    gptModelFiles(model, description) {
      const config = packGptConfig(model?.config);
      const params = packParams(core, model, config);
      if (!isObject(description)) {
        throw new Error(`description must be an object { chars, … }, not ${kindOf(description)}`);
      }
      const { format, version, config: given, chars, ...rest } = description;
      if (format !== undefined && format !== modelFormat) {
        throw new Error(`description.format is ${kindOf(format)}; it is written "${modelFormat}"`);
      }
      if (version !== undefined && version !== modelVersion) {
        throw new Error(`description.version is ${kindOf(version)}; it is written ${modelVersion}`);
      }
      if (given !== undefined) {
        const other = packGptConfig(given);
        const differs = Object.keys(config).find((name) => other[name] !== config[name]);
        if (differs) {
          throw new Error(
            `description.config.${differs} is ${other[differs]} but the model's is ${config[differs]}`,
          );
        }
      }
      const checked = core.gptCheckChars(config, readChars(chars));
      if (checked !== undefined) check(checked);
      const weights = check(core.gptQuantize(config, params));
      const written = { format: modelFormat, version: modelVersion, config, chars, ...rest };
      let text;
      try {
        text = JSON.stringify(written, null, 2);
      } catch (e) {
        throw new Error(`description cannot be written as JSON: ${e.message}`);
      }
      return { weights, description: `${text}\n` };
    },

    /**
     * A model from its two files, every field checked before use: description (its JSON text, or
     * the parsed object) and weights (the weights file's bytes) → { model: { config, params },
     * description (the parsed object), chars }; or an Error naming the field and what is wrong.
     */
    gptModelFromFiles(description, weights) {
      const d = readDescription(description);
      const config = readDescriptionConfig(d.config);
      const chars = readChars(d.chars);
      if (!(weights instanceof Uint8Array)) {
        throw new Error(
          `weights must be a Uint8Array (the weights file's bytes), not ${kindOf(weights)}`,
        );
      }
      const params = check(core.gptReadModel(config, chars, weights));
      return { model: { config, params }, description: d, chars };
    },

    /**
     * One sequence through the model: per layer the rotated q and k, and v (T, C); per head the
     * scores q·k/√d_head and the causal weights (T, T); the logits and probabilities of the
     * next token (T, V); with targets (−1 where none), the mean loss. precise: in float64.
     */
    gptForward(model, tokens, { targets, precise = false } = {}) {
      checkFlag("precise", precise);
      const { vocab } = packGptConfig(model?.config);
      const ids = packTokens("tokens", tokens, vocab);
      if (ids.length === 0) throw new Error("tokens is empty: give it at least one token id");
      const wanted =
        targets === undefined
          ? undefined
          : packTokens("targets", targets, vocab, { noTarget: true });
      return unpack(run(model, (c, p) => core.gptForward(c, p, ids, wanted, precise)));
    },

    /** The mean loss of `batch` sequences and its gradient, flat, in gptLayout's order. */
    gptGradients(model, tokens, targets, { batch = 1, precise = false } = {}) {
      checkFlag("precise", precise);
      const { vocab } = packGptConfig(model?.config);
      const ids = packTokens("tokens", tokens, vocab);
      const wanted = packTokens("targets", targets, vocab, { noTarget: true });
      return unpack(
        run(model, (c, p) => core.gptGradients(c, p, ids, whole("batch", batch), wanted, precise)),
      );
    },

    /** Up to `count` tokens after the prompt, sampled at `temperature` with a seeded stream. */
    gptGenerate(model, prompt, { count, temperature = 1, seed = 1 } = {}) {
      if (typeof temperature !== "number") throw new Error("temperature must be a number");
      const ids = packTokens("prompt", prompt, packGptConfig(model?.config).vocab);
      const n = whole("count", count);
      const s = whole("seed", seed);
      return unpack(run(model, (c, p) => core.gptGenerate(c, p, ids, n, temperature, s)));
    },

    /** The mean loss over a stream, in windows of the context, each predicting the next id. */
    gptStreamLoss(model, stream) {
      const ids = packTokens("stream", stream, packGptConfig(model?.config).vocab);
      return run(model, (c, p) => core.gptStreamLoss(c, p, ids)).loss;
    },

    /**
     * A training run in float32, from seeded random weights: step(n) takes n AdamW steps and
     * returns their losses; params() the weights now; close() frees it.
     */
    gptTrainer(config, data, { batch = 16, lr = 3e-3, total, seed = 1 } = {}) {
      if (typeof lr !== "number") throw new Error("lr must be a number");
      const packed = packGptConfig(config);
      const { id } = check(
        core.gptTrainOpen(
          packed,
          packTokens("data", data, packed.vocab),
          whole("batch", batch),
          lr,
          whole("total", total),
          whole("seed", seed),
        ),
      );
      return session(id, packed);
    },

    /**
     * The induction task's sequences: a seeded batch of { tokens, targets } (B·T each) and each
     * sequence's segment length m (the segment, then the same again, then random tokens).
     */
    inductionBatch(task, { batch, seed = 1 } = {}) {
      const packed = packInductionTask(task);
      return unpacked(core.inductionBatch(packed, whole("batch", batch), whole("seed", seed)));
    },

    /**
     * What a model does on a batch of the task: the mean loss on the first half and on the
     * repeated half, and per layer and head the previous-token and induction scores (L, H).
     */
    inductionScores(model, batch) {
      const { vocab } = packGptConfig(model?.config);
      if (typeof batch !== "object" || batch === null) throw new Error("batch must be an object");
      const packed = {
        tokens: packTokens("batch.tokens", batch.tokens, vocab),
        targets: packTokens("batch.targets", batch.targets, vocab),
        segments: Int32Array.from(batch.segments ?? [], (m, i) =>
          whole(`batch.segments[${i + 1}]`, m),
        ),
      };
      return unpack(run(model, (c, p) => core.inductionScores(c, p, packed)));
    },

    /** A training run as gptTrainer's, whose batches are the induction task's sequences. */
    inductionTrainer(config, task, { batch = 32, lr = 1e-3, total, seed = 1 } = {}) {
      if (typeof lr !== "number") throw new Error("lr must be a number");
      const packed = packGptConfig(config);
      const { id } = check(
        core.inductionTrainOpen(
          packed,
          packInductionTask(task),
          whole("batch", batch),
          lr,
          whole("total", total),
          whole("seed", seed),
        ),
      );
      return session(id, packed);
    },

    /**
     * A learner's text (a string, or a file's bytes: bytes that are not UTF-8 are refused, not
     * read as U+FFFD) → its token streams, vocabulary and baselines, or an Error that says why
     * a model cannot be trained on it (empty, too short, one character, more than 1 MiB …).
     */
    textCorpus(text) {
      const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
      if (!(bytes instanceof Uint8Array)) throw new Error("text must be a string or a Uint8Array");
      // past the limit, the core needs only to see that it is past
      return unpacked(core.textCorpus(bytes.subarray(0, textLimit + 1)));
    },

    /** How many trainers are open in the core: for the tests of their lifetime. */
    gptTrainersOpen: () => core.gptTrainersOpen(),
  };
}

// ---- Lesson 6, the models people use (src/wasm/real.cpp): a real tokenizer's tokens over a
// text, a real model's sizes from its configuration, and a vocabulary learned by BPE ----

// A model's shape as the core declares it (ModelShape in src/sizes.hpp, through resultFields()):
// every field named there, of its kind, and no other.
function packShape(shape, declared) {
  if (typeof shape !== "object" || shape === null || Array.isArray(shape)) {
    throw new Error("shape must be an object of a model's configuration");
  }
  const known = Object.keys(declared);
  for (const [name, x] of Object.entries(shape)) {
    const kind = declared[name];
    if (!kind) throw new Error(`shape has no field "${name}"; its fields are ${known.join(", ")}`);
    if (kind === "number") whole(`shape.${name}`, x);
    else if (typeof x !== kind) throw new Error(`shape.${name} must be a ${kind}, not ${quote(x)}`);
  }
  const missing = known.filter((name) => !Object.hasOwn(shape, name));
  if (missing.length) throw new Error(`shape has no ${missing.join(", ")}`);
  return shape;
}

// A string that UTF-8 can hold: no lone surrogate (TextEncoder would write one as U+FFFD, and
// the core would read a character the text does not have).
function checkText(name, text) {
  if (typeof text !== "string") throw new Error(`${name} must be a string, not ${kindOf(text)}`);
  const at = text.search(/[\uD800-\uDFFF]/u);
  if (at >= 0) {
    const code = text.charCodeAt(at).toString(16).toUpperCase();
    const character = [...text.slice(0, at)].length + 1;
    throw new Error(
      `${name} holds a lone surrogate (U+${code}) at character ${character}, not text`,
    );
  }
  return text;
}

const bpeOptions = ["merges", "start", "presplit"];

// A learned vocabulary as bpeEncode reads it: its start, pre-split, alphabet and merges.
function packBpeModel(learned) {
  if (!isObject(learned) || !Array.isArray(learned.steps)) {
    throw new Error(
      "learned must be what bpeLearn returned, or { start, presplit, alphabet, steps: [{ left, right }] }",
    );
  }
  const { start, presplit = false, alphabet = "" } = learned;
  if (typeof start !== "string")
    throw new Error(`learned.start must be a string, not ${kindOf(start)}`);
  checkFlag("learned.presplit", presplit);
  checkText("learned.alphabet", alphabet);
  const merges = new Float64Array(learned.steps.length * 2);
  learned.steps.forEach((step, k) => {
    if (!isObject(step)) throw new Error(`learned.steps[${k}] must be an object { left, right }`);
    merges[2 * k] = whole(`learned.steps[${k}].left`, step.left);
    merges[2 * k + 1] = whole(`learned.steps[${k}].right`, step.right);
  });
  return { model: { start, presplit, alphabet }, merges };
}

function realLabs(core) {
  let shapeFields;
  return {
    /**
     * A text and its tokens, each a Uint8Array of its bytes (as a real tokenizer decodes them),
     * → each token's bytes in hex, the characters it holds, whether it is a piece of one; the
     * counts and the characters of such text in `context` tokens. The tokens must spell the
     * text's UTF-8 exactly.
     */
    tokenized(text, tokens, { context }) {
      if (typeof text !== "string") throw new Error("text must be a string");
      if (!Array.isArray(tokens) || !tokens.every((t) => t instanceof Uint8Array)) {
        throw new Error("tokens must be an array of Uint8Array, each token's bytes");
      }
      const lengths = Float64Array.from(tokens, (t) => t.length);
      const bytes = new Uint8Array(lengths.reduce((a, b) => a + b, 0));
      let at = 0;
      for (const t of tokens) bytes.set(t, (at += t.length) - t.length);
      return unpacked(core.tokenized(text, bytes, lengths, whole("context", context)));
    },

    /**
     * A model's configuration (ModelShape) → its parameters in all and by part, its KV cache's
     * bytes, and one token's multiply-adds at context n, values of bytesPerValue bytes.
     */
    modelSize(shape, { n, bytesPerValue = 2 }) {
      shapeFields ??= core.resultFields().ModelShape;
      return unpacked(
        core.modelSize(
          packShape(shape, shapeFields),
          whole("n", n),
          whole("bytesPerValue", bytesPerValue),
        ),
      );
    },

    /**
     * Byte-pair encoding learned from a text, step by step: each merge's counts (the most frequent
     * pairs), the pair merged, where it occurs, and the text's tokens after it. options: merges
     * (how many, 0 to 500), start ("characters" or "bytes"), presplit (never merge across
     * letters, digits, spaces and punctuation). The rules: src/bpe.hpp, docs/api.md.
     */
    bpeLearn(text, options = {}) {
      checkText("text", text);
      if (!isObject(options))
        throw new Error(`options must be an object { ${bpeOptions.join(", ")} }`);
      for (const name of Object.keys(options)) {
        if (!bpeOptions.includes(name)) {
          throw new Error(
            `bpeLearn has no option "${name}"; its options are ${bpeOptions.join(", ")}`,
          );
        }
      }
      const { merges = 10, start = "characters", presplit = false } = options;
      if (typeof start !== "string")
        throw new Error(`start must be a string, not ${kindOf(start)}`);
      checkFlag("presplit", presplit);
      return unpacked(core.bpeLearn(text, { merges: whole("merges", merges), start, presplit }));
    },

    /**
     * A text read with a learned vocabulary (bpeLearn's result): its characters or bytes, then the
     * merges in the order learned; each token, the merges that applied, the unknown characters.
     */
    bpeEncode(learned, text) {
      const { model, merges } = packBpeModel(learned);
      return unpacked(core.bpeEncode(model, merges, checkText("text", text)));
    },
  };
}
