// embed.test.mjs: every way to embed the walkthrough, in Chromium, as a tutorial author would:
// the custom element on a hostile page, the iframe and its postMessage API, the standalone
// file from file://, a strict-CSP page, custom scenes good and bad.
import { readFileSync } from "node:fs";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage, axeViolations } from "./browser.mjs";
import { serve } from "../../tools/serve.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const pages = "tests/browser/pages/";
let env;
// These pages play an author's pages, inline styles and all, so they are served without our
// policy; the strict-CSP test below sets its own.
before(async () => (env = await start(repo, {})));
after(() => env.close());

const events = (page) => page.evaluate(() => window.events);
const waitForEvents = (page, count, type) =>
  page.waitForFunction(
    ([n, t]) => window.events.filter((e) => !t || e.type === t).length >= n,
    [count, type],
  );
const inside = (page, id) => page.locator(`#${id}`);

test("element: two scenes on a hostile page, one WASM instance, styles sealed both ways", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}hostile.html`);
  await waitForEvents(page, 2, "ready");
  assert.equal(await page.evaluate(() => window.wasmInstances), 1, "one core for both");
  const a = inside(page, "a");
  const b = inside(page, "b");
  assert.match(await a.locator("#scene-title").textContent(), /姓张/);
  assert.match(await b.locator("#scene-title").textContent(), /fruit among apple/);
  assert.equal(await a.locator("#counter").textContent(), "第 3 步，共 6 步");
  for (const element of [a, b]) {
    const box = await element.boundingBox();
    assert.ok(box.height > 150 && box.width > 300, `sized to its content: ${JSON.stringify(box)}`);
  }
  const style = await a
    .locator("#scene-title")
    .evaluate((h) => [getComputedStyle(h).fontSize, getComputedStyle(h).color]);
  assert.notEqual(style[0], "40px", "the host's font size does not get in");
  assert.notEqual(style[1], "rgb(255, 0, 0)", "the host's colour does not get in");
  assert.equal(
    await page.locator("body > div").isVisible(),
    false,
    "the host's own rule still holds",
  );
  const hostDivs = await page.evaluate(() =>
    [...document.querySelectorAll("div")].map((d) => getComputedStyle(d).display),
  );
  assert.deepEqual(hostDivs, ["none"], "the element adds no styles to the host page");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("element: attributes are reactive and events fire", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}hostile.html`);
  await waitForEvents(page, 2, "ready");
  const a = inside(page, "a");
  await page.evaluate(() => document.getElementById("a").setAttribute("lang", "en"));
  assert.equal(await a.locator("#counter").textContent(), "Step 3 of 6");
  await page.evaluate(() => document.getElementById("a").setAttribute("step", "5"));
  assert.equal(await a.locator("#counter").textContent(), "Step 5 of 6");
  await page.evaluate(() => document.getElementById("a").setAttribute("scene", "cup"));
  await page.waitForFunction(() =>
    /coffee cup/.test(
      document.getElementById("a").shadowRoot.querySelector("#scene-title")?.textContent,
    ),
  );
  await a.locator("#forward").click();
  const steps = (await events(page)).filter((e) => e.type === "stepchange" && e.id === "a");
  assert.deepEqual(steps.at(-1).detail, { scene: "cup", step: 6, stepId: "result", total: 6 });
  const state = await page.evaluate(() => document.getElementById("a").state);
  assert.equal(state.step, 6);
  assert.equal(state.lang, "en");

  const ok = await page.evaluate(() => document.getElementById("b").setInputs({ k: [[1, 2, 3]] }));
  assert.equal(ok, false);
  const errors = (await events(page)).filter((e) => e.type === "error");
  assert.equal(errors.at(-1).detail.message, "K has 3 columns but Q has 2 (d_k must match)");
  assert.equal(
    await inside(page, "b").locator(".error").textContent(),
    "Not applied; the last good values stay: K has 3 columns but Q has 2 (d_k must match)",
  );
  const fine = await page.evaluate(() => document.getElementById("b").setInputs({ q: [[2, 2]] }));
  assert.equal(fine, true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("element in a slide deck: keys typed in its fields and its own keys never reach the host", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}hostile.html`);
  await waitForEvents(page, 2, "ready");
  // the host listens as reveal.js does: on the document, for every key
  await page.evaluate(() => {
    window.hostKeys = [];
    document.addEventListener("keydown", (e) => window.hostKeys.push(e.key));
  });
  const a = inside(page, "a");
  await page.evaluate(() => document.getElementById("a").setAttribute("step", "1"));
  // an input cell opens a field: 0.5 is typed whole, o and ← stay in it
  await a.locator("[data-matrix] button.cell").first().click();
  const field = a.locator("input.cell-edit");
  await field.fill("");
  await field.press("0");
  await field.press(".");
  await field.press("5");
  await field.press("o");
  await field.press("ArrowLeft");
  assert.equal(await field.inputValue(), "0.5o");
  await field.press("Escape");
  // the scrubber's ← and →, and the element's own → and Space on a focused button
  await a.locator("#scrubber").focus();
  await page.keyboard.press("ArrowRight");
  await a.locator("#forward").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press(" ");
  assert.equal(await a.locator("#counter").textContent(), "第 4 步，共 6 步");
  assert.deepEqual(await page.evaluate(() => window.hostKeys), []);
  // a key the walkthrough does not use, on its button, is the host's
  await page.keyboard.press("o");
  assert.deepEqual(await page.evaluate(() => window.hostKeys), ["o"]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("iframe: postMessage commands, replies, step events and resize messages", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}iframe.html`);
  const wait = (predicate) => page.waitForFunction(predicate);
  const send = (message) =>
    page.evaluate(
      (m) => document.getElementById("frame").contentWindow.postMessage(m, "*"),
      message,
    );
  await wait(() => window.messages.some((m) => m.type === "ready"));
  const ready = await page.evaluate(() => window.messages.find((m) => m.type === "ready"));
  assert.equal(ready.state.scene, "dictionary");
  assert.equal(ready.state.step, 2);

  await send({ type: "goTo", step: 4, id: 1 });
  await wait(() => window.messages.some((m) => m.id === 1));
  const reply = await page.evaluate(() => window.messages.find((m) => m.id === 1));
  assert.equal(reply.type, "state");
  assert.equal(reply.state.stepId, "weights");
  assert.ok(Math.abs(reply.state.output[0][0] - 9.6804356152) < 1e-9, "the core's output");
  const change = await page.evaluate(() =>
    window.messages.filter((m) => m.type === "stepchange").at(-1),
  );
  assert.deepEqual(
    { step: change.step, stepId: change.stepId, total: change.total },
    { step: 4, stepId: "weights", total: 6 },
  );

  await send({ type: "play", id: 2 });
  await wait(() => window.messages.find((m) => m.id === 2)?.state.playing === true);
  await send({ type: "pause", id: 3 });
  await wait(() => window.messages.find((m) => m.id === 3)?.state.playing === false);

  await send({ type: "setInputs", inputs: { v: [[1], [2]] }, id: 4 });
  await wait(() => window.messages.some((m) => m.id === 4));
  const bad = await page.evaluate(() => window.messages.find((m) => m.id === 4));
  assert.deepEqual(
    [bad.type, bad.message],
    ["error", "V has 2 rows but K has 3 (one value row per key)"],
  );
  await send({ type: "setInputs", inputs: { q: [[1, 0]] }, id: 5 });
  await wait(() => window.messages.some((m) => m.id === 5));
  const good = await page.evaluate(() => window.messages.find((m) => m.id === 5));
  assert.deepEqual(good.state.inputs.q, [[1, 0]]);

  await send({ type: "getState", id: 6 });
  await wait(() => window.messages.some((m) => m.id === 6));
  const resize = await page.evaluate(() => window.messages.filter((m) => m.type === "resize"));
  assert.ok(resize.length > 0 && resize.at(-1).height > 300, JSON.stringify(resize));
  // The host sizes the iframe from the last resize message, so nothing scrolls inside it.
  await wait(() => {
    const last = window.messages.filter((m) => m.type === "resize").at(-1);
    const frame = document.getElementById("frame");
    const inner = frame.contentDocument.documentElement.scrollHeight;
    return frame.clientHeight === last.height && inner <= last.height;
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("standalone file: opened from file://, no server, all scenes there", async () => {
  const file = new URL("../../web/generated/attention-walkthrough.html", import.meta.url);
  const page = await openPage(env.browser, file.href);
  const counter = page.locator("attention-walkthrough #counter");
  await counter.waitFor();
  await page.locator("attention-walkthrough #lang-en").click();
  assert.equal(await page.locator("attention-walkthrough").getAttribute("lang"), "en");
  await page.locator("attention-walkthrough #scene-age").click();
  await page.locator("attention-walkthrough #main").focus();
  await page.keyboard.press("End");
  assert.equal(await counter.textContent(), "Step 6 of 6");
  assert.equal(
    await page.locator('attention-walkthrough [data-matrix="output"] button.cell').textContent(),
    "19.4729",
  );
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("strict CSP: default-src 'self' (so connect-src too), script-src 'self' 'wasm-unsafe-eval'", async () => {
  // The core instantiates from its own bytes, so it fetches nothing, not even a data: URL.
  const policy =
    "default-src 'self'; img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
  const { server, url } = await serve(repo, 0, { "content-security-policy": policy });
  const page = await env.browser.newPage();
  const violations = [];
  page.on("console", (m) => m.type() === "error" && violations.push(m.text()));
  page.on("pageerror", (e) => violations.push(e.message));
  const response = await page.goto(`${url}${pages}csp.html`);
  assert.equal(response.headers()["content-security-policy"], policy);
  await page.waitForFunction(() => window.events?.some((e) => e.type === "ready"));
  const output = await page
    .locator('attention-walkthrough [data-matrix="output"] tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll("button")].map((b) => b.textContent).join(" ")),
    );
  assert.deepEqual(output, ["0.5512 0.4981", "0.5441 0.5094", "0.5370 0.5207"]);
  const background = await page
    .locator("attention-walkthrough section")
    .first()
    .evaluate((s) => getComputedStyle(s).backgroundColor);
  assert.equal(background, "rgb(255, 255, 255)", "the element's styles apply under the policy");
  assert.deepEqual(violations, []);
  await page.close();
  server.close();
});

test("custom scenes as an object: the scene property, no JSON text for a template to escape", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}empty.html`);
  const scene = JSON.parse(readFileSync(`${repo}web/example-scene.json`, "utf8"));
  const titles = await page.evaluate(async (s) => {
    await customElements.whenDefined("attention-walkthrough");
    const ready = (el) => new Promise((done) => el.addEventListener("ready", done, { once: true }));
    const title = (el) => el.shadowRoot.querySelector("#scene-title").textContent;
    const el = document.createElement("attention-walkthrough");
    el.setAttribute("lang", "en");
    el.scene = s;
    document.body.append(el);
    await ready(el);
    const seen = [title(el), el.scene.id];
    // an object with a wrong input: the element says so
    const failed = new Promise((done) =>
      el.addEventListener("error", (e) => done(e.detail.message)),
    );
    el.scene = { ...s, inputs: { ...s.inputs, q: [[1, 0, 0]] } };
    seen.push(await failed);
    // back to a built-in scene by its id
    el.scene = "age";
    await ready(el);
    seen.push(title(el), el.getAttribute("scene"));
    return seen;
  }, scene);
  assert.equal(titles[0], "Take an umbrella?");
  assert.equal(titles[1], "weather");
  assert.match(titles[2], /K has 2 columns but Q has 3/);
  assert.match(titles[3], /Zhang/);
  assert.equal(titles[4], "age");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("custom scenes: inline JSON and src load; bad ones show their error in the element", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}custom.html`);
  await waitForEvents(page, 2, "ready");
  await waitForEvents(page, 4, "error");
  const inline = inside(page, "inline");
  assert.equal(await inline.locator("#scene-title").textContent(), "Who looks at whom");
  assert.equal(
    await inline.locator("#counter").textContent(),
    "Step 1 of 8",
    "a causal mask adds a step",
  );
  await inline.locator("#forward").click();
  await inline.locator("#forward").click();
  assert.equal(await inline.locator(".step-text").textContent(), "Dot products, by hand.");
  await inline.locator("#forward").click();
  await inline.locator("#forward").click();
  await inline.locator("#forward").click();
  assert.equal(
    await inline.locator('[data-matrix="masked"] button.cell').nth(1).textContent(),
    "−∞",
  );
  const src = inside(page, "src");
  assert.equal(await src.locator("#scene-title").textContent(), "查水果");
  assert.deepEqual(await src.locator('[data-matrix="k"] th[scope=row]').allTextContents(), [
    "apple",
    "banana",
    "chair",
  ]);

  const messages = Object.fromEntries(
    (await events(page)).filter((e) => e.type === "error").map((e) => [e.id, e.detail.message]),
  );
  assert.deepEqual(messages, {
    "bad-field": "inputs.k row 2: has 1 number but row 1 has 2",
    "bad-shape": "K has 3 columns but Q has 2 (d_k must match)",
    "bad-json": messages["bad-json"],
    missing: "src: could not load no-such-scene.json (HTTP 404)",
  });
  assert.match(messages["bad-json"], /^scene: not valid JSON/);
  for (const [id, message] of Object.entries(messages)) {
    assert.equal(
      await inside(page, id).locator(".embed-error").textContent(),
      `attention-walkthrough: ${message}`,
    );
  }
  // The only console error is the browser's own line for the missing file's 404.
  assert.deepEqual(page.errors, [
    "Failed to load resource: the server responded with a status of 404 (Not Found)",
  ]);
  await page.close();
});

test("the embedding page shows each way live, beside its snippet", async () => {
  const page = await openPage(env.browser, `${env.url}web/embedding.html`);
  const titles = page.locator("attention-walkthrough #scene-title");
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll("attention-walkthrough")].every((e) =>
          e.shadowRoot?.querySelector("#scene-title"),
        ) && document.getElementById("iframe-state").textContent !== "",
      null,
      { timeout: 10_000 },
    )
    .catch(() => {});
  assert.deepEqual(await titles.allTextContents(), [
    "键值查询：查询表中姓张的人的平均年龄",
    "Take an umbrella?",
    "猫坐垫",
  ]);
  const snippets = await page.locator("pre code").allTextContents();
  assert.equal(snippets.length, 3);
  assert.match(snippets[0], /^<attention-walkthrough scene="age" lang="zh" step="3" controls>/);
  assert.match(
    snippets[0],
    /<script src="https:\/\/your.site\/attention-walkthrough.js"><\/script>$/,
  );
  await page.locator('[data-iframe-step="6"]').click();
  await page.waitForFunction(() =>
    /step 6: result/.test(document.getElementById("iframe-state").textContent),
  );
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("element, as authors use it: a CSS reset, lang from the page, no controls, hiding", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}author.html`);
  await waitForEvents(page, 2, "ready");
  const plain = inside(page, "plain");
  const sizes = await plain
    .locator("#scene-title, button.cell")
    .evaluateAll((nodes) => nodes.slice(0, 2).map((n) => parseFloat(getComputedStyle(n).fontSize)));
  assert.ok(sizes[0] >= 18 && sizes[1] >= 13, `the host's root font size stays out: ${sizes}`);
  assert.match(
    await plain.locator("#step-title").textContent(),
    /分数/,
    "lang comes from <html lang=zh-CN>",
  );
  assert.equal(
    await plain.locator(".shape-tools, #play, .check").count(),
    0,
    "no controls, no editing",
  );
  await page.evaluate(() => document.getElementById("plain").classList.add("hidden-on-purpose"));
  assert.equal(await page.locator("#plain").isVisible(), false, "the host can hide it with CSS");
  await page.evaluate(() => document.getElementById("plain").classList.remove("hidden-on-purpose"));

  // The step attribute follows the walkthrough, so setting it again always moves.
  await page.evaluate(() => document.getElementById("plain").setAttribute("step", "3"));
  await page.evaluate(() => document.getElementById("plain").goTo(5));
  assert.equal(await page.locator("#plain").getAttribute("step"), "5");
  await page.evaluate(() => document.getElementById("plain").setAttribute("step", "3"));
  assert.equal(await page.evaluate(() => document.getElementById("plain").state.step), 3);

  // Moving the element keeps where the learner was.
  await page.evaluate(() =>
    document.getElementById("holder").append(document.getElementById("plain")),
  );
  await page.waitForFunction(() => document.getElementById("plain").state?.step === 3);

  // Bad calls come back as false and an error event, never as a throw.
  const calls = await page.evaluate(() => {
    const el = document.getElementById("plain");
    return [el.goTo("x"), el.setInputs({ x: [[1]] }), el.setInputs({ q: "hello" }), el.goTo(1)];
  });
  assert.deepEqual(calls, [false, false, false, true]);
  const errors = (await events(page)).filter((e) => e.type === "error" && e.id === "plain");
  assert.deepEqual(
    errors.map((e) => e.detail.message),
    [
      "goTo: the step must be a number, not NaN",
      "setInputs: x is not an input here (q, k, v)",
      "setInputs: q must be an array of rows of numbers",
    ],
  );

  // An element that failed comes back when its attribute is fixed.
  assert.match(
    await inside(page, "bad").locator(".embed-error").textContent(),
    /"nope" is not a scene/,
  );
  await page.evaluate(() => document.getElementById("bad").setAttribute("scene", "cup"));
  await page.waitForFunction(() =>
    /coffee cup/.test(
      document.getElementById("bad").shadowRoot.querySelector("#scene-title")?.textContent,
    ),
  );

  // A custom scene may take a built-in name and still reach its own result.
  const own = inside(page, "own-age");
  assert.equal(await own.locator("#step-title").textContent(), "6. Result");
  assert.equal(await own.locator(".result").textContent(), "Mine.");
  assert.deepEqual(page.errors, []);
  await page.close();
});
