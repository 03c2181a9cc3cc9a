// labs/inside/sheets.js: "Download as a spreadsheet" for the heads lab and the fewer-K/V-heads
// lab (web/sheet-scene.js's labSheets): X and the weights are numbers; Q, K and V, every head's
// scores, scale, softmax and output, the concatenation and W_O's output are formulas. A head
// reads its d_head columns of Q and its key-value head's columns of K and V, so the query heads
// that share a key-value head read the same cells. The page shows a head's weights only; its
// sheet writes out the scaled scores, the row's max, exp and Σ before them, each head in a band.
// Loaded with the writer, only when the learner asks for a sheet.
import { bookOf, labSheets, withSheetWords } from "../../sheet-scene.js";
import { headRules, productRule, sumOfProducts } from "../../sheet.js";
import { featureNames, headColumns, headId, tokens } from "./shared.js";

// The blocks of one head: its own names, prefixed for a variant (GQA's "kv2:"); `masked` adds
// the layer's mask and the head's masked scores.
const headNames = (p, h, masked = false) => ({
  q: `${p}q`,
  k: `${p}k`,
  v: `${p}v`,
  scale: `${p}h${h + 1}-scale`,
  scores: `${p}${headId(h, "scores")}`,
  scaled: `${p}h${h + 1}-scaled`,
  ...(masked && { mask: `${p}mask`, masked: `${p}h${h + 1}-masked` }),
  rowMax: `${p}h${h + 1}-rowMax`,
  exp: `${p}h${h + 1}-exp`,
  rowSum: `${p}h${h + 1}-rowSum`,
  weights: `${p}${headId(h, "weights")}`,
  output: `${p}${headId(h, "output")}`,
});

// RoPE's rotation of a row of `key`'s block (its row's position from the block "positions"):
// each pair (2i, 2i+1) of a head's d columns turned by the angle position·θ_i, θ_i =
// 10000^(−2i/d), as the core rotates it.
const rotation = (key, d) => (p, c, r) => {
  const start = c - (c % d) + 2 * Math.floor((c % d) / 2);
  const [a, b] = [r(key, p, start), r(key, p, start + 1)];
  const angle = `${r("positions", p, 0)}*10000^(-2*${Math.floor((c % d) / 2)}/${d})`;
  return c % 2 === 0
    ? `${a}*COS(${angle})-${b}*SIN(${angle})`
    : `${a}*SIN(${angle})+${b}*COS(${angle})`;
};

// The formulas of a multi-head layer (trace: the core's multiHeadAttention), its blocks' keys
// prefixed by `p`: Q, K, V from X (`${p}x`, or "x") and the layer's W (`${w}wq` …), and every
// head's, under the layer's mask when `masked`, on Q and K turned by RoPE when `rotated`.
function layerRules(p, trace, features, { x = "x", w = p, masked = false, rotated = false } = {}) {
  const d = trace.dHead;
  const rules = {};
  for (const m of ["q", "k", "v"]) rules[`${p}${m}`] = productRule(x, `${w}w${m}`, features);
  if (rotated) {
    rules[`${p}qrot`] = rotation(`${p}q`, d);
    rules[`${p}krot`] = rotation(`${p}k`, d);
  }
  trace.heads.forEach((head, h) => {
    const g = trace.kvHead[h];
    const names = {
      ...headNames(p, h, masked),
      ...(rotated && { q: `${p}qrot`, k: `${p}krot` }),
    };
    Object.assign(
      rules,
      headRules(names, { d, nk: head.weights[0].length, qAt: h * d, kAt: g * d, vAt: g * d }),
    );
    rules[names.scale] = () => `1/SQRT(${d})`;
  });
  rules[`${p}concat`] = (i, j, r) => r(`${p}${headId(Math.floor(j / d), "output")}`, i, j % d);
  rules[`${p}output`] = productRule(`${p}concat`, `${w}wo`, trace.h * d);
  return rules;
}

