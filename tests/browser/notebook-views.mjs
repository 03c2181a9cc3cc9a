// notebook-views.mjs: what the walkthroughs of a notebook page show, checked against numbers
// worked out apart: a scene's from tests/fixtures/scenes.json, your own q, k and v's by a float64
// softmax written here. For the exported notebooks (notebooks.test.mjs) and the live classic
// Notebook (tests/hosts/notebook.test.mjs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const scenes = JSON.parse(
  readFileSync(new URL("../fixtures/scenes.json", import.meta.url), "utf8"),
);

// softmax(Q·Kᵀ·scale)·V, a mask's blocked cells left out: every step the walkthrough can show.
function reference({ q, k, v, mask }) {
  const scale = 1 / Math.sqrt(q[0].length);
  const scores = q.map((row) => k.map((key) => row.reduce((s, x, d) => s + x * key[d], 0)));
  const seen = (i, j) => (mask === "causal" ? j <= i : mask ? mask[i][j] : true);
  const weights = scores.map((row, i) => {
    const top = Math.max(...row.filter((_, j) => seen(i, j)).map((s) => s * scale));
    const e = row.map((s, j) => (seen(i, j) ? Math.exp(s * scale - top) : 0));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((s, x, j) => s + x * v[j][c], 0)));
  return { scores, weights, output };
}

// What each walkthrough in a page is given (its scene, or its own matrices) and what it shows.
export async function walkthroughs(page) {
  return page.$$eval("attention-walkthrough", (elements) =>
    elements.map((e) => {
      const inline = e.querySelector('script[type="application/json"]');
      const shown = {};
      for (const m of (e.shadowRoot ?? e).querySelectorAll("[data-matrix]")) {
        const cells = [...m.querySelectorAll("button.cell")].map((c) => c.textContent);
        if (cells.length) shown[m.dataset.matrix] = cells;
      }
      return {
        scene: e.getAttribute("scene"),
        step: e.getAttribute("step"),
        custom: inline && JSON.parse(inline.textContent),
        shown,
      };
    }),
  );
}

const rounded = (m) => m.flat().map((x) => Number(x.toFixed(4)));
// A cell as shown: the page writes a minus sign (−), not a hyphen.
const number = (text) => Number(text.replace("−", "-"));

/** Checks every walkthrough's computed matrices on the page; returns how many numbers. */
export async function checkWalkthroughs(page, count) {
  const views = await walkthroughs(page);
  assert.equal(views.length, count, `${count} walkthroughs on the page`);
  let checked = 0;
  for (const view of views) {
    const expected = view.scene
      ? scenes[view.scene]
      : reference({ ...view.custom.inputs, mask: view.custom.mask });
    const names = Object.keys(view.shown).filter(
      (m) => m in expected && m !== "q" && m !== "k" && m !== "v",
    );
    assert.ok(
      names.length > 0,
      `${view.scene ?? "a custom view"} at step ${view.step} shows a computed matrix`,
    );
    for (const m of names) {
      assert.deepEqual(
        view.shown[m].map(number),
        rounded(expected[m]),
        `${view.scene ?? view.custom.title}: ${m}`,
      );
      checked += view.shown[m].length;
    }
  }
  return checked;
}

/** Resolves once every walkthrough on the page shows numbers. */
export function drawn(page, timeout = 20000) {
  return page.waitForFunction(
    () =>
      [...document.querySelectorAll("attention-walkthrough")].every((e) =>
        (e.shadowRoot ?? e).querySelector("[data-matrix] button.cell"),
      ),
    null,
    { timeout },
  );
}
