// lab-plot-marks.test.mjs: the learning labs' plots mark the step shown, at every step of a run:
// the marker line stands at the x where each series' path draws that step's point (the path's
// points in order, step 1 first), and that step's points, and only they, are drawn larger.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, elementsUnder } from "./text-dom.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const sceneOf = (id) => resolveScene(listed.find((s) => s.id === id));

test("every step of a run: the plots' marker and larger points are at the step shown", async () => {
  let checked = 0;
  for (const [id, panels, run] of [
    ["teach", ["curve"], { steps: 6 }],
    ["sharpness", ["curve", "alpha"], { steps: 6, eta: 40, finite: true }],
  ]) {
    const scene = await sceneOf(id);
    for (let at = 1; at <= run.steps; at++) {
      const L = labAt(core, scene, { ...run, at });
      for (const lang of ["en", "zh"]) {
        for (const name of panels) {
          const where = `${id} ${name} step ${at} ${lang}`;
          const nodes = elementsUnder(scene.lab.panels[name](L.at(lang, "curve")));
          const [mark] = nodes.filter((n) => n.attributes.class === "mark");
          assert.ok(mark, `${where}: no marker`);
          const series = nodes.filter(
            (n) => n.tagName === "PATH" && /series-\d/.test(n.attributes.class),
          );
          assert.ok(series.length >= 1, where);
          for (const path of series) {
            const xs = [...path.attributes.d.matchAll(/[ML](-?[\d.]+),/g)].map((m) => Number(m[1]));
            assert.equal(xs.length, run.steps, `${where}: a point per step`);
            assert.equal(Number(mark.attributes.x1), xs[at - 1], `${where}: the marker's x`);
          }
          const large = nodes.filter((n) => n.tagName === "CIRCLE" && n.attributes.r === "5");
          assert.equal(large.length, series.length, `${where}: one larger point per series`);
          for (const c of large)
            assert.equal(Number(c.attributes.cx), Number(mark.attributes.x1), where);
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 2 * 6 * 3);
});