// The blocks a head's weights are made from, before them: (its scores, where the page does not
// show them,) scale, scaled, max, exp, Σ.
function softmaxBlocks(p, h, head, m, msg, withScores = false) {
  const names = headNames(p, h, Boolean(head.masked));
  const of = (word) => `${word}, ${msg.sheet.head(h + 1)}`;
  const square = (key, label, data) => ({
    key,
    label,
    rowLabels: m.rowLabels,
    colLabels: m.colLabels,
    data,
  });
  const column = (key, label, values) => ({
    key,
    label,
    rowLabels: m.rowLabels,
    colLabels: [""],
    data: values.map((x) => [x]),
  });
  return [
    withScores && square(names.scores, msg.inside.labels.scores(h + 1), head.scores),
    {
      key: names.scale,
      label: "1/√d_head",
      rowLabels: [""],
      colLabels: [""],
      data: [[head.scale]],
    },
    square(names.scaled, of("scaled"), head.scaled),
    head.masked && square(names.masked, of("masked"), head.masked),
    column(names.rowMax, of("max"), head.rowMax),
    square(names.exp, of("exp(x − max)"), head.exp),
    column(names.rowSum, of("Σ"), head.rowSum),
  ].filter(Boolean);
}

/** The heads lab as a book: its six steps. */
export function headsSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, inputs, msg } = ctx;
  const rules = layerRules("", trace, inputs.x[0].length);
  const before = (stepId, m) => {
    const head = /^h(\d+)-weights$/.exec(m.id);
    if (stepId !== "headWeights" || !head) return undefined;
    const h = Number(head[1]) - 1;
    return softmaxBlocks("", h, trace.heads[h], m, msg);
  };
  const sheets = labSheets(ctx, { rules, before });
  return bookOf(ctx, link, sheets, { first: "X" });
}

const variants = { kv4: 4, kv2: 2, kv1: 1 };

/**
 * The fewer-K/V-heads lab as a book: a sheet for each h_kv (4, 2, 1) and the cache's sizes. X
 * and W_Q are laid out once (with h_kv = 4) and read by the others; a shared head's W_K and W_V are the
 * means of its group's columns of the four-head ones, as formulas, so that an edit of those
 * reaches every variant; the query heads of a group read the same columns of K.
 */
export function gqaSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, inputs, msg } = ctx;
  const features = inputs.x[0].length;
  const rules = {};
  for (const [step, hKv] of Object.entries(variants)) {
    const p = `${step}:`;
    Object.assign(rules, layerRules(p, trace[hKv], features));
    // one W_Q for all three: the first's
    rules[`${p}q`] = productRule("x", "kv4:wq", features);
    if (hKv !== 4) {
      const d = trace[hKv].dHead;
      const size = 4 / hKv;
      for (const w of ["wk", "wv"]) {
        rules[`${p}${w}`] = (i, j, r) => {
          const g = Math.floor(j / d);
          const members = Array.from({ length: size }, (_, m) =>
            r(`kv4:${w}`, i, (g * size + m) * d + (j % d)),
          );
          return `(${members.join("+")})/${size}`;
        };
      }
    }
  }
  // the cache's numbers per token (h_kv·d_head), and after every token of X for K and for V
  rules.cache = (i, j, r) => {
    const p = `${Object.keys(variants)[i]}:`;
    const k = r.block(`${p}k`);
    if (j === 0) return `COLUMNS(${k})`;
    if (j === 1) return `ROWS(${k})*COLUMNS(${k})`;
    return `ROWS(${r.block("x")})*COLUMNS(${r.block(`${p}wv`)})`;
  };
  const keyOf = (stepId, m) => (variants[stepId] ? `${stepId}:${m.id}` : m.id);
  const before = (stepId, m) => {
    const hKv = variants[stepId];
    if (!hKv) return undefined;
    const p = `${stepId}:`;
    const t = trace[hKv];
    // the page shows W_K first: before it, what the weights are made from besides K
    if (m.id === "wk") {
      const features = m.rowLabels;
      const cols = headColumns(t.h, t.dHead);
      return [
        { key: "x", label: "X", rowLabels: tokens, colLabels: features, data: inputs.x },
        {
          key: "kv4:wq",
          label: "W_Q",
          rowLabels: features,
          colLabels: cols,
          data: inputs.layers[hKv].wq,
        },
        { key: `${p}q`, label: "Q = X·W_Q", rowLabels: tokens, colLabels: cols, data: t.q },
      ];
    }
    const head = /^h(\d+)-weights$/.exec(m.id);
    if (!head) return undefined;
    const h = Number(head[1]) - 1;
    return softmaxBlocks(p, h, t.heads[h], m, msg, true);
  };
  const sheets = labSheets(ctx, { rules, before, keyOf });
  return bookOf(ctx, link, sheets, { first: "X" });
}

