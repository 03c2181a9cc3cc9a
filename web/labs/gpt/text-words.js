// labs/gpt/text-words.js: the own-text lab's strings, in English and in Chinese (the trainer's
// own come from the model lab's words). Its name in the scene list is in labs/names.js.

const presetEn = {
  tang300: "唐诗三百首 (Tang poems)",
  song100: "宋诗一百首 (Song poems)",
  genesis: "Genesis (King James Bible)",
};
const presetZh = {
  tang300: "唐诗三百首",
  song100: "宋诗一百首",
  genesis: "《创世记》（英文钦定本圣经）",
};

// A number as the Chinese words write it: no thousands commas (the core writes 3,000).
const plain = (n) => n.replaceAll(",", "");

// What the core says of a text it refuses (src/text.cpp), of a run that diverged (src/gpt.cpp)
// and of a model's files that do not fit (gpt_file.cpp, text.js), and how to say it in Chinese.
const refusals = [
  [
    /^the text is empty: paste or drop a text, or pick one$/,
    () => "文字是空的：请粘贴或拖入一段文字，或者选一个预设",
  ],
  [
    /^the text is too short to hold a tenth of it out: ([\d,]+) lines?, ([\d,]+) characters; it needs 10 lines or 1,000 characters at least$/,
    (lines, chars) =>
      `文字太短，留不出十分之一：${plain(lines)} 行，${plain(chars)} 个字符；至少需要 10 行或 1000 个字符`,
  ],
  [
    /^the text is one character only \(“(.+)”, ([\d,]+) times\): a model of it has nothing to learn$/,
    (c, n) => `文字只有一个字符（“${c}”，${plain(n)} 次）：模型从中学不到东西`,
  ],
  [
    /^only (\d+) of the text's ([\d,]+) characters appear twice in its training part \(8 pieces in 10\): a model needs 2 at least, or everything it reads is the unknown token$/,
    (n, d) =>
      `文字的 ${plain(d)} 个字符里，只有 ${n} 个在训练部分（十个片段中的八个）出现两次：至少需要 2 个，否则模型读到的全是未知词元`,
  ],
  [
    /^the text is too short: its held-out tenth has ([\d,]+) tokens and the part for choosing ([\d,]+); each needs 2 at least$/,
    (a, b) =>
      `文字太短：留出的十分之一只有 ${plain(a)} 个词元，用来选择的部分有 ${plain(b)} 个；每部分至少需要 2 个`,
  ],
  [
    /^the text has more than 1,048,576 bytes \(1 MiB\), the most the lab reads$/,
    () => "文字超过 1048576 字节（1 MiB），这是本实验最多能读的量",
  ],
  [
    /^the text is not UTF-8: the bytes from byte ([\d,]+) \(0x(\w\w)\) are not a character; is it a binary file\?$/,
    (n, hex) =>
      `文字不是 UTF-8 编码：从第 ${plain(n)} 个字节（0x${hex}）起的几个字节不是一个字符；这是二进制文件吗？`,
  ],
  [
    /^the text holds the control character U\+(\w{4}) at character ([\d,]+): is it a binary file\?$/,
    (hex, n) => `文字的第 ${plain(n)} 个字符是控制字符 U+${hex}：这是二进制文件吗？`,
  ],
  [/^the logits overflow: the parameters are too large$/, () => "logits 溢出了：参数太大"],
  [/^a gradient overflows: the loss is too steep$/, () => "梯度溢出了：损失太陡"],
  [
    /^no text number (\d+) in this tab: paste or drop one, or pick a preset$/,
    (n) => `这个标签页里没有第 ${n} 号文字：请粘贴或拖入一段，或者选一个预设`,
  ],
  [
    /^chars: the model's vocabulary \((\d+) tokens, “(.*)”\) is not this text's \((\d+) tokens, “(.*)”\): load it with the text it was trained on$/,
    (a, x, b, y) =>
      `chars：模型的词表（${a} 个词元，“${x}”）不是这段文字的（${b} 个词元，“${y}”）：请和训练它的那段文字一起载入`,
  ],
  [
    /^config\.(\w+) is (.+), but this lab's models have (.+)$/,
    (field, a, b) => `config.${field} 是 ${a}，而这个实验的模型是 ${b}`,
  ],
  [
    /^the weights file has ([\d,]+) bytes but this model \((.+)\) needs ([\d,]+): it is ([\d,]+) bytes? too (short|long) \(.+\)$/,
    (has, model, needs, off, way) =>
      `权重文件有 ${plain(has)} 字节，而这个模型（${model}）需要 ${plain(needs)} 字节：${
        way === "short"
          ? `少了 ${plain(off)} 字节（被截断了，或者是别的模型的权重）`
          : `多了 ${plain(off)} 字节（是别的模型的权重，或者后面还有别的东西）`
      }`,
  ],
  [/^the description is not JSON: (.+)$/, (why) => `说明文件不是 JSON：${why}`],
  [
    /^the description has no config: it is not a model's description \(its fields: (.+)\)$/,
    (fields) => `说明文件里没有 config：它不是模型的说明（它的字段：${fields}）`,
  ],
];

