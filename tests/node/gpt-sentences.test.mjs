// gpt-sentences.test.mjs: lesson 5's lab (a real model): the layer, head, width, vocabulary and
// tokens its sentences name, read as a learner reads them, are the core's
// (tests/node/lab-sentences.mjs says how).
import { test } from "node:test";
import assert from "node:assert/strict";
import { textOf } from "./text-dom.mjs";
import { fmt } from "../../web/format.js";
import { core, langs, NUM, read, says, lab, pick } from "./lab-sentences.mjs";

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
        // é and è are letters, not 字 (tests/node/lab-wording.test.mjs counts the two apart)
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
