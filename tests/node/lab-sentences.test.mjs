// lab-sentences.test.mjs: the numbers and names inside the labs' sentences, read as a learner
// reads them (a number is what the words next to it say it is: "head 2", "第 3 个键值头",
// "Keys 4 to 6 (图书馆 … 读)"), in English and in Chinese, and compared with the core's values for
// that step: the step's words, the lines of a cell's derivation that are sentences, and the
// panels' summaries (built on a text-only document, tests/node/text-dom.mjs). Where a value can
// be worked out here from other numbers of the core (a running max from the whole row's scores,
// a loss from its weight, a variance from the core's own q and k), it is, so that a sentence that
// says the right field of the wrong step fails too. The dropout lab's sentences are in
// dropout-draws.test.mjs. Each pattern below reads one sentence in one language; a sentence
// reworded so that it no longer reads fails with the sentence quoted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, textOf } from "./text-dom.mjs";
import "./gpt-files.mjs";
import { loadLabs } from "../../web/attention.js";
import { resolveScene } from "../../web/lab.js";
import { scenes as listed } from "../../web/catalogue.js";
import { fmt } from "../../web/format.js";
import { evaluate } from "./shown.mjs";
import { wordsFor } from "../../web/words.js";
import { labAt } from "./lab-context.mjs";

installTextDom();
const core = await loadLabs();
const ids = [
  "scale",
  "heads",
  "gqa",
  "kvcache",
  "order",
  "scaling",
  "tiling",
  "stability",
  "sharpness",
  "teach",
  "model",
];
const labScenes = Object.fromEntries(
  await Promise.all(
    ids.map(async (id) => [id, await resolveScene(listed.find((s) => s.id === id))]),
  ),
);
const langs = ["en", "zh"];

// A number as the page writes it: −0.25, 12, 1.1e−16, −∞.
const NUM = String.raw`−?(?:\d+(?:\.\d+)?(?:e[−+]?\d+)?|∞)`;
const pattern = (source) => new RegExp(source.replaceAll("NUM", NUM));
const num = (s) => Number(s.replace(/−/g, "-").replace("∞", "Infinity"));

// The named groups of `source` in `text`, or a failure that quotes the text.
function read(text, source, where) {
  const m = pattern(source).exec(text);
  assert.ok(m, `${where}: cannot read /${source}/ in «${text}»`);
  return m.groups;
}

// Reads `texts[lang]` with `sources[lang]` in both languages; every expected group must be there
// as written (a string) or, for a number given as { near, digits }, within half a unit of its
// last shown digit. Returns the groups read, by language.
function says(texts, sources, expected, where) {
  const out = {};
  for (const lang of langs) {
    const g = read(texts[lang], sources[lang], `${where} (${lang})`);
    for (const [key, want] of Object.entries(expected)) {
      const got = g[key];
      const at = `${where} (${lang}): ${key} in «${texts[lang]}»`;
      if (typeof want === "object") {
        const room = 0.5 * 10 ** -want.digits + 1e-9;
        assert.ok(Math.abs(num(got) - want.near) <= room, `${at}: ${got}, not ${want.near}`);
      } else assert.equal(got, String(want), at);
    }
    out[lang] = g;
  }
  return out;
}

// A lab at a state: its steps, and each step's context, words, panels and derivations by language.
function lab(id, partial = {}) {
  const scene = labScenes[id];
  const { state, inputs, trace, at } = labAt(core, scene, partial);
  const both = (f) => Object.fromEntries(langs.map((lang) => [lang, f(lang)]));
  return {
    scene,
    state,
    inputs,
    trace,
    at,
    steps: scene.lab.steps(scene, state).map((s) => s.id),
    text: (stepId) =>
      both((lang) => {
        const c = at(lang, stepId);
        return c.lab.text ? c.lab.text(stepId, c) : c.msg.steps[stepId].text;
      }),
    panel: (stepId, name) => both((lang) => panelOf(at(lang, stepId), name)),
    lines: (stepId, mid, i, j) =>
      both((lang) => {
        const c = at(lang, stepId);
        return c.lab.derivation(mid, i, j, c).lines.map((l) => l.text);
      }),
  };
}
const panelOf = (ctx, name) => ctx.lab.panels[name](ctx);
const pick = (both, f) => Object.fromEntries(langs.map((lang) => [lang, f(both[lang])]));

