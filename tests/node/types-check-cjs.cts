// types-check-cjs.cts: the types of require("attention-by-hand") (web/attention.d.cts),
// compiled by `tsc --noEmit` with types-check.ts.
import { loadAttention, loadLabs, type LabsCore, type Trace } from "attention-by-hand";

export const first = loadAttention().then((core) => {
  const trace: Trace = core.attention([[1, 0]], [[1, 0]], [[2]]);
  // @ts-expect-error: mask takes "causal" or a boolean matrix
  core.attention([[1]], [[1]], [[1]], { mask: "future" });
  return trace.output[0][0];
});
export const labs: Promise<LabsCore> = loadLabs();
export const kept = loadLabs().then((core) => {
  const { model, chars } = core.gptModelFromFiles("{}", new Uint8Array(0));
  return core.gptModelFiles(model, { chars }).description.length;
});
