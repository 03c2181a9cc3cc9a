// labs/why/tiling.js: online softmax, as FlashAttention tiles it, on the book sentence. The core walks
// the keys in blocks and keeps, for every query row, the running max m and the running sum ℓ;
// when m grows it rescales what it has by exp(m_old − m_new). One step per block shows m, ℓ,
// the rescale and the partial output; the last compares the result with the whole-row softmax.
import { el, svg } from "../../views.js";
import { cellRef, factor, fmt, rowRef } from "../../format.js";
import { scenes } from "../../scenes.js";
import { derivation as attentionDerivation, matrix } from "../../steps.js";
import { bounds, derivationOf, line, plain, roundingOf } from "../../derive.js";
import { tiny, kitStyles } from "../kit.js";

const book = scenes.find((s) => s.id === "book");
const n = book.tokens.length;

// The steps for a block size: one per block, then the result. (Counting blocks, not numbers.)
const blockCount = (block) => Math.ceil(n / block);

const column = (values) => values.map((x) => [x]);

function differencePanel({ trace, msg }) {
  const w = msg.tiling;
  return el(
    "p",
    { class: "why-summary", id: "tiling-difference" },
    w.difference(tiny(trace.maxDifference)),
    " ",
    el("strong", { text: trace.maxDifference <= 1e-12 ? w.within : w.beyond }),
  );
}

// The picture that leads every step: the focus row's keys along a strip, cut into blocks of B;
// the blocks walked so far filled, the current one outlined, those ahead dashed; under it, m and
// ℓ after each block walked, as the core kept them.
function walkPanel({ trace, msg, state, step, labels }) {
  const w = msg.tiling;
  const i = n - 1;
  const at = step.block;
  const [cell, gap, height] = [40, 8, 30];
  const x = (key) => 4 + key * cell + Math.floor(key / state.block) * gap;
  const width = x(n - 1) + cell + 4;
  const picture = svg("svg", {
    viewBox: `0 0 ${width} ${height + 22}`,
    class: "tiling-walk",
    role: "img",
    "aria-label": w.walkTitle(labels.queries[i], state.block),
  });
  trace.blocks.forEach((b, k) => {
    const current = k === at && step.id !== "result";
    const kind = current ? "current" : k <= at ? "done" : "ahead";
    const left = x(b.start);
    const right = x(b.end - 1) + cell;
    picture.append(
      svg("rect", {
        x: left - 2,
        y: 2,
        width: right - left + 4,
        height: height,
        rx: 4,
        class: `block ${kind}`,
        "data-block": k + 1,
        ...(current && { "data-current": "" }),
      }),
      svg("text", {
        x: (left + right) / 2,
        y: height + 18,
        class: "tick middle",
        text: `${current ? "▲ " : ""}${b.end - b.start > 1 ? w.blockName(k + 1) : k + 1}`,
      }),
    );
  });
  labels.keys.forEach((token, key) =>
    picture.append(
      svg("text", {
        x: x(key) + cell / 2,
        y: 2 + height / 2 + 5,
        class: "key middle",
        text: token,
      }),
    ),
  );
  const walked = trace.blocks.slice(0, at + 1);
  return el(
    "figure",
    { class: "walk", "data-walk": "" },
    el("figcaption", { text: w.walkTitle(labels.queries[i], state.block) }),
    // on a phone the strip scrolls sideways, from the keyboard too
    el(
      "div",
      {
        class: "scroll",
        tabindex: 0,
        role: "region",
        "aria-label": w.walkTitle(labels.queries[i], state.block),
      },
      picture,
    ),
    walked.length > 0 &&
      el(
        "ol",
        { class: "walk-steps" },
        walked.map((b, k) =>
          el("li", {
            "aria-current": k === at && step.id !== "result" ? "step" : undefined,
            "data-block": k + 1,
            text: w.after(
              k + 1,
              labels.keys[b.start],
              labels.keys[b.end - 1],
              fmt(b.m[i], state.digits),
              fmt(b.l[i], state.digits),
            ),
          }),
        ),
      ),
  );
}

