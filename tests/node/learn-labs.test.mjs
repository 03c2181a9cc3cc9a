// learn-labs.test.mjs: the two "how it learns" labs on the lab contract, computed with the real
// labs module: every step's view, words and panels in both languages; every derivation line of
// every cell holds at the precision it shows (tests/node/shown.mjs), with every line that has
// arithmetic read; the numbers in the labs' sentences are the core's; the claims of each lab
// (α grows and learning slows; the finite target is reached; 书 learns to look at 读) in its
// numbers, against values worked out here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { wordsFor } from "../../web/words.js";
import { scenes as listed, lessonOf } from "../../web/catalogue.js";
import { initialState } from "../../web/state.js";
import { labAt } from "./lab-context.mjs";
import { fmt } from "../../web/format.js";
import { checkLine } from "./shown.mjs";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const core = await loadLabs();
const ids = ["sharpness", "teach"];
const labScenes = Object.fromEntries(
  await Promise.all(
    ids.map(async (id) => [id, await resolveScene(listed.find((s) => s.id === id))]),
  ),
);

function run(id, partial = {}) {
  const scene = labScenes[id];
  const state = initialState([scene], { scene: id, lang: "en", ...partial });
  const { inputs, trace } = scene.lab.compute(core, scene, state);
  return { scene, state, inputs, trace };
}

// Every step's context in both languages, with its step.
function contexts(id, partial = {}) {
  return labAt(core, labScenes[id], partial)
    .each()
    .map((ctx) => ({ ctx, step: ctx.step }));
}

// Every line of every cell's derivation, checked; returns how many lines had arithmetic.
function checkDerivations(id, partial) {
  let checked = 0;
  for (const { ctx } of contexts(id, partial)) {
    for (const m of ctx.view.matrices) {
      m.data.forEach((row, i) =>
        row.forEach((_, j) => {
          const d = ctx.lab.derivation(m.id, i, j, ctx);
          assert.ok(d.lines.length > 0, `${id} ${ctx.stepId} ${m.id}[${i}][${j}]: no derivation`);
          for (const l of d.lines) {
            const r = checkLine(l.text, ctx.state.digits);
            // a line with "=" and a number before its last "=" must be read
            const before =
              l.text
                .split(/ (?:=|≈) /)
                .slice(0, -1)
                .at(-1) ?? "";
            const bare = before.replace(/[^\s=]*\[\d+\](\[\d+\])?/g, "");
            if (/\d/.test(bare) && /[×÷+²]|−\s|ln|exp/.test(bare)) {
              assert.ok(r, `${id} ${ctx.stepId}: a line the reader cannot read: ${l.text}`);
            }
            if (!r) continue;
            assert.ok(
              r.holds,
              `${id} ${ctx.stepId} at ${ctx.state.digits}: ${l.text} (worked ${r.worked})`,
            );
            checked++;
          }
          const worked = ctx.lab.worked(m.id, i, j, ctx);
          assert.ok(worked.every(Number.isFinite), `${id} ${m.id}: ${worked}`);
        }),
      );
    }
  }
  return checked;
}

test("both labs are in the curriculum's lesson 'learn', named in both languages before they load", async () => {
  const { messages } = await import("../../web/i18n/index.js");
  for (const id of ids) {
    assert.equal(lessonOf[id], "learn");
    assert.ok(messages.en.scenes[id].name && messages.zh.scenes[id].name);
  }
});

test("every step has its words and panels, in both languages", () => {
  for (const id of ids) {
    for (const { ctx, step } of contexts(id)) {
      const { msg, lab } = ctx;
      assert.ok(msg.scenes[id].title && msg.steps[step.id].title, `${id} ${step.id}`);
      const text = lab.text(step.id, ctx);
      assert.ok(typeof text === "string" && text.length > 20, `${id} ${step.id}: ${text}`);
      for (const p of [...step.panels, ...(step.inStep ?? [])]) {
        assert.equal(typeof lab.panels[p], "function", `${id}: panel ${p}`);
      }
      for (const m of ctx.view.matrices) {
        assert.equal(m.rowLabels.length, m.data.length, `${id} ${m.id} rows`);
        assert.equal(m.colLabels.length, m.data[0].length, `${id} ${m.id} cols`);
      }
    }
  }
});

