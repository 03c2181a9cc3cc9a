// en.js: every English string on the page. zh.js has the same keys.

// What the Chinese tokens mean, shown beside them in small type.
// 1,024 (both languages write thousands so)
const n = (x) => x.toLocaleString("en");

const glosses = {
  我: "I",
  爱: "love",
  你: "you",
  昨天: "yesterday",
  在: "at",
  图书馆: "library",
  读: "read",
  了: "(done)",
  一本: "a (volume)",
  很: "very",
  有趣: "interesting",
  的: "(of)",
  书: "book",
  吃: "eat",
  一个: "a (one)",
  苹果: "apple",
  手机: "phone",
  贵: "expensive",
};

export default {
  title: "Attention by hand",
  tagline: "softmax(Q·Kᵀ/√d_k)·V, one number at a time. Every number is computed by the WASM core.",
  loading: "Loading the attention core…",
  ui: {
    // under a text box: when what is typed there is read
    textHow: "Press Enter, or leave the box, to read what you typed.",
    handMade: [
      "The weights here were chosen by hand, so that the point shows; a real model learns its weights from data, as in ",
      ".",
    ],
    scenes: "Scenes",
    path: "The path: lessons in order",
    lesson: (n, name) => `${n} ${name}`,
    lessons: {
      walkthroughs: "Walkthroughs",
      inside: "Inside a model",
      why: "Why it is built this way",
      learn: "How it learns",
      gpt: "A real model",
      real: "Models you use",
    },
    nextUp: (lesson) => (lesson ? `Next, lesson ${lesson}: ` : "Next: "),
    pathEnd:
      "This is the end of the path. Any scene again, with your own numbers, is the next step.",
    language: "Language",
    play: "Play",
    pause: "Pause",
    back: "Step back",
    forward: "Step forward",
    lastStep: "Step forward: this is the last step",
    restart: "Restart",
    speed: "Speed",
    scrubber: "Step",
    stepOf: (n, total) => `Step ${n} of ${total}`,
    digits: "Decimals shown",
    embed: "Embed it in a tutorial",
    copyLink: "Copy link",
    skipLinks: "Skip to",
    rowsDrawn: (first, last, n) =>
      `Rows ${first}–${last} of ${n} are drawn here: pick a cell, or move with the arrow keys, to see the others.`,
    skipPlayer: "Skip to the player",
    skipStep: "Skip to the step",
    copied: "Link copied",
    copyFailed: "Copy this link from the address bar",
    reset: "Reset",
    random: "Random values",
    seed: "Random seed",
    shownTools: "The numbers shown",
    tools: "Change the numbers",
    causal: "Causal mask (a token sees only itself and what came before)",
    alpha: "Sharpness α (the query × α; an inverse temperature)",
    predict: "Predict first",
    edited:
      "These are your own inputs now: the article's numbers no longer apply. Reset brings them back.",
    sharpen: (name, times) => `Try a sharper query: ${name} × ${times}`,
    scrollHint: "Wide: scroll sideways to see the rest →",
    keyboard:
      "Keyboard: Space plays or pauses (on a focused button, Space presses that button), ← → step, Home and End jump to the first and last step (on the player's buttons).",
    edit: "Click a number to edit it. Enter applies, Escape cancels.",
    editCell: (ref, value) => `Edit ${ref}: ${value}`,
    cell: (ref, value) => `${ref}: ${value}`,
    countFrom1: "Rows and columns count from 1: scores[2][1] is row 2, column 1.",
    addRow: "Add a row",
    removeRow: "Remove the last row",
    addColumn: "Add a column",
    removeColumn: "Remove the last column",
    // the matrices whose shape changes with it: [[names, "rows" | "cols"]]
    alsoChange: (others, grow) =>
      `; also ${others
        .map(([names, along]) => {
          const unit = along === "rows" ? "row" : "column";
          return `${grow ? `a ${unit} in` : `the last ${unit} of`} ${names.join(", ")}`;
        })
        .join(" and ")}`,
    notANumber: (text) => `“${text}” is not a number.`,
    tooBig: ({ id, rows, cols }) =>
      `The link's ${id} is ${rows}×${cols}; a matrix to work by hand has at most 16 rows and 16 columns.`,
    rejected: "Not applied; the last good values stay:",
    rejectedLink: "The link's values were not applied; the scene's own are shown:",
    unloaded:
      "This lesson could not be loaded: the page has probably been updated since you opened it, or the connection dropped. Reloading the page opens it.",
    languageUnloaded:
      "The other language could not be loaded: the page has probably been updated since you opened it, or the connection dropped. Reloading the page loads it.",
    reload: "Reload the page",
    derivation: "How this number is made",
    focusHint: "Pick any result cell to see where it comes from.",
    sourceLabel: "Source:",
    about: "About this scene",
  },
  // Where the scenes come from. Our copies of the articles carry no title or author.
  // What attention is for, before the first matrix (ui/purpose.js): its picture is the
  // classroom's analogy.
  purpose: {
    title: "What attention is for",
    text: [
      "Each word gathers what it needs from the other words. It asks a question (its query, Q); every word shows a label (its key, K); and it takes in each word's content (its value, V), more where the label matches the question better. That mix is the word's output.",
      "Below, the same for the three words 我爱你 (I love you), one number at a time.",
    ],
    // around the next scene's name, a link: what attention is for, shown in numbers
    next: [
      "Why a word needs its neighbours: the next scene, “",
      "”, gives 苹果 (apple) the fruit's meaning in one sentence and the phone's in another.",
    ],
    you: "me",
    query: "who I look for",
    key: "name tag",
    value: "their words",
    picture:
      "A drawing: me, with the question “who I look for” (Q), and lines to three students, each with a name tag (K) and their words (V); the line to the middle student's tag, the best match, is the thickest.",
    caption:
      "Like looking for someone in a classroom: who you have in mind is your query, each student's name tag a key, what each says a value. The better a tag matches, the thicker the line, and the more of their words you take in. The drawing shows the idea; the numbers come below.",
  },
  // The end of the path, after the last lesson (ui/recap.js).
  recap: {
    title: "The end of the path: what you have learned",
    canTitle: "What you can now compute by hand",
    can: [
      "A score for each query and key: their dot product, Q·Kᵀ, scaled by 1/√d_k so that long rows do not saturate the softmax.",
      "A mask: −∞ where a query may not look, so that the key there gets weight 0.",
      "The softmax of a row, its largest number subtracted first, and the weighted sum of the values: output = weights·V.",
      "The projections Q = X·W_Q, K = X·W_K and V = X·W_V, several heads side by side, and a KV cache that keeps the keys and values of the tokens already seen.",
      "Gradient descent through all of it: dL/dα, or dL/dW_Q and dL/dW_K, and the update W ← W − η·dL/dW.",
    ],
    fullTitle: "How it sits inside the models you use",
    small: ({ ours, big }) =>
      `The Tang model of lesson 5 has ${ours.layers} layers of ${ours.heads} heads, vectors ${ours.dModel} numbers wide and ${n(ours.total)} parameters; ${big.name} has ${big.layers} layers of ${big.heads} heads sharing ${big.kvHeads} K/V heads, vectors ${n(big.dModel)} wide and ${n(big.total)} parameters, counted in lesson 6 from its published configuration.`,
    full: "Each of its attention layers still computes softmax(Q·Kᵀ/√d_k)·V, as you did here: over the tokens its tokenizer cut from your text with BPE (pieces of bytes merged because they often occur together), in a context of thousands of tokens whose keys and values wait in its KV cache, with weights learned by gradient descent from a large share of the web rather than a few books of poems.",
    nextTitle: "Where to go next",
    next: [
      {
        text: "The three Chinese articles the walkthroughs come from: each scene names its own under “Source”.",
      },
      {
        text: "Dive into Deep Learning's chapter on attention, worked in code:",
        href: "https://d2l.ai/chapter_attention-mechanisms-and-transformers/index.html",
        link: "d2l.ai: Attention Mechanisms and Transformers",
      },
      {
        text: "The same chapter in Chinese:",
        href: "https://zh-v2.d2l.ai/chapter_attention-mechanisms/index.html",
        link: "zh-v2.d2l.ai：注意力机制",
      },
    ],
  },
  sources: {
    "000": {
      text: "a Chinese article (untitled and unsigned in our copy) that explains attention as looking up a dictionary, with every number worked by hand.",
    },
    "002": {
      text: "a Chinese article (untitled and unsigned in our copy) that finds a person in a classroom and computes self-attention on 我爱你 with NumPy.",
    },
    "004": {
      text: "a Chinese article (untitled and unsigned in our copy) on the two kinds of attention cues and the average age of the Zhangs. Its desk figure comes from Dive into Deep Learning by Aston Zhang, Zachary C. Lipton, Mu Li and Alexander J. Smola:",
      link: {
        href: "https://zh-v2.d2l.ai/chapter_attention-mechanisms/attention-cues.html",
        text: "注意力提示 (Attention Cues)",
      },
    },
    "004-sentence": {
      text: "the sentence 我在图书馆读书 is shortened from one in a Chinese article (untitled and unsigned in our copy) on the two kinds of attention cues; the layer, its weights and this lab are this project's own.",
    },
  },
  views: {
    heatmap: "Weights as a heatmap",
    lines: "Who attends to whom (line width = weight)",
    plot: "Query and key vectors: the dot product is geometry",
    plotNote:
      "The wide pale orange band along the query is the key's shadow on it (the dashed line drops from the key's tip): the longer the shadow, the larger q·k.",
    legend: {
      weight: "Weight",
      masked: "masked: the key is hidden, weight 0",
      dense:
        "Too many columns to print their numbers in this width: the shades show the weights. A wider window may fit the numbers (on a phone, turn it sideways), and a mouse pointer resting on a cell shows its number; a screen reader reads them all.",
    },
    uniform: (low, high, logitLow, logitHigh) =>
      `The weights are nearly equal (${low} to ${high}), so the heatmap and the lines show little. Why: after scaling, the scores are small and close together (${logitLow} to ${logitHigh}), and the softmax of numbers that close is close to uniform. A sharper query would tell the keys apart.`,
    meaning: (token) => `What ${token} carries, before and after attention`,
    own: "own value",
    after: "after attention,",
  },
  steps: {
    inputs: {
      title: "Inputs",
      // What this scene's rows and columns are, by their names.
      self: (words, features) =>
        `X's rows are words, ${words}; its columns are features: ${features}. W_Q, W_K and W_V make each word's query, key and value.`,
      lookup: (queries, keys, values, features) =>
        `Q's rows are the queries, ${queries}; K's rows are the keys, ${keys}; V's rows what each key holds: ${values}. The columns of Q and K are features: ${features}.`,
      unnamed: (n) => (n === 1 ? "1 number with no name" : `${n} numbers with no names`),
      range: (n, first, last) => `the ${n} from ${first} to ${last}`,
    },
    projections: {
      title: "Projections",
      text: "Each token's vector X is multiplied by W_Q, W_K and W_V: Q = X·W_Q, K = X·W_K, V = X·W_V.",
    },
    scores: {
      title: "Scores",
      text: "Each score is the dot product of a query row and a key row: scores = Q·Kᵀ. A larger score means a better match.",
      alpha: (alpha) => `Here Q is α·q with α = ${alpha}: the query of step 1, multiplied by α.`,
    },
    scaled: {
      title: "Scale",
      text: (dk, scale) =>
        `Divide every score by √d_k = √${dk}, that is, multiply it by ${scale}. d_k is the length of each query and key row (the number of columns of Q and K), here ${dk}.`,
      why: {
        summary: "Why divide by √d_k?",
        text: "If the numbers in q and k were independent with variance 1, q·k would add up d_k products, so its variance would grow to d_k: with long rows, scores spread far apart and softmax gives nearly all the weight to one key. Dividing by √d_k brings the variance back to 1, so the softmax stays soft. A scale is an inverse temperature: the age scene's α is one too, and sharpens the softmax as it grows.",
      },
      custom: (scale) => `Multiply every score by the scale ${scale}.`,
    },
    masked: {
      title: "Mask",
      text: "A causal mask puts −∞ where a key comes after the query: exp(−∞) = 0, so that key gets no weight.",
      explicit:
        "The mask puts −∞ where a query may not see a key: exp(−∞) = 0, so that key gets no weight.",
      why: {
        summary: "Why hide the words that come later?",
        text: "A language model learns by predicting each next token. If a word could see the word after it, it would copy the answer and learn nothing; with the mask, one pass trains every position at once, each seeing only itself and what came before it. And the model writes one token at a time, so when it writes, the later words do not exist yet: the mask makes training see what writing will see. (Other masks hide keys that are only padding.)",
      },
    },
    weights: {
      title: "Softmax",
      text: "Row by row: subtract the row's largest number m, take exp, add up the row, and divide each exp by the sum. exp is never negative: exp(x) is above 0 for every x, however negative, so every weight is above 0 (only a masked key's exp(−∞) is 0). Divided by their sum, each row of weights adds up to 1: the weights are shares, how much of its attention a query gives each key (the rounded numbers shown may miss 1 by one in the last digit).",
      line: "exp(x − m) / Σ exp(x − m) = eˣ·e⁻ᵐ / (Σ eˣ·e⁻ᵐ) = eˣ / Σ eˣ: e⁻ᵐ cancels, so these are the plain eˣ / Σ eˣ; subtracting m only keeps every exp at 1 or below, so large scores cannot overflow.",
    },
    output: {
      title: "Weighted sum",
      text: "Each output row mixes the value rows, each weighted by its attention weight: output = weights·V.",
    },
    result: {
      title: "Result",
      text: "The output: what each query gathered from the values.",
      why: {
        summary: "Where does the output go next?",
        text: "In a Transformer this is not the end. Each head's output is multiplied by W_O and added to the token's own vector (the residual stream: x + attention(x)); an MLP adds its part the same way; and the next layer computes its queries, keys and values from that sum, so it can attend to what this one gathered. The lab “A real model” shows two such layers.",
      },
    },
  },
  derive: {
    input: "an input",
    column: (n, name) => `column ${n} of ${name}`,
    extra:
      "Some terms carry more decimals than the tables, so that each line adds up at the precision it shows.",
    approx:
      "≈: even with 12 decimals the terms do not give the result as shown: either it sits right at a rounding boundary, or a large number multiplies a rounded factor (such as 1/√d_k) and magnifies its rounding.",
    noMask: "this scene has no mask",
    blocked: "this key comes after the query",
    masked: "the mask blocks this key",
    kept: "kept",
    allBlocked: "every key of this row is masked: weights and output are 0",
  },
  // in quotes, so that a choice reads as one: “it grows”, “is a thing” and “place”
  list: (items) => {
    const quoted = items.map((x) => `“${x}”`);
    return quoted.length > 1
      ? `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`
      : quoted.join("");
  },
  gloss: (token) => glosses[token],
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
    involuntary: "no task",
    voluntary: "I want to read",
    appleAte: "苹果, sentence 1",
    applePhone: "苹果, sentence 2",
    food: "food",
    electronics: "electronics",
  },
  dims: {
    zhang: "surname Zhang",
    given: "given name (a code)",
    li: "surname Li",
    action: "action on a thing",
    quality: "describes quality",
    place: "is a place",
    thing: "is a thing",
    time: "is a time",
    salience: "stands out (salience)",
    readable: "readable",
    bound: "bound pages",
    drinkable: "holds a drink",
    eating: "about eating",
    device: "about a device",
  },
  glossary: {
    open: "Glossary",
    title: "Glossary",
    close: "Close",
    all: "All terms",
    computedIn: "Computed in",
    where: (name, step) => `${name}, step ${step}`,
  },
  scenes: {
    apple: {
      name: "苹果 in two sentences",
      title: "What attention is for: 苹果 (apple) in two sentences, the fruit and the phone",
      analogy:
        "苹果 is the fruit in 我吃了一个苹果 (I ate an apple) and the phone in 苹果手机很贵 (Apple phones are expensive). The word alone cannot tell them apart: its own vector is the same in both sentences, half food and half electronics, one fixed average of its two meanings, and a bag of words, which keeps each word's own vector and ignores its neighbours, has nothing else. Attention lets 苹果 ask its neighbours: its query looks for words about eating or about a device, and its output takes in what those words carry. The same word then comes out different in the two sentences: that is what attention is for.",
      inputs:
        "Both sentences are in one table, as a model reads several at once: keys 1–5 are 我吃了一个苹果, keys 6–9 苹果手机很贵. Both queries are 苹果's, the same two numbers; the mask of step 4 (−∞) keeps each to the words of its own sentence. The numbers are chosen by hand so that the point shows.",
      // own: 苹果's own value, the same in both sentences; each sentence: the word it gives the
      // most weight, that weight, its output
      result: (own, [first, second]) =>
        `苹果's own value is ${own} (food, electronics) in both sentences: alone, the word stays that one average. In 我吃了一个苹果 it gives ${first.weight} of its weight to ${first.word}, and its output is ${first.output}: mostly food, the fruit. In 苹果手机很贵 it gives ${second.weight} to ${second.word}, and its output is ${second.output}: mostly electronics, the phone. One word, two outputs, each made from its neighbours.`,
      resultEdited: ([first, second]) =>
        `With these numbers 苹果's output is ${first.output} in 我吃了一个苹果, where its largest weight, ${first.weight}, goes to ${first.word}, and ${second.output} in 苹果手机很贵, where its largest, ${second.weight}, goes to ${second.word}.`,
      maskNote:
        "Here the mask is not about order: it keeps the two sentences apart, so that each 苹果 reads only the words of its own (keys 1–5 for sentence 1, keys 6–9 for sentence 2).",
      table: "What 苹果 carries: its own value, and its output in each sentence",
      own: (ref) => `own value ${ref}, either sentence`,
      in: (ref, n) => `${ref}, sentence ${n}`,
    },
    classroom: {
      name: "Classroom",
      title: "Finding a person in a classroom: self-attention on 我爱你 (I love you)",
      analogy:
        "You look for someone in a classroom. The features of the person you have in mind are the query Q. The name tags on every student are the keys K. The score you give each student is the attention score, and what you learn from each is the value V: the higher the score, the more their words count.",
      result: (token, row, value, output) =>
        `Each word's output mixes every word's value, weighted by attention: ${token}'s own value is ${row} = ${value}, and its output is ${output}.`,
      flat: (token, [a, b, c], other) =>
        `Why the article's numbers are so flat: every entry of X, W_Q and W_K is at most 1 and d_k = 2, so each score is the sum of two small products. ${token}'s three scores, before the scale, are ${a}, ${b} and ${c}: scores that close give nearly equal weights, and it takes a much sharper query to pull them apart. ${other}'s row is where a sharper query shows first.`,
      also: (token, row, value, output, xRow, x) =>
        `And the last word, ${token}: its input ${xRow} = ${x}, its value ${row} = ${value}, and its output ${output}.`,
      meaning: (token) =>
        `${token}'s output is its own value pulled towards the values of the words it attends to: every output row is a weighted average of the rows of V.`,
    },
    age: {
      name: "Average age",
      title: "A key-value lookup: the average age of people surnamed Zhang",
      analogy:
        "A table has names as keys and ages as values. The query “surname Zhang” is matched against every key; the answer is the ages mixed by how well each key matches.",
      inputs:
        "Each key is three numbers: the first is 1 for the surname Zhang, the second is a code for the given name (三 is 2, 麻子 is 4), the third is 2 for the surname Li. The query q = [1, 0, 0] asks about the first number only, so q·k counts whether a name is a Zhang and ignores the rest: that is how it asks for “surname Zhang”.",
      result: (value, exact, mean) =>
        `Attention gives ${value}. The exact lookup (18, 20 and 19) is ${exact}; the plain mean of all four is ${mean}.`,
      soft: (name, weight) =>
        `Attention is a soft lookup: ${name} still gets ${weight} of the weight. Raise α to make it harder.`,
      hard: (alpha, name, weight) =>
        `At α = ${alpha}, ${name}'s weight is down to ${weight}: the lookup is nearly hard, and the answer nearly the exact one.`,
      flat: (weight) =>
        `At α = 0 every key gets the same weight, ${weight}: attention gives the plain mean.`,
      resultEdited: (value) =>
        `Attention gives ${value}. (With edited inputs, the article's exact lookup and mean no longer apply.)`,
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
        `The largest weight, ${weight}, goes to ${top}, so the output ${output} leans towards its value ${value}.`,
    },
    book: {
      name: "What 书 attends to",
      title:
        "What does 书 (book) attend to in 我昨天在图书馆读了一本很有趣的书 (I read a very interesting book at the library yesterday)?",
      analogy:
        "Reading the last word, 书 (book), a model asks which words tell it most about this book. The features are designed by hand and named, so that you can see why: 书 looks for actions done to things, qualities and places.",
      result: (top, designed) =>
        designed
          ? `书 attends most to ${top}: what was done to it (读, read), what it is like (有趣, interesting) and where it was (图书馆, library).`
          : `书 attends most to ${top}.`,
      masked:
        "With the causal mask, 书's row stays as it was: 书 comes last and sees every word anyway. The rows before it change: 读 no longer sees the six words after it, 了 一本 很 有趣 的 书.",
      maskNote:
        "In this sentence the mask changes every row but the last: 书 comes last, so it sees every word anyway. Look at 读's row instead.",
      meaning: (token, designed) =>
        designed
          ? "书's own value says only “is a thing”. Its output also carries the action done to it, a quality and a place: the features of 读, 有趣 and 图书馆, the words it attends to."
          : undefined,
    },
    cup: {
      name: "Red coffee cup",
      title: "Two kinds of attention cues: the red coffee cup and the book",
      analogy:
        "On the desk lie a newspaper, a paper, a notebook, a book and a red coffee cup. All are black-and-white print except the cup, which stands out: that is the cup’s own property, so it is in the keys (their first number, salience). Without a task the query holds only the eye’s pull toward what stands out, and the cup wins: an involuntary cue. The task “I want to read” lives in the query: it adds readable and bound pages to the same pull, and attention turns to the book: a voluntary cue.",
      result: (involuntary, voluntary, pulled) =>
        `Without a task, the query looks most at the ${involuntary}: the involuntary cue, decided by the keys’ salience. With the task “I want to read”, it looks most at the ${voluntary}: the voluntary cue, carried by the query${pulled ? `; the ${pulled} comes second, because what stands out pulls on every query` : ""}.`,
    },
    // the labs' names and words are in their lessons' folders (web/labs/<lesson>/)
  },
  check: {
    title: "Check my numbers",
    text: "Work out this step by hand and type your numbers. Each is checked against the core at the precision you choose.",
    rule: "Right means: at the decimals you chose, the core's number rounded or cut off, or what the numbers shown on this page give, rounded or cut off. Nothing else counts.",
    decimals: "Decimals to check",
    button: "Check",
    clear: "Clear",
    right: "right",
    rightRounded: (expected) => `right; rounded, the core's number is ${expected}`,
    wrong: (expected) => `not quite: the core gives ${expected}`,
    tryAgain: "not quite: try again",
    show: "Show",
    showFor: (ref) => `Show the core's number for ${ref}`,
    sign: "±",
    signFor: "Change the sign of the answer being typed",
    invalid: "not a number",
    // a short answer: right at `had` decimals, the number rounded ("rounded") or cut off ("cut")
    short: (had, asked, how) =>
      `${how === "cut" ? "cut off at" : "rounded to"} ${had} decimal${had === 1 ? "" : "s"}, that is right; ${asked} decimals are checked here`,
    summary: (right, total) => `${right} of ${total} right.`,
    // a name that is a caption ("The counts, model by model") is read inside the sentence
    which: (name, shape) =>
      `You check ${name.replace(/^(The|Their|Each|A|An) /, (w) => w.toLowerCase())} (${shape}).`,
    pick: "Matrix to check",
    oneRow: (row) =>
      `This matrix is large, so only row ${row} is offered: pick a cell in another row to check that one.`,
    printedButton: "Check the article’s printed numbers",
    // summary: the step's 3-decimal summary as written, where the article printed one
    printedNote: (summary) =>
      `The article printed these numbers for this step. Its code is right, but the printed figures are not what that code computes: they drift from the third or fourth decimal on.${summary ? ` Its 3-decimal summary ${summary} is right.` : ""} Mistakes like this are why checking by hand is worth it.`,
    summaryButton: "Check the article’s 3-decimal summary",
  },
  export: {
    noMask: "this scene has no mask",
    group: "Take it to Python",
    numpy: "Copy as NumPy",
    pytorch: "Copy as PyTorch",
    copied: (name) =>
      `${name} script copied: run it with python3. It prints the output shown here.`,
    copyFailed: "The clipboard is not available: copy the script from the box below.",
    script: "The script",
    core: "core",
    heading: (title) => `Attention by hand: ${title}`,
    intro: (library, digits) => [
      `softmax(Q·Kᵀ/√d_k)·V step by step in ${library}, with the inputs on the page (your edits included).`,
      `Each "core" comment holds the WASM core's numbers at ${digits} decimals; the script prints the output as the page shows it.`,
      "Runs on NumPy 1.x and 2.x, and on PyTorch 1.13 and 2.x: plain operations only.",
    ],
    inputs: "The inputs, exactly as on the page",
    tokens: "one row per token",
    queries: "one row per query",
    keys: "one row per key",
    values: "one row per key",
    alpha: "the sharpness α: the page multiplies the query by it",
    projections: "Projections: Q = X·W_Q, K = X·W_K, V = X·W_V",
    causal: "causal: query i sees keys 1..i",
    blocked: "a row whose keys are all masked has no max: the core gives it weights 0 and output 0",
    steps: {
      scores: "scores = Q·Kᵀ",
      scaled: "scaled = scores × scale, with scale = 1/√d_k",
      masked: "masked: −∞ where a query may not see a key, so that exp gives 0",
      weights: "softmax of each row: subtract the row's max, exp, divide by the sum",
      output: "output = weights·V",
    },
    print: (digits) => `The output, at ${digits} decimals as on the page`,
  },
  // the button; the file's own words are i18n/sheet.js, loaded with it
  sheet: {
    group: "Take it to a spreadsheet",
    button: "Download as a spreadsheet (.xlsx)",
    making: "Writing the spreadsheet…",
    done: (name) =>
      `${name} downloaded: open it in LibreOffice, WPS, Excel or Google Sheets and change a yellow number.`,
    failed: (why) => `The spreadsheet could not be written: ${why}`,
  },
  print: {
    button: "Print a worksheet",
    title: (page, scene) => `${page}: ${scene}`,
    keyButton: "Print the answer key",
    name: "Name: ______________________    Date: ____________",
    how: (digits) =>
      `Work out each step from the numbers given, to ${digits} decimals; fill in the empty boxes. Rows and columns count from 1.`,
    key: (title) => `Answer key: ${title}`,
    keyHow: (digits) =>
      `The results of every step of the worksheet, as the core computes them from the same numbers (edits included), to ${digits} decimals.`,
    answersNote:
      "These are the exact results, rounded. An answer worked from your own rounded numbers may differ in the last digit or two, and is still right.",
    from: (names) => `Work from your own ${names.join(", ")} (the step in brackets).`,
    quiz: (lesson) => `The check at the end of lesson ${lesson}`,
    quizNote:
      "Each answer is the core's number; a student's answer is right at the decimals asked when it is this number rounded or cut off.",
    quizAnswer: (text, answer) => `${text} Answer: ${answer}`,
    quizFailed: "The check's answers could not be worked out: a lesson's code did not load.",
  },
  // The check at the end of each lesson (web/quiz.js, ui/quiz.js).
  quiz: {
    title: (lesson) => `Check: lesson ${lesson}`,
    intro:
      "A few questions on this lesson, checked here in your browser: nothing is sent anywhere. A wrong answer links to the step that explains it.",
    number: (decimals) =>
      decimals === 0 ? "Your answer (a whole number)" : `Your answer (to ${decimals} decimals)`,
    check: "Check my answers",
    working: "Working the answers out with the core…",
    failed:
      "The answers could not be worked out: a lesson's code did not load. Reloading the page helps.",
    right: "right",
    wrong: "not right",
    empty: "not answered",
    // a wrong answer's verdict, around the link to the step that explains it
    // mark: ✗, or ≈ for an answer right at fewer decimals than asked
    review: (why, mark = "✗") => [`${mark} ${why}. See `, "."],
    stepRef: (scene, step, title) => `${scene}, step ${step}: ${title}`,
    score: (right, total) => `${right} of ${total} right.`,
    summaryTitle: "A summary for your teacher",
    summaryText:
      "Copy it or download it, and hand it in as your teacher asks. It lists every lesson checked so far in this tab, with this page's link; it is made here and goes nowhere unless you send it.",
    name: "Your name (it goes only into the summary)",
    copy: "Copy the summary",
    download: "Download it (.txt)",
    copied: "Summary copied.",
    copyFailed: "The clipboard is not available: copy the summary from the box below.",
    downloaded: "Summary saved as a .txt file.",
    box: "The summary",
    file: "attention-by-hand-check.txt",
    sheet: {
      heading: "Attention by hand: lesson checks",
      name: (name) => `Name: ${name || "(not given)"}`,
      date: (date) => `Date: ${date}`,
      link: (url) => `Link: ${url}`,
      lesson: (lesson, right, total) => `Lesson ${lesson}: ${right} of ${total} right`,
      // an answer, right or wrong, and for a wrong one the step to review
      answer: (k, text, typed, mark, review) =>
        `  ${k}. ${text} Answer: ${typed}. ${mark}.${review ? ` Review ${review}.` : ""}`,
      none: "No lesson has been checked yet.",
    },
    questions: {
      selfWeight: {
        text: "Classroom: after the softmax, how much weight does 你 give to itself?",
      },
      ageOutput: {
        text: "Average age, at α = 1: what age does attention give for “surname Zhang”?",
      },
      bookTop: {
        text: "What 书 attends to: which word gets the most weight from 书?",
        options: ["读 (read)", "图书馆 (library)", "有趣 (interesting)", "我 (I)"],
      },
      prevHead: {
        text: "Heads: which head puts the most weight, on average, on the token just before each token?",
        options: ["head 1", "head 2", "head 3", "head 4"],
      },
      cacheK: {
        text: "Fewer K/V heads: with h_kv = 2, how many numbers does the K cache hold after the 5 tokens?",
      },
      cachedStep: {
        text: "KV cache: when the 5th token, 书, arrives, how many multiply-adds does the step with the cache take?",
      },
      stableTop: {
        text: "Numerical stability: the softmax of the scores 1000, 998 and 990, the stable way: what weight does 1000 get?",
      },
      maskedRow: {
        text: "Numerical stability: masked with −1e9 instead of −∞, a row whose 3 keys are all masked: what weight does each key get?",
      },
      unscaledTop: {
        text: "Why √d_k: at d_k = 512, without dividing by √d_k, how large is a row's largest weight, on average over the 100 rows?",
        options: [
          "about 0.125: even over the 8 keys",
          "between 0.2 and 0.6",
          "between 0.6 and 0.9",
          "above 0.9: nearly all on one key",
        ],
      },
      startLoss: {
        text: "Learn the sharpness: at the start (α = 1, target 19), what is the loss L = (output − 19)²?",
      },
      startGradient: {
        text: "Learn the sharpness: at the start, what is dL/dα?",
      },
      firstUpdate: {
        text: "Learn the sharpness: with η = 10, what is α after the first step, α − η·dL/dα?",
      },
      evenGuess: {
        text: "An induction head forms: where the next token is new, the best guess is even over the 32 tokens. What loss, in nats, does an even guess score?",
      },
      nextChar: {
        text: "A real model: after 举头望明, which character does the Tang model rank first?",
        options: ["月 (moon)", "， (a comma)", "明 (bright)", "光 (light)"],
      },
      gpt2Love: {
        text: "Their tokens: how many tokens does GPT-2 cut 我爱你 into?",
      },
      llamaKv: {
        text: "Their sizes: how many bytes does Llama 3 8B's KV cache keep per token (16-bit numbers)?",
      },
      fewestKv: {
        text: "Their sizes: which of these keeps the fewest bytes per token in its KV cache?",
        options: ["Llama 3 8B", "Qwen2.5 7B", "Qwen3 8B"],
      },
    },
  },
  // A teacher's link for a class (ui/share.js), and what the page says when it opens one.
  share: {
    open: "Share with a class",
    title: "Share with a class",
    text: "Build a link for your students: it opens this page as you set it here. Nothing is sent anywhere and no account is needed; each student's answers stay in their own tab.",
    lang: "Language",
    predict: "Predict first: each step's results stay hidden until the student has answered it",
    hide: "Hide from the students",
    hideNames: {
      lang: "the language switch",
      predict: "the Predict first button (predict mode stays as set here)",
      edit: "editing the numbers (the input cells, Reset, Random values)",
      export: "Take it to Python (the export section)",
      key: "Print the answer key",
      share: "this Share with a class panel",
    },
    lessons: "Lessons and scenes",
    start: "Start at",
    startFirst: "the first step of the first scene picked",
    startHere: (scene, step) => `this step: ${scene}, ${step}`,
    link: "The class link",
    copy: "Copy the class link",
    copied: "Class link copied.",
    copyFailed: "The clipboard is not available: copy the link from the box above.",
    try: "Open it in a new tab, as a student would",
    none: "Pick at least one scene: the link has none yet.",
    checks: "A check ends each lesson picked.",
    // a class link's note at the top of the page
    // lessons: their names, as a list
    note: (count, lessons) =>
      `Your teacher's link: ${count === 1 ? "1 scene" : `${count} scenes`} of ${lessons}, in the list below. A short check ends each lesson.`,
    hidden: "Some controls are hidden for this class.",
    refused: (items) =>
      `Not understood in this link, and ignored: ${items.map(({ key, value }) => `${key}=${value}`).join(", ")}.`,
  },
  predict: {
    concealed:
      "Some numbers here are the results of an earlier step you have not answered yet: they stay hidden until you do.",
    title: "Predict, then reveal",
    text: "This step's results are hidden. Work them out from the numbers above: type them, answer the question, or both. Then check: the page reveals the step and marks what you got right.",
    reveal: "Check and reveal",
    revealed: {
      title: "Revealed",
      text: "Your answers, marked. The step's results are shown above.",
    },
    hiddenCell: "hidden until you answer",
    noDerivation: "Hidden until you answer: work this number out from the ones above it.",
    waiting: (n, title) =>
      `This step is worked out from the results of step ${n}, ${title}, which you have not answered yet: they are hidden above. Answer step ${n} first; or check and reveal, to see this step and the ones before it whole.`,
    goTo: (n) => `Go to step ${n}`,
    waitingCell: (n) =>
      `Hidden: this number is made from the results of step ${n}, not answered yet. Answer that step first, or check and reveal below.`,
    answerBelow: "Answer below ↓",
    largestScore: (q) => `Which key gets the largest score from “${q}”?`,
    mostWeight: (q) => `Which key gets the most weight from “${q}”?`,
    scaleOrder: (q) => `Does dividing by √d_k change which key scores highest for “${q}”?`,
    yes: "yes",
    no: "no",
    answer: (answers) => `the answer is ${answers}`,
    tie: (answers) => `(a tie: ${answers} are all right)`,
  },
};