export const tilingLab = {
  id: "tiling",
  styles: [kitStyles, "labs/why/style.css"],
  core: "labs",
  params: () => [
    { id: "block", kind: "range", symbol: "B", min: 1, max: n, step: 1, initial: 3 },
    { id: "causal", kind: "toggle", initial: false, control: true },
  ],

  compute(core, scene, state) {
    const inputs = { ...scene.inputs, ...state.edits };
    const p = core.selfAttention(inputs.x, inputs.wq, inputs.wk, inputs.wv);
    const mask = state.causal ? "causal" : undefined;
    const tiled = core.tiledAttention(p.q, p.k, p.v, { block: state.block, mask });
    // the whole rows at once, for the derivation of the output it is compared with
    const whole = core.attention(p.q, p.k, p.v, mask ? { mask } : {});
    return { inputs, trace: { ...tiled, q: p.q, k: p.k, v: p.v, projections: p, whole } };
  },

  // Each step names the block it shows, from 0: none (−1) for the setup, the last for the result.
  steps: (scene, state) => [
    { id: "setup", block: -1, panels: [], lead: ["walk"] },
    ...Array.from({ length: blockCount(state.block) }, (_, b) => ({
      id: `block${b + 1}`,
      block: b,
      panels: [],
      lead: ["walk"],
    })),
    {
      id: "result",
      block: blockCount(state.block) - 1,
      panels: [],
      lead: ["walk"],
      inStep: ["difference"],
    },
  ],

  labels: (scene, msg) => ({
    queries: scene.tokens,
    keys: scene.tokens,
    values: book.dims.map((d) => msg.dims[d]),
  }),

  focusRow: () => n - 1,

  view(stepId, { trace, labels, msg, step }) {
    const rows = labels.queries;
    if (stepId === "setup") {
      return {
        focusMatrix: null,
        matrices: [
          matrix("k", "K", trace.k, rows, labels.values, "operand"),
          matrix("v", "V", trace.v, rows, labels.values, "operand"),
        ],
      };
    }
    if (stepId === "result") {
      return {
        focusMatrix: null,
        matrices: [
          matrix("output", "output", trace.output, rows, labels.values, "result", msg.tiling.tiled),
          matrix("full", "full", trace.full, rows, labels.values, "operand", msg.tiling.whole),
        ],
      };
    }
    const b = trace.blocks[step.block];
    const keys = labels.keys.slice(b.start, b.end);
    const rescale = msg.tiling.rescale;
    const one = ["m", "ℓ", rescale];
    return {
      focusMatrix: "m",
      matrices: [
        matrix("logits", "s", b.logits, rows, keys, "operand", "s = Q·K_blockᵀ/√d_k"),
        matrix("m", "m", column(b.m), rows, [one[0]], "result"),
        matrix("rescale", rescale, column(b.rescale), rows, [rescale], "aux", "exp(m_old − m)"),
        matrix("p", "p", b.p, rows, keys, "aux", "p = exp(s − m)"),
        matrix("l", "ℓ", column(b.l), rows, [one[1]], "aux", "ℓ"),
        matrix("acc", "acc", b.acc, rows, labels.values, "aux", `acc = acc·${rescale} + p·V`),
        matrix("partial", "O", b.partial, rows, labels.values, "aux", "O = acc / ℓ"),
      ],
    };
  },

  text(stepId, { trace, msg, state, labels, step }) {
    const w = msg.tiling;
    if (stepId === "setup") return w.setup(state.block, trace.blocks.length);
    if (stepId === "result") return w.result;
    const at = step.block;
    const b = trace.blocks[at];
    const i = n - 1;
    const first = labels.keys[b.start];
    const last = labels.keys[b.end - 1];
    const row = w.row(
      labels.queries[i],
      fmt(b.m[i], state.digits),
      fmt(b.l[i], state.digits),
      at === 0 ? w.first : b.rescale[i] === 1 ? w.stayed : w.grew(fmt(b.rescale[i], state.digits)),
    );
    return `${w.block(b.start + 1, b.end, first, last)}${row}`;
  },

  derivation(mid, i, j, { trace, inputs, msg, state, step }) {
    return derivationOf(tilingLines(mid, i, j, { trace, inputs, msg, digits: state.digits, step }));
  },

  highlights(mid, i, j) {
    const h = { [mid]: { rows: [], cols: [], cells: [[i, j]] } };
    const row = (id) => (h[id] = { rows: [i], cols: [], cells: [] });
    const cell = (id, c = 0) => (h[id] = { rows: [], cols: [], cells: [[i, c]] });
    ({
      m: () => row("logits"),
      rescale: () => cell("m"),
      p: () => (cell("logits", j), cell("m")),
      l: () => (row("p"), cell("rescale")),
      acc: () => (row("p"), cell("rescale")),
      partial: () => (cell("acc", j), cell("l")),
    })[mid]?.();
    return h;
  },

  // "Download as a spreadsheet": every block of the walk as live formulas (./sheets.js,
  // loaded with the writer only when asked).
  sheet: async (ctx, link) => (await import("./sheets.js")).tilingSheet(ctx, link),

  panels: { difference: differencePanel, walk: walkPanel },

  words: words(),
};