test("every = of every gradient holds at the precision shown, at every step shown", () => {
  let lines = 0;
  for (const digits of [2, 4, 6]) {
    for (const at of [1, 2, 8]) {
      lines += checkDerivations("sharpness", { digits, at, steps: 8 });
      lines += checkDerivations("sharpness", { digits, at, steps: 8, finite: true, eta: 40 });
      lines += checkDerivations("teach", { digits, at, steps: 8 });
    }
  }
  lines += checkDerivations("teach", { hand: true, steps: 3, at: 3 });
  assert.ok(lines > 3000, `${lines} lines`);
});

test("sharpness: the chain at α = 1 by hand, α grows and learning slows, a large η lands where the gradient is ~0", () => {
  const { trace } = run("sharpness", { eta: 10, steps: 30 });
  const [s] = trace.path;
  // output(α) = 19 + 3/(3e^{α/√3} + 1)
  const e = Math.exp(1 / Math.sqrt(3));
  assert.ok(Math.abs(s.trace.output[0][0] - (19 + 3 / (3 * e + 1))) < 1e-12);
  assert.equal(s.loss.toFixed(6), "0.223627");
  assert.equal(s.dAlpha.toFixed(6), "-0.217519");
  assert.equal(s.next, 1 - 10 * s.dAlpha);
  for (let t = 1; t < trace.path.length; t++) {
    assert.ok(trace.path[t].alpha > trace.path[t - 1].alpha);
    assert.ok(Math.abs(trace.path[t].dAlpha) < Math.abs(trace.path[t - 1].dAlpha));
  }
  const far = run("sharpness", { eta: 50, steps: 3 }).trace.path;
  assert.ok(far[1].alpha > 11 && Math.abs(far[1].dAlpha) < 1e-4);
  // the finite target: α* = √3·ln(14/3); η = 40 overshoots it first
  const best = Math.sqrt(3) * Math.log(14 / 3);
  const found = run("sharpness", { eta: 20, steps: 25, finite: true }).trace.path;
  assert.ok(Math.abs(found.at(-1).next - best) < 1e-3);
  const over = run("sharpness", { eta: 40, steps: 5, finite: true }).trace.path;
  assert.ok(over[1].alpha > best && over[1].dAlpha > 0);
});

test("sharpness: the summary says the core's numbers, in both languages", () => {
  for (const digits of [2, 4]) {
    const [{ ctx }] = contexts("sharpness", { digits, steps: 12 }).filter(
      (c) => c.ctx.stepId === "curve",
    );
    const { trace } = ctx;
    const first = trace.path[0];
    const last = trace.path.at(-1);
    const numbers = [last.alpha, first.loss, last.loss, first.dAlpha, last.dAlpha].map((x) =>
      fmt(x, digits),
    );
    for (const lang of ["en", "zh"]) {
      const said = wordsFor(lang, ctx.scene).sharpness.summary(12, ...numbers);
      for (const n of numbers) assert.ok(said.includes(n), `${lang}: ${n} in ${said}`);
      assert.ok(said.includes("12"));
    }
    assert.equal(
      wordsFor("en", ctx.scene).sharpness.summary(12, ...numbers),
      `At step 12, the last, α = ${numbers[0]}; from step 1 to step 12 the loss went from ${numbers[1]} to ${numbers[2]} and dL/dα from ${numbers[3]} to ${numbers[4]}.`,
    );
  }
});

test("teach: 书 learns to look at 读; its gradient is weights − one-hot; only 书's features move W_Q", () => {
  const { trace, inputs } = run("teach", { steps: 30 });
  const first = trace.steps[0];
  const last = trace.steps.at(-1);
  assert.ok(first.trace.weights[10][4] < 0.1, `starts at ${first.trace.weights[10][4]}`);
  assert.ok(last.trace.weights[10][4] > 0.9, `ends at ${last.trace.weights[10][4]}`);
  assert.ok(last.loss < first.loss / 10);
  for (let t = 1; t < trace.steps.length; t++)
    assert.ok(trace.steps[t].loss < trace.steps[t - 1].loss);
  first.gradients.scaled[10].forEach((g, j) =>
    assert.ok(Math.abs(g - (first.trace.weights[10][j] - (j === 4 ? 1 : 0))) < 1e-15),
  );
  // dW_Q = Xᵀ·dQ and only 书's row of dQ is not 0: a row of W_Q moves only where 书 has that feature
  const x = inputs.x[10];
  first.gradients.wq.forEach((row, a) =>
    row.forEach((g) => (x[a] === 0 ? assert.equal(g, 0) : assert.ok(Math.abs(g) > 0))),
  );
  // the update, checked by hand
  const eta = 0.5;
  trace.steps[1].wq.forEach((row, a) =>
    row.forEach((w, b) =>
      assert.ok(Math.abs(w - (first.wq[a][b] - eta * first.gradients.wq[a][b])) < 1e-15),
    ),
  );
  // predict mode's question: the row of W_Q whose entry moves most is "thing", 书's one feature
  const [{ ctx }] = contexts("teach").filter((c) => c.ctx.stepId === "gradient");
  const q = ctx.lab.question("gradient", ctx);
  assert.deepEqual(
    q.answer.map((a) => q.options[a]),
    ["is a thing"],
  );
});