// ---- Inside a model: which columns a head reads -------------------------------------------

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
    for (const m of view.matrices.filter((x) => x.id === "wa" || x.id === "wb")) {
      const lines = L.lines(stepId, m.id, 1, 2);
      says(
        pick(lines, (l) => l[0]),
        headLine,
        headReads(0, 4, 4, 2),
        `${stepId} ${m.id}`,
      );
    }
    const ob = view.matrices.find((m) => m.id === "ob");
    const oa = view.matrices.find((m) => m.id === "oa");
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
      const lines = L.lines(stepId, "ob", r, j);
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
    const row = L.at("en", "plain").view.matrices.find((x) => x.id === "oa").rowLabels;
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
      ["rope", ["qa", "ka"]],
      ["distance", ["qm", "kn"]],
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

// ---- Online softmax: a block's keys, m, ℓ and the rescale --------------------------------

test("online softmax: each block's words name its first and last key, and m, ℓ worked out from the whole row", () => {
  const branches = { first: 0, stayed: 0, grew: 0 };
  for (const causal of [false, true]) {
    for (const block of [1, 3, 4, 11]) {
      for (const digits of [2, 4]) {
        const L = lab("tiling", { block, causal, digits });
        const n = L.trace.q.length;
        const count = Math.ceil(n / block);
        assert.deepEqual(L.steps.length, count + 2);
        says(
          L.text("setup"),
          {
            en: String.raw`of the book sentence, (?<n>\d+) tokens\. With B = (?<B>\d+) keys per block the core walks them in (?<count>\d+) blocks?\.`,
            zh: String.raw`（(?<n>\d+) 个词）的 K 和 V。每块 B = (?<B>\d+) 个键，核心分 (?<count>\d+) 块走完`,
          },
          { n, B: block, count },
          `B = ${block} setup`,
        );
        const tokens = L.scene.tokens;
        const last = n - 1;
        // the last query's row of the whole softmax (it sees every key, mask or not)
        const s = L.trace.whole.scaled[last];
        let mOld = -Infinity;
        for (let b = 0; b < count; b++) {
          const start = b * block;
          const end = Math.min(n, start + block);
          const core = L.trace.blocks[b];
          assert.deepEqual([core.start, core.end], [start, end], `B = ${block}: block ${b + 1}`);
          const seen = s.slice(0, end);
          const m = Math.max(...seen);
          const l = seen.reduce((a, x) => a + Math.exp(x - m), 0);
          const where = `B = ${block} block ${b + 1}${causal ? " causal" : ""}`;
          const text = L.text(`block${b + 1}`);
          // a block of one key names it once
          const one = end - start === 1;
          says(
            text,
            one
              ? {
                  en: String.raw`^Key (?<from>\d+) \((?<first>[^ )]+)\)\. For (?<token>\S+): m = (?<m>NUM), ℓ = (?<l>NUM);`,
                  zh: String.raw`^第 (?<from>\d+) 个键（(?<first>[^ ）]+)）。\s*对 (?<token>\S+)：m = (?<m>NUM)，ℓ = (?<l>NUM)；`,
                }
              : {
                  en: String.raw`^Keys (?<from>\d+) to (?<to>\d+) \((?<first>[^ …]+) … (?<last>[^ )]+)\)\. For (?<token>\S+): m = (?<m>NUM), ℓ = (?<l>NUM);`,
                  zh: String.raw`^第 (?<from>\d+) 到第 (?<to>\d+) 个键（(?<first>[^ …]+) … (?<last>[^ ）]+)）。\s*对 (?<token>\S+)：m = (?<m>NUM)，ℓ = (?<l>NUM)；`,
                },
            {
              from: start + 1,
              ...(one ? {} : { to: end, last: tokens[end - 1] }),
              first: tokens[start],
              token: tokens[last],
              m: { near: m, digits },
              l: { near: l, digits },
            },
            where,
          );
          const w = pick(
            Object.fromEntries(langs.map((lang) => [lang, L.at(lang, "setup")])),
            (c) => c.msg.tiling,
          );
          for (const lang of langs) {
            branches[b === 0 ? "first" : m === mOld ? "stayed" : "grew"]++;
            if (b === 0) assert.ok(text[lang].endsWith(w[lang].first), `${where} (${lang})`);
            else if (m === mOld)
              assert.ok(text[lang].endsWith(w[lang].stayed), `${where} (${lang})`);
            else {
              assert.ok(m > mOld);
              assert.ok(!text[lang].endsWith(w[lang].stayed), `${where} (${lang}): ${text[lang]}`);
              const r = read(text[lang], String.raw`exp\(m_old − m\) = (?<r>NUM)`, where).r;
              const room = 0.5 * 10 ** -digits + 1e-9;
              assert.ok(Math.abs(num(r) - Math.exp(mOld - m)) <= room, `${where}: ${r}`);
            }
          }
          mOld = m;
        }
        // the result: the largest |tiled − whole| between the two tables shown
        let largest = 0;
        L.trace.output.forEach((row, i) =>
          row.forEach((x, j) => (largest = Math.max(largest, Math.abs(x - L.trace.full[i][j])))),
        );
        const said = says(
          pick(L.panel("result", "difference"), textOf),
          {
            en: String.raw`^The largest difference between them: (?<d>NUM)\.`,
            zh: String.raw`^两者最大的差：(?<d>NUM)。`,
          },
          {},
          `B = ${block} result`,
        );
        for (const lang of langs) {
          const d = num(said[lang].d);
          assert.ok(
            largest === 0 ? d === 0 : Math.abs(d - largest) <= 0.051 * largest,
            `${lang}: ${said[lang].d} for ${largest}`,
          );
        }
      }
    }
  }
  assert.ok(branches.first && branches.stayed && branches.grew, JSON.stringify(branches));
});

