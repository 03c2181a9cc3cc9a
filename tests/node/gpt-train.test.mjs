// gpt-train.test.mjs: what "Train it yourself" and the roles step must do, beyond a falling
// loss. The page's trainer (the WASM core, float32) takes the same steps as the committed drift
// check (tests/fixtures/train-trajectory.json, a short `make train` in float64), step by step;
// and the roles table names its rows layer by layer, head by head, only heads the model has,
// each with its numbers, in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { installTextDom, textOf } from "./text-dom.mjs";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { fmt } from "../../web/format.js";
import { readConfig, readStreams } from "../../web/labs/gpt/files.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const scene = await resolveScene(listed.find((s) => s.id === "model"));
const json = await readConfig();

test("the page's trainer takes the drift check's steps, one by one (float32 against float64)", async () => {
  const streams = await readStreams();
  const want = JSON.parse(
    readFileSync(new URL("../fixtures/train-trajectory.json", import.meta.url), "utf8"),
  );
  // the options of tools/train.cpp's trajectory run: --steps 4 --batch 2, its lr and seed
  const trainer = core.gptTrainer(json.config, streams.train, {
    batch: 2,
    lr: 3e-3,
    total: want.length,
    seed: 1,
  });
  const got = [];
  while (got.length < want.length) {
    const r = trainer.slice(1);
    if (r.loss !== undefined) got.push(r.loss);
  }
  trainer.close();
  got.forEach((loss, s) =>
    assert.ok(
      Math.abs(loss - want[s]) <= 1e-6 * want[s],
      `step ${s + 1}: ${loss}, the drift check ${want[s]}`,
    ),
  );
});

test("the roles table: a row for each head the model has, layer by layer, with its numbers", () => {
  const { layers, heads } = json.config;
  const { relations } = json.heads;
  const L = labAt(core, scene, { digits: 3 });
  for (const [lang, source] of [
    ["en", /^layer (\d+), head (\d+)$/],
    ["zh", /^第 (\d+) 层第 (\d+) 个头$/],
  ]) {
    const figure = scene.lab.panels.roles(L.at(lang, "roles")).querySelector("figure");
    const rows = figure
      .querySelectorAll("tr")
      .filter((tr) => tr.querySelector("td"))
      .map((tr) => [textOf(tr.querySelector("th")), ...tr.querySelectorAll("td").map(textOf)]);
    // the first row is what spreading evenly gives; then one per head
    assert.equal(rows.length, 1 + layers * heads, lang);
    rows.slice(1).forEach(([name, ...cells], k) => {
      const [l, h] = [Math.floor(k / heads), k % heads];
      const m = source.exec(name);
      assert.ok(m, `${lang}: «${name}»`);
      assert.deepEqual([Number(m[1]), Number(m[2])], [l + 1, h + 1], `${lang}: «${name}»`);
      relations.forEach((r, c) =>
        assert.equal(cells[c], fmt(r.mean[l][h], 3), `${lang} ${name}: ${r.name}`),
      );
    });
  }
});

test("a run's stopwatch counts every stretch it trained, and none while stopped or hidden", async () => {
  const { stopwatch } = await import("../../web/labs/gpt/stopwatch.js");
  let t = 1000;
  const clock = stopwatch(() => t);
  clock.run();
  t += 300; // trains 300 ms
  clock.pause(); // Stop
  assert.equal(clock.read(), 300);
  t += 5000; // stopped: not counted
  clock.run(); // Start again
  clock.run(); // a second run() while running changes nothing
  t += 200;
  assert.equal(clock.read(), 500, "both stretches, the current one up to now");
  assert.equal(clock.running(), true);
  clock.pause();
  clock.pause();
  t += 100;
  assert.deepEqual([clock.read(), clock.running()], [500, false]);
});
