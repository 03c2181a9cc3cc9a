// types-check.ts: compiled by `tsc --noEmit` in the tests, so the declarations stay usable.
import { loadAttention, type Trace } from "../../web/attention.js";

const core = await loadAttention();
const trace: Trace = core.attention([[1, 0]], [[1, 0]], [[2]], { mask: "causal", scale: 1 });
const weights: number[][] = trace.weights;
const self = core.selfAttention([[1]], [[1]], [[1]], [[1]], { dropout: { p: 0.1, seed: 1 } });
const q: number[][] = self.q;
const shape = { batch: 1, heads: 1, nQ: 1, nK: 1, dK: 1, dV: 1 };
const { output } = core.attentionBatched(
  new Float32Array(1),
  new Float32Array(1),
  new Float32Array(1),
  shape,
  { causal: true },
);
const fast = core.attentionBatched(
  new Float32Array(1),
  new Float32Array(1),
  new Float32Array(1),
  shape,
  { weights: false, copy: false },
);
// @ts-expect-error: without the weights the result has none
fast.weights.length;
const both = core.attentionBatched(
  new Float32Array(1),
  new Float32Array(1),
  new Float32Array(1),
  shape,
);
const first: number = output[0] + weights[0][0] + q[0][0] + fast.output[0] + both.weights[0];
// @ts-expect-error: mask takes "causal" or a boolean matrix
core.attention([[1]], [[1]], [[1]], { mask: "future" });
export { first };