// The written-out arithmetic of a cell of the tiling: a block's scores, the running max m, the
// rescale exp(m_old − m), p = exp(s − m), ℓ and acc updated, and O = acc / ℓ; by matrix id.
const lines = {
  logits: (cell) => {
    const { i, j, b, f, key, msg, digits, trace } = cell;
    const x = b.logits[i][j];
    if (x === -Infinity) return [plain(`${cellRef("s", i, j)} = −∞ (${msg.derive.blocked})`)];
    const q = trace.q[i];
    const k = trace.k[key];
    return [
      line(
        `${cellRef("s", i, j)} = Q[${i + 1}]·K[${key + 1}] × scale = `,
        x,
        digits,
        (p) =>
          bounds.dot(q, k)(p) * trace.scale +
          Math.abs(x / trace.scale) * roundingOf(trace.scale, p) +
          bounds.dot(q, k)(p) * roundingOf(trace.scale, p),
        (p) =>
          `(${q.map((a, c) => `${factor(a, p)}×${factor(k[c], p)}`).join(" + ")}) × ${f(trace.scale, p)}`,
      ),
    ];
  },
  m: (cell) => {
    const { i, b, mOld, f } = cell;
    return [
      plain(
        `m[${i + 1}] = max(m_old, max(${rowRef("s", i)})) = max(${f(mOld)}, ${f(b.blockMax[i])}) = ${f(b.m[i])}`,
      ),
    ];
  },
  rescale: (cell) => {
    const { i, b, mOld, f, w, digits } = cell;
    const m = b.m[i];
    if (mOld === -Infinity) {
      return [
        plain(
          m === -Infinity
            ? `${w.rescale} = 1 (${w.allMasked})`
            : `${w.rescale} = exp(−∞ − ${f(m)}) = 0 (${w.nothingYet})`,
        ),
      ];
    }
    return [
      line(
        `${w.rescale}[${i + 1}] = exp(m_old − m) = `,
        b.rescale[i],
        digits,
        bounds.exp(mOld, m, b.rescale[i]),
        (p) => `exp(${f(mOld, p)} − ${factor(m, p)})`,
      ),
    ];
  },
  p: (cell) => {
    const { i, j, b, f, digits } = cell;
    const x = b.logits[i][j];
    if (x === -Infinity) return [plain(`${cellRef("p", i, j)} = exp(−∞) = 0`)];
    return [
      line(
        `${cellRef("p", i, j)} = exp(s − m) = `,
        b.p[i][j],
        digits,
        bounds.exp(x, b.m[i], b.p[i][j]),
        (p) => `exp(${f(x, p)} − ${factor(b.m[i], p)})`,
      ),
    ];
  },
  l: (cell) => {
    const { i, b, lOld, f, digits } = cell;
    const a = [lOld, ...b.p[i].map(() => 1)];
    const c = [b.rescale[i], ...b.p[i]];
    return [
      line(
        `ℓ[${i + 1}] = ℓ_old × rescale + Σ p[${i + 1}] = `,
        b.l[i],
        digits,
        bounds.dot(a, c),
        (p) => `${f(lOld, p)} × ${f(b.rescale[i], p)} + ${b.p[i].map((x) => f(x, p)).join(" + ")}`,
      ),
    ];
  },
  acc: (cell) => {
    const { i, j, b, before, f, digits, trace } = cell;
    const accOld = before ? before.acc[i][j] : 0;
    const v = b.p[i].map((_, t) => trace.v[b.start + t][j]);
    const a = [accOld, ...b.p[i]];
    const c = [b.rescale[i], ...v];
    return [
      line(
        `${cellRef("acc", i, j)} = acc_old × rescale + Σ p·V = `,
        b.acc[i][j],
        digits,
        bounds.dot(a, c),
        (p) =>
          `${factor(accOld, p)} × ${f(b.rescale[i], p)} + ${b.p[i].map((x, t) => `${f(x, p)}×${factor(v[t], p)}`).join(" + ")}`,
      ),
    ];
  },
  partial: (cell) => normalised(cell, "O"),
  output: (cell) => normalised(cell, "output"),
};

