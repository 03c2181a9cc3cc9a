// attention.js: the only JS that touches the WASM core, and its public entry. Arrays of rows go
// in, a trace of named steps comes out as arrays of rows; a core error becomes a thrown Error.
// Same import in Node and in the browser. This file loads the two WASM modules; what wraps their
// functions is in wasm/, a file a lesson as src/wasm/ is: core.js (the core's functions and the
// checks, packers and unpacking every lesson shares), then inside, why, learn, gpt (with
// model-files.js, a model's two files) and real, which labs.js gathers.
import createAttentionCore from "./generated/attention-core.mjs";
import { wrap } from "./wasm/core.js";

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
 * first view does not load it, nor the labs' wrappers). Its own memory: its results never mix
 * with the core's.
 */
export function loadLabs() {
  loadingLabs ??= Promise.all([
    import("./generated/attention-labs.mjs"),
    import("./wasm/labs.js"),
  ]).then(async ([labs, { labsOf }]) => {
    const core = await labs.default();
    // the core's functions, then each lesson's
    return { ...wrap(core), ...labsOf(core) };
  });
  return loadingLabs;
}
