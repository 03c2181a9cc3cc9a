// inside-sentences.test.mjs: lesson 2's labs (heads, fewer K/V heads, the KV cache, word order):
// the numbers and names in their sentences, read as a learner reads them, are the core's
// (tests/node/lab-sentences.mjs says how).
import { test } from "node:test";
import assert from "node:assert/strict";
import { textOf } from "./text-dom.mjs";
import { fmt } from "../../web/format.js";
import { evaluate } from "./shown.mjs";
import { core, langs, NUM, num, read, says, lab, pick } from "./lab-sentences.mjs";

const headLine = {
  en: String.raw`^head (?<h>\d+): its Q is columns (?<q1>\d+)–(?<q2>\d+) of Q; its K and V are columns (?<k1>\d+)–(?<k2>\d+) of K and V \(key-value head (?<g>\d+)\)$`,
  zh: String.raw`^第 (?<h>\d+) 个头：它的 Q 是 Q 的第 (?<q1>\d+)–(?<q2>\d+) 列；它的 K 和 V 是 K、V 的第 (?<k1>\d+)–(?<k2>\d+) 列（第 (?<g>\d+) 个键值头）$`,
};

// What head h (0-based) of H reads, with h_kv key-value heads of d columns: GQA's rule, head h
// reads key-value head ⌊h·h_kv/H⌋; worked out here, and the core's kvHead must agree.
function headReads(h, H, hKv, d) {
  const g = Math.floor((h * hKv) / H);
  return { h: h + 1, g: g + 1, q1: h * d + 1, q2: (h + 1) * d, k1: g * d + 1, k2: (g + 1) * d };
}

// Every per-head matrix of a step: its intro says the head's columns.
function checkHeads(L, stepId, t, { hKv, where }) {
  const H = t.heads.length;
  const d = t.dHead;
  assert.equal(t.kvHead.length, H);
  let count = 0;
  for (const m of L.at("en", stepId).view.matrices) {
    const parsed = /^h(\d+)-(\w+)$/.exec(m.id);
    if (!parsed) continue;
    const h = Number(parsed[1]) - 1;
    const want = headReads(h, H, hKv, d);
    assert.equal(t.kvHead[h], want.g - 1, `${where}: the core's key-value head of head ${h + 1}`);
    const [i, j] = [m.data.length - 1, m.data[0].length - 1];
    const lines = L.lines(stepId, m.id, i, j);
    says(
      pick(lines, (l) => l[0]),
      headLine,
      want,
      `${where} ${m.id}`,
    );
    count++;
  }
  return count;
}

