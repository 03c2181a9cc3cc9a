// hostile.test.mjs: the page and the element under attack, in Chromium, every page served with
// the policy of tools/serve.mjs. Custom scenes that never arrive, arrive slowly, are 10 MB, are
// nested 400,000 deep or carry markup in every text field; an iframe that is sent commands by
// windows and origins other than its parent. Each gives a clear message or is ignored; no
// script of theirs runs; nothing hangs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { start, openPage } from "./browser.mjs";
import { policy } from "../../tools/serve.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const pages = "tests/browser/pages/";
const markup = '<img src=x onerror="window.pwned=1">';
const script = "<script>window.pwned=1</script>";

const cors = { "access-control-allow-origin": "*", "content-type": "application/json" };
const routes = {
  // accepts the request and never answers
  "/hostile/never": () => {},
  // answers at once, then sends a byte a second, forever
  "/hostile/slow": (request, response) => {
    response.writeHead(200, cors);
    response.write('{"title": "');
    const drip = setInterval(() => response.write("x"), 1000);
    request.on("close", () => clearInterval(drip));
  },
  // 10 MB, announced
  "/hostile/huge": (request, response) => {
    const body = JSON.stringify({ title: "t", note: "x".repeat(10_000_000) });
    response.writeHead(200, { ...cors, "content-length": Buffer.byteLength(body) });
    response.end(body);
  },
  // 10 MB, not announced
  "/hostile/huge-chunked": (request, response) => {
    response.writeHead(200, cors);
    response.write('{"title": "t", "note": "');
    for (let i = 0; i < 10; i++) response.write("x".repeat(1_000_000));
    response.end('"}');
  },
  "/hostile/deep": (request, response) => {
    response.writeHead(200, cors);
    const deep = "[".repeat(400_000) + "]".repeat(400_000);
    response.end(`{"title":"t","inputs":{"q":${deep},"k":[[1]],"v":[[1]]}}`);
  },
};

let env;
// The origin tests frame 127.0.0.1 from localhost and back, so frames may come from both.
const frames = "frame-src 'self' http://localhost:* http://127.0.0.1:*";
const headers = { "content-security-policy": policy().replace("frame-src 'self'", frames) };
before(async () => (env = await start(repo, headers, routes)));
after(() => env.close());

// Adds <attention-walkthrough src=…> for each path; resolves to { path: its error message }.
function loadScenes(page, paths) {
  return page.evaluate(
    (paths) =>
      Promise.all(
        paths.map(
          (path) =>
            new Promise((done) => {
              const element = document.createElement("attention-walkthrough");
              element.lang = "en";
              element.addEventListener("error", (e) => done([path, e.detail.message]));
              element.addEventListener("ready", () => done([path, "ready"]));
              element.setAttribute("src", path);
              document.body.append(element);
            }),
        ),
      ).then(Object.fromEntries),
    paths,
  );
}