// ---- Why it is built this way: stability, √d_k -----------------------------------------

test("stability: the blocked row the words name is the row whose keys are all masked; exp(s) as worked here", () => {
  const L = lab("stability");
  const mask = L.trace.minusInfinity.masked.map((row) => row.every((x) => x === -Infinity));
  const row = mask.indexOf(true);
  assert.ok(row >= 0);
  says(
    pick(L.panel("masking", "blocked"), textOf),
    {
      en: String.raw`^With −∞, row (?<row>\d+) sees no key`,
      zh: String.raw`^用 −∞ 时，第 (?<row>\d+) 行看不到任何键`,
    },
    { row: row + 1 },
    "blocked",
  );
  for (const s of [[[1000, 998, 990]], [[1, 2, 3]], [[-1000, -1001, -1003]]]) {
    const E = lab("stability", { edits: { s }, digits: 4 });
    for (const lang of langs) {
      const table = E.panel("naive", "naive")[lang];
      const cells = table.querySelectorAll("tr")[1].children.slice(1).map(textOf);
      s[0].forEach((x, j) => {
        const e = Math.exp(x);
        const shown = cells[j];
        assert.ok(
          e === Infinity ? shown === "Infinity" : Math.abs(num(shown) - e) <= 5e-5 + 1e-9 * e,
          `${lang} exp(${x}): ${shown}`,
        );
      });
    }
  }
});