test("heads: each head's description names its own columns of Q, K and V, in both languages", () => {
  const L = lab("heads");
  let n = 0;
  for (const stepId of L.steps) n += checkHeads(L, stepId, L.trace, { hKv: 4, where: stepId });
  assert.ok(n >= 12, `${n} per-head matrices read`);
  // concat[i][j] is head ⌊j/d⌋'s output column j mod d
  const d = L.trace.dHead;
  for (let j = 0; j < L.trace.concat[0].length; j++) {
    const lines = L.lines("concat", "concat", 2, j);
    const h = Math.floor(j / d) + 1;
    says(
      pick(lines, (l) => l[0]),
      {
        en: String.raw`^concat\[3\]\[(?<j>\d+)\] = output(?<h>\d+)\[3\]\[(?<c>\d+)\] \(head (?<h2>\d+)'s output`,
        zh: String.raw`^concat\[3\]\[(?<j>\d+)\] = output(?<h>\d+)\[3\]\[(?<c>\d+)\]（第 (?<h2>\d+) 个头的输出`,
      },
      { j: j + 1, h, c: (j % d) + 1, h2: h },
      `concat column ${j + 1}`,
    );
  }
  // a column's name says its head: 2.1 is head 2's first column
  const proj = L.at("en", "projections").view.matrices;
  for (const id of ["q", "k", "v"]) {
    proj
      .find((m) => m.id === id)
      .colLabels.forEach((name, c) =>
        assert.equal(name, `${Math.floor(c / d) + 1}.${(c % d) + 1}`, `${id} column ${c + 1}`),
      );
  }
  // the note: the position features turn by the angle it says, token by token
  for (const lang of langs) {
    const note = L.at(lang, "inputs").msg.inside.positionsNote;
    const angle = Number(read(note, String.raw`(?<a>\d+)°`, lang).a);
    L.inputs.x.forEach((row, p) => {
      const [cos, sin] = row.slice(-2);
      assert.ok(Math.abs(cos - Math.cos((p * angle * Math.PI) / 180)) < 1e-3, `${lang} ${p}`);
      assert.ok(Math.abs(sin - Math.sin((p * angle * Math.PI) / 180)) < 1e-3, `${lang} ${p}`);
    });
  }
  // the weights step names who looks at whom: each named key is the row's largest weight
  const names = says(
    L.text("headWeights"),
    {
      en: String.raw`Head 1: (?<a>\S+) looks at (?<b>\S+) and (?<c>\S+) at (?<d>\S+) \(.*Head 3: (?<e>\S+) looks back at (?<f>\S+), (?<g>\S+) at (?<h>\S+)\. Head 4 .*: its weights are even`,
      zh: String.raw`头 1：(?<a>\S+) 看向 (?<b>\S+)，(?<c>\S+) 看向 (?<d>\S+)（.*头 3：(?<e>\S+) 回看 (?<f>\S+)，(?<g>\S+) 看向 (?<h>\S+)。头 4 .*：权重是平均的`,
    },
    {},
    "headWeights",
  );
  assert.deepEqual({ ...names.zh }, { ...names.en });
  const rows = L.at("en", "headWeights").view.matrices[0].rowLabels;
  const top = (h, from) => {
    const w = L.trace.heads[h].weights[rows.indexOf(from)];
    return rows[w.indexOf(Math.max(...w))];
  };
  const said = names.en;
  for (const [h, from, to] of [
    [0, said.a, said.b],
    [0, said.c, said.d],
    [2, said.e, said.f],
    [2, said.g, said.h],
  ]) {
    assert.ok(rows.includes(from) && rows.includes(to), `${from}, ${to}`);
    assert.equal(top(h, from), to, `head ${h + 1}: ${from} looks at ${to}`);
  }
  // head 2: the token before; 我's weight split between itself and the last token
  rows.slice(1).forEach((from, i) => assert.equal(top(1, from), rows[i], `head 2: ${from}`));
  const first = [...L.trace.heads[1].weights[0]]
    .map((w, j) => [w, rows[j]])
    .sort((a, b) => b[0] - a[0]);
  assert.deepEqual(
    first
      .slice(0, 2)
      .map((x) => x[1])
      .sort(),
    [rows[0], rows.at(-1)].sort(),
  );
  for (const w of L.trace.heads[3].weights) assert.ok(Math.max(...w) - Math.min(...w) < 1e-12);
  // the step's words: h·d_head columns, and the 7 features W_O brings them back to
  const cols = L.trace.q[0].length;
  says(
    L.text("inputs"),
    {
      en: String.raw`h·d_head = (?<h>\d+)×(?<d>\d+) = (?<hd>\d+) columns: columns 1–(?<first>\d+) are head 1's.*the (?<back>\d+) columns of the heads back to the (?<features>\d+) features`,
      zh: String.raw`h·d_head = (?<h>\d+)×(?<d>\d+) = (?<hd>\d+) 列：第 1–(?<first>\d+) 列属于头 1.*把各头的 (?<back>\d+) 列变回 (?<features>\d+) 个特征`,
    },
    {
      h: L.trace.heads.length,
      d,
      hd: cols,
      first: d,
      back: cols,
      features: L.inputs.x[0].length,
    },
    "inputs",
  );
});