// O = acc ÷ ℓ after a block (the output, after the last).
function normalised({ i, j, b, f, w, digits }, name) {
  if (b.l[i] === 0) return [plain(`${cellRef(name, i, j)} = 0 (${w.noKeyYet})`)];
  return [
    line(
      `${cellRef(name, i, j)} = acc ÷ ℓ = `,
      b.partial[i][j],
      digits,
      bounds.divide(b.acc[i][j], b.l[i], b.partial[i][j]),
      (p) => `${factor(b.acc[i][j], p)} ÷ ${f(b.l[i], p)}`,
    ),
  ];
}

// What a cell of the step's block is worked from: its block and the one before it.
function blockCell(mid, i, j, { trace, inputs, msg, digits, step }) {
  const at = step.block;
  const b = trace.blocks[at];
  const before = trace.blocks[at - 1];
  return {
    i,
    j,
    b,
    before,
    mOld: before ? before.m[i] : -Infinity,
    lOld: before ? before.l[i] : 0,
    f: (x, p = digits) => fmt(x, p),
    key: b.start + j,
    w: msg.tiling,
    msg,
    digits,
    trace,
  };
}

function tilingLines(mid, i, j, ctx) {
  const { trace, inputs, msg, digits } = ctx;
  if (mid === "k" || mid === "v") {
    return attentionDerivation(mid, i, j, { trace: trace.projections, inputs, msg, digits }).lines;
  }
  if (mid === "full") {
    const whole = { trace: trace.whole, inputs: { v: trace.v }, msg, digits };
    return attentionDerivation("output", i, j, whole).lines;
  }
  return lines[mid]?.(blockCell(mid, i, j, ctx)) ?? [];
}