/**
 * The KV-cache lab as a book: a sheet for each token's step and the causal comparison. Step t's
 * X[t] is its own row of numbers; its cache's kept rows are step t − 1's cells, its new row
 * X[t]·W_K (W_V); its query's heads attend over the cached rows (the query heads of a group to
 * the same columns). The last sheet computes the full causal pass over the steps' X rows (the
 * mask 1 on and below the diagonal, an input) beside the rows the steps made.
 */
export function kvcacheSheet(ctx, link) {
  ctx = withSheetWords(ctx);
  const { trace, inputs, msg } = ctx;
  const features = inputs.x[0].length;
  const { full } = trace;
  const d = full.dHead;
  const rules = {};
  trace.steps.forEach((step, t) => {
    const p = `token${t + 1}:`;
    const st = step.trace;
    rules[`${p}q`] = productRule(`${p}x`, "wq", features);
    for (const c of ["k", "v"]) {
      rules[`${p}${c}cache`] = (i, j, r) =>
        i < t
          ? r(`token${t}:${c}cache`, i, j)
          : sumOfProducts(
              features,
              (m) => r(`${p}x`, 0, m),
              (m) => r(`w${c}`, m, j),
            );
    }
    st.heads.forEach((head, h) => {
      const g = st.kvHead[h];
      const names = { ...headNames(p, h), k: `${p}kcache`, v: `${p}vcache` };
      Object.assign(rules, headRules(names, { d, nk: t + 1, qAt: h * d, kAt: g * d }));
      rules[names.scale] = () => `1/SQRT(${d})`;
    });
    // a head's output, written into its columns of concat: its weights times its V columns
    rules[`${p}concat`] = (i, j, r) => {
      const h = Math.floor(j / d);
      const g = st.kvHead[h];
      return sumOfProducts(
        t + 1,
        (c) => r(`${p}${headId(h, "weights")}`, 0, c),
        (c) => r(`${p}vcache`, c, g * d + (j % d)),
      );
    };
    rules[`${p}output`] = productRule(`${p}concat`, "wo", full.h * d);
  });
  Object.assign(rules, layerRules("full:", full, features, { x: "full:x", w: "", masked: true }));
  rules["full:x"] = (i, j, r) => r(`token${i + 1}:x`, 0, j);
  rules.cached = (i, j, r) => (j <= i ? r(`token${i + 1}:${headId(0, "weights")}`, 0, j) : "0");
  rules.cachedout = (i, j, r) => r(`token${i + 1}:output`, 0, j);

  const shared = ["wq", "wk", "wv", "wo"];
  const keyOf = (stepId, m) => {
    if (stepId === "causal")
      return { [headId(0, "weights")]: `full:${m.id}`, fullout: "full:output" }[m.id] ?? m.id;
    return shared.includes(m.id) ? m.id : `${stepId}:${m.id}`;
  };
  const before = (stepId, m) => {
    const head = /^h(\d+)-weights$/.exec(m.id);
    if (!head) return undefined;
    const h = Number(head[1]) - 1;
    if (stepId !== "causal") {
      const t = Number(stepId.slice("token".length)) - 1;
      return softmaxBlocks(`${stepId}:`, h, trace.steps[t].trace.heads[h], m, msg, true);
    }
    return fullPass(full, inputs, m, msg);
  };
  const sheets = labSheets(ctx, { rules, before, keyOf });
  return bookOf(ctx, link, sheets, { first: "X", masked: true });
}

// A block maker for bands whose rows are `rows`: (key, label, data, its column labels, by
// default `cols`) → the block.
const blocks =
  (rows, cols) =>
  (key, label, data, colLabels = cols) => ({
    key,
    label,
    rowLabels: rows,
    colLabels,
    data,
  });

// The full causal pass's bands, before its head 1's weights: X from the steps' rows, Q, K, V;
// the mask; heads 2 to 4 (scores to weights); the heads' outputs and concat; head 1's own.
function fullPass(full, inputs, m, msg) {
  const rows = m.rowLabels;
  const features = featureNames(msg);
  const cols = headColumns(full.h, full.dHead);
  const kvCols = headColumns(full.hKv, full.dHead);
  const block = blocks(rows, cols);
  const heads = full.heads.map((head, h) => {
    const blocks = softmaxBlocks("full:", h, head, m, msg, true);
    return h === 0
      ? blocks
      : [
          ...blocks,
          block(
            `full:${headId(h, "weights")}`,
            msg.inside.labels.weights(h + 1),
            head.weights,
            m.colLabels,
          ),
        ];
  });
  return [
    [
      block("full:x", "X", inputs.x, features),
      block("full:q", "Q = X·W_Q", full.q),
      block("full:k", "K = X·W_K", full.k, kvCols),
      block("full:v", "V = X·W_V", full.v, kvCols),
    ],
    [
      block(
        "full:mask",
        msg.sheet.mask,
        full.heads[0].masked.map((row) => row.map((x) => (x === -Infinity ? 0 : 1))),
        m.colLabels,
      ),
    ],
    ...heads.slice(1),
    [
      ...full.heads.map((head, h) =>
        block(
          `full:${headId(h, "output")}`,
          msg.inside.labels.output(h + 1),
          head.output,
          Array.from({ length: full.dHead }, (_, c) => String(c + 1)),
        ),
      ),
      block("full:concat", "concat", full.concat),
    ],
    heads[0],
  ];
}

