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

/**
 * Checks every <attention-heads> grid on the page (show_heads): each head's weights as the grid
 * holds them (its cells' data-weight) are the weights its output was given, to the last bit, and
 * a float64 softmax of the head's own q, k and v, worked out here, to 1e-12; then the first head,
 * opened by a click, shows that softmax's output. Returns how many heads.
 */
export async function checkHeads(page, count) {
  const grids = await page.$$eval("attention-heads", (elements) =>
    elements.map((e) => ({
      data: JSON.parse(e.querySelector('script[type="application/json"]').textContent),
      shown: [...e.shadowRoot.querySelectorAll("li.head")].map((head) => {
        const m = [];
        for (const r of head.querySelectorAll("rect"))
          (m[Number(r.dataset.i)] ??= [])[Number(r.dataset.j)] = Number(r.dataset.weight);
        return { layer: Number(head.dataset.layer), head: Number(head.dataset.head), weights: m };
      }),
    })),
  );
  assert.equal(grids.length, count, `${count} grids of heads on the page`);
  let heads = 0;
  for (const [g, { data, shown }] of grids.entries()) {
    const given = data.layers.flatMap((layer) =>
      layer.heads.map((head, h) => ({
        layer: layer.layer,
        head: h + 1,
        mask: layer.mask,
        ...head,
      })),
    );
    assert.deepEqual(
      shown.map((s) => [s.layer, s.head]),
      given.map((h) => [h.layer, h.head]),
      "every head of every layer, in order",
    );
    for (const [i, head] of given.entries()) {
      assert.deepEqual(shown[i].weights, head.weights, `layer ${head.layer} head ${head.head}`);
      const { weights } = reference(head);
      head.weights.flat().forEach((w, j) => assert.ok(Math.abs(w - weights.flat()[j]) < 1e-12));
      heads++;
    }
    const grid = page.locator("attention-heads").nth(g);
    await grid.locator("li.head button").first().click();
    const walk = grid.locator("attention-walkthrough");
    await walk.locator("[data-matrix] button.cell").first().waitFor();
    await walk.evaluate((w) => w.goTo(w.state.steps.indexOf("output") + 1));
    const cells = walk.locator('[data-matrix="output"] button.cell');
    await cells.first().waitFor();
    assert.deepEqual(
      (await cells.allTextContents()).map(number),
      rounded(reference(given[0]).output),
      "the first head, opened, shows its output",
    );
  }
  return heads;
}
