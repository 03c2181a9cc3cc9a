// decode-heap.test.mjs: 10,000 decoding steps through the labs module with resets and
// refused steps leave the WASM heap and the live handles where they were.
import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { loadLabs } from "../../web/attention.js";
import { random, randomLayer, randomMatrix } from "./reference.mjs";

const core = await loadLabs();
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

test("10,000 decoding steps with resets: the WASM heap and the handles stay flat", (t) => {
  const next = random(16);
  const weights = randomLayer(next, 8, 4, 2, 2);
  const rows = randomMatrix(next, 40, 8, 1);
  const decoder = core.decoder(weights, { heads: 4, kvHeads: 2, positions: "rope" });
  const run = (steps) => {
    for (let i = 0; i < steps; i++) {
      if (i % 40 === 0) decoder.reset();
      decoder.step(rows[i % 40]);
      if (i % 500 === 0) assert.throws(() => decoder.step([1]));
    }
  };
  run(400);
  gc();
  const before = core.memory();
  run(10_000);
  gc();
  const after = core.memory();
  assert.deepEqual(after, before, "malloc'd bytes, heap top, heap size and live handles");
  t.diagnostic(`WASM heap after 10,000 steps: ${after.inUse} bytes in use, as before`);
});
