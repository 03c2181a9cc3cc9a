// security.test.mjs: what SECURITY.md promises that can be read from the source. No module of
// the page writes a string as HTML or runs a string as code, and every page we ship carries
// the policy that tools/serve.mjs sends, with Trusted Types where no author's markup lives.
// (The browser tests load the pages under that policy, where such a write would throw.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { pagePolicy, policy, trustedTypes } from "../../tools/serve.mjs";

const web = new URL("../../web/", import.meta.url);
const read = (name) => readFileSync(new URL(name, web), "utf8");
const modules = [
  ...readdirSync(web).filter((f) => f.endsWith(".js")),
  ...readdirSync(new URL("i18n/", web)).map((f) => `i18n/${f}`),
  ...readdirSync(new URL("wasm/", web)).map((f) => `wasm/${f}`),
];

// Each way a string can become markup or code in a page.
const sinks = [
  /\.(inner|outer)HTML\s*(\+?=)/,
  /insertAdjacentHTML/,
  /document\.write/,
  /\bsrcdoc\b/,
  /createContextualFragment/,
  /setHTMLUnsafe|parseHTMLUnsafe/,
  /parseFromString/,
  /\bnew Function\b/,
  /\beval\s*\(/,
  /setAttribute\(\s*["'`]on/,
  /\.on[a-z]+\s*=\s*["'`]/,
  /javascript:/,
];

test("no module of the page writes a string as HTML or runs one as code", () => {
  assert.ok(modules.length >= 15, `found only ${modules.length} modules`);
  const found = [];
  for (const name of modules) {
    read(name)
      .split("\n")
      .forEach((line, i) => {
        for (const sink of sinks)
          if (sink.test(line)) found.push(`${name}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});

test("the scan finds each sink when one is there", () => {
  const planted = [
    "box.innerHTML = text;",
    "box.outerHTML += text;",
    "box.insertAdjacentHTML('beforeend', text)",
    "document.write(text)",
    "frame.srcdoc = text",
    "range.createContextualFragment(text)",
    "new Function(text)",
    "eval(text)",
    "node.setAttribute('onclick', text)",
    'node.onclick = "alert(1)"',
    'a.href = "javascript:alert(1)"',
  ];
  for (const line of planted)
    assert.ok(
      sinks.some((s) => s.test(line)),
      line,
    );
});

test("the pages we ship carry the same Content-Security-Policy as the server sends", () => {
  const metaPolicy = (html) =>
    html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)?.[1];
  // the page's start and style.css are in it (tools/bundle.mjs), each allowed by its hash alone
  const page = read("index.html");
  const inline = [...page.matchAll(/<(script|style)>([^]*?)<\/\1>/g)];
  assert.deepEqual(
    inline.map(([, tag]) => tag),
    ["style", "script"],
  );
  const hash = (text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  const [css, start] = inline.map(([, , text]) => hash(text));
  const withHashes = `${policy()}; ${trustedTypes}`
    .replace("script-src 'self' 'wasm-unsafe-eval'", `$& ${start}`)
    .replace("style-src 'self'", `$& ${css}`);
  assert.equal(metaPolicy(page), withHashes);
  assert.equal(pagePolicy(`${policy()}; ${trustedTypes}`, page), withHashes);
  assert.equal(pagePolicy(policy(), read("embed.html")), policy());
  assert.equal(metaPolicy(read("embed.html")), `${policy("'self' https:")}; ${trustedTypes}`);
  assert.equal(metaPolicy(read("embedding.html")), policy());
  for (const p of [policy(), trustedTypes]) {
    assert.doesNotMatch(p, /'unsafe-eval'|'unsafe-inline'/);
  }
});
