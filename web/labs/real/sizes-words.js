// labs/real/sizes-words.js: every string of the sizes lab (sizes.js), in English and Chinese, and
// each count's derivation: the formula, the configuration's numbers put in, and the core's
// result (ModelSize, src/sizes.hpp), so that every "=" can be checked by hand. The formulas are
// written with × and numbers without separators: tests/node/real-sizes.test.mjs works each one
// out in exact integers and compares it with the core's.
import { fmt } from "../../format.js";

// 1,024 (both languages write thousands so)
const n = (x) => x.toLocaleString("en");

// The derivations: (shape, size, { digits, n, name, source }) → lines. Words only in `words`.
const derive = (words) => ({
  ...Object.fromEntries(
    ["dModel", "layers", "heads", "kvHeads", "dHead", "dFf", "context", "vocab"].map((c) => [
      c,
      (s, z, o) => [`${words.columnOf[c]} = ${s[c]}`, words.from(o.source)],
    ]),
  ),
  embedding: (s, z) => [`V × C = ${s.vocab} × ${s.dModel} = ${z.embedding}`],
  positions: (s, z) =>
    s.positions === "learned"
      ? [`T × C = ${s.context} × ${s.dModel} = ${z.positions}`]
      : [`0 (${words.rotary})`],
  attention: (s, z) => {
    const { layers: L, dModel: C, heads: h, kvHeads: k, dHead: d } = s;
    const p = z.layer;
    const bias = (x) => (s.qkvBias ? ` + ${x} × ${d}` : "");
    return [
      `W_Q = C × h × d_head${s.qkvBias ? " + h × d_head" : ""} = ${C} × ${h} × ${d}${bias(h)} = ${p.wQ}`,
      `W_K = W_V = C × h_kv × d_head${s.qkvBias ? " + h_kv × d_head" : ""} = ${C} × ${k} × ${d}${bias(k)} = ${p.wK}`,
      `W_O = h × d_head × C${s.oBias ? " + C" : ""} = ${h} × ${d} × ${C}${s.oBias ? ` + ${C}` : ""} = ${p.wO}`,
      ...(s.qkNorm ? [`${words.qkNorm} = 2 × d_head = 2 × ${d} = ${p.qkNorm}`] : []),
      `L × (${p.wQ} + ${p.wK} + ${p.wV} + ${p.wO}${s.qkNorm ? ` + ${p.qkNorm}` : ""}) = ${L} × ${p.attention} = ${z.attention}`,
    ];
  },
  mlp: (s, z) => {
    const { layers: L, dModel: C, dFf: f } = s;
    if (s.mlp === "none") return [`0 (${words.noMlp})`];
    const k = s.mlp === "gated" ? 3 : 2;
    const matrices = `${L} × ${k} × ${C} × ${f}`;
    return s.mlpBias
      ? [
          `L × (${k} × C × d_ff + ${k - 1} × d_ff + C) = ${L} × (${k} × ${C} × ${f} + ${k - 1} × ${f} + ${C}) = ${z.mlp}`,
        ]
      : [`L × ${k} × C × d_ff = ${matrices} = ${z.mlp}`, words.mlpOf(s.mlp)];
  },
  norms: (s, z) => {
    const { layers: L, dModel: C } = s;
    const per = s.mlp === "none" ? 1 : 2;
    const [symbol, one] = s.norm === "layer" ? ["2 × C", `2 × ${C}`] : ["C", `${C}`];
    return [
      `L × ${per} × ${symbol} + ${symbol} = ${L} × ${per} × ${one} + ${one} = ${z.norms}`,
      words.normOf(s.norm),
    ];
  },
  unembedding: (s, z) =>
    s.tied ? [`0 (${words.tied})`] : [`V × C = ${s.vocab} × ${s.dModel} = ${z.unembedding}`],
  total: (s, z) => [
    `${z.embedding} + ${z.positions} + ${z.attention} + ${z.mlp} + ${z.norms} + ${z.unembedding} = ${z.total}`,
  ],
  attentionShare: (s, z, o) => [`${z.attention} / ${z.total} = ${fmt(z.attentionShare, o.digits)}`],
  kvValuesPerToken: (s, z) => [
    `2 × L × h_kv × d_head = 2 × ${s.layers} × ${s.kvHeads} × ${s.dHead} = ${z.kvValuesPerToken}`,
    words.kAndV,
  ],
  kvBytesPerToken: (s, z) => [`${z.kvValuesPerToken} × 2 = ${z.kvBytesPerToken}`, words.twoBytes],
  kvBytesContext: (s, z) => [`${z.kvBytesPerToken} × ${s.context} = ${z.kvBytesContext}`],
  kvBytesAt: (s, z, o) => [`${z.kvBytesPerToken} × ${o.n} = ${z.kvBytesAt}`],
  kvSaved: (s, z) => [
    `2 × L × (h − h_kv) × d_head × 2 = 2 × ${s.layers} × (${s.heads} − ${s.kvHeads}) × ${s.dHead} × 2 = ${z.kvSaved}`,
  ],
  attentionLayer: (s, z, o) => {
    const a = z.attentionLayer;
    const { dModel: C, heads: h, kvHeads: k, dHead: d } = s;
    return [
      `${C} × (${h} + 2 × ${k}) × ${d} + ${h} × ${o.n} × ${d} + ${h} × ${o.n} × ${d} + ${h} × ${d} × ${C} = ${a.projections} + ${a.scores} + ${a.weightedSum} + ${a.output} = ${a.total}`,
      words.layerParts,
    ];
  },
  attentionToken: (s, z) => [
    `L × ${z.attentionLayer.total} = ${s.layers} × ${z.attentionLayer.total} = ${z.attentionToken}`,
  ],
  scoresToken: (s, z) => [
    `L × (${z.attentionLayer.scores} + ${z.attentionLayer.weightedSum}) = ${s.layers} × (${z.attentionLayer.scores} + ${z.attentionLayer.weightedSum}) = ${z.scoresToken}`,
  ],
  mlpToken: (s, z) =>
    s.mlp === "none"
      ? [`0 (${words.noMlp})`]
      : [
          `L × ${s.mlp === "gated" ? 3 : 2} × C × d_ff = ${s.layers} × ${s.mlp === "gated" ? 3 : 2} × ${s.dModel} × ${s.dFf} = ${z.mlpToken}`,
        ],
  unembedToken: (s, z) => [`V × C = ${s.vocab} × ${s.dModel} = ${z.unembedToken}`, words.logits],
  token: (s, z) => [`${z.attentionToken} + ${z.mlpToken} + ${z.unembedToken} = ${z.token}`],
});

