// docs.test.mjs: the documentation holds: README.md and every docs/*.md.
//   (a) every relative link, [text](path) or ![alt](path), names a file or folder of this
//       repository (not a built or ignored one, nothing outside it), and every #anchor names a
//       heading of the file it points to, slugged as GitHub slugs headings;
//   (b) the README is at most 200 lines, and its layout block names every file and folder of
//       src/, web/, python/, tests/ and tools/ (a file by its name, or by its stem and its extension on
//       one line: "attention.hpp, .cpp"), and its name column only files that exist;
//   (c) every code block meant to run runs. A fenced block says so in its info string:
//         ```js run       a Node ES module, run with `node --input-type=module` from the
//                         repository root, so `import "attention-by-hand"` is this package
//                         (package.json's "exports"; it needs the built core, `make wasm`).
//                         It must exit with 0.
//         ```text output  right after a run block: what that block must print, exactly
//                         (trailing spaces and the last newline aside).
//         ```sh run       bash from the repository root; it must be fast and safe, so a block
//                         that runs make, npm install/ci, apt, sudo or rm fails the test.
//         ```js norun     shown, never run: browser code, sketches, make targets (```sh norun).
//       Every js, mjs, sh, bash and shell block must say run or norun. Every ```html block is
//       checked instead: its tags balance; <attention-walkthrough> carries only attributes that
//       web/element.js observes (or id, class, style, hidden, title); an embed.html URL only
//       parameters that web/embed.js reads; an inline scene (<script type="application/json">)
//       is one that web/custom-scene.js accepts. Every ```json block parses.
//   (d) no file points at the project's private notes or cites internal issue numbers, which
//       mean nothing to a reader.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseScene } from "../../web/custom-scene.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const files = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const text = Object.fromEntries(files.map((f) => [f, readFileSync(join(root, f), "utf8")]));

// ---- reading Markdown: fenced blocks, prose, links, headings ----

/** A file's fenced code blocks, { lang, flags, code, line, start, end } (lines from 1), and its
 * prose (every line outside a block; blocks become empty lines, so line numbers hold). */
