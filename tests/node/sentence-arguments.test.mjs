// sentence-arguments.test.mjs: each number of a sentence beside its own name, in English and in
// Chinese. A sentence of the labs' words is a function of its numbers; called with a different,
// recognisable value for each argument, every value must come right after the words that name
// it (the training loss after "training loss", 训练损失), so that two arguments swapped in one
// language's template, the planted bugs that got through most, fail here.
import { test } from "node:test";
import assert from "node:assert/strict";
import en from "../../web/i18n/en.js";
import zh from "../../web/i18n/zh.js";
import { gptWords } from "../../web/labs/gpt/words.js";
import { textWords } from "../../web/labs/gpt/text-words.js";
import { inductionWords } from "../../web/labs/gpt/induction-words.js";

// The one function called `name` in a words object, at any depth.
function find(words, name) {
  if (typeof words?.[name] === "function") return words[name];
  for (const value of Object.values(words ?? {})) {
    if (value && typeof value === "object") {
      const found = find(value, name);
      if (found) return found;
    }
  }
  return undefined;
}

// [words by language, the function's name, its arguments, { en: [...], zh: [...] }: each a
// name followed by its value, as the sentence must read]
const sentences = [
  [
    textWords,
    "loadedNow",
    ["m.json", 345, "2.2222", "3.3333"],
    {
      en: [
        "Loaded from m.json",
        "trained 345 steps",
        "on this text is 2.2222",
        "description says 3.3333",
      ],
      zh: ["已从 m.json 载入", "训练了 345 步", "留出损失是 2.2222", "说明里记的是 3.3333"],
    },
  ],
  [
    textWords,
    "memorising",
    ["1.1111", 22, "3.3333", "4.4444"],
    {
      en: ["lowest, 1.1111, at step 22", "is 3.3333 now", "training loss is 4.4444"],
      zh: ["第 22 步最低，是 1.1111", "现在是 3.3333", "训练损失现在是 4.4444"],
    },
  ],
  [
    gptWords,
    "without",
    [
      ["head A"],
      "its place",
      { characters: 111, marks: 22 },
      ["1.1", "2.2"],
      ["3.3", "4.4"],
      [5, 6],
    ],
    {
      en: [
        "the 111 held-out characters goes from 1.1 to 2.2",
        "the 22 punctuation marks from 3.3 to 4.4",
        "from about 1 in 5 to 1 in 6",
      ],
      zh: [
        "111 个留出的字上的损失从 1.1 变成 2.2",
        "22 个标点上的损失从 3.3 变成 4.4",
        "从大约 5 分之 1 变成 6 分之 1",
      ],
    },
  ],
  [
    textWords,
    "keptNow",
    [345, 2000],
    { en: ["after 345 of 2000 training steps"], zh: ["训练了 345 步", "共 2000 步"] },
  ],
  [
    inductionWords,
    "training",
    [101, 1000, "33.3", 44],
    {
      en: ["step 101 of 1000", "44 s on the clock", "33.3 steps per second"],
      zh: ["第 101 步", "共 1000 步", "用时 44 秒", "每秒 33.3 步"],
    },
  ],
  [
    gptWords,
    "trainStatus",
    [101, 2000, "33.3", "1.1111", "2.2222", 7 * 60, 44],
    {
      en: [
        "step 101 of 2000",
        "after 44 s",
        "33.3 steps per second",
        "training loss 1.1111",
        "held-out loss 2.2222",
        "About 7 min",
      ],
      zh: [
        "第 101 个训练步，共 2000 个",
        "已用 44 秒",
        "每秒 33.3 步",
        "训练损失 1.1111",
        "留出损失 2.2222",
        "还要 7 分钟",
      ],
    },
  ],
  [
    gptWords,
    "trainPaused",
    [101, 2000, "33.3", "1.1111", "2.2222"],
    {
      en: ["step 101 of 2000", "training loss 1.1111", "held-out loss 2.2222"],
      zh: ["第 101 个训练步，共 2000 个", "训练损失 1.1111", "留出损失 2.2222"],
    },
  ],
  [
    textWords,
    "text",
    [{ steps: 1999, lr: "0.003", next: "0.01" }],
    {
      en: [
        "η = 0.01 applies when you start again",
        "trained with η = 0.003",
        "trains 1999 steps",
        "by about η = 0.01 at most",
      ],
      zh: [
        "η = 0.01 要到重新开始时才用上",
        "用的是 η = 0.003",
        "训练 1999 步",
        "挪动大约 η = 0.01",
      ],
    },
    (words) => words.steps.train,
  ],
  [
    gptWords,
    "trainFrom",
    [46, 2000, 500],
    {
      en: ["from step 46 of 2000", "every 500 steps"],
      zh: ["从第 46 个训练步开始，共 2000 个", "每 500 步"],
    },
  ],
  [
    gptWords,
    "trainPassed",
    [500, 2000, "1.1111", "2.2222"],
    {
      en: ["Training step 500 of 2000", "training loss 1.1111", "held-out loss 2.2222"],
      zh: ["第 500 个训练步已完成，共 2000 个", "训练损失 1.1111", "留出损失 2.2222"],
    },
  ],
  [
    gptWords,
    "loadedStatus",
    ["m.json", 345, "2.2222"],
    {
      en: ["Loaded from m.json", "trained 345 steps", "held-out loss 2.2222"],
      zh: ["已从 m.json 载入", "训练了 345 步", "留出损失 2.2222"],
    },
  ],
  [
    textWords,
    "levelsLine",
    [57, "4.0431", "3.1111", "2.2222", "0.7000", "0.3000", 999],
    {
      en: [
        "over the 57 tokens",
        "= 4.0431 nats",
        "(a unigram model) scores 3.1111",
        "its pairs' share 0.7000",
        "the unigram's 0.3000",
        "not impossible) scores 2.2222",
        "of the 999 held-out tokens",
      ],
      zh: [
        "押在 57 个词元上",
        "= 4.0431 奈特",
        "（一元模型），得 3.1111",
        "字对的部分占 0.7000",
        "一元模型占 0.3000",
        "概率为零），得 2.2222",
        "的 999 个词元",
      ],
    },
  ],
  [
    textWords,
    "splitLine",
    [31, { train: 25, heldOut: 3, validation: 4 }, 8000, 1001, 999],
    {
      en: [
        "31 pieces",
        "25 train the model (8000 tokens)",
        "3 held out to measure it (999 tokens)",
        "4 kept for choosing (1001 tokens)",
      ],
      zh: [
        "共 31 个片段",
        "25 个用来训练（8000 个词元）",
        "3 个留出，用来衡量模型（999 个词元）",
        "4 个留着做选择（1001 个词元）",
      ],
    },
  ],
  [
    { en, zh },
    "text",
    [4, "0.5"],
    {
      en: ["√d_k = √4", "multiply it by 0.5", "here 4"],
      zh: ["√d_k = √4", "乘以 0.5", "这里是 4"],
    },
    (words) => words.steps.scaled,
  ],
  [
    { en, zh },
    "result",
    ["19.4729", "19", "19.75"],
    {
      en: ["Attention gives 19.4729", "(18, 20 and 19) is 19;", "mean of all four is 19.75"],
      zh: ["注意力给出 19.4729", "精确查找（18、20、19）是 19；", "简单平均是 19.75"],
    },
    (words) => words.scenes.age,
  ],
  [
    { en, zh },
    "rowsDrawn",
    [11, 22, 61],
    { en: ["Rows 11–22 of 61"], zh: ["第 11–22 行（共 61 行）"] },
  ],
  [
    { en, zh },
    "range",
    [11, "我", "。"],
    { en: ["the 11 from 我 to 。"], zh: ["从我到。的 11 个词"] },
  ],
  [
    { en, zh },
    "score",
    [2, 3],
    { en: ["2 of 3 right"], zh: ["共 3 题", "答对 2 题"] },
    (words) => words.quiz,
  ],
  [
    { en, zh },
    "lesson",
    ["1 Walkthroughs", 2, 3],
    { en: ["2 of 3 right"], zh: ["共 3 题", "答对 2 题"] },
    (words) => words.quiz.sheet,
  ],
];

for (const [words, name, args, expected, at] of sentences) {
  for (const lang of ["en", "zh"]) {
    if (!expected[lang]) continue;
    test(`${name} (${lang}): each number beside its own name`, () => {
      const f = find(at ? at(words[lang]) : words[lang], name);
      assert.equal(typeof f, "function", `${name} in ${lang}`);
      const said = f(...args);
      for (const part of expected[lang]) assert.ok(said.includes(part), `"${part}" in: ${said}`);
    });
  }
}