test("√d_k: the summaries' variances and largest weights, worked out here from the core's own q and k", () => {
  for (const dk of [1, 8, 64, 512]) {
    const L = lab("scaling", { dk, digits: 4 });
    const { q, k } = core.scalingBatch({ dK: dk });
    const rows = q.length;
    const nKeys = k.length / rows;
    const scores = q.map((qi, r) =>
      Array.from({ length: nKeys }, (_, j) =>
        qi.reduce((a, x, c) => a + x * k[r * nKeys + j][c], 0),
      ),
    );
    const all = scores.flat();
    const variance = (xs) => {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      return xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length;
    };
    const softmaxMax = (row) => {
      const m = Math.max(...row);
      const e = row.map((x) => Math.exp(x - m));
      return Math.max(...e) / e.reduce((a, b) => a + b, 0);
    };
    const top = (scale) => {
      const largest = scores.map((row) => softmaxMax(row.map((x) => x * scale)));
      return {
        mean: largest.reduce((a, b) => a + b, 0) / rows,
        share: largest.filter((x) => x > 0.99).length / rows,
      };
    };
    const v = variance(all);
    says(
      pick(L.panel("spread", "summary"), textOf),
      {
        en: String.raw`^Over all (?<count>\d+) scores, the variance of q·k is (?<v>NUM) \(about d_k = (?<dk>\d+)\); after dividing by √d_k it is (?<sv>NUM) \(about 1\)`,
        zh: String.raw`^在全部 (?<count>\d+) 个分数上，q·k 的方差是 (?<v>NUM)（约等于 d_k = (?<dk>\d+)）；除以 √d_k 之后是 (?<sv>NUM)（约等于 1）`,
      },
      {
        count: all.length,
        v: { near: v, digits: 2 },
        dk,
        sv: { near: v / dk, digits: 4 },
      },
      `d_k ${dk} spread`,
    );
    for (const [stepId, scale] of [
      ["unscaled", 1],
      ["scaled", 1 / Math.sqrt(dk)],
    ]) {
      const want = top(scale);
      says(
        pick(L.panel(stepId, "summary"), textOf),
        {
          en: String.raw`^Over the (?<rows>\d+) queries, the largest weight is (?<mean>NUM) on average; the share of them where it is above 0\.99 \(one-hot\) is (?<share>NUM)\.`,
          zh: String.raw`^在 (?<rows>\d+) 个查询上，最大权重平均为 (?<mean>NUM)；最大权重超过 0\.99（独热）的查询所占比例是 (?<share>NUM)。`,
        },
        { rows, mean: { near: want.mean, digits: 4 }, share: { near: want.share, digits: 2 } },
        `d_k ${dk} ${stepId}`,
      );
    }
    says(
      L.text("spread"),
      {
        en: String.raw`^One of the (?<rows>\d+) queries and its (?<keys>\d+) keys, with d_k = (?<dk>\d+) random entries each: its (?<keys2>\d+) scores`,
        zh: String.raw`(?<rows>\d+) 个查询中的一个.*(?<keys>\d+) 个键.*d_k = (?<dk>\d+).*(?<keys2>\d+) 个分数`,
      },
      { rows, keys: nKeys, dk, keys2: nKeys },
      `d_k ${dk} spread words`,
    );
    says(
      pick(L.lines("scaled", "scaled", 0, 0), (l) => l[0]),
      { en: String.raw`1/√(?<dk>\d+) = (?<s>NUM)`, zh: String.raw`1/√(?<dk>\d+) = (?<s>NUM)` },
      { dk, s: { near: 1 / Math.sqrt(dk), digits: 4 } },
      `d_k ${dk} scale`,
    );
  }
});

// ---- How it learns: the summaries ---------------------------------------------------------

test("sharpness: the summary's loss and dL/dα are those of its α, worked out here; the step's words name η and the target", () => {
  for (const [partial, target] of [
    [{ eta: 10, steps: 12, digits: 4 }, 19],
    [{ eta: 40, steps: 6, finite: true, digits: 2 }, 19.2],
  ]) {
    const L = lab("sharpness", partial);
    const path = L.trace.path;
    assert.equal(path.length, partial.steps);
    // output(α) = 19 + 3/(3e^{α/√3} + 1) and L = (output − target)², by hand
    const at = (a) => {
      const e = 3 * Math.exp(a / Math.sqrt(3));
      const out = 19 + 3 / (e + 1);
      const dOut = (-3 * e) / Math.sqrt(3) / (e + 1) ** 2;
      return { loss: (out - target) ** 2, dAlpha: 2 * (out - target) * dOut };
    };
    const [first, last] = [at(path[0].alpha), at(path.at(-1).alpha)];
    const d = partial.digits;
    says(
      pick(L.panel("curve", "summary"), textOf),
      {
        en: String.raw`^At step (?<n>\d+), the last, α = (?<alpha>NUM); from step 1 to step (?<n2>\d+) the loss went from (?<l0>NUM) to (?<l1>NUM) and dL/dα from (?<g0>NUM) to (?<g1>NUM)\.`,
        zh: String.raw`^最后一步（第 (?<n>\d+) 步）α = (?<alpha>NUM)；从第 1 步到第 (?<n2>\d+) 步，损失从 (?<l0>NUM) 变为 (?<l1>NUM)，dL/dα 从 (?<g0>NUM) 变为 (?<g1>NUM)。`,
      },
      {
        n: path.length,
        n2: path.length,
        alpha: fmt(path.at(-1).alpha, d),
        l0: { near: first.loss, digits: d },
        l1: { near: last.loss, digits: d },
        g0: { near: first.dAlpha, digits: d },
        g1: { near: last.dAlpha, digits: d },
      },
      `sharpness ${JSON.stringify(partial)}`,
    );
    for (const t of [1, 3, partial.steps]) {
      const S = lab("sharpness", { ...partial, at: t });
      says(
        S.text("task"),
        {
          en: String.raw`^Training step (?<t>\d+) of (?<n>\d+), η = (?<eta>NUM)\..*\(output − (?<target>NUM)\)²`,
          zh: String.raw`^第 (?<t>\d+) 个训练步，共 (?<n>\d+) 个，η = (?<eta>NUM)。.*\(输出 − (?<target>NUM)\)²`,
        },
        { t, n: partial.steps, eta: partial.eta, target },
        `sharpness at ${t}`,
      );
    }
  }
});

