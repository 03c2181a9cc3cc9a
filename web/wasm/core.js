// wasm/core.js: the JS side of src/wasm/core.cpp, and what every lesson's wrappers share: the
// checks of what a caller gives (whole numbers, matrices, flags) with their messages, arrays of
// rows packed for the core, the one unpacking of its results, and the batched call's layout on
// the heap. wrap() gives the core module's functions; attention.js loads the modules.

// A value as a message quotes it: numbers as JS writes them (NaN, Infinity), the rest as JSON.
export const quote = (x) => (typeof x === "number" ? String(x) : JSON.stringify(x));

// The one check of a whole number (a count, a size, an index, a seed): a safe integer of at
// least `least`, returned as it was given.
export function whole(name, x, least = 0) {
  if (!Number.isSafeInteger(x) || x < least) {
    const bound = least > 0 ? ` of at least ${least}` : "";
    throw new Error(`${name} must be a whole number${bound}, not ${quote(x)}`);
  }
  return x;
}

// What a value is, for a message: the string "…", the number 5, an array, a Uint8Array, null.
export function kindOf(x) {
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
export const isObject = (x) =>
  typeof x === "object" &&
  x !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(x));

// rows: number[][] → { rows, cols, data: Float64Array }, or an Error naming the bad entry.
// Messages count rows and columns from 1, as the core's and the page's do.
export function packMatrix(name, rows) {
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
export const staysTyped = new Set([
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

export function unpack(value, name) {
  if (ArrayBuffer.isView(value)) return staysTyped.has(name) ? value : Array.from(value);
  if (Array.isArray(value)) return value.map((one) => unpack(one));
  if (typeof value !== "object" || value === null) return value;
  if (isMatrix(value)) return staysTyped.has(name) ? value : unpackMatrix(value);
  return Object.fromEntries(Object.entries(value).map(([key, one]) => [key, unpack(one, key)]));
}

// options → what the bindings read: { scale?, causal, mask?, maskValue?, dropoutP, seed }
export function packOptions({ scale, mask, causal = false, dropout, maskValue } = {}) {
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

export function checkFlag(name, flag) {
  if (typeof flag !== "boolean") throw new Error(`${name} must be true or false`);
}

// The largest size the core reads (Index is 32 bits in WASM): larger ones are refused, named.
export const int32 = 2 ** 31 - 1;

// The inputs a core module declares, read once: declaredInput(core, "GptConfig") → its fields.
const inputs = new WeakMap();
export function declaredInput(core, type) {
  if (!inputs.has(core)) inputs.set(core, core.inputFields());
  return inputs.get(core)[type];
}

// "min_segment" → "minSegment", as src/wasm/convert.hpp names a declared field in JS.
export const camel = (name) => name.replace(/_(\w)/g, (_, c) => c.toUpperCase());

// A field the core does not declare would be ignored (a misspelt Base, and the model run with
// another base): refused, named, with the names it knows.
export function refuseUnknown(label, value, names) {
  const unknown = Object.keys(value).find((name) => !names.includes(name));
  if (unknown !== undefined) {
    throw new Error(`${label} has no field "${unknown}"; its fields are ${names.join(", ")}`);
  }
}

// An input as the core declares it (inputFields(): src/fields.hpp), packed by one walk of its
// declaration: each field of its kind (a whole number, a number, a flag, a string), a field the
// core marks `sometimes` given its default when left out (undefined or null), and no other field
// (a misspelt one would otherwise be ignored). `label` names the argument in messages; `least`
// is the smallest whole number taken (a model's sizes start at 1).
export function packDeclared(label, value, fields, { least = 0 } = {}) {
  const names = fields.map((f) => camel(f.name));
  if (!isObject(value)) throw new Error(`${label} must be an object { ${names.join(", ")} }`);
  refuseUnknown(label, value, names);
  const packed = {};
  fields.forEach((field, i) => {
    const x = value[names[i]];
    const name = `${label}.${names[i]}`;
    if ((x === undefined || x === null) && field.sometimes) {
      if (field.default !== undefined) packed[names[i]] = field.default;
      return;
    }
    if (x === undefined) throw new Error(`${name} is missing: ${field.what}`);
    if (field.scalar === "bool") checkFlag(name, x);
    else if (field.scalar.startsWith("float")) {
      if (typeof x !== "number") throw new Error(`${name} must be a number, not ${quote(x)}`);
    } else if (field.scalar) {
      whole(name, x, least);
      // a 32-bit field (Index in WASM) past its range would reach the core as another number
      if (field.scalar === "int32" && x > int32) {
        throw new Error(`${name} is ${x}, past any size the core reads (${int32})`);
      }
    } else if (typeof x !== "string") throw new Error(`${name} must be a string, not ${kindOf(x)}`);
    packed[names[i]] = x;
  });
  return packed;
}

export function check(result) {
  if (result.error !== undefined) throw new Error(result.error);
  return result;
}

// A core call's result, unpacked, or its error thrown.
export const unpacked = (result) => unpack(check(result));

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

export function wrap(core) {
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