const enWords = {
  columnOf: {
    dModel: "d_model",
    layers: "layers",
    heads: "heads",
    kvHeads: "K/V heads",
    dHead: "d_head",
    dFf: "d_ff",
    context: "context",
    vocab: "vocabulary",
  },
  from: (source) => `read from ${source}`,
  rotary: "RoPE turns q and k by their position: no parameters",
  qkNorm: "the norms of q and k",
  noMlp: "attention only: no MLP",
  mlpOf: (kind) =>
    kind === "gated"
      ? "a gated MLP (SwiGLU): W_gate and W_up (C × d_ff), W_down (d_ff × C), no biases"
      : "W_fc (C × d_ff) and W_proj (d_ff × C), no biases",
  normOf: (kind) =>
    kind === "layer"
      ? "LayerNorm: a gain and a bias of C numbers, before attention and before the MLP, and once at the end"
      : "RMSNorm: a gain of C numbers, before attention and before the MLP, and once at the end",
  tied: "tied: the output layer reuses the token embedding",
  kAndV: "a k row and a v row of h_kv × d_head numbers, in every layer",
  twoBytes: "16-bit numbers: 2 bytes each",
  layerParts:
    "q, k, v of the new token; its scores against n keys; the weighted sum of n values; W_O: the KV-cache lab's count",
  logits: "the logits: the last vector scored against every token of the vocabulary",
};

const zhWords = {
  columnOf: {
    dModel: "d_model",
    layers: "层数",
    heads: "头数",
    kvHeads: "键值头数",
    dHead: "d_head",
    dFf: "d_ff",
    context: "上下文",
    vocab: "词表",
  },
  from: (source) => `读自 ${source}`,
  rotary: "RoPE 按位置旋转 q 和 k：没有参数",
  qkNorm: "q 和 k 的归一化",
  noMlp: "只有注意力：没有 MLP",
  mlpOf: (kind) =>
    kind === "gated"
      ? "门控 MLP（SwiGLU）：W_gate 和 W_up（C × d_ff），W_down（d_ff × C），没有偏置"
      : "W_fc（C × d_ff）和 W_proj（d_ff × C），没有偏置",
  normOf: (kind) =>
    kind === "layer"
      ? "LayerNorm：增益和偏置各 C 个数，在注意力和 MLP 之前各一个，最后再一个"
      : "RMSNorm：增益 C 个数，在注意力和 MLP 之前各一个，最后再一个",
  tied: "共享：输出层沿用词元嵌入",
  kAndV: "每一层一行 k、一行 v，各 h_kv × d_head 个数",
  twoBytes: "16 位的数：每个 2 字节",
  layerParts: "新词元的 q、k、v；它对 n 个键的分数；n 个值的加权和；W_O：和 KV 缓存实验的计数一样",
  logits: "logits：最后的向量与词表里每个词元打分",
};