test("fewer K/V heads: who shares which key-value head, and which heads a shared one averages", () => {
  const L = lab("gqa");
  for (const [stepId, hKv] of [
    ["kv4", 4],
    ["kv2", 2],
    ["kv1", 1],
  ]) {
    const t = L.trace[hKv];
    assert.equal(t.hKv, hKv);
    checkHeads(L, stepId, t, { hKv, where: stepId });
    // the note: "1→1, 2→1, 3→2, 4→2"
    const note = pick(L.panel(stepId, "groups"), textOf);
    for (const lang of langs) {
      const pairs = [...note[lang].matchAll(/(\d+)→(\d+)/g)].map((m) => [+m[1], +m[2]]);
      assert.deepEqual(
        pairs,
        t.heads.map((_, h) => [h + 1, headReads(h, 4, hKv, 2).g]),
        `${stepId} (${lang}): ${note[lang]}`,
      );
    }
    // a shared W_K (W_V) column: the mean of its group's heads of the four-head layer
    if (hKv === 4) continue;
    if (hKv === 2) {
      const said = says(
        L.text(stepId),
        {
          en: String.raw`query heads (?<a>\d+) and (?<b>\d+) read key-value head (?<g1>\d+), heads (?<c>\d+) and (?<d>\d+) read key-value head (?<g2>\d+) \(`,
          zh: String.raw`查询头 (?<a>\d+)、(?<b>\d+) 读键值头 (?<g1>\d+)，头 (?<c>\d+)、(?<d>\d+) 读键值头 (?<g2>\d+)（`,
        },
        {},
        stepId,
      );
      for (const lang of langs) {
        const g = said[lang];
        for (const [h, kv] of [
          [g.a, g.g1],
          [g.b, g.g1],
          [g.c, g.g2],
          [g.d, g.g2],
        ])
          assert.equal(t.kvHead[h - 1] + 1, Number(kv), `${lang}: head ${h} reads ${kv}`);
        assert.deepEqual([g.a, g.b, g.c, g.d].sort(), ["1", "2", "3", "4"]);
      }
    }
    const size = 4 / hKv;
    for (const mid of ["wk", "wv"]) {
      const cols = L.inputs.layers[hKv][mid][0].length;
      for (let j = 0; j < cols; j++) {
        const g = Math.floor(j / t.dHead);
        const lines = L.lines(stepId, mid, 0, j);
        const name = mid === "wk" ? "W_K" : "W_V";
        says(
          pick(lines, (l) => l[0]),
          {
            en: String.raw`^shared head (?<g>\d+) of (?<name>W_[KV]) is the mean of heads (?<first>\d+)–(?<last>\d+) of the four-head W_[KV]$`,
            zh: String.raw`^(?<name>W_[KV]) 的共用头 (?<g>\d+) 是四头 W_[KV] 中头 (?<first>\d+)–(?<last>\d+) 的平均$`,
          },
          { g: g + 1, name, first: g * size + 1, last: (g + 1) * size },
          `${stepId} ${mid} column ${j + 1}`,
        );
        // (a + b) ÷ 2 = the shared head's number, from the four-head layer's columns
        const members = Array.from(
          { length: size },
          (_, m) => L.inputs.layers[4][mid][0][(g * size + m) * t.dHead + (j % t.dHead)],
        );
        const mean = members.reduce((a, b) => a + b, 0) / size;
        const [lhs, value] = lines.en[1].split(" = ").slice(1);
        assert.ok(Math.abs(evaluate(lhs) - mean) < 1e-12, `${lines.en[1]}: ${mean}`);
        assert.ok(Math.abs(num(value) - L.inputs.layers[hKv][mid][0][j]) < 1e-12, lines.en[1]);
      }
    }
  }
});