test("custom scenes that never arrive, drip, are 10 MB or nested 400,000 deep: a clear message each", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}empty.html`);
  const started = Date.now();
  const messages = await loadScenes(page, Object.keys(routes));
  const waited = Date.now() - started;
  assert.deepEqual(messages, {
    "/hostile/never": "src: could not load /hostile/never (no whole answer within 10 s)",
    "/hostile/slow": "src: could not load /hostile/slow (no whole answer within 10 s)",
    "/hostile/huge": `src: could not load /hostile/huge (${10_000_023} bytes, over the limit)`,
    "/hostile/huge-chunked": `scene: is ${10_000_026} characters, over the limit of 1000000`,
    "/hostile/deep": "inputs.q[1][1]: must be a finite number, not an array",
  });
  assert.ok(waited < 20_000, `gave up after ${waited} ms`);
  // Each element shows its message, and the page still answers.
  const shown = await page
    .locator("attention-walkthrough .embed-error")
    .evaluateAll((boxes) => boxes.length);
  assert.equal(shown, 5);
  assert.equal(await page.evaluate(() => 6 * 7), 42);
  await page.close();
});

test("markup in every text field of a custom scene is shown as text, and runs nothing", async () => {
  const page = await openPage(env.browser, `${env.url}${pages}empty.html`);
  const text = { zh: `${markup}${script}`, en: `${script}${markup}` };
  const scene = {
    title: text,
    analogy: text,
    note: text,
    result: text,
    tokens: [markup, script, "<b>x</b>"],
    values: ["<i>v</i>", markup],
    inputs: {
      x: [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
      wq: [
        [1, 0],
        [0, 1],
      ],
      wk: [
        [1, 0],
        [0, 1],
      ],
      wv: [
        [1, 0],
        [0, 1],
      ],
    },
    steps: Object.fromEntries(
      ["inputs", "projections", "scores", "scaled", "weights", "output", "result"].map((id) => [
        id,
        text,
      ]),
    ),
  };
  const total = await page.evaluate(async (json) => {
    const element = document.createElement("attention-walkthrough");
    element.setAttribute("lang", "en");
    element.setAttribute("controls", "");
    const data = document.createElement("script");
    data.type = "application/json";
    data.textContent = json;
    element.append(data);
    const ready = new Promise((done) => element.addEventListener("ready", done));
    document.body.append(element);
    await ready;
    return element.state.steps.length;
  }, JSON.stringify(scene));
  const seen = new Set();
  for (let step = 1; step <= total; step++) {
    for (const lang of ["en", "zh"]) {
      const found = await page.evaluate(
        ([step, lang]) => {
          const element = document.querySelector("attention-walkthrough");
          element.setAttribute("lang", lang);
          element.goTo(step);
          const root = element.shadowRoot;
          return {
            elements: root.querySelectorAll("img, script, b, i, iframe, object").length,
            text: [...root.querySelectorAll("*")].map((e) => e.textContent).join(" "),
          };
        },
        [step, lang],
      );
      assert.equal(found.elements, 0, `no element made from the scene's text at step ${step}`);
      for (const piece of [markup, script, "<b>x</b>", "<i>v</i>"]) {
        if (found.text.includes(piece)) seen.add(piece);
      }
    }
  }
  assert.deepEqual([...seen].sort(), [markup, script, "<b>x</b>", "<i>v</i>"].sort());
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A host page on one origin, the iframe on another (localhost and 127.0.0.1 are two origins).
async function framedPage(hostOrigin, embedQuery) {
  const page = await env.browser.newPage();
  page.messages = [];
  await page.exposeFunction("record", (m) => page.messages.push(m));
  const embed = `${env.url}web/embed.html?scene=dictionary&step=2&lang=en${embedQuery}`;
  await page.goto(`${hostOrigin}${pages}iframe-other.html#${encodeURIComponent(embed)}`);
  const frame = page.frame({ url: /\/web\/embed\.html\?/ });
  await frame.waitForFunction(() => document.querySelector("attention-walkthrough")?.state);
  return {
    page,
    frame,
    step: () => frame.evaluate(() => document.querySelector("attention-walkthrough").state.step),
  };
}

test("embed.html takes commands only from its parent, and from the pinned origin when given", async () => {
  const localhost = env.url.replace("127.0.0.1", "localhost");
  const hostOrigin = new URL(localhost).origin;

  // Pinned to the host's origin: the host drives it, and hears it.
  let { page, frame, step } = await framedPage(
    localhost,
    `&origin=${encodeURIComponent(hostOrigin)}`,
  );
  await page.evaluate(() => window.send({ type: "goTo", step: 4, id: "parent" }));
  await page.waitForFunction(() => window.heard.some((m) => m.id === "parent"));
  assert.equal(await step(), 4);
  assert.ok((await page.evaluate(() => window.heard)).some((m) => m.type === "ready"));

  // A sibling frame of the same origin as the iframe is not its parent: ignored.
  await page.evaluate(() => window.sendFromSibling({ type: "goTo", step: 6, id: "sibling" }));
  await page.waitForTimeout(500);
  assert.equal(await step(), 4);
  assert.ok(!(await page.evaluate(() => window.heard)).some((m) => m.id === "sibling"));
  await page.close();

  // Pinned to another origin than the host's: the host's commands are ignored, and nothing is
  // sent to the host at all.
  ({ page, frame, step } = await framedPage(env.url, `&origin=${encodeURIComponent(hostOrigin)}`));
  await page.evaluate(() => window.send({ type: "goTo", step: 5, id: "wrong origin" }));
  await page.waitForTimeout(500);
  assert.equal(await step(), 2, "still the step its URL gave");
  assert.deepEqual(await page.evaluate(() => window.heard), []);
  await page.close();

  // Not pinned: any parent may drive it, and only the parent.
  ({ page, frame, step } = await framedPage(localhost, ""));
  await page.evaluate(() => window.send({ type: "goTo", step: 3, id: "parent" }));
  await page.waitForFunction(() => window.heard.some((m) => m.id === "parent"));
  assert.equal(await step(), 3);
  await page.evaluate(() => window.sendFromSibling({ type: "goTo", step: 6 }));
  await page.waitForTimeout(500);
  assert.equal(await step(), 3);
  await page.close();
});

