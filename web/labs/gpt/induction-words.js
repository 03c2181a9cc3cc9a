// labs/gpt/induction-words.js: the induction lab's strings, in English and in Chinese. Its name
// in the scene list is in labs/names.js.

// The step's numbers, read from the held-out sequences at the step shown (lab.text's params).
const atEn = (step) => (step === 0 ? "step 0, before any training" : `step ${step}`);
const atZh = (step) => (step === 0 ? "训练之前（第 0 个训练步）" : `第 ${step} 个训练步`);

// One layer: when its head puts the most of its weight from the repeat's first token on the
// position after the copy, but not from the second token, it favours a place, not a copy's next.
const favours = (c, c2) => c.top.at === c.after && c2.top.at !== c2.after;
const placeEn = (c, c2) =>
  favours(c, c2)
    ? ` That is the most it puts anywhere from there, yet not because position ${c.after} says what came before it: from position ${c2.at} (token ${c2.token}) its most, ${c2.top.weight}, goes to position ${c2.top.at}, and only ${c2.induction} to position ${c2.after}, the one after the earlier ${c2.token}. The head favours a place, not the token after a copy; for the repeat's first token the two are the same position.`
    : "";
const placeZh = (c, c2) =>
  favours(c, c2)
    ? `这是它从那里放得最多的地方，但并不是因为第 ${c.after} 个位置说明了它前面是什么：从第 ${c2.at} 个位置（词元 ${c2.token}）出发，它把最多的 ${c2.top.weight} 放在第 ${c2.top.at} 个位置，放在第 ${c2.after} 个位置（上一个 ${c2.token} 后面的那个）上的只有 ${c2.induction}。这个头偏爱的是一个位置，而不是“副本后面的那个词元”；对重复段的第一个词元来说，两者恰好是同一个位置。`
    : "";

