// labs/gpt/words.js: the model lab's strings, in English and Chinese.

const relationsEn = {
  previous: "the previous character",
  samePlace: "the same place, one line up",
  lineStart: "the line's first character",
  lastMark: "the last punctuation mark",
  start: "⏎ (the start)",
};
const relationsZh = {
  previous: "前一个字",
  samePlace: "上一句的同一位置",
  lineStart: "本句第一个字",
  lastMark: "最近的标点",
  start: "⏎（开头）",
};

export const gptWords = {
  en: {
    // the page's glosses belong to the scenes' words, not to a poem's characters
    gloss: () => undefined,
    ui: {
      line: "Your line",
      layer: "Layer ℓ",
      head: "Head h",
      temperature: "Temperature τ",
      sample: "Random seed",
    },
    steps: {
      line: {
        title: "Your line, as the model reads it",
        text: () =>
          "Type a line of classical Chinese and press Enter, or pick one of the couplets below: from Tang poems kept out of its training. The model reads characters: each is a number, its id in a vocabulary learned from the training poems. ⏎ comes first: in training every poem follows the end of the one before.",
      },
      heads: {
        title: "Every head, at a glance",
        text: ({ where }) =>
          `Each small square is one head's weights on your line: row = the character asking, column = the one looked at, darker = more weight, and nothing to the right of the diagonal (a character sees itself and those before it). Pick a head to see its numbers; the table shows ${where}.`,
      },
      head: {
        title: "One head, written out",
        text: ({ where }) =>
          `Here is ${where}, written out as in the scenes: the model gives each character a query and a key (Q and K: its row of the residual stream, after LayerNorm, times W_Q and W_K; 16 numbers each for this head, already turned by RoPE for their positions); then Q·Kᵀ / √16, the causal mask, and the softmax. (In each layer the heads' outputs, joined and multiplied by W_O, are added to the residual stream; then an MLP adds its part.) Pick any cell to see its number made.`,
      },
      roles: {
        title: "What each head seems to do: measured",
        text: () =>
          "Over the held-out poems with regular lines, the mean weight each head puts on a few places a poem's structure suggests. A head gets a name only where its number says so; the first row is what spreading evenly over every visible character would put there.",
      },
      next: {
        title: "The next character",
        text: ({ vocab }) =>
          `After your line's last character, the model gives every one of its ${vocab} tokens a logit z; the softmax turns them into probabilities: p = exp(z − max) ÷ Σ, the sum over the whole vocabulary. The five likeliest, and a line the model writes on from yours. � is the unknown token: it stands for every character too rare to learn one by one, so it is often likely, but it is no one character, and the writing skips it.`,
      },
      train: {
        title: "Train it yourself",
        text: ({ heldOut }) =>
          `The same training that made these weights, again, in this tab, by the same core: from random weights, with the same seed and the same texts. The shipped weights reach a held-out loss of ${heldOut} nats on Tang poems they never saw: watch the held-out loss fall toward it, and the head on your line take shape. The training loss, on text the model is learning, falls lower. This tab computes in 32-bit numbers where the shipped run used 64-bit ones, so its losses come within about 0.001 of the shipped run's, not to the last digit.`,
      },
    },
    scenes: {
      model: {
        title: "A real model: a small transformer trained on Tang poems",
        analogy:
          "Until now every head was built by hand. This one learned: a 2-layer transformer trained by this page's own core on 唐诗三百首 and more classical Chinese. Every weight came from code you can check, and you can train it again here.",
      },
    },
    gptLab: {
      where: (l, h) => `layer ${l}, head ${h}`,
      weightsAt: (where) => `weights, ${where}`,
      layerName: (l) => `Layer ${l}`,
      headName: (h) => `head ${h}`,
      gridTitle: "Every layer's and head's weights on your line",
      masked: "masked: the causal mask, −∞ for a later character",
      logits: "z: the five largest logits",
      probs: "p: their probabilities",
      fromModel: (m, l) =>
        `the model's: layer ${l}'s LayerNorm of the residual stream times ${m === "q" ? "W_Q" : "W_K"}, turned by RoPE; the layers before are not written out`,
      logitFrom:
        "the model's: the final LayerNorm of the last row times this character's embedding, 64 products",
      maxLine: (m) => `max of all the logits = ${m}`,
      sumLine: (s) => `Σ exp(z − max) over the whole vocabulary = ${s} (the core's)`,
      tokensTitle: (n) => `${n} tokens`,
      examples:
        "Couplets to try, from held-out poems (every tenth of the Tang poems was kept out of training, so the model never saw these):",
      reading: (n) =>
        `Spaces are not read; ASCII punctuation is read as the poems write it (，。？！); only the first ${n} characters are read (the context holds ${n + 1} with ⏎). The model learned simplified characters: a traditional one, such as 盡, is unknown to it.`,
      inStep3: "This head's weights at a glance; step 3 writes out how each is made:",
      top: "max: the largest of all the logits",
      sum: "Σ exp(z − max), over the whole vocabulary",
      again: "Start again",
      trainDone: (n, total, rate, loss, held, left, seconds) =>
        `Done: training step ${n} of ${total} in ${seconds} s on the clock, ${rate} steps per second; training loss ${loss}, held-out loss ${held}.`,
      id: "id",
      unknown: (n) =>
        `${n === 1 ? "One character is" : `${n} characters are`} unknown to the model (id 1: it reads each of them as one same unknown token, written � where it predicts one): seen fewer than twice in the Tang training poems, or not in them at all.`,
      allKnown: "Every character is in the model's vocabulary.",
      evenly: "spread evenly",
      seems: "seems to",
      noRole: "no single pattern",
      roles: {
        previous: "look at the previous character",
        samePlace: "look one line up, same place",
        lineStart: "look at the line's start",
        lastMark: "look at the last punctuation",
        start: "rest on ⏎",
      },
      relations: relationsEn,
      rolesTitle: (n) =>
        `Mean weight on each place, over the ${n} held-out poems whose lines are all 5 or 7 characters`,
      namingRule: (least, times) =>
        `A head is named when it puts at least ${least}% of its weight on one place on average, and at least ${times} times what spreading evenly would. Measured when the model was trained, with the weights shown here.`,
      generated: (t, s) => `τ = ${t}, seed ${s}:`,
      endedAtOnce: (p, likeliest, greedy) =>
        `The model ended the poem at once: right after your line it gives ⏎, the end of a poem (in training every poem is followed by one), a probability of ${p}${likeliest ? ", more than any character" : ""}, and the character drawn was ⏎, so the line stops there. ${greedy ? "At τ = 0 it always takes the likeliest: raise τ, or end your line with a comma (，) so that the couplet is not finished." : "Another seed may draw a character instead; a line that ends with a comma (，) leaves the couplet unfinished."}`,
      pastiche: (size) =>
        `This is a tiny model (about ${Math.round(size / 1000)} thousand numbers) trained on 251 Tang poems, 95 Song poems and about 5,000 classical quotations, some 300 thousand characters in all: it writes pastiche, not poetry. τ = 0 always takes the likeliest character (never �); a larger τ takes more chances. A line cut short ends with …`,
      trainer: "Training",
      start: "Start",
      resume: "Resume",
      running: "Training…",
      stop: "Stop",
      notStarted: "Not started.",
      heldAt: (loss, step) => `${loss} (measured at step ${step})`,
      trainIntro: (steps, batch, context, served) =>
        `${steps} steps of AdamW, each on ${batch} windows of ${context} characters. ${served ? "The work is done by the workers below, off the page's own thread" : "The work is done a little at a time between frames"}, so the page stays usable; it pauses when you leave this step.`,
      trainStatus: (n, total, rate, loss, held, left, seconds) =>
        `Training step ${n} of ${total} after ${seconds} s on the clock, ${rate} steps per second; training loss ${loss}, held-out loss ${held}.${left ? ` About ${left < 60 ? `${left} s` : `${Math.round(left / 60)} min`} to the end at this rate.` : ""}`,
      trainPaused: (n, total, rate, loss, held) =>
        `Paused at training step ${n} of ${total}; training loss ${loss}, held-out loss ${held}.`,
      // what a screen reader hears as a run starts or goes on, and every `every` steps
      trainFrom: (n, total, every) =>
        `Training from step ${n} of ${total}; its losses are read out every ${every} steps.`,
      trainPassed: (step, total, loss, held) =>
        `Training step ${step} of ${total} done: training loss ${loss}, held-out loss ${held}.`,
      loadedStatus: (name, at, held) =>
        `Loaded from ${name}: weights trained ${at} steps; held-out loss ${held} on this text.`,
      trainFailed: (step, why) =>
        `The run stopped at training step ${step}: ${why}. Press Start again to train anew from random weights.`,
      notFinite:
        "the loss is no longer a finite number (the right token's probability came out as 0): the weights grew too large, as they do when the learning rate is too high",
      noStreams: (why) =>
        `The training poems are not built here (${why}): build the page with Debian's fortunes-zh installed (make test does).`,
      trainPlot: (shipped) => `The loss while training here (the shipped weights: ${shipped})`,
      stepAxis: "step",
      lossAxis: "loss (nats)",
      trainLoss: "training",
      heldOutLoss: "held-out",
      shippedTable: (first, every) =>
        `The loss while the shipped weights were made, at step ${first} and every ${every}th step`,
      heldOutTable: (second, every) =>
        `The held-out loss, measured every ${second} steps while training: at steps 1 and ${second}, every ${every}th step, the lowest and the latest measure`,
      stepName: (t) => `step ${t}`,
      headNow: (where, n) => `${where} after ${n} steps`,
      glossTitle: "The five, for English readers",
      pinyin: "pinyin",
      meaning: "meaning",
      glossSource:
        "Pinyin from pinyin-pro: each character's most common reading, and a second one (after ·) where the dictionary gives it its own meaning; a poem may use another. Meanings shortened from CC-CEDICT (CC BY-SA 4.0; labs/gpt/CC-CEDICT.txt).",
      markNames: {
        "⏎": "the end of a poem",
        "�": "an unknown character",
        "，": "comma",
        "。": "full stop",
        "？": "question mark",
        "！": "exclamation mark",
        "、": "enumeration comma",
        "：": "colon",
        "；": "semicolon",
        "“": "opening quotation mark",
        "”": "closing quotation mark",
        "《": "opening title mark",
        "》": "closing title mark",
      },
      exampleGlosses: {
        "今朝郡斋冷，忽念山中客。":
          "This morning the prefecture's study is cold; suddenly I think of the guest in the mountains.",
        "白日登山望烽火，黄昏饮马傍交河。":
          "By day we climb the hills to watch for beacon fires; at dusk we water the horses beside the Jiao River.",
        "国破山河在，城春草木深。":
          "The state is broken, mountains and rivers remain; spring in the city, grass and trees grow deep.",
        "昔闻洞庭水，今上岳阳楼。":
          "Long ago I heard of Dongting's waters; today I climb Yueyang Tower.",
        "木落雁南渡，北风江上寒。":
          "Leaves fall, the wild geese cross to the south; the north wind is cold on the river.",
        "楚江微雨里，建业暮钟时。":
          "The Chu river in a fine rain; Jianye at the hour of the evening bell.",
      },
      switchedOff:
        "Why these heads? Switch a head off (its output set to 0, so that it adds nothing to what the later layers read) and measure the held-out poems again: what gets worse is what the head was helping to predict. Characters and punctuation marks are counted apart here; the held-out loss given with the training averages over every token, the poems' ends (⏎) included.",
      without: (names, relation, n, chars, marks, oneIns) =>
        `Without ${names.join(" and ")} (${relation}): the loss on the ${n.characters} held-out characters goes from ${chars[0]} to ${chars[1]} nats, and on the ${n.marks} punctuation marks from ${marks[0]} to ${marks[1]}${oneIns[0] === oneIns[1] ? "" : ` (the right mark's probability, from about 1 in ${oneIns[0]} to 1 in ${oneIns[1]})`}.`,
      sentenceGap: " ",
      helps: {
        previous:
          "The character just before tells most about the next one: the two characters of a word, a set phrase. The marks hardly need it.",
        lastMark:
          "A regular line has exactly 5 or 7 characters before its mark: how far back the last mark is tells the model where in the line it is, and so when the next mark comes.",
      },
      natLine: (loss, n) =>
        `Losses are in nats, natural logarithms: a loss of L means that the model gave the right next character a probability of e^(−L) on average (the geometric mean over every character). The shipped weights' ${loss} is about 1 in ${n}.`,
      lesson4Line: (vocab, targets, poems) =>
        `It is lesson 4's loss again. There, L = −ln weights[书][读]: minus the log of the weight 书's softmax gave 读. Here the softmax runs over all ${vocab} tokens, its weight on a token is a probability, and the loss is −ln of the probability it gave the character that really came next, averaged over the ${targets} tokens of the ${poems} held-out poems (marks and ⏎ included). 0 would mean sure and right every time.`,
      baselinesLine: (vocab, uniform, unigram, bigram, lambda, rest, shipped, back) =>
        `How good is that? A model that knows nothing spreads its probability evenly (uniform) over the ${vocab} tokens: −ln(1/${vocab}) = ln ${vocab} = ${uniform}. Counting how often each character comes in the same training text (a unigram model) scores ${unigram}; counting which character follows which (a bigram model, mixed ${lambda} to ${rest} with the unigram so that a pair never seen is not impossible) scores ${bigram}. The shipped weights, which read up to ${back} characters back, score ${shipped}. The plot's dashed lines are these four.`,
      baselinesTitle: (poems) =>
        `The loss on the ${poems} held-out poems, and the probability it stands for`,
      lossHead: "loss (nats)",
      oneInHead: "probability, on average",
      oneIn: (n) => `1 in ${n}`,
      modelName: {
        uniform: "uniform",
        unigram: "unigram",
        bigram: "bigram",
        shipped: "shipped weights",
      },
      levelName: (name, y) =>
        `${y} ${{ uniform: "uniform", unigram: "unigram", bigram: "bigram", shipped: "shipped" }[name]}`,
      levelsKey: "other models' held-out loss (dashed)",
      jumpsLine: (batch, context, poems) =>
        `Why the training loss jumps: each step measures it on its own ${batch} windows of ${context} characters, drawn at random from the training text, different every step, and some are easier than others. It is also measured on the text being learned, so it can fall below what the model does on new text. The held-out loss is measured on the same ${poems} poems every time, poems no step trains on: it changes only as the weights do, and it says how well the model does on poems it has never seen. It is the one to watch.`,
      shippedPlot: (steps, every) =>
        `The loss while the shipped weights were trained: ${steps} steps, on a computer ahead of time (not in your tab); the held-out loss every ${every} steps, the training loss of that step's windows`,
    },
  },
  zh: {
    gloss: () => undefined,
    ui: {
      line: "你的诗句",
      layer: "第 ℓ 层",
      head: "第 h 个头",
      temperature: "温度 τ",
      sample: "随机种子",
    },
    steps: {
      line: {
        title: "你的诗句，模型怎么读",
        text: () =>
          "输入一句古诗文，按回车；或者在下面选一联：模型训练时从未见过的唐诗。模型按字来读，一个字就是一个词元：每个字是一个数，即它在词表里的编号，词表来自训练用的诗。最前面是 ⏎：训练时每首诗都接在上一首诗的结尾之后。",
      },
      heads: {
        title: "所有的头，一眼看全",
        text: ({ where }) =>
          `每个小方块是一个头在你的诗句上的权重：行是发问的字，列是被看的字，颜色越深权重越大；对角线右边是空的（每个字只能看到自己和它前面的字）。点一个头看它的数；表格里是${where}。`,
      },
      head: {
        title: "一个头，完整写出",
        text: ({ where }) =>
          `下面把${where}完整写出来，写法和前面的场景一样：模型给每个字一个查询和一个键（Q 和 K：这个字在残差流里的那一行，经过 LayerNorm，乘以 W_Q 和 W_K；这个头各 16 个数，已按位置做了 RoPE 旋转）；然后是 Q·Kᵀ / √16、因果掩码和 softmax。（每一层里，各个头的输出拼起来乘以 W_O，加到残差流上；然后 MLP 再加上它的一份。）点击任意格子，看这个数是怎么来的。`,
      },
      roles: {
        title: "每个头像是在做什么：实测",
        text: () =>
          "在格律整齐的留出诗上，每个头平均放在几个位置上的权重，这些位置来自诗的结构。只有数字说得通时才给一个头起名字；第一行是平均分给所有可见字时的值。",
      },
      next: {
        title: "下一个字",
        text: ({ vocab }) =>
          `在你的诗句最后一个字之后，模型给词表里 ${vocab} 个词元各一个 logit z；softmax 把它们变成概率：p = exp(z − max) ÷ Σ，Σ 是整个词表上的和。这里是最可能的五个字，以及模型接着你的诗句写出的一句。� 是“未知字”：它代表所有因为太少见而没有单独学到的字，所以常常很可能出现；但它不是某一个字，续写时会跳过它。`,
      },
      train: {
        title: "自己训练",
        text: ({ heldOut }) =>
          `和得到这些权重相同的训练，在这个标签页里由同一个核心再做一遍：从随机权重开始，同样的种子，同样的文本。发布的权重在它没见过的唐诗（留出集）上的损失是 ${heldOut} 奈特：看留出损失怎样朝它下降，看你诗句上的这个头怎样成形。训练损失是在正在学的文本上算的，会降得更低。这个标签页用 32 位的数计算，发布的那次训练用的是 64 位，所以两边的损失相差大约 0.001 以内，不是每一位都一样。`,
      },
    },
    scenes: {
      model: {
        title: "真正的模型：在唐诗上训练的小 Transformer",
        analogy:
          "到这里为止，每个头都是手工搭的。这一个是学出来的：一个两层的 Transformer，由本页自己的核心在《唐诗三百首》和更多古文上训练。每个权重都来自你可以核对的代码，你也可以在这里重新训练它。",
      },
    },
    gptLab: {
      where: (l, h) => `第 ${l} 层第 ${h} 个头`,
      weightsAt: (where) => `权重，${where}`,
      layerName: (l) => `第 ${l} 层`,
      headName: (h) => `头 ${h}`,
      gridTitle: "每一层、每个头在你的诗句上的权重",
      masked: "masked：因果掩码，后面的字为 −∞",
      logits: "z：最大的五个 logit",
      probs: "p：它们的概率",
      fromModel: (m, l) =>
        `来自模型：第 ${l} 层残差流的 LayerNorm 乘以 ${m === "q" ? "W_Q" : "W_K"}，再做 RoPE 旋转；前面各层不再展开`,
      logitFrom: "来自模型：最后一行的最终 LayerNorm 乘以这个字的嵌入，64 个乘积",
      maxLine: (m) => `所有 logit 的最大值 = ${m}`,
      sumLine: (s) => `整个词表上 exp(z − max) 之和 Σ = ${s}（核心算出）`,
      tokensTitle: (n) => `${n} 个词元`,
      examples:
        "可以试试这几联，出自留出的诗（唐诗每十首留出一首不拿来训练，所以模型没见过它们）：",
      reading: (n) =>
        `空格不读；英文标点按诗里的写法读（，。？！）；只读前 ${n} 个字（上下文连 ⏎ 共 ${n + 1} 个）。模型学的是简体字：繁体字（比如“盡”）它不认识。`,
      inStep3: "这个头的权重一览；第 3 步写出每个数是怎么来的：",
      top: "max：所有 logit 中最大的",
      sum: "Σ exp(z − max)，整个词表上的和",
      again: "重新开始",
      trainDone: (n, total, rate, loss, held, left, seconds) =>
        `完成：第 ${n} 个训练步，共 ${total} 个，按钟表用了 ${seconds} 秒，每秒 ${rate} 步；训练损失 ${loss}，留出损失 ${held}。`,
      id: "编号",
      // han of the n are Chinese characters (字); the others are letters, digits or signs
      unknown: (n, han) =>
        `${han === n ? `有 ${n} 个字` : han ? `有 ${han} 个字和 ${n - han} 个其他字符（字母、数字或符号）` : `有 ${n} 个字符（字母、数字或符号，不是汉字）`}模型不认识（编号 1：模型把它们都读成同一个“未知字”，在它的预测里写作 �）：在训练用的唐诗里出现不到两次，或者根本没有出现。`,
      allKnown: "每个字都在模型的词表里。",
      evenly: "平均分配",
      seems: "像是在",
      noRole: "没有单一模式",
      roles: {
        previous: "看前一个字",
        samePlace: "看上一句同一位置",
        lineStart: "看本句开头",
        lastMark: "看最近的标点",
        start: "停在 ⏎ 上",
      },
      relations: relationsZh,
      rolesTitle: (n) => `放在每个位置上的平均权重，取每句都是五字或七字的 ${n} 首留出诗`,
      namingRule: (least, times) =>
        `一个头平均至少把 ${least}% 的权重放在同一个位置上，并且至少是平均分配时的 ${times} 倍，才给它起名字。这些数是训练模型时用这里显示的权重测得的。`,
      generated: (t, s) => `τ = ${t}，种子 ${s}：`,
      endedAtOnce: (p, likeliest, greedy) =>
        `模型一下子就把诗结束了：紧接在你的诗句之后，它给 ⏎（一首诗的结尾；训练时每首诗后面都跟着一个）的概率是 ${p}${likeliest ? "，比任何一个字都大" : ""}；取到的第一个就是 ⏎，所以诗到这里就停了。${greedy ? "τ = 0 时总是取最可能的：把 τ 调大，或者让你的诗句以“，”结尾，这一联就还没写完。" : "换一个种子可能会取到一个字；以“，”结尾的诗句，这一联还没写完。"}`,
      pastiche: (size) =>
        `这是个很小的模型（大约 ${(size / 10000).toFixed(1)} 万个数），只在 251 首唐诗、95 首宋诗和约 5000 条古文名句（共约 30 万字）上训练过：它写的是仿作，不是诗。τ = 0 总是取最可能的字（从不取 �）；τ 越大越敢冒险。没写完就被截断的一句以 … 结尾。`,
      trainer: "训练",
      start: "开始",
      resume: "继续",
      running: "训练中…",
      stop: "停止",
      notStarted: "尚未开始。",
      heldAt: (loss, step) => `${loss}（第 ${step} 步测得）`,
      trainIntro: (steps, batch, context, served) =>
        `AdamW 共 ${steps} 步，每步用 ${batch} 段、每段 ${context} 个字。${served ? "计算由下面的工作线程在页面的线程之外完成" : "计算在两帧之间一点一点地做"}，页面可以照常使用；离开这一步时训练暂停。`,
      trainStatus: (n, total, rate, loss, held, left, seconds) =>
        `第 ${n} 个训练步，共 ${total} 个，按钟表已用 ${seconds} 秒，每秒 ${rate} 步；训练损失 ${loss}，留出损失 ${held}。${left ? `按这个速度，大约还要 ${left < 60 ? `${left} 秒` : `${Math.round(left / 60)} 分钟`}。` : ""}`,
      trainPaused: (n, total, rate, loss, held) =>
        `已暂停：第 ${n} 个训练步，共 ${total} 个；训练损失 ${loss}，留出损失 ${held}。`,
      trainFrom: (n, total, every) =>
        `训练中：从第 ${n} 个训练步开始，共 ${total} 个；每 ${every} 步报一次损失。`,
      trainPassed: (step, total, loss, held) =>
        `第 ${step} 个训练步已完成，共 ${total} 个：训练损失 ${loss}，留出损失 ${held}。`,
      loadedStatus: (name, at, held) =>
        `已从 ${name} 载入：训练了 ${at} 步的权重；在这段文字上的留出损失 ${held}。`,
      trainFailed: (step, why) =>
        `训练在第 ${step} 个训练步停下了：${why}。按“重新开始”，从随机权重重新训练。`,
      notFinite:
        "损失不再是一个有限的数（给正确词元的概率算出来是 0）：权重变得太大了，学习率太高时就会这样",
      noStreams: (why) =>
        `这里没有构建训练用的诗（${why}）：请在装有 Debian 的 fortunes-zh 的机器上构建页面（make test 会安装它）。`,
      trainPlot: (shipped) => `在这里训练时的损失（发布的权重：${shipped}）`,
      stepAxis: "步",
      lossAxis: "损失（奈特）",
      trainLoss: "训练",
      heldOutLoss: "留出",
      shippedTable: (first, every) =>
        `训练发布的权重时的损失：第 ${first} 步，以及每 ${every} 步一次`,
      heldOutTable: (second, every) =>
        `训练中每 ${second} 步测一次的留出损失：第 1 步、第 ${second} 步、每 ${every} 步一次，最低的一次，以及最新一次测量`,
      stepName: (t) => `第 ${t} 步`,
      headNow: (where, n) => `${n} 步之后的${where}`,
      switchedOff:
        "为什么是这几个头？把一个头关掉（它的输出设为 0，后面各层从它那里什么也读不到），再在留出诗上测一次：变差的，就是这个头原本帮着预测的。这里字和标点分开算；和训练一起给出的留出损失，是所有词元（包括诗的结尾 ⏎）的平均。",
      without: (names, relation, n, chars, marks, oneIns) =>
        `关掉${names.join("和")}（${relation}）：${n.characters} 个留出的字上的损失从 ${chars[0]} 变成 ${chars[1]} 奈特，${n.marks} 个标点上的损失从 ${marks[0]} 变成 ${marks[1]}${oneIns[0] === oneIns[1] ? "" : `（给对的标点的概率从大约 ${oneIns[0]} 分之 1 变成 ${oneIns[1]} 分之 1）`}。`,
      sentenceGap: "",
      helps: {
        previous:
          "前一个字最能说明下一个字是什么：一个词的两个字、一个固定搭配。标点几乎用不着它。",
        lastMark:
          "格律整齐的一句，标点前恰好是 5 个或 7 个字：最近的标点在多远之前，告诉模型现在在一句里的什么位置，也就告诉它下一个标点什么时候来。",
      },
      natLine: (loss, n) =>
        `损失的单位是奈特（用自然对数算）：损失为 L，意思是模型平均给真正的下一个字 e^(−L) 的概率（对每个字取几何平均）。发布的权重的 ${loss}，大约是 ${n} 分之 1。`,
      lesson4Line: (vocab, targets, poems) =>
        `这还是第 4 课的损失。在那里，L = −ln 权重[书][读]：“书”的 softmax 给“读”的权重，取对数再取负。这里的 softmax 在全部 ${vocab} 个词元上计算，它给一个词元的权重就是概率；损失是它给真正出现的下一个字的概率取 −ln，再对 ${poems} 首留出诗的 ${targets} 个词元（标点和 ⏎ 也算）取平均。损失为 0 意味着每次都有十足把握而且都猜对。`,
      baselinesLine: (vocab, uniform, unigram, bigram, lambda, rest, shipped, back) =>
        `这个数有多好？什么都不知道的模型把概率平均分给 ${vocab} 个词元（均匀）：−ln(1/${vocab}) = ln ${vocab} = ${uniform}。数一数每个字在同样的训练文本里出现多少次（一元模型），得 ${unigram}；数一数哪个字后面跟哪个字（二元模型，按 ${lambda} 比 ${rest} 和一元模型混合，好让没见过的字对不至于概率为零），得 ${bigram}。发布的权重最多能往前读 ${back} 个字，得 ${shipped}。图里的虚线就是这四个数。`,
      baselinesTitle: (poems) => `${poems} 首留出诗上的损失，以及它对应的概率`,
      lossHead: "损失（奈特）",
      oneInHead: "平均概率",
      oneIn: (n) => `${n} 分之 1`,
      modelName: {
        uniform: "均匀",
        unigram: "一元模型",
        bigram: "二元模型",
        shipped: "发布的权重",
      },
      levelName: (name, y) =>
        `${y} ${{ uniform: "均匀", unigram: "一元", bigram: "二元", shipped: "发布的权重" }[name]}`,
      levelsKey: "其他模型的留出损失（虚线）",
      jumpsLine: (batch, context, poems) =>
        `训练损失为什么跳来跳去：每一步只在它自己的 ${batch} 段、每段 ${context} 个字上测，这些段从训练文本里随机抽取，每步都不同，有的容易，有的难。而且它是在正在学的文本上测的，所以可以比模型在新文本上的表现更低。留出损失每次都在同样的 ${poems} 首诗上测，没有哪一步在这些诗上训练过：它只随权重而变，说的是模型在从没见过的诗上做得怎样。要看的是它。`,
      shippedPlot: (steps, every) =>
        `训练发布的权重时的损失：事先在电脑上训练了 ${steps} 步（不是在你的浏览器里）；每 ${every} 步测一次留出损失，训练损失是那一步那几段上的`,
    },
  },
};
