// scenes.js: the six walkthroughs as data. Inputs only: every derived number comes from the
// core. Words (titles, analogies, token names, dimension names) live in web/i18n/. It imports
// nothing; the list of every scene and lab, in the curriculum's order, is web/catalogue.js.
//
// A scene gives either `x` with `wq`, `wk`, `wv` (self-attention: the page shows the
// projections) or `q`, `k`, `v` (a lookup). `queries` and `keys` name the rows through
// i18n keys; `dims` name the columns of the embeddings where they mean something.

// The book scene's W_K and W_V: a key is what a token is, a value what it carries.
const identity5 = [
  [1, 0, 0, 0, 0],
  [0, 1, 0, 0, 0],
  [0, 0, 1, 0, 0],
  [0, 0, 0, 1, 0],
  [0, 0, 0, 0, 1],
];

// The cup scene's objects, (5, 4): 报纸, 论文, 笔记本, 书, 红色咖啡杯 by how much each stands
// out (salience: a property of the object, so it is in the keys), readable, bound and
// drinkable. They are the keys and the values.
const desk = [
  [0, 0.8, 0.2, 0],
  [0, 0.9, 0.4, 0],
  [0, 0.3, 0.7, 0],
  [0, 1, 1, 0],
  [1, 0, 0, 1],
];

// What article 002 printed for the classroom scene's weights and output.
const printedWeights = [
  [0.33614837, 0.33310516, 0.33074647],
  [0.32184448, 0.33343385, 0.34472167],
  [0.30815179, 0.33241613, 0.35943208],
];
const printedOutput = [
  [0.55158713, 0.49825904],
  [0.5443457, 0.50918687],
  [0.53701315, 0.52096187],
];
const printedSummary = [
  [0.551, 0.498],
  [0.544, 0.509],
  [0.537, 0.521],
];

