// attention.d.cts: types for require("attention-by-hand") (attention.cjs): the same API as
// the ES module's, whose types these are.
import type { Attention, LabsCore } from "./attention.js";

export type * from "./attention.js";

/** Loads the WASM core once; every caller, through require or import, shares the instance. */
export declare function loadAttention(): Promise<Attention>;

/** Loads the labs module once (the page loads it only when a lab opens). */
export declare function loadLabs(): Promise<LabsCore>;
