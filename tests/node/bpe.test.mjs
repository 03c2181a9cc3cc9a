// bpe.test.mjs: byte-pair encoding through the labs module (bpeLearn, bpeEncode) against a BPE
// written apart in Python (tests/fixtures/bpe_reference.py → bpe.json): every case, every field of
// every step; the tokens always spell the text (TextEncoder's bytes); the pre-split's pieces
// against GPT-2's own regular expression, where they agree and where they do not; every refusal
// worded with the argument it names, and the module still right after them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLabs } from "../../web/attention.js";

const core = await loadLabs();
const fixture = JSON.parse(readFileSync(new URL("../fixtures/bpe.json", import.meta.url), "utf8"));

// The reference's snake_case, as the JS API spells it.
const camel = (value) => {
  if (Array.isArray(value)) return value.map(camel);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k.replace(/_(\w)/g, (_, c) => c.toUpperCase()),
      camel(v),
    ]),
  );
};

const encoder = new TextEncoder();
const hexOf = (bytes) =>
  [...bytes].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
const where = (c) => `${c.name} ${c.start}${c.presplit ? " presplit" : ""}`;
const learn = (c) =>
  core.bpeLearn(c.text, { merges: c.merges, start: c.start, presplit: c.presplit });

test("every case of the Python reference: the trace and the lines encoded, field for field", () => {
  assert.ok(fixture.cases.length >= 70, `${fixture.cases.length} cases`);
  for (const c of fixture.cases) {
    const t = learn(c);
    const { made, ...expect } = camel(c.expect);
    const { vocabulary, ...rest } = t;
    assert.deepEqual(rest, expect, where(c));
    assert.deepEqual(vocabulary.slice(t.base), made, `${where(c)}: the merged tokens`);
    // the base symbols: the alphabet's characters, or the 256 bytes by value
    const base =
      c.start === "bytes"
        ? Array.from({ length: 256 }, (_, b) => ({ hex: hexOf([b]), whole: b < 0x80 }))
        : [...t.alphabet].map((ch) => ({ hex: hexOf(encoder.encode(ch)), whole: true }));
    assert.deepEqual(
      vocabulary.slice(0, t.base).map(({ hex, whole }) => ({ hex, whole })),
      base,
      `${where(c)}: the base`,
    );
    for (const line of c.encoded) {
      assert.deepEqual(
        core.bpeEncode(t, line.text),
        camel(line.expect),
        `${where(c)}: ${line.text}`,
      );
    }
  }
});

// The lines of a text as the core reads them, without their breaks.
const linesOf = (text) => text.replace(/\r\n?/g, "\n").split("\n");

test("after every merge the tokens spell the text, line by line, in its UTF-8 bytes", () => {
  for (const c of fixture.cases.filter((x) => !x.name.startsWith("random"))) {
    const t = learn(c);
    const spelled = linesOf(c.text).map((line) => hexOf(encoder.encode(line)));
    for (const [k, tokens] of [t.initial, ...t.steps.map((s) => s.after)].entries()) {
      const lines = spelled.map(() => []);
      let at = 0;
      tokens.sizes.forEach((size, piece) => {
        for (const id of tokens.ids.slice(at, at + size)) {
          lines[t.segmentLines[piece]].push(t.vocabulary[id].hex);
        }
        at += size;
      });
      assert.deepEqual(
        lines.map((l) => l.join(" ")),
        spelled,
        `${where(c)} after ${k} merges`,
      );
    }
    // a token's text is its bytes when they are whole characters, and "" (never a broken string)
    // when they are not
    for (const v of t.vocabulary) {
      if (v.whole) assert.equal(hexOf(encoder.encode(v.text)), v.hex, where(c));
      else assert.equal(v.text, "", where(c));
    }
  }
});

// GPT-2's pre-split, its regular expression as its encoder.json's code writes it.
const gpt2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

// The core's pieces of a one-line text: its pre-split, read back from bpeEncode with no merge.
function pieces(text) {
  const e = core.bpeEncode({ start: "characters", presplit: true, alphabet: "", steps: [] }, text);
  const chars = [...text];
  const out = [];
  let at = 0;
  for (const size of e.initial.sizes) {
    out.push(chars.slice(at, at + size).join(""));
    at += size;
  }
  return out;
}