export const scenes = [
  {
    id: "classroom",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    source: "002",
    // X (3, 2): 我, 爱, 你; W_Q, W_K, W_V (2, 2)
    inputs: {
      x: [
        [1, 0],
        [0.5, 0.5],
        [0, 1],
      ],
      wq: [
        [0.5, 0.2],
        [0.1, 0.6],
      ],
      wk: [
        [0.4, 0.3],
        [0.2, 0.7],
      ],
      wv: [
        [0.8, 0.1],
        [0.3, 0.9],
      ],
    },
    tokens: ["我", "爱", "你"],
    plot: true,
    // "Try a sharper query" multiplies W_Q by this: × 5 would leave every row nearly flat
    sharpen: 20,
    // Article 002 printed these for step 4 (weights) and step 5 (output); its own code gives
    // other numbers. Its 3-decimal summary of the output is right.
    printed: {
      weights: { values: printedWeights },
      output: { values: printedOutput, summary: printedSummary },
      result: { values: printedOutput, summary: printedSummary },
    },
  },
  {
    id: "apple",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    // What attention is for: 苹果 in 我吃了一个苹果 (the fruit) and in 苹果手机很贵 (the phone).
    // One table holds both sentences' words, as a model reads a batch; the mask keeps each 苹果
    // to its own sentence's. Q (2, 2): 苹果's query, the same in both; K (9, 2): how much each
    // word is about eating and about a device; V (9, 2): what it carries, food and electronics
    // (苹果's own, half of each, the same in both sentences).
    inputs: {
      q: [
        [2, 2],
        [2, 2],
      ],
      k: [
        [0, 0],
        [2, 0],
        [0, 0],
        [0, 0],
        [0.5, 0.5],
        [0.5, 0.5],
        [0, 2],
        [0, 0],
        [0, 0],
      ],
      v: [
        [0, 0],
        [1, 0],
        [0, 0],
        [0, 0],
        [0.5, 0.5],
        [0.5, 0.5],
        [0, 1],
        [0, 0],
        [0, 0],
      ],
    },
    queryLabels: ["appleAte", "applePhone"],
    keyLabels: ["我", "吃", "了", "一个", "苹果", "苹果", "手机", "很", "贵"],
    valueLabels: ["food", "electronics"],
    dims: ["eating", "device"],
    mask: [
      [true, true, true, true, true, false, false, false, false],
      [false, false, false, false, false, true, true, true, true],
    ],
    // the key that is each query's own word, 苹果 in its sentence: its value is its own vector
    own: [4, 5],
  },
  {
    id: "age",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    source: "004",
    // q (1, 3): "surname Zhang"; K (4, 3): 张三, 张三, 李四, 张麻子; V (4, 1): ages
    inputs: {
      q: [[1, 0, 0]],
      k: [
        [1, 2, 0],
        [1, 2, 0],
        [0, 0, 2],
        [1, 4, 0],
      ],
      v: [[18], [20], [22], [19]],
    },
    queryLabels: ["queryZhang"],
    keyLabels: ["zhangSan", "zhangSan", "liSi", "zhangMazi"],
    valueLabels: ["age"],
    // The sharpness α multiplies the query; the exact lookup and the plain mean frame it.
    alpha: { min: 0, max: 10, step: 0.5, initial: 1 },
    // The exact lookup, the plain mean, and the key that should not match (李四).
    compare: { exact: 19, mean: 19.75, outlier: 2 },
    dims: ["zhang", "given", "li"],
  },
  {
    id: "dictionary",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    source: "000",
    // q (1, 2): fruit; K (3, 2) and V (3, 2): apple, banana, chair. A reconstruction.
    inputs: {
      q: [[1, 1]],
      k: [
        [3, 2],
        [2, 0.8],
        [0, 0.7],
      ],
      v: [
        [10, 50],
        [9, 19],
        [6, 2],
      ],
    },
    queryLabels: ["fruit"],
    keyLabels: ["apple", "banana", "chair"],
    plot: true,
    reconstructed: true,
  },
  {
    id: "book",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    source: "004",
    // X (11, 5): each token's designed features; W_Q (5, 5) says what each feature looks for;
    // W_K and W_V are the identity, so a key is what a token is and a value what it carries.
    inputs: {
      x: [
        [0.2, 0, 0, 0.3, 0],
        [0, 0, 0, 0, 1],
        [0, 0, 0.3, 0, 0],
        [0, 0, 0.9, 0.5, 0],
        [1, 0, 0, 0, 0],
        [0.2, 0, 0, 0, 0.3],
        [0, 0, 0, 0.4, 0],
        [0, 0.4, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0.2, 0, 0, 0],
        [0, 0, 0, 1, 0],
      ],
      wq: [
        [0, 0, 0, 2, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 1, 0],
        [3, 2.7, 2.4, 0, 0],
        [1, 0, 0, 0, 0],
      ],
      wk: identity5,
      wv: identity5,
    },
    tokens: ["我", "昨天", "在", "图书馆", "读", "了", "一本", "很", "有趣", "的", "书"],
    dims: ["action", "quality", "place", "thing", "time"],
    focusRow: 10,
    // 书 is last, so a causal mask leaves its row alone; 读's row shows what the mask does.
    maskFocusRow: 4,
    causalToggle: true,
  },
  {
    id: "cup",
    // its weights (or keys and values) were made by hand: the page says so
    handMade: true,
    source: "004",
    // Q (2, 4): the eye's same pull toward what stands out, without a task (the involuntary
    // cue, which the keys' salience decides) and with the task 我要读书 (the voluntary cue);
    // K = V (5, 4): the objects on the desk.
    inputs: {
      q: [
        [3, 0, 0, 0],
        [3, 2, 2, 0],
      ],
      k: desk,
      v: desk,
    },
    queryLabels: ["involuntary", "voluntary"],
    keyLabels: ["newspaper", "paper", "notebook", "book", "redCup"],
    dims: ["salience", "readable", "bound", "drinkable"],
  },
];

export const sceneById = Object.fromEntries(scenes.map((s) => [s.id, s]));
