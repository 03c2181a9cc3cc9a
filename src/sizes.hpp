// sizes.hpp: the size of a real transformer, from its published configuration: its parameters
// in all and in attention, its KV cache's bytes, and one token's multiply-adds at a context the
// learner picks, counted with the KV-cache lab's own formula (decode_cost, multihead.hpp). The
// same shape describes GPT-2, Llama 3, Qwen and this project's own two models (gpt.hpp), whose
// parameter count gpt_size() gives the same way.
#pragma once

#include <cstdint>
#include <string>

#include "attention.hpp"
#include "multihead.hpp"

namespace attention {

// A decoder-only transformer, as its configuration file describes it. The names are the
// fields' in every binding (dModel, kvHeads … in JS). Strings name the variants:
//   mlp        "gelu": W_fc (d_model, d_ff) and W_proj (d_ff, d_model), as GPT-2's;
//              "gated": W_gate and W_up (d_model, d_ff), W_down (d_ff, d_model), SwiGLU as
//              Llama's and Qwen's; "none": attention-only blocks, as the induction lab's
//   norm       "layer": LayerNorm, a gain and a bias of d_model; "rms": RMSNorm, a gain only
//   positions  "learned": a table of context × d_model, added to the input (GPT-2);
//              "rotary": RoPE, no parameters
struct ModelShape {
  Index vocab = 0;
  Index context = 0;
  Index d_model = 0;
  Index layers = 0;
  Index heads = 0;
  Index kv_heads = 0;
  Index d_head = 0;
  Index d_ff = 0;
  std::string mlp = "gelu";
  std::string norm = "layer";
  std::string positions = "rotary";
  bool tied = false;
  bool qkv_bias = false;
  bool o_bias = false;
  bool mlp_bias = false;
  bool qk_norm = false;

  static constexpr const char* kName = "ModelShape";
  static constexpr auto fields() {
    return std::tuple{
        field("vocab", &ModelShape::vocab, "V, the tokens it knows"),
        field("context", &ModelShape::context, "T, the longest sequence it was built for"),
        field("d_model", &ModelShape::d_model, "C, the residual stream's width"),
        field("layers", &ModelShape::layers, "L, how many blocks"),
        field("heads", &ModelShape::heads, "h, query heads per layer"),
        field("kv_heads", &ModelShape::kv_heads, "h_kv, key-value heads per layer; divides h"),
        field("d_head", &ModelShape::d_head, "one head's width"),
        field("d_ff", &ModelShape::d_ff, "the MLP's hidden width (0 with mlp none)"),
        field("mlp", &ModelShape::mlp, "gelu (two matrices), gated (three: SwiGLU) or none"),
        field("norm", &ModelShape::norm, "layer (a gain and a bias) or rms (a gain)"),
        field("positions", &ModelShape::positions, "learned (a T·C table) or rotary (none)"),
        field("tied", &ModelShape::tied, "the output layer reuses the embedding"),
        field("qkv_bias", &ModelShape::qkv_bias, "W_Q, W_K and W_V have biases"),
        field("o_bias", &ModelShape::o_bias, "W_O has a bias"),
        field("mlp_bias", &ModelShape::mlp_bias, "the MLP's matrices have biases"),
        field("qk_norm", &ModelShape::qk_norm, "a gain of d_head on every head's q and k")};
  }
};

// One layer's parameters, by part.
struct LayerParameters {
  std::int64_t w_q = 0, w_k = 0, w_v = 0, w_o = 0;
  std::int64_t qk_norm = 0;
  std::int64_t attention = 0;
  std::int64_t mlp = 0;
  std::int64_t norms = 0;
  std::int64_t total = 0;

