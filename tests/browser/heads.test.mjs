// heads.test.mjs: attention_by_hand.show_heads() as an author sends it. Saved as one file (its
// script and WASM core inlined) and opened from file:// in Chromium with every other request
// refused: every head's weights read back from the grid equal to the Python trace's, to the last
// bit; a head picked by a click or by Enter opens its walkthrough, which shows that head's output
// (an nn.MultiheadAttention's head, and a head of the Tang model in Chinese on a 390 px phone,
// checked by axe-core); heads that cannot open say why, in both languages.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { start, openPage, axeViolations, venvPython } from "./browser.mjs";

const dir = mkdtempSync(join(tmpdir(), "abh-heads-"));
let env;
before(async () => (env = await start()));
after(() => env.close());

// Saves views in Python; returns, for each, its path and every head's weights and output: the
// trace's, and (`opened`) the output of attention() on the head's own q, k and v in float64, what
// its walkthrough computes.
const saved = venvPython(`
import json, pathlib, numpy as np, torch, attention_by_hand as abh
out = {}
torch.manual_seed(2)
m = torch.nn.MultiheadAttention(8, 2, batch_first=True).double().eval()
x = torch.randn(5, 8, dtype=torch.float64)
r = abh.from_torch(m, x, causal=True)
v = abh.show_heads(r, ["I", "love", "to", "read", "."], lang="en", title="My module")
out["torch"] = {"path": str(v.save(${JSON.stringify(join(dir, "torch.html"))})),
  "weights": [[h.weights.tolist() for h in r.trace.heads]],
  "outputs": [[h.output.tolist() for h in r.trace.heads]]}
tang = abh.gpt_model_from_files(pathlib.Path("web/labs/gpt/tang.json"), pathlib.Path("web/labs/gpt/tang.bin"))
line = "床前明月光疑是地上霜"
g = abh.gpt_forward(tang.model, [tang.chars.index(c) + 2 for c in line])
v = abh.show_heads(g, list(line))
d = 16
def opened(layer, h):
    q, k, vv = (np.asarray(layer[n], dtype=np.float64)[:, h * d:(h + 1) * d] for n in "qkv")
    return abh.attention(q, k, vv, mask="causal").output.tolist()
out["tang"] = {"path": str(v.save(${JSON.stringify(join(dir, "tang.html"))})),
  "weights": [[np.asarray(w, dtype=np.float64).tolist() for w in layer.weights] for layer in g.layers],
  "outputs": [[opened(layer, h) for h in range(4)] for layer in g.layers]}
mha = abh.multi_head_attention(np.random.default_rng(1).normal(size=(20, 4)),
  {n: np.random.default_rng(2).normal(size=(4, 4)) for n in ("wq", "wk", "wv", "wo")}, heads=2)
for lang in ("zh", "en"):
    out["long-" + lang] = {"path": str(abh.show_heads(mha, lang=lang).save(${JSON.stringify(dir)} + f"/long-{lang}.html")),
      "weights": [[h.weights.tolist() for h in mha.heads]]}
scaled = abh.multi_head_attention(np.eye(3), {n: np.eye(3) for n in ("wq", "wk", "wv", "wo")}, scale=1)
out["scaled"] = {"path": str(abh.show_heads(scaled, lang="en").save(${JSON.stringify(join(dir, "scaled.html"))}))}
print(json.dumps(out))
`);

// Opens a saved file with every other request refused; page.requests lists the refused.
async function openSaved(path, options) {
  const page = await openPage(env.browser, "about:blank", options);
  const file = pathToFileURL(path).href;
  page.requests = [];
  await page.route("**/*", (route) => {
    if (route.request().url() === file) return route.continue();
    page.requests.push(route.request().url());
    return route.abort();
  });
  await page.goto(file);
  await page.locator("attention-heads li.head rect").first().waitFor();
  return page;
}

// Every head's weights as the grid holds them: [layer][head] → n × n, from each cell's data-weight.
function gridWeights(page) {
  return page.evaluate(() => {
    const layers = [];
    for (const head of document
      .querySelector("attention-heads")
      .shadowRoot.querySelectorAll("li.head")) {
      const [l, h] = [Number(head.dataset.layer) - 1, Number(head.dataset.head) - 1];
      const m = [];
      for (const r of head.querySelectorAll("rect"))
        (m[Number(r.dataset.i)] ??= [])[Number(r.dataset.j)] = Number(r.dataset.weight);
      (layers[l] ??= [])[h] = m;
    }
    return layers;
  });
}

// The walkthrough opened below the grid, at its output step: the output's cells as numbers.
async function openedOutput(page) {
  const walk = page.locator("attention-heads attention-walkthrough");
  await walk.locator("[data-matrix] button.cell").first().waitFor();
  await walk.evaluate((w) => w.goTo(w.state.steps.indexOf("output") + 1));
  const cells = walk.locator('[data-matrix="output"] button.cell');
  await cells.first().waitFor();
  return (await cells.allTextContents()).map((t) => Number(t.replace("−", "-")));
}

const rounded = (m) => m.flat().map((x) => Number(x.toFixed(4)));

