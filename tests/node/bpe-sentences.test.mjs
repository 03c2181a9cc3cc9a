// bpe-sentences.test.mjs: the BPE lab's sentences, read as a learner reads them in English and in
// Chinese (tests/node/lab-sentences.mjs says how), at the presets, from characters and from bytes,
// with and without the pre-split, at several k: every number is the table's beside it or the
// panel's (the places numbered, the tokens drawn), and where it can be worked out here from the
// text itself (its characters, lines and bytes by TextEncoder, its different characters, the
// characters a new line has that the text has not, before − merged), it is. The last step's
// pieces are GPT-2's regular expression's; its facts are the core's on the fixed examples; the
// presets are the ones the Python reference learns from (tests/fixtures/bpe.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { textOf, elementsUnder } from "./text-dom.mjs";
import { langs, says, lab, pick } from "./lab-sentences.mjs";
import { presets, nameOf } from "../../web/labs/real/bpe.js";

const fixture = JSON.parse(readFileSync(new URL("../fixtures/bpe.json", import.meta.url), "utf8"));
const encoder = new TextEncoder();
const linesOf = (text) => text.replace(/\r\n?/g, "\n").split("\n");
const charsOf = (text) => [...linesOf(text).join("")];
const q = (v) => (v.whole ? `“${v.text}”` : v.text);
// a number as the sentences write it: 1,024
const n = (x) => x.toLocaleString("en");

// The places numbered in a panel (the marks on the chips), and the chips drawn.
const marks = (node) =>
  elementsUnder(node)
    .filter((e) => e.className.split(" ").includes("token-mark"))
    .map((e) => Number(textOf(e)));
const chips = (node) => elementsUnder(node).filter((e) => e.className.split(" ").includes("token"));

test("the presets are the ones the Python reference learns from", () => {
  for (const [name, p] of Object.entries(presets)) {
    assert.deepEqual(p, fixture.presets[name], name);
  }
});

const states = [];
for (const [name, p] of Object.entries(presets)) {
  for (const bytes of [false, true]) {
    for (const presplit of [false, true]) {
      for (const merges of [0, 1, 2, 3, 7, 100]) {
        states.push({ name, text: p.text, line: p.line, merges, bytes, presplit });
      }
    }
  }
}
// a new line that no merge applies to; a text with no pair twice, and one with no pair at all
states.push({
  name: "apart",
  text: presets.english.text,
  line: "明月",
  merges: 3,
  bytes: false,
  presplit: false,
});
states.push({ name: "once", text: "abc", line: "abc", merges: 3, bytes: false, presplit: false });
states.push({ name: "single", text: "a", line: "a", merges: 3, bytes: false, presplit: false });

test("step 1: the text's characters, lines, bytes and first vocabulary, worked out from the text", () => {
  for (const s of states) {
    const L = lab("bpe", s);
    const where = `${s.name} ${JSON.stringify({ ...s, text: undefined, line: undefined })}`;
    const chars = charsOf(s.text);
    const lines = linesOf(s.text).length;
    const bytes = encoder.encode(chars.join("")).length;
    const base = s.bytes ? 256 : new Set(chars).size;
    const tokens = s.bytes ? bytes : chars.length;
    const text = L.text("text");
    says(
      text,
      {
        en: String.raw`It has (?<chars>[\d,]+) characters on (?<lines>[\d,]+) lines?\.`,
        zh: String.raw`这段文字有 (?<chars>[\d,]+) 个字符，共 (?<lines>[\d,]+) 行。`,
      },
      { chars: n(chars.length), lines: n(lines) },
      where,
    );
    says(
      text,
      s.bytes
        ? {
            en: String.raw`(?<c>[\d,]+) characters are (?<tokens>[\d,]+) tokens?, and the vocabulary begins with all (?<base>[\d,]+) bytes`,
            zh: String.raw`(?<c>[\d,]+) 个字符是 (?<tokens>[\d,]+) 个词元，词表一开始是全部 (?<base>[\d,]+) 个字节`,
          }
        : {
            en: String.raw`each is a token to begin with: (?<tokens>[\d,]+) tokens?, and the vocabulary begins with its (?<base>[\d,]+) different characters, ids 0 to (?<last>[\d,]+) `,
            zh: String.raw`每个字符先是一个词元：(?<tokens>[\d,]+) 个词元，词表一开始就是它的 (?<base>[\d,]+) 个不同的字符，按第一次出现的顺序编号 0 到 (?<last>[\d,]+)`,
          },
      {
        tokens: n(tokens),
        base: n(base),
        ...(s.bytes ? { c: n(chars.length) } : { last: n(base - 1) }),
      },
      where,
    );
    if (s.presplit) {
      says(
        text,
        {
          en: String.raw`into pieces \(.+?\), (?<pieces>[\d,]+) here, set apart below`,
          zh: String.raw`这里共 (?<pieces>[\d,]+) 段`,
        },
        { pieces: n(L.trace.learned.segmentLines.length) },
        where,
      );
    }
    // the chips drawn are the tokens counted
    const drawn = pick(L.panel("text", "initial"), (node) => chips(node).length);
    for (const lang of langs) assert.equal(drawn[lang], tokens, `${where} ${lang}`);
  }
});