test("the pre-split's pieces are GPT-2's where the page says so, and differ where the docs say", () => {
  for (const text of [
    "the cat sat on the mat.",
    "I love you. We love it!",
    "  the cat,  123 apples\t4.5%",
    "我爱你，床前明月光。",
    "Attention is all you need.",
    ...linesOf(fixture.presets.english.text),
    ...linesOf(fixture.presets.tang.text),
  ]) {
    assert.deepEqual(pieces(text), text.match(gpt2), text);
  }
  // its contractions, and its Unicode categories (a combining accent is \p{M}, not a letter)
  assert.deepEqual(pieces("don't"), ["don", "'", "t"]);
  assert.deepEqual("don't".match(gpt2), ["don", "'t"]);
  assert.deepEqual(pieces("cafe\u0301"), ["cafe\u0301"]);
  assert.deepEqual("cafe\u0301".match(gpt2), ["cafe", "\u0301"]);
});

test("refusals name the argument, in the core's words, and the module stays right", () => {
  const refused = [
    [() => core.bpeLearn(""), /^the text is empty$/],
    [() => core.bpeLearn("\n\r\n"), /^the text has only line breaks$/],
    [
      () => core.bpeLearn("月".repeat(2001)),
      /^the text has 2001 characters \(line breaks count\); at most 2000 are read here, so that every token can be shown$/,
    ],
    [() => core.bpeLearn("ab\u0001"), /control character U\+0001 at character 3/],
    [() => core.bpeLearn("a\uD83Db"), /^text holds a lone surrogate \(U\+D83D\) at character 2/],
    [() => core.bpeLearn(42), /^text must be a string, not the number 42$/],
    [() => core.bpeLearn("ab", { merges: 501 }), /^merges is 501; it must be from 0 to 500$/],
    [() => core.bpeLearn("ab", { merges: -1 }), /^options\.merges must be a whole number, not -1$/],
    [
      () => core.bpeLearn("ab", { merges: 2.5 }),
      /^options\.merges must be a whole number, not 2\.5$/,
    ],
    [
      () => core.bpeLearn("ab", { start: "words" }),
      /^start is "words"; it must be "characters" or "bytes"$/,
    ],
    [
      () => core.bpeLearn("ab", { start: 1 }),
      /^options\.start must be a string, not the number 1$/,
    ],
    [() => core.bpeLearn("ab", { presplit: "yes" }), /^options\.presplit must be true or false$/],
    [
      () => core.bpeLearn("ab", { merge: 3 }),
      /^options has no field "merge"; its fields are merges, start, presplit$/,
    ],
    [() => core.bpeLearn("ab", null), /^options must be an object/],
    [() => core.bpeEncode(null, "ab"), /^learned must be what bpeLearn returned/],
    [
      () =>
        core.bpeEncode(
          { start: "characters", alphabet: "ab", steps: [{ left: 0, right: 2 }] },
          "ab",
        ),
      /^merge 1's right token is 2; it must be from 0 to 1 \(the tokens made before it\)$/,
    ],
    [
      () =>
        core.bpeEncode(
          { start: "characters", alphabet: "ab", steps: [{ left: -1, right: 0 }] },
          "ab",
        ),
      /^learned\.steps\[0\]\.left must be a whole number, not -1$/,
    ],
    [
      () => core.bpeEncode({ start: "bytes", alphabet: "ab", steps: [] }, "ab"),
      /^the alphabet must be empty from bytes/,
    ],
    [
      () => core.bpeEncode({ start: "characters", alphabet: "aa", steps: [] }, "ab"),
      /^the alphabet holds a twice$/,
    ],
    [
      () => core.bpeEncode({ start: "characters", alphabet: "a", steps: [] }, ""),
      /^the text is empty$/,
    ],
  ];
  const right = learn(fixture.cases[0]);
  for (let round = 0; round < 50; round++) {
    for (const [call, message] of refused) assert.throws(call, { message });
  }
  assert.deepEqual(learn(fixture.cases[0]), right);
  const t = core.bpeLearn("ab".repeat(1000), { merges: 500 });
  assert.equal(t.characters, 2000);
  assert.ok(t.steps.length > 0 && t.steps.length < 500, `${t.steps.length} merges`);
});
