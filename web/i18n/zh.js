// zh.js: 页面上的所有中文文字。键与 en.js 相同。

// 1,024 (both languages write thousands so)
const n = (x) => x.toLocaleString("en");

// [what the core says in English, how to say it in Chinese]
const coreErrors = [
  [
    /^(\S+) has (\d+) columns? but (\S+) has (\d+) \(d_k must match\)$/,
    (a, n, b, m) => `${a} 有 ${n} 列，而 ${b} 有 ${m} 列（d_k 必须相同）`,
  ],
  [
    /^V has (\d+) rows? but K has (\d+) \(one value row per key\)$/,
    (n, m) => `V 有 ${n} 行，而 K 有 ${m} 行（每个键要对应一行值）`,
  ],
  [
    /^(\S+) has (\d+) rows? but X has (\d+) columns? \(X·(\S+) needs them equal\)$/,
    (w, n, m) => `${w} 有 ${n} 行，而 X 有 ${m} 列（计算 X·${w} 需要两者相等）`,
  ],
  [/^(\S+) has no rows \(it is (\S+)\)$/, (a, shape) => `${a} 没有行（它是 ${shape}）`],
  [/^(\S+) has 0 columns.*$/, (a) => `${a} 没有列`],
  [
    /^(\S+) is (\S+), over the limit of (\d+) per dimension$/,
    (a, shape, n) => `${a} 是 ${shape}，超过了每维 ${n} 的上限`,
  ],
  [
    /^(\S+) (?:is|would be) (\S+), over the limit of (\d+) values$/,
    (a, shape, n) => `${a} 是 ${shape}，超过了 ${n} 个数的上限`,
  ],
  [
    /^(\S+)\[(\d+)\]\[(\d+)\] is (NaN|infinite); every input must be finite$/,
    (a, i, j, what) =>
      `${a}[${i}][${j}] 是${what === "NaN" ? " NaN" : "无穷大"}；每个输入都必须是有限的数`,
  ],
  [
    /^(\S+) = (.+) overflows(?: to (\S+)| (\(its terms reach both Infinity and -Infinity\))); the inputs are finite but too large for (\S+) \(at most (\S+)\)$/,
    (cell, formula, to, both, type, max) =>
      `${cell} = ${formula.replace(/\(column (\d+) of (\S+)\)/, "（$2 的第 $1 列）")} 溢出${
        to ? `为 ${to}` : both ? "：其中的项同时达到 Infinity 和 -Infinity" : ""
      }；输入都是有限的数，但对 ${type}（最大约 ${max}）来说太大了`,
  ],
  [
    /^acc\[(\d+)\]\[(\d+)\] overflows to (\S+) after the keys (\d+) to (\d+): the tiled output is divided by its sum only at the end, and V's values are too large for (\S+) \(at most (\S+)\)$/,
    (i, c, to, a, b, type, max) =>
      `acc[${i}][${c}] 在第 ${a} 到第 ${b} 个键之后溢出为 ${to}：分块的输出要到最后才除以它的和，而 V 的数值对 ${type}（最大约 ${max}）来说太大了`,
  ],
  [
    /^(\S+) row (\d+) has (\d+) numbers? but row (\d+) has (\d+)$/,
    (a, i, n, k, m) => `${a} 的第 ${i} 行有 ${n} 个数，而第 ${k} 行有 ${m} 个`,
  ],
  [/^(\S+) row (\d+) is not an array$/, (a, i) => `${a} 的第 ${i} 行不是数组`],
  [/^(\S+) must be an array of rows$/, (a) => `${a} 必须是由行组成的数组`],
  [
    /^(\S+)\[(\d+)\]\[(\d+)\] is (.+), not a number$/,
    (a, i, j, what) => `${a}[${i}][${j}] 是 ${what}，不是数字`,
  ],
  [
    /^mask is (\S+) but the scores are (\S+) \(n_q×n_k\)$/,
    (a, b) => `掩码是 ${a}，而分数矩阵是 ${b}（n_q×n_k）`,
  ],
];

