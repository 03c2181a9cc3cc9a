// why-sentences.test.mjs: lesson 3's labs (online softmax, stability, √d_k): the numbers and names
// in their sentences, read as a learner reads them, are the core's (tests/node/lab-sentences.mjs
// says how).
import { test } from "node:test";
import assert from "node:assert/strict";
import { textOf } from "./text-dom.mjs";
import { core, langs, NUM, num, read, says, lab, pick } from "./lab-sentences.mjs";

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

// Issue 39 §3: step 1 said "a score above 709.78" beside three such scores.
test("stability: the naive way's verdict counts the scores whose exp overflows, as exp gives them", () => {
  for (const s of [[[1000, 998, 990]], [[1000, 5, 1]], [[800, 710, 3]], [[1, 2, 3]]]) {
    const over = s[0].filter((x) => Math.exp(x) === Infinity).length;
    const E = lab("stability", { edits: { s } });
    const verdict = pick(E.panel("naive", "naive"), (table) =>
      textOf(table.querySelector("#naive-verdict")),
    );
    if (!over) {
      assert.match(verdict.en, /happens to work/, verdict.en);
      continue;
    }
    const all = over === s[0].length;
    says(
      verdict,
      all
        ? {
            en: String.raw`^Here: all (?<total>\d+) scores are above 709\.78`,
            zh: String.raw`^这里：全部 (?<total>\d+) 个分数都超过 709\.78`,
          }
        : {
            en: String.raw`^Here: (?<n>\d+) of the (?<total>\d+) scores (?:is|are) above 709\.78`,
            zh: String.raw`^这里：(?<total>\d+) 个分数中有 (?<n>\d+) 个超过 709\.78`,
          },
      all ? { total: s[0].length } : { n: over, total: s[0].length },
      `overflow ${s[0]}`,
    );
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