test("steps 2 and 3: the pair counted, its places numbered, the tie, the merge, before − merged = after", () => {
  const seen = { tie: 0, overlap: 0, stopped: 0, bytes: 0 };
  for (const s of states) {
    const L = lab("bpe", s);
    const where = `${s.name} ${s.merges}${s.bytes ? " bytes" : ""}${s.presplit ? " presplit" : ""}`;
    const { learned } = L.trace;
    const m = learned.steps.length;
    const view = L.at("en", "count").view;
    const text = L.text("count");
    const mergeText = L.text("merge");
    if (m === 0) {
      const best = learned.next.top[0];
      if (!best) {
        assert.equal(
          text.en,
          "This text has no two neighbouring tokens: there is nothing to merge.",
        );
        continue;
      }
      const v = (id) => q(nameOf(learned.vocabulary[id]));
      const pair = `${v(best.left)} + ${v(best.right)}`;
      if (s.merges > 0) {
        seen.stopped++;
        assert.equal(best.count, 1, where);
        assert.ok(text.en.includes(`the most frequent, ${pair}, occurs once`), text.en);
        assert.ok(text.zh.includes(`最多的 ${pair} 也只出现 1 次`), text.zh);
      } else {
        says(
          text,
          {
            en: String.raw`hold (?<d>[\d,]+) different pairs, and the most frequent is (?<pair>.+?), (?<c>[\d,]+) times?\.`,
            zh: String.raw`里有 (?<d>[\d,]+) 种不同的对，最多的是 (?<pair>.+?)，(?<c>[\d,]+) 次。`,
          },
          { d: n(learned.next.distinct), pair, c: n(view.matrices[0].data[0][0]) },
          where,
        );
      }
      continue;
    }
    // the table beside the words
    const [table] = view.matrices;
    const [count, first] = table.data[0];
    const tied = table.data.filter((row) => row[0] === count).length;
    const step = learned.steps[m - 1];
    const pair = `${q(nameOf(learned.vocabulary[step.left]))} + ${q(nameOf(learned.vocabulary[step.right]))}`;
    assert.equal(table.rowLabels[0], pair.replace(/[“”]/g, ""), where);
    const before = m > 1 ? learned.steps[m - 2].after.count : learned.initial.count;
    const listed = table.data.length;
    says(
      text,
      {
        en: String.raw`^Merge (?<m>[\d,]+): .+ The (?<tokens>[\d,]+) tokens below hold (?<d>[\d,]+) different pairs; the table lists the (?<listed>[\d,]+) most frequent\. The most frequent is (?<pair>.+?): (?<c>[\d,]+) times?, numbered 1 to (?<c2>[\d,]+) below`,
        zh: String.raw`^第 (?<m>[\d,]+) 次合并：.+下面这 (?<tokens>[\d,]+) 个词元里有 (?<d>[\d,]+) 种不同的对；表里列出最多的 (?<listed>[\d,]+) 种。最多的是 (?<pair>.+?)：(?<c>[\d,]+) 次，下面按 1 到 (?<c2>[\d,]+) 标了出来`,
      },
      {
        m: n(m),
        tokens: n(before),
        d: n(step.distinct),
        listed: n(listed),
        pair,
        c: n(count),
        c2: n(count),
      },
      where,
    );
    // the table's title says the same two numbers
    assert.equal(table.label, `The ${n(listed)} most frequent of ${n(step.distinct)} pairs`);
    // the places numbered on the chips before the merge: 1 to count
    const numbered = pick(L.panel("count", "before"), marks);
    const drawn = pick(L.panel("count", "before"), (node) => chips(node).length);
    for (const lang of langs) {
      assert.deepEqual(
        numbered[lang],
        Array.from({ length: count }, (_, k) => k + 1),
        where,
      );
      assert.equal(drawn[lang], before, where);
    }
    if (step.tied > 1) {
      seen.tie++;
      if (step.tied <= listed) assert.equal(tied, step.tied, where);
      says(
        text,
        {
          en: String.raw`(?<tied>[\d,]+) pairs occur (?<c>[\d,]+) times?; the rule here takes the one that occurs first in the text: (?<pair>.+?), at token (?<first>[\d,]+)\.`,
          zh: String.raw`有 (?<tied>[\d,]+) 种对都出现 (?<c>[\d,]+) 次；这里的规则取在文字里最先出现的那一种：(?<pair>.+?)，在第 (?<first>[\d,]+) 个词元。`,
        },
        { tied: n(step.tied), c: n(count), pair, first: n(first) },
        where,
      );
      // it is the first of the tied rows to occur
      const firsts = table.data.filter((row) => row[0] === count).map((row) => row[1]);
      assert.equal(first, Math.min(...firsts), where);
    } else {
      for (const lang of langs) assert.doesNotMatch(text[lang], /the rule here|这里的规则/);
    }
    if (m < s.merges) {
      seen.stopped++;
      says(
        text,
        {
          en: String.raw`You asked for (?<asked>[\d,]+) merges: after (?<m>[\d,]+), no pair`,
          zh: String.raw`你要了 (?<asked>[\d,]+) 次合并：合并 (?<m>[\d,]+) 次之后`,
        },
        { asked: n(s.merges), m: n(m) },
        where,
      );
    }
    // the merge: the places merged, and the tokens after, worked out
    const after = step.after.count;
    assert.equal(before - step.replaced, after, where);
    says(
      mergeText,
      {
        en: String.raw`^(?<pair>.+?) becomes one token, #(?<id>\d+): (?<made>.+?)\. Of its (?<c>[\d,]+) places, (?<r>[\d,]+) are merged, left to right\..* The text goes from (?<b>[\d,]+) tokens? to (?<b2>[\d,]+) − (?<r2>[\d,]+) = (?<a>[\d,]+)\.`,
        zh: String.raw`^(?<pair>.+?) 合并成一个词元，#(?<id>\d+)：(?<made>.+?)。它的 (?<c>[\d,]+) 处里，从左到右合并了 (?<r>[\d,]+) 处。.*文字从 (?<b>[\d,]+) 个词元变成 (?<b2>[\d,]+) − (?<r2>[\d,]+) = (?<a>[\d,]+) 个。`,
      },
      {
        pair,
        id: step.id,
        made: q(nameOf(learned.vocabulary[step.id])),
        c: n(count),
        r: n(step.replaced),
        r2: n(step.replaced),
        b: n(before),
        b2: n(before),
        a: n(after),
      },
      where,
    );
    const shaded = pick(
      L.panel("merge", "merged"),
      (node) => chips(node).filter((e) => e.className.split(" ").includes("hit")).length,
    );
    for (const lang of langs) assert.equal(shaded[lang], step.replaced, where);
    if (step.replaced < count) {
      seen.overlap++;
      says(
        mergeText,
        {
          en: String.raw`The other (?<o>[\d,]+) overlap a place already merged`,
          zh: String.raw`另外 (?<o>[\d,]+) 处和已经合并的一处重叠`,
        },
        { o: n(count - step.replaced) },
        where,
      );
    }
    if (!learned.vocabulary[step.id].whole) {
      seen.bytes++;
      assert.match(mergeText.en, /not yet whole characters, so it shows as hex\.$/);
      assert.match(mergeText.zh, /所以显示成十六进制。$/);
    }
  }
  // every kind of sentence was read
  for (const [kind, times] of Object.entries(seen)) assert.ok(times > 0, `${kind}: ${times}`);
});