function parse(source) {
  const lines = source.split("\n");
  const blocks = [];
  const prose = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^ {0,3}(`{3,}|~{3,})\s*(.*)$/);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    const fence = open[1];
    const [lang = "", ...flags] = open[2].trim().split(/\s+/).filter(Boolean);
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim().startsWith(fence)) body.push(lines[j++]);
    assert.ok(j < lines.length, `line ${i + 1}: a code block that is never closed`);
    blocks.push({ lang, flags, code: body.join("\n"), line: i + 1, start: i, end: j });
    for (let k = i; k <= j; k++) prose.push("");
    i = j;
  }
  return { blocks, prose: prose.join("\n") };
}

const parsed = Object.fromEntries(files.map((f) => [f, parse(text[f])]));

// Prose without code spans, which may hold anything, even text that looks like a link.
const withoutCode = (prose) => prose.replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/\S/g, " "));

/** The links of a file: { target, line }. */
function linksOf(file) {
  const prose = withoutCode(parsed[file].prose);
  const links = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: m[1], line: prose.slice(0, m.index).split("\n").length });
  }
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading) {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text
    .replace(/[`*]/g, "") // code and emphasis marks
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings, with GitHub's -1, -2 … for repeated ones. */
function anchorsOf(source) {
  const seen = new Map();
  const anchors = new Set();
  for (const m of parse(source).prose.matchAll(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

// What a link may never point into: built, installed or ignored files.
const unpublished = ["build/", "node_modules/", "web/generated/", "tests/artifacts/", ".git/"];

/** Why a link is broken, or undefined when it resolves. */
function brokenLink(file, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …
  const [path, anchor] = target.split("#");
  const to = path === "" ? join(root, file) : resolve(root, dirname(file), decodeURI(path));
  const inRepo = relative(root, to).replaceAll("\\", "/");
  if (inRepo.startsWith("..")) return `${target} leaves the repository`;
  if (unpublished.some((p) => `${inRepo}/`.startsWith(p))) {
    return `${target} points into ${inRepo}, which is built or ignored, not in the repository`;
  }
  if (!existsSync(to)) return `${target}: there is no ${inRepo}`;
  if (anchor !== undefined) {
    if (!to.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
    const anchors = anchorsOf(readFileSync(to, "utf8"));
    if (!anchors.has(decodeURIComponent(anchor))) {
      return `${target}: ${inRepo} has no heading #${anchor} (it has ${[...anchors].join(", ")})`;
    }
  }
  return undefined;
}

// ---- (a) links ----

test("every relative link in README.md and docs/ resolves, and every anchor to a heading", () => {
  const broken = [];
  let count = 0;
  for (const file of files) {
    for (const { target, line } of linksOf(file)) {
      count++;
      const why = brokenLink(file, target);
      if (why) broken.push(`${file}:${line}: ${why}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(count > 20, `only ${count} links found: the link reader is broken`);
});

test("the link checker refuses what it should", () => {
  assert.match(brokenLink("README.md", "docs/nowhere.md"), /there is no docs\/nowhere\.md/);
  assert.match(brokenLink("docs/api.md", "../../outside.md"), /leaves the repository/);
  assert.match(brokenLink("README.md", "web/generated/app.js"), /built or ignored/);
  assert.match(brokenLink("README.md", "docs/api.md#no-such-heading"), /no heading/);
  assert.equal(brokenLink("README.md", "#run-it"), undefined);
  assert.equal(brokenLink("README.md", "https://example.com/x"), undefined);
  assert.equal(
    slug("1. The element: `<attention-walkthrough>`"),
    "1-the-element-attention-walkthrough",
  );
  assert.equal(slug("4. Your own scene"), "4-your-own-scene");
  assert.deepEqual(
    linksOf("README.md").filter((l) => l.target === "docs/screenshot.png").length,
    1,
    "the README shows the screenshot",
  );
});

// ---- (b) the README's length ----

test("the README is at most 200 lines", () => {
  const lines = text["README.md"].replace(/\n$/, "").split("\n").length;
  assert.ok(lines <= 200, `README.md has ${lines} lines; move detail into docs/`);
});

/** The README's layout block: for each top folder, its lines. */
export function layoutSections(readme) {
  const block =
    readme
      .split(/^## Layout$/m)[1]
      ?.split("```text\n")[1]
      ?.split("```")[0] ?? "";
  const sections = {};
  let current = null;
  for (const line of block.split("\n")) {
    const top = line.match(/^(\w+)\/(\s|$)/);
    if (top) current = sections[top[1]] = [];
    if (current) current.push(line);
  }
  return sections;
}

/** Whether the lines name a file: its name, or its stem and extension on one line. */
export function names(lines, file) {
  const dot = file.indexOf(".");
  const [stem, ext] = dot > 0 ? [file.slice(0, dot), file.slice(dot)] : [file, ""];
  const word = (w) => new RegExp(`(^|[\\s,(/])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
  return lines.some(
    (line) => word(file).test(line) || (ext && word(stem).test(line) && line.includes(ext)),
  );
}

test("the README's layout names every file of src/, web/, python/, notebooks/, tests/ and tools/, and nothing else", () => {
  const sections = layoutSections(text["README.md"]);
  assert.deepEqual(Object.keys(sections).sort(), [
    "notebooks",
    "python",
    "src",
    "tests",
    "tools",
    "web",
  ]);
  const ignored = new Set([
    "generated",
    "node_modules",
    "artifacts",
    "__pycache__",
    ".pytest_cache",
    "attention_by_hand.egg-info", // setuptools' notes from make wheel, ignored by git
  ]);
  for (const [folder, lines] of Object.entries(sections)) {
    const entries = readdirSync(join(root, folder), { withFileTypes: true });
    for (const entry of entries) {
      if (ignored.has(entry.name)) continue;
      const name = entry.isDirectory() ? `${entry.name}/` : entry.name;
      if (folder === "tests" && !entry.isDirectory()) continue;
      assert.ok(names(lines, name), `README.md's layout does not name ${folder}/${name}`);
    }
    // the name column: the first 25 characters of a line
    for (const line of lines.map((l) => l.slice(0, 25))) {
      for (const [file] of line.matchAll(
        /[\w./-]+\.(?:hpp|cpp|mjs|js|css|html|json|ts|cjs|sh|py|ipynb)\b/g,
      )) {
        if (file.startsWith(".") || file.startsWith("generated/")) continue;
        const found = file.includes("/")
          ? existsSync(join(root, folder, file))
          : readdirSync(join(root, folder), { recursive: true }).some(
              (path) => !/node_modules|generated/.test(path) && path.split("/").at(-1) === file,
            );
        assert.ok(found, `README.md's layout names ${folder}/${file}, which does not exist`);
      }
    }
  }
});

test("the layout checker refuses what it should", () => {
  assert.ok(names(["  attention.hpp, .cpp    the steps"], "attention.cpp"));
  assert.ok(names(["  store.js, focus.js"], "focus.js"));
  assert.ok(!names(["  attention.hpp    the steps"], "attention.cpp"));
  assert.ok(!names(["  restore.js"], "store.js"));
  assert.deepEqual(
    Object.keys(layoutSections("## Layout\n\n```text\nsrc/  a\n  x.cpp\nweb/  b\n```\n")),
    ["src", "web"],
  );
});

// ---- (c) code blocks ----

const runnable = new Set(["js", "mjs", "javascript", "sh", "bash", "shell"]);
const isShell = (lang) => ["sh", "bash", "shell"].includes(lang);

test("every js and sh block says whether it runs, and every output block follows a run", () => {
  const problems = [];
  for (const file of files) {
    const { blocks } = parsed[file];
    blocks.forEach((b, n) => {
      const where = `${file}:${b.line}`;
      if (runnable.has(b.lang) && b.flags.includes("run") === b.flags.includes("norun")) {
        problems.push(`${where}: a ${b.lang} block must say "run" or "norun" after its language`);
      }
      if (b.flags.includes("output")) {
        const before = blocks[n - 1];
        if (!before?.flags.includes("run") || !outputOf(file, before)) {
          problems.push(`${where}: an output block that does not follow a run block`);
        }
      }
    });
  }
  assert.deepEqual(problems, []);
});

/** The output block right after a block (blank lines between at most), or undefined. */
function outputOf(file, block) {
  const { blocks } = parsed[file];
  const next = blocks[blocks.indexOf(block) + 1];
  if (!next?.flags.includes("output")) return undefined;
  const between = text[file].split("\n").slice(block.end + 1, next.start);
  return between.every((l) => l.trim() === "") ? next : undefined;
}

const tidy = (s) =>
  s
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trimEnd();

const built = ["attention-core.mjs", "attention-labs.mjs"].every((f) =>
  existsSync(join(root, "web/generated", f)),
);

for (const file of files) {
  for (const block of parsed[file].blocks.filter((b) => b.flags.includes("run"))) {
    test(`${file}:${block.line}: the ${block.lang} block runs`, () => {
      let result;
      if (isShell(block.lang)) {
        const unsafe = block.code.match(/\b(make|sudo|apt|apt-get|rm)\b|\bnpm\s+(install|i|ci)\b/);
        assert.equal(unsafe, null, `a shell block that runs "${unsafe?.[0]}" must be norun`);
        result = spawnSync("bash", ["-euo", "pipefail", "-c", block.code], {
          cwd: root,
          encoding: "utf8",
          timeout: 30_000,
        });
      } else {
        assert.ok(built, "the WASM core is not built (web/generated/): run make wasm first");
        result = spawnSync(process.execPath, ["--input-type=module"], {
          cwd: root,
          input: block.code,
          encoding: "utf8",
          timeout: 60_000,
        });
      }
      assert.equal(result.error, undefined, `${result.error}`);
      assert.equal(result.status, 0, `exit ${result.status}:\n${result.stderr}`);
      const expected = outputOf(file, block);
      if (expected) assert.equal(tidy(result.stdout), tidy(expected.code), "what it prints");
    });
  }
}

test("the README's API example runs and prints what it shows", () => {
  const runs = parsed["README.md"].blocks.filter((b) => b.flags.includes("run"));
  assert.ok(
    runs.some((b) => b.lang === "js" && b.code.includes('from "attention-by-hand"')),
    "the README has a js run block that imports the package",
  );
  assert.ok(
    runs.every((b) => outputOf("README.md", b)),
    "each shows its output",
  );
});

// HTML: tags that balance, and only the element's own attributes and the iframe's parameters.
const elementSource = readFileSync(join(root, "web/element.js"), "utf8");
const observed = [
  ...elementSource.match(/static observedAttributes = \[([^\]]*)\]/)[1].matchAll(/"([\w-]+)"/g),
].map((m) => m[1]);
const elementAttributes = new Set([...observed, "id", "class", "style", "hidden", "title"]);
const embedSource = readFileSync(join(root, "web/embed.js"), "utf8");
const embedParams = new Set([
  ...[...embedSource.matchAll(/params\.get\("([\w-]+)"\)/g)].map((m) => m[1]),
  ...[...embedSource.match(/for \(const name of \[([^\]]*)\]\)/)[1].matchAll(/"([\w-]+)"/g)].map(
    (m) => m[1],
  ),
]);
const voidTags = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link"]);
["meta", "source", "track", "wbr"].forEach((t) => voidTags.add(t));

/** What is wrong with an HTML snippet, as a list of messages. */
function checkHtml(html) {
  const problems = [];
  const stack = [];
  const tag =
    /<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*(\/?)>/y;
  let at = 0;
  while ((at = html.indexOf("<", at)) !== -1) {
    if (html.startsWith("<!--", at)) {
      at = html.indexOf("-->", at) + 3;
      if (at < 3) problems.push("a comment that is never closed");
      if (at < 3) break;
      continue;
    }
    tag.lastIndex = at;
    const m = tag.exec(html);
    if (!m) {
      problems.push(`not a tag: ${html.slice(at, at + 30)}`);
      break;
    }
    const [whole, closing, rawName, rawAttributes, selfClosing] = m;
    const name = rawName.toLowerCase();
    at += whole.length;
    if (closing) {
      const open = stack.pop();
      if (open?.name !== name) problems.push(`</${name}> closes <${open?.name ?? "nothing"}>`);
      continue;
    }
    const attributes = Object.fromEntries(
      [...rawAttributes.matchAll(/([^\s=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g)].map(
        (a) => [a[1].toLowerCase(), (a[2] ?? a[3] ?? a[4] ?? "").replaceAll("&amp;", "&")],
      ),
    );
    if (name === "attention-walkthrough") {
      for (const a of Object.keys(attributes)) {
        if (!elementAttributes.has(a)) problems.push(`<attention-walkthrough> has no ${a}`);
      }
    }
    if (name === "iframe" && /embed\.html/.test(attributes.src ?? "")) {
      for (const p of new URL(attributes.src, "https://your.site/").searchParams.keys()) {
        if (!embedParams.has(p)) problems.push(`embed.html reads no parameter ${p}`);
      }
    }
    if (name === "script") {
      const end = html.indexOf("</script>", at);
      if (end === -1) {
        problems.push("a <script> that is never closed");
        break;
      }
      const body = html.slice(at, end);
      if (attributes.type === "application/json") {
        try {
          parseScene(body);
        } catch (error) {
          problems.push(`the inline scene is refused: ${error.message}`);
        }
      }
      at = end + "</script>".length;
      continue;
    }
    if (!voidTags.has(name) && !selfClosing) stack.push({ name });
  }
  for (const open of stack) problems.push(`<${open.name}> is never closed`);
  return problems;
}

test("every html block balances and uses only real attributes and parameters", () => {
  const problems = [];
  let count = 0;
  for (const file of files) {
    for (const block of parsed[file].blocks.filter((b) => b.lang === "html")) {
      count++;
      for (const p of checkHtml(block.code)) problems.push(`${file}:${block.line}: ${p}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(count >= 3, `only ${count} html blocks found`);
});

test("the html checker refuses what it should", () => {
  assert.deepEqual(
    checkHtml('<attention-walkthrough scene="age" controls></attention-walkthrough>'),
    [],
  );
  assert.deepEqual(checkHtml("<attention-walkthrough colour=red></attention-walkthrough>"), [
    "<attention-walkthrough> has no colour",
  ]);
  assert.deepEqual(checkHtml('<iframe src="embed.html?scene=age&amp;theme=dark"></iframe>'), [
    "embed.html reads no parameter theme",
  ]);
  assert.deepEqual(checkHtml("<div><span></div>"), [
    "</div> closes <span>",
    "<div> is never closed",
  ]);
  assert.match(
    checkHtml(
      '<attention-walkthrough><script type="application/json">{}</script></attention-walkthrough>',
    )[0],
    /the inline scene is refused/,
  );
  assert.ok(
    embedParams.has("origin") && embedParams.has("scene") && elementAttributes.has("predict"),
  );
});

test("every json block parses", () => {
  for (const file of files) {
    for (const block of parsed[file].blocks.filter((b) => b.lang === "json")) {
      assert.doesNotThrow(() => JSON.parse(block.code), `${file}:${block.line}`);
    }
  }
});

// ---- (d) nothing private ----

const privateHistory = [
  [/shared\/docs|\.\.\/shared\b|\bshared\/(seeds|hooks|tools)\b/, "the project's private notes"],
  [/\bissues?\s*#?\s*\d+/i, "an internal issue number"],
];

test("no file mentions the private notes or internal issue numbers", () => {
  const found = [];
  for (const file of files) {
    text[file].split("\n").forEach((line, i) => {
      for (const [pattern, what] of privateHistory) {
        const m = line.match(pattern);
        if (m) found.push(`${file}:${i + 1}: "${m[0]}" (${what})`);
      }
    });
  }
  assert.deepEqual(found, []);
  // the patterns find what they are for (written in pieces, so that this file cites nothing)
  assert.ok(["see ..", "shared", "docs", "scenes.md"].join("/").match(privateHistory[0][0]));
  assert.ok(["the labs of Issue", "#10"].join(" ").match(privateHistory[1][0]));
  assert.ok(["as in issue", "9"].join(" ").match(privateHistory[1][0]));
});