function words() {
  const steps = (lang) => {
    const out = {
      setup: { title: lang === "en" ? "Keys in blocks" : "把键分块", text: "" },
      result: { title: lang === "en" ? "Tiled against whole rows" : "分块与整行对比", text: "" },
    };
    for (let b = 1; b <= n; ++b) {
      out[`block${b}`] = { title: lang === "en" ? `Block ${b}` : `第 ${b} 块`, text: "" };
    }
    return out;
  };
  return {
    en: {
      ui: { block: "Keys per block B", causal: "Causal mask" },
      steps: steps("en"),
      scenes: {
        tiling: {
          title: "Online softmax: FlashAttention's tiling, on the book sentence",
          analogy:
            "FlashAttention never holds a whole row of scores. It reads the keys a block at a time and keeps, for every query, the largest score so far (m), the sum of exp(score − m) so far (ℓ) and the output so far. When a block brings a larger score, everything kept is rescaled by exp(m_old − m_new), so that it is as if m had been the max from the start. At the end the result is the same softmax, to the last bits. These are real numbers: the book sentence's Q, K and V, computed by the core.",
        },
      },
      tiling: {
        setup: (block, count) =>
          `K and V of the book sentence, 11 tokens. With B = ${block} keys per block the core walks them in ${count} blocks. Change B to walk them differently; the result will not change.`,
        block: (from, to, first, last) =>
          from === to ? `Key ${from} (${first}). ` : `Keys ${from} to ${to} (${first} … ${last}). `,
        row: (token, m, l, what) => `For ${token}: m = ${m}, ℓ = ${l}; ${what}`,
        first: "the first block sets m and ℓ (what came before was nothing, rescaled by 0).",
        grew: (r) =>
          `the max grew, so ℓ and the output so far were first multiplied by exp(m_old − m) = ${r}.`,
        stayed: "the max stayed, so nothing was rescaled (the factor is 1).",
        result:
          "The output after the last block, beside the output of the ordinary softmax over whole rows (the core's attention).",
        difference: (d) => `The largest difference between them: ${d}.`,
        within: "At most 1e−12: the same numbers.",
        tiled: "output, tiled",
        rescale: "rescale",
        whole: "output, whole rows",
        beyond: "More than 1e−12!",
        nothingYet: "nothing was kept before the first block",
        allMasked: "every key so far is masked: m is still −∞",
        noKeyYet: "no key seen yet: ℓ is 0",
        walkTitle: (token, block) =>
          `The row of ${token}: its keys walked in blocks of B = ${block}, and m and ℓ after each block`,
        blockName: (k) => `block ${k}`,
        after: (k, first, last, m, l) =>
          `After block ${k} (${first === last ? first : `${first} … ${last}`}): m = ${m}, ℓ = ${l}`,
      },
    },
    zh: {
      ui: { block: "每块的键数 B", causal: "因果掩码" },
      steps: steps("zh"),
      scenes: {
        tiling: {
          title: "在线 softmax：FlashAttention 的分块，用“书”这句话的真实数字",
          analogy:
            "FlashAttention 从不保存一整行分数。它一次读一块键，并为每个查询保存：到目前为止最大的分数 m、exp(分数 − m) 的累加和 ℓ，以及到目前为止的输出。某一块带来更大的分数时，已保存的一切都乘以 exp(m_old − m_new)，就好像 m 从一开始就是最大值。最后得到的是同一个 softmax，直到最后几位都一样。这些是真实的数字：“书”这句话的 Q、K、V，由核心算出。",
        },
      },
      tiling: {
        setup: (block, count) =>
          `“书”这句话（11 个词）的 K 和 V。每块 B = ${block} 个键，核心分 ${count} 块走完。改变 B 换一种走法；结果不会变。`,
        block: (from, to, first, last) =>
          from === to
            ? `第 ${from} 个键（${first}）。`
            : `第 ${from} 到第 ${to} 个键（${first} … ${last}）。`,
        row: (token, m, l, what) => `对 ${token}：m = ${m}，ℓ = ${l}；${what}`,
        first: "第一块确定 m 和 ℓ（之前什么都没有，乘以 0）。",
        grew: (r) => `最大值变大了，所以 ℓ 和已有的输出先乘以 exp(m_old − m) = ${r}。`,
        stayed: "最大值没变，所以不需要重新缩放（因子是 1）。",
        result: "最后一块之后的输出，旁边是对整行做普通 softmax 的输出（核心的 attention）。",
        difference: (d) => `两者最大的差：${d}。`,
        within: "不超过 1e−12：是同样的数。",
        tiled: "输出（分块）",
        rescale: "缩放",
        whole: "输出（整行）",
        beyond: "超过了 1e−12！",
        nothingYet: "第一块之前什么也没有保存",
        allMasked: "到目前为止的键都被遮住了：m 仍是 −∞",
        noKeyYet: "还没有看到任何键：ℓ 是 0",
        walkTitle: (token, block) =>
          `${token} 这一行：它的键按每块 B = ${block} 个走过，每块之后的 m 和 ℓ`,
        blockName: (k) => `第 ${k} 块`,
        after: (k, first, last, m, l) =>
          `第 ${k} 块（${first === last ? first : `${first} … ${last}`}）之后：m = ${m}，ℓ = ${l}`,
      },
    },
  };
}

export default [
  {
    id: "tiling",
    handMade: true,
    lab: tilingLab,
    inputs: book.inputs,
    tokens: book.tokens,
    focusRow: n - 1,
  },
];
