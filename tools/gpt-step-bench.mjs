// gpt-step-bench.mjs: the lab's training step in Node, on the real WASM core (web/attention.js)
// with the shipped configuration (web/labs/gpt/tang.json: its config, its training block's batch,
// lr and seed) on the token streams of web/generated/tang-streams.bin. The step is taken as the
// tab takes it, one sequence at a time (trainer.slice(1), web/labs/gpt/train-state.js's
// sliceOf). After a warm-up, the median, fastest and slowest ms of a step. `make bench` prints
// it (gpt-bench.mjs); alone: node tools/gpt-step-bench.mjs [steps] [warm-up], which prints JSON.
// Also the step's fingerprint: the loss of each of the first steps and an FNV-1a hash of every
// weight's float32 bits after them, which tests/node/gpt-step.test.mjs holds to
// tests/fixtures/gpt-step-fingerprint.json (node tools/gpt-step-bench.mjs --fingerprint writes
// it): a change to the step's arithmetic, down to the last bit, shows there.
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { loadLabs } from "../web/attention.js";
import { readConfig, readStreams, readWith } from "../web/labs/gpt/files.js";

const web = new URL("../web/", import.meta.url);
export const stepTargetMs = 40;

// The shipped configuration's trainer, as the tab opens it (web/labs/gpt/train.js).
async function shippedTrainer() {
  readWith(async (path) => new Uint8Array(await readFile(new URL(path, web))));
  const [core, json, streams] = await Promise.all([loadLabs(), readConfig(), readStreams()]);
  const t = json.training;
  return core.gptTrainer(json.config, streams.train, {
    batch: t.batch,
    lr: t.lr,
    total: t.steps,
    seed: t.seed,
  });
}

// One step, a sequence at a time as the tab takes it: its loss.
function step(trainer) {
  for (;;) {
    const { loss } = trainer.slice(1);
    if (loss !== undefined) return loss;
  }
}

/** 64-bit FNV-1a of the float32 bits of `values`, as 16 hex digits. */
export function fnv1a(values) {
  const bytes = new Uint8Array(Float32Array.from(values).buffer);
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, "0");
}

/** { steps, losses, params: fnv1a of the weights after them } of the shipped trainer. */
export async function fingerprint(steps = 20) {
  const trainer = await shippedTrainer();
  try {
    const losses = Array.from({ length: steps }, () => step(trainer));
    return { steps, losses, params: fnv1a(trainer.params()) };
  } finally {
    trainer.close();
  }
}

/**
 * { medianMs, minMs, maxMs, cpuMs, steps, stepsPerSecond } of `steps` steps after `warm` more:
 * wall-clock ms, and the median CPU ms the process used in a step (on a shared machine the
 * wall clock also counts the time it waited for a core).
 */
export async function stepBench({ steps = 30, warm = 5 } = {}) {
  const trainer = await shippedTrainer();
  const ms = [];
  const cpuMs = [];
  try {
    for (let s = 0; s < warm + steps; s++) {
      const began = performance.now();
      const cpu = process.cpuUsage();
      step(trainer);
      const used = process.cpuUsage(cpu);
      if (s >= warm) {
        ms.push(performance.now() - began);
        cpuMs.push((used.user + used.system) / 1000);
      }
    }
  } finally {
    trainer.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const medianMs = median(ms);
  return {
    medianMs,
    minMs: Math.min(...ms),
    maxMs: Math.max(...ms),
    cpuMs: median(cpuMs),
    steps,
    stepsPerSecond: 1000 / medianMs,
  };
}

/** The bench table's line. */
export const stepLine = (r) =>
  `  WASM training step in Node: ${r.medianMs.toFixed(1)} ms (target ≤ ${stepTargetMs} ms), ${r.stepsPerSecond.toFixed(1)} steps/s; median of ${r.steps} steps (${r.minMs.toFixed(1)} to ${r.maxMs.toFixed(1)} ms), a sequence at a time as the tab takes them; ${r.cpuMs.toFixed(1)} ms of CPU`;

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === "--fingerprint") {
    const file = new URL("../tests/fixtures/gpt-step-fingerprint.json", import.meta.url);
    writeFileSync(file, JSON.stringify(await fingerprint(), null, 2) + "\n");
    console.log(`wrote ${file.pathname}`);
  } else {
    const [steps, warm] = process.argv.slice(2).map(Number);
    console.log(JSON.stringify(await stepBench({ steps: steps || 30, warm: warm ?? 5 })));
  }
}