const names = {
  en: {
    tang: "Tang model",
    induction: "Induction model",
    gpt2: "GPT-2 small",
    llama3: "Llama 3 8B",
    qwen25: "Qwen2.5 7B",
    qwen3: "Qwen3 8B",
  },
  zh: {
    tang: "唐诗模型",
    induction: "归纳头模型",
    gpt2: "GPT-2 small",
    llama3: "Llama 3 8B",
    qwen25: "Qwen2.5 7B",
    qwen3: "Qwen3 8B",
  },
};

const en = {
  ui: { n: "Context n" },
  sizesLab: {
    names: names.en,
    tables: {
      shapes: "Their configurations",
      parameters: "Parameters, by part",
      kvcache: "The KV cache, in bytes (16-bit numbers)",
      token: "Multiply-adds for one new token at context n",
    },
    columns: {
      ...enWords.columnOf,
      embedding: "embedding",
      positions: "positions",
      attention: "attention",
      mlp: "MLP",
      norms: "norms",
      unembedding: "output layer",
      total: "total",
      attentionShare: "attention's share",
      kvValuesPerToken: "numbers per token",
      kvBytesPerToken: "bytes per token",
      kvBytesContext: "bytes at its context",
      kvBytesAt: "bytes at n",
      kvSaved: "saved per token by fewer K/V heads",
      attentionLayer: "attention, one layer",
      attentionToken: "attention, all layers",
      scoresToken: "of which scores and sums over n",
      mlpToken: "MLP",
      unembedToken: "logits",
      token: "total",
    },
    derive: derive(enWords),
    text: {
      shapes: ({ tang, llama }) =>
        `Real models are the layers you computed, larger. ${llama.name} has ${llama.shape.layers} layers; in each, ${llama.shape.heads} query heads of d_head = ${llama.shape.dHead} numbers share ${llama.shape.kvHeads} key-value heads (lesson 2's fewer K/V heads), in vectors ${n(llama.shape.dModel)} numbers wide, with a vocabulary of ${n(llama.shape.vocab)} tokens and a context of ${n(llama.shape.context)}. The Tang model of lesson 5 has ${tang.shape.layers} layers of ${tang.shape.heads} heads of ${tang.shape.dHead}, vectors ${tang.shape.dModel} wide. Each row is a published configuration: pick a number to see where it was read.`,
      parameters: ({ tang, llama }) =>
        `A parameter is one number the model learned. Llama 3 8B has ${n(llama.size.total)}; ${n(llama.size.attention)} of them are attention's W_Q, W_K, W_V and W_O in its ${llama.shape.layers} layers (a share of ${fmt(llama.size.attentionShare, 4)}), and ${n(llama.size.mlp)} its MLPs. The Tang model has ${n(tang.size.total)} in all. Pick a cell to see it counted from the configuration.`,
      kvcache: ({ llama, qwen, gpt2, n: at }) =>
        `Writing one token at a time, a model keeps every earlier token's k and v rows in every layer, its KV cache (lesson 2). In 16-bit numbers of 2 bytes, Llama 3 8B keeps ${n(llama.size.kvBytesPerToken)} bytes per token: ${n(llama.size.kvBytesContext)} bytes at its full context of ${n(llama.shape.context)} tokens, ${n(llama.size.kvBytesAt)} at n = ${n(at)}. Its ${llama.shape.kvHeads} K/V heads instead of ${llama.shape.heads} save ${n(llama.size.kvSaved)} bytes per token. Qwen2.5 7B, with ${qwen.shape.kvHeads} K/V heads, keeps ${n(qwen.size.kvBytesPerToken)} per token; GPT-2, with none shared, ${n(gpt2.size.kvBytesPerToken)}. A row whose context is below n shows what it would cost.`,
      token: ({ llama, n: at }) =>
        `One new token at n = ${n(at)}, in Llama 3 8B: each layer's attention does ${n(llama.size.attentionLayer.total)} multiply-adds (its q, k and v; its scores and weighted sum over ${n(at)} keys; W_O: the KV-cache lab's count); its ${llama.shape.layers} layers ${n(llama.size.attentionToken)}, of which ${n(llama.size.scoresToken)} grow with n. The MLPs add ${n(llama.size.mlpToken)} and the logits ${n(llama.size.unembedToken)}: ${n(llama.size.token)} in all. Slide n: attention's share grows with the context.`,
      timed: ({ qwen, n: at }) =>
        `Now one head of that size, on your machine: one query against ${n(at)} keys of d_head = 128, by this page's core (random numbers, not a real model's). A token of ${qwen.name} runs such a head ${qwen.shape.heads} times in each of its ${qwen.shape.layers} layers.`,
    },
    measure: (at) => `Time it at n = ${n(at)}`,
    stop: "Stop",
    measuring: "Measuring…",
    notTimed: "Press the button: the times are measured on this machine, now.",
    headTime: (at, t) =>
      `One head, one query against ${n(at)} keys: ${t} ms (the median of 15 calls)`,
    tokenTime: (name, layers, heads, calls, t, each) =>
      `The same head ${layers} × ${heads} = ${calls} times, as ${name} does for one token: ${t} ms in all, timed as the ${calls} calls ran, ${each} ms a call on average (not ${calls} × the median: a machine's load changes from call to call)`,
    tooLong: (at, longest) =>
      `n = ${n(at)} is past what this page's core times: one head takes at most ${n(longest)} keys. Pick n of ${n(longest)} or less to time it; the tables above count any n.`,
    failed: (why) => `The timing stopped: ${why}`,
    assumptions: (name, kvHeads) =>
      `Measured here, not estimated: one thread of this tab, float32, the core's SIMD kernel. Only the scores, the softmax and the weighted sum: not the projections, the MLP or the logits (the table above counts those). The same K and V each time, warm in the cache; ${name} reads ${kvHeads} different K/V heads per layer from memory, and a server runs many tokens and many processors at once.`,
  },
  steps: {
    shapes: { title: "The same layers, larger", text: "" },
    parameters: { title: "Their parameters", text: "" },
    kvcache: { title: "Their KV cache", text: "" },
    token: { title: "One token's work", text: "" },
    timed: { title: "One real-size head, timed here", text: "" },
  },
  scenes: {
    sizes: {
      title: "How large are the models you use?",
      analogy:
        "Their sizes are published: from those few numbers, the same formulas as the heads, GQA and KV-cache labs count what they hold and what one token costs.",
    },
  },
};

