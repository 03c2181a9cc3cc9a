// i18n/glossary.js: every technical word the page uses, in English and in Chinese: the words that
// name it on the page (a pattern), one plain sentence, the formula as the core computes it, and
// the scene or lab, at the step, where it is computed (a link the page's router reads:
// ?scene=…&step=…, the step counted from 1). web/ui/glossary.js links each word where it first
// appears in a scene or lab and opens its entry. Pure data: no DOM, no core.

/**
 * The entries, in the order the path meets them. Each: id, where: { scene, step, params? (the
 * scene's own parameters the step needs: the book's causal mask) }, and for each
 * language { term, match (a regular expression's source, matched case-insensitively in English),
 * text, formula }.
 */
export const glossary = [
  {
    id: "token",
    where: { scene: "model", step: 1 },
    en: {
      term: "token",
      match: String.raw`\btokens?\b`,
      text: "One piece of text that a model reads as a unit: in the walkthroughs a word, in the real model one character, in the induction lab one of 32 letters; in GPT-2, GPT-4o or Qwen a piece from their vocabularies, a word, a character or a few bytes (lesson 6). Each is known by its id, a number.",
      formula: "id = the token's place in the vocabulary (⏎ = 0, the unknown character = 1)",
    },
    zh: {
      term: "词元",
      match: "词元",
      text: "模型当作一个单位来读的一段文字：讲解里是一个词，真实模型里是一个字，归纳头实验里是 32 个字母之一；在 GPT-2、GPT-4o 或 Qwen 里是它们词表中的一个片段：一个词、一个字或几个字节（第 6 课）。每个词元用它的编号（一个数）来表示。",
      formula: "编号 = 它在词表中的位置（⏎ = 0，未知字 = 1）",
    },
  },
  {
    id: "vocabulary",
    where: { scene: "model", step: 1 },
    en: {
      term: "vocabulary",
      match: String.raw`\bvocabular(?:y|ies)\b`,
      text: "Every token a model knows, each with its id. The real model's is the characters that its Tang training poems hold at least twice; one learned by BPE is the symbols it starts from (characters, or the 256 bytes) and one token per merge (lesson 6).",
      formula: "1,497 tokens: ⏎, the unknown character, then the characters, most frequent first",
    },
    zh: {
      term: "词表",
      match: "词表",
      text: "模型认识的全部词元，每个都有编号。真实模型的词表是唐诗训练集里出现至少两次的字；用 BPE 学出的词表是起步的符号（字符，或 256 个字节）加上每次合并一个词元（第 6 课）。",
      formula: "1,497 个词元：⏎、未知字，然后是各个字，出现越多越靠前",
    },
  },
  {
    id: "core",
    where: { scene: "model", step: 5 },
    en: {
      term: "the core",
      match: String.raw`\bthe core\b`,
      text: "The program that computes every number on this page: attention written in C++, compiled to WebAssembly and run in your browser; nothing is sent anywhere.",
      formula:
        "a number shown = the core's result (float64; the real model's float32), rounded to the digits you choose",
    },
    zh: {
      term: "核心",
      match: "核心",
      text: "算出本页每一个数的程序：用 C++ 写的注意力，编译成 WebAssembly，在你的浏览器里运行，什么也不发送出去。",
      formula: "显示的数 = 核心的结果（float64；真实模型用 float32），按你选的位数取舍",
    },
  },
  {
    id: "query",
    where: { scene: "classroom", step: 2 },
    en: {
      term: "query",
      match: String.raw`\bquer(?:y|ies)\b`,
      text: "What a token is looking for: a row of numbers that is compared with every key.",
      formula: "q = x·W_Q (one row of Q)",
    },
    zh: {
      term: "查询",
      match: "查询",
      text: "一个词元要找什么：一行数，拿去和每个键比较。",
      formula: "q = x·W_Q（Q 的一行）",
    },
  },
  {
    id: "key",
    where: { scene: "classroom", step: 2 },
    en: {
      term: "key",
      match: String.raw`\bkeys?\b`,
      text: "What a token offers to be found by: a row of numbers that every query is compared with, like a name tag.",
      formula: "k = x·W_K (one row of K)",
    },
    zh: {
      term: "键",
      match: "(?<![按方格车])键(?!盘)",
      text: "一个词元凭什么被找到：一行数，每个查询都和它比较，就像名牌。",
      formula: "k = x·W_K（K 的一行）",
    },
  },
  {
    id: "value",
    where: { scene: "classroom", step: 6 },
    en: {
      term: "value",
      match: String.raw`\bvalues?\b`,
      text: "What a token hands over once it is found: a row of numbers; the output mixes the values by the weights.",
      formula: "v = x·W_V (one row of V)",
    },
    zh: {
      term: "值",
      match: "(?<![数大小均认差阈])值(?!得)",
      text: "一个词元被找到后交出的东西：一行数；输出按权重把各个值混合起来。",
      formula: "v = x·W_V（V 的一行）",
    },
  },
  {
    id: "dot-product",
    where: { scene: "classroom", step: 3 },
    en: {
      term: "dot product",
      match: String.raw`\bdot products?\b`,
      text: "Two rows of numbers multiplied place by place, the products added: large when the two point the same way, 0 when they have nothing in common.",
      formula: "q·k = Σ_d q[d]·k[d] (for q = [1, 2] and k = [3, 4]: 1×3 + 2×4 = 11)",
    },
    zh: {
      term: "点积",
      match: "点积",
      text: "两行数逐位相乘，再把乘积加起来：两者方向越一致，点积越大；毫无共同之处时为 0。",
      formula: "q·k = Σ_d q[d]·k[d]（q = [1, 2]、k = [3, 4] 时：1×3 + 2×4 = 11）",
    },
  },
  {
    id: "score",
    where: { scene: "classroom", step: 3 },
    en: {
      term: "score",
      // not a head's previous-token or induction score: a mean weight (induction-head)
      match: String.raw`(?<!previous-token |induction )\bscores?\b`,
      text: "How well a query matches a key: their dot product (scaled by 1/√d_k before the softmax).",
      formula: "score[i][j] = q_i·k_j = Σ_d q_i[d]·k_j[d]; scaled = score × 1/√d_k",
    },
    zh: {
      term: "分数",
      match: "(?<!前一词元|归纳|[部百充])分数",
      text: "一个查询和一个键有多匹配：它们的点积（进 softmax 之前再乘以 1/√d_k）。",
      formula: "分数[i][j] = q_i·k_j = Σ_d q_i[d]·k_j[d]；缩放后 = 分数 × 1/√d_k",
    },
  },
  {
    id: "mask",
    where: { scene: "book", step: 5, params: { causal: true } },
    en: {
      term: "mask",
      match: String.raw`\bmask(?:s|ed)?\b`,
      text: "A rule that a query may not look at some keys; with a causal mask a token sees only itself and what came before it.",
      formula:
        "masked[i][j] = −∞ where query i may not see key j (causal: j > i), so its weight is 0",
    },
    zh: {
      term: "掩码",
      match: "掩码",
      text: "规定某个查询不能看某些键；因果掩码下，一个词元只能看到自己和前面的词元。",
      formula: "查询 i 不能看键 j 处，masked[i][j] = −∞（因果：j > i），它的权重就是 0",
    },
  },
  {
    id: "softmax",
    where: { scene: "classroom", step: 5 },
    en: {
      term: "softmax",
      match: String.raw`\bsoftmax\b`,
      text: "Turns a row of scores into weights that are all positive, since exp is never negative, and add up to 1, since each is divided by their sum: shares of the row, the larger score's the larger.",
      formula: "weight[j] = exp(x[j] − max x) / Σ_k exp(x[k] − max x)",
    },
    zh: {
      term: "softmax",
      match: "softmax",
      text: "把一行分数变成权重：都是正数，因为 exp 永远不是负数；加起来是 1，因为每个都除以了它们的和：是这一行的份额，分数越大，分到的越多。",
      formula: "权重[j] = exp(x[j] − max x) / Σ_k exp(x[k] − max x)",
    },
  },
  {
    id: "weight",
    where: { scene: "classroom", step: 5 },
    en: {
      term: "weight",
      match: String.raw`\bweights?\b`,
      text: "An attention weight is how much of each value a query takes: a row of softmax, adding up to 1. A model's weights (W_Q, W_K, W_V and the rest) are the numbers it learns.",
      formula: "weights = softmax(Q·Kᵀ/√d_k), each row sums to 1",
    },
    zh: {
      term: "权重",
      match: "权重",
      text: "注意力权重是一个查询从每个值里取多少：softmax 的一行，加起来是 1。模型的权重（W_Q、W_K、W_V 等）是它学到的数。",
      formula: "权重 = softmax(Q·Kᵀ/√d_k)，每行之和为 1",
    },
  },
  {
    id: "output",
    where: { scene: "classroom", step: 6 },
    en: {
      term: "output",
      match: String.raw`\boutputs?\b`,
      text: "What attention gives each query: the values, mixed by its weights.",
      formula: "output = weights·V; output[i] = Σ_j weight[i][j]·v_j",
    },
    zh: {
      term: "输出",
      match: "输出",
      text: "注意力给每个查询的结果：按它的权重混合起来的值。",
      formula: "输出 = 权重·V；输出[i] = Σ_j 权重[i][j]·v_j",
    },
  },
  {
    id: "bag-of-words",
    where: { scene: "apple", step: 7 },
    en: {
      term: "bag of words",
      match: String.raw`\bbags? of words\b`,
      text: "A text taken as its words' own vectors, their order and neighbours ignored: a word means the same in every sentence, one fixed average of its meanings. What attention adds is the neighbours.",
      formula:
        "a word's vector = its own (its value), whatever the sentence; attention's: Σ_j weight[j]·v_j",
    },
    zh: {
      term: "词袋",
      match: "词袋",
      text: "把一段文字只看成各个词自己的向量，不管先后、不管旁边的词：一个词在每句话里都一样，是它几个意思的一个固定平均。注意力补上的，正是旁边的词。",
      formula: "词的向量 = 它自己的（它的值），不论在哪句话里；注意力的：Σ_j 权重[j]·v_j",
    },
  },
  {
    id: "variance",
    where: { scene: "scaling", step: 1 },
    en: {
      term: "variance",
      match: String.raw`\bvariances?\b`,
      text: "How widely numbers spread around their mean: the mean of their squared distances from it.",
      formula:
        "var(x) = mean((x − mean(x))²); numbers of mean 0 and variance 1 mostly lie between −2 and 2",
    },
    zh: {
      term: "方差",
      match: "方差",
      text: "一组数围绕平均值散开得有多宽：它们到平均值的距离的平方的平均。",
      formula: "var(x) = mean((x − mean(x))²)；均值 0、方差 1 的数大多落在 −2 到 2 之间",
    },
  },
  {
    id: "one-hot",
    where: { scene: "scaling", step: 2 },
    en: {
      term: "one-hot",
      match: String.raw`\bone-hot\b`,
      text: "A row that is 1 in one place and 0 everywhere else: a softmax gone one-hot gives all its weight to one key.",
      formula:
        "[0, …, 0, 1, 0, …, 0]; the √d_k lab counts a row as one-hot when its largest weight is above 0.99",
    },
    zh: {
      term: "独热",
      match: "独热",
      text: "只有一个位置是 1、其余都是 0 的一行：变成独热的 softmax 把全部权重给了一个键。",
      formula: "[0, …, 0, 1, 0, …, 0]；√d_k 实验里，一行的最大权重超过 0.99 就算独热",
    },
  },
  {
    id: "head",
    where: { scene: "heads", step: 4 },
    en: {
      term: "head",
      match: String.raw`\bheads?\b`,
      text: "One attention of several side by side, each with its own W_Q, W_K and W_V, so each can look for something else; their outputs are joined.",
      formula: "head_h = softmax(Q_h·K_hᵀ/√d_head)·V_h; output = [head_1 … head_H]·W_O",
    },
    zh: {
      term: "头",
      match: "(?<![回从开箭镜尽])头",
      text: "并排的几份注意力中的一份，各有自己的 W_Q、W_K、W_V，所以各找各的；它们的输出拼起来。",
      formula: "头_h = softmax(Q_h·K_hᵀ/√d_head)·V_h；输出 = [头_1 … 头_H]·W_O",
    },
  },
  {
    id: "d-head",
    where: { scene: "heads", step: 1 },
    en: {
      term: "d_head",
      match: String.raw`\bd_head\b`,
      text: "How many numbers each head's queries, keys and values have: W_Q gives every head d_head columns of its own.",
      formula:
        "W_Q has h·d_head columns; a head scales its scores by 1/√d_head (the heads lab: d_head = 2; the real model: 64/4 = 16)",
    },
    zh: {
      term: "d_head",
      match: String.raw`\bd_head\b`,
      text: "每个头的查询、键、值各有几个数：W_Q 给每个头各自 d_head 列。",
      formula:
        "W_Q 有 h·d_head 列；一个头把分数乘以 1/√d_head（多头实验：d_head = 2；真实模型：64/4 = 16）",
    },
  },
  {
    id: "h-kv",
    where: { scene: "gqa", step: 2 },
    en: {
      term: "h_kv",
      match: String.raw`\bh_kv\b`,
      text: "How many key-value heads there are: with fewer of them than query heads (grouped-query attention), several query heads share one key and one value, and the KV cache is smaller.",
      formula:
        "query head i reads key-value head ⌈i·h_kv/h⌉; the cache keeps 2·h_kv·d_head numbers per token",
    },
    zh: {
      term: "h_kv",
      match: String.raw`\bh_kv\b`,
      text: "键值头的个数：比查询头少时（分组查询注意力），几个查询头共用一份键和值，KV 缓存也就更小。",
      formula: "查询头 i 读键值头 ⌈i·h_kv/h⌉；缓存每个词元存 2·h_kv·d_head 个数",
    },
  },
  {
    id: "concat",
    where: { scene: "heads", step: 5 },
    en: {
      term: "concat",
      match: String.raw`\bconcat\b`,
      text: "The heads' outputs put side by side: one row per token, each head's columns after the one before.",
      formula: "concat = [head_1 … head_h], h·d_head columns (the heads lab: 4 × 2 = 8)",
    },
    zh: {
      term: "concat",
      match: String.raw`\bconcat\b`,
      text: "各个头的输出并排放在一起：每个词元一行，一个头的列接在前一个头后面。",
      formula: "concat = [头_1 … 头_h]，共 h·d_head 列（多头实验：4 × 2 = 8）",
    },
  },
  {
    id: "w-o",
    where: { scene: "heads", step: 6 },
    en: {
      term: "W_O",
      match: String.raw`\bW_O\b`,
      text: "The output matrix: it turns the heads' outputs, side by side, back into one row as wide as the token's own, which the model adds to the residual stream.",
      formula:
        "output = concat·W_O; W_O has h·d_head rows and d_model columns (the heads lab: 8 × 7)",
    },
    zh: {
      term: "W_O",
      match: String.raw`\bW_O\b`,
      text: "输出矩阵：把并排的各个头的输出变回和词元自己一样宽的一行，模型再把它加到残差流上。",
      formula: "输出 = concat·W_O；W_O 有 h·d_head 行、d_model 列（多头实验：8 × 7）",
    },
  },
  {
    id: "kvcache",
    where: { scene: "kvcache", step: 1 },
    en: {
      term: "KV cache",
      match: String.raw`\bKV cache\b`,
      text: "When a model writes one token at a time, the keys and values of the tokens before do not change: it keeps them and computes only the new token's.",
      formula: "K ← [K; k_new], V ← [V; v_new]; the new query's output = softmax(q_new·Kᵀ/√d_k)·V",
    },
    zh: {
      term: "KV 缓存",
      match: "KV ?缓存",
      text: "模型一次写一个词元时，前面词元的键和值不会变：把它们存下来，只算新词元的。",
      formula: "K ← [K; k_新]，V ← [V; v_新]；新查询的输出 = softmax(q_新·Kᵀ/√d_k)·V",
    },
  },
  {
    id: "rope",
    where: { scene: "order", step: 3 },
    en: {
      term: "RoPE",
      match: String.raw`\bRoPE\b`,
      text: "Rotary position embedding: each pair of a query's and a key's numbers is turned by an angle that grows with the position, so the positions reach their score only through how far apart they are (what the tokens are still counts).",
      formula: "(x₂ᵢ, x₂ᵢ₊₁) turned by pos·θᵢ, θᵢ = base^(−2i/d); the model's base is 10000",
    },
    zh: {
      term: "RoPE",
      match: "RoPE",
      text: "旋转位置编码：查询和键的每一对数按随位置增大的角度旋转，于是位置只通过两者相隔多远影响分数（词元本身是什么照样算数）。",
      formula: "(x₂ᵢ, x₂ᵢ₊₁) 旋转 pos·θᵢ，θᵢ = base^(−2i/d)；模型的 base 是 10000",
    },
  },
  {
    id: "embedding",
    where: { scene: "order", step: 2 },
    en: {
      term: "embedding",
      match: String.raw`\bembeddings?\b`,
      text: "The row of numbers a model learns for each token and reads in its place; wte is the table of them, one row per token of the vocabulary.",
      formula:
        "x = wte[id], a row of C numbers (the real model: 64); the logits reuse the table: z = h·wteᵀ",
    },
    zh: {
      term: "嵌入",
      match: "嵌入",
      text: "模型为每个词元学到的一行数，读的时候用它代替词元；wte 是这些行组成的表，词表里每个词元一行。",
      formula: "x = wte[编号]，一行 C 个数（真实模型：64）；logit 也用这张表：z = h·wteᵀ",
    },
  },
  {
    id: "logit",
    where: { scene: "model", step: 5 },
    en: {
      term: "logit",
      match: String.raw`\blogits?\b`,
      text: "A model's raw score for each token of its vocabulary as the next one; softmax turns the logits into probabilities.",
      formula: "z = h·wteᵀ: the last row's final LayerNorm times each token's embedding",
    },
    zh: {
      term: "logit",
      match: "logit",
      text: "模型给词表里每个词元作为下一个的原始分数；softmax 把 logit 变成概率。",
      formula: "z = h·wteᵀ：最后一行的最终 LayerNorm 乘以每个词元的嵌入",
    },
  },
  {
    id: "probability",
    where: { scene: "model", step: 5 },
    en: {
      term: "probability",
      match: String.raw`\bprobabilit(?:y|ies)\b`,
      text: "How likely the model says something is, between 0 and 1; the probabilities of all the next tokens add up to 1.",
      formula: "p = softmax(z); Σ p = 1",
    },
    zh: {
      term: "概率",
      match: "概率",
      text: "模型认为某件事有多可能，在 0 和 1 之间；所有下一个词元的概率加起来是 1。",
      formula: "p = softmax(z)；Σ p = 1",
    },
  },
  {
    id: "temperature",
    where: { scene: "model", step: 5 },
    en: {
      term: "temperature",
      match: String.raw`\btemperature\b`,
      text: "How many chances the model takes when it draws the next token: τ = 0 always takes the likeliest, a larger τ spreads the probabilities out.",
      formula: "p[j] = exp((z[j] − max z)/τ) / Σ_k exp((z[k] − max z)/τ)",
    },
    zh: {
      term: "温度",
      match: "温度",
      text: "模型抽下一个词元时冒多大险：τ = 0 总取最可能的，τ 越大，概率越平均。",
      formula: "p[j] = exp((z[j] − max z)/τ) / Σ_k exp((z[k] − max z)/τ)",
    },
  },
  {
    id: "loss",
    where: { scene: "teach", step: 1 },
    en: {
      term: "loss",
      match: String.raw`\bloss(?:es)?\b`,
      text: "One number that says how wrong a model is; training makes it smaller. The real model's is the mean −ln p of the right next character.",
      formula: "L = −(1/N) Σ_t ln p(the right next token at t), in nats",
    },
    zh: {
      term: "损失",
      match: "损失",
      text: "一个说明模型错得多厉害的数；训练就是让它变小。真实模型的损失是正确的下一个字的 −ln p 的平均。",
      formula: "L = −(1/N) Σ_t ln p（t 处正确的下一个词元），单位是奈特",
    },
  },
  {
    id: "cross-entropy",
    where: { scene: "teach", step: 1 },
    en: {
      term: "cross-entropy",
      match: String.raw`\bcross-entropy\b`,
      text: "The loss of a model that gives probabilities: minus the log of the probability it gave the right answer.",
      formula: "L = −ln p(right)",
    },
    zh: {
      term: "交叉熵",
      match: "交叉熵",
      text: "给出概率的模型的损失：它给正确答案的概率取对数，再取负。",
      formula: "L = −ln p(正确)",
    },
  },
  {
    id: "nats",
    where: { scene: "model", step: 6 },
    en: {
      term: "nats",
      match: String.raw`\bnats\b`,
      text: "The unit of a loss measured with the natural log, ln; a model that spreads its probability evenly over n tokens scores ln n.",
      formula: "1 nat = 1/ln 2 ≈ 1.443 bits; uniform over n: −ln(1/n) = ln n",
    },
    zh: {
      term: "奈特",
      match: "奈特",
      text: "用自然对数 ln 量的损失的单位；把概率平均分给 n 个词元的模型，损失是 ln n。",
      formula: "1 奈特 = 1/ln 2 ≈ 1.443 比特；n 个平均分：−ln(1/n) = ln n",
    },
  },
  {
    id: "held-out",
    where: { scene: "model", step: 6 },
    en: {
      term: "held-out",
      match: String.raw`\bheld-out\b`,
      text: "Text kept apart that the model never trains on: its loss there says how well it does on text it has not seen.",
      formula:
        "the real model: every tenth Tang poem (index mod 10 = 9); another tenth (mod 10 = 8) picks the best training step; the other 80% are trained on. Held-out loss = the loss on those poems. The induction lab: 128 sequences drawn from another seed than its training's",
    },
    zh: {
      term: "留出",
      match: "留出",
      text: "单独留下、模型从不拿来训练的文本：在它上面的损失说明模型对没见过的文本做得怎样。",
      formula:
        "真实模型：每十首唐诗的第十首（编号 mod 10 = 9）；另有十分之一（mod 10 = 8）用来挑最好的训练步；其余 80% 用来训练。留出损失 = 在这些诗上的损失。归纳头实验：用和训练不同的种子抽出的 128 条序列",
    },
  },
  {
    id: "training-step",
    where: { scene: "teach", step: 3 },
    en: {
      term: "training step",
      match: String.raw`\btraining steps?\b`,
      text: "One change of every weight, a little against its gradient; training is many of them. Not a step of a walkthrough.",
      formula:
        "w ← w − η·∂L/∂w, for every weight w (η: the learning rate; the real model: AdamW's step)",
    },
    zh: {
      term: "训练步",
      match: "训练步",
      text: "把每个权重顺着梯度的反方向改一点，叫一个训练步；训练就是很多步。它不是讲解里的一步。",
      formula: "对每个权重 w：w ← w − η·∂L/∂w（η 是学习率；真实模型：AdamW 的一步）",
    },
  },
  {
    id: "gradient",
    where: { scene: "sharpness", step: 2 },
    en: {
      term: "gradient",
      match: String.raw`\bgradients?\b`,
      text: "How much the loss changes when one number changes a little: the direction in which to change it, and how steeply.",
      formula: "∂L/∂w for a weight w, by the chain rule through every step, back from the loss",
    },
    zh: {
      term: "梯度",
      match: "梯度",
      text: "一个数稍微变一点，损失变多少：往哪个方向改它，坡有多陡。",
      formula: "权重 w 的梯度 ∂L/∂w，用链式法则从损失一步步往回算",
    },
  },
  {
    id: "learning-rate",
    where: { scene: "sharpness", step: 3 },
    en: {
      term: "learning rate",
      match: String.raw`\blearning rate\b`,
      text: "How far each training step moves the weights along the gradient: too small is slow, too large overshoots.",
      formula:
        "η in w ← w − η·∂L/∂w; the real model: 3e-3 after a warmup of 100 steps, cosine down to a tenth",
    },
    zh: {
      term: "学习率",
      match: "学习率",
      text: "每个训练步沿梯度把权重挪多远：太小就慢，太大就冲过头。",
      formula: "w ← w − η·∂L/∂w 里的 η；真实模型：预热 100 步后 3e-3，按余弦降到十分之一",
    },
  },
  {
    id: "adamw",
    where: { scene: "model", step: 6 },
    en: {
      term: "AdamW",
      match: String.raw`\bAdamW\b`,
      text: "The way the real model's training steps change each weight: by a running mean of its gradients over their running size, and a little toward 0.",
      formula:
        "m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², w ← w − η((m/(1−β₁ᵗ))/(√(v/(1−β₂ᵗ)) + ε) + λw); β 0.9, 0.95, ε 1e-8, λ 0.1 on the matrices",
    },
    zh: {
      term: "AdamW",
      match: "AdamW",
      text: "真实模型的训练步改每个权重的办法：用它梯度的滑动平均除以梯度的滑动大小，再往 0 拉一点。",
      formula:
        "m ← β₁m + (1−β₁)g，v ← β₂v + (1−β₂)g²，w ← w − η((m/(1−β₁ᵗ))/(√(v/(1−β₂ᵗ)) + ε) + λw)；β 0.9、0.95，ε 1e-8，λ 0.1（只用于矩阵）",
    },
  },
  {
    id: "mlp",
    where: { scene: "model", step: 3 },
    en: {
      term: "MLP",
      match: String.raw`\bMLPs?\b`,
      text: "The other half of each block: two matrices with a bend (GELU) between them, applied to each token's row on its own; attention mixes tokens, the MLP works within one. Llama and Qwen use three matrices (a gated MLP, SwiGLU).",
      formula:
        "MLP(h) = GELU(h·W_fc + b_fc)·W_proj + b_proj; W_fc is C×4C, W_proj 4C×C (the real model: 64×256)",
    },
    zh: {
      term: "MLP",
      match: String.raw`\bMLP\b`,
      text: "每个块的另一半：两个矩阵，中间夹一个弯折（GELU），对每个词元的那一行单独计算；注意力在词元之间混合，MLP 只在一个词元内部计算。Llama 和 Qwen 用三个矩阵（门控 MLP，SwiGLU）。",
      formula:
        "MLP(h) = GELU(h·W_fc + b_fc)·W_proj + b_proj；W_fc 是 C×4C，W_proj 是 4C×C（真实模型：64×256）",
    },
  },
  {
    id: "layernorm",
    where: { scene: "model", step: 3 },
    en: {
      term: "LayerNorm",
      match: String.raw`\bLayerNorm\b`,
      text: "Brings each row to mean 0 and variance 1, then scales and shifts it by learned numbers, before attention and the MLP read it.",
      formula: "h = (x − mean(x)) / √(var(x) + 1e-5) ⊙ g + b, row by row",
    },
    zh: {
      term: "LayerNorm",
      match: "LayerNorm",
      text: "把每一行变成均值 0、方差 1，再用学到的数缩放、平移，然后交给注意力和 MLP 去读。",
      formula: "h = (x − mean(x)) / √(var(x) + 1e-5) ⊙ g + b，逐行",
    },
  },
  {
    id: "residual",
    where: { scene: "model", step: 3 },
    en: {
      term: "residual stream",
      match: String.raw`\bresidual(?: stream)?\b`,
      text: "The row of numbers each token carries through the model: every block adds what it computes to it, and nothing replaces it.",
      formula: "x ← x + attention(LayerNorm(x)); x ← x + MLP(LayerNorm(x))",
    },
    zh: {
      term: "残差流",
      match: "残差流?",
      text: "每个词元在模型里一路带着的那一行数：每个块把自己算出的加上去，谁也不替换它。",
      formula: "x ← x + 注意力(LayerNorm(x))；x ← x + MLP(LayerNorm(x))",
    },
  },
  {
    id: "dropout",
    where: { scene: "dropout", step: 2 },
    en: {
      term: "dropout",
      match: String.raw`\bdropout\b`,
      text: "While a model trains, some attention weights are set to 0 at random and the rest made larger, so that it cannot lean on any one.",
      formula: "w' = 0 with probability p, else w/(1 − p)",
    },
    zh: {
      term: "dropout",
      match: "dropout",
      text: "训练时随机把一些注意力权重置为 0，其余的放大，让模型不能只依赖某一个。",
      formula: "w' 以概率 p 为 0，否则为 w/(1 − p)",
    },
  },
  {
    id: "seed",
    where: { scene: "dropout", step: 2 },
    en: {
      term: "random seed",
      match: String.raw`\b(?:random )?seed(?:s|ed)?\b`,
      text: "The number a stream of random numbers starts from: the same seed gives the same numbers again, so every random draw here can be repeated.",
      formula:
        "the core's one seeded generator (SplitMix64, a small, well-known one): seed → the same numbers, every time",
    },
    zh: {
      term: "随机种子",
      match: "(?:随机)?种子",
      text: "一串随机数从哪个数开始：同一个种子给出同样的数，所以这里每次随机抽取都能重现。",
      formula:
        "核心唯一的带种子的随机数发生器（SplitMix64，一个小而常用的发生器）：同一个种子 → 每次同样的数",
    },
  },
  {
    id: "transformer",
    where: { scene: "model", step: 1 },
    en: {
      term: "transformer",
      match: String.raw`\btransformers?\b`,
      text: "A model built of layers, each of which lets every token look at the tokens before it (attention, in several heads) and then works on what it gathered (an MLP), each adding its result to the token's row (the residual stream). Lesson 5's models are small transformers; so are today's large language models.",
      formula:
        "a layer: x ← x + attention(LayerNorm(x)), then x ← x + MLP(LayerNorm(x)); at the end, the last row's LayerNorm · the embeddings = the next token's logits",
    },
    zh: {
      term: "Transformer",
      match: "[Tt]ransformer",
      text: "一种由若干层搭成的模型：每层先让每个词元去看它前面的词元（注意力，分几个头），再对收集到的东西加工（MLP），每一步都把结果加到这个词元的那一行上（残差流）。第 5 课的模型都是小小的 Transformer；今天的大语言模型也是。",
      formula:
        "一层：x ← x + 注意力(LayerNorm(x))，然后 x ← x + MLP(LayerNorm(x))；最后，最后一行的 LayerNorm · 嵌入 = 下一个词元的 logits",
    },
  },
  {
    id: "induction-head",
    where: { scene: "induction", step: 5 },
    en: {
      term: "induction head",
      match: String.raw`\binduction (?:heads?|scores?)\b|\bprevious-token scores?\b`,
      text: "A head that predicts a repeat: at a token, it looks at the token that came just after that token's earlier copy. It needs a head in an earlier layer that has written into each position the token before it (a previous-token head).",
      formula:
        "previous-token score = the mean weight from position i on i − 1; induction score = the mean weight from a token of the repeat (i = m … 2m − 1) on i − m + 1, the position after its earlier copy; both over 128 held-out sequences",
    },
    zh: {
      term: "归纳头",
      match: "归纳头|归纳分数|前一词元分数",
      text: "预测重复的头：在一个词元处，它去看这个词元上一次出现时紧跟在后面的那个词元。它要靠更早一层里的一个头先把“前一个词元是谁”写进每个位置（前一词元头）。",
      formula:
        "前一词元分数 = 从位置 i 放在 i − 1 上的平均权重；归纳分数 = 从重复段的词元（i = m … 2m − 1）放在 i − m + 1（它上一次出现处的后一个位置）上的平均权重；都在 128 条留出序列上求平均",
    },
  },
  {
    id: "byte",
    where: { scene: "tokens", step: 1 },
    en: {
      term: "byte",
      match: String.raw`\bbytes?\b`,
      text: "The unit computers store everything in: 8 bits, a whole number from 0 to 255, written here in hexadecimal (00 to FF). Text is stored as bytes through UTF-8.",
      formula: "a byte = 8 bits: 256 values, 00 … FF",
    },
    zh: {
      term: "字节",
      match: "字节",
      text: "计算机存放一切的单位：8 个比特，一个 0 到 255 的整数，这里用十六进制写（00 到 FF）。文字通过 UTF-8 存成字节。",
      formula: "一个字节 = 8 比特：256 个值，00 … FF",
    },
  },
  {
    id: "utf8",
    where: { scene: "tokens", step: 1 },
    en: {
      term: "UTF-8",
      match: String.raw`\bUTF-8\b`,
      text: "How almost all text is stored: each character as 1 to 4 bytes. A Latin letter takes 1 byte, a Chinese character 3, an emoji 4. A real model's tokenizer starts from these bytes.",
      formula: "我 = E6 88 91, a = 61, 😀 = F0 9F 98 80",
    },
    zh: {
      term: "UTF-8",
      match: "UTF-8",
      text: "几乎所有文字的存储方式：每个字符 1 到 4 个字节。拉丁字母 1 个字节，汉字 3 个，表情符号 4 个。真实模型的分词器就从这些字节开始。",
      formula: "我 = E6 88 91，a = 61，😀 = F0 9F 98 80",
    },
  },
  {
    id: "bpe",
    where: { scene: "bpe", step: 1 },
    en: {
      term: "BPE",
      match: String.raw`\bBPE\b|\bbyte-pair encoding\b`,
      text: "Byte-pair encoding: how GPT-2, GPT-4o and Qwen build their vocabularies. Start from characters or bytes, count every pair of neighbouring tokens in a text, merge the most frequent pair into one new token, and again, as many times as the vocabulary should grow.",
      formula: "vocabulary = the first symbols + one token per merge (from bytes: 256 + merges)",
    },
    zh: {
      term: "BPE（字节对编码）",
      match: "BPE|字节对编码",
      text: "字节对编码：GPT-2、GPT-4o 和 Qwen 造词表的办法。从字符或字节开始，数出文字里每一对相邻的词元，把出现最多的一对合并成一个新词元，再来一遍，词表要多大就重复多少次。",
      formula: "词表 = 起步的符号 + 每次合并一个词元（从字节开始：256 + 合并次数）",
    },
  },
  {
    id: "merge",
    where: { scene: "bpe", step: 3 },
    en: {
      term: "merge",
      match: String.raw`\bmerg(?:e|es|ed|ing)\b`,
      text: "One step of BPE: the pair of neighbouring tokens that occurs most often becomes one new token, wherever it occurs, left to right (where two places overlap, as in 啊啊啊, only the first is merged).",
      formula: "tokens after = tokens before − places merged",
    },
    zh: {
      term: "合并",
      match: "合并",
      text: "BPE 的一步：出现最多的那一对相邻词元，在它出现的每个地方从左到右变成一个新词元（两处重叠时，比如“啊啊啊”，只合并前一处）。",
      formula: "合并后的词元数 = 合并前的词元数 − 合并的处数",
    },
  },
  {
    id: "context",
    where: { scene: "tokens", step: 5 },
    en: {
      term: "context",
      match: String.raw`\bcontext(?: window)?\b`,
      text: "How many tokens a model reads at once: every query attends over at most this many keys. Text that costs more tokens fills it sooner.",
      formula:
        "GPT-2: 1,024 tokens; the Tang model: 64; characters of a text that fit = ⌊context × characters / tokens⌋",
    },
    zh: {
      term: "上下文",
      match: "上下文(?:窗口)?",
      text: "模型一次能读的词元数：每个查询最多对这么多个键算注意力。一段文字占的词元越多，就越快把它填满。",
      formula: "GPT-2：1,024 个词元；唐诗模型：64；能装下的字数 = ⌊上下文 × 字数 / 词元数⌋",
    },
  },
  {
    id: "parameter",
    where: { scene: "sizes", step: 2 },
    en: {
      term: "parameter",
      match: String.raw`\bparameters?\b`,
      text: "One number a model learns in training: every entry of W_Q, W_K, W_V, W_O, the MLP's matrices, the embedding and the norms. A model's size is how many it has.",
      formula: "Llama 3 8B: 8,030,261,248; the Tang model: 195,392",
    },
    zh: {
      term: "参数",
      match: "参数",
      text: "模型在训练中学到的一个数：W_Q、W_K、W_V、W_O、MLP 的矩阵、嵌入和归一化里的每一个数。模型的大小就是它有多少个参数。",
      formula: "Llama 3 8B：8,030,261,248；唐诗模型：195,392",
    },
  },
  {
    id: "bits16",
    where: { scene: "sizes", step: 3 },
    en: {
      term: "16-bit",
      match: String.raw`\b16-bit\b`,
      text: "A number stored in 16 bits, 2 bytes (bfloat16 or float16): how real models usually keep their weights and their KV cache. The page's core computes in 64-bit and 32-bit numbers.",
      formula: "16 bits = 2 bytes; the KV cache per token = 2 × L × h_kv × d_head × 2 bytes",
    },
    zh: {
      term: "16 位",
      match: "16 ?位",
      text: "用 16 个比特、2 个字节存的一个数（bfloat16 或 float16）：真实模型通常这样存权重和 KV 缓存。本页的核心用 64 位和 32 位的数计算。",
      formula: "16 位 = 2 字节；每个词元的 KV 缓存 = 2 × L × h_kv × d_head × 2 字节",
    },
  },
];

const byId = Object.fromEntries(glossary.map((entry) => [entry.id, entry]));

/** An entry by id. */
export const entryOf = (id) => byId[id];

/** [{ id, pattern }] for a language: each entry's words as a global regular expression. */
export function patternsFor(lang) {
  return glossary.map((entry) => ({
    id: entry.id,
    pattern: new RegExp(entry[lang].match, lang === "en" ? "gi" : "g"),
  }));
}

/** The page's address of where an entry is computed, in a language (a toggle on is 1). */
export function whereHref({ where }, lang) {
  const params = Object.entries(where.params ?? {}).map(
    ([id, value]) => `&${id}=${value === true ? 1 : value}`,
  );
  return `?scene=${where.scene}&lang=${lang}&step=${where.step}${params.join("")}`;
}
