// labs/inside/words.js: every string of the four model labs, in Chinese and English.
// The scene list's names are also in web/i18n (they show before a lab loads).
import { tokens } from "./data.js";

// 1 + 2 + … + n, written out
const upTo = (n) => Array.from({ length: n }, (_, i) => i + 1).join(" + ");

// "1 token", "2 tokens"
const many = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// The KV-cache lab's steps, one per token: token1 … token5.
const tokenSteps = (title) =>
  Object.fromEntries(
    tokens.map((token, t) => [`token${t + 1}`, { title: title(t + 1, token), text: "" }]),
  );

const en = {
  // X is the one input a learner edits here (heads.js); the weights are the lab's.
  ui: { edit: "Click a number of X to edit it. Enter applies, Escape cancels." },
  inside: {
    dims: {
      person: "person",
      function: "function word",
      place: "place",
      action: "action",
      thing: "thing",
      pos1: "pos cos",
      pos2: "pos sin",
    },
    headLine: (h, g, q1, q2, k1, k2) =>
      `head ${h}: its Q is columns ${q1}–${q2} of Q; its K and V are columns ${k1}–${k2} of K and V (key-value head ${g})`,
    headTitle: (h, g) => `head ${h} (key-value head ${g})`,
    oneHead: (token, a, b, h) =>
      `Why more than one head? One head gives each token one row of weights, and a row adds up to 1: the more it gives one token, the less is left for every other, so one head can split its row between two tokens but cannot give both of them most of it. Here ${token} gives ${a.weight} of head ${a.head}'s weights to ${a.key} and ${b.weight} of head ${b.head}'s to ${b.key}: each more than half, together more than the 1 that one row holds. ${h} heads give each token ${h} rows of weights, so it can give most of one row to each.`,
    oneHeadOnly: (h) =>
      `Why more than one head? One head gives each token one row of weights, and a row adds up to 1: the more it gives one token, the less is left for every other, so one head can split its row between two tokens but cannot give both of them most of it. ${h} heads give each token ${h} rows of weights.`,
    concatLine: (cell, h, from) => `${cell} = ${from} (head ${h}'s output, put side by side)`,
    positionsNote:
      "Attention itself cannot see word order: the last two columns of X are hand-made position features (a point that turns 60° per token), so that head 2 can find the previous token.",
    // around the word-order lab's name, a link
    positionsSee: [" The lab “", "” shows how models add positions."],
    groups: (pairs) => `Query heads and the key-value head each reads: ${pairs}.`,
    pair: (h, g) => `${h}→${g}`,
    cacheTitle: "the KV cache, in numbers",
    cacheRow: (hKv) => `h_kv = ${hKv}`,
    cacheCols: ["K (or V) per token", "K after 5 tokens", "V after 5 tokens"],
    poolLine: (name, g, first, last) =>
      `shared head ${g} of ${name} is the mean of heads ${first}–${last} of the four-head ${name}`,
    counter: "The counter: multiply-adds, this step and a full recompute",
    stepCost: "this step, with the cache",
    factors: (d, h, hKv, dh, n) =>
      `The factors: d_model = ${d} features per token (X's columns); h = ${h} query heads and h_kv = ${hKv} key-value heads, the 2× being K and V; d_head = ${dh} numbers per head; n = ${n}, the tokens so far.`,
    fullCost: (n) => `a full recompute of ${n === 1 ? "the 1 token" : `all ${n} tokens`}`,
    costParts: ["projections", "scores", "weights·V", "·W_O", "total"],
    costLine: (what, formula, value) => `${what}: ${formula} = ${value}`,
    costFormulas: {
      projections: (d, h, hKv, dh) => `${d}×(${h} + 2×${hKv})×${dh}`,
      scores: (h, n, dh) => `${h}×${n}×${dh}`,
      output: (h, dh, d) => `${h}×${dh}×${d}`,
      fullProjections: (n, per) => `${n}×${per}`,
      // 1 + 2 + … + n: the (query, key) pairs of a causal pass, written out
      fullScores: (h, n, dh) => `${h}×(${upTo(n)})×${dh}`,
      fullOutput: (n, per) => `${n}×${per}`,
    },
    pairsNote: (n) =>
      `A causal pass over ${many(n, "token")} computes every row again: query i meets keys 1..i, so ${upTo(n)} (query, key) pair${n === 1 ? "" : "s"}. The cached step computes one row: ${many(n, "pair")} per head.`,
    notArrived: "this token had not arrived yet",
    stepRow: (t) => `row ${t} comes from step ${t}, where the query of token ${t} was the one row:`,
    cachedAt: (t) =>
      `cached at step ${t}: the K and V rows of token ${t} are kept, not computed again`,
    tokenText: (t, token) =>
      `Token ${t}, ${token}, arrives. Its row X[${t}] is projected once: its K and V rows join the cache (now ${many(t, "row")}), and its query attends to every cached key, itself included. The counter just below compares this step's multiply-adds with those of a full recompute.`,
    newRow: "the new row",
    labels: {
      scores: (h) => `Q·Kᵀ, head ${h}`,
      weights: (h) => `weights, head ${h}`,
      output: (h) => `output, head ${h}`,
      stepOutput: "output",
      kCache: "K cache",
      vCache: "V cache",
      causalWeights: "weights, head 1, causal pass",
      cachedWeights: "weights, head 1, cached steps",
      causalOutput: "output, causal pass",
      cachedOutput: "output, cached steps",
      outputIn: (order) => `output, ${order}`,
      weightsIn: (order) => `weights, head 1, ${order}`,
      qAt: "q (我) at m",
      kAt: "k (书) at n",
      qPlain: "q (我), not rotated",
      kPlain: "k (书), not rotated",
      xPlusPe: (s) => `X + ${s}·PE`,
    },
    original: "in order",
    shuffled: "shuffled",
    shuffledInOrder: "shuffled, drawn in the original order",
    peNote: (s, full, here, none) =>
      `PE is added here at ${s} of its size: X + ${s}·PE. At full size, on seven features and weights made by hand for X, it drowns the words: in head 1, 书 would put ${full} of its weight on itself; at ${s}, ${here}; without positions, ${none}. (A trained model learns its embeddings and weights with PE in place, in hundreds of dimensions.) The shuffled sentence's heatmaps are drawn in the original order, so that the same square is the same pair of tokens: where the two differ, position did it.`,
    position: (p) => `position ${p}`,
    cachedPad:
      "A cached step has no weights for tokens that had not arrived yet; they show as 0, as the causal mask makes them.",
    rotLine: (cell, a, b, angle) =>
      `${cell}: the pair is rotated by the angle ${angle} (position × θ)`,
    peLine: (cell, fn, p, theta) => `${cell} = ${fn}(${p} × ${theta})`,
    peIndexLine: (i, j, pair) =>
      `row ${i + 1} is pos = ${i}; column ${j + 1} is the ${j % 2 === 0 ? "sin" : "cos"} of pair i = ${pair}: positions and i count from 0, rows and columns from 1`,
    unrotatedLine: (name, token, row) =>
      `${name} is head 1's ${name === "q" ? "query" : "key"} of ${token}, columns 1–2 of row ${row} of ${name.toUpperCase()} = X·W_${name.toUpperCase()}, before any rotation:`,
    distanceLine: (m, n, d) =>
      `m − n = ${m} − ${n} = ${d} (every cell of this diagonal has this score; row ${m + 1} is m = ${m} and column ${n + 1} is n = ${n}: positions count from 0, rows and columns from 1)`,
    movedLine: (token, r, i, value, how) =>
      `${token} is row ${r} here and row ${i} in order; there its output is ${value}` +
      {
        moved: ", the same number: the row moved with its token",
        same: ", the same number at these decimals: position changed it little or not at all",
        changed: ": position changed it",
      }[how],
  },
  steps: {
    inputs: {
      title: "Inputs",
      text: "X: five tokens, each a row of features. W_Q has h·d_head = 4×2 = 8 columns: columns 1–2 are head 1's, 3–4 head 2's, and so on. W_K and W_V have h_kv·d_head columns; W_O brings the 8 columns of the heads back to the 7 features.",
    },
    projections: {
      title: "Projections",
      text: "Q = X·W_Q, K = X·W_K, V = X·W_V, all heads at once. A column's name says its head: 2.1 is head 2's first column.",
    },
    headScores: {
      title: "Each head's scores",
      text: "Every head runs its own attention on its own columns: scores = Q_h·K_hᵀ, a 5×5 table per head.",
    },
    headWeights: {
      title: "Each head's weights",
      text: "softmax(scores/√2), row by row, head by head. Head 1: 读 looks at 书 and 我 at 读 (who does what to what). Head 2: each token looks at the one before it. 我 has none: X's columns pos cos and pos sin place the tokens on a circle, 60° apart, 我 at 0° and 书 at 240°; head 2 looks 60° back, and 60° back from 我 is 300°, as near 书 as 我, so 我's weight splits between itself and 书. Head 3: 书 looks back at 读, 在 at 图书馆. Head 4 has nothing to look for: its weights are even.",
    },
    concat: {
      title: "Concatenation",
      text: "Each head gives an output of d_head = 2 columns per token. Side by side they make concat, h·d_head = 8 columns.",
    },
    combine: {
      title: "Output = concat·W_O",
      text: "W_O mixes what the heads found back into the 7 features: here it writes each head's findings into the feature they carry.",
    },
    kv4: {
      title: "h_kv = 4: a key-value head per query head",
      text: (name) =>
        `Multi-head attention as in “${name("heads")}”, this lesson's first lab: every query head has its own K and V columns.`,
    },
    kv2: {
      title: "h_kv = 2: pairs share",
      text: "Grouped-query attention: query heads 1 and 2 read key-value head 1, heads 3 and 4 read key-value head 2 (query head i reads key-value head ⌈i·h_kv/h⌉). Each shared head is the mean of its group's two heads, as the GQA paper converts a model. Head 2 loses its sharp previous-token pattern: it now shares keys with head 1.",
    },
    kv1: {
      title: "h_kv = 1: multi-query",
      text: "Multi-query attention: all four query heads read one K and one V. The query heads still differ, so their weights still differ, but they all look at the same keys.",
    },
    memory: {
      title: "The cache memory saved",
      text: (name) =>
        `While decoding, a model keeps K and V of every token (the next lab, “${name("kvcache")}”). Their size is 2·h_kv·d_head numbers per token, so h_kv = 2 keeps half and h_kv = 1 a quarter. The numbers are the lengths of the caches the core returned after decoding the five tokens.`,
    },
    ...tokenSteps((t, token) => `Token ${t}: ${token}`),
    causal: {
      title: "The same as the full causal pass",
      text: "The full pass with a causal mask computes every row at once: query i sees keys 1..i. Row by row it equals what the cached steps gave.",
    },
    plain: {
      title: "Shuffled, without positions",
      text: "X now has no position features. Shuffle the tokens: each token's output row is exactly the same, it only moves with its token. Self-attention is permutation-equivariant: it cannot tell 我在图书馆读书 from 书读我图书馆在.",
    },
    sinusoidal: {
      title: "Sinusoidal positions",
      text: "“Attention Is All You Need” adds PE to X: PE[pos][2i] = sin(pos·θ_i), PE[pos][2i+1] = cos(pos·θ_i), θ_i = 10000^(−2i/d_model), pos = 0 for the first token (here a quarter of PE: the note below this text says why). Now a token's row depends on where it stands: shuffled, the same token gets other weights.",
    },
    rope: {
      title: "Rotary positions (RoPE)",
      text: "RoPE leaves X alone and rotates each head's q and k after the projection: the pair (2i, 2i+1) turns by pos·θ_i, θ_i = 10000^(−2i/d_head). With d_head = 2 there is one pair, θ = 1: each position turns the pair by 1 radian. Shuffled, the weights change.",
    },
    distance: {
      title: "RoPE: only m − n counts, sign and all",
      text: "One query (head 1's q of 我) and one key (head 1's k of 书), at right angles to each other, placed at every pair of positions m, n: q turned by m radians and k by n (θ = 1, as in step 3). The score q_m·k_n is the same along each diagonal: it depends only on m − n, and on its sign: the table is not symmetric, so the key one place after the query scores the opposite of the key one place before. Order, not just distance, reaches the score.",
    },
  },
  scenes: {
    heads: {
      title: "Heads see different things: four heads on 我在图书馆读书",
      analogy:
        "One reader underlines who did what, another checks which word came just before, a third looks back at the verb, and one just skims. Multi-head attention runs them side by side and W_O combines their notes.",
    },
    gqa: {
      title: "Fewer key-value heads: h_kv = 4, 2 and 1",
      analogy:
        "Four readers who share two sets of notes, or one: they can still ask different questions, but they look things up in the same notes, and there are fewer notes to keep.",
    },
    kvcache: {
      title: "Decoding with a KV cache: one token at a time",
      analogy:
        "Writing a sentence word by word, you do not reread every earlier word's notes from scratch: you keep them (K and V) and only ask the new word's question.",
    },
    order: {
      title: "How does attention know word order?",
      analogy:
        "A bag of words has no order: 我在图书馆读书 and 书读我图书馆在 hold the same words. Positions are what tell them apart.",
    },
  },
};

