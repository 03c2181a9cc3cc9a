// gpt-glosses.test.mjs: the model lab's pinyin and glosses for English readers
// (web/labs/gpt/glosses.json, written once by tools/glosses.mjs from pinyin-pro and CC-CEDICT):
// every character of the vocabulary has its entry; a few by hand; the tool writes the committed
// file again; CC-CEDICT's notice is beside it; the page itself never imports the dictionary; every
// example couplet has an English gloss.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "./gpt-files.mjs";
import { readConfig, readGlosses } from "../../web/labs/gpt/files.js";
import { gptWords } from "../../web/labs/gpt/words.js";

const root = new URL("../../", import.meta.url);
const json = await readConfig();
const glosses = await readGlosses();
const han = /^[\u3400-\u9fff]$/;

test("every Han character of the vocabulary has a pinyin, and nothing else has an entry", () => {
  const chars = [...json.chars].filter((c) => han.test(c));
  assert.deepEqual(Object.keys(glosses).sort(), chars.sort());
  for (const [c, [pinyin, gloss]] of Object.entries(glosses)) {
    // one reading, or the most common and another: "cháo, zhāo"
    assert.match(pinyin, /^[a-zü\u00e0-\u01dc]+(, [a-zü\u00e0-\u01dc]+)?$/u, c);
    assert.ok(gloss.length <= 42, `${c}: ${gloss}`);
  }
  // almost all have a gloss as well (a few are only surnames or names in CC-CEDICT)
  const without = Object.values(glosses).filter(([, g]) => !g).length;
  assert.ok(without < 10, `${without} without a gloss`);
});

test("a few by hand: pinyin with tone marks and the usual meaning", () => {
  const want = {
    月: ["yuè", "moon"],
    山: ["shān", "mountain"],
    人: ["rén", "person"],
    风: ["fēng", "wind"],
    国: ["guó", "country"],
    春: ["chūn", "spring"],
    凰: ["huáng", "phoenix"], // "used in 凤凰" followed to the word
    朝: ["cháo, zhāo", "zhāo: morning"], // two readings, each with its meaning
  };
  for (const [c, [pinyin, meaning]] of Object.entries(want)) {
    assert.equal(glosses[c][0], pinyin, c);
    assert.ok(glosses[c][1].includes(meaning), `${c}: ${glosses[c][1]}`);
  }
});

test("tools/glosses.mjs writes the committed table again, from the installed packages", () => {
  const out = join(mkdtempSync(join(tmpdir(), "glosses-")), "glosses.json");
  execFileSync("node", [new URL("tools/glosses.mjs", root).pathname, out], { stdio: "pipe" });
  assert.equal(
    readFileSync(out, "utf8"),
    readFileSync(new URL("web/labs/gpt/glosses.json", root), "utf8"),
  );
});

test("CC-CEDICT's notice is beside the table; the page never imports the dictionary", () => {
  const notice = readFileSync(new URL("web/labs/gpt/CC-CEDICT.txt", root), "utf8");
  assert.match(notice, /CC-CEDICT/);
  assert.match(notice, /Attribution-ShareAlike 4\.0 International/);
  const files = (dir) =>
    readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? files(`${dir}${e.name}/`)
        : e.name.endsWith(".js")
          ? [`${dir}${e.name}`]
          : [],
    );
  for (const file of files("web/").filter((f) => !f.startsWith("web/generated/"))) {
    const text = readFileSync(new URL(file, root), "utf8");
    assert.ok(!/from "(cc-cedict|pinyin-pro)"/.test(text), file);
  }
});

test("every example couplet has an English gloss; Chinese needs none", () => {
  for (const line of json.examples) {
    assert.ok(gptWords.en.gptLab.exampleGlosses[line]?.length > 20, line);
  }
  assert.equal(gptWords.zh.gptLab.exampleGlosses, undefined);
  assert.equal(gptWords.zh.gptLab.glossTitle, undefined);
});
