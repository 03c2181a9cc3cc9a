// labs/real/bpe-words.js: every string of the BPE lab (bpe.js), in English and Chinese. Every
// number in a sentence is a field of the core's trace (BpeTrace, BpeEncoded: src/bpe.hpp), handed
// over by bpe.js's factsOf(), or a sum or difference of two of them written out (base + m,
// before − replaced).

// 1,024 (both languages write thousands so)
const n = (x) => x.toLocaleString("en");
// a token as a sentence names it: its text in quotes, or its bytes in hex when not whole
const q = (t) => (t.whole ? `“${t.text}”` : t.text);
const pairOf = (p) => `${q(p.left)} + ${q(p.right)}`;
const times = (x) => `${n(x)} time${x === 1 ? "" : "s"}`;
const tokensEn = (x) => `${n(x)} token${x === 1 ? "" : "s"}`;

// the new line's refusal, and the core's own, in Chinese
const refusals = [
  [/^the text is empty$/, () => "文字是空的"],
  [/^the text has only line breaks$/, () => "文字里只有换行"],
  [
    /^the text has (\d+) characters \(line breaks count\); at most (\d+) are read here, so that every token can be shown$/,
    (a, b) => `这段文字有 ${a} 个字符（换行也算）；这里最多读 ${b} 个，好让每个词元都能显示出来`,
  ],
  [
    /^the text holds the control character U\+(\w{4}) at character ([\d,]+): is it a binary file\?$/,
    (hex, at) => `文字的第 ${at} 个字符是控制字符 U+${hex}：这是二进制文件吗？`,
  ],
  [
    /^text holds a lone surrogate \(U\+(\w+)\) at character (\d+), not text$/,
    (hex, at) => `文字的第 ${at} 个字符是落单的代理码元（U+${hex}），不是文字`,
  ],
];
const zhError = (message) => {
  for (const [pattern, say] of refusals) {
    const m = message.match(pattern);
    if (m) return say(...m.slice(1));
  }
  return message;
};