test("step 4: the vocabulary's size, the text's tokens from first to last, the table's last row", () => {
  for (const s of states.filter((x) => x.merges > 0)) {
    const L = lab("bpe", s);
    const where = `${s.name} ${s.merges}${s.bytes ? " bytes" : ""}`;
    const { learned } = L.trace;
    const m = learned.steps.length;
    if (m === 0) continue;
    const base = s.bytes ? 256 : new Set(charsOf(s.text)).size;
    const [table] = L.at("en", "vocabulary").view.matrices;
    assert.equal(table.data.length, m, where);
    // each row: before − merged = after, the row above's after the next row's before
    let tokens = s.bytes ? encoder.encode(charsOf(s.text).join("")).length : charsOf(s.text).length;
    for (const [count, merged, after] of table.data) {
      assert.ok(merged <= count, where);
      assert.equal(tokens - merged, after, where);
      tokens = after;
    }
    says(
      L.text("vocabulary"),
      {
        en: String.raw`the (?<base>[\d,]+) (?:characters|bytes) it began with and (?<m>[\d,]+) merged tokens?, (?<base2>[\d,]+) \+ (?<m2>[\d,]+) = (?<size>[\d,]+)\. .* the text went from (?<first>[\d,]+) tokens? to (?<last>[\d,]+),`,
        zh: String.raw`一开始的 (?<base>[\d,]+) 个(?:字符|字节)，加上合并出的 (?<m>[\d,]+) 个词元，(?<base2>[\d,]+) \+ (?<m2>[\d,]+) = (?<size>[\d,]+) 个。.*文字从 (?<first>[\d,]+) 个词元变成 (?<last>[\d,]+) 个`,
      },
      {
        base: n(base),
        base2: n(base),
        m: n(m),
        m2: n(m),
        size: n(base + m),
        first: n(
          s.bytes ? encoder.encode(charsOf(s.text).join("")).length : charsOf(s.text).length,
        ),
        last: n(tokens),
      },
      where,
    );
    assert.equal(learned.vocabulary.length, base + m, where);
  }
});

