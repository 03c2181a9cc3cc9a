// attention.d.ts: types for web/attention.js, the JS API of the WASM attention core.

/** A matrix as an array of rows. */
export type Matrix = number[][];

export interface AttentionOptions {
  /** Multiplies the scores; the default is 1/√d_k. */
  scale?: number;
  /** "causal" lets query i see keys 0..i; a boolean n_q×n_k matrix is true where query i may see key j. */
  mask?: "causal" | boolean[][];
  /** Dropout on the weights, with inverted scaling 1/(1−p). Off by default. */
  dropout?: { p: number; seed?: number };
}

/** Every named step of softmax(Q·Kᵀ·scale)·V. */
export interface Trace {
  /** (n_q, n_k) Q·Kᵀ */
  scores: Matrix;
  /** (n_q, n_k) scores × scale */
  scaled: Matrix;
  /** (n_q, n_k) scaled with −Infinity where blocked; present only with a mask. */
  masked?: Matrix;
  /** (n_q) the largest logit of each row, subtracted before exp. */
  rowMax: number[];
  /** (n_q, n_k) exp(logit − rowMax). */
  exp: Matrix;
  /** (n_q) the sum of each row of exp. */
  rowSum: number[];
  /** (n_q, n_k) exp / rowSum: each row sums to 1, or is all 0 for a blocked row. */
  weights: Matrix;
  /** (n_q, n_k) weights after dropout; present only with dropout. */
  dropped?: Matrix;
  /** (n_q, d_v) weights·V (dropped·V with dropout). */
  output: Matrix;
  /** Query rows whose keys are all masked: their weights and output are 0. */
  blockedRows: number[];
  /** The scale that was used. */
  scale: number;
}

export interface SelfAttentionTrace extends Trace {
  /** (n, d_k) X·W_Q */
  q: Matrix;
  /** (n, d_k) X·W_K */
  k: Matrix;
  /** (n, d_v) X·W_V */
  v: Matrix;
}

/** [batch, heads, seq, dim], as in seed 000's calculate_attention. */
export interface BatchShape {
  batch: number;
  heads: number;
  nQ: number;
  nK: number;
  dK: number;
  dV: number;
}

export interface BatchOptions {
  /** Multiplies the scores; the default is 1/√d_k. */
  scale?: number;
  /** Query i sees keys 0..i (top-left aligned when nQ ≠ nK). */
  causal?: boolean;
  /** "causal", or an nQ×nK boolean matrix applied to every head: true where query i may see key j. An explicit mask runs on the reference. */
  mask?: "causal" | boolean[][];
  /** Dropout on the weights, with inverted scaling 1/(1−p); one seeded stream, head by head. Runs on the reference. */
  dropout?: { p: number; seed?: number };
  /** Also return the (batch, heads, nQ, nK) weights. Default true. Without them the fast path keeps no nQ×nK buffer at all, so far longer sequences fit. */
  weights?: boolean;
  /** Run the Eigen reference (float64, the teaching path's own code) instead of the fast float32 kernel. Default false. */
  reference?: boolean;
  /**
   * Default true: `output` and `weights` are new Float32Arrays that you own, copied once out of
   * WASM memory. false: they are views of the core's WASM memory, valid only until the next call
   * to any function of this core (every loadAttention() caller and element on the page shares
   * it); after that they are overwritten or become empty. Copy what you keep.
   */
  copy?: boolean;
}

/** The result of attentionBatched. */
export interface BatchResult {
  /** (batch, heads, nQ, dV) */
  output: Float32Array;
  /** (batch, heads, nQ, nK), after dropout when it is on; absent with `weights: false`. */
  weights?: Float32Array;
}

export interface Attention {
  /** Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v). Throws Error with the core's message. */
  attention(q: Matrix, k: Matrix, v: Matrix, options?: AttentionOptions): Trace;
  /** X (n, d_model), W_Q and W_K (d_model, d_k), W_V (d_model, d_v). */
  selfAttention(
    x: Matrix,
    wq: Matrix,
    wk: Matrix,
    wv: Matrix,
    options?: AttentionOptions,
  ): SelfAttentionTrace;
  /**
   * Float32 over [batch, heads, seq, dim], on the fast kernel unless an explicit mask, dropout or
   * `reference` asks for the Eigen reference. q, k and v stay yours: they are copied in.
   * Limits: every dimension 1..8192, and all of a call's buffers together at most 1 GiB.
   */
  attentionBatched(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    shape: BatchShape,
    options: BatchOptions & { weights: false },
  ): { output: Float32Array };
  attentionBatched(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    shape: BatchShape,
    options?: BatchOptions & { weights?: true },
  ): { output: Float32Array; weights: Float32Array };
  attentionBatched(
    q: Float32Array,
    k: Float32Array,
    v: Float32Array,
    shape: BatchShape,
    options?: BatchOptions,
  ): BatchResult;
  /** Diagnostics: bytes malloc has handed out, the heap's top and size, live JS handles. */
  memory(): { inUse: number; heapTop: number; heapBytes: number; handles: number };
}

/** Loads the WASM core once; later calls share the instance. */
export function loadAttention(): Promise<Attention>;

/** The labs module: the core's functions and the labs' (a second instance, with its own memory). */
export interface LabsCore extends Attention {}

/** Loads the labs module once (the page loads it only when a lab opens). */
export function loadLabs(): Promise<LabsCore>;