test("teach: the summary's weights are 书's on 读 at the first and last step, its losses −ln of them", () => {
  for (const partial of [
    { steps: 10, digits: 4 },
    { steps: 3, digits: 2, hand: true },
  ]) {
    const L = lab("teach", partial);
    const steps = L.trace.steps;
    const reader = L.scene.lab.labels(L.scene, wordsFor("en", L.scene), L.trace, L.inputs);
    const rows = reader.queries ?? L.at("en", "start").view.matrices[0].rowLabels;
    const [shu, du] = [rows.indexOf("书"), rows.indexOf("读")];
    assert.ok(shu >= 0 && du >= 0, `${rows}`);
    const w0 = steps[0].trace.weights[shu][du];
    const w1 = steps.at(-1).trace.weights[shu][du];
    const d = partial.digits;
    says(
      pick(L.panel("curve", "summary"), textOf),
      {
        en: String.raw`^At step (?<n>\d+), the last, 书 gives 读 (?<w1>NUM) of its weight \(at step 1: (?<w0>NUM)\); from step 1 to step (?<n2>\d+) the loss went from (?<l0>NUM) to (?<l1>NUM)\.`,
        zh: String.raw`^最后一步（第 (?<n>\d+) 步）“书”给“读”的权重是 (?<w1>NUM)（第 1 步是 (?<w0>NUM)）；从第 1 步到第 (?<n2>\d+) 步，损失从 (?<l0>NUM) 变为 (?<l1>NUM)。`,
      },
      {
        n: steps.length,
        n2: steps.length,
        w0: fmt(w0, d),
        w1: fmt(w1, d),
        l0: { near: -Math.log(w0), digits: d },
        l1: { near: -Math.log(w1), digits: d },
      },
      `teach ${JSON.stringify(partial)}`,
    );
  }
});

// ---- A real model ------------------------------------------------------------------------

