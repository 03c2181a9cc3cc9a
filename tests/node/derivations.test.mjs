// derivations.test.mjs: every number every lab shows has its derivation, and every "=" in it
// holds at the precision shown: each lab of the catalogue, computed with the real labs module,
// at several decimals, in both languages; every cell of every matrix of every step is picked,
// and every line is read and worked out by tests/node/shown.mjs, which knows only the text. A
// line with arithmetic before its last "=" that the reader cannot read fails too: it would
// otherwise pass unchecked. The scale lab, which times the reader's machine, shows no matrices.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { lessons } from "../../web/catalogue.js";
import { labAt } from "./lab-context.mjs";
import { checkLine, hasArithmetic } from "./shown.mjs";
import "./gpt-files.mjs";

const core = await loadLabs();
const labEntries = lessons.filter((l) => l.id !== "walkthroughs").flatMap((l) => l.scenes);
const labs = await Promise.all(labEntries.map(resolveScene));
await Promise.all(labs.map((s) => s.lab.settled?.()));

function checkLab(scene, partial) {
  const lab = scene.lab;
  const { state, each } = labAt(core, scene, partial);
  let lines = 0;
  let cells = 0;
  for (const ctx of each()) {
    const { view, step } = ctx;
    const lang = ctx.state.lang;
    for (const m of view.matrices) {
      m.data.forEach((row, i) =>
        row.forEach((_, j) => {
          const where = `${scene.id} ${lang} ${step.id} ${m.id}[${i + 1}][${j + 1}]`;
          assert.equal(typeof lab.derivation, "function", `${scene.id}: no derivations`);
          const d = lab.derivation(m.id, i, j, { ...ctx, view, focus: { m: m.id, i, j } });
          // what lights up with the cell: the cell itself, at least
          const lit = lab.highlights?.(m.id, i, j, { ...ctx, view });
          if (lit) assert.deepEqual(lit[m.id]?.cells?.[0], [i, j], `${where}: not lit`);
          assert.ok(d.lines.length > 0, `${where}: nothing says how it is made`);
          cells++;
          for (const l of d.lines) {
            const r = checkLine(l.text, state.digits);
            if (hasArithmetic(l.text)) assert.ok(r, `${where}: a line nobody can check: ${l.text}`);
            if (!r) continue;
            assert.ok(r.holds, `${where} at ${state.digits}: ${l.text} (worked out: ${r.worked})`);
            if (r.relation === "≈") assert.ok(d.approx, `${where}: ≈ without a word why`);
            lines++;
          }
        }),
      );
    }
  }
  return { lines, cells };
}

// Besides each lab's defaults, the parameters that change what it shows.
const variants = {
  tiling: [{ block: 1 }, { block: 4, causal: true }, { block: 11, causal: true }],
  dropout: [{ p: 0.1, draw: 7 }, { p: 0.9 }],
  scaling: [{ dk: 1 }, { dk: 8 }, { dk: 512 }],
  order: [{ edits: {} }],
  sharpness: [{ finite: true, eta: 40, at: 3 }],
  teach: [{ hand: true, at: 5 }],
};

for (const scene of labs) {
  test(`${scene.id}: every number shown is derived, and every = holds as shown`, () => {
    let total = { lines: 0, cells: 0 };
    for (const digits of [2, 4, 6]) {
      for (const partial of [{}, ...(variants[scene.id] ?? [])]) {
        const r = checkLab(scene, { digits, ...partial });
        total = { lines: total.lines + r.lines, cells: total.cells + r.cells };
      }
    }
    if (scene.id !== "scale") assert.ok(total.cells > 0 && total.lines > 0, JSON.stringify(total));
  });
}