test("hostile URL parameters: unknown scenes, steps out of range, 100 KB values, markup in each", async () => {
  const page = await openPage(env.browser, `${env.url}web/index.html?lang=en`);
  await page.waitForSelector("#app[data-ready]");
  const names = ["scene", "step", "lang", "digits", "speed", "seed", "cell", "predict", "alpha"];
  const inputs = ["x", "wq", "wk", "wv", "q", "k", "v"];
  const long = "9,".repeat(50_000);
  const values = [markup, script, "-1", "1e9", "NaN", "__proto__", `${markup}.1.1`];
  // Every parameter but the scene takes each short value in one URL (each is read on its own);
  // the scene and the 100 KB value one parameter at a time.
  const all = (list, v) => list.map((n) => `${n}=${encodeURIComponent(v)}`).join("&");
  const rest = names.filter((n) => n !== "scene");
  const queries = [
    "scene=nowhere",
    "scene=__proto__&step=2",
    "scene=age&step=-1",
    "scene=age&step=1e9",
    `scene=age&alpha=${"9".repeat(100_000)}`,
    `scene=dictionary&k=${Array(20).fill("1,2").join(";")}`,
    ...[...values, long].map((v) => `scene=${encodeURIComponent(v)}`),
    ...values.map((v) => `scene=age&${all(rest, v)}`),
    ...rest.map((n) => `scene=age&${n}=${encodeURIComponent(long)}`),
    ...[markup, script].map((v) => `scene=dictionary&${all(inputs, v)}`),
    ...inputs.map((n) => `scene=dictionary&${n}=${encodeURIComponent(long)}`),
  ];
  const seen = [];
  for (const query of queries) {
    await page.goto(`${env.url}web/index.html?${query}`);
    await page.waitForSelector("#app[data-ready]");
    const found = await page.evaluate(() => ({
      made: document.querySelectorAll("#app img, #app script, #app iframe").length,
      scene: new URLSearchParams(location.search).get("scene"),
      counter: document.getElementById("counter").textContent,
      alert: document.querySelector("#app .error")?.textContent,
      pwned: window.pwned,
    }));
    assert.equal(found.made, 0, query);
    assert.equal(found.pwned, undefined, query);
    assert.match(found.counter, /^(Step|第) \d+/, query);
    seen.push({ query: query.slice(0, 60), scene: found.scene, alert: found.alert });
  }
  const at = (q) => seen.find((s) => s.query === q.slice(0, 60));
  assert.equal(at("scene=nowhere").scene, "classroom", "an unknown scene opens the first");
  assert.match(
    at(`scene=dictionary&k=${Array(20).fill("1,2").join(";")}`).alert,
    /k is 20×2; a matrix to work by hand has at most 16/,
  );
  await page.goto(`${env.url}web/index.html?scene=age&step=1e9&lang=en`);
  await page.waitForSelector("#app[data-ready]");
  assert.equal(await page.locator("#counter").textContent(), "Step 6 of 6");
  assert.deepEqual(page.errors, []);
  await page.close();
});