test("teach: the summary's numbers are the core's", () => {
  const [{ ctx }] = contexts("teach", { steps: 10, digits: 4 }).filter(
    (c) => c.ctx.stepId === "curve",
  );
  const s = ctx.trace.steps;
  const numbers = [
    s[0].trace.weights[10][4],
    s.at(-1).trace.weights[10][4],
    s[0].loss,
    s.at(-1).loss,
  ].map((x) => fmt(x, 4));
  for (const lang of ["en", "zh"]) {
    const said = wordsFor(lang, ctx.scene).teach.summary(10, ...numbers);
    for (const n of numbers) assert.ok(said.includes(n), `${lang}: ${n}`);
  }
});

// Runs a script as `python3 script.py` would and reads its lines of numbers.
function runScript(script) {
  const file = join(mkdtempSync(join(tmpdir(), "learn-")), "script.py");
  writeFileSync(file, script);
  return execFileSync("/usr/bin/python3", [file], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.split(" "));
}

test("the exported scripts reproduce the run: NumPy by hand, PyTorch by autograd", () => {
  for (const partial of [
    { eta: 10, steps: 12 },
    { eta: 40, steps: 6, finite: true },
  ]) {
    const { scene, state, trace } = run("sharpness", { ...partial, digits: 6 });
    const msg = wordsFor("en", scene);
    for (const kind of ["numpy", "pytorch"]) {
      const script = scene.lab.script(kind, { msg, state, trace });
      assert.doesNotMatch(script, /undefined|NaN|\[object/);
      const lines = runScript(script);
      trace.path.forEach((s, t) =>
        assert.deepEqual(
          lines[t],
          [String(t + 1), s.alpha.toFixed(6), s.loss.toFixed(6), s.dAlpha.toFixed(6)],
          `${kind} step ${t + 1}`,
        ),
      );
      assert.deepEqual(lines.at(-1), ["alpha", trace.path.at(-1).next.toFixed(6)]);
    }
  }
  const { scene, state, trace, inputs } = run("teach", { steps: 8, digits: 6 });
  const msg = wordsFor("en", scene);
  for (const kind of ["numpy", "pytorch"]) {
    const script = scene.lab.script(kind, { msg, state, trace, inputs });
    if (kind === "pytorch") assert.match(script, /backward\(\)/);
    const lines = runScript(script);
    trace.steps.forEach((s, t) =>
      assert.deepEqual(
        lines[t],
        [String(t + 1), s.loss.toFixed(6), s.trace.weights[10][4].toFixed(6)],
        `${kind} step ${t + 1}`,
      ),
    );
  }
});

// The learner's third pass: step 1's weights were derived from max(scaled[1]), a table the step
// did not show. Every table a weight's derivation names is on the step.
test("sharpness step 1: the weights' derivation names only tables the step shows", () => {
  const scene = labScenes.sharpness;
  for (const lang of ["en", "zh"]) {
    const ctx = labAt(core, scene).at(lang, "task");
    const shown = new Set(ctx.view.matrices.map((m) => m.id));
    for (let j = 0; j < 4; j++) {
      const d = scene.lab.derivation("weights", 0, j, { ...ctx, focus: { m: "weights", i: 0, j } });
      const named = d.lines.flatMap((l) => [...l.text.matchAll(/\b(scaled|scores)\[/g)]);
      assert.ok(named.length > 0, `${lang}: weights[1][${j + 1}] names no table`);
      for (const [, name] of named) assert.ok(shown.has(name), `${lang}: ${name} is not shown`);
    }
  }
});
