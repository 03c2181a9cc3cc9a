// tools/ablation.mjs: what the model lab's named heads help to predict. Each group of heads that
// the lab names for one relation (tang.json's measurements, panels.js's rule) is switched off
// together, its rows of W_O set to 0 so that its output adds nothing to the residual stream, and
// the held-out loss is measured again, split by what the target is: a character, a punctuation
// mark, or ⏎. Writes web/labs/gpt/ablation.json, committed beside the model; the lab's
// "what each head does" step states it. In float64 from the shipped int8 weights, by the WASM
// core, over the held-out stream in windows of the context, as the held-out loss is.
// tests/node/gpt-ablation.test.mjs measures it again with the float64 reference written apart.
// Run: node tools/ablation.mjs (after make build), then make format, which lays the JSON out.
import { readFile, writeFile } from "node:fs/promises";
import { loadLabs } from "../web/attention.js";
import { readConfig, readStreams, readWeights, readWith } from "../web/labs/gpt/files.js";
import { roleOf } from "../web/labs/gpt/panels.js";
import { targetKind } from "../web/labs/gpt/helps.js";

const web = new URL("../web/", import.meta.url);
readWith(async (path) => new Uint8Array(await readFile(new URL(path, web))));

const core = await loadLabs();
const json = await readConfig();
const model = core.gptModel(json.config, await readWeights());
const { heldOut } = await readStreams();
const chars = [...json.chars];
const { layers, heads, dModel: C, context } = json.config;
const d = C / heads;
const layout = core.gptLayout(json.config);

// The model with the heads given (1-based [layer, head]) adding nothing.
function without(list) {
  const params = Float32Array.from(model.params);
  for (const [l, h] of list) {
    const { offset } = layout.find((t) => t.name === `l${l - 1}.w_o`);
    params.fill(0, offset + (h - 1) * d * C, offset + h * d * C);
  }
  return { config: model.config, params };
}

// The mean −ln p of the held-out targets of each kind, and of all.
function losses(m) {
  const sum = { character: 0, mark: 0, end: 0 };
  const count = { character: 0, mark: 0, end: 0 };
  for (let at = 0; at + 1 < heldOut.length; at += context) {
    const n = Math.min(context, heldOut.length - 1 - at);
    const { probs } = core.gptForward(m, Array.from(heldOut.subarray(at, at + n)), {
      precise: true,
    });
    for (let i = 0; i < n; i++) {
      const target = heldOut[at + i + 1];
      const kind = targetKind(target, chars);
      sum[kind] -= Math.log(probs[i][target]);
      count[kind]++;
    }
  }
  const total = Object.values(count).reduce((a, b) => a + b);
  return {
    all: Object.values(sum).reduce((a, b) => a + b) / total,
    ...Object.fromEntries(Object.keys(sum).map((k) => [k, sum[k] / count[k]])),
    count,
  };
}

const groups = [];
for (const { name } of json.heads.relations) {
  const named = [];
  for (let l = 1; l <= layers; l++)
    for (let h = 1; h <= heads; h++)
      if (roleOf(json.heads.relations, l - 1, h - 1) === name) named.push([l, h]);
  if (named.length) groups.push({ role: name, heads: named, ...losses(without(named)) });
}
const { count, ...all } = losses(model);
const ablation = { targets: count, full: all, off: groups.map(({ count, ...g }) => g) };
await writeFile(new URL("labs/gpt/ablation.json", web), JSON.stringify(ablation, null, 2) + "\n");
console.log(JSON.stringify(ablation));