// The bands of one multi-head pass `t` under the prefix p, rows named `rows`: Q, K and V (and
// their RoPE rotations), and each head's softmax written out, head 1's last and, when the page
// shows its weights (`pageWeights`), without them; then the heads' outputs and concat.
function passBands(p, t, { msg, rows, rotated = false, pageWeights = false }) {
  const cols = headColumns(t.h, t.dHead);
  const kvCols = headColumns(t.hKv, t.dHead);
  const block = blocks(rows, cols);
  const front = [
    [
      block(`${p}q`, "Q = X·W_Q", t.q),
      block(`${p}k`, "K = X·W_K", t.k, kvCols),
      block(`${p}v`, "V = X·W_V", t.v, kvCols),
    ],
  ];
  if (rotated) {
    front.push([
      block(`${p}qrot`, "Q, RoPE", t.qRotated.rotated),
      block(`${p}krot`, "K, RoPE", t.kRotated.rotated, kvCols),
    ]);
  }
  const m = { rowLabels: rows, colLabels: rows };
  const heads = t.heads.map((head, h) => {
    const blocks = softmaxBlocks(p, h, head, m, msg, true);
    if (h === 0 && pageWeights) return blocks;
    const label = msg.inside.labels.weights(h + 1);
    return [...blocks, block(`${p}${headId(h, "weights")}`, label, head.weights, rows)];
  });
  const numbered = Array.from({ length: t.dHead }, (_, c) => String(c + 1));
  const outs = [
    ...t.heads.map((head, h) =>
      block(`${p}${headId(h, "output")}`, msg.inside.labels.output(h + 1), head.output, numbered),
    ),
    block(`${p}concat`, "concat", t.concat),
  ];
  return { front, heads: [...heads.slice(1), heads[0]], outs };
}

// RoPE's rotation of the one row of `key`'s block to the position of row m of "positions".
const rotationAt = (key, d) => (m, c, r) => {
  const start = c - (c % d) + 2 * Math.floor((c % d) / 2);
  const [a, b] = [r(key, 0, start), r(key, 0, start + 1)];
  const angle = `${r("positions", m, 0)}*10000^(-2*${Math.floor((c % d) / 2)}/${d})`;
  return c % 2 === 0
    ? `${a}*COS(${angle})-${b}*SIN(${angle})`
    : `${a}*SIN(${angle})+${b}*COS(${angle})`;
};

/**
 * The word-order lab as a book. Each step's two passes of lab 1's layer, on X in order (a) and
 * shuffled (b: X's rows in `shuffle`'s order, as formulas), every head's softmax written out;
 * sinusoidal PE as SIN and COS of position·10000^(−2i/d_model), added at `peScale`; Q and K
 * turned by RoPE, position·θ_i, θ_i = 10000^(−2i/d_head); the distance step's q and k (head 1's,
 * of the plain pass, rows `distanceRows`) turned to every position m and n, and their dot
 * products. X, the weights and the positions are numbers.
 */
