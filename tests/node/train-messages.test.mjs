// train-messages.test.mjs: the labs' worker (web/train-worker.js) and the page (labs/worker.js,
// train.js, induction-run.js) speak only the messages declared in web/labs/train-messages.js.
// The worker runs here in Node, its postMessage caught: every message it sends is a declared
// kind, and each kind the page reads is one it can be sent; a message of a kind not declared is
// refused with an error, by the worker and by the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { kindOf, messageOf, messages } from "../../web/labs/train-messages.js";
import { tell } from "../../web/labs/worker.js";

// The worker in this process: what it posts is kept in `sent`.
const sent = [];
globalThis.postMessage = (message) => sent.push(message);
globalThis.onmessage = null;
await import("../../web/train-worker.js");
const worker = globalThis.onmessage;
const toWorker = (data) => worker({ data });

// Until the worker has sent a message `seen` finds, or two minutes.
async function until(seen) {
  for (let i = 0; i < 12000 && !sent.some(seen); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(sent.some(seen), `not sent: ${seen}`);
}

test("the own-text lab's run: every message the worker sends is of a declared kind", async () => {
  sent.length = 0;
  const config = { vocab: 8, context: 4, dModel: 4, layers: 1, heads: 1 };
  const train = new Int32Array(Array.from({ length: 64 }, (_, i) => (i * 5) % 8));
  const heldOut = new Int32Array(Array.from({ length: 32 }, (_, i) => (i * 3) % 8));
  const options = { batch: 2, lr: 1e-3, total: 60, seed: 3 };
  await toWorker(messageOf("in", "text", "open", { open: { config, train, heldOut, options } }));
  await toWorker(messageOf("in", "text", "run", { run: true }));
  await until((m) => m.done);
  await toWorker(messageOf("in", "text", "stop", { stop: true }));
  await toWorker(messageOf("in", "text", "reset", { reset: true }));
  const kinds = new Set(sent.map((m) => kindOf("out", m)));
  assert.deepEqual([...kinds].sort(), ["done", "slice", "stopped", "weights"]);
  assert.ok(sent.every((m) => m.lab === "text"));
  const steps = sent.filter((m) => kindOf("out", m) === "slice").flatMap((m) => m.losses);
  assert.equal(steps.length, 60, "every step's loss");
});

test("the induction lab's run and the memory asked for: declared kinds", async () => {
  sent.length = 0;
  await toWorker(messageOf("in", "induction", "run", { run: 1 }));
  await until((m) => m.lab === "induction" && m.kept !== undefined);
  await toWorker(messageOf("in", "induction", "stop", { stop: true }));
  await toWorker(messageOf("in", "induction", "reset", { reset: 1 }));
  await toWorker(messageOf("in", "memory", "ask"));
  for (const m of sent) kindOf("out", m);
  const memory = sent.filter((m) => m.lab === "memory");
  assert.equal(memory.length, 1);
  assert.equal(kindOf("out", memory[0]), "memory");
  assert.ok(sent.some((m) => m.lab === "induction" && kindOf("out", m) === "slice"));
});

test("a message of a kind not declared is refused loudly: by the worker, the page and its reading", async () => {
  await assert.rejects(() => toWorker({ lab: "text", go: true }), /no in message/);
  await assert.rejects(() => toWorker({ lab: "text", run: true, stop: true }), /no in message/);
  await assert.rejects(() => toWorker({ lab: "nobody" }), /no in message/);
  assert.throws(() => tell("text", "go", { go: true }), /no in message/);
  assert.throws(() => tell("induction", "run", { stop: true }), /of kind stop, not run/);
  // what the page reads from the worker (labs/worker.js's onmessage)
  assert.throws(() => kindOf("out", { lab: "text", stoped: true }), /no out message/);
  assert.throws(() => kindOf("out", { lab: "induction", layers: 2, losses: [] }), /no out message/);
  assert.throws(() => messageOf("out", "gpt", "weights", { params: [] }), /no out message/);
});

// The kinds each side names in its source: `tell(lab, "kind"` and `post(lab, "kind"` send one,
// `kind === "kind"` reads one. The page's labs send `in` and read `out`; the worker the other way.
const source = (path) => readFileSync(new URL(`../../web/${path}`, import.meta.url), "utf8");
const named = (text, pattern) => [...text.matchAll(pattern)].map((m) => m[1]);
const declared = (labs, way) => new Set(labs.flatMap((lab) => Object.keys(messages[lab][way])));

test("the kinds the page and the worker name in their code are the declared ones", () => {
  const sides = [
    ["labs/gpt/train.js", ["gpt", "text"], "in", "out"],
    ["labs/gpt/induction-run.js", ["induction"], "in", "out"],
    ["train-worker.js", ["gpt", "text", "induction", "memory", "workers", "slices"], "out", "in"],
  ];
  for (const [path, labs, sends, reads] of sides) {
    const text = source(path);
    const sentKinds = named(text, /\b(?:tell|post)\([^,]+,\s*"(\w+)"/g);
    const readKinds = named(text, /\bkind === "(\w+)"/g);
    assert.ok(sentKinds.length && readKinds.length, `${path}: kinds found`);
    for (const kind of sentKinds)
      assert.ok(declared(labs, sends).has(kind), `${path} sends ${kind}`);
    for (const kind of readKinds)
      assert.ok(declared(labs, reads).has(kind), `${path} reads ${kind}`);
  }
  // each kind the worker sends a lab is read by that lab's page (the memory is the test's)
  for (const [path, lab] of [
    ["labs/gpt/train.js", "gpt"],
    ["labs/gpt/induction-run.js", "induction"],
  ]) {
    const reads = new Set(named(source(path), /\bkind === "(\w+)"/g));
    for (const kind of Object.keys(messages[lab].out)) {
      assert.ok(reads.has(kind), `${path} reads ${lab}'s ${kind}`);
    }
  }
});
