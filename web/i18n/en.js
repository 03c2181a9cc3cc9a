// en.js: every English string on the page. zh.js has the same keys.
export default {
  lang: "en",
  htmlLang: "en",
  languageName: "English",
  title: "Attention by hand",
  tagline: "softmax(Q·Kᵀ/√d_k)·V, one number at a time. Every number is computed by the WASM core.",
  loading: "Loading the attention core…",
  ui: {
    scenes: "Scenes",
    language: "Language",
    play: "Play",
    pause: "Pause",
    back: "Step back",
    forward: "Step forward",
    restart: "Restart",
    speed: "Speed",
    scrubber: "Step",
    stepOf: (n, total) => `Step ${n} of ${total}`,
    digits: "Decimals shown",
    embed: "Embed it in a tutorial",
    copyLink: "Copy link",
    copied: "Link copied",
    copyFailed: "Copy this link from the address bar",
    reset: "Reset",
    random: "Random values",
    seed: "Seed",
    causal: "Causal mask (a token sees only itself and what came before)",
    alpha: "Sharpness α (the query is multiplied by α)",
    keyboard: "Keys: Space plays or pauses, ← → step, Home and End jump.",
    edit: "Click a number to edit it. Enter applies, Escape cancels.",
    editCell: (ref, value) => `Edit ${ref}: ${value}`,
    cell: (ref, value) => `${ref}: ${value}`,
    countFrom1: "Rows and columns count from 1: scores[2][1] is row 2, column 1.",
    addRow: "Add a row",
    removeRow: "Remove the last row",
    addColumn: "Add a column",
    removeColumn: "Remove the last column",
    notANumber: (text) => `“${text}” is not a number.`,
    rejected: "Not applied; the last good values stay:",
    derivation: "How this number is made",
    focusHint: "Pick any result cell to see where it comes from.",
    source: (id) => `From seed article ${id}`,
  },
  views: {
    heatmap: "Weights as a heatmap",
    lines: "Who attends to whom (line width = weight)",
    plot: "Query and key vectors: the dot product is geometry",
    plotNote:
      "The thick grey line is the key's shadow on the query (the dashed line drops from the key's tip): the longer the shadow, the larger q·k.",
  },
  steps: {
    inputs: {
      title: "Inputs",
      text: "The numbers we start from. Every later number is computed from these by the core.",
    },
    projections: {
      title: "Projections",
      text: "Each token's vector X is multiplied by W_Q, W_K and W_V: Q = X·W_Q, K = X·W_K, V = X·W_V.",
    },
    scores: {
      title: "Scores",
      text: "Each score is the dot product of a query row and a key row: scores = Q·Kᵀ. A larger score means a better match.",
    },
    scaled: {
      title: "Scale",
      text: (dk, scale) =>
        `Divide by √d_k = √${dk}, that is, multiply by ${scale}, so that large d_k does not make softmax too extreme.`,
      custom: (scale) => `Multiply every score by the scale ${scale}.`,
    },
    masked: {
      title: "Mask",
      text: "A causal mask puts −∞ where a key comes after the query: exp(−∞) = 0, so that key gets no weight.",
      explicit:
        "The mask puts −∞ where a query may not see a key: exp(−∞) = 0, so that key gets no weight.",
    },
    softmax: {
      title: "Softmax",
      text: "Row by row: subtract the row's largest number (for stability; the result is the same), take exp, add up the row, and divide each exp by the sum. Each row of weights adds up to 1.",
    },
    output: {
      title: "Weighted sum",
      text: "Each output row mixes the value rows, each weighted by its attention weight: output = weights·V.",
    },
    result: {
      title: "Result",
      text: "The output: what each query gathered from the values.",
    },
  },
  derive: {
    input: "an input",
    column: (n, name) => `column ${n} of ${name}`,
    extra:
      "Some terms carry more decimals than the tables, so that each line adds up at the precision it shows.",
    approx:
      "≈: the result sits so close to a rounding boundary that rounded terms cannot land on it exactly.",
    blocked: "this key comes after the query",
    masked: "the mask blocks this key",
    kept: "kept",
    allBlocked: "every key of this row is masked: weights and output are 0",
  },
  list: (items) => items.join(", "),
  coreError: (message) => message,
  labels: {
    queryZhang: "surname Zhang?",
    zhangSan: "Zhang San",
    liSi: "Li Si",
    zhangMazi: "Zhang Mazi",
    newspaper: "newspaper",
    paper: "paper",
    notebook: "notebook",
    book: "book",
    redCup: "red coffee cup",
    age: "age",
    fruit: "fruit",
    apple: "apple",
    banana: "banana",
    chair: "chair",
    involuntary: "involuntary (salience)",
    voluntary: "voluntary (I want to read)",
  },
  dims: {
    action: "action on a thing",
    quality: "describes quality",
    place: "is a place",
    thing: "is a thing",
    time: "is a time",
    colour: "bright colour",
    readable: "readable",
    bound: "bound pages",
    drinkable: "holds a drink",
  },
  scenes: {
    classroom: {
      name: "Classroom",
      title: "Finding a person in a classroom: self-attention on 我爱你 (I love you)",
      analogy:
        "You look for someone in a classroom. The features of the person you have in mind are the query Q. The name tags on every student are the keys K. The score you give each student is the attention score, and what you learn from each is the value V: the higher the score, the more their words count.",
      result: (token, before, after) =>
        `Each word's new representation mixes every word's value: ${token} was ${before} and becomes ${after}.`,
    },
    age: {
      name: "Average age",
      title: "A key-value lookup: the average age of people surnamed Zhang",
      analogy:
        "A table has names as keys and ages as values. The query “surname Zhang” is matched against every key; the answer is the values mixed by how well each key matches.",
      result: (value, exact, mean) =>
        `Attention gives ${value}. The exact lookup (18, 20 and 19) is ${exact}; the plain mean of all four is ${mean}. Attention is a soft lookup: Li Si still gets some weight. Raise α to make it harder.`,
      resultEdited: (value) =>
        `Attention gives ${value}. (With edited keys or values, the article's exact lookup and mean no longer apply.)`,
      exact: "exact lookup",
      mean: "plain mean",
      attention: "attention",
    },
    dictionary: {
      name: "Dictionary",
      title: "Looking up a word: fruit among apple, banana and chair",
      analogy:
        "Attention is like looking up a dictionary. The query is what you look for (fruit); the keys are the entries (apple, banana, chair); the values are what the entries hold. A key like the query gets a high weight; a key unlike it is nearly ignored.",
      note: "The article's input vectors were images and are lost. These inputs are our reconstruction: they give back every number the article prints (weights 0.79, 0.17, 0.04; output [9.68, 42.98]).",
      result: (top, weight, value, output) =>
        `${top} gets the largest weight (${weight}), so the output ${output} leans towards its value ${value}.`,
    },
    book: {
      name: "What 书 attends to",
      title: "What does 书 (book) attend to in 我昨天在图书馆读了一本很有趣的书?",
      analogy:
        "Reading the last word, 书 (book), a model asks which words tell it most about this book. The features are designed by hand and named, so that you can see why: 书 looks for actions done to things, qualities and places.",
      result: (top, designed) =>
        designed
          ? `书 attends most to ${top}: what was done to it (读, read), what it is like (有趣, interesting) and where it was (图书馆, library).`
          : `书 attends most to ${top}.`,
    },
    cup: {
      name: "Red coffee cup",
      title: "Two kinds of attention cues: the red coffee cup and the book",
      analogy:
        "On the desk lie a newspaper, a paper, a notebook, a book and a red coffee cup. All are black-and-white print except the cup. Without a task, the eye goes to the cup: an involuntary cue. With the task “I want to read”, attention turns to the book: a voluntary cue.",
      result: (involuntary, voluntary) =>
        `The involuntary cue looks most at the ${involuntary}; the voluntary cue “I want to read” looks most at the ${voluntary}.`,
    },
  },
  check: {
    title: "Check my numbers",
    text: "Work out this step by hand and type your numbers. Each is checked against the core at the precision you choose.",
    decimals: "Decimals to check",
    button: "Check",
    clear: "Clear",
    right: "right",
    wrong: (expected) => `not quite: the core gives ${expected}`,
    invalid: "not a number",
    summary: (right, total) => `${right} of ${total} right.`,
    seedButton: "Check the article’s printed numbers",
    seedNote:
      "Seed article 002 printed these numbers for this step. Its code is right, but the printed figures are not what that code computes: they drift from the third or fourth decimal on. Its 3-decimal summary [[0.551, 0.498], [0.544, 0.509], [0.537, 0.521]] is right. Mistakes like this are why checking by hand is worth it.",
    summaryButton: "Check the article’s 3-decimal summary",
  },
};