export const inductionWords = {
  en: {
    gloss: () => undefined,
    ui: {
      layers: "Layers L",
      sequence: "Held-out sequence",
      at: "Weights at step t",
      layer: "Layer ℓ",
    },
    scenes: {
      induction: {
        title: "An induction head forms: watch a model learn to copy",
        analogy:
          "You have read “Harry Potter” once in a text; the next time you see “Harry”, you expect “Potter”. A model can learn this trick from next-token prediction alone: find where the current token came before, and predict what came after it. Train one here and watch the two heads that do it appear.",
      },
    },
    steps: {
      repeats: {
        title: "Sequences that repeat",
        text: ({ vocab, lnV, m }) =>
          `The model learns from made-up sequences of 20 tokens, from a vocabulary of ${vocab} (written with letters: A to Z but K, Q and V, which name the keys, queries and values, then Γ Δ Θ Λ Ξ Π Φ Ψ Ω). Each starts with a segment of 3 to 10 different tokens, then the same segment again, then random tokens. In the first half the next token is new: nothing before it tells what it will be, so the best a model can do is spread its bets evenly, a loss of ln ${vocab} = ${lnV} nats (a probability of 1 in ${vocab}). In the repeated half the next token has been seen: it is the one that came after the earlier copy of the current token. Nobody tells the model this rule; it only learns to predict each next token. The sequence here is one the training never sees; its segment has ${m} tokens.`,
      },
      learning: {
        title: "Training: the loss and the heads",
        text: ({ layers, held, at, first, repeat, share, lnV, above, trained }) =>
          `Press Start: this page's core trains a ${layers === 2 ? "2-layer" : "1-layer"} transformer (attention only: one head per layer, no MLP), in this tab, from seeded random weights. Every 25 steps it keeps the weights and measures them on ${held} held-out sequences: the loss on each half (the first plot) and, for each head, two scores (the second): its previous-token score, the mean weight a token puts on the one just before it, and its induction score, the mean weight a token of the repeat puts on the token just after its earlier copy. At ${at}, the first half's loss is ${first} nats and the repeated half's ${repeat}, ${share}% of ln 32 (= ${lnV}).${above ? ` The first half's loss is above ln 32, what an even guess among the 32 tokens scores: the model's guesses there are uneven in a way that costs, ${trained ? "as it learns to copy: it puts more of its probability on the tokens already seen, which in the first half never come next" : "as any untrained model's are: its weights are random"}.` : ""} ${layers === 2 ? "Watch for the step: for a few hundred steps little changes; then the repeated half's loss drops, and two scores rise together: layer 1's previous-token score and layer 2's induction score." : "With one layer, watch the repeated half's loss: it comes down only part of the way, and the head's induction score stays far below what two layers reach. The last step says why."}`,
      },
      stripes: {
        title: "The attention weights, at any step",
        text: ({ layers, m, at, previous, induction, held }) =>
          layers === 2
            ? `Both heads' weights on this sequence at ${at} (row = the token asking, column = the token looked at; a token sees itself and those before it). In layer 1's head, look for a stripe just below the diagonal: each token's weight on the token before it. In layer 2's head, look in the repeat (rows ${m + 1} to ${2 * m}) for a stripe ${m - 1} column${m - 1 === 1 ? "" : "s"} left of the diagonal: each token's weight on the token after its earlier copy. Over the ${held} held-out sequences at this training step, layer 1's previous-token score is ${previous} and layer 2's induction score ${induction}. Move t to watch the stripes appear.`
            : `The one head's weights on this sequence at ${at}. Over the ${held} held-out sequences at this training step its previous-token score is ${previous} and its induction score ${induction}. Move t to see how far it gets.`,
      },
      written: {
        title: "One head, written out",
        text: ({ where }) =>
          `Here is ${where}, written out as in the scenes: the model gives each token a query and a key (Q and K: its row of the residual stream, after LayerNorm, times W_Q and W_K; 64 numbers each, turned by RoPE for their positions), then Q·Kᵀ / √64, the causal mask and the softmax. Pick any cell to see its number made.`,
      },
      circuit: {
        title: "How the next token is found",
        text: ({ layers, at, c, c2, both, other }) =>
          layers === 2
            ? `An induction head predicts a token that repeats: at a token, it looks at the token that came just after that token's earlier copy. Take position ${c.at}, token ${c.token}, the first of the repeat. Its earlier copy is at position ${c.copy}; after it, at position ${c.after}, came ${c.next}, so ${c.next} is the next token here. A trained model finds it in two moves. Layer 1's head, at position ${c.after}, looks at the token before it, ${c.token}, and adds it to that position's row: position ${c.after} now carries “the token before me is ${c.token}”. Layer 2's head, at position ${c.at}, has a query made from ${c.token}; it matches the key made from “the token before me is ${c.token}”, at position ${c.after}, and reads ${c.next} there. At ${at}: layer 1's head puts ${c.previous} of its weight from position ${c.after} on position ${c.copy}, layer 2's head ${c.induction} from position ${c.at} on position ${c.after}, and the model gives ${c.next} a probability of ${c.p} (a guess is 1 in 32). ${both ? "Both heads do it here." : "Not both yet: train on, and come back."} The table does the same for every token of the repeat but the last (after it come the random tokens).`
            : `With one layer there is no first move. The only head, at position ${c.at} (token ${c.token}), would have to find position ${c.after}, the one after the earlier ${c.token}; but a key is made from its own position's token and place only: nothing at position ${c.after} says which token came before it. What one layer can still learn is that the next token is likely one already seen: copying the earlier tokens raises them all, a guess among the segment's tokens rather than among 32, and this brings the repeated half's loss down part of the way. At ${at}, the head puts ${c.induction} of its weight from position ${c.at} on position ${c.after}, and the model gives ${c.next} a probability of ${c.p}.${placeEn(c, c2)}${other ? ` Two layers, trained here to step ${other.step}, reach an induction score of ${other.induction}, against this head's ${other.one}.` : " Train two layers (L = 2) to compare."} The table does the same for every token of the repeat but the last (after it come the random tokens).`,
      },
    },
    induction: {
      at: atEn,
      weightsOf: (l, at) => `weights, layer ${l}'s head, at ${at}`,
      layerName: (l, at) => `layer ${l}'s head at ${at}`,
      scaledCaption: "scaled = scores / √64 = scores × 0.125, scores = Q·Kᵀ",
      maskedCaption: "masked: the causal mask, −∞ for a later token",
      inStep4: (l) =>
        `Layer ${l}'s head's weights at a glance; step 4 writes out how each is made:`,
      fromModel: (name, l) =>
        `the model's: layer ${l}'s LayerNorm of the residual stream times W_${name}, turned by RoPE`,
      sequenceTitle: "The sequence, token by token (position above, token below)",
      tokenLabel: (i, s, part) => `position ${i}: ${s}, ${part}`,
      parts: { segment: "the segment", repeat: "its repeat", random: "random tokens" },
      trainer: "Training",
      start: "Start",
      resume: "Resume",
      running: "Training…",
      stop: "Stop",
      again: "Start again",
      trainIntro: (layers, total, batch, context, every, served) =>
        `${total} steps of AdamW on ${layers === 2 ? "two layers" : "one layer"}, each on ${batch} fresh sequences of ${context} tokens, ${served ? "computed by the workers below, off the page's own thread," : "taken a little at a time between frames"} so that the page stays usable. The weights are kept every ${every} steps, and the page shows the latest while it trains. Training pauses when you leave this lab or switch to the other number of layers, and goes on from there.`,
      notStarted: "Not started: the weights shown are the seeded random ones (step 0).",
      otherKept: (layers, step, done) =>
        ` The ${layers === 1 ? "one-layer" : "two-layer"} run is kept: ${done ? `done, all ${step} steps trained` : `paused at step ${step}`}; set L = ${layers} to see it.`,
      training: (n, total, rate, seconds) =>
        `Training: step ${n} of ${total}, ${seconds} s on the clock, ${rate} steps per second.`,
      paused: (n, total, rate, seconds) =>
        `Paused at step ${n} of ${total}, after ${seconds} s on the clock.`,
      done: (n, total, rate, seconds) =>
        `Done: ${n} steps in ${seconds} s on the clock, ${rate} steps per second.`,
      dropAt: (step, seconds) =>
        ` The repeated half's loss first fell under half of ln 32 at step ${step}, ${seconds} s after Start.`,
      lossesTitle: (layers, held) =>
        `The loss on each half of ${held} held-out sequences, ${layers === 2 ? "two layers" : "one layer"}`,
      stepAxis: "step",
      lossAxis: "loss (nats)",
      weightAxis: "mean weight",
      firstHalf: "first half",
      repeatHalf: "repeated half",
      lnVLevel: (vocab, lnV) => `${lnV} = ln ${vocab}`,
      guessKey: "an even guess (dashed)",
      lossesTable: (every) => `The losses at step 0, every ${every}th step and the latest kept`,
      stepName: (s) => `step ${s}`,
      previousOf: (l) => `layer ${l}, previous token`,
      inductionOf: (l) => `layer ${l}, induction`,
      scoresTitle: (held) => `Each head's two scores on ${held} held-out sequences`,
      scoresTable: (every) => `The scores at step 0, every ${every}th step and the latest kept`,
      copiesTitle: (at) => `The circuit on this sequence, token by token, at ${at}`,
      tokenAt: (i, s) => `position ${i}: ${s}`,
      copyHead: "earlier copy at",
      afterHead: "after it, at",
      nextHead: "token there: the next",
      previousHead: "layer 1: weight there → copy",
      inductionHead: (l) => `layer ${l}: weight here → after`,
      pHead: "p(next)",
    },
  },
  zh: {
    gloss: () => undefined,
    ui: {
      layers: "层数 L",
      sequence: "留出的序列",
      at: "第 t 步时的权重",
      layer: "第 ℓ 层",
    },
    scenes: {
      induction: {
        title: "归纳头的形成：看模型学会“照抄”",
        analogy:
          "你在一篇文章里读到过一次“哈利·波特”，下次再看到“哈利”，就会料到后面是“波特”。模型只靠预测下一个词元，也能学会这一招：找到当前这个词元前面出现过的地方，预测那里后面跟着的词元。在这里亲手训练一个，看做这件事的两个头怎样出现。",
      },
    },
    steps: {
      repeats: {
        title: "会重复的序列",
        text: ({ vocab, lnV, m }) =>
          `模型学的是编出来的序列：每条 20 个词元，词表有 ${vocab} 个（用字母写：A 到 Z 去掉表示键、查询、值的 K、Q、V，再加上 Γ Δ Θ Λ Ξ Π Φ Ψ Ω）。每条开头是 3 到 10 个互不相同的词元组成的一段，接着把这一段原样再来一遍，后面是随机的词元。前一半里，下一个词元是新的：前面没有任何线索，模型最多只能平均地猜，损失是 ln ${vocab} = ${lnV} 奈特（概率 1/${vocab}）。重复的那一半里，下一个词元见过：就是当前词元上一次出现时紧跟在它后面的那个。没有人把这条规则告诉模型，它只是学着预测每一个下一个词元。这里的序列是训练时从不出现的留出序列；它的那一段有 ${m} 个词元。`,
      },
      learning: {
        title: "训练：看损失和两个分数",
        text: ({ layers, held, at, first, repeat, share, lnV, above, trained }) =>
          `按“开始”：本页的核心就在这个标签页里，从种子生成的随机权重开始，训练一个${layers === 2 ? "两层" : "一层"}的 Transformer（只有注意力：每层一个头，没有 MLP）。每 25 步它保存一次权重，并在 ${held} 条留出序列上测量：两半各自的损失（第一张图），以及每个头的两个分数（第二张图）：前一词元分数，即一个词元放在它前一个词元上的平均权重；归纳分数，即重复段里的一个词元放在“它上一次出现处的后一个词元”上的平均权重。${at}时，前一半的损失是 ${first} 奈特，重复那一半是 ${repeat}，为 ln 32（= ${lnV}）的 ${share}%。${above ? `前一半的损失高于 ln 32，也就是在 32 个词元里平均地猜所得的损失：模型在那里猜得不均匀，而且不均匀得吃亏，${trained ? "因为它在学着照抄：它把更多的概率押在已经出现过的词元上，而在前一半里，下一个词元从来不是它们" : "没训练过的模型都这样：它的权重是随机的"}。` : ""}${layers === 2 ? "留意损失的那一下骤降：头几百个训练步几乎没有变化；然后重复那一半的损失骤降，两个分数同时上升：第 1 层的前一词元分数和第 2 层的归纳分数。" : "只有一层时，看重复那一半的损失：它只降下来一部分，这个头的归纳分数远远达不到两层的水平。最后一步会说明原因。"}`,
      },
      stripes: {
        title: "注意力权重，任意一步",
        text: ({ layers, m, at, previous, induction, held }) =>
          layers === 2
            ? `两个头在这条序列上、${at}时的权重（行是发问的词元，列是被看的词元；每个词元只能看到自己和它前面的）。第 1 层的头：找对角线正下方的一条斜纹，即每个词元放在它前一个词元上的权重。第 2 层的头：在重复段（第 ${m + 1} 到 ${2 * m} 行）里找对角线左边第 ${m - 1} 列的一条斜纹，即每个词元放在“它上一次出现处的后一个词元”上的权重。在这个训练步，${held} 条留出序列上，第 1 层的前一词元分数是 ${previous}，第 2 层的归纳分数是 ${induction}。拖动 t，看斜纹怎样出现。`
            : `唯一的那个头在这条序列上、${at}时的权重。在这个训练步，${held} 条留出序列上，它的前一词元分数是 ${previous}，归纳分数是 ${induction}。拖动 t，看它能走多远。`,
      },
      written: {
        title: "一个头，完整写出",
        text: ({ where }) =>
          `下面把${where}完整写出来，写法和前面的场景一样：模型给每个词元一个查询和一个键（Q 和 K：它在残差流里的那一行，经过 LayerNorm，乘以 W_Q 和 W_K；各 64 个数，已按位置做了 RoPE 旋转），然后是 Q·Kᵀ / √64、因果掩码和 softmax。点击任意格子，看这个数是怎么来的。`,
      },
      circuit: {
        title: "下一个词元是怎样找到的",
        text: ({ layers, at, c, c2, both, other }) =>
          layers === 2
            ? `归纳头预测会重复的词元：在一个词元处，它去看这个词元上一次出现时紧跟在后面的那个词元。看第 ${c.at} 个位置，词元 ${c.token}，重复段的第一个。它上一次出现在第 ${c.copy} 个位置；那后面，第 ${c.after} 个位置，是 ${c.next}，所以这里的下一个词元就是 ${c.next}。训练好的模型分两步找到它。第 1 层的头在第 ${c.after} 个位置看它前面的词元 ${c.token}，并把它加进这个位置的那一行：第 ${c.after} 个位置从此带着“我前面是 ${c.token}”。第 2 层的头在第 ${c.at} 个位置，查询由 ${c.token} 而来；它和由“我前面是 ${c.token}”而来的键（在第 ${c.after} 个位置）对得上，于是在那里读到 ${c.next}。${at}时：第 1 层的头从第 ${c.after} 个位置放在第 ${c.copy} 个位置上的权重是 ${c.previous}，第 2 层的头从第 ${c.at} 个位置放在第 ${c.after} 个位置上的是 ${c.induction}，模型给 ${c.next} 的概率是 ${c.p}（瞎猜是 1/32）。${both ? "这里两个头都做到了。" : "还没有两个都做到：继续训练，再回来看。"}表格对重复段里除最后一个以外的每个词元都这样算了一遍（最后一个之后是随机词元）。`
            : `只有一层，就没有第一个动作。唯一的头在第 ${c.at} 个位置（词元 ${c.token}），得找到第 ${c.after} 个位置，即上一个 ${c.token} 后面的那个；可是一个键只由它自己位置上的词元和位置算出：第 ${c.after} 个位置上没有任何东西说明它前面是哪个词元。一层还能学到的是：下一个词元多半是前面出现过的；把前面的词元都抄过来，就把它们都抬高了，从 32 个里猜变成从那一段的词元里猜，重复那一半的损失因此降下来一部分。${at}时，这个头从第 ${c.at} 个位置放在第 ${c.after} 个位置上的权重是 ${c.induction}，模型给 ${c.next} 的概率是 ${c.p}。${placeZh(c, c2)}${other ? `两层的模型在这里训练到第 ${other.step} 步，归纳分数达到 ${other.induction}，这个头是 ${other.one}。` : "训练两层（L = 2）来比一比。"}表格对重复段里除最后一个以外的每个词元都这样算了一遍（最后一个之后是随机词元）。`,
      },
    },
    induction: {
      at: atZh,
      weightsOf: (l, at) => `权重，第 ${l} 层的头，${at}时`,
      layerName: (l, at) => `${at}时第 ${l} 层的头`,
      scaledCaption: "scaled = scores / √64 = scores × 0.125，scores = Q·Kᵀ",
      maskedCaption: "masked：因果掩码，后面的词元为 −∞",
      inStep4: (l) => `第 ${l} 层的头的权重一览；第 4 步写出每个数是怎么来的：`,
      fromModel: (name, l) =>
        `模型算出的：第 ${l} 层对残差流做 LayerNorm，乘以 W_${name}，再做 RoPE 旋转`,
      sequenceTitle: "这条序列，一个词元一个词元（上面是位置，下面是词元）",
      tokenLabel: (i, s, part) => `第 ${i} 个位置：${s}，${part}`,
      parts: { segment: "那一段", repeat: "它的重复", random: "随机词元" },
      trainer: "训练",
      start: "开始",
      resume: "继续",
      running: "训练中…",
      stop: "停止",
      again: "重新开始",
      trainIntro: (layers, total, batch, context, every, served) =>
        `用 AdamW 训练${layers === 2 ? "两层" : "一层"} ${total} 步，每步用 ${batch} 条新序列，每条 ${context} 个词元；${served ? "工作由下面的工作线程在页面的线程之外完成" : "工作在帧与帧之间一点一点地做"}，页面始终可用。每 ${every} 步保存一次权重，训练时页面显示最新的一份。离开这个实验、或换到另一种层数时暂停，之后从那里接着训练。`,
      notStarted: "还没开始：显示的是种子生成的随机权重（第 0 步）。",
      otherKept: (layers, step, done) =>
        `${layers === 1 ? "一" : "两"}层的那次训练还在：${done ? `已经完成，${step} 步都训练完了` : `暂停在第 ${step} 步`}；把 L 设为 ${layers} 就能看到。`,
      training: (n, total, rate, seconds) =>
        `训练中：第 ${n} 步，共 ${total} 步，用时 ${seconds} 秒，每秒 ${rate} 步。`,
      paused: (n, total, rate, seconds) =>
        `暂停在第 ${n} 步，共 ${total} 步，已用时 ${seconds} 秒。`,
      done: (n, total, rate, seconds) => `完成：${n} 步，用时 ${seconds} 秒，每秒 ${rate} 步。`,
      dropAt: (step, seconds) =>
        `重复那一半的损失在第 ${step} 步第一次降到 ln 32 的一半以下，开始后 ${seconds} 秒。`,
      lossesTitle: (layers, held) =>
        `${held} 条留出序列上两半各自的损失，${layers === 2 ? "两层" : "一层"}`,
      stepAxis: "步",
      lossAxis: "损失（奈特）",
      weightAxis: "平均权重",
      firstHalf: "前一半",
      repeatHalf: "重复的一半",
      lnVLevel: (vocab, lnV) => `${lnV} = ln ${vocab}`,
      guessKey: "平均瞎猜（虚线）",
      lossesTable: (every) => `第 0 步、每第 ${every} 步和最新保存那一步的损失`,
      stepName: (s) => `第 ${s} 步`,
      previousOf: (l) => `第 ${l} 层，前一词元`,
      inductionOf: (l) => `第 ${l} 层，归纳`,
      scoresTitle: (held) => `每个头在 ${held} 条留出序列上的两个分数`,
      scoresTable: (every) => `第 0 步、每第 ${every} 步和最新保存那一步的分数`,
      copiesTitle: (at) => `这条序列上的回路，一个词元一个词元，${at}时`,
      tokenAt: (i, s) => `第 ${i} 个位置：${s}`,
      copyHead: "上一次出现在",
      afterHead: "它后面，在",
      nextHead: "那里的词元：下一个",
      previousHead: "第 1 层：那里 → 上次出现处的权重",
      inductionHead: (l) => `第 ${l} 层：这里 → 它后面的权重`,
      pHead: "p（下一个）",
    },
  },
};
