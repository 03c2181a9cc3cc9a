// mask-gradient.test.mjs: a finite mask value's gradient through the JS API. With a mask value
// such as −2, a masked key keeps a weight that is not 0, so d(masked) is not 0 there; but that
// cell is the mask value, not its scaled score, so d(scaled) is 0 there, and dQ, dK and dV
// equal central finite differences of attention() with the same mask (step 1e-5·max(1, |x|),
// 1e-7 relative, 1e-8 absolute).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadAttention, loadLabs } from "../../web/attention.js";
import { random } from "./reference.mjs";

const labs = await loadLabs();
const core = await loadAttention();

const matrix = (next, rows, cols) =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => (next() * 2 - 1) * 1.5));
const loss = (G, output) =>
  G.reduce((s, row, i) => s + row.reduce((t, g, j) => t + g * output[i][j], 0), 0);

// The largest error of `analytic` against central differences of f over every entry of x.
function worst(x, f, analytic) {
  let most = 0;
  x.forEach((row, i) =>
    row.forEach((keep, j) => {
      const h = 1e-5 * Math.max(1, Math.abs(keep));
      const at = (value) => f(x.map((r, a) => r.map((y, b) => (a === i && b === j ? value : y))));
      const numeric = (at(keep + h) - at(keep - h)) / (2 * h);
      const error = Math.abs(analytic[i][j] - numeric);
      const allowed = 1e-7 * Math.max(Math.abs(analytic[i][j]), Math.abs(numeric)) + 1e-8;
      most = Math.max(most, error / allowed);
    }),
  );
  return most;
}

test("a finite mask value: dQ, dK, dV equal finite differences; d(scaled) is 0 where masked, d(masked) not", () => {
  const next = random(29);
  let blockedCells = 0;
  for (let n = 0; n < 12; n++) {
    const [nQ, nK, dK, dV] = [2 + (n % 3), 2 + ((n + 1) % 4), 1 + (n % 4), 1 + ((n + 2) % 3)];
    const [q, k, v, G] = [
      matrix(next, nQ, dK),
      matrix(next, nK, dK),
      matrix(next, nK, dV),
      matrix(next, nQ, dV),
    ];
    const mask = q.map((_, i) => k.map((_, j) => (i + 2 * j + n) % 3 !== 0));
    const options = { mask, maskValue: [-2, -0.5, 1][n % 3] };
    const { gradients } = labs.attentionBackward(q, k, v, G, options);
    const L = (a, b, c) => loss(G, core.attention(a, b, c, options).output);
    for (const [name, x, f, g] of [
      ["dQ", q, (y) => L(y, k, v), gradients.q],
      ["dK", k, (y) => L(q, y, v), gradients.k],
      ["dV", v, (y) => L(q, k, y), gradients.v],
    ]) {
      const e = worst(x, f, g);
      assert.ok(e <= 1, `case ${n} ${name}: ${e.toFixed(1)} times the allowed error`);
    }
    mask.forEach((row, i) =>
      row.forEach((kept, j) => {
        if (kept) return;
        blockedCells++;
        assert.equal(gradients.scaled[i][j], 0, `case ${n}: d(scaled)[${i + 1}][${j + 1}]`);
        assert.notEqual(gradients.masked[i][j], 0, `case ${n}: d(masked)[${i + 1}][${j + 1}]`);
      }),
    );
  }
  assert.ok(blockedCells > 20, `${blockedCells} masked cells`);
});