// A reason, ended once: no full stop after its own question mark.
const endEn = (why) => (/[.?!]$/.test(why) ? why : `${why}.`);
const endZh = (why) => (/[。？！.?!]$/.test(why) ? why : `${why}。`);

// the three simpler models by their keys, as a zh sentence names them
const zhModel = { uniform: "均匀模型", unigram: "一元模型", bigram: "二元模型" };

export const textWords = {
  en: {
    gloss: () => undefined,
    ui: { line: "Your line", layer: "Layer ℓ", head: "Head h", lr: "Learning rate η" },
    scenes: {
      text: {
        title: "A model of your own text",
        analogy:
          "A model learns a text only by trying to predict it, one character after another. Give it any text you like, a book, your notes, a program, and watch what it picks up, and how far it gets beyond counting.",
      },
    },
    steps: {
      text: {
        title: "Your text, as the model reads it",
        text: ({ name }) =>
          `Pick a preset or paste your own text, in any language, up to 1 MiB (or pick or drop a file). Nothing leaves this tab: this page's core reads it here. It reads it as the real model reads poems: a token per character, ⏎ at the end of each line, and one unknown token � for every character seen fewer than twice in the training part. Then it cuts the text into pieces (a line, or 100 characters of a longer line) and keeps two pieces in ten out of training: one, the held-out part, on which the model is measured, like an exam on questions it has never seen; the other to choose with (step 2). Now: ${name}.`,
      },
      levels: {
        title: "What counts as good: three simpler models",
        text: () =>
          "A loss alone means little. Before training, the core scores three models that need no training, on the same held-out tokens: one that knows nothing, one that counts characters, one that counts pairs. The model must beat them, the bigram above all, to show it has learned more than which character follows which.",
      },
      train: {
        title: "Train it",
        // next: the learning rate chosen, when the run drawn was trained with another (lr)
        text: ({ steps, lr, next }) =>
          `${next === undefined ? "" : `η = ${next} applies when you start again; the run shown was trained with η = ${lr}. `}Press Start: a transformer of the real model's shape (2 layers of 4 heads, 64 numbers per token, a context of 64 tokens) starts from random weights and trains ${steps} steps on your text, in this tab, each step moving every weight by about η = ${next ?? lr} at most (η: the learning rate, with AdamW). Watch the held-out loss (measured on the held-out part) against the dashed lines. Under the plot, what the model writes from a line's start: at first noise, then the text's characters, then its words and its shapes. If the held-out loss turns back up while the training loss goes on falling, the model is learning the training part by heart rather than what carries over to new text: a small text does that soon. A larger η learns faster, up to a point; far beyond it the loss climbs instead of falling (try η = 3).`,
      },
      keep: {
        title: "Keep what you trained",
        text: () =>
          "Download the model: two files, its weights (int8, a scale per row, as the real model's tang.bin) and its description (a JSON file: its shape, its vocabulary, how it was trained, its held-out loss). Load them back here, later or in another tab, with the same text: the lab checks every field before it uses them. The weights come back as the file holds them, rounded to int8: their held-out loss is the one the description gives for the file (heldOutInt8), a little off the trained weights' (heldOut). Nothing is sent anywhere: the files are made in this tab.",
      },
      heads: {
        title: "Its heads, on any line",
        text: ({ line }) =>
          `What every head looks at on a line, with the weights the training has reached (train first). The line now: “${line}” (a character the model does not know shows as �, as it reads it). Row = the token reading, column = the token read, darker = more of its weight: a dark cell just left of the diagonal is a head that looks at the token before; a dark first column, one that rests on ⏎, the line's start. Type another line, from your text or not; pick a head to see its weights larger.`,
      },
    },
    textLab: {
      presetName: presetEn,
      nameOf: (name) => presetEn[name] ?? name,
      presetsLabel: "Presets",
      pasteLabel: "Your own text",
      pastePlaceholder: "Paste a text here, or drop a file on it",
      useText: "Train on this text",
      fileLabel: "Or pick a file…",
      pastedName: "your text",
      refused: (name, why) => `${name}: not used: ${endEn(why)} The text before stays.`,
      now: (name) => `The text now: ${name}.`,
      noText:
        "No text yet: paste one, or pick or drop a file. (This copy of the page was built without its presets.)",
      noTextName: "none yet",
      readLine: (characters, lines, distinct, vocab) =>
        `${characters} characters in ${lines} lines, ${distinct} different ones. The vocabulary has ${vocab} tokens: ⏎, �, and the ${vocab - 2} characters seen at least twice in the training part (2000 tokens at most).`,
      unknownLine: (n, share) =>
        n === 0
          ? "Every character of the text is in the vocabulary: none is read as �."
          : `${n} characters of the text are read as � (${share}% of its tokens): too rare to learn one by one.`,
      // the pieces of each part (text.js's splitPieces), and their tokens
      splitLine: (pieces, part, train, validation, heldOut) =>
        `${pieces} pieces: ${part.train} train the model (${train} tokens); ${part.heldOut} held out to measure it (${heldOut} tokens); ${part.validation} kept for choosing (${validation} tokens): step 2 sets one number of its pair-counting model on it, as the real model's was used to choose its training step. Of every ten pieces in a row, the ninth is kept for choosing and the tenth held out.`,
      countsTitle: (n, rows) =>
        rows === 10
          ? `The ten most frequent tokens of the ${n} training tokens`
          : `All ${rows} tokens of the vocabulary, by their counts in the ${n} training tokens`,
      countHead: "count",
      shareHead: "share",
      tokenName: (t, ch) =>
        t === 0 ? "⏎ (line end)" : t === 1 ? "� (unknown)" : ch === " " ? "␣ (space)" : ch,
      levelsLine: (vocab, uniform, unigram, bigram, lambda, rest, targets) =>
        `Knowing nothing, a model spreads its bets evenly over the ${vocab} tokens: −ln(1/${vocab}) = ln ${vocab} = ${uniform} nats. Counting how often each token comes in the training part (a unigram model) scores ${unigram}; counting which token follows which (a bigram model, its pairs' share ${lambda} and the unigram's ${rest}, so that a pair never seen is not impossible) scores ${bigram}. Each is the mean −ln p of the ${targets} held-out tokens after the first.`,
      levelsTitle: (targets) =>
        `The loss of three simpler models on the ${targets} held-out tokens`,
      // the counting models worse than the simpler one before each: [[model, than, loss,
      // thanLoss]], one or both, said in one sentence
      worse: (pairs) =>
        ` Here ${pairs.map(([model, than, loss, thanLoss]) => `the ${model} model scores worse than the ${than} model (${loss} > ${thanLoss})`).join(", and ")}: what ${pairs.length > 1 ? "each" : "it"} counted in the training part holds less well in the held-out part than the simpler guess. The model must still beat the best of the three.`,
      unigramCaption: (rows) =>
        `p: the unigram model's probability for ${rows === 10 ? "the ten most frequent tokens" : `all ${rows} tokens`}, (count + 1) ÷ (training tokens + vocabulary): one more each, so that no token is impossible`,
      lossHead: "loss (nats)",
      modelName: { uniform: "uniform", unigram: "unigram", bigram: "bigram" },
      textPlot: (name) => `The loss while training here on ${name}`,
      samplesIntro: (count, temperature, every) =>
        `What the model writes from a line's start, a token at a time, each drawn from its probabilities (temperature τ = ${temperature}: below 1, the likelier tokens more often still), up to ${count} tokens or its first ⏎; at step 1, every ${every} steps and at the end; the latest three:`,
      memorising: (best, at, now, train) =>
        `The held-out loss was lowest, ${best}, at step ${at}, and is ${now} now, while the training loss is ${train}: the model is learning the training part by heart, not what carries over to text it has not seen. A larger text, or fewer steps, helps.`,
      sampleAt: (step) => `Step ${step}:`,
      trainFirst:
        "Train the model first (step 3): its heads are drawn with the weights it reaches.",
      download: "Download the model",
      loadLabel: "Load a model (its .json and .bin together)…",
      keepIntro:
        "The model now, to keep: its two files. To load one, pick or drop both files at once.",
      keptNow: (at, total) => `The weights now: after ${at} of ${total} training steps.`,
      keepNothing: "Nothing to keep yet: train the model (step 3), or load a model's two files.",
      keepStopping: "The training is stopping: its last weights are on their way.",
      loadedNow: (name, at, held, file) =>
        `Loaded from ${name}: weights trained ${at} steps; their held-out loss on this text is ${held}${held === file ? `, as the file's description says (${file})` : `; the file's description says ${file}`}.`,
      needTwo: "pick or drop both files at once: the description (.json) and the weights (.bin)",
      tooBig: (name) => `${name} is larger than 16 MiB: no model of this lab is so large`,
      notLoaded: (why) => `Not loaded: ${endEn(why)} The model before stays.`,
      headsAt: (at) => `With the weights after ${at} training steps:`,
      headsOnHeldOut: (at, line) =>
        `With the weights after ${at} training steps, on the start of the held-out part, “${line}” (type a line of your own in the box above):`,
    },
  },
  zh: {
    gloss: () => undefined,
    coreErrors: refusals,
    ui: { line: "你的句子", layer: "第 ℓ 层", head: "第 h 个头", lr: "学习率 η" },
    scenes: {
      text: {
        title: "用你自己的文字训练一个模型",
        analogy:
          "模型学一段文字，只靠一件事：一个字一个字地猜下一个字是什么。给它任何你想给的文字，一本书、你的笔记、一段程序，看它学到了什么，又比单纯数数强多少。",
      },
    },
    steps: {
      text: {
        title: "你的文字，模型怎么读",
        text: ({ name }) =>
          `选一个预设，或者粘贴你自己的文字，任何语言都行，最多 1 MiB（也可以选择或拖入一个文件）。文字不会离开这个标签页：由本页面的核心在这里读取。读法和真正的模型读诗一样：一个字一个词元，每行末尾一个 ⏎，在训练部分出现不到两次的字都读作同一个未知词元 �。然后把文字切成片段（一行，或长行里的 100 个字），每十个片段里有两个不参加训练：一个是留出部分，用来衡量模型，好比考试用的是没见过的题；另一个用来做选择（第 2 步）。现在的文字：${name}。`,
      },
      levels: {
        title: "怎样才算好：三个更简单的模型",
        text: () =>
          "单看一个损失说明不了什么。训练之前，核心先在同样的留出词元上给三个不用训练的模型打分：一个什么都不知道，一个数每个字出现几次，一个数字和字怎么前后相连。模型必须胜过它们，尤其是二元模型，才说明它学到的不只是哪个字后面跟哪个字。",
      },
      train: {
        title: "训练它",
        text: ({ steps, lr, next }) =>
          `${next === undefined ? "" : `η = ${next} 要到重新开始时才用上；现在显示的这次训练用的是 η = ${lr}。`}按“开始”：一个和真正的模型一样大小的 transformer（2 层，每层 4 个头，每个词元 64 个数，上下文 64 个词元）从随机权重开始，在这个标签页里用你的文字训练 ${steps} 步，每一步把每个权重最多挪动大约 η = ${next ?? lr}（η 即学习率，用 AdamW）。看留出损失（在留出部分上测得）和虚线比。图下面是模型从一行开头写出的文字：先是乱码，然后是这段文字里的字，再往后是它的词和格式。如果训练损失还在降，留出损失却掉头往上，说明模型在死记训练部分，而不是学能用到新文字上的东西：文字太短时很快就会这样。η 大一些学得快一些，但有个限度；远远超过它，损失就不降反升（试试 η = 3）。`,
      },
      keep: {
        title: "保存你训练的模型",
        text: () =>
          "下载模型：两个文件，一个是权重（int8，每行一个缩放系数，和真正的模型的 tang.bin 一样），一个是说明（JSON 文件：模型的形状、词表、怎么训练的、留出损失）。以后或者在另一个标签页里，用同一段文字把它们载入回来：实验先逐项检查每个字段再使用。载入的权重就是文件里存的、取整成 int8 的权重：它们的留出损失是说明里给文件记下的那个（heldOutInt8），和训练出来的权重的（heldOut）略有出入。什么都不会发送出去：文件就在这个标签页里生成。",
      },
      heads: {
        title: "它的头，在任意一行上",
        text: ({ line }) =>
          `每个头在一行文字上看向哪里，用的是训练到目前为止的权重（先训练）。现在这一行：“${line}”（模型不认识的字显示成 �，它就是这么读的）。行是正在读的词元，列是被读的词元，颜色越深权重越大：对角线左边紧挨着的一格颜色深，说明这个头看前一个词元；第一列颜色深，说明它停在 ⏎，也就是一行的开头。换一行试试，可以来自你的文字，也可以不是；点一个头，看它放大的权重。`,
      },
    },
    textLab: {
      presetName: presetZh,
      nameOf: (name) => presetZh[name] ?? name,
      presetsLabel: "预设",
      pasteLabel: "你自己的文字",
      pastePlaceholder: "在这里粘贴文字，或者把文件拖到这里",
      useText: "用这段文字训练",
      fileLabel: "或者选一个文件…",
      pastedName: "你的文字",
      refused: (name, why) => `${name}：没有采用：${endZh(why)}之前的文字保持不变。`,
      now: (name) => `现在的文字：${name}。`,
      noText: "还没有文字：请粘贴一段，或者选择、拖入一个文件。（这份页面构建时没有带上预设。）",
      noTextName: "还没有",
      readLine: (characters, lines, distinct, vocab) =>
        `${lines} 行，共 ${characters} 个字符，其中不同的有 ${distinct} 个。词表有 ${vocab} 个词元：⏎、�，以及在训练部分至少出现两次的 ${vocab - 2} 个字符（最多 2000 个词元）。`,
      unknownLine: (n, share) =>
        n === 0
          ? "这段文字的每个字符都在词表里：没有一个读作 �。"
          : `这段文字有 ${n} 个字符读作 �（占词元的 ${share}%）：太少见，没法一个一个地学。`,
      splitLine: (pieces, part, train, validation, heldOut) =>
        `共 ${pieces} 个片段：${part.train} 个用来训练（${train} 个词元）；${part.heldOut} 个留出，用来衡量模型（${heldOut} 个词元）；${part.validation} 个留着做选择（${validation} 个词元）：第 2 步用它定下数字对模型里的一个数，就像真正的模型用它选训练步一样。每连续十个片段里，第九个留着做选择，第十个留出。`,
      countsTitle: (n, rows) =>
        rows === 10
          ? `${n} 个训练词元里最常见的十个`
          : `词表的全部 ${rows} 个词元，按在 ${n} 个训练词元里出现的次数排列`,
      countHead: "次数",
      shareHead: "占比",
      tokenName: (t, ch) =>
        t === 0 ? "⏎（行尾）" : t === 1 ? "�（未知）" : ch === " " ? "␣（空格）" : ch,
      levelsLine: (vocab, uniform, unigram, bigram, lambda, rest, targets) =>
        `什么都不知道的模型把赌注平均押在 ${vocab} 个词元上：−ln(1/${vocab}) = ln ${vocab} = ${uniform} 奈特。数一数每个词元在训练部分出现多少次（一元模型），得 ${unigram}；数一数哪个词元后面跟哪个词元（二元模型：字对的部分占 ${lambda}，一元模型占 ${rest}，好让没见过的词元对不至于概率为零），得 ${bigram}。每个数都是留出部分第一个之后的 ${targets} 个词元上 −ln p 的平均。`,
      levelsTitle: (targets) => `三个更简单的模型在 ${targets} 个留出词元上的损失`,
      worse: (pairs) =>
        `这里${pairs.map(([model, than, loss, thanLoss]) => `${zhModel[model]}比${zhModel[than]}还差（${loss} > ${thanLoss}）`).join("，")}：${pairs.length > 1 ? "它们各自" : "它"}从训练部分里数出来的规律，到了留出部分还不如更简单的猜法。模型仍然要胜过三个里最好的那个。`,
      unigramCaption: (rows) =>
        `p：一元模型给${rows === 10 ? "最常见的十个词元" : `全部 ${rows} 个词元`}的概率，(次数 + 1) ÷ (训练词元数 + 词表大小)：每个都多算一次，好让没有哪个词元概率为零`,
      lossHead: "损失（奈特）",
      modelName: { uniform: "均匀", unigram: "一元模型", bigram: "二元模型" },
      textPlot: (name) => `在这里用${name}训练时的损失`,
      samplesIntro: (count, temperature, every) =>
        `模型从一行开头写出的文字：一次一个词元，按它给的概率抽取（温度 τ = ${temperature}：小于 1，更可能的词元被抽中得更多），最多 ${count} 个词元，写到第一个 ⏎ 为止；第 1 步、每 ${every} 步一次，以及最后一步；只列最新的三条：`,
      memorising: (best, at, now, train) =>
        `留出损失在第 ${at} 步最低，是 ${best}，现在是 ${now}，而训练损失现在是 ${train}：模型在死记训练部分，而不是学能用到没见过的文字上的东西。文字多一些，或者少训练几步，会好一些。`,
      sampleAt: (step) => `第 ${step} 步：`,
      trainFirst: "请先训练模型（第 3 步）：头的权重用它训练到的权重来画。",
      download: "下载模型",
      loadLabel: "载入模型（同时选它的 .json 和 .bin）…",
      keepIntro: "现在的模型，可以保存：它的两个文件。载入时，请同时选择或拖入这两个文件。",
      keptNow: (at, total) => `现在的权重：训练了 ${at} 步，共 ${total} 步。`,
      keepNothing: "还没有可以保存的：先训练模型（第 3 步），或者载入一个模型的两个文件。",
      keepStopping: "训练正在停下：它最后的权重马上就到。",
      loadedNow: (name, at, held, file) =>
        `已从 ${name} 载入：训练了 ${at} 步的权重；它们在这段文字上的留出损失是 ${held}${held === file ? `，和文件的说明里记的一样（${file}）` : `；文件的说明里记的是 ${file}`}。`,
      needTwo: "请同时选择或拖入两个文件：说明（.json）和权重（.bin）",
      tooBig: (name) => `${name} 超过 16 MiB：这个实验的模型没有这么大`,
      notLoaded: (why) => `没有载入：${endZh(why)}之前的模型保持不变。`,
      headsAt: (at) => `用训练 ${at} 步之后的权重：`,
      headsOnHeldOut: (at, line) =>
        `用训练 ${at} 步之后的权重，看留出部分的开头“${line}”（也可以在上面的框里输入你自己的句子）：`,
    },
  },
};