test("fewer K/V heads: the cache the words say is half and a quarter is, in the core's cache", () => {
  const L = lab("gqa");
  const said = says(
    L.text("memory"),
    {
      en: String.raw`so h_kv = (?<half>\d+) keeps half and h_kv = (?<quarter>\d+) a quarter`,
      zh: String.raw`所以 h_kv = (?<half>\d+) 只要一半，h_kv = (?<quarter>\d+) 只要四分之一`,
    },
    {},
    "memory",
  );
  const size = (hKv) => L.trace[hKv].cache.k.length + L.trace[hKv].cache.v.length;
  for (const lang of langs) {
    assert.equal(2 * size(Number(said[lang].half)), size(4), lang);
    assert.equal(4 * size(Number(said[lang].quarter)), size(4), lang);
  }
  // the table's rows: h_kv, and K's length = 5 tokens × the width of a row
  const table = L.at("en", "memory").view.matrices[0];
  table.rowLabels.forEach((label, r) => {
    const hKv = Number(/\d+$/.exec(label)[0]);
    const { width, k, v } = L.trace[hKv].cache;
    assert.deepEqual(table.data[r], [width, k.length, v.length]);
    assert.equal(width, 2 * hKv, `h_kv·d_head for h_kv ${hKv}`);
    assert.equal(k.length, L.inputs.x.length * width);
    // each cell's derivation names its own column (K under K, V under V: the column's label
    // says which, in each language) and makes its number
    table.data[r].forEach((value, c) => {
      const lines = L.lines("memory", table.id, r, c);
      for (const lang of langs) {
        const g = read(
          lines[lang][0],
          String.raw`^(?<name>h_kv·d_head|K|V) = (?<a>\d+) × (?<b>\d+) = (?<v>\d+)$`,
          `memory[${r + 1}][${c + 1}] (${lang})`,
        );
        const label = L.at(lang, "memory").view.matrices[0].colLabels[c];
        const column = c === 0 ? "h_kv·d_head" : /\b([KV])\b/.exec(label)[1];
        assert.equal(g.name, column, `${lang}: ${lines[lang][0]} under ${label}`);
        assert.equal(Number(g.a) * Number(g.b), value, `${lang}: ${lines[lang][0]}`);
        assert.equal(Number(g.v), value, `${lang}: ${lines[lang][0]}`);
      }
    });
  });
});