test("a real model: the words name the layer and head shown, the head's width, the vocabulary and the line's tokens as the core's", () => {
  for (const [layer, head, line] of [
    [2, 3, undefined],
    [1, 1, "春眠不觉晓\u00e9"],
    [2, 1, "\u00e9春眠\u00e8"],
  ]) {
    const L = lab("model", { layer, head, ...(line ? { line } : {}) });
    const config = L.trace.json.config;
    assert.ok(layer <= config.layers && head <= config.heads);
    const dh = L.inputs.q[0].length;
    assert.equal(dh * config.heads, config.dModel);
    const where = `layer ${layer} head ${head}`;
    const place = {
      en: String.raw`layer (?<l>\d+), head (?<h>\d+)`,
      zh: String.raw`第 (?<l>\d+) 层第 (?<h>\d+) 个头`,
    };
    says(L.text("heads"), place, { l: layer, h: head }, `${where} heads`);
    says(
      L.text("head"),
      {
        en: String.raw`^Here is ${place.en}, written out.*\(Q and K: its row of the residual stream, after LayerNorm, times W_Q and W_K; (?<dh>\d+) numbers each for this head.*Q·Kᵀ / √(?<dh2>\d+),`,
        zh: String.raw`^下面把${place.zh}完整写出来.*（Q 和 K：这个字在残差流里的那一行，经过 LayerNorm，乘以 W_Q 和 W_K；这个头各 (?<dh>\d+) 个数.*Q·Kᵀ / √(?<dh2>\d+)、`,
      },
      { l: layer, h: head, dh, dh2: dh },
      `${where} head`,
    );
    const vocab = L.trace.forward.probs.at(-1).length;
    says(
      L.text("next"),
      {
        en: String.raw`gives every one of its (?<v>\d+) tokens a logit`,
        zh: String.raw`模型给词表里 (?<v>\d+) 个词元各一个 logit`,
      },
      { v: vocab },
      `${where} next`,
    );
    for (const [stepId, id] of [
      ["heads", "weights"],
      ["head", "q"],
      ["head", "k"],
    ]) {
      const caption = pick(
        Object.fromEntries(langs.map((lang) => [lang, L.at(lang, stepId)])),
        (c) => c.view.matrices.find((m) => m.id === id).caption,
      );
      says(caption, { en: `${place.en}$`, zh: `${place.zh}$` }, { l: layer, h: head }, id);
    }
    // a cell of Q (K): the model's own number, the head's columns of its layer
    const own = L.trace.forward.layers[layer - 1];
    for (const mid of ["q", "k"]) {
      const [i, j] = [L.inputs.q.length - 1, dh - 1];
      says(
        pick(L.lines("head", mid, i, j), (l) => l[0]),
        {
          en: String.raw`^(?<name>[QK])\[(?<i>\d+)\]\[(?<j>\d+)\] = (?<v>NUM) \(the model's: layer (?<l>\d+)'s LayerNorm of the residual stream times W_(?<w>[QK]),`,
          zh: String.raw`^(?<name>[QK])\[(?<i>\d+)\]\[(?<j>\d+)\] = (?<v>NUM) \(来自模型：第 (?<l>\d+) 层残差流的 LayerNorm 乘以 W_(?<w>[QK])，`,
        },
        {
          name: mid.toUpperCase(),
          i: i + 1,
          j: j + 1,
          v: fmt(own[mid][i][(head - 1) * dh + j], L.state.digits),
          l: layer,
          w: mid.toUpperCase(),
        },
        `${where} ${mid}`,
      );
    }
    // the next token's max and Σ, worked out here from the core's logits
    const z = L.trace.forward.logits.at(-1);
    const top = Math.max(...z);
    const sum = z.reduce((a, x) => a + Math.exp(x - top), 0);
    const digits = L.state.digits;
    says(
      pick(L.lines("next", "top", 0, 0), (l) => l[0]),
      {
        en: String.raw`^max of all the logits = (?<m>NUM)$`,
        zh: String.raw`^所有 logit 的最大值 = (?<m>NUM)$`,
      },
      { m: { near: top, digits } },
      `${where} max`,
    );
    says(
      pick(L.lines("next", "sum", 0, 0), (l) => l[0]),
      {
        en: String.raw`^Σ exp\(z − max\) over the whole vocabulary = (?<s>NUM) \(the core's\)$`,
        zh: String.raw`^整个词表上 exp\(z − max\) 之和 Σ = (?<s>NUM)（核心算出）$`,
      },
      { s: { near: sum, digits } },
      `${where} sum`,
    );
    says(
      pick(L.lines("next", "logits", 0, 0), (l) => l[0]),
      {
        en: String.raw`^z = (?<z>NUM) \(the model's: the final LayerNorm of the last row times this character's embedding, (?<n>\d+) products\)$`,
        zh: String.raw`^z = (?<z>NUM) \(来自模型：最后一行的最终 LayerNorm 乘以这个字的嵌入，(?<n>\d+) 个乘积\)$`,
      },
      { z: fmt(z[L.trace.next.ids[0]], digits), n: config.dModel },
      `${where} logit`,
    );
    // the line's tokens: how many, how many unknown, how many characters the context reads
    const tokens = L.panel("line", "tokens");
    const unknown = L.trace.tokens.filter((t) => t === 1).length;
    // é and è are not characters of the Tang poems
    assert.equal(unknown, line ? [...line].filter((c) => c > "\u00df" && c < "\u0100").length : 0);
    says(
      pick(tokens, (t) => textOf(t.querySelector("figcaption"))),
      { en: String.raw`^(?<n>\d+) tokens$`, zh: String.raw`^(?<n>\d+) 个词元$` },
      { n: L.trace.tokens.length },
      `${where} tokens`,
    );
    for (const lang of langs) {
      const ids = tokens[lang].querySelectorAll("td").map(textOf);
      assert.deepEqual(ids, L.trace.tokens.map(String), lang);
    }
    if (unknown) {
      const said = pick(tokens, (t) => textOf(t.querySelector("#model-unknown")));
      const en = read(said.en, String.raw`^(?<n>One|\d+) characters? (?:is|are) unknown`, where).n;
      assert.equal(en, unknown === 1 ? "One" : String(unknown), said.en);
      assert.equal(
        // é and è are letters, not 字 (tests/node/defects.test.mjs counts the two apart)
        Number(
          read(
            said.zh,
            String.raw`^有 (?<n>\d+) 个字符（字母、数字或符号，不是汉字）模型不认识`,
            where,
          ).n,
        ),
        unknown,
      );
    }
    says(
      pick(tokens, (t) => textOf(t.querySelector(".note"))),
      {
        en: String.raw`only the first (?<n>\d+) characters are read \(the context holds (?<c>\d+) with ⏎\)`,
        zh: String.raw`只读前 (?<n>\d+) 个字（上下文连 ⏎ 共 (?<c>\d+) 个）`,
      },
      { n: config.context - 1, c: config.context },
      `${where} context`,
    );
    // the generated line: τ and the seed it was drawn with
    says(
      pick(L.panel("next", "generate"), (p) => textOf(p.querySelector("#generated"))),
      {
        en: String.raw`^τ = (?<t>NUM), seed (?<s>\d+):`,
        zh: String.raw`^τ = (?<t>NUM)，种子 (?<s>\d+)：`,
      },
      { t: L.state.temperature, s: L.state.sample },
      `${where} generated`,
    );
  }
});