  static constexpr const char* kName = "LayerParameters";
  static constexpr auto fields() {
    return std::tuple{field("w_q", &LayerParameters::w_q,
                            "W_Q's parameters, with its bias if any: C·h·d_head (+ h·d_head)"),
                      field("w_k", &LayerParameters::w_k, "W_K's: C·h_kv·d_head (+ h_kv·d_head)"),
                      field("w_v", &LayerParameters::w_v, "W_V's, as W_K's"),
                      field("w_o", &LayerParameters::w_o, "W_O's: h·d_head·C (+ C)"),
                      field("qk_norm", &LayerParameters::qk_norm, "2·d_head with `qkNorm`, else 0"),
                      field("attention", &LayerParameters::attention, "the five above"),
                      field("mlp", &LayerParameters::mlp, "the MLP's matrices and biases"),
                      field("norms", &LayerParameters::norms,
                            "the layer's norms: before attention and before the MLP"),
                      field("total", &LayerParameters::total, "the layer's parameters")};
  }
};

// What a model's configuration implies; every count exact (64-bit integers).
struct ModelSize {
  // parameters
  std::int64_t embedding = 0;
  std::int64_t positions = 0;
  LayerParameters layer;
  std::int64_t layers = 0;
  std::int64_t attention = 0;
  std::int64_t mlp = 0;
  std::int64_t norms = 0;
  std::int64_t final_norm = 0;
  std::int64_t unembedding = 0;
  std::int64_t total = 0;
  double attention_share = 0;
  // the KV cache: every layer keeps a k and a v row of h_kv·d_head numbers per token
  std::int64_t kv_values_per_token = 0;
  std::int64_t kv_bytes_per_token = 0;
  std::int64_t kv_bytes_context = 0;
  std::int64_t kv_bytes_at = 0;
  std::int64_t kv_saved = 0;
  // one new token, the cache holding n − 1 before it: multiply-adds
  Index n = 0;
  Cost attention_layer;
  std::int64_t attention_token = 0;
  std::int64_t scores_token = 0;
  std::int64_t mlp_token = 0;
  std::int64_t unembed_token = 0;
  std::int64_t token = 0;

  static constexpr const char* kName = "ModelSize";
  static constexpr auto fields() {
    return std::tuple{
        field("embedding", &ModelSize::embedding, "V·C"),
        field("positions", &ModelSize::positions, "T·C with learned positions, else 0"),
        field("layer", &ModelSize::layer, "one layer, by part"),
        field("layers", &ModelSize::layers, "L · layer.total"),
        field("attention", &ModelSize::attention, "L · layer.attention"),
        field("mlp", &ModelSize::mlp, "L · layer.mlp"),
        field("norms", &ModelSize::norms, "L · layer.norms + the final norm"),
        field("final_norm", &ModelSize::final_norm, "the norm after the last layer"),
        field("unembedding", &ModelSize::unembedding, "V·C when untied, else 0"),
        field("total", &ModelSize::total, "every parameter"),
        field("attention_share", &ModelSize::attention_share, "attention / total"),
        field("kv_values_per_token", &ModelSize::kv_values_per_token,
              "2·L·h_kv·d_head: a k and a v row per layer"),
        field("kv_bytes_per_token", &ModelSize::kv_bytes_per_token, "× bytesPerValue"),
        field("kv_bytes_context", &ModelSize::kv_bytes_context, "× the shape's context"),
        field("kv_bytes_at", &ModelSize::kv_bytes_at, "× n"),
        field("kv_saved", &ModelSize::kv_saved, "bytes per token that h_kv < h saves"),
        field("n", &ModelSize::n, "the context asked for"),
        field("attention_layer", &ModelSize::attention_layer,
              "one layer's attention for a new token that sees n keys"),
        field("attention_token", &ModelSize::attention_token, "L · attentionLayer.total"),
        field("scores_token", &ModelSize::scores_token,
              "L · (scores + weighted sum): the part that grows with n"),
        field("mlp_token", &ModelSize::mlp_token, "L · the MLP's matrix products"),
        field("unembed_token", &ModelSize::unembed_token, "V·C: the logits"),
        field("token", &ModelSize::token,
              "attention, MLP and logits (norms, softmax and exp not counted)")};
  }
};

// The largest sizes a shape may give, chosen so that no count overflows 64 bits: a vocabulary,
// a context and n up to 2^22 tokens, d_model 2^16, d_head 2^12, d_ff 2^18, 2^10 layers and
// heads, 1 to 8 bytes a value. A result whose counts pass 2^53 (JS's exact integers) is refused.
inline constexpr Index kMaxShapeTokens = Index{1} << 22;
inline constexpr Index kMaxShapeModel = Index{1} << 16;
inline constexpr Index kMaxShapeHead = Index{1} << 12;
inline constexpr Index kMaxShapeFf = Index{1} << 18;
inline constexpr Index kMaxShapeLayers = 1024;
inline constexpr Index kMaxShapeHeads = 1024;

// Checks a shape: "kv_heads is 3; it must divide heads (32)", "mlp is "swish"; it must be
// gelu, gated or none".
std::string check_model_shape(const ModelShape& shape);

// The sizes of `shape`, its KV cache and one token's multiply-adds at context n (1 ≤ n ≤
// 2^22; n may pass the shape's own context, as a what-if), values of bytes_per_value bytes
// (2: 16-bit).
Result<ModelSize> model_size(const ModelShape& shape, Index n, Index bytes_per_value = 2);

}  // namespace attention