export default {
  title: "手算注意力",
  tagline: "softmax(Q·Kᵀ/√d_k)·V，一次一个数。每个数都由 WASM 核心算出。",
  loading: "正在加载注意力核心……",
  ui: {
    // 文本框下：输入的文字何时读入
    textHow: "按回车键或离开输入框，读入你输入的文字。",
    handMade: [
      "这里的权重是手工挑选的，为了让道理看得清楚；真实模型的权重是从数据中学出来的，见实验：",
      "。",
    ],
    scenes: "场景",
    path: "学习路线：按顺序的几课",
    lesson: (n, name) => `${n} ${name}`,
    lessons: {
      walkthroughs: "一步步算",
      inside: "模型里面",
      why: "为什么这样设计",
      learn: "它怎么学",
      gpt: "真正的模型",
      real: "你用的模型",
    },
    nextUp: (lesson) => (lesson ? `下一课 ${lesson}：` : "下一个："),
    pathEnd: "路线到这里走完了。换上你自己的数，随便哪个场景再算一遍，就是下一步。",
    language: "语言",
    play: "播放",
    pause: "暂停",
    back: "上一步",
    forward: "下一步",
    lastStep: "下一步：这已经是最后一步",
    restart: "从头开始",
    speed: "速度",
    scrubber: "步骤",
    stepOf: (n, total) => `第 ${n} 步，共 ${total} 步`,
    digits: "显示的小数位数",
    embed: "嵌入到你的教程",
    copyLink: "复制链接",
    skipLinks: "跳转",
    rowsDrawn: (first, last, n) =>
      `这里画出第 ${first}–${last} 行（共 ${n} 行）：点选格子或用方向键移动，就能看到其他行。`,
    skipPlayer: "跳到播放器",
    skipStep: "跳到当前这一步",
    copied: "链接已复制",
    copyFailed: "请从地址栏复制此链接",
    reset: "还原",
    random: "随机数值",
    seed: "随机种子",
    shownTools: "数字的显示",
    tools: "改动数值",
    causal: "因果掩码（每个词只看到自己和前面的词）",
    alpha: "锐度 α（查询 × α，即逆温度）",
    predict: "先猜后看",
    edited: "现在用的是你自己的输入，原文的数值不再适用。点“还原”可恢复。",
    sharpen: (name, times) => `试试更“尖锐”的查询：${name} × ${times}`,
    scrollHint: "表格较宽：左右滑动查看其余部分 →",
    keyboard:
      "键盘：空格播放或暂停（焦点在按钮上时，空格按下那个按钮），← → 单步，Home 与 End 跳到第一步和最后一步（焦点在播放器的按钮上时）。",
    edit: "点击数字即可修改。回车确认，Esc 取消。",
    editCell: (ref, value) => `修改 ${ref}：${value}`,
    cell: (ref, value) => `${ref}：${value}`,
    countFrom1: "行和列都从 1 开始数：scores[2][1] 是第 2 行、第 1 列。",
    addRow: "加一行",
    removeRow: "删去最后一行",
    addColumn: "加一列",
    removeColumn: "删去最后一列",
    // 跟着它一起改形状的矩阵：[[名字, "rows" | "cols"]]
    alsoChange: (others, grow) =>
      `；同时${others
        .map(([names, along]) => {
          const unit = along === "rows" ? "行" : "列";
          return `${names.join("、")}${grow ? `也加一${unit}` : `也删去最后一${unit}`}`;
        })
        .join("，")}`,
    notANumber: (text) => `“${text}”不是数字。`,
    tooBig: ({ id, rows, cols }) =>
      `链接里的 ${id} 是 ${rows}×${cols}；手算用的矩阵最多 16 行、16 列。`,
    rejected: "未采用，保留上一次正确的数值：",
    rejectedLink: "链接里的数值未采用，显示的是场景本来的数值：",
    unloaded:
      "这一课没能加载：可能是你打开页面之后页面更新了，或者网络断了。重新加载页面就能打开它。",
    languageUnloaded:
      "另一种语言没能加载：可能是你打开页面之后页面更新了，或者网络断了。重新加载页面就能加载它。",
    reload: "重新加载页面",
    derivation: "这个数是怎么算出来的",
    focusHint: "点选任意结果格子，看它从哪里来。",
    sourceLabel: "出处：",
    about: "关于这个场景",
  },
  // 场景的出处。我们手上的文章副本没有标题，也没有署名。
  // 注意力是做什么的，在第一个矩阵之前（ui/purpose.js）：图就是教室找人的类比。
  purpose: {
    title: "注意力是做什么的",
    text: [
      "每个词都从别的词那里收集它需要的东西。它提一个问题（查询 Q），每个词亮出一个标签（键 K），它按标签和问题匹配得好不好，取走每个词的内容（值 V）：匹配得越好，取得越多。取来的这份混合，就是这个词的输出。",
      "下面对“我爱你”三个字做同样的事，一次算一个数。",
    ],
    next: [
      "一个词为什么需要旁边的词：下一个场景“",
      "”里，“苹果”在一句话里是水果，在另一句里是手机。",
    ],
    you: "找人",
    query: "要找的人",
    key: "名牌",
    value: "说的话",
    picture:
      "一幅图：找人的人带着问题“要找的人”（Q），连线到三位同学，每人有名牌（K）和说的话（V）；连到中间那位同学名牌的线最粗：那张名牌最匹配。",
    caption:
      "就像在教室里找人：你心里要找的人是查询，每个同学的名牌是键，每个人说的话是值。名牌越匹配，线越粗，你听进去的话就越多。图只画道理，数在下面。",
  },
  // 路线的终点，最后一课之后（ui/recap.js）。
  recap: {
    title: "路线的终点：你学会了什么",
    canTitle: "现在你能手算的",
    can: [
      "每个查询和每个键的分数：它们的点积 Q·Kᵀ，再乘以 1/√d_k，免得行一长 softmax 就饱和。",
      "掩码：查询不该看的地方放 −∞，让那里的键权重为 0。",
      "一行的 softmax（先减去这一行最大的数），以及值的加权和：输出 = 权重·V。",
      "投影 Q = X·W_Q、K = X·W_K、V = X·W_V，并排的几个头，以及存着已见过的词的键和值的 KV 缓存。",
      "贯穿这一切的梯度下降：dL/dα，或 dL/dW_Q 和 dL/dW_K，以及更新 W ← W − η·dL/dW。",
    ],
    fullTitle: "它怎样装在你用的模型里",
    small: ({ ours, big }) =>
      `第 5 课的唐诗模型有 ${ours.layers} 层，每层 ${ours.heads} 个头，向量宽 ${ours.dModel} 个数，共 ${n(ours.total)} 个参数；${big.name} 有 ${big.layers} 层，每层 ${big.heads} 个头共用 ${big.kvHeads} 个键值头，向量宽 ${n(big.dModel)}，共 ${n(big.total)} 个参数，都是第 6 课从公开的配置数出来的。`,
    full: "它的每一层注意力算的仍然是 softmax(Q·Kᵀ/√d_k)·V，和你在这里算的一样：算在分词器用 BPE（把常在一起出现的字节片段合并成一个词元）从你的文字切出的词元上，上下文有成千上万个词元，它们的键和值存在 KV 缓存里；权重是用梯度下降从网络上的大量文字学来的，而不是几本诗集。",
    nextTitle: "接下来去哪里",
    next: [
      { text: "讲解所用的三篇中文文章：每个场景在“出处”里写明了自己的那一篇。" },
      {
        text: "《动手学深度学习》的注意力机制一章，配有代码：",
        href: "https://zh-v2.d2l.ai/chapter_attention-mechanisms/index.html",
        link: "zh-v2.d2l.ai：注意力机制",
      },
      {
        text: "英文版的同一章：",
        href: "https://d2l.ai/chapter_attention-mechanisms-and-transformers/index.html",
        link: "d2l.ai: Attention Mechanisms and Transformers",
      },
    ],
  },
  sources: {
    "000": {
      text: "一篇中文文章（我们的副本无标题、无署名），用“查字典”作比喻，全程手算讲解注意力。",
    },
    "002": {
      text: "一篇中文文章（我们的副本无标题、无署名），以“在教室里找人”为例，用 NumPy 对“我爱你”计算自注意力。",
    },
    "004": {
      text: "一篇中文文章（我们的副本无标题、无署名），讲两种注意力提示和张姓平均年龄的例子。其中桌面的插图来自《动手学深度学习》（阿斯顿·张、扎卡里·C. 立顿、李沐、亚历山大·J. 斯莫拉著）：",
      link: {
        href: "https://zh-v2.d2l.ai/chapter_attention-mechanisms/attention-cues.html",
        text: "注意力提示",
      },
    },
    "004-sentence": {
      text: "“我在图书馆读书”这句话缩短自一篇讲两种注意力提示的中文文章（我们的副本无标题、无署名）；这一层、它的权重和这个实验都是本项目自己做的。",
    },
  },
  views: {
    heatmap: "权重热力图",
    lines: "谁关注谁（线越粗，权重越大）",
    plot: "查询向量与键向量：点积的几何意义",
    plotNote:
      "沿查询方向的宽浅橙色带是键在查询上的投影（虚线从键的末端垂直落下）：投影越长，q·k 越大。",
    legend: {
      weight: "权重",
      masked: "被掩盖：这个键看不到，权重为 0",
      dense:
        "列太多，这个宽度放不下数字：用深浅表示权重。窗口宽一些也许放得下数字（手机可以横过来），用鼠标把指针停在格子上也能看到那一格的数；读屏软件会读出全部的数。",
    },
    uniform: (low, high, logitLow, logitHigh) =>
      `各个权重几乎相等（${low} 到 ${high}），所以热力图和连线几乎看不出差别。原因：缩放之后，分数都很小而且彼此接近（${logitLow} 到 ${logitHigh}），这么接近的数取 softmax，结果接近平均分配。更“尖锐”的查询才能把各个键区分开。`,
    meaning: (token) => `“${token}”带着什么信息：注意力之前与之后`,
    own: "自己的值",
    after: "注意力之后",
  },
  steps: {
    inputs: {
      title: "输入",
      // 这个场景的行和列各是什么，用它们的名字说。
      self: (words, features) =>
        `X 的每一行是一个词：${words}；每一列是一个特征：${features}。W_Q、W_K、W_V 由它算出每个词的查询、键和值。`,
      lookup: (queries, keys, values, features) =>
        `Q 的行是查询：${queries}；K 的行是键：${keys}；V 的行是每个键存的内容：${values}。Q 和 K 的列是特征：${features}。`,
      unnamed: (n) => `${n} 个没有名字的数`,
      range: (n, first, last) => `从${first}到${last}的 ${n} 个词`,
    },
    projections: {
      title: "线性投影",
      text: "每个词的向量 X 分别乘以 W_Q、W_K、W_V：Q = X·W_Q，K = X·W_K，V = X·W_V。",
    },
    scores: {
      title: "注意力分数",
      text: "每个分数是一行查询与一行键的点积：scores = Q·Kᵀ。分数越大，匹配越好。",
      alpha: (alpha) => `这里的 Q 是 α·q，α = ${alpha}：第 1 步的查询乘以 α。`,
    },
    scaled: {
      title: "缩放",
      text: (dk, scale) =>
        `每个分数除以 √d_k = √${dk}，也就是乘以 ${scale}。d_k 是每一行查询和键的长度（Q 和 K 的列数），这里是 ${dk}。`,
      why: {
        summary: "为什么要除以 √d_k？",
        text: "如果 q 和 k 里的数相互独立、方差为 1，q·k 是 d_k 个乘积之和，方差会变成 d_k：行越长，分数拉得越开，softmax 会把几乎全部权重给一个键。除以 √d_k 让方差回到 1，softmax 就保持“软”。缩放系数就是“逆温度”：张姓年龄场景里的 α 也是逆温度，α 越大，softmax 越尖锐。",
      },
      custom: (scale) => `每个分数乘以缩放系数 ${scale}。`,
    },
    masked: {
      title: "掩码",
      text: "因果掩码在“键在查询之后”的位置填入 −∞：exp(−∞) = 0，这些键得不到权重。",
      explicit: "掩码在查询不能看到的键的位置填入 −∞：exp(−∞) = 0，这些键得不到权重。",
      why: {
        summary: "为什么要挡住后面的词？",
        text: "语言模型靠预测下一个词来学习。如果一个词能看到它后面的词，它只要照抄答案，什么也学不到；有了掩码，一次计算就能同时训练每个位置，每个位置只看到它自己和它之前的内容。而且模型生成文字时一次只写一个词，写的时候后面的词还不存在：掩码让训练看到的，正是生成时能看到的。（其他掩码挡住的是只用来补齐长度的键。）",
      },
    },
    weights: {
      title: "Softmax 归一化",
      text: "逐行计算：先减去这一行的最大值 m，再取 exp，把这一行加起来，最后每个 exp 除以总和。exp 永远不是负数：不论 x 多负，exp(x) 都大于 0，所以每个权重都大于 0（只有被掩码的键，exp(−∞) 是 0）。除以总和之后，每行权重之和为 1：权重是份额，表示一个查询把多少注意力分给每个键（显示的是四舍五入后的数，末位可能差 1）。",
      line: "exp(x − m) / Σ exp(x − m) = eˣ·e⁻ᵐ / (Σ eˣ·e⁻ᵐ) = eˣ / Σ eˣ：e⁻ᵐ 约掉了，所以这就是普通的 eˣ / Σ eˣ；减去 m 只是让每个 exp 都不超过 1，分数再大也不会溢出。",
    },
    output: {
      title: "加权求和",
      text: "每一行输出都是各行值向量的混合，权重就是注意力权重：output = weights·V。",
    },
    result: {
      title: "结果",
      text: "输出：每个查询从值向量中得到的信息。",
      why: {
        summary: "输出接下来去哪里？",
        text: "在 Transformer 里，这还不是终点。每个头的输出乘以 W_O，再加回这个词自己的向量（残差流：x + attention(x)）；MLP 也这样加上它的一份；下一层再从这个和算出自己的查询、键和值，于是它能关注这一层收集到的信息。实验“真正的模型”展示了两层这样的结构。",
      },
    },
  },
  derive: {
    input: "输入数据",
    column: (n, name) => `${name} 的第 ${n} 列`,
    extra: "有些项比表格多写了几位小数，这样每一行按所写的精度都能算对。",
    approx:
      "≈：即使各项写到 12 位小数，也算不出所显示的结果：要么结果正好落在四舍五入的边界上，要么一个很大的数乘以一个舍入过的因子（比如 1/√d_k），把它的舍入误差放大了。",
    noMask: "这个场景没有掩码",
    blocked: "这个键在查询之后",
    masked: "掩码挡住了这个键",
    kept: "保留",
    allBlocked: "这一行的键全部被掩盖：权重与输出都是 0",
  },
  list: (items) => items.map((x) => `“${x}”`).join("、"),
  gloss: () => undefined,
  // The core's messages, said in Chinese. Anything not matched stays as the core wrote it.
  coreError: (message) => {
    for (const [pattern, say] of coreErrors) {
      const m = message.match(pattern);
      if (m) return say(...m.slice(1));
    }
    return message;
  },
  labels: {
    queryZhang: "姓张？",
    zhangSan: "张三",
    liSi: "李四",
    zhangMazi: "张麻子",
    newspaper: "报纸",
    paper: "论文",
    notebook: "笔记本",
    book: "书",
    redCup: "红色咖啡杯",
    age: "年龄",
    fruit: "水果 fruit",
    apple: "苹果 apple",
    banana: "香蕉 banana",
    chair: "椅子 chair",
    involuntary: "没有任务",
    voluntary: "我要读书",
    appleAte: "句 1 的苹果",
    applePhone: "句 2 的苹果",
    food: "食物",
    electronics: "电子产品",
  },
  dims: {
    zhang: "姓张",
    given: "名（编码）",
    li: "姓李",
    action: "对事物的动作",
    quality: "描述品质",
    place: "是地点",
    thing: "是事物",
    time: "是时间",
    salience: "醒目（显著性）",
    readable: "可阅读",
    bound: "装订成册",
    drinkable: "可盛饮料",
    eating: "和吃有关",
    device: "和电子设备有关",
  },
  glossary: {
    open: "术语表",
    title: "术语表",
    close: "关闭",
    all: "全部术语",
    computedIn: "计算它的地方：",
    where: (name, step) => `${name}，第 ${step} 步`,
  },
  scenes: {
    apple: {
      name: "两句话里的苹果",
      title: "注意力是做什么的：两句话里的“苹果”，水果和手机",
      analogy:
        "“苹果”在“我吃了一个苹果”里是水果，在“苹果手机很贵”里是手机。单看这个词分不出来：它自己的向量在两句话里一模一样，一半是食物、一半是电子产品，是它两个意思的一个固定的平均；词袋只保留每个词自己的向量、不看旁边的词，手里就只有这一个。注意力让“苹果”去问旁边的词：它的查询找和吃有关、和电子设备有关的词，它的输出吸收那些词带来的东西。于是同一个词在两句话里出来的结果不一样：这就是注意力的用处。",
      inputs:
        "两句话放在同一张表里，就像模型一次读好几句：键 1–5 是“我吃了一个苹果”，键 6–9 是“苹果手机很贵”。两个查询都是“苹果”的，同样的两个数；第 4 步的掩码（−∞）让每个查询只看它自己那句话里的词。这些数是手工挑的，好让道理显出来。",
      result: (own, [first, second]) =>
        `“苹果”自己的值在两句话里都是 ${own}（食物，电子产品）：单靠自己，这个词就停在这一个平均上。在“我吃了一个苹果”里，它把 ${first.weight} 的权重给了“${first.word}”，输出是 ${first.output}：大多是食物，是水果。在“苹果手机很贵”里，它把 ${second.weight} 给了“${second.word}”，输出是 ${second.output}：大多是电子产品，是手机。同一个词，两个输出，各由它旁边的词造成。`,
      resultEdited: ([first, second]) =>
        `用这些数，“苹果”在“我吃了一个苹果”里的输出是 ${first.output}，最大的权重 ${first.weight} 给了“${first.word}”；在“苹果手机很贵”里是 ${second.output}，最大的权重 ${second.weight} 给了“${second.word}”。`,
      maskNote:
        "这里的掩码与先后无关：它把两句话隔开，让每个“苹果”只读它自己那句话里的词（句 1 是键 1–5，句 2 是键 6–9）。",
      table: "“苹果”带着什么：它自己的值，和它在每句话里的输出",
      own: (ref) => `自己的值 ${ref}，两句都一样`,
      in: (ref, n) => `${ref}，句 ${n}`,
    },
    classroom: {
      name: "教室找人",
      title: "在教室里找一个人：对“我爱你”做自注意力",
      analogy:
        "假如我要在教室里找一个人：心里想的这个人的特征是查询 Q；每个同学身上贴的标签是键 K；根据匹配程度给每个人打的分是注意力分数；从他们身上获取的信息是值 V。分数越高，从那个人那里听来的话就越重要。",
      result: (token, row, value, output) =>
        `每个词的输出都按注意力权重混合了所有词的值：“${token}”自己的值是 ${row} = ${value}，它的输出是 ${output}。`,
      flat: (token, [a, b, c], other) =>
        `原文的数为什么这么“平”：X、W_Q 和 W_K 的每个元素都不超过 1，d_k = 2，所以每个分数都是两个小乘积之和。“${token}”的三个分数（缩放之前）是 ${a}、${b} 和 ${c}：这么接近的分数，softmax 之后的权重也差不多相等，要很尖锐的查询才能把它们拉开。更尖锐的查询最先在“${other}”那一行显出来。`,
      also: (token, row, value, output, xRow, x) =>
        `最后一个词“${token}”：它的输入 ${xRow} = ${x}，值 ${row} = ${value}，输出 ${output}。`,
      meaning: (token) =>
        `“${token}”的输出，是把它自己的值往它所关注的词的值那边拉：每一行输出都是 V 各行的加权平均。`,
    },
    age: {
      name: "张姓平均年龄",
      title: "键值查询：查询表中姓张的人的平均年龄",
      analogy:
        "数据表里“键”是人名，“值”是年龄。查询“姓张”与每个键比较匹配程度，答案就是按匹配程度混合起来的年龄。",
      inputs:
        "每个键是三个数：第一个数姓张就是 1，第二个数是名字的编码（三是 2，麻子是 4），第三个数姓李就是 2。查询 q = [1, 0, 0] 只看第一个数，所以 q·k 只数“是不是姓张”，别的都不管：它就是这样问“姓张”的。",
      result: (value, exact, mean) =>
        `注意力给出 ${value}。精确查找（18、20、19）是 ${exact}；四个人的简单平均是 ${mean}。`,
      soft: (name, weight) =>
        `注意力是一种“软”查找：${name}仍然分到 ${weight} 的权重。调大 α，查找就越来越“硬”。`,
      hard: (alpha, name, weight) =>
        `α = ${alpha} 时，${name}的权重只剩 ${weight}：查找几乎是“硬”的，答案也几乎就是精确查找的结果。`,
      flat: (weight) => `α = 0 时每个键的权重都一样，都是 ${weight}：注意力给出的就是简单平均。`,
      resultEdited: (value) =>
        `注意力给出 ${value}。（输入改动后，原文的精确查找与简单平均不再适用。）`,
      exact: "精确查找",
      mean: "简单平均",
      attention: "注意力",
    },
    dictionary: {
      name: "查字典",
      title: "查字典：在 apple、banana、chair 中查 fruit",
      analogy:
        "注意力就像查字典：查询（Query）是你手里拿着的条件（fruit，水果）；键是字典里的索引标签（apple、banana、chair）；值是标签对应的内容。和查询很像的键得到高权重，不像的键几乎被忽略。",
      note: "原文的输入向量是图片，已经遗失。这里的输入是我们的重构：它能还原原文给出的每个数（权重 0.79、0.17、0.04；输出 [9.68, 42.98]）。",
      result: (top, weight, value, output) =>
        `${top} 的权重最大（${weight}），所以输出 ${output} 偏向它的值 ${value}。`,
    },
    book: {
      name: "“书”在看谁",
      title: "在“我昨天在图书馆读了一本很有趣的书”中，“书”关注哪些词？",
      analogy:
        "模型处理最后一个词“书”时，要弄清句子里哪些词最能说明这本书。这里的特征是手工设计并命名的，方便看清原因：“书”在寻找对事物的动作、品质和地点。",
      result: (top, designed) =>
        designed
          ? `“书”最关注${top}：对它做了什么（读）、它怎么样（有趣）、它在哪里（图书馆）。`
          : `“书”最关注${top}。`,
      masked:
        "加上因果掩码后，“书”这一行不变：“书”是最后一个词，本来就能看到所有词。变化的是它前面的行：“读”看不到它后面的六个词“了 一本 很 有趣 的 书”了。",
      maskNote:
        "在这句话里，掩码改变了除最后一行以外的每一行：“书”是最后一个词，本来就能看到所有词。请看“读”这一行。",
      meaning: (token, designed) =>
        designed
          ? "“书”自己的值只有“是事物”。它的输出还带上了对它做的动作、它的品质和它所在的地点：这正是它所关注的“读”“有趣”“图书馆”的特征。"
          : undefined,
    },
    cup: {
      name: "红色咖啡杯",
      title: "两种注意力提示：红色咖啡杯与书",
      analogy:
        "桌上有报纸、论文、笔记本、一本书和一个红色的咖啡杯。除了咖啡杯，其它全是黑白印刷：咖啡杯很醒目，这是它自己的性质，所以放在键里（键的第一个数：显著性）。没有任务时，查询里只有目光被醒目之物吸引的那一份，咖啡杯胜出：这是非自主性提示。“我要读书”这个任务放在查询里：它在同样的吸引之外加上“可阅读”和“装订成册”，注意力转向书：这是自主性提示。",
      result: (involuntary, voluntary, pulled) =>
        `没有任务时，查询最关注“${involuntary}”：这是非自主性提示，由键的显著性决定。有了“我要读书”的任务，它最关注“${voluntary}”：这是自主性提示，由查询带来${pulled ? `；第二是“${pulled}”，因为醒目之物对每个查询都有吸引` : ""}。`,
    },
    // the labs' names and words are in their lessons' folders (web/labs/<lesson>/)
  },
  check: {
    title: "核对我的计算",
    text: "自己手算这一步，把结果填进来。每个数都会按你选的精度与核心的结果比对。",
    rule: "判为正确的只有：在你选的小数位上，核心的数四舍五入或直接截断，或者用本页显示的数算出的结果四舍五入或截断。除此之外都算错。",
    decimals: "核对的小数位数",
    button: "核对",
    clear: "清空",
    right: "正确",
    rightRounded: (expected) => `正确；四舍五入的话，核心算出的是 ${expected}`,
    wrong: (expected) => `不太对：核心算出 ${expected}`,
    tryAgain: "不太对：再试一次",
    show: "显示答案",
    showFor: (ref) => `显示核心算出的 ${ref}`,
    sign: "±",
    signFor: "改变正在填写的答案的正负号",
    invalid: "不是数字",
    // a short answer: right at `had` decimals, the number rounded ("rounded") or cut off ("cut")
    short: (had, asked, how) =>
      `${how === "cut" ? "截断" : "四舍五入"}到 ${had} 位小数，这是对的；这里核对的是 ${asked} 位小数`,
    summary: (right, total) => `共 ${total} 个，对了 ${right} 个。`,
    which: (name, shape) => `核对的是 ${name}（${shape}）。`,
    pick: "要核对的矩阵",
    oneRow: (row) =>
      `这个矩阵较大，这里只列出第 ${row.match(/\d+/)[0]} 行（${row}）：点选其他行的格子即可核对那一行。`,
    printedButton: "核对原文印出的数",
    // summary：原文为这一步印出的三位小数总结（如果有）
    printedNote: (summary) =>
      `原文为这一步印出了这些数。它的代码是对的，但印出的数并不是那段代码的结果：从小数点后第三、四位起就开始偏离。${summary ? `它的三位小数总结 ${summary} 是对的。` : ""}正因为会有这样的错误，亲手核对才有意义。`,
    summaryButton: "核对原文的三位小数总结",
  },
  export: {
    noMask: "这个场景没有掩码",
    group: "带到 Python 里",
    numpy: "复制为 NumPy 代码",
    pytorch: "复制为 PyTorch 代码",
    copied: (name) => `已复制 ${name} 脚本：用 python3 运行，它会打印这里显示的输出。`,
    copyFailed: "剪贴板不可用：请从下面的框里复制脚本。",
    script: "脚本",
    core: "核心",
    heading: (title) => `手算注意力：${title}`,
    intro: (library, digits) => [
      `用 ${library} 一步步计算 softmax(Q·Kᵀ/√d_k)·V，输入与页面上的相同（包括你的修改）。`,
      `每条“核心”注释是 WASM 核心算出的数，保留 ${digits} 位小数；脚本按页面的样子打印输出。`,
      "只用基本运算，可在 NumPy 1.x 和 2.x、PyTorch 1.13 和 2.x 上运行。",
    ],
    inputs: "输入，与页面上的完全相同",
    tokens: "每个词一行",
    queries: "每个查询一行",
    keys: "每个键一行",
    values: "每个键一行",
    alpha: "锐度 α：页面把查询乘以它",
    projections: "投影：Q = X·W_Q，K = X·W_K，V = X·W_V",
    causal: "因果掩码：查询 i 只看键 1..i",
    blocked: "所有键都被遮住的行没有最大值：核心给它权重 0、输出 0",
    steps: {
      scores: "scores = Q·Kᵀ",
      scaled: "scaled = scores × scale，其中 scale = 1/√d_k",
      masked: "masked：查询不能看的键处放 −∞，exp 之后就是 0",
      weights: "逐行 softmax：减去该行的最大值，取 exp，再除以总和",
      output: "output = weights·V",
    },
    print: (digits) => `输出，和页面上一样保留 ${digits} 位小数`,
  },
  // the button; the file's own words are i18n/sheet.js, loaded with it
  sheet: {
    group: "带到电子表格里",
    button: "下载为电子表格（.xlsx）",
    making: "正在生成电子表格……",
    done: (name) =>
      `已下载 ${name}：用 LibreOffice、WPS、Excel 或 Google 表格打开，改一个黄色的数试试。`,
    failed: (why) => `电子表格没能生成：${why}`,
  },
  print: {
    button: "打印练习纸",
    title: (page, scene) => `${page}：${scene}`,
    keyButton: "打印答案",
    name: "姓名：______________________    日期：____________",
    how: (digits) =>
      `根据给出的数算出每一步，保留 ${digits} 位小数，填进空格。行和列都从 1 开始数。`,
    key: (title) => `答案：${title}`,
    keyHow: (digits) =>
      `练习纸上每一步的结果，由核心用同样的数（包括改动过的）算出，保留 ${digits} 位小数。`,
    answersNote:
      "这里是精确结果四舍五入后的数值。用你自己四舍五入后的数算出的答案，最后一两位可能不同，仍然算对。",
    from: (names) => `用你自己算出的 ${names.join("、")}（括号里是第几步）。`,
    quiz: (lesson) => `课后小测：${lesson}`,
    quizNote:
      "每个答案都是核心算出的数；学生的答案在要求的小数位上等于这个数四舍五入或截断的结果，就算对。",
    quizAnswer: (text, answer) => `${text} 答案：${answer}`,
    quizFailed: "小测的答案没能算出来：有一课的代码没能加载。",
  },
  // 每一课结尾的小测（web/quiz.js、ui/quiz.js）。
  quiz: {
    title: (lesson) => `小测：${lesson}`,
    intro:
      "关于这一课的几道题，就在你的浏览器里批改，不会发送到任何地方。答错的题会链接到讲解它的那一步。",
    number: (decimals) =>
      decimals === 0 ? "你的答案（整数）" : `你的答案（保留 ${decimals} 位小数）`,
    check: "批改我的答案",
    working: "正在用核心算出答案……",
    failed: "答案没能算出来：有一课的代码没能加载。重新加载页面就好。",
    right: "对",
    wrong: "不对",
    empty: "没有作答",
    // a wrong answer's verdict, around the link to the step that explains it
    review: (why, mark = "✗") => [`${mark} ${why}。请看`, "。"],
    stepRef: (scene, step, title) => `${scene}，第 ${step} 步：${title}`,
    score: (right, total) => `共 ${total} 题，答对 ${right} 题。`,
    summaryTitle: "交给老师的小结",
    summaryText:
      "复制或下载它，按老师的要求交上去。它列出你在这个标签页里到目前为止做过的每一课小测，以及本页的链接；它就在这里生成，除非你自己发出去，否则不会去任何地方。",
    name: "你的名字（只写进小结）",
    copy: "复制小结",
    download: "下载（.txt）",
    copied: "小结已复制。",
    copyFailed: "剪贴板不可用：请从下面的框里复制小结。",
    downloaded: "小结已存为 .txt 文件。",
    box: "小结",
    file: "手算注意力-小测.txt",
    sheet: {
      heading: "手算注意力：课后小测",
      name: (name) => `姓名：${name || "（未填写）"}`,
      date: (date) => `日期：${date}`,
      link: (url) => `链接：${url}`,
      lesson: (lesson, right, total) => `${lesson}：共 ${total} 题，答对 ${right} 题`,
      // 一题的答案，对或不对；不对的，附上要复习的那一步
      answer: (k, text, typed, mark, review) =>
        `  ${k}. ${text} 答案：${typed}。${mark}。${review ? `复习 ${review}。` : ""}`,
      none: "还没有做过任何一课的小测。",
    },
    questions: {
      selfWeight: {
        text: "教室：softmax 之后，你给自己的权重是多少？",
      },
      ageOutput: {
        text: "平均年龄，α = 1 时：对“姓张”，注意力给出的年龄是多少？",
      },
      bookTop: {
        text: "书在注意什么：书给哪个词的权重最大？",
        options: ["读", "图书馆", "有趣", "我"],
      },
      prevHead: {
        text: "多头：平均来看，哪个头把最多的权重放在每个词元的前一个词元上？",
        options: ["头 1", "头 2", "头 3", "头 4"],
      },
      cacheK: {
        text: "更少的键值头：h_kv = 2 时，5 个词元之后 K 缓存里存着多少个数？",
      },
      cachedStep: {
        text: "KV 缓存：第 5 个词元 书 到来时，用缓存的这一步要做多少次乘加？",
      },
      stableTop: {
        text: "数值稳定性：分数 1000、998、990 用稳定的方法做 softmax，1000 得到的权重是多少？",
      },
      maskedRow: {
        text: "数值稳定性：用 −1e9 代替 −∞ 做掩码时，一行的 3 个键全被遮住，每个键得到的权重是多少？",
      },
      unscaledTop: {
        text: "为什么除以 √d_k：d_k = 512、不除以 √d_k 时，一行里最大的权重，在 100 行上平均有多大？",
        options: [
          "约 0.125：在 8 个键上平均分",
          "在 0.2 和 0.6 之间",
          "在 0.6 和 0.9 之间",
          "大于 0.9：几乎全在一个键上",
        ],
      },
      startLoss: {
        text: "学习锐度：开始时（α = 1，目标 19），损失 L = (output − 19)² 是多少？",
      },
      startGradient: {
        text: "学习锐度：开始时，dL/dα 是多少？",
      },
      firstUpdate: {
        text: "学习锐度：η = 10 时，第一步之后的 α，即 α − η·dL/dα，是多少？",
      },
      evenGuess: {
        text: "归纳头的形成：下一个词元是新的时，最好的猜法是在 32 个词元上平均地猜。平均地猜的损失是多少奈特？",
      },
      nextChar: {
        text: "真正的模型：在“举头望明”之后，唐诗模型排第一的字是哪个？",
        options: ["月", "，（逗号）", "明", "光"],
      },
      gpt2Love: {
        text: "它们的词元：GPT-2 把 我爱你 切成多少个词元？",
      },
      llamaKv: {
        text: "它们的大小：Llama 3 8B 的 KV 缓存每个词元要存多少字节（16 位的数）？",
      },
      fewestKv: {
        text: "它们的大小：下面哪个模型的 KV 缓存每个词元存的字节最少？",
        options: ["Llama 3 8B", "Qwen2.5 7B", "Qwen3 8B"],
      },
    },
  },
  // 老师给全班的链接（ui/share.js），以及打开这种链接时页面说的话。
  share: {
    open: "分享给全班",
    title: "分享给全班",
    text: "为你的学生生成一个链接：它会按你在这里的设置打开本页。不会发送任何东西，也不需要账号；每个学生的答案只留在他们自己的标签页里。",
    lang: "语言",
    predict: "先猜后看：每一步的结果先藏起来，学生回答之后才显示",
    hide: "对学生隐藏",
    hideNames: {
      lang: "语言切换",
      predict: "“先猜后看”按钮（先猜模式保持这里的设置）",
      edit: "改动数值（输入的格子、还原、随机数值）",
      export: "带到 Python 里（导出部分）",
      key: "打印答案",
      share: "这个“分享给全班”面板",
    },
    lessons: "课和场景",
    start: "从哪里开始",
    startFirst: "所选第一个场景的第 1 步",
    startHere: (scene, step) => `当前这一步：${scene}，${step}`,
    link: "全班用的链接",
    copy: "复制全班用的链接",
    copied: "全班用的链接已复制。",
    copyFailed: "剪贴板不可用：请从上面的框里复制链接。",
    try: "在新标签页里打开，像学生那样试一试",
    none: "请至少选一个场景：这个链接现在一个场景也没有。",
    checks: "所选的每一课结尾都有一个小测。",
    note: (count, lessons) =>
      `老师给的链接：${lessons}中的 ${count} 个场景，列在下面。每一课结尾有一个小测。`,
    hidden: "为这个班隐藏了一些控件。",
    refused: (items) =>
      `这个链接里有看不懂的设置，已忽略：${items.map(({ key, value }) => `${key}=${value}`).join("，")}。`,
  },
  predict: {
    concealed: "这里有些数是前面某一步的结果，而那一步你还没有回答：回答之前它们保持隐藏。",
    title: "先猜，再揭晓",
    text: "这一步的结果先藏起来了。请根据上面的数自己算：填数、回答问题，或者两样都做。然后点核对：页面会揭晓这一步，并标出你算对了哪些。",
    reveal: "核对并揭晓",
    revealed: {
      title: "已揭晓",
      text: "你的答案已经批改，这一步的结果显示在上面。",
    },
    hiddenCell: "答完之后才显示",
    noDerivation: "答完之后才显示：请用它上面的数自己算出来。",
    waiting: (n, title) =>
      `这一步要用第 ${n} 步“${title}”的结果来算，而那一步你还没有回答：上面那些数是隐藏的。请先回答第 ${n} 步；或者核对并揭晓，看到这一步和它之前各步的全部数字。`,
    goTo: (n) => `去第 ${n} 步`,
    waitingCell: (n) =>
      `隐藏中：这个数要用第 ${n} 步的结果来算，而那一步还没有回答。请先回答那一步，或者在下方核对并揭晓。`,
    answerBelow: "在下方作答 ↓",
    largestScore: (q) => `哪个键从“${q}”得到的分数最高？`,
    mostWeight: (q) => `哪个键从“${q}”得到的权重最大？`,
    scaleOrder: (q) => `除以 √d_k 会不会改变“${q}”得分最高的键？`,
    yes: "会",
    no: "不会",
    answer: (answers) => `答案是${answers}`,
    tie: (answers) => `（并列：${answers}都算对）`,
  },
};