test("KV cache: each token's words, the counter's factors and figures, the rows' steps are the core's", () => {
  const L = lab("kvcache");
  const tokens = L.scene.lab.steps().length - 1;
  L.trace.steps.forEach((step, s) => {
    const t = s + 1;
    const stepId = `token${t}`;
    const token = L.at("en", stepId).view.matrices.find((m) => m.id === "kcache").rowLabels[s];
    says(
      L.text(stepId),
      {
        en: String.raw`^Token (?<t>\d+), (?<token>\S+), arrives\. Its row X\[(?<x>\d+)\] .*\(now (?<rows>\d+) rows?\)`,
        zh: String.raw`^第 (?<t>\d+) 个词元「(?<token>[^」]+)」到来。它的行 X\[(?<x>\d+)\].*（现在有 (?<rows>\d+) 行）`,
      },
      { t, token, x: t, rows: step.cache.length },
      stepId,
    );
    assert.equal(step.cache.length, t, "the cache holds a row per token so far");
    checkHeads(L, stepId, step.trace, { hKv: 2, where: stepId });
    const counter = L.panel(stepId, "counter");
    says(
      pick(counter, (c) => textOf(c.querySelector(".factors"))),
      {
        en: String.raw`d_model = (?<d>\d+) features.*h = (?<h>\d+) query heads and h_kv = (?<hKv>\d+) key-value heads.*d_head = (?<dh>\d+) numbers.*n = (?<n>\d+), the tokens`,
        zh: String.raw`d_model = (?<d>\d+)，每个词元的特征数.*h = (?<h>\d+) 个查询头，h_kv = (?<hKv>\d+) 个键值头.*d_head = (?<dh>\d+)，每个头.*n = (?<n>\d+)，到目前`,
      },
      {
        d: L.inputs.x[0].length,
        h: step.trace.h,
        hKv: step.trace.hKv,
        dh: step.trace.dHead,
        n: step.cache.length,
      },
      `${stepId} factors`,
    );
    // the core's multiply-adds, by hand: d·(h + 2·h_kv)·d_head to project the new row, h·n·d_head
    // for its scores and as many for weights·V, h·d_head·d for W_O; a full pass does it per row
    const [d, h, hKv, dh] = [L.inputs.x[0].length, step.trace.h, step.trace.hKv, step.trace.dHead];
    const one = { projections: d * (h + 2 * hKv) * dh, scores: h * t * dh, output: h * dh * d };
    one.weightedSum = one.scores;
    const pairs = (t * (t + 1)) / 2;
    const full = {
      projections: t * one.projections,
      scores: h * pairs * dh,
      weightedSum: h * pairs * dh,
      output: t * one.output,
    };
    for (const [name, cost] of [
      ["cost", one],
      ["full", full],
    ]) {
      cost.total = cost.projections + cost.scores + cost.weightedSum + cost.output;
      assert.deepEqual({ ...step[name] }, cost, `${stepId} ${name}`);
    }
    // every "formula = value" works out, and the values are the core's, part by part
    const parts = ["projections", "scores", "weightedSum", "output", "total"];
    for (const lang of langs) {
      const codes = counter[lang].querySelectorAll("[data-cost]").map(textOf);
      const values = codes.map((c) => {
        const [formula, value] = c.split(" = ");
        assert.equal(evaluate(formula), Number(value), `${stepId} (${lang}): ${c}`);
        return Number(value);
      });
      assert.deepEqual(
        values,
        [...parts.map((p) => step.cost[p]), ...parts.map((p) => step.full[p])],
        `${stepId} (${lang})`,
      );
    }
    // the two columns' headings: this step's row, and a full recompute of the t tokens so far
    says(
      pick(counter, (c) => textOf(c.querySelector(".counter-columns").children[1].children[0])),
      {
        en: String.raw`^a full recompute of (?:the |all )(?<n>\d+) tokens?$`,
        zh: String.raw`^把全部 (?<n>\d+) 个词元重算一遍$`,
      },
      { n: t },
      `${stepId} full recompute's heading`,
    );
    says(
      pick(counter, (c) => textOf(c.querySelector(".note"))),
      {
        en: String.raw`^A causal pass over (?<n>\d+) tokens?.*, so (?<pairs>[\d +]+) \(query, key\) pairs?\..*one row: (?<per>\d+) pairs? per head`,
        zh: String.raw`^(?<n>\d+) 个词元的完整因果计算.*共 (?<pairs>[\d +]+) 个（查询，键）对。.*每个头 (?<per>\d+) 对`,
      },
      { n: t, pairs: Array.from({ length: t }, (_, i) => i + 1).join(" + "), per: t },
      `${stepId} pairs`,
    );
  });
  // the causal step: row i of the cached weights comes from step i
  for (let i = 0; i < tokens; i++) {
    const lines = L.lines("causal", "cached", i, 0);
    says(
      pick(lines, (l) => l[0]),
      {
        en: String.raw`^row (?<r>\d+) comes from step (?<s>\d+), where the query of token (?<t>\d+) was`,
        zh: String.raw`^第 (?<r>\d+) 行来自第 (?<s>\d+) 步，那一步词元 (?<t>\d+) 的查询`,
      },
      { r: i + 1, s: i + 1, t: i + 1 },
      `cached row ${i + 1}`,
    );
    says(
      pick(lines, (l) => l[1]),
      headLine,
      headReads(0, 4, 2, 2),
      `cached row ${i + 1}`,
    );
  }
});