const en = {
  coreErrors: [],
  ui: {
    line: "A new line",
    merges: "Merges learned",
    bytes: "Start from UTF-8 bytes, as GPT-2 does",
    presplit: "Pre-split: never merge across words, numbers, spaces and punctuation",
  },
  bpeLab: {
    presetsLabel: "Texts to try",
    presetNames: { tang: "Tang lines (明月)", english: "English", ah: "啊啊啊啊" },
    textLabel: "Your text (any language, up to 2,000 characters)",
    textHint: "Type or paste, then learn from it; a line break is a boundary.",
    use: "Learn from this text",
    initialCaption: (t) => `Your text as ${t.start}: ${tokensEn(t.initial.count)}`,
    beforeCaption: (x) => `Before the merge: ${tokensEn(x)} (the pair's places numbered)`,
    afterCaption: (x) => `After it: ${tokensEn(x)} (the new token shaded)`,
    encodedCaption: (x) => `The new line: ${tokensEn(x)}`,
    pairsTable: (listed, distinct) => `The ${n(listed)} most frequent of ${n(distinct)} pairs`,
    mergesTable: "The merges learned, in order",
    bytesTable: "From bytes: the first merges on the Tang lines",
    splitTable: "The English lines: the first merges without and with the pre-split",
    piecesCaption: (line) => `The pre-split's pieces of “${line}”`,
    columns: {
      count: "count",
      first: "first at token (counted from the start)",
      replaced: "merged",
      tokens: "tokens after",
      made: "token made",
      withoutSplit: "without pre-split",
      withSplit: "with pre-split",
    },
    derive: {
      count: (name, count, places) =>
        places
          ? `${name}: at tokens ${places.join(", ")}: ${n(count)} places`
          : `${name}: ${n(count)} places, counted by the core at every token`,
      first: (name, at) => `${name} first occurs at token ${n(at)}`,
      replaced: (count, replaced) =>
        `${n(replaced)} of its ${n(count)} places merged, left to right without overlap`,
    },
    say: {
      text: (t) => {
        const start =
          t.start === "bytes"
            ? `From bytes, as GPT-2 and Qwen begin, each character is its bytes in UTF-8, 1 to 4 of them (明 is E6 98 8E): ${n(t.characters)} characters are ${tokensEn(t.tokens)}, and the vocabulary begins with all ${n(t.base)} bytes, ids 0 to 255, a byte's id the byte itself (a byte that is only part of a character shows as hex).`
            : `From characters, each is a token to begin with: ${tokensEn(t.tokens)}, and the vocabulary begins with its ${n(t.base)} different characters, ids 0 to ${n(t.base - 1)} in the order they first appear (under each, its id #).`;
        const split = t.presplit
          ? ` The pre-split is on: each line is first cut into pieces (a word with the space before it, a number, spaces, punctuation), ${n(t.pieces)} here, set apart below, and no merge crosses two pieces.`
          : "";
        return `A model never reads letters or characters: it reads numbers, one per token, each token's id in its vocabulary, and the vocabulary decides how many tokens a text costs (the lab before this one showed how differently GPT-2 and GPT-4o cut the same 我爱你). BPE builds such a vocabulary: start from single characters, count every pair of neighbours, merge the most frequent pair into one new token, and again. Here you do it by hand on your text, one merge at a time. It has ${n(t.characters)} characters on ${n(t.lines)} line${t.lines === 1 ? "" : "s"}. ${start}${split} A line break is a boundary: no pair spans two lines.`;
      },
      count: (c) => {
        const best = c.best;
        if (c.m === 0) {
          if (!best) return "This text has no two neighbouring tokens: there is nothing to merge.";
          if (c.stopped) {
            return `No pair occurs twice in this text (the most frequent, ${pairOf(best)}, occurs once): there is nothing to merge.`;
          }
          return `No merge yet (k = 0). Count every pair of neighbouring tokens, at every place, overlapping ones too: the ${tokensEn(c.tokens)} hold ${n(c.distinct)} different pairs, and the most frequent is ${pairOf(best)}, ${times(best.count)}. Move k to 1 to merge it.`;
        }
        const tie =
          c.tied > 1
            ? ` ${n(c.tied)} pairs occur ${times(best.count)}; the rule here takes the one that occurs first in the text: ${pairOf(best)}, at token ${n(best.first + 1)}.`
            : "";
        const stop = !c.stopped
          ? ""
          : c.next
            ? ` You asked for ${n(c.asked)} merges: after ${n(c.m)}, no pair occurs twice (the most frequent, ${pairOf(c.next)}, occurs once), so learning stopped there.`
            : ` You asked for ${n(c.asked)} merges: after ${n(c.m)}, no pair is left, so learning stopped there.`;
        return `Merge ${n(c.m)}: count every pair of neighbouring tokens, at every place, overlapping ones too (啊啊啊 holds 啊啊 twice). The ${tokensEn(c.tokens)} below hold ${n(c.distinct)} different pairs; the table lists the ${n(c.listed)} most frequent. The most frequent is ${pairOf(best)}: ${times(best.count)}, numbered 1 to ${n(best.count)} below, for you to count.${tie}${stop}`;
      },
      merge: (s, facts) => {
        if (!s) {
          return facts.count.stopped
            ? "Nothing was merged: no pair occurs twice in this text."
            : "No merge yet (k = 0): move k to 1 or more.";
        }
        const overlap =
          s.replaced < s.count
            ? ` The other ${n(s.count - s.replaced)} overlap a place already merged (in 啊啊啊 the middle 啊 can join one pair only), so they are not.`
            : "";
        const piece = s.made.whole
          ? ""
          : " Its bytes are not yet whole characters, so it shows as hex.";
        return `${q(s.left)} + ${q(s.right)} becomes one token, #${s.id}: ${q(s.made)}. Of its ${n(s.count)} places, ${n(s.replaced)} are merged, left to right.${overlap} The text goes from ${tokensEn(s.before)} to ${n(s.before)} − ${n(s.replaced)} = ${n(s.after)}.${piece}`;
      },
      vocabulary: (v) => {
        const what = v.start === "bytes" ? "bytes" : "characters";
        const next =
          v.next && v.next.count > 1
            ? ` Next would come ${pairOf(v.next)}, ${times(v.next.count)}.`
            : " No pair occurs twice now: another merge would only learn this text by heart.";
        if (v.m === 0) {
          return `No merge yet (k = 0): the vocabulary is the ${n(v.base)} ${what} it began with. Move k up to learn merges.${next}`;
        }
        return `The vocabulary now: the ${n(v.base)} ${what} it began with and ${n(v.m)} merged token${v.m === 1 ? "" : "s"}, ${n(v.base)} + ${n(v.m)} = ${n(v.size)}. The table gives each merge's count, how many places it merged and the tokens left after it: the text went from ${tokensEn(v.initial)} to ${n(v.final)}, each merge taking away as many tokens as it merged.${next}`;
      },
      encode: (e) => {
        const unit = e.start === "bytes" ? "one per byte" : "one per character";
        const applied = e.applied.length
          ? `The merges that apply: ${e.applied.map((a) => `merge ${n(a.merge)} (${q(a.made)}, ${times(a.replaced)})`).join(", ")}.`
          : e.m
            ? `None of the ${n(e.m)} merges learned applies to it.`
            : "No merge has been learned yet (k = 0).";
        const unknown = e.unknown
          ? ` ${n(e.unknown)} of its tokens are characters your text never had (${e.unknownChars.join(" ")}): a vocabulary built from characters has no token for them (#?). This is why real tokenizers start from bytes: turn on “start from UTF-8 bytes” and nothing is unknown.`
          : "";
        return `A vocabulary is for reading new text: type a line. Its ${n(e.characters)} characters (${n(e.bytes)} bytes) start as ${tokensEn(e.initial)}, ${unit}; then each merge is tried in the order learned, each left to right. ${applied} It is ${tokensEn(e.count)}.${unknown}`;
      },
      real: (r) =>
        `Real tokenizers learn the same way, with differences. They start from bytes: learned from the Tang lines, the first merges only rebuild characters from their UTF-8 bytes (${r.bytesFirst.map(q).join(", ")} …), and merge ${n(r.firstWord)} is the first to join two characters, ${q(r.word)}. They pre-split: GPT-2 first cuts text with a regular expression into words (each with the space before it), numbers and punctuation, and never merges across them. On the English lines without it, merge ${n(r.crossing)} makes ${q(r.crossed)}, a word's end with the space after it; with it, the space goes with the next word. The pieces of “${r.line}”, ${r.pieces.map((p) => `“${p}”`).join(" ")}, are the ones GPT-2's expression gives. And they learn vocabularies of tens or hundreds of thousands of tokens from a great deal of text, break ties their own way, and add special tokens.`,
    },
  },
  steps: {
    text: { title: "Your text, as characters or bytes", text: "" },
    count: { title: "Count every pair", text: "" },
    merge: { title: "Merge the most frequent", text: "" },
    vocabulary: { title: "The vocabulary so far", text: "" },
    encode: { title: "Read a new line", text: "" },
    real: { title: "What real tokenizers do differently", text: "" },
  },
  scenes: {
    bpe: {
      title: "Build a vocabulary by hand",
      analogy:
        "Real models read pieces of text from a vocabulary learned by counting: here you count, merge and watch the vocabulary grow, one merge at a time.",
    },
  },
};

