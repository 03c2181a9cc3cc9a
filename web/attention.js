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
    return wrap(core);
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

// options → what the bindings read: { scale?, causal, mask?, dropoutP, seed }
function packOptions({ scale, mask, causal = false, dropout } = {}) {
  const packed = { causal: causal || mask === "causal", dropoutP: 0, seed: 0 };
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

function wrap(core) {
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
      const packed = packOptions(options);
      const flags =
        (packed.causal ? 1 : 0) +
        (packed.mask ? 2 : 0) +
        (weights ? 4 : 0) +
        (reference ? 8 : 0) +
        (packed.scale !== undefined ? 16 : 0);
      const { batch, heads, nQ, nK, dK, dV } = shape;
      // 1. plan the call: the core checks everything and gives it one block of memory
      const layout = core._batch_plan(
        batch,
        heads,
        nQ,
        nK,
        dK,
        dV,
        q.length,
        k.length,
        v.length,
        flags,
        packed.scale ?? 0,
        packed.dropoutP,
        packed.seed,
        packed.mask?.rows ?? 0,
        packed.mask?.cols ?? 0,
      );
      if (!layout) throw new Error(core.batchError());
      // 2. copy the inputs in; the heap may have grown, so its views are read afresh
      const at = core.HEAPU32;
      const heap = core.HEAPF32;
      const slot = layout >> 2;
      heap.set(q, at[slot] >> 2);
      heap.set(k, at[slot + 1] >> 2);
      heap.set(v, at[slot + 2] >> 2);
      if (packed.mask) core.HEAPU8.set(packed.mask.data, at[slot + 3]);
      // 3. run it, then hand out the results: copies the caller owns, or views of the block
      if (!core._batch_run()) throw new Error(core.batchError());
      const take = (address, n) =>
        copy
          ? heap.slice(address >> 2, (address >> 2) + n)
          : heap.subarray(address >> 2, (address >> 2) + n);
      const result = { output: take(at[slot + 4], batch * heads * nQ * dV) };
      if (weights) result.weights = take(at[slot + 5], batch * heads * nQ * nK);
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
