// sizes_test.cpp: the sizes of real models (sizes.hpp) against their published parameter counts
// and KV caches, values worked out by hand here from each published configuration, and the
// project's own models' gpt_size().
#include "sizes.hpp"

#include <gtest/gtest.h>

#include "gpt.hpp"

namespace {

using attention::ModelShape;

// Hugging Face's openai-community/gpt2 config.json: n_embd 768, n_layer 12, n_head 12, n_ctx
// 1024, vocab_size 50257; tied; biases everywhere; learned positions; LayerNorm; MLP 4·768.
ModelShape gpt2() {
  return {50257,  1024,    768,       12,   12,   12,   64,   3072,
          "gelu", "layer", "learned", true, true, true, true, false};
}

// meta-llama/Meta-Llama-3-8B config.json: hidden 4096, intermediate 14336, 32 layers, 32 heads,
// 8 key-value heads, 8192 positions, vocab 128256, untied, no biases, RMSNorm, RoPE.
ModelShape llama3_8b() {
  return {128256,  8192,  4096,     32,    32,    8,     128,   14336,
          "gated", "rms", "rotary", false, false, false, false, false};
}

// Qwen/Qwen2.5-7B-Instruct config.json: hidden 3584, intermediate 18944, 28 layers, 28 heads,
// 4 key-value heads, 32768 positions, vocab 152064, untied, biases on q, k and v only.
ModelShape qwen25_7b() {
  return {152064,  32768, 3584,     28,    28,   4,     128,   18944,
          "gated", "rms", "rotary", false, true, false, false, false};
}

// Qwen/Qwen3-8B config.json: hidden 4096, intermediate 12288, 36 layers, 32 heads, 8 key-value
// heads, head_dim 128, 40960 positions, vocab 151936, untied, no biases, q and k normed.
ModelShape qwen3_8b() {
  return {151936,  40960, 4096,     36,    32,    8,     128,   12288,
          "gated", "rms", "rotary", false, false, false, false, true};
}

attention::ModelSize size_of(const ModelShape& shape, attention::Index n = 1024) {
  auto r = attention::model_size(shape, n);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.value;
}

TEST(Sizes, PublishedParameterCounts) {
  // The counts the models' publishers and their checkpoints give.
  EXPECT_EQ(size_of(gpt2()).total, 124439808);
  EXPECT_EQ(size_of(llama3_8b()).total, 8030261248);
  EXPECT_EQ(size_of(qwen25_7b()).total, 7615616512);
  // Qwen3-8B's model card: 8.2B in all, 6.95B without the embeddings. Worked out here:
  // embedding and output 2 × 151936·4096 = 1,244,659,712; a layer: q and o 2 × 4096·4096, k and
  // v 2 × 4096·1024, q and k norms 2·128, MLP 3 × 4096·12288, norms 2·4096 = 192,946,432;
  // 36 layers 6,946,071,552; the final norm 4096.
  const auto q3 = size_of(qwen3_8b());
  EXPECT_EQ(q3.layer.total, 192946432);
  EXPECT_EQ(q3.total, 1244659712 + 6946071552 + 4096);
  EXPECT_NEAR(double(q3.total - q3.embedding - q3.unembedding) / 1e9, 6.95, 0.005);
}

TEST(Sizes, Gpt2ByPart) {
  // By hand: wte 50257·768 = 38,597,376; wpe 1024·768 = 786,432; per layer c_attn 768·2304 +
  // 2304, c_proj 768·768 + 768, two LayerNorms 4·768, c_fc 768·3072 + 3072, c_proj 3072·768 + 768.
  const auto m = size_of(gpt2());
  EXPECT_EQ(m.embedding, 38597376);
  EXPECT_EQ(m.positions, 786432);
  EXPECT_EQ(m.layer.w_q + m.layer.w_k + m.layer.w_v, 768 * 2304 + 2304);
  EXPECT_EQ(m.layer.w_o, 768 * 768 + 768);
  EXPECT_EQ(m.layer.norms, 4 * 768);
  EXPECT_EQ(m.layer.mlp, 768 * 3072 + 3072 + 3072 * 768 + 768);
  EXPECT_EQ(m.layer.total, 7087872);
  EXPECT_EQ(m.final_norm, 1536);
  EXPECT_EQ(m.unembedding, 0);
  EXPECT_EQ(m.attention, 12 * (1771776 + 590592));
  EXPECT_EQ(m.mlp, 12 * (2362368 + 2360064));
  EXPECT_EQ(m.norms, 12 * 3072 + 1536);
  EXPECT_EQ(m.embedding + m.positions + m.attention + m.mlp + m.norms + m.unembedding, m.total);
  EXPECT_DOUBLE_EQ(m.attention_share, double(m.attention) / 124439808.0);
}

TEST(Sizes, KvCacheBytes) {
  // 2 (k and v) × layers × h_kv × d_head × 2 bytes.
  EXPECT_EQ(size_of(gpt2()).kv_bytes_per_token, 36864);
  EXPECT_EQ(size_of(llama3_8b()).kv_bytes_per_token, 131072);
  EXPECT_EQ(size_of(qwen25_7b()).kv_bytes_per_token, 57344);
  EXPECT_EQ(size_of(gpt2()).kv_bytes_context, 36864LL * 1024);
  EXPECT_EQ(size_of(llama3_8b()).kv_bytes_context, 131072LL * 8192);  // 1 GiB
  EXPECT_EQ(size_of(qwen25_7b(), 4096).kv_bytes_at, 57344LL * 4096);
  // what fewer K/V heads save per token: Llama 2·32·(32 − 8)·128·2
  EXPECT_EQ(size_of(llama3_8b()).kv_saved, 393216);
  EXPECT_EQ(size_of(gpt2()).kv_saved, 0);
  // float32 doubles it
  EXPECT_EQ(attention::model_size(gpt2(), 1, 4).value.kv_bytes_per_token, 73728);
}

TEST(Sizes, OneTokenMultiplyAdds) {
  // Llama 3 8B, the 4,096th token: per layer q, k, v 4096·(32 + 2·8)·128 = 25,165,824; scores
  // and the weighted sum 32·4096·128 = 16,777,216 each; output 32·128·4096 = 16,777,216.
  const auto m = size_of(llama3_8b(), 4096);
  EXPECT_EQ(m.attention_layer.projections, 25165824);
  EXPECT_EQ(m.attention_layer.scores, 16777216);
  EXPECT_EQ(m.attention_layer.weighted_sum, 16777216);
  EXPECT_EQ(m.attention_layer.output, 16777216);
  EXPECT_EQ(m.attention_token, 32LL * (25165824 + 3 * 16777216));
  EXPECT_EQ(m.scores_token, 32LL * 2 * 16777216);
  EXPECT_EQ(m.mlp_token, 32LL * 3 * 4096 * 14336);
  EXPECT_EQ(m.unembed_token, 128256LL * 4096);
  EXPECT_EQ(m.token, m.attention_token + m.mlp_token + m.unembed_token);
  // the part that grows with the context doubles with it
  EXPECT_EQ(size_of(llama3_8b(), 8192).scores_token, 2 * m.scores_token);
  // the same formula as the KV-cache lab's counter
  const auto c = attention::decode_cost(4096, 32, 8, 128, 4096);
  EXPECT_EQ(c.total, m.attention_layer.total);
}

TEST(Sizes, TheProjectsOwnModels) {
  // The Tang model (web/labs/gpt/tang.json) and the induction lab's, as gpt.hpp lays them out.
  const attention::GptConfig tang{1497, 64, 64, 2, 4, 10000, true};
  const ModelShape tang_shape{1497,   64,      64,       2,    4,     4,     16,   256,
                              "gelu", "layer", "rotary", true, false, false, true, false};
  EXPECT_EQ(size_of(tang_shape).total, attention::gpt_size(tang));
  EXPECT_EQ(size_of(tang_shape).total, 195392);
  const attention::GptConfig induction{32, 64, 64, 2, 1, 10000, false};
  const ModelShape induction_shape{32,     64,      64,       2,    1,     1,     64,    0,
                                   "none", "layer", "rotary", true, false, false, false, false};
  EXPECT_EQ(size_of(induction_shape).total, attention::gpt_size(induction));
}

TEST(Sizes, Refused) {
  const auto error = [](ModelShape s, attention::Index n = 1, attention::Index bytes = 2) {
    return attention::model_size(s, n, bytes).error;
  };
  auto s = llama3_8b();
  s.kv_heads = 3;
  EXPECT_EQ(error(s),
            "kv_heads is 3; it must divide heads (32): each key-value head serves the same number "
            "of query heads");
  s = llama3_8b();
  s.mlp = "swish";
  EXPECT_EQ(error(s), "mlp is \"swish\"; it must be gelu, gated or none");
  s = llama3_8b();
  s.norm = "batch";
  EXPECT_EQ(error(s), "norm is \"batch\"; it must be layer or rms");
  s = llama3_8b();
  s.positions = "alibi";
  EXPECT_EQ(error(s), "positions is \"alibi\"; it must be learned or rotary");
  s = llama3_8b();
  s.layers = 0;
  EXPECT_EQ(error(s), "layers is 0; it must be from 1 to 1024");
  s = llama3_8b();
  s.d_ff = 0;
  EXPECT_EQ(error(s), "d_ff is 0; with mlp \"gated\" it must be from 1 to 262144");
  s = llama3_8b();
  s.mlp = "none";
  EXPECT_EQ(error(s), "d_ff is 14336; with mlp \"none\" it must be 0");
  EXPECT_EQ(error(llama3_8b(), 0), "n is 0; it must be from 1 to 4194304");
  EXPECT_EQ(error(llama3_8b(), 1, 9), "bytes_per_value is 9; it must be from 1 to 8");
  // the largest shape: its counts pass 2^53 and are refused, named (no overflow on the way)
  const ModelShape big{1 << 22, 1 << 22, 1 << 16,   1024,  1024, 1024, 1 << 12, 1 << 18,
                       "gated", "layer", "learned", false, true, true, true,    true};
  EXPECT_EQ(error(big, 1 << 22, 8),
            "its KV cache would count 2.8823e+17, past 2^53, the largest whole number JS holds "
            "exactly");
  EXPECT_EQ(error(qwen3_8b(), 1 << 23), "n is 8388608; it must be from 1 to 4194304");
}

}  // namespace