// The labs' own refusals of a link's X (sentenceX in shared.js), said in Chinese; any other
// message as the page says it (web/words.js puts them in front of the page's).
const refusals = [
  [
    /^X has (\d+) rows? but this lab's sentence has (\d+) tokens$/,
    (n, m) => `X 有 ${n} 行，而这个实验的句子有 ${m} 个词元`,
  ],
  [
    /^X has (\d+) columns? but this lab's tokens have (\d+) features$/,
    (n, m) => `X 有 ${n} 列，而这个实验的每个词元有 ${m} 个特征`,
  ],
  [
    /^X row (\d+) has (\d+) numbers? but this lab's tokens have (\d+) features$/,
    (i, n, m) => `X 的第 ${i} 行有 ${n} 个数，而这个实验的每个词元有 ${m} 个特征`,
  ],
];

const zh = {
  coreErrors: refusals,
  ui: { edit: "点击 X 中的数字即可修改。回车确认，Esc 取消。" },
  inside: {
    dims: {
      person: "人",
      function: "虚词",
      place: "地点",
      action: "动作",
      thing: "事物",
      pos1: "位置 cos",
      pos2: "位置 sin",
    },
    headLine: (h, g, q1, q2, k1, k2) =>
      `第 ${h} 个头：它的 Q 是 Q 的第 ${q1}–${q2} 列；它的 K 和 V 是 K、V 的第 ${k1}–${k2} 列（第 ${g} 个键值头）`,
    headTitle: (h, g) => `头 ${h}（键值头 ${g}）`,
    oneHead: (token, a, b, h) =>
      `为什么要不止一个头？一个头给每个词元一行权重，一行加起来是 1：给一个词元越多，留给其他词元的就越少，所以一个头可以把一行分给两个词元，却没法把大部分同时给它们俩。这里“${token}”把头 ${a.head} 的 ${a.weight} 权重给了“${a.key}”，把头 ${b.head} 的 ${b.weight} 给了“${b.key}”：每个都超过一半，合起来超过了一行权重所有的 1。${h} 个头给每个词元 ${h} 行权重，所以它能把每一行的大部分各给一个。`,
    oneHeadOnly: (h) =>
      `为什么要不止一个头？一个头给每个词元一行权重，一行加起来是 1：给一个词元越多，留给其他词元的就越少，所以一个头可以把一行分给两个词元，却没法把大部分同时给它们俩。${h} 个头给每个词元 ${h} 行权重。`,
    concatLine: (cell, h, from) => `${cell} = ${from}（第 ${h} 个头的输出，并排放好）`,
    positionsNote:
      "注意力本身看不到词序：X 的最后两列是手工做的位置特征（每个词元转 60° 的一个点），头 2 才能找到前一个词元。",
    positionsSee: ["“", "”这个实验会讲模型怎样加入位置。"],
    groups: (pairs) => `查询头与它读取的键值头：${pairs}。`,
    pair: (h, g) => `${h}→${g}`,
    cacheTitle: "KV 缓存中的数",
    cacheRow: (hKv) => `h_kv = ${hKv}`,
    cacheCols: ["每个词元的 K（或 V）", "5 个词元后的 K", "5 个词元后的 V"],
    poolLine: (name, g, first, last) =>
      `${name} 的共用头 ${g} 是四头 ${name} 中头 ${first}–${last} 的平均`,
    counter: "计数器：乘加次数，这一步和完整重算",
    stepCost: "这一步（用缓存）",
    factors: (d, h, hKv, dh, n) =>
      `各个因子：d_model = ${d}，每个词元的特征数（X 的列数）；h = ${h} 个查询头，h_kv = ${hKv} 个键值头，“2×”是 K 和 V 各一份；d_head = ${dh}，每个头的维数；n = ${n}，到目前为止的词元数。`,
    fullCost: (n) => `把全部 ${n} 个词元重算一遍`,
    costParts: ["投影", "分数", "权重·V", "·W_O", "合计"],
    costLine: (what, formula, value) => `${what}：${formula} = ${value}`,
    costFormulas: en.inside.costFormulas,
    pairsNote: (n) =>
      `${n} 个词元的完整因果计算要把每一行重算：查询 i 遇到键 1..i，共 ${upTo(n)} 个（查询，键）对。缓存的一步只算一行：每个头 ${n} 对。`,
    notArrived: "这个词元还没有到来",
    stepRow: (t) => `第 ${t} 行来自第 ${t} 步，那一步词元 ${t} 的查询是唯一的一行：`,
    cachedAt: (t) => `第 ${t} 步存入缓存：词元 ${t} 的 K、V 行被保留，不再重算`,
    tokenText: (t, token) =>
      `第 ${t} 个词元「${token}」到来。它的行 X[${t}] 只投影一次：它的 K、V 行加入缓存（现在有 ${t} 行），它的查询与每个缓存的键（包括它自己）做注意力。紧接着的计数器把这一步的乘加次数和完整重算的次数作比较。`,
    newRow: "新的一行",
    labels: {
      scores: (h) => `Q·Kᵀ，头 ${h}`,
      weights: (h) => `权重，头 ${h}`,
      output: (h) => `输出，头 ${h}`,
      stepOutput: "输出",
      kCache: "K 缓存",
      vCache: "V 缓存",
      causalWeights: "权重，头 1，完整因果计算",
      cachedWeights: "权重，头 1，缓存的各步",
      causalOutput: "输出，完整因果计算",
      cachedOutput: "输出，缓存的各步",
      outputIn: (order) => `输出，${order}`,
      weightsIn: (order) => `权重，头 1，${order}`,
      qAt: "位置 m 上的 q（我）",
      kAt: "位置 n 上的 k（书）",
      qPlain: "q（我），未旋转",
      kPlain: "k（书），未旋转",
      xPlusPe: (s) => `X + ${s}·PE`,
    },
    original: "原顺序",
    shuffled: "打乱后",
    shuffledInOrder: "打乱后，按原顺序画",
    peNote: (s, full, here, none) =>
      `这里 PE 只按 ${s} 倍加上：X + ${s}·PE。按原大小加，在只有 7 个特征、又是为 X 手工设计的权重上，它会淹没词义：头 1 中，“书”会把 ${full} 的权重放在自己身上；按 ${s} 倍是 ${here}；没有位置时是 ${none}。（训练出来的模型是在有 PE 的情况下学习嵌入和权重的，维数有几百。）打乱后的句子，热力图按原顺序画出，同一个格子就是同一对词元：两者不同之处，就是位置造成的。`,
    position: (p) => `位置 ${p}`,
    cachedPad: "缓存的一步没有尚未到来的词元的权重；这里显示为 0，和因果掩码给出的一样。",
    rotLine: (cell, a, b, angle) => `${cell}：这一对转过的角度是 ${angle}（位置 × θ）`,
    peLine: (cell, fn, p, theta) => `${cell} = ${fn}(${p} × ${theta})`,
    peIndexLine: (i, j, pair) =>
      `第 ${i + 1} 行是 pos = ${i}；第 ${j + 1} 列是第 i = ${pair} 对的 ${j % 2 === 0 ? "sin" : "cos"}：位置和 i 从 0 数起，行和列从 1 数起`,
    unrotatedLine: (name, token, row) =>
      `${name} 是头 1 中「${token}」的${name === "q" ? "查询" : "键"}：${name.toUpperCase()} = X·W_${name.toUpperCase()} 第 ${row} 行的第 1–2 列，还没有旋转：`,
    distanceLine: (m, n, d) =>
      `m − n = ${m} − ${n} = ${d}（这条对角线上的格子分数都一样；第 ${m + 1} 行是 m = ${m}，第 ${n + 1} 列是 n = ${n}：位置从 0 数起，行和列从 1 数起）`,
    movedLine: (token, r, i, value, how) =>
      `「${token}」这里是第 ${r} 行，原顺序中是第 ${i} 行；那里它的输出是 ${value}` +
      {
        moved: "，同一个数：这一行跟着它的词元移动",
        same: "，在这个精度下是同一个数：位置对它的改变很小，或者没有",
        changed: "：位置改变了它",
      }[how],
  },
  steps: {
    inputs: {
      title: "输入",
      text: "X：五个词元，每个一行特征。W_Q 有 h·d_head = 4×2 = 8 列：第 1–2 列属于头 1，第 3–4 列属于头 2，依此类推。W_K 和 W_V 有 h_kv·d_head 列；W_O 把各头的 8 列变回 7 个特征。",
    },
    projections: {
      title: "投影",
      text: "Q = X·W_Q，K = X·W_K，V = X·W_V，所有头一次算完。列名标出所属的头：2.1 是头 2 的第一列。",
    },
    headScores: {
      title: "每个头的分数",
      text: "每个头在自己的列上各做一次注意力：scores = Q_h·K_hᵀ，每个头一张 5×5 的表。",
    },
    headWeights: {
      title: "每个头的权重",
      text: "softmax(scores/√2)，逐行、逐头。头 1：读 看向 书，我 看向 读（谁对什么做了什么）。头 2：每个词元看向它前面的那个。我 前面没有：X 的“位置 cos”和“位置 sin”两列把词元放在一个圆上，相邻两个差 60°，我 在 0°，书 在 240°；头 2 往回看 60°，从 我 往回 60° 是 300°，离 书 和离 我 一样近，所以 我 的权重分给自己和 书。头 3：书 回看 读，在 看向 图书馆。头 4 没有要找的东西：权重是平均的。",
    },
    concat: {
      title: "拼接",
      text: "每个头给每个词元一个 d_head = 2 列的输出。并排放在一起就是 concat，共 h·d_head = 8 列。",
    },
    combine: {
      title: "输出 = concat·W_O",
      text: "W_O 把各头找到的信息混合回 7 个特征：这里它把每个头的发现写进它所携带的特征。",
    },
    kv4: {
      title: "h_kv = 4：每个查询头有自己的键值头",
      text: (name) =>
        `和本课第一个实验“${name("heads")}”一样的多头注意力：每个查询头都有自己的 K、V 列。`,
    },
    kv2: {
      title: "h_kv = 2：两两共用",
      text: "分组查询注意力（GQA）：查询头 1、2 读键值头 1，头 3、4 读键值头 2（查询头 i 读键值头 ⌈i·h_kv/h⌉）。每个共用的头取组内两个头的平均，和 GQA 论文转换模型的做法一样。头 2 失去了清楚的“前一个词元”模式：它现在和头 1 共用键。",
    },
    kv1: {
      title: "h_kv = 1：多查询注意力",
      text: "多查询注意力（MQA）：四个查询头读同一个 K 和 V。查询头仍然不同，所以权重仍然不同，但它们看的是同一组键。",
    },
    memory: {
      title: "省下的缓存",
      text: (name) =>
        `解码时模型要保存每个词元的 K 和 V（下一个实验“${name("kvcache")}”）。它们的大小是每个词元 2·h_kv·d_head 个数，所以 h_kv = 2 只要一半，h_kv = 1 只要四分之一。表中的数是内核解码这五个词元后返回的缓存长度。`,
    },
    ...tokenSteps((t, token) => `第 ${t} 个词元：${token}`),
    causal: {
      title: "和完整的因果计算一样",
      text: "带因果掩码的完整计算一次算出所有行：查询 i 看到键 1..i。逐行看，它和缓存的每一步结果相同。",
    },
    plain: {
      title: "没有位置时打乱顺序",
      text: "现在 X 没有位置特征。把词元打乱：每个词元的输出行完全不变，只是跟着词元移动。自注意力是置换等变的：它分不出“我在图书馆读书”和“书读我图书馆在”。",
    },
    sinusoidal: {
      title: "正弦位置编码",
      text: "《Attention Is All You Need》把 PE 加到 X 上：PE[pos][2i] = sin(pos·θ_i)，PE[pos][2i+1] = cos(pos·θ_i)，θ_i = 10000^(−2i/d_model)，第一个词元的 pos = 0（这里只加四分之一的 PE，紧接着的说明讲为什么）。现在一行取决于词元所在的位置：打乱后，同一个词元得到不同的权重。",
    },
    rope: {
      title: "旋转位置编码（RoPE）",
      text: "RoPE 不动 X，而是在投影之后旋转每个头的 q 和 k：第 (2i, 2i+1) 对转过 pos·θ_i，θ_i = 10000^(−2i/d_head)。d_head = 2 时只有一对，θ = 1：每个位置把这一对转 1 弧度。打乱后，权重变了。",
    },
    distance: {
      title: "RoPE：只有 m − n 要紧，连正负在内",
      text: "一个查询（头 1 中 我 的 q）和一个键（头 1 中 书 的 k），两者互相垂直，放在每一对位置 m、n 上：q 转 m 弧度，k 转 n 弧度（θ = 1，同第 3 步）。分数 q_m·k_n 沿每条对角线都相同：它只取决于 m − n，而且取决于它的正负：这张表不对称，键在查询后一位和前一位，分数正好相反。进入分数的不只是距离，还有先后。",
    },
  },
  scenes: {
    heads: {
      title: "不同的头看不同的东西：“我在图书馆读书”上的四个头",
      analogy:
        "一位读者划出谁做了什么，另一位查看前一个词是什么，第三位回头找动词，还有一位只是粗略浏览。多头注意力让他们并排工作，W_O 把他们的笔记合在一起。",
    },
    gqa: {
      title: "更少的键值头：h_kv = 4、2、1",
      analogy:
        "四位读者共用两份笔记，或者一份：他们仍然可以问不同的问题，但查的是同一份笔记，要保存的笔记也更少。",
    },
    kvcache: {
      title: "用 KV 缓存解码：一次一个词元",
      analogy:
        "一个词一个词地写句子时，你不会把前面每个词的笔记从头再做一遍：你把它们（K 和 V）留着，只问新词的问题。",
    },
    order: {
      title: "注意力怎么知道词序？",
      analogy:
        "一袋词没有顺序：“我在图书馆读书”和“书读我图书馆在”里的词一模一样。是位置把它们区分开。",
    },
  },
};

export const insideWords = { en, zh };