export function orderSheet(ctx, link, { shuffle, peScale, distanceRows }) {
  ctx = withSheetWords(ctx);
  const { trace, inputs, msg } = ctx;
  const features = inputs.x[0].length;
  const d = trace.plain.a.dHead;
  const sides = { a: "x", b: "xShuffled" };
  const rules = {
    xShuffled: (i, j, r) => r("x", shuffle[i], j),
    pe: (i, j, r) => {
      const angle = `${r("positions", i, 0)}*10000^(-2*${Math.floor(j / 2)}/${features})`;
      return j % 2 === 0 ? `SIN(${angle})` : `COS(${angle})`;
    },
    "rope:a:qRotated": (i, j, r) => r("rope:a:qrot", i, j),
    "rope:a:kRotated": (i, j, r) => r("rope:a:krot", i, j),
    "distance:q": (i, j, r) => r("plain:a:q", distanceRows.q, j),
    "distance:k": (i, j, r) => r("plain:a:k", distanceRows.k, j),
    "distance:qAtM": rotationAt("distance:q", d),
    "distance:kAtN": rotationAt("distance:k", d),
    "distance:scores": (i, j, r) =>
      sumOfProducts(
        d,
        (c) => r("distance:qAtM", i, c),
        (c) => r("distance:kAtN", j, c),
      ),
  };
  for (const kind of ["plain", "sinusoidal", "rope"]) {
    for (const [side, x] of Object.entries(sides)) {
      const p = `${kind}:${side}:`;
      const sinusoidal = kind === "sinusoidal";
      const pass = { x: sinusoidal ? `${p}x` : x, w: "", rotated: kind === "rope" };
      Object.assign(rules, layerRules(p, trace[kind][side], features, pass));
      if (sinusoidal) rules[`${p}x`] = (i, j, r) => `${r(x, i, j)}+${peScale}*${r("pe", i, j)}`;
    }
  }
  // the page's matrices by the block each is: which step's pass, which side
  const pageKeys = {
    outputOriginal: "a:output",
    outputShuffled: "b:output",
    weightsOriginal: `a:${headId(0, "weights")}`,
    weightsShuffled: `b:${headId(0, "weights")}`,
    xPlusPe: "a:x",
    qRotated: "a:qRotated",
    kRotated: "a:kRotated",
  };
  const keyOf = (stepId, m) => (m.id === "pe" ? "pe" : `${stepId}:${pageKeys[m.id] ?? m.id}`);

  const features_ = featureNames(msg);
  const rows = { a: tokens, b: shuffle.map((i) => tokens[i]) };
  const cols = headColumns(trace.plain.a.h, d);
  const kvCols = headColumns(trace.plain.a.hKv, d);
  const block = (key, label, data, rowLabels, colLabels) => ({
    key,
    label,
    rowLabels,
    colLabels,
    data,
  });
  const pass = (kind, side, pageWeights) =>
    passBands(`${kind}:${side}:`, trace[kind][side], {
      msg,
      rows: rows[side],
      rotated: kind === "rope",
      pageWeights,
    });
  const inputsBand = [
    block("x", "X", inputs.x, rows.a, features_),
    block("wq", "W_Q", inputs.wq, features_, cols),
    block("wk", "W_K", inputs.wk, features_, kvCols),
    block("wv", "W_V", inputs.wv, features_, kvCols),
    block("wo", "W_O", inputs.wo, cols, features_),
  ];
  const sideOf = { Original: "a", Shuffled: "b" };
  const before = (stepId, m) => {
    const [, what, which] = /^(output|weights)(Original|Shuffled)$/.exec(m.id) ?? [];
    const side = sideOf[which];
    if (stepId === "plain" && side) {
      const b = pass("plain", side, false);
      const lead =
        side === "a" ? inputsBand : [block("xShuffled", "X", trace.plain.b.x, rows.b, features_)];
      return [lead, ...b.front, ...b.heads, b.outs];
    }
    if (stepId === "sinusoidal") {
      if (m.id === "pe") {
        const positions = rows.a.map((_, i) => [i]);
        return [
          block(
            "positions",
            msg.sheet.positions,
            positions,
            rows.a.map((_, i) => String(i)),
            [""],
          ),
        ];
      }
      if (what === "weights") {
        const b = pass("sinusoidal", side, true);
        const x =
          side === "b"
            ? [
                [
                  block(
                    "sinusoidal:b:x",
                    `X + ${peScale}·PE`,
                    trace.sinusoidal.b.x,
                    rows.b,
                    features_,
                  ),
                ],
              ]
            : [];
        return [...x, ...b.front, ...b.heads];
      }
      if (what === "output") return [pass("sinusoidal", side, true).outs];
    }
    if (stepId === "rope") {
      if (m.id === "qRotated") return pass("rope", "a", true).front;
      if (what === "weights") {
        const b = pass("rope", side, true);
        return side === "a" ? b.heads : [...b.front, ...b.heads];
      }
    }
    return undefined;
  };
  const sheets = labSheets(ctx, { rules, before, keyOf });
  return bookOf(ctx, link, sheets, { first: "X" });
}
