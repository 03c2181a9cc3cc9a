// defects.test.mjs: the defects a learner's pass found (issue 26 §5), each pinned in Chromium:
// every lab control reaches the URL however the lab was opened.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, openApp } from "./browser.mjs";

let env;
before(async () => (env = await start()));
after(() => env.close());

const open = (query, options) => openApp(env, query, options);
const text = (page, selector) => page.locator(selector).first().textContent();

// Each lab's own controls (its params()), by id: every one must reach the URL.
const labControls = {
  scaling: ["dk"],
  tiling: ["block", "causal"],
  dropout: ["p", "draw"],
  sharpness: ["eta", "steps", "at", "finite"],
  teach: ["eta", "steps", "at", "draw", "hand"],
  model: ["line", "layer", "head", "temperature", "sample"],
};

const stepCount = async (page) => Number((await text(page, "#counter")).match(/\d+/g)[1]);

// Changes the control `id` on screen; returns the value the URL must then hold.
async function change(page, id) {
  const input = page.locator(`.scene-controls.params #${id}`);
  const type = await input.getAttribute("type");
  if (type === "checkbox") {
    await input.click();
    return (await input.isChecked()) ? "1" : null;
  }
  if (type === "text") {
    await input.fill("床前明月光");
    await input.press("Enter");
    return "床前明月光";
  }
  const before = await input.inputValue();
  await input.focus();
  await page.keyboard.press("ArrowRight");
  if ((await input.inputValue()) === before) await page.keyboard.press("ArrowLeft");
  // the value as the lab has it (a slider over given values shows it in its output)
  const output = page.locator(`.scene-controls.params output[for="${id}"]`);
  return (await output.textContent()).split(" = ")[1];
}

// Walks the lab's steps, changing each of its controls once where it shows; each change must
// be in the URL, and a reload must bring it back.
async function everyControl(page, lab) {
  const done = [];
  const total = await stepCount(page);
  for (let step = 1; step <= total; step++) {
    for (const id of labControls[lab]) {
      if (done.includes(id)) continue;
      if ((await page.locator(`.scene-controls.params #${id}`).count()) === 0) continue;
      const value = await change(page, id);
      await page
        .waitForFunction(
          ([k, v]) => new URL(location.href).searchParams.get(k) === v,
          [id, value],
          { timeout: 5000 },
        )
        .catch(() => {
          throw new Error(`${lab}: ${id} = ${value} never reached the URL: ${page.url()}`);
        });
      done.push(id);
    }
    if (step < total) await page.locator("#forward").click();
  }
  assert.deepEqual(done.sort(), [...labControls[lab]].sort(), `${lab}: the controls found`);
}

for (const lab of Object.keys(labControls)) {
  test(`${lab}: each control reaches the URL, the lab opened from the list or from a link`, async () => {
    // opened from the lesson's button: the lab's code loads then
    const listed = await open("scene=classroom&lang=en");
    await listed.locator(`#scene-${lab}`).click();
    await listed.waitForFunction(
      (id) => new URL(location.href).searchParams.get("scene") === id,
      lab,
    );
    await everyControl(listed, lab);
    // the link it wrote opens the same state
    const link = new URL(listed.url()).search.slice(1);
    const reloaded = await open(link);
    assert.equal(new URL(reloaded.url()).search, new URL(listed.url()).search, "the link holds");
    assert.deepEqual([...listed.errors, ...reloaded.errors], []);
    await Promise.all([listed.close(), reloaded.close()]);
    // opened from a link
    const linked = await open(`scene=${lab}&lang=en`);
    await everyControl(linked, lab);
    assert.deepEqual(linked.errors, []);
    await linked.close();
  });
}

test("the link at the foot of a lab opens the next one, whose controls reach the URL", async () => {
  const page = await open("scene=sharpness&lang=en");
  await page.locator("#scrubber").focus();
  await page.keyboard.press("End");
  await page.locator('[data-scene-link="teach"]').click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("scene") === "teach");
  await everyControl(page, "teach");
  assert.deepEqual(page.errors, []);
  await page.close();
});