const zh = {
  ui: { n: "上下文 n" },
  sizesLab: {
    names: names.zh,
    tables: {
      shapes: "它们的配置",
      parameters: "参数，按部分",
      kvcache: "KV 缓存的字节数（16 位的数）",
      token: "上下文为 n 时，一个新词元的乘加次数",
    },
    columns: {
      ...zhWords.columnOf,
      embedding: "嵌入",
      positions: "位置",
      attention: "注意力",
      mlp: "MLP",
      norms: "归一化",
      unembedding: "输出层",
      total: "合计",
      attentionShare: "注意力占比",
      kvValuesPerToken: "每个词元的数",
      kvBytesPerToken: "每个词元的字节",
      kvBytesContext: "满上下文的字节",
      kvBytesAt: "n 个词元的字节",
      kvSaved: "更少键值头每词元省下",
      attentionLayer: "注意力，一层",
      attentionToken: "注意力，所有层",
      scoresToken: "其中随 n 增长的分数与加权和",
      mlpToken: "MLP",
      unembedToken: "logits",
      token: "合计",
    },
    derive: derive(zhWords),
    text: {
      shapes: ({ tang, llama }) =>
        `真实的模型就是你算过的那些层，只是更大。Llama 3 8B 有 ${llama.shape.layers} 层；每层 ${llama.shape.heads} 个查询头，每个 d_head = ${llama.shape.dHead} 个数，共用 ${llama.shape.kvHeads} 个键值头（第 2 课的“更少的键值头”），向量宽 ${n(llama.shape.dModel)} 个数，词表 ${n(llama.shape.vocab)} 个词元，上下文 ${n(llama.shape.context)}。第 5 课的唐诗模型有 ${tang.shape.layers} 层，每层 ${tang.shape.heads} 个头，每个 ${tang.shape.dHead} 个数，向量宽 ${tang.shape.dModel}。每一行都是公开的配置：点一个数，看它读自哪里。`,
      parameters: ({ tang, llama }) =>
        `参数是模型学到的一个数。Llama 3 8B 有 ${n(llama.size.total)} 个；其中 ${n(llama.size.attention)} 个是它 ${llama.shape.layers} 层里注意力的 W_Q、W_K、W_V 和 W_O（占比 ${fmt(llama.size.attentionShare, 4)}），${n(llama.size.mlp)} 个在 MLP 里。唐诗模型一共 ${n(tang.size.total)} 个。点一个格子，看它怎样从配置数出来。`,
      kvcache: ({ llama, qwen, gpt2, n: at }) =>
        `一次写一个词元时，模型在每一层都要保留之前每个词元的 k 行和 v 行，这就是 KV 缓存（第 2 课）。用 16 位的数，每个 2 字节，Llama 3 8B 每个词元要存 ${n(llama.size.kvBytesPerToken)} 字节：满上下文 ${n(llama.shape.context)} 个词元是 ${n(llama.size.kvBytesContext)} 字节，n = ${n(at)} 时是 ${n(llama.size.kvBytesAt)} 字节。它用 ${llama.shape.kvHeads} 个键值头而不是 ${llama.shape.heads} 个，每个词元省下 ${n(llama.size.kvSaved)} 字节。Qwen2.5 7B 有 ${qwen.shape.kvHeads} 个键值头，每个词元存 ${n(qwen.size.kvBytesPerToken)} 字节；GPT-2 不共用，存 ${n(gpt2.size.kvBytesPerToken)} 字节。上下文小于 n 的那几行，表示的是假如要存会占多少。`,
      token: ({ llama, n: at }) =>
        `Llama 3 8B 在 n = ${n(at)} 时算一个新词元：每层注意力做 ${n(llama.size.attentionLayer.total)} 次乘加（它的 q、k、v；对 ${n(at)} 个键的分数和加权和；W_O：和 KV 缓存实验的计数一样）；${llama.shape.layers} 层共 ${n(llama.size.attentionToken)} 次，其中 ${n(llama.size.scoresToken)} 次随 n 增长。MLP 再加 ${n(llama.size.mlpToken)} 次，logits 加 ${n(llama.size.unembedToken)} 次：一共 ${n(llama.size.token)} 次。拖动 n：上下文越长，注意力占得越多。`,
      timed: ({ qwen, n: at }) =>
        `现在在你的设备上算一个这么大的头：一个查询对 ${n(at)} 个键，d_head = 128，用本页的核心（随机数，不是真实模型的数）。Qwen2.5 7B 每写一个词元，要在 ${qwen.shape.layers} 层里各算 ${qwen.shape.heads} 个这样的头。`,
    },
    measure: (at) => `在 n = ${n(at)} 计时`,
    stop: "停止",
    measuring: "正在测量…",
    notTimed: "请按这个按钮：时间是此刻在这台设备上测得的。",
    headTime: (at, t) => `一个头，一个查询对 ${n(at)} 个键：${t} 毫秒（15 次调用的中位数）`,
    tokenTime: (name, layers, heads, calls, t, each) =>
      `同一个头算 ${layers} × ${heads} = ${calls} 次，就像 ${name} 写一个词元：一共 ${t} 毫秒，是这 ${calls} 次调用边算边测的，平均每次 ${each} 毫秒（不是 ${calls} × 中位数：设备的负载每次都在变）`,
    tooLong: (at, longest) =>
      `n = ${n(at)} 超出了本页核心能计时的范围：一个头最多 ${n(longest)} 个键。把 n 选在 ${n(longest)} 或以下才能计时；上面的表对任何 n 都能算。`,
    failed: (why) => `计时停止了：${why}`,
    assumptions: (name, kvHeads) =>
      `这是测出来的，不是估算：这个标签页的一个线程，float32，核心的 SIMD 内核。只算分数、softmax 和加权和，不算投影、MLP 和 logits（上面的表数过它们）。每次用同样的 K 和 V，已在缓存里；${name} 每层要从内存读 ${kvHeads} 个不同的键值头，而服务器会同时用很多处理器算很多词元。`,
  },
  steps: {
    shapes: { title: "同样的层，更大", text: "" },
    parameters: { title: "它们的参数", text: "" },
    kvcache: { title: "它们的 KV 缓存", text: "" },
    token: { title: "一个词元的工作量", text: "" },
    timed: { title: "一个真实大小的头，在这里计时", text: "" },
  },
  scenes: {
    sizes: {
      title: "你用的模型有多大？",
      analogy:
        "它们的尺寸是公开的：从这几个数出发，用多头、GQA 和 KV 缓存实验里同样的公式，数出它们装了多少、写一个词元要算多少。",
    },
  },
};

export const sizesWords = { en, zh };