const zhTimes = (x) => `${n(x)} 次`;

const zh = {
  coreErrors: [...refusals, [/^the new line: (.+)$/, (inner) => `新的一行：${zhError(inner)}`]],
  ui: {
    line: "新的一行",
    merges: "学到的合并次数",
    bytes: "从 UTF-8 字节开始（GPT-2 就是这样）",
    presplit: "预切分：合并不跨越词、数字、空格和标点",
  },
  bpeLab: {
    presetsLabel: "试试这些文字",
    presetNames: { tang: "几行唐诗（明月）", english: "英文", ah: "啊啊啊啊" },
    textLabel: "你的文字（任何语言，最多 2000 个字符）",
    textHint: "输入或粘贴，然后从中学习；换行是边界。",
    use: "从这段文字学习",
    initialCaption: (t) =>
      `你的文字，按${t.start === "bytes" ? "字节" : "字符"}：${n(t.initial.count)} 个词元`,
    beforeCaption: (x) => `合并之前：${n(x)} 个词元（这一对出现的位置标了序号）`,
    afterCaption: (x) => `合并之后：${n(x)} 个词元（新词元加了底色）`,
    encodedCaption: (x) => `新的一行：${n(x)} 个词元`,
    pairsTable: (listed, distinct) => `${n(distinct)} 种对里最多的 ${n(listed)} 种`,
    mergesTable: "学到的合并，按顺序",
    bytesTable: "从字节开始：在唐诗上最初的几次合并",
    splitTable: "那几行英文：不预切分和预切分时最初的几次合并",
    piecesCaption: (line) => `“${line}”预切分成的小段`,
    columns: {
      count: "次数",
      first: "首次出现在第几个词元（从头数）",
      replaced: "合并处数",
      tokens: "合并后的词元数",
      made: "造出的词元",
      withoutSplit: "不预切分",
      withSplit: "预切分",
    },
    derive: {
      count: (name, count, places) =>
        places
          ? `${name}：在第 ${places.join("、")} 个词元，共 ${n(count)} 处`
          : `${name}：${n(count)} 处，由核心在每个位置数出`,
      first: (name, at) => `${name} 第一次出现在第 ${n(at)} 个词元`,
      replaced: (count, replaced) => `${n(count)} 处里从左到右、不重叠地合并了 ${n(replaced)} 处`,
    },
    say: {
      text: (t) => {
        const start =
          t.start === "bytes"
            ? `从字节开始（GPT-2 和 Qwen 就是这样），每个字符是它的 UTF-8 字节，1 到 4 个（“明”是 E6 98 8E）：${n(t.characters)} 个字符是 ${n(t.tokens)} 个词元，词表一开始是全部 ${n(t.base)} 个字节，编号 0 到 255，就是字节本身（只是一个字的一部分的字节，显示成十六进制）。`
            : `从字符开始，每个字符先是一个词元：${n(t.tokens)} 个词元，词表一开始就是它的 ${n(t.base)} 个不同的字符，按第一次出现的顺序编号 0 到 ${n(t.base - 1)}（每个字下面的 #）。`;
        const split = t.presplit
          ? `预切分打开了：每行先切成小段（一个词连同它前面的空格、一串数字、空格、标点），这里共 ${n(t.pieces)} 段，下面分开显示，合并从不跨段。`
          : "";
        return `模型从来不读字母或汉字：它读的是数，每个词元一个，就是这个词元在词表里的编号；词表决定了一段文字要花多少个词元（上一个实验里，同一句“我爱你”，GPT-2 和 GPT-4o 切法就很不一样）。BPE 就是造这种词表的办法：从单个的字开始，数出每一对相邻的符号，把出现最多的一对合并成一个新词元，然后再来一遍。这里你在自己的文字上亲手做，一次合并一步。这段文字有 ${n(t.characters)} 个字符，共 ${n(t.lines)} 行。${start}${split}换行是边界：任何一对都不跨行。`;
      },
      count: (c) => {
        const best = c.best;
        if (c.m === 0) {
          if (!best) return "这段文字里没有两个相邻的词元：没有什么可合并的。";
          if (c.stopped) {
            return `这段文字里没有哪一对出现两次（最多的 ${pairOf(best)} 也只出现 1 次）：没有什么可合并的。`;
          }
          return `还没有合并（k = 0）。数出每一对相邻的词元，每个位置都数，重叠的也算：这 ${n(c.tokens)} 个词元里有 ${n(c.distinct)} 种不同的对，最多的是 ${pairOf(best)}，${zhTimes(best.count)}。把 k 拉到 1 就会合并它。`;
        }
        const tie =
          c.tied > 1
            ? `有 ${n(c.tied)} 种对都出现 ${zhTimes(best.count)}；这里的规则取在文字里最先出现的那一种：${pairOf(best)}，在第 ${n(best.first + 1)} 个词元。`
            : "";
        const stop = !c.stopped
          ? ""
          : c.next
            ? `你要了 ${n(c.asked)} 次合并：合并 ${n(c.m)} 次之后，再没有哪一对出现两次（最多的 ${pairOf(c.next)} 只出现 1 次），学习就停在这里。`
            : `你要了 ${n(c.asked)} 次合并：合并 ${n(c.m)} 次之后，一对也不剩了，学习就停在这里。`;
        return `第 ${n(c.m)} 次合并：数出每一对相邻的词元，每个位置都数，重叠的也算（“啊啊啊”里“啊啊”算两次）。下面这 ${n(c.tokens)} 个词元里有 ${n(c.distinct)} 种不同的对；表里列出最多的 ${n(c.listed)} 种。最多的是 ${pairOf(best)}：${zhTimes(best.count)}，下面按 1 到 ${n(best.count)} 标了出来，可以自己数。${tie}${stop}`;
      },
      merge: (s, facts) => {
        if (!s) {
          return facts.count.stopped
            ? "什么也没有合并：这段文字里没有哪一对出现两次。"
            : "还没有合并（k = 0）：把 k 拉到 1 或更大。";
        }
        const overlap =
          s.replaced < s.count
            ? `另外 ${n(s.count - s.replaced)} 处和已经合并的一处重叠（“啊啊啊”中间的“啊”只能归一对），所以没有合并。`
            : "";
        const piece = s.made.whole ? "" : "它的字节还不是完整的字，所以显示成十六进制。";
        return `${q(s.left)} + ${q(s.right)} 合并成一个词元，#${s.id}：${q(s.made)}。它的 ${n(s.count)} 处里，从左到右合并了 ${n(s.replaced)} 处。${overlap}文字从 ${n(s.before)} 个词元变成 ${n(s.before)} − ${n(s.replaced)} = ${n(s.after)} 个。${piece}`;
      },
      vocabulary: (v) => {
        const what = v.start === "bytes" ? "字节" : "字符";
        const next =
          v.next && v.next.count > 1
            ? `下一次会合并 ${pairOf(v.next)}，${zhTimes(v.next.count)}。`
            : "现在没有哪一对出现两次了：再合并就只是在死记这段文字。";
        if (v.m === 0) {
          return `还没有合并（k = 0）：词表就是一开始的 ${n(v.base)} 个${what}。把 k 往上拉，就能学到合并。${next}`;
        }
        return `现在的词表：一开始的 ${n(v.base)} 个${what}，加上合并出的 ${n(v.m)} 个词元，${n(v.base)} + ${n(v.m)} = ${n(v.size)} 个。表里是每次合并的次数、合并了几处、合并后剩下的词元数：文字从 ${n(v.initial)} 个词元变成 ${n(v.final)} 个，每次合并减少的词元数正好是它合并的处数。${next}`;
      },
      encode: (e) => {
        const unit = e.start === "bytes" ? "每个字节一个" : "每个字符一个";
        const applied = e.applied.length
          ? `用上的合并：${e.applied.map((a) => `第 ${n(a.merge)} 次（${q(a.made)}，${n(a.replaced)} 处）`).join("、")}。`
          : e.m
            ? `学到的 ${n(e.m)} 次合并没有一次用得上。`
            : "还没有学到合并（k = 0）。";
        const unknown = e.unknown
          ? `其中 ${n(e.unknown)} 个词元是你的文字里从没出现过的字（${e.unknownChars.join(" ")}）：从字符造的词表里没有它们（#?）。真实的分词器从字节开始，原因就在这里：打开“从 UTF-8 字节开始”，就没有不认识的字了。`
          : "";
        return `词表是用来读新文字的：输入一行。它的 ${n(e.characters)} 个字符（${n(e.bytes)} 个字节）先是 ${n(e.initial)} 个词元，${unit}；然后按学到的顺序逐一尝试每次合并，每次都从左到右。${applied}结果是 ${n(e.count)} 个词元。${unknown}`;
      },
      real: (r) =>
        `真实的分词器也是这样学的，但有几处不同。它们从字节开始：在那几行唐诗上学，最初的几次合并只是把字节拼回汉字（${r.bytesFirst.map(q).join("、")}……），第 ${n(r.firstWord)} 次合并才第一次把两个字连在一起：${q(r.word)}。它们先预切分：GPT-2 先用一个正则表达式把文字切成词（每个词带着它前面的空格）、数字和标点，合并从不跨越它们。在那几行英文上，不预切分时，第 ${n(r.crossing)} 次合并造出 ${q(r.crossed)}：一个词的结尾连着它后面的空格；预切分之后，空格跟着后一个词走。“${r.line}”切成的 ${r.pieces.map((p) => `“${p}”`).join(" ")}，和 GPT-2 的正则表达式切出的一样。此外，它们从大量文字中学出几万到几十万个词元的词表，平局各有各的取法，还另加特殊词元。`,
    },
  },
  steps: {
    text: { title: "你的文字：字符或字节", text: "" },
    count: { title: "数出每一对", text: "" },
    merge: { title: "合并最多的一对", text: "" },
    vocabulary: { title: "到目前为止的词表", text: "" },
    encode: { title: "读一行新的文字", text: "" },
    real: { title: "真实的分词器有何不同", text: "" },
  },
  scenes: {
    bpe: {
      title: "亲手造一个词表",
      analogy:
        "真实的模型读的是词表里的文字片段，而词表是数出来的：在这里亲手数、合并，看词表一次合并一步地长出来。",
    },
  },
};

export const bpeWords = { en, zh };
