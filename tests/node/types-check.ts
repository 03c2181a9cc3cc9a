// types-check.ts: compiled by `tsc --noEmit` in the tests, so the declarations stay usable:
// the core's and the element's, both through the package's own exports.
import { loadAttention, loadLabs, type Trace } from "attention-by-hand";
import "attention-by-hand/element";

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
const labs = await loadLabs();
const model = labs.multiHeadAttention(
  [[1, 0]],
  { wq: [[1], [0]], wk: [[1], [0]], wv: [[1], [0]], wo: [[1, 0]] },
  {
    heads: 1,
    positions: "rope",
  },
);
const decoder = labs.decoder({ wq: [[1]], wk: [[1]], wv: [[1]], wo: [[1]] }, { kvHeads: 1 });
const cached: number = decoder.step([1]).cost.total + model.heads[0].weights[0][0];
const one = { wq: [[1]], wk: [[1]], wv: [[1]], wo: [[1]] };
const learned: number =
  labs.attentionBackward([[1]], [[1]], [[1]], [[1]]).gradients.scores[0][0] +
  labs.selfAttentionBackward([[1]], [[1]], [[1]], [[1]], [[1]]).gradients.wq[0][0] +
  labs.multiHeadBackward([[1]], one, [[1]]).gradients.heads[0].q[0][0];
const kept = labs.gptModelFiles(
  { config: { vocab: 3, context: 2, dModel: 2, layers: 1, heads: 1 }, params: new Float32Array(1) },
  { chars: "a", heldOut: 1.5 },
);
const loaded = labs.gptModelFromFiles(kept.description, kept.weights);
const kept2: Uint8Array = labs.gptModelFiles(loaded.model, loaded.description).weights;
const vocab: number = loaded.model.config.vocab + loaded.chars.length + kept2.length;
// @ts-expect-error: the weights are the file's bytes, not an ArrayBuffer
labs.gptModelFromFiles(kept.description, kept.weights.buffer);
// @ts-expect-error: a description gives the model's chars
labs.gptModelFiles(loaded.model, { heldOut: 1.5 });
// @ts-expect-error: dOutput is a matrix
labs.attentionBackward([[1]], [[1]], [[1]], [1]);
// @ts-expect-error: positions are "none", "sinusoidal" or "rope"
labs.multiHeadAttention([[1]], one, { positions: "learned" });

const element = document.createElement("attention-walkthrough");
element.addEventListener("stepchange", (e) => e.detail.step);
let at: number = 0;
element.addEventListener("stepchange", (e) => {
  at = e.detail.step + e.detail.total + e.detail.stepId.length + e.detail.scene.length;
});
element.addEventListener("ready", (e) => e.detail.scene);
element.addEventListener("error", (e) => e.detail.message);
element.addEventListener("click", (e) => e.clientX);
const moved: boolean = element.goTo(2) && element.setInputs({ q: [[1]] });
// @ts-expect-error: ready says which scene, not which step
element.addEventListener("ready", (e) => e.detail.step);
// @ts-expect-error: the element's error event is a CustomEvent, not an ErrorEvent
element.addEventListener("error", (e) => e.filename);
const heads = document.createElement("attention-heads");
const opened: boolean = heads.open(1, 2) && heads.data?.layers[0].heads[0].weights[0][0] === 0.5;
const future = { layer: 1, d_head: 1, scale: 1, mask: "future", heads: [] };
// @ts-expect-error: a head's mask is "causal" or null
heads.data = { title: "", tokens: ["a"], why: null, layers: [future] };
export { first, at, moved, cached, learned, vocab, opened };
