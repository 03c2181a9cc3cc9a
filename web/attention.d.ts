// attention.d.ts: types for web/attention.js, the JS API of the WASM attention core.

/** A matrix as an array of rows. */
export type Matrix = number[][];

export interface AttentionOptions {
  /** Multiplies the scores; the default is 1/√d_k. */
  scale?: number;
  /** "causal" lets query i see keys 0..i; a boolean n_q×n_k matrix is true (or 1) where query i may see key j. */
  mask?: "causal" | boolean[][] | (0 | 1)[][];
  /**
   * What a masked score becomes: -Infinity (the default: exp gives 0, and a row whose keys are all
   * masked is blocked, weights 0 and output 0), or a finite number such as -1e9 (then such a row
   * spreads its weight evenly over the keys it may not see).
   */
  maskValue?: number;
  /** Dropout on the weights, with inverted scaling 1/(1−p). Off by default. */
  dropout?: { p: number; seed?: number };
}

/** Every named step of softmax(Q·Kᵀ·scale)·V. */
export interface Trace {
  /** (n, d_k) X·W_Q: selfAttention's only (see SelfAttentionTrace) */
  q?: Matrix;
  /** (n, d_k) X·W_K: selfAttention's only */
  k?: Matrix;
  /** (n, d_v) X·W_V: selfAttention's only */
  v?: Matrix;
  /** (n_q, n_k) Q·Kᵀ */
  scores: Matrix;
  /** (n_q, n_k) scores × scale */
  scaled: Matrix;
  /** (n_q, n_k) scaled, with the mask value (maskValue, −Infinity by default) where a key is hidden; present only with a mask. */
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

/** [batch, heads, seq, dim], as in article 000's calculate_attention. */
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

// ---- Labs: why it is built this way ----

/** The state of every query row after one block of keys. Keys start..end−1 (0-based). */
export interface TiledBlock {
  /** the block's first key, 0-based */
  start: number;
  /** one past its last key */
  end: number;
  /** (n_q, end − start) the block's scaled scores, masked cells at the mask value */
  logits: Matrix;
  /** (n_q) the block's largest logit */
  blockMax: number[];
  /** (n_q) the running max m after this block */
  m: number[];
  /** (n_q) exp(m_old − m_new), what ℓ and acc were multiplied by (1 when m stayed) */
  rescale: number[];
  /** (n_q, end − start) exp(logit − m) */
  p: Matrix;
  /** (n_q) the running sum ℓ */
  l: number[];
  /** (n_q, d_v) the unnormalised output Σ exp(logit − m)·v so far */
  acc: Matrix;
  /** (n_q, d_v) acc / ℓ: the output if these were all the keys (0 while ℓ is 0) */
  partial: Matrix;
}

export interface TiledTrace {
  /** keys per block (the last block may be shorter) */
  block: number;
  /** 1/√d_k unless given */
  scale: number;
  /** every block, in order */
  blocks: TiledBlock[];
  /** (n_q, d_v) after the last block */
  output: Matrix;
  /** (n_q, d_v) the whole-row computation's output */
  full: Matrix;
  /** The largest \|output − full\|. */
  maxDifference: number;
  /** rows whose keys are all masked (ℓ = 0): output 0 */
  blockedRows: number[];
}

export interface ScalingOptions {
  /** 1..8192 */
  dK: number;
  /** keys per query, default 8 */
  nKeys?: number;
  /** queries, default 100 */
  rows?: number;
  /** default 1 */
  seed?: number;
}

/** The seeded batch behind scalingStats. */
export interface ScalingBatch {
  /** (rows, dK) seeded unit-variance queries */
  q: Matrix;
  /** (rows·nKeys, dK) the keys: query r's are rows r·nKeys … r·nKeys + nKeys − 1 */
  k: Matrix;
}

export interface ScalingStats {
  /** as asked */
  dK: number;
  /** keys per query, as asked */
  nKeys: number;
  /** queries, as asked */
  rows: number;
  /** 1/√dK */
  scale: number;
  /** the mean and the variance of every q·k (the variance is about dK) */
  scoreMean: number;
  /** their variance (about dK) */
  scoreVariance: number;
  /** the variance of q·k/√dK (about 1) */
  scaledVariance: number;
  /** the mean over the rows of the largest softmax weight, without and with 1/√dK */
  maxWeightUnscaled: number;
  /** the same for softmax(q·k/√dK) */
  maxWeightScaled: number;
  /** the share of rows whose largest weight is above 0.99 */
  oneHotUnscaled: number;
  /** the same with the scale */
  oneHotScaled: number;
  /** the first query (d_k) and its keys (nKeys × d_k) */
  exampleQ: number[];
  /** (nKeys, dK) its keys */
  exampleK: Matrix;
  /** (nKeys) the first query's q·k */
  exampleScores: number[];
  /** (nKeys) softmax(q·k) */
  exampleUnscaled: number[];
  /** (nKeys) softmax(q·k/√dK) */
  exampleScaled: number[];
}

export interface DropoutStats {
  /** (n_q, n_k) and (n_q, d_v) without dropout */
  weights: Matrix;
  /** (n_q, d_v) the output without dropout */
  output: Matrix;
  /** (n_q, n_k) the first draw, its row sums (not 1) and its output */
  dropped: Matrix;
  /** (n_q) the first draw's row sums: not 1 */
  droppedRowSums: number[];
  /** (n_q, d_v) the first draw's output */
  drawOutput: Matrix;
  /** averages over every draw */
  meanDropped: Matrix;
  /** (n_q, n_k) how many draws kept each weight */
  kept: Matrix;
  /** (n_q, d_v) the output, averaged over every draw */
  meanOutput: Matrix;
  /** the largest \|meanOutput − output\| */
  maxDifference: number;
  /** 1, 2, 5, 10 … draws, and the largest \|average output of that many − output\| */
  counts: number[];
  /** for each count, the largest \|average of that many draws' outputs − output\| */
  differences: number[];
}

export interface WhyLabs {
  /** Online softmax (FlashAttention's tiling) over blocks of `block` keys, 1..n_k; no dropout. */
  tiledAttention(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    options: Omit<AttentionOptions, "dropout"> & { block: number },
  ): TiledTrace;
  /** The seeded unit-variance batch behind scalingStats: q (rows×dK), k (rows·nKeys×dK). */
  scalingBatch(options: ScalingOptions): ScalingBatch;
  scalingStats(options: ScalingOptions): ScalingStats;
  /** Draw t uses seed + t; p in (0, 1); draws 1..100000. */
  dropoutStats(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    options: Omit<AttentionOptions, "dropout"> & { p: number; seed?: number; draws?: number },
  ): DropoutStats;
}
// ---- Labs: attention inside a model ----

export interface MultiHeadWeights {
  /** (d_model, h·d_head) */
  wq: Matrix;
  /** (d_model, h_kv·d_head) */
  wk: Matrix;
  /** (d_model, h_kv·d_head) */
  wv: Matrix;
  /** (h·d_head, d_model) */
  wo: Matrix;
}

export interface MultiHeadOptions {
  /** h, the query heads. Default 1. d_head is W_Q's columns / h. */
  heads?: number;
  /** h_kv, the key-value heads; it must divide h. Default h; 1 is multi-query attention. Query head i reads key-value head ⌊i·h_kv/h⌋. */
  kvHeads?: number;
  /** Query i sees keys 0..i (decodeStep is always causal). */
  causal?: boolean;
  /** The same as causal: true. */
  mask?: "causal";
  /** "sinusoidal" adds PE to the rows of X; "rope" rotates the pairs (2i, 2i+1) of each head's q and k. Default "none". */
  positions?: "none" | "sinusoidal" | "rope";
  /** θ_i = base^(−2i/d). Default 10000. */
  base?: number;
  /** With sinusoidal positions the rows are X + peScale·PE. Default 1, as in the paper. */
  peScale?: number;
  /** Multiplies the scores; default 1/√d_head. */
  scale?: number;
}

/** Angles pos·θ_i of position encodings, θ_i = base^(−2i/d): the fields both traces of positions share. */
export type PositionAngles = Pick<
  SinusoidalTrace,
  "positions" | "theta" | "angles" | "cos" | "sin"
>;

export interface SinusoidalTrace {
  /** The position of each row; 0 is the first token. */
  positions: number[];
  /** (⌈d/2⌉) θ_i */
  theta: number[];
  /** (n, ⌈d/2⌉) pos·θ_i */
  angles: Matrix;
  /** (n, d_head/2) cos of the angles */
  cos: Matrix;
  /** (n, d_head/2) sin of the angles */
  sin: Matrix;
  /** (n, d_model): PE[pos][2i] = sin(pos·θ_i), PE[pos][2i+1] = cos(pos·θ_i). */
  encoding: Matrix;
}

export interface RotaryTrace {
  /** The position of each row; 0 is the first token. */
  positions: number[];
  /** (⌈d/2⌉) θ_i */
  theta: number[];
  /** (n, ⌈d/2⌉) pos·θ_i */
  angles: Matrix;
  /** (n, d_head/2) cos of the angles */
  cos: Matrix;
  /** (n, d_head/2) sin of the angles */
  sin: Matrix;
  /** The input with the pairs (2i, 2i+1) of every d_head block rotated by pos·θ_i. */
  rotated: Matrix;
}

export interface MultiHeadTrace {
  /** the query heads */
  h: number;
  /** the key-value heads */
  hKv: number;
  /** each head's width: W_Q's columns / h */
  dHead: number;
  /** (h) the key-value head each query head reads, 0-based: ⌊i·h_kv/h⌋. */
  kvHead: number[];
  /** (n, d_model) the input, with the sinusoidal encodings added when asked. */
  x: Matrix;
  /** the encodings added to X, with sinusoidal positions */
  sinusoidal?: SinusoidalTrace;
  /** (n, h·d_head) X·W_Q, before RoPE */
  q: Matrix;
  /** (n, h_kv·d_head) X·W_K, before RoPE */
  k: Matrix;
  /** (n, h_kv·d_head) X·W_V */
  v: Matrix;
  /** RoPE on Q, with rotary positions */
  qRotated?: RotaryTrace;
  /** RoPE on K, with rotary positions */
  kRotated?: RotaryTrace;
  /** One trace per query head; its q, k, v are the head's own columns (after RoPE). */
  heads: SelfAttentionTrace[];
  /** (n, h·d_head) the heads' outputs side by side. */
  concat: Matrix;
  /** (n, d_model) concat·W_O */
  output: Matrix;
}

/** A KV cache, owned by JS: K and V rows after each other (K after RoPE). Nothing to free. */
export interface KvCache {
  /** (length, width) row-major */
  k: Float64Array;
  /** (length, width) row-major */
  v: Float64Array;
  length: number;
  /** h_kv·d_head */
  width: number;
}

/** Multiply-adds of the matrix products (exp, sums and rotations not counted). */
export interface Cost {
  /** multiply-adds of Q, K and V for the rows computed */
  projections: number;
  /** of q·k over the (query, key) pairs a causal pass needs */
  scores: number;
  /** of weights·V over the same pairs */
  weightedSum: number;
  /** of concat·W_O */
  output: number;
  /** their sum */
  total: number;
}

export interface DecodeStep {
  /** The new token's position, 0 for the first. */
  position: number;
  /** The new token's row of everything: its heads attend to every cached key and itself. */
  trace: MultiHeadTrace;
  /** What this step did. */
  cost: Cost;
  /** What a causal pass over all cache.length tokens does. */
  full: Cost;
  /** The new cache, one row longer; the cache passed in is unchanged. */
  cache: KvCache;
  /** (d_model) the new token's output row. */
  output: number[];
}

export interface Decoder {
  /** Takes the next token's row (d_model numbers). */
  step(x: number[]): DecodeStep;
  /** Empties the cache. */
  reset(): void;
  readonly cache: KvCache | null;
  readonly length: number;
}

/**
 * dL/d of every step and input of one attention call, named as the forward trace names them:
 * `scores` is dL/d(scores). Given dL/d(output) (`output`), the passes run the steps backwards:
 * v = weightsᵀ·dO and weights = dO·Vᵀ (with dropout: v = droppedᵀ·dO, dropped = dO·Vᵀ and
 * weights = dropped ⊙ keep/(1−p), the forward's own kept cells); masked (with a mask) or scaled
 * = weights ⊙ (d(weights) − rowDot); scaled is 0 where the mask replaced a cell; scores =
 * scale·scaled; q = scores·K; k = scoresᵀ·Q.
 */
export interface AttentionGradients {
  /** (n_q, d_v) dL/d(output), as given */
  output: Matrix;
  /** Only with dropout. */
  dropped?: Matrix;
  /** (n_q, n_k) dO·Vᵀ (with dropout, dropped ⊙ keep/(1−p)), plus the loss's own dL/d(weights) */
  weights: Matrix;
  /** Σ_j weights ⊙ d(weights), for each query row. */
  rowDot: number[];
  /** Only with a mask: the gradient of the logits, before the mask's cells are zeroed. */
  masked?: Matrix;
  /** (n_q, n_k) dL/d(logits): weights ⊙ (d(weights) − rowDot), 0 where the mask replaced a cell */
  scaled: Matrix;
  /** (n_q, n_k) scale · d(scaled) */
  scores: Matrix;
  /** (n_q, d_k) d(scores)·K */
  q: Matrix;
  /** (n_k, d_k) d(scores)ᵀ·Q */
  k: Matrix;
  /** (n_k, d_v) (dropped or weights)ᵀ·dO */
  v: Matrix;
  /** (n, d_model) selfAttentionBackward's only, as wq, wk and wv (see SelfAttentionGradients) */
  x?: Matrix;
  /** (d_model, d_k) Xᵀ·dQ: `selfAttentionBackward` only */
  wq?: Matrix;
  /** (d_model, d_k) Xᵀ·dK: `selfAttentionBackward` only */
  wk?: Matrix;
  /** (d_model, d_v) Xᵀ·dV: `selfAttentionBackward` only */
  wv?: Matrix;
}

/** selfAttentionBackward's: also the input's and the weights'. */
export interface SelfAttentionGradients extends AttentionGradients {
  x: Matrix;
  wq: Matrix;
  wk: Matrix;
  wv: Matrix;
}

/** A multi-head layer's gradients, given dL/d(output) (n, d_model). */
export interface MultiHeadGradients {
  /** (n, d_model) dL/d(output), as given */
  output: Matrix;
  /** concatᵀ·dO */
  wo: Matrix;
  /** dO·W_Oᵀ */
  concat: Matrix;
  /** With RoPE: dL/d of the rotated Q and K (the heads' K gradients summed per key-value head). */
  qRotated?: Matrix;
  /** (n, h_kv·d_head) with RoPE: dL/d of the rotated K, the heads' summed per key-value head */
  kRotated?: Matrix;
  /** dL/d of X·W_Q, X·W_K and X·W_V (RoPE's rotation turned back). */
  q: Matrix;
  /** (n, h_kv·d_head) dL/d(X·W_K), RoPE's rotation turned back */
  k: Matrix;
  /** (n, h_kv·d_head) dL/d(X·W_V) */
  v: Matrix;
  /** (d_model, h·d_head) */
  wq: Matrix;
  /** (d_model, h_kv·d_head) */
  wk: Matrix;
  /** (d_model, h_kv·d_head) */
  wv: Matrix;
  /** (n, d_model); also dL/d(X + PE) with sinusoidal positions */
  x: Matrix;
  /** Each query head's, on its own q, k and v (after RoPE). */
  heads: AttentionGradients[];
}

/** One attention call's trace and its gradients. */
export interface AttentionBackward {
  /** the forward pass, as `attention()` returns it */
  trace: Trace;
  /** dL/d of every step and input */
  gradients: AttentionGradients;
}

/** A multi-head layer's trace and its gradients. */
export interface MultiHeadBackward {
  /** the forward pass, as `multiHeadAttention()` returns it */
  trace: MultiHeadTrace;
  /** the layer's gradients */
  gradients: MultiHeadGradients;
}

/** A backward call's options: attention's, and a loss's own dL/d(weights) (n_q, n_k). */
export interface BackwardOptions extends AttentionOptions {
  dWeights?: Matrix;
}

/** How attention learns: gradients given dL/d(output). */
export interface LearnLabs {
  attentionBackward(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    dOutput: Matrix,
    options?: BackwardOptions,
  ): AttentionBackward;
  selfAttentionBackward(
    x: Matrix,
    wq: Matrix,
    wk: Matrix,
    wv: Matrix,
    dOutput: Matrix,
    options?: BackwardOptions,
  ): { trace: SelfAttentionTrace; gradients: SelfAttentionGradients };
  multiHeadBackward(
    x: Matrix,
    weights: MultiHeadWeights,
    dOutput: Matrix,
    options?: MultiHeadOptions,
  ): MultiHeadBackward;
  /**
   * Gradient descent on α, which multiplies the query q (1, dK) of a lookup with one value
   * column: L = (output − target)², α ← α − eta·dL/dα, `steps` times from `alpha`.
   */
  sharpnessDescent(
    q: Matrix,
    k: Matrix,
    v: Matrix,
    options: { target: number; alpha: number; eta: number; steps: number },
  ): SharpnessStep[];
  /**
   * Gradient descent on W_Q and W_K of self-attention (W_V kept) on the cross-entropy
   * −log weights[row][key] (row and key from 0).
   */
  teachDescent(
    x: Matrix,
    wq: Matrix,
    wk: Matrix,
    wv: Matrix,
    options: { row: number; key: number; eta: number; steps: number },
  ): TeachRun;
}

/** One step of sharpnessDescent: α, the loss, its gradients, and the α it moves to. */
export interface SharpnessStep {
  /** α at this step */
  alpha: number;
  /** (output − target)² */
  loss: number;
  /** 2·(output − target) */
  dOutput: number;
  /** dL/dα */
  dAlpha: number;
  /** α − η·dL/dα */
  next: number;
  /** the forward pass, as `attention()` returns it */
  trace: Trace;
  /** dL/d of every step and input */
  gradients: AttentionGradients;
}

/** One step of teachDescent: the weights before it, the loss, the trace and the gradients. */
export interface TeachStep {
  /** (d_model, d_k) W_Q before this step */
  wq: Matrix;
  /** (d_model, d_k) W_K before this step */
  wk: Matrix;
  /** −log weights[row][key] */
  loss: number;
  /** the forward pass, as `attention()` returns it */
  trace: Trace;
  /** dL/d of every step and input */
  gradients: SelfAttentionGradients;
}

/** teachDescent's run: each step's weights, loss, trace and gradients; the weights after it. */
export interface TeachRun {
  /** each step, in order */
  steps: TeachStep[];
  /** (d_model, d_k) W_Q after the last step */
  wq: Matrix;
  /** (d_model, d_k) W_K after the last step */
  wk: Matrix;
  /** the self-attention with them (the wrapper's `{ trace }`) */
  after: { trace: SelfAttentionTrace };
}

// ---- Labs: a real model ----

/** The small transformer's shape: vocabulary V, context T, d_model C, layers L, heads H. */
export interface GptConfig {
  /** V, how many tokens the model knows */
  vocab: number;
  /** T, the longest sequence it reads */
  context: number;
  /** C, the width of each token's vector */
  dModel: number;
  /** L, how many blocks */
  layers: number;
  /** H, the heads of each block; d_head = C/H, even (RoPE turns pairs) */
  heads: number;
  /** RoPE's base; 10000 unless given */
  base?: number;
  /** false: attention-only blocks, as in the induction lab; true unless given */
  mlp?: boolean;
}

/** The induction task: a segment of m distinct tokens (m from minSegment to maxSegment), the
 * same segment again, then random tokens to the context's end. */
export interface InductionTask {
  /** V, how many different tokens a sequence draws from */
  vocab: number;
  /** T, each sequence's length */
  context: number;
  /** the shortest segment m that a sequence repeats */
  minSegment: number;
  /** the longest segment m that a sequence repeats */
  maxSegment: number;
}

/** B sequences of the task: tokens and targets (B·T each; a target is the next token). */
export interface InductionBatch {
  /** (B·T) the sequences' tokens, one sequence after another */
  tokens: number[];
  /** (B·T) each token's next one */
  targets: number[];
  /** (B) each sequence's segment length m */
  segments: number[];
}

/** What a model does on a batch of the induction task. */
export interface InductionScores {
  /** the mean −log p(target) at positions 0 … m−2: the next token is new */
  firstLoss: number;
  /** the mean −log p(target) at positions m … 2m−2: the next token follows the earlier copy */
  repeatLoss: number;
  /** (L, H) each head's mean weight on position i − 1 */
  previous: Matrix;
  /** (L, H) each head's mean weight, from a token of the second half, on the token after its earlier one */
  induction: Matrix;
}

/** A learner's text as the core reads it (textCorpus): lines end in token 0 (⏎), a line is cut
 * every 100 characters, every tenth piece held out and the one before it kept for choosing. */
export interface TextCorpus {
  /** the vocabulary from token 2, most frequent first (V − 2 of them) */
  chars: string;
  /** (V) each token's count n in the training stream */
  counts: number[];
  /** (V) the unigram model's p: (n + 1) / (N + V) */
  unigram: number[];
  /** the training stream, token ids */
  train: Int32Array;
  /** the stream for choosing */
  validation: Int32Array;
  /** the held-out stream */
  heldOut: Int32Array;
  /** in the text, line ends not counted */
  characters: number;
  /** the text's lines */
  lines: number;
  /** the lines cut at 100 characters */
  pieces: number;
  /** characters the text has, known or not */
  distinct: number;
  /** characters of the text read as the unknown token */
  unknown: number;
  /** the held-out loss of three simpler models */
  baselines: TextBaselines;
}

/** The held-out loss of three simpler models: uniform, unigram, bigram (λ chosen on validation). */
export interface TextBaselines {
  /** ln V: every token equally likely */
  uniform: number;
  /** the held-out loss of the unigram model */
  unigram: number;
  /** the held-out loss of the bigram model mixed with the unigram */
  bigram: number;
  /** the bigram's share λ, on a grid of 0.01, chosen on `validation` */
  lambda: number;
}

/** A model: its configuration and its parameters, flat, in gptLayout's order. */
export interface GptModel {
  config: GptConfig;
  params: Float32Array | Float64Array;
}

/** One parameter tensor in the flat buffer: "wte" (V, C), "l0.w_q" (C, C) … */
export interface GptTensor {
  /** "wte", "l0.w_q", … as the exported scripts name them */
  name: string;
  /** its rows (1 for a vector) */
  rows: number;
  /** its columns */
  cols: number;
  /** where it starts in the flat parameters */
  offset: number;
  /** AdamW's weight decay applies (the matrices) */
  decay: boolean;
}

/** One layer of a forward pass: what the page shows of it. */
export interface GptLayer {
  /** (T, C) the queries after RoPE, the heads side by side */
  q: Matrix;
  /** (T, C) the keys after RoPE */
  k: Matrix;
  /** (T, C) the values */
  v: Matrix;
  /** per head (T, T): q·k/√d_head; above the diagonal unused */
  scores: Matrix[];
  /** per head (T, T): the causal softmax of the scores */
  weights: Matrix[];
}

/** One sequence of T tokens through the model. */
export interface GptForward {
  /** per layer, what the page shows of it */
  layers: GptLayer[];
  /** (T, V) x·wteᵀ, the embedding tied */
  logits: Matrix;
  /** (T, V) each row's softmax: the next token's probabilities */
  probs: Matrix;
  /** (T) each logits row's largest */
  top: number[];
  /** (T) each row's Σ e^(logit − top): probs = e^(logit − top) / sum */
  sum: number[];
  /** the mean −log probs[target] over the rows with a target (0 without targets) */
  loss: number;
}

/** The mean loss of a batch and its gradient for every parameter, flat, in gptLayout's order. */
export interface GptGradients {
  /** the mean loss of the batch */
  loss: number;
  /** (gptSize) in gptLayout's order: a typed array, as the parameters are */
  gradients: Float32Array | Float64Array;
}

/** What n training steps did. */
export interface GptTrainSteps {
  /** (n) each step's batch loss, before its update */
  losses: number[];
  /** the steps taken so far */
  step: number;
}

/** What part of a step did: the batch loss when it ended the step. */
export interface GptTrainSlice {
  /** the batch's loss, when this slice ended a step */
  loss?: number;
  /** the steps taken so far */
  step: number;
}

/** The batch of a trainer's step, for its slices to be computed elsewhere. */
export interface GptTrainBatch {
  /** (B·T) the step's sequences, row-major by sequence: what its slices read */
  tokens: Int32Array;
  /** (B·T) each token's next, −1 where none */
  targets: Int32Array;
  /** the sequences of it already added to the step */
  done: number;
}

/** A training run in the module's memory, float32, from seeded random weights. */
export interface GptTrainer {
  config: GptConfig;
  /** n AdamW steps */
  step(n: number): GptTrainSteps;
  /** Part of a step: the next `sequences` of its batch. */
  slice(sequences: number): GptTrainSlice;
  /** The step under way's batch, drawn unless it is: what workers cut slices from. */
  batch(): GptTrainBatch;
  /** A slice computed elsewhere (a gptSlicer's) added as the step's next `sequences`. */
  add(sequences: number, slice: { loss: number; gradients: Float32Array }): GptTrainSlice;
  params(): Float32Array;
  close(): void;
}

/** A model's description, as gptModelFiles writes it: JSON of this object. A description with
 * no format (the shipped tang.json) is read as version 1. */
export interface GptDescription {
  format?: "attention-by-hand model";
  version?: 1;
  config: GptConfig;
  /** the vocabulary's characters from token 2 on: config.vocab − 2 of them, none twice */
  chars: string;
  /** anything else the writer kept: training options, held-out loss, the text's name … */
  [field: string]: unknown;
}

/** A model loaded from its two files by gptModelFromFiles. */
export interface GptModelFromFiles {
  model: GptModel & { config: Required<GptConfig>; params: Float32Array };
  /** the description as it was parsed */
  description: GptDescription;
  chars: string;
}

/** A real model: the small transformer trained on Tang poems, and its training. */
export interface GptLabs {
  gptLayout(config: GptConfig): GptTensor[];
  /** The shipped weights file: int8 with a float32 scale per matrix row, vectors float32. */
  gptModel(config: GptConfig, bytes: Uint8Array): GptModel & { params: Float32Array };
  /**
   * A model's two files, to keep it: the weights file (int8 with a float32 scale per matrix row,
   * as tang.bin) and the JSON text of { format, version, config, chars, …description }.
   * description must give chars; its format, version and config, if given, must be the model's.
   */
  gptModelFiles(
    model: GptModel,
    description: { chars: string; [field: string]: unknown },
  ): { weights: Uint8Array; description: string };
  /**
   * A model from its two files, every field checked before use; an Error naming the field and
   * what is wrong otherwise. description: the JSON text, or the parsed object.
   */
  gptModelFromFiles(description: string | object, weights: Uint8Array): GptModelFromFiles;
  gptForward(
    model: GptModel,
    tokens: ArrayLike<number>,
    options?: { targets?: ArrayLike<number>; precise?: boolean },
  ): GptForward;
  /** The mean loss of `batch` sequences (tokens B·T) and its gradient, flat. */
  gptGradients(
    model: GptModel,
    tokens: ArrayLike<number>,
    targets: ArrayLike<number>,
    options?: { batch?: number; precise?: boolean },
  ): GptGradients;
  /** A step's weights kept in the core; its slices computed from them as slice() computes them. */
  gptSlicer(model: GptModel): {
    gradient(
      tokens: ArrayLike<number>,
      targets: ArrayLike<number>,
      options?: { sequences?: number },
    ): GptGradients;
    close(): void;
  };
  /** Up to `count` tokens after the prompt; it stops after the end token (id 0). */
  gptGenerate(
    model: GptModel,
    prompt: ArrayLike<number>,
    options: { count: number; temperature?: number; seed?: number },
  ): number[];
  gptStreamLoss(model: GptModel, stream: ArrayLike<number>): number;
  gptTrainer(
    config: GptConfig,
    data: ArrayLike<number>,
    options: { batch?: number; lr?: number; total: number; seed?: number },
  ): GptTrainer;
  /** A seeded batch of the induction task's sequences. */
  inductionBatch(task: InductionTask, options: { batch: number; seed?: number }): InductionBatch;
  inductionScores(model: GptModel, batch: InductionBatch): InductionScores;
  /** A training run whose batches are the induction task's sequences (seeded, seed + 1). */
  inductionTrainer(
    config: GptConfig,
    task: InductionTask,
    options: { batch?: number; lr?: number; total: number; seed?: number },
  ): GptTrainer;
  /** A learner's text (a string, or a file's bytes) → its streams, vocabulary and baselines. */
  textCorpus(text: string | Uint8Array): TextCorpus;
}

/** One token of a real tokenizer over a text (tokenized). */
export interface TokenCover {
  /** its bytes, "E6 88 91" */
  hex: string;
  /** the characters it holds whole ("" for a lone piece) */
  text: string;
  /** the token alone as a decoder writes it, � for each broken piece */
  shown: string;
  /** it starts or ends inside a character */
  piece: boolean;
  /** how many bytes */
  bytes: number;
  /** the first character it touches, from 0 */
  firstChar: number;
  /** the last */
  lastChar: number;
}

/** A real tokenizer's tokens laid over a text (tokenized): they spell its UTF-8 exactly. */
export interface Tokenized {
  /** each token, in order */
  tokens: TokenCover[];
  /** the text's Unicode code points */
  characters: number;
  /** its UTF-8 bytes */
  bytes: number;
  /** the tokens */
  count: number;
  /** tokens that are pieces of a character */
  pieces: number;
  /** characters spread over more than one token */
  splitChars: number;
  /** count / characters */
  tokensPerChar: number;
  /** characters / count */
  charsPerToken: number;
  /** the model's context, as given */
  context: number;
  /** ⌊context · characters / count⌋ */
  fit: number;
}

/** A decoder-only transformer as its configuration describes it (src/sizes.hpp). */
export interface ModelShape {
  /** V, the tokens it knows */
  vocab: number;
  /** T, the longest sequence it was built for */
  context: number;
  /** C, the residual stream's width */
  dModel: number;
  /** L, how many blocks */
  layers: number;
  /** h, query heads per layer */
  heads: number;
  /** h_kv, key-value heads per layer; divides h */
  kvHeads: number;
  /** one head's width */
  dHead: number;
  /** the MLP's hidden width (0 with mlp none) */
  dFf: number;
  /** gelu (two matrices), gated (three: SwiGLU) or none */
  mlp: string;
  /** layer (a gain and a bias) or rms (a gain) */
  norm: string;
  /** learned (a T·C table) or rotary (none) */
  positions: string;
  /** the output layer reuses the embedding */
  tied: boolean;
  /** W_Q, W_K and W_V have biases */
  qkvBias: boolean;
  /** W_O has a bias */
  oBias: boolean;
  /** the MLP's matrices have biases */
  mlpBias: boolean;
  /** a gain of d_head on every head's q and k */
  qkNorm: boolean;
}

/** One layer's parameters, by part. */
export interface LayerParameters {
  /** W_Q's parameters, with its bias if any: C·h·d_head (+ h·d_head) */
  wQ: number;
  /** W_K's: C·h_kv·d_head (+ h_kv·d_head) */
  wK: number;
  /** W_V's, as W_K's */
  wV: number;
  /** W_O's: h·d_head·C (+ C) */
  wO: number;
  /** 2·d_head with `qkNorm`, else 0 */
  qkNorm: number;
  /** the five above */
  attention: number;
  /** the MLP's matrices and biases */
  mlp: number;
  /** the layer's norms: before attention and before the MLP */
  norms: number;
  /** the layer's parameters */
  total: number;
}

/** A model's parameters, KV cache and one token's multiply-adds at context n (modelSize). */
export interface ModelSize {
  /** V·C */
  embedding: number;
  /** T·C with learned positions, else 0 */
  positions: number;
  /** one layer, by part */
  layer: LayerParameters;
  /** L · layer.total */
  layers: number;
  /** L · layer.attention */
  attention: number;
  /** L · layer.mlp */
  mlp: number;
  /** L · layer.norms + the final norm */
  norms: number;
  /** the norm after the last layer */
  finalNorm: number;
  /** V·C when untied, else 0 */
  unembedding: number;
  /** every parameter */
  total: number;
  /** attention / total */
  attentionShare: number;
  /** 2·L·h_kv·d_head: a k and a v row per layer */
  kvValuesPerToken: number;
  /** × bytesPerValue */
  kvBytesPerToken: number;
  /** × the shape's context */
  kvBytesContext: number;
  /** × n */
  kvBytesAt: number;
  /** bytes per token that h_kv < h saves */
  kvSaved: number;
  /** the context asked for */
  n: number;
  /** one layer's attention for a new token that sees n keys */
  attentionLayer: Cost;
  /** L · attentionLayer.total */
  attentionToken: number;
  /** L · (scores + weighted sum): the part that grows with n */
  scoresToken: number;
  /** L · the MLP's matrix products */
  mlpToken: number;
  /** V·C: the logits */
  unembedToken: number;
  /** attention, MLP and logits (norms, softmax and exp not counted) */
  token: number;
}

/** bpeLearn's options (src/bpe.hpp states the rules). */
export interface BpeOptions {
  /** how many merges to learn, 0 to 500 (fewer when no pair occurs twice); 10 unless given */
  merges?: number;
  /** "characters" (Unicode code points, the default) or "bytes" (UTF-8, as GPT-2 starts) */
  start?: "characters" | "bytes";
  /** never merge across letters, digits, spaces and punctuation (a space goes with the word after it) */
  presplit?: boolean;
}

/** One entry of a learned vocabulary. */
export interface BpeSymbol {
  /** its id */
  id: number;
  /** its characters when its bytes are whole characters, else "" */
  text: string;
  /** its bytes, "E6 98 8E" */
  hex: string;
  /** its bytes are whole UTF-8 characters */
  whole: boolean;
  /** how many bytes */
  bytes: number;
  /** the two tokens merged into it; −1 for a base symbol */
  left: number;
  /** the right one */
  right: number;
}

/** A pair of adjacent tokens, counted at every position (overlapping ones included). */
export interface BpePair {
  /** the left token's id */
  left: number;
  /** the right token's id */
  right: number;
  /** at every position, overlapping ones included */
  count: number;
  /** where it first occurs: its left token's place among the tokens, from 0 */
  first: number;
}

/** The pairs of a tokenization: the most frequent first, ties to the first to occur. */
export interface BpeCounts {
  /** the most frequent pairs, at most 10: the highest count first, ties the first to occur */
  top: BpePair[];
  /** how many different pairs there are */
  distinct: number;
  /** how many share the highest count (0 with no pair) */
  tied: number;
}

/** A text as tokens, piece by piece (the lines, or the pre-split's pieces). */
export interface BpeTokens {
  /** every token's id, piece after piece */
  ids: number[];
  /** how many tokens each piece has */
  sizes: number[];
  /** tokens */
  count: number;
}

/** One merge: the counts it was chosen from (top[0] the pair), where it occurs, the text after. */
export interface BpeStep {
  /** the most frequent pairs, at most 10: the highest count first, ties the first to occur */
  top: BpePair[];
  /** how many different pairs there are */
  distinct: number;
  /** how many share the highest count (0 with no pair) */
  tied: number;
  /** the pair merged: its left token */
  left: number;
  /** its right token */
  right: number;
  /** the new token (vocabulary[id]) */
  id: number;
  /** the pair's count */
  count: number;
  /** how many were merged, left to right without overlap */
  replaced: number;
  /** every place it occurs among the tokens before, from 0 */
  at: number[];
  /** the places merged */
  mergedAt: number[];
  /** the text's tokens after the merge */
  after: BpeTokens;
}

/** Byte-pair encoding learned from a text, step by step (bpeLearn). */
export interface BpeTrace {
  /** "characters" or "bytes" */
  start: string;
  /** the pre-split was on */
  presplit: boolean;
  /** the merges asked for (steps may be fewer) */
  merges: number;
  /** the base characters in id order ("" from bytes) */
  alphabet: string;
  /** base symbols: the alphabet's characters, or 256 */
  base: number;
  /** every token by id: the base, then one per merge */
  vocabulary: BpeSymbol[];
  /** the text's characters, line breaks not counted */
  characters: number;
  /** their UTF-8 bytes */
  bytes: number;
  /** its lines */
  lines: number;
  /** the line of each piece, from 0 */
  segmentLines: number[];
  /** the characters or bytes, before any merge */
  initial: BpeTokens;
  /** each merge, in order */
  steps: BpeStep[];
  /** the counts after the last merge: what comes next, or why it stopped */
  next: BpeCounts;
}

/** One token of a text encoded with a learned vocabulary. */
export interface BpeToken {
  /** its id; −1 for a character the vocabulary does not have */
  id: number;
  /** its characters when whole, else "" */
  text: string;
  /** its bytes */
  hex: string;
  /** its bytes are whole characters */
  whole: boolean;
  /** it is in the vocabulary */
  known: boolean;
  /** its piece, from 0 */
  segment: number;
}

/** A merge that changed an encoded text. */
export interface BpeApplied {
  /** which merge, from 0 (the learned trace's step) */
  merge: number;
  /** the token it makes */
  id: number;
  /** how many times it applied */
  replaced: number;
}

/** A text read with a learned vocabulary (bpeEncode). */
export interface BpeEncoded {
  /** each token, in order */
  tokens: BpeToken[];
  /** its characters or bytes before any merge (an unknown character −1) */
  initial: BpeTokens;
  /** the line of each piece, from 0 */
  segmentLines: number[];
  /** the merges that changed it, in order */
  applied: BpeApplied[];
  /** tokens */
  count: number;
  /** tokens not in the vocabulary */
  unknown: number;
  /** its characters, line breaks not counted */
  characters: number;
  /** their UTF-8 bytes */
  bytes: number;
}

/** What bpeEncode reads of a learned vocabulary: bpeLearn's result will do. */
export interface BpeLearned {
  start: string;
  presplit?: boolean;
  alphabet?: string;
  steps: { left: number; right: number }[];
}

/** Lesson 6, the models people use. */
export interface RealLabs {
  /** A text and its tokens' bytes (each a Uint8Array) → each token over the characters. */
  tokenized(text: string, tokens: Uint8Array[], options: { context: number }): Tokenized;
  /** A configuration → its parameters, KV cache and one token's multiply-adds at context n. */
  modelSize(shape: ModelShape, options: { n: number; bytesPerValue?: number }): ModelSize;
  /** Byte-pair encoding learned from a text, every merge with its counts and the text after. */
  bpeLearn(text: string, options?: BpeOptions): BpeTrace;
  /** A text read with a learned vocabulary: its characters or bytes, then each merge in order. */
  bpeEncode(learned: BpeLearned, text: string): BpeEncoded;
}

/** The labs module: the core's functions and the labs' (a second instance, with its own memory). */
export interface LabsCore extends Attention, WhyLabs, LearnLabs, GptLabs, RealLabs {
  /** X (n, d_model): h heads of d_head = W_Q's columns / h, h_kv key-value heads, concat·W_O. */
  multiHeadAttention(
    x: Matrix,
    weights: MultiHeadWeights,
    options?: MultiHeadOptions,
  ): MultiHeadTrace;
  /** One decoding step: x is the next token's row; cache null for the first token. */
  decodeStep(
    cache: KvCache | null | undefined,
    x: number[],
    weights: MultiHeadWeights,
    options?: MultiHeadOptions,
  ): DecodeStep;
  /** A decoder that keeps its cache (plain JS typed arrays) between steps. */
  decoder(weights: MultiHeadWeights, options?: MultiHeadOptions): Decoder;
  sinusoidalPositions(
    positions: number[],
    dModel: number,
    options?: { base?: number },
  ): SinusoidalTrace;
  /** M (n, k·d_head), row p at positions[p]. */
  rotary(m: Matrix, positions: number[], dHead: number, options?: { base?: number }): RotaryTrace;
}

/**
 * The small model's tokenizer, as its lab reads a line: the end token first, then each
 * character's id (chars: tang.json's; character i is id i + 2; unknown → 1), spaces dropped and
 * ASCII punctuation read full width.
 */
export function gptEncode(text: string, chars: string): number[];
/** Token ids as text: ⏎ for the end token (0), � for the unknown one (1). */
export function gptDecode(tokens: ArrayLike<number>, chars: string): string;

/** Loads the labs module once (the core plus the labs); later calls share the instance. */
export function loadLabs(): Promise<LabsCore>;

export interface GptTrainBatch {
  /** (B·T) the step's sequences, row-major by sequence: what its slices read */
  tokens: Int32Array;
  /** (B·T) each token's next, −1 where none */
  targets: Int32Array;
  /** the sequences of it already added to the step */
  done: number;
}