test("word order: a moved row names its token's rows, the distance line its m and n, in both languages", () => {
  const L = lab("order");
  let moved = 0;
  for (const stepId of L.steps.filter((s) => s !== "distance")) {
    const view = L.at("en", stepId).view;
    const t = L.trace[stepId];
    // a head's weights, in order and shuffled: head 1's columns
    for (const m of view.matrices.filter(
      (x) => x.id === "weightsOriginal" || x.id === "weightsShuffled",
    )) {
      const lines = L.lines(stepId, m.id, 1, 2);
      says(
        pick(lines, (l) => l[0]),
        headLine,
        headReads(0, 4, 4, 2),
        `${stepId} ${m.id}`,
      );
    }
    const ob = view.matrices.find((m) => m.id === "outputShuffled");
    const oa = view.matrices.find((m) => m.id === "outputOriginal");
    if (!ob) continue;
    moved++;
    ob.rowLabels.forEach((token, r) => {
      const i = oa.rowLabels.indexOf(token);
      assert.ok(i >= 0, token);
      // without positions the row only moves; with them, the column where it moved most
      const gaps = t.a.output[i].map((x, c) => Math.abs(x - t.b.output[r][c]));
      const j = gaps.indexOf(Math.max(...gaps));
      assert.equal(gaps[j] === 0, stepId === "plain", `${stepId} ${token}: ${gaps}`);
      const value = fmt(t.a.output[i][j], L.state.digits);
      const lines = L.lines(stepId, "outputShuffled", r, j);
      says(
        pick(lines, (l) => l.at(-1)),
        {
          en: String.raw`^(?<token>\S+) is row (?<r>\d+) here and row (?<i>\d+) in order; there its output is (?<v>NUM)`,
          zh: String.raw`^「(?<token>[^」]+)」这里是第 (?<r>\d+) 行，原顺序中是第 (?<i>\d+) 行；那里它的输出是 (?<v>NUM)`,
        },
        { token, r: r + 1, i: i + 1, v: value },
        `${stepId} ${token}`,
      );
      // "moved" without positions; with them "the same number" only where it reads the same
      const shownHere = fmt(t.b.output[r][j], L.state.digits);
      const how = stepId === "plain" ? "moved" : shownHere === value ? "same" : "changed";
      for (const lang of langs) {
        const said = L.at(lang, stepId).msg.inside.movedLine;
        assert.equal(lines[lang].at(-1), said(token, r + 1, i + 1, value, how), lang);
      }
    });
  }
  assert.ok(moved >= 2, `${moved} steps with a shuffled output`);
  const view = L.at("en", "distance").view;
  for (const mid of ["q", "k"]) {
    const m = view.matrices.find((x) => x.id === mid);
    const token = m.rowLabels[0];
    const row = L.at("en", "plain").view.matrices.find((x) => x.id === "outputOriginal").rowLabels;
    says(
      pick(L.lines("distance", mid, 0, 0), (l) => l[0]),
      {
        en: String.raw`^(?<name>[qk]) is head 1's (?:query|key) of (?<token>\S+), columns 1–2 of row (?<row>\d+) of (?<big>[QK]) = X·W_[QK]`,
        zh: String.raw`^(?<name>[qk]) 是头 1 中「(?<token>[^」]+)」的(?:查询|键)：(?<big>[QK]) = X·W_[QK] 第 (?<row>\d+) 行`,
      },
      { name: mid, token, row: row.indexOf(token) + 1, big: mid.toUpperCase() },
      `distance ${mid}`,
    );
  }
  const scores = view.matrices.find((x) => x.id === "scores");
  const at = (label) => Number(/\d+$/.exec(label)[0]);
  scores.data.forEach((row, i) =>
    row.forEach((_, j) => {
      const [m, n] = [at(scores.rowLabels[i]), at(scores.colLabels[j])];
      says(
        pick(L.lines("distance", "scores", i, j), (l) => l.at(-1)),
        {
          en: String.raw`^m − n = (?<m>\d+) − (?<n>\d+) = (?<d>NUM) \(every cell of this diagonal has this score; row (?<row>\d+) is m = (?<m2>\d+) and column (?<col>\d+) is n = (?<n2>\d+):`,
          zh: String.raw`^m − n = (?<m>\d+) − (?<n>\d+) = (?<d>NUM)（这条对角线上的格子分数都一样；第 (?<row>\d+) 行是 m = (?<m2>\d+)，第 (?<col>\d+) 列是 n = (?<n2>\d+)：`,
        },
        { m, n, d: fmt(m - n, 0), row: i + 1, m2: m, col: j + 1, n2: n },
        `distance [${i + 1}][${j + 1}]`,
      );
    }),
  );
});

