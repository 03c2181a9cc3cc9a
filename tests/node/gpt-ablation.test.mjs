// gpt-ablation.test.mjs: what the lab's named heads help to predict (web/labs/gpt/
// ablation.json, written by tools/ablation.mjs, which switches a head off by its rows of W_O)
// measured again another way: the head's columns of W_V set to 0, so that its output is 0,
// with the weights read by gpt-reference.mjs's own reader, its own reading of which target is a
// mark and its own sums. The forward pass is the WASM core's in float64, which
// gpt-reference.test.mjs holds to the float64 reference (the reference itself takes minutes
// over the held-out poems here). And the lab's sentences about the heads hold for the numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./gpt-files.mjs";
import { readAblation, readConfig, readStreams } from "../../web/labs/gpt/files.js";
import { roleOf } from "../../web/labs/gpt/panels.js";
import { loadLabs } from "../../web/attention.js";
import { referenceLayout, readWeights } from "./gpt-reference.mjs";

const core = await loadLabs();
const ablation = await readAblation();
const json = await readConfig();
const { heldOut } = await readStreams();
const { config } = json;
const bytes = new Uint8Array(readFileSync(new URL("../../web/labs/gpt/tang.bin", import.meta.url)));
const params = readWeights(config, bytes);
const chars = [...json.chars];
const isMark = (t) => t > 1 && /^[，。？！、：；“”《》]$/.test(chars[t - 2]);

// The reference model with the given heads' value columns at 0 (1-based [layer, head]).
function silenced(list) {
  const p = Float32Array.from(params);
  const d = config.dModel / config.heads;
  for (const [l, h] of list) {
    const { offset, cols } = referenceLayout(config).find((t) => t.name === `l${l - 1}.w_v`);
    for (let r = 0; r < config.dModel; r++)
      for (let c = (h - 1) * d; c < h * d; c++) p[offset + r * cols + c] = 0;
  }
  return p;
}

// The held-out targets' −ln p by kind, over windows of the context as the held-out loss is.
function measured(p) {
  const sums = { character: [0, 0], mark: [0, 0], end: [0, 0] };
  for (let at = 0; at < heldOut.length - 1; at += config.context) {
    const tokens = Array.from(heldOut.slice(at, Math.min(at + config.context, heldOut.length - 1)));
    const { probs } = core.gptForward({ config, params: p }, tokens, { precise: true });
    tokens.forEach((_, i) => {
      const target = heldOut[at + i + 1];
      const s = sums[target === 0 ? "end" : isMark(target) ? "mark" : "character"];
      s[0] -= Math.log(probs[i][target]);
      s[1]++;
    });
  }
  return Object.fromEntries(Object.entries(sums).map(([k, [sum, n]]) => [k, { loss: sum / n, n }]));
}

const close = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

test("the named heads are the ones switched off, each relation's together", () => {
  const named = {};
  for (let l = 0; l < config.layers; l++)
    for (let h = 0; h < config.heads; h++) {
      const role = roleOf(json.heads.relations, l, h);
      if (role) (named[role] ??= []).push([l + 1, h + 1]);
    }
  assert.deepEqual(Object.fromEntries(ablation.off.map((g) => [g.role, g.heads])), named);
  // the shipped model's: the previous character (2.2), the last mark (2.3 and 2.4)
  assert.deepEqual(named, {
    previous: [[2, 2]],
    lastMark: [
      [2, 3],
      [2, 4],
    ],
  });
});

test("the losses by kind, with and without each group, are measured again, another way", () => {
  const full = measured(params);
  for (const kind of ["character", "mark", "end"]) {
    assert.equal(ablation.targets[kind], full[kind].n, kind);
    close(ablation.full[kind], full[kind].loss, `full ${kind}`);
  }
  // make train measured it in float32: the same loss to 1e-4
  assert.ok(Math.abs(ablation.full.all - json.heldOutInt8) < 1e-4);
  for (const group of ablation.off) {
    const got = measured(silenced(group.heads));
    for (const kind of ["character", "mark", "end"]) {
      close(group[kind], got[kind].loss, `${group.role} ${kind}`);
    }
  }
});

test("the sentences hold: the previous character's head is for characters, the mark's for marks", () => {
  const { full } = ablation;
  const off = Object.fromEntries(ablation.off.map((g) => [g.role, g]));
  // "the marks hardly need it": without it the marks' loss rises by less than 0.05 nats
  assert.ok(off.previous.character > full.character + 0.1);
  assert.ok(off.previous.mark < full.mark + 0.05);
  // the last mark's heads: the marks' loss rises far more than the characters'
  assert.ok(off.lastMark.mark - full.mark > 5 * (off.lastMark.character - full.character));
  assert.ok(off.lastMark.mark > full.mark + 1);
});