// ---- Every lab: the same numbers in both languages ----------------------------------------

// The numbers written with digits in a text, sorted (a range 1–2 is two numbers); the few that
// English spells in words and Chinese in digits are written as digits first.
const spelled = [
  [/unit[- ]variance/g, "variance 1"], // 方差为 1
  [/mostly zeros/g, "mostly 0"], // 大多是 0
];
const numbersIn = (text) =>
  (
    spelled
      .reduce((t, [words, digits]) => t.replace(words, digits), text)
      .match(/−?\d+(?:\.\d+)?(?:e[−+]?\d+)?/g) ?? []
  ).sort();

test("every step's words say the same numbers in English and in Chinese", () => {
  let compared = 0;
  for (const [id, partial] of [
    ["heads", {}],
    ["gqa", {}],
    ["kvcache", {}],
    ["order", {}],
    ["scaling", { dk: 128 }],
    ["tiling", { block: 4 }],
    ["tiling", { block: 2, causal: true }],
    ["stability", {}],
    ["scale", {}],
    ["model", { layer: 2, head: 3 }],
    ["sharpness", { steps: 5, at: 2 }],
    ["teach", { steps: 4, at: 3 }],
  ]) {
    const L = lab(id, partial);
    for (const stepId of L.steps) {
      const text = L.text(stepId);
      assert.deepEqual(
        numbersIn(text.zh),
        numbersIn(text.en),
        `${id} ${stepId}:\n${text.en}\n${text.zh}`,
      );
      compared++;
    }
  }
  assert.ok(compared >= 35, `${compared} steps`);
});

test("every line of every cell's derivation says the same numbers in English and in Chinese", () => {
  let lines = 0;
  for (const [id, partial] of [
    ["heads", {}],
    ["gqa", {}],
    ["kvcache", {}],
    ["order", {}],
    ["scaling", { dk: 8 }],
    ["tiling", { block: 4, causal: true }],
    ["stability", {}],
    ["sharpness", { steps: 3, at: 2 }],
    ["teach", { steps: 2, at: 1 }],
    ["model", { layer: 2, head: 3 }],
  ]) {
    const L = lab(id, partial);
    for (const stepId of L.steps) {
      for (const m of L.at("en", stepId).view.matrices) {
        m.data.forEach((row, i) =>
          row.forEach((_, j) => {
            const both = L.lines(stepId, m.id, i, j);
            assert.equal(both.zh.length, both.en.length, `${id} ${stepId} ${m.id}`);
            both.en.forEach((en, k) => {
              assert.deepEqual(
                numbersIn(both.zh[k]),
                numbersIn(en),
                `${id} ${stepId} ${m.id}[${i + 1}][${j + 1}]:\n${en}\n${both.zh[k]}`,
              );
              lines++;
            });
          }),
        );
      }
    }
  }
  assert.ok(lines > 2000, `${lines} lines`);
});