test("an nn.MultiheadAttention's heads, saved and opened offline: the trace's weights, and a head opened by a click shows its output", async () => {
  const { path, weights, outputs } = saved.torch;
  const page = await openSaved(path);
  assert.deepEqual(await gridWeights(page), weights, "every head's weights, to the last bit");
  const heads = page.locator("attention-heads li.head button");
  assert.equal(await heads.count(), 2);
  await heads.nth(1).click();
  assert.equal(await heads.nth(1).getAttribute("aria-expanded"), "true");
  assert.match(
    await page.locator("attention-heads .open-head h3").innerText(),
    /^Layer 1 · head 2, step by step$/,
  );
  assert.deepEqual(await openedOutput(page), rounded(outputs[0][1]));
  // the other head, by the keyboard: Enter on its button
  await heads.nth(0).focus();
  await page.keyboard.press("Enter");
  assert.match(
    await page.locator("attention-heads .open-head h3").innerText(),
    /head 1, step by step/,
  );
  assert.deepEqual(await openedOutput(page), rounded(outputs[0][0]));
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  assert.deepEqual(page.requests, [], "nothing fetched");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the Tang model's heads in Chinese on a 390 px phone: every layer's weights, a head opened with the keyboard, axe-core", async () => {
  const { path, weights, outputs } = saved.tang;
  const page = await openSaved(path, { viewport: { width: 390, height: 844 } });
  assert.deepEqual(await gridWeights(page), weights, "2 layers × 4 heads, to the last bit");
  assert.deepEqual(await page.locator("attention-heads h3").allInnerTexts(), [
    "第 1 层",
    "第 2 层",
  ]);
  // the columns' labels are the line's characters, each upright over its column
  const columns = await page
    .locator('attention-heads li[data-layer="1"][data-head="1"] text.col')
    .evaluateAll((texts) => texts.map((t) => [t.textContent, t.getAttribute("transform")]));
  assert.deepEqual(
    columns,
    [..."床前明月光疑是地上霜"].map((c) => [c, null]),
  );
  // Tab to layer 2's head 3, then Enter
  const target = page.locator('attention-heads li[data-layer="2"][data-head="3"] button');
  let tabs = 0;
  while (!(await target.evaluate((b) => b.getRootNode().activeElement === b)) && tabs++ < 20)
    await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  const title = page.locator("attention-heads .open-head h3");
  assert.equal(await title.innerText(), "第 2 层 · 头 3，逐步讲解");
  assert.ok(await title.evaluate((h) => h.getRootNode().activeElement === h), "focus moves to it");
  assert.deepEqual(await openedOutput(page), rounded(outputs[1][2]));
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= 390),
    "no sideways scroll",
  );
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.requests, [], "nothing fetched");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("heads that cannot open say why, in Chinese and English: more than 16 tokens, a scale other than 1/√d_k", async () => {
  const cases = [
    ["long-zh", /这里有 20 个词元；逐步讲解最多 16 个/],
    ["long-en", /There are 20 tokens; a step-by-step walkthrough has at most 16/],
    ["scaled", /These heads scale by 1, not 1\/√d_k = 1\/√3/],
  ];
  for (const [name, why] of cases) {
    const page = await openSaved(saved[name].path);
    assert.match(await page.locator("attention-heads p.why").innerText(), why);
    assert.equal(
      await page.locator("attention-heads li.head button").count(),
      0,
      "no head to open",
    );
    if (saved[name].weights) assert.deepEqual(await gridWeights(page), saved[name].weights);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test("where no script runs (an untrusted notebook) the grid says how to show it, in its language; a data it cannot draw is an alert naming the field", async () => {
  const { html } = venvPython(`
import json, numpy as np, attention_by_hand as abh
t = abh.multi_head_attention(np.eye(3), {n: np.eye(3) for n in ("wq", "wk", "wv", "wo")})
print(json.dumps({"html": abh.show_heads(t, lang="zh")._repr_html_() + abh.show_heads(t, lang="en")._repr_html_()}))
`);
  const page = await openPage(env.browser, "about:blank");
  await page.route("**/*", (route) => route.abort());
  // Jupyter's sanitizer drops an untrusted output's scripts
  await page.setContent(
    `<!doctype html><meta charset="utf-8"><body>${html.replace(/<script>[\s\S]*?<\/script>/g, "")}</body>`,
  );
  const notes = await page.locator("attention-heads > p").allInnerTexts();
  assert.equal(notes.length, 2);
  assert.match(notes[0], /请信任这个笔记本/);
  assert.match(notes[1], /trust this notebook .* or run this cell again/);
  // with its script, the grid hides the note; a grid whose weights are not n × n says so
  const broken = html.replace('"weights": [[', '"weights": [[0.5, 0.5, 0.5], [');
  assert.ok(broken !== html, "one grid's first head given a fourth row");
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${broken}</body>`);
  await page.locator("attention-heads li.head rect").first().waitFor();
  const visible = await page.evaluate(() =>
    [...document.querySelectorAll("attention-heads > p")].map((p) => p.getClientRects().length > 0),
  );
  assert.deepEqual(visible, [false, false]);
  assert.equal(
    await page.locator("attention-heads").first().locator('[role="alert"]').innerText(),
    "attention-heads：数据不对: layers[0].heads[0].weights: must be 3×3 numbers",
  );
  await page.close();
});