test("step 5: the new line's characters, bytes, tokens, the merges used and the unknown characters", () => {
  const seen = { unknown: 0, applied: 0, none: 0 };
  for (const s of states) {
    const L = lab("bpe", s);
    const where = `${s.name} ${s.merges}${s.bytes ? " bytes" : ""}${s.presplit ? " presplit" : ""}`;
    const { encoded, learned } = L.trace;
    const chars = charsOf(s.line);
    const text = L.text("encode");
    says(
      text,
      {
        en: String.raw`Its (?<c>[\d,]+) characters \((?<b>[\d,]+) bytes\) start as (?<i>[\d,]+) tokens?, one per (?:character|byte);.* It is (?<t>[\d,]+) tokens?\.`,
        zh: String.raw`它的 (?<c>[\d,]+) 个字符（(?<b>[\d,]+) 个字节）先是 (?<i>[\d,]+) 个词元，每个(?:字符|字节)一个；.*结果是 (?<t>[\d,]+) 个词元。`,
      },
      {
        c: n(chars.length),
        b: n(encoder.encode(chars.join("")).length),
        i: n(s.bytes ? encoder.encode(chars.join("")).length : chars.length),
        t: n(encoded.count),
      },
      where,
    );
    const drawn = pick(L.panel("encode", "encoded"), (node) => chips(node).length);
    for (const lang of langs) assert.equal(drawn[lang], encoded.count, where);
    // the merges used, each with how often: the tokens fall by as many
    const used = encoded.applied.reduce((sum, a) => sum + a.replaced, 0);
    assert.equal(encoded.initial.count - used, encoded.count, where);
    if (encoded.applied.length) {
      seen.applied++;
      const listed = pick(text, (t) =>
        [...t.matchAll(/merge (\d+) \(|第 (\d+) 次（/g)].map((x) => Number(x[1] ?? x[2])),
      );
      for (const lang of langs) {
        assert.deepEqual(
          listed[lang],
          encoded.applied.map((a) => a.merge + 1),
          `${where} ${lang}`,
        );
      }
    } else if (learned.steps.length) {
      seen.none++;
      says(
        text,
        {
          en: String.raw`None of the (?<m>[\d,]+) merges learned applies`,
          zh: String.raw`学到的 (?<m>[\d,]+) 次合并没有一次用得上`,
        },
        { m: n(learned.steps.length) },
        where,
      );
    }
    // the characters the line has and the text has not, in the line's order
    const unknown = s.bytes ? [] : chars.filter((c) => !charsOf(s.text).includes(c));
    if (unknown.length) {
      seen.unknown++;
      says(
        text,
        {
          en: String.raw`(?<u>[\d,]+) of its tokens are characters your text never had \((?<chars>[^)]+)\)`,
          zh: String.raw`其中 (?<u>[\d,]+) 个词元是你的文字里从没出现过的字（(?<chars>[^）]+)）`,
        },
        { u: n(unknown.length), chars: unknown.join(" ") },
        where,
      );
    } else {
      for (const lang of langs) assert.doesNotMatch(text[lang], /never had|从没出现过/, where);
    }
  }
  for (const [kind, times] of Object.entries(seen)) assert.ok(times > 0, `${kind}: ${times}`);
});

// GPT-2's pre-split, its regular expression as its encoder's code writes it.
const gpt2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

test("step 6: the first merges from bytes, the merge across a word's end, GPT-2's own pieces", () => {
  const L = lab("bpe");
  const { real } = L.trace;
  const v = (learned, k) => learned.vocabulary[learned.steps[k].id];
  // from bytes, the first merge whose token is two whole characters; none before it is
  const words = real.bytes.steps
    .map((_, k) => v(real.bytes, k))
    .map((t) => t.whole && [...t.text].length > 1);
  const firstWord = words.indexOf(true) + 1;
  assert.ok(firstWord > 3, `${firstWord}`);
  // without the pre-split, the first merge that ends a word with the space after it
  const crossing = real.whole.steps.findIndex((_, k) => /[a-z.] /.test(v(real.whole, k).text)) + 1;
  assert.ok(crossing > 0);
  for (const s of real.split.steps.map((_, k) => v(real.split, k).text)) {
    assert.doesNotMatch(s, /\S /, `with the pre-split, no space after a word: “${s}”`);
  }
  const line = "the cat sat on the mat.";
  const pieces = line
    .match(gpt2)
    .map((p) => `“${p.replace(/ /g, "␣")}”`)
    .join(" ");
  const shown = (k) => q(nameOf(v(real.bytes, k)));
  says(
    L.text("real"),
    {
      en: String.raw`\((?<b0>.+?), (?<b1>.+?), (?<b2>.+?) …\), and merge (?<w>\d+) is the first to join two characters, (?<word>.+?)\. .* merge (?<x>\d+) makes (?<made>.+?), a word's end .* The pieces of “(?<line>.+?)”, (?<pieces>.+?), are the ones GPT-2's expression gives\.`,
      zh: String.raw`（(?<b0>.+?)、(?<b1>.+?)、(?<b2>.+?)……），第 (?<w>\d+) 次合并才第一次把两个字连在一起：(?<word>.+?)。.*第 (?<x>\d+) 次合并造出 (?<made>.+?)：一个词的结尾.*“(?<line>.+?)”切成的 (?<pieces>.+?)，和 GPT-2 的正则表达式切出的一样`,
    },
    {
      b0: shown(0),
      b1: shown(1),
      b2: shown(2),
      w: firstWord,
      word: shown(firstWord - 1),
      x: crossing,
      made: q(nameOf(v(real.whole, crossing - 1))),
      line,
      pieces,
    },
    "real",
  );
  // the tables beside it hold the same merges
  const tables = pick(L.panel("real", "real"), (node) => textOf(node));
  for (const lang of langs) {
    assert.ok(tables[lang].includes(nameOf(v(real.whole, crossing - 1)).text), lang);
  }
});

test("a refusal in Chinese: the text too long, the new line empty", () => {
  const zh = L0().at("zh", "text").msg;
  assert.equal(
    zh.coreError(
      "the text has 2001 characters (line breaks count); at most 2000 are read here, so that every token can be shown",
    ),
    "这段文字有 2001 个字符（换行也算）；这里最多读 2000 个，好让每个词元都能显示出来",
  );
  assert.equal(zh.coreError("the new line: the text is empty"), "新的一行：文字是空的");
  assert.throws(() => lab("bpe", { line: "" }), { message: "the new line: the text is empty" });
  // the text the sentences read is the one on the page, without the words of another language
  const L = L0();
  for (const step of L.steps) {
    const t = L.text(step);
    assert.doesNotMatch(t.zh, /\b(?:tokens?|merges?|characters?)\b/, step);
  }
});

const L0 = () => lab("bpe");