test("word order: each position's angle, its sin or cos and its rotation, worked out here from the row's position", () => {
  for (const digits of [2, 4]) {
    const L = lab("order", { digits });
    const room = 0.5 * 10 ** -digits + 1e-9;
    // θ_i = 10000^(−2i/d), the angle pos·θ_i, as the step's words define them
    const theta = (i, d) => 10000 ** ((-2 * i) / d);
    let cells = 0;
    // "pos·θ_0 = 2 × 1 = 2", "θ_0 = 10000^(−2×0/7) = 1"
    const angleOf = (lines, pos, pair, d, where) => {
      const t = lines.find((l) => l.startsWith(`θ_${pair} = `));
      const g = read(
        t,
        String.raw`^θ_(?<i>\d+) = 10000\^\(−2×(?<i2>\d+)/(?<d>\d+)\) = (?<t>NUM)$`,
        where,
      );
      assert.deepEqual([g.i, g.i2, g.d], [String(pair), String(pair), String(d)], `${where}: ${t}`);
      const a = lines.find((l) => l.startsWith(`pos·θ_${pair} = `));
      const h = read(a, String.raw`^pos·θ_\d+ = (?<pos>\d+) × (?<t>NUM) = (?<angle>NUM)$`, where);
      assert.equal(Number(h.pos), pos, `${where}: ${a}`);
      assert.ok(Math.abs(num(h.angle) - pos * theta(pair, d)) <= room, `${where}: ${a}`);
      return pos * theta(pair, d);
    };
    // sinusoidal: PE[pos][2i] = sin(pos·θ_i), PE[pos][2i+1] = cos(pos·θ_i), d = d_model
    const pe = L.at("en", "sinusoidal").view.matrices.find((m) => m.id === "pe");
    assert.ok(pe, "the sinusoidal step shows PE");
    const d = L.inputs.x[0].length;
    pe.data.forEach((row, i) =>
      row.forEach((value, j) => {
        const pos = Number(/\d+$/.exec(pe.rowLabels[i])[0]);
        const pair = Math.floor(j / 2);
        const fn = j % 2 === 0 ? "sin" : "cos";
        const exact = Math[fn](pos * theta(pair, d));
        assert.ok(Math.abs(value - exact) < 1e-12, `the core's PE[${i + 1}][${j + 1}]`);
        const lines = L.lines("sinusoidal", "pe", i, j);
        for (const lang of langs) {
          const where = `PE[${i + 1}][${j + 1}] (${lang})`;
          const g = read(
            lines[lang][0],
            String.raw`^PE\[(?<i>\d+)\]\[(?<j>\d+)\] = (?<fn>sin|cos)\((?<pos>\d+) × θ_(?<pair>\d+)\)$`,
            where,
          );
          assert.deepEqual(
            [g.i, g.j, g.fn, g.pos, g.pair],
            [String(i + 1), String(j + 1), fn, String(pos), String(pair)],
            `${where}: ${lines[lang][0]}`,
          );
          // the line under it says which row and column that is, each number beside its name
          const index = {
            en: String.raw`^row (?<row>\d+) is pos = (?<pos>\d+); column (?<col>\d+) is the (?<fn>sin|cos) of pair i = (?<pair>\d+):`,
            zh: String.raw`^第 (?<row>\d+) 行是 pos = (?<pos>\d+)；第 (?<col>\d+) 列是第 i = (?<pair>\d+) 对的 (?<fn>sin|cos)：`,
          }[lang];
          const n = read(lines[lang][1], index, where);
          assert.deepEqual(
            [n.row, n.pos, n.col, n.fn, n.pair],
            [String(i + 1), String(pos), String(j + 1), fn, String(pair)],
            `${where}: ${lines[lang][1]}`,
          );
          const angle = angleOf(lines[lang], pos, pair, d, where);
          const last = read(
            lines[lang].at(-1),
            String.raw`^(?<fn>sin|cos)\((?<angle>NUM)\) = (?<v>NUM)$`,
            where,
          );
          assert.equal(last.fn, fn, where);
          assert.ok(Math.abs(num(last.angle) - angle) <= room, `${where}: ${lines[lang].at(-1)}`);
          assert.ok(Math.abs(num(last.v) - exact) <= room, `${where}: ${lines[lang].at(-1)}`);
          cells++;
        }
      }),
    );
    // RoPE: a head's pair turned by pos·θ_0, d = d_head; in order the row is the position, in the
    // distance step the row's name says it (m = 3)
    for (const [stepId, ids] of [
      ["rope", ["qRotated", "kRotated"]],
      ["distance", ["qAtM", "kAtN"]],
    ]) {
      for (const m of L.at("en", stepId).view.matrices.filter((x) => ids.includes(x.id))) {
        m.data.forEach((row, i) =>
          row.forEach((_, j) => {
            const pos = stepId === "rope" ? i : Number(/\d+$/.exec(m.rowLabels[i])[0]);
            const lines = L.lines(stepId, m.id, i, j);
            for (const lang of langs) {
              const where = `${stepId} ${m.id}[${i + 1}][${j + 1}] (${lang})`;
              const angle = angleOf(lines[lang], pos, 0, 2, where);
              const cs = lines[lang].find((l) => l.startsWith("cos = "));
              const g = read(
                cs,
                String.raw`^cos = (?<cos>NUM), sin = (?<sin>NUM) \((?<angle>NUM) rad\)$`,
                where,
              );
              assert.ok(Math.abs(num(g.cos) - Math.cos(angle)) <= room, `${where}: ${cs}`);
              assert.ok(Math.abs(num(g.sin) - Math.sin(angle)) <= room, `${where}: ${cs}`);
              assert.ok(Math.abs(num(g.angle) - angle) <= room, `${where}: ${cs}`);
              cells++;
            }
          }),
        );
      }
    }
    assert.ok(cells > 100, `${cells} cells read`);
  }
});

// Issue 39 §3: the GQA lab said "lab 1" and "lab 3" where the page numbers only its lessons.
test("the labs name another lab by its name in the scene list, never by a number", async () => {
  const { labScenes } = await import("./lab-sentences.mjs");
  const { labNames } = await import("../../web/labs/names.js");
  for (const id of Object.keys(labScenes)) {
    const L = lab(id);
    for (const stepId of L.steps) {
      for (const lang of langs) {
        const text = L.text(stepId)[lang];
        assert.doesNotMatch(text, /\blabs? \d|实验 ?\d/, `${id} ${stepId} (${lang}): ${text}`);
      }
    }
  }
  const G = lab("gqa");
  says(
    G.text("kv4"),
    {
      en: "as in “(?<lab>[^”]+)”, this lesson's first lab",
      zh: "和本课第一个实验“(?<lab>[^”]+)”一样",
    },
    {},
    "kv4",
  );
  for (const [stepId, other] of [
    ["kv4", "heads"],
    ["memory", "kvcache"],
  ]) {
    const text = G.text(stepId);
    for (const lang of langs)
      assert.ok(text[lang].includes(`“${labNames[other][lang]}”`), text[lang]);
  }
});
