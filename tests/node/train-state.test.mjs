// train-state.test.mjs: a model lab's run as plain data (web/labs/gpt/train-state.js), changed
// as the page and the labs' worker change it, with no DOM: the races the page has had, each told
// through the functions train.js calls, and what its panels (train-panels.js) then say. A run
// stopped while a slice is in flight keeps that slice and pauses only when the worker says it
// stopped; Stop racing the run's end leaves it ended; a run done and started again starts from
// step 0 with its own clock; weights loaded and then trained are forgotten for a fresh run.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ended,
  finished,
  hid,
  loaded,
  opened,
  sliced,
  started,
  stopPressed,
  stopped,
  weighed,
} from "../../web/labs/gpt/train-state.js";
import { momentOf, runStatus, startLabel } from "../../web/labs/gpt/train-panels.js";
import { stopwatch } from "../../web/labs/gpt/stopwatch.js";
import { gptWords } from "../../web/labs/gpt/words.js";

const msg = { ...gptWords.en, coreError: (m) => m };
const w = msg.gptLab;
const json = { training: { steps: 100 } };
const shipped = { json };

// A clock the test moves: `later(ms)` passes that much time.
function clock() {
  let now = 0;
  const watch = stopwatch(() => now);
  return { watch, later: (ms) => (now += ms) };
}

const losses = (n, from = 0) => Array.from({ length: n }, (_, i) => 5 - (from + i) / 100);

test("a run stopped while a slice is in flight keeps that slice, and pauses when the worker says it stopped", () => {
  const { watch, later } = clock();
  const run = opened(shipped, true, watch);
  started(run);
  sliced(run, losses(40), [[1, 4.9]]);
  later(1000);
  assert.equal(stopPressed(run), true, "the worker is told to stop");
  assert.equal(run.stopping, true);
  assert.equal(run.running, true, "still running until the worker stops");
  assert.equal(startLabel(run, json, w), w.running);
  // the slice the worker was taking when Stop was pressed
  sliced(run, losses(10, 40), [[50, 4.5]]);
  weighed(run, new Float32Array(4), 50);
  later(500);
  assert.equal(run.losses.length, 50, "the slice in flight is kept");
  assert.deepEqual(run.heldOut.at(-1), [50, 4.5]);
  assert.equal(watch.read(), 1500, "the clock runs until the worker stops");
  stopped(run);
  assert.equal(run.running, false);
  assert.equal(run.stopping, false);
  later(5000);
  assert.equal(watch.read(), 1500, "paused: the clock does not move");
  assert.equal(momentOf(run, json), "paused 50");
  assert.equal(startLabel(run, json, w), w.resume);
  assert.match(runStatus(run, json, msg), /step 50 of 100/);
  assert.equal(finished(run, json.training.steps), false);
  // Resume: the clock runs again from where it was
  started(run);
  later(500);
  assert.equal(watch.read(), 2000);
});

test("a tab hidden while the worker trains pauses the clock; the worker's stopped then leaves the run going", () => {
  const { watch, later } = clock();
  const run = opened(shipped, true, watch);
  started(run);
  later(100);
  assert.equal(hid(run, true), true, "the worker is told to stop");
  stopped(run);
  assert.equal(run.running, true, "only hidden: the run still goes on");
  later(1000);
  assert.equal(watch.read(), 100);
  assert.equal(hid(run, false), true, "the worker is told to run");
  later(100);
  assert.equal(watch.read(), 200);
  // the page's own run is not the worker's: nothing to tell it
  assert.equal(hid(opened(shipped, false, clock().watch), true), false);
});

test("Stop racing the run's end: the worker's done, then its stopped, leave the run ended", () => {
  const { watch, later } = clock();
  const run = opened(shipped, true, watch);
  started(run);
  sliced(run, losses(100), [[100, 3.2]]);
  stopPressed(run);
  ended(run);
  weighed(run, new Float32Array(4), 100);
  stopped(run);
  later(1000);
  assert.equal(run.running, false);
  assert.equal(run.stopping, false);
  assert.equal(watch.read(), 0, "paused since the end");
  assert.equal(finished(run, json.training.steps), true);
  assert.equal(startLabel(run, json, w), w.again);
  assert.equal(momentOf(run, json), "done");
});

test("a run done and started again: a run from step 0, with its own losses and clock", () => {
  const first = clock();
  const run = opened(shipped, false, first.watch);
  started(run);
  first.watch.run(); // the page's loop runs the clock at its frames
  sliced(run, losses(100), [[100, 3.2]]);
  first.later(2000);
  ended(run);
  first.later(1000);
  assert.equal(first.watch.read(), 2000, "the clock stops at the end");
  assert.equal(finished(run, json.training.steps), true);
  assert.match(runStatus(run, json, msg), /step 100 of 100/);
  // Again: train.js forgets the finished run and opens another
  const second = clock();
  const again = opened(shipped, false, second.watch);
  started(again);
  assert.deepEqual(again.losses, [], "no loss of the first run");
  assert.deepEqual(again.heldOut, []);
  assert.equal(again.failed, undefined);
  assert.equal(finished(again, json.training.steps), false);
  assert.equal(startLabel(again, json, w), w.running);
  assert.equal(run.losses.length, 100, "the first run is untouched");
  assert.equal(second.watch.read(), 0);
});

test("a run that failed has ended: its step is said, and Start trains anew", () => {
  const run = opened(shipped, true, clock().watch);
  started(run);
  sliced(run, losses(7), [[1, 4.9]]);
  ended(run, { step: 8 });
  assert.equal(finished(run, json.training.steps), true);
  assert.equal(runStatus(run, json, msg), w.trainFailed(8, w.notFinite));
  assert.equal(startLabel(run, json, w), w.again);
});

test("weights loaded, then trained: the loaded run has ended, and a fresh run trains from step 0", () => {
  const params = new Float32Array(4);
  const run = loaded(shipped, params, 700, 2.4567, "poems-model.json", clock().watch);
  assert.equal(finished(run, json.training.steps), true, "Start trains anew");
  assert.equal(startLabel(run, json, w), w.again);
  assert.equal(momentOf(run, json), "done");
  assert.equal(runStatus(run, json, msg), w.loadedStatus("poems-model.json", 700, "2.457"));
  assert.equal(run.params, params);
  // Stop on loaded weights tells no worker
  assert.equal(stopPressed(run), false);
  const { watch, later } = clock();
  const fresh = opened(shipped, true, watch);
  started(fresh);
  sliced(fresh, losses(3), [[1, 4.9]]);
  later(1000);
  assert.equal(fresh.loaded, undefined);
  assert.equal(fresh.params, undefined, "no weights until the worker sends them");
  assert.match(runStatus(fresh, json, msg), /step 3 of 100/);
  assert.equal(startLabel(fresh, json, w), w.running);
});
