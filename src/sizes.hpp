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
  Index vocab = 0;     // V, the tokens it knows
  Index context = 0;   // T, the longest sequence it was built for
  Index d_model = 0;   // C, the residual stream's width
  Index layers = 0;    // L
  Index heads = 0;     // h, query heads per layer
  Index kv_heads = 0;  // h_kv, key-value heads per layer (GQA: fewer than h; h_kv divides h)
  Index d_head = 0;    // the width of one head's q, k and v
  Index d_ff = 0;      // the MLP's hidden width (0 with mlp "none")
  std::string mlp = "gelu";
  std::string norm = "layer";
  std::string positions = "rotary";
  bool tied = false;      // the output layer reuses the token embedding (no separate V × C)
  bool qkv_bias = false;  // W_Q, W_K, W_V have biases (GPT-2, Qwen2.5)
  bool o_bias = false;    // W_O has a bias (GPT-2)
  bool mlp_bias = false;  // the MLP's matrices have biases (GPT-2)
  bool qk_norm = false;   // an RMSNorm gain of d_head on every head's q and k (Qwen3)

  static constexpr const char* kName = "ModelShape";
  static constexpr auto fields() {
    return std::tuple{field("vocab", &ModelShape::vocab),
                      field("context", &ModelShape::context),
                      field("d_model", &ModelShape::d_model),
                      field("layers", &ModelShape::layers),
                      field("heads", &ModelShape::heads),
                      field("kv_heads", &ModelShape::kv_heads),
                      field("d_head", &ModelShape::d_head),
                      field("d_ff", &ModelShape::d_ff),
                      field("mlp", &ModelShape::mlp),
                      field("norm", &ModelShape::norm),
                      field("positions", &ModelShape::positions),
                      field("tied", &ModelShape::tied),
                      field("qkv_bias", &ModelShape::qkv_bias),
                      field("o_bias", &ModelShape::o_bias),
                      field("mlp_bias", &ModelShape::mlp_bias),
                      field("qk_norm", &ModelShape::qk_norm)};
  }
};

// One layer's parameters, by part.
struct LayerParameters {
  std::int64_t w_q = 0, w_k = 0, w_v = 0, w_o = 0;  // with their biases, if any
  std::int64_t qk_norm = 0;                         // 2·d_head, or 0
  std::int64_t attention = 0;                       // the five above
  std::int64_t mlp = 0;                             // its matrices and biases
  std::int64_t norms = 0;                           // before attention and before the MLP
  std::int64_t total = 0;

  static constexpr const char* kName = "LayerParameters";
  static constexpr auto fields() {
    return std::tuple{field("w_q", &LayerParameters::w_q),
                      field("w_k", &LayerParameters::w_k),
                      field("w_v", &LayerParameters::w_v),
                      field("w_o", &LayerParameters::w_o),
                      field("qk_norm", &LayerParameters::qk_norm),
                      field("attention", &LayerParameters::attention),
                      field("mlp", &LayerParameters::mlp),
                      field("norms", &LayerParameters::norms),
                      field("total", &LayerParameters::total)};
  }
};

// What a model's configuration implies; every count exact (64-bit integers).
struct ModelSize {
  // parameters
  std::int64_t embedding = 0;    // V·C, the token embedding
  std::int64_t positions = 0;    // T·C with learned positions, else 0
  LayerParameters layer;         // one layer
  std::int64_t layers = 0;       // L · layer.total
  std::int64_t attention = 0;    // L · layer.attention
  std::int64_t mlp = 0;          // L · layer.mlp
  std::int64_t norms = 0;        // L · layer.norms + the final norm
  std::int64_t final_norm = 0;   // the norm after the last layer
  std::int64_t unembedding = 0;  // V·C for an untied output layer, else 0
  std::int64_t total = 0;
  double attention_share = 0;  // attention / total
  // the KV cache: every layer keeps a k and a v row of h_kv·d_head numbers per token
  std::int64_t kv_values_per_token = 0;  // 2·L·h_kv·d_head
  std::int64_t kv_bytes_per_token = 0;   // × bytes_per_value
  std::int64_t kv_bytes_context = 0;     // × the configuration's context T
  std::int64_t kv_bytes_at = 0;          // × the context n asked for
  std::int64_t kv_saved = 0;  // bytes per token that h_kv < h saves: 2·L·(h − h_kv)·d_head·bytes
  // one new token, the cache holding n − 1 before it: multiply-adds
  Index n = 0;                       // the context asked for
  Cost attention_layer;              // one layer's attention (decode_cost)
  std::int64_t attention_token = 0;  // L · attention_layer.total
  std::int64_t scores_token = 0;     // L · (scores + weighted sum): the part that grows with n
  std::int64_t mlp_token = 0;        // L · the MLP's matrix products
  std::int64_t unembed_token = 0;    // V·C, the logits
  std::int64_t token = 0;            // attention + MLP + logits (norms, softmax, exp not counted)

  static constexpr const char* kName = "ModelSize";
  static constexpr auto fields() {
    return std::tuple{field("embedding", &ModelSize::embedding),
                      field("positions", &ModelSize::positions),
                      field("layer", &ModelSize::layer),
                      field("layers", &ModelSize::layers),
                      field("attention", &ModelSize::attention),
                      field("mlp", &ModelSize::mlp),
                      field("norms", &ModelSize::norms),
                      field("final_norm", &ModelSize::final_norm),
                      field("unembedding", &ModelSize::unembedding),
                      field("total", &ModelSize::total),
                      field("attention_share", &ModelSize::attention_share),
                      field("kv_values_per_token", &ModelSize::kv_values_per_token),
                      field("kv_bytes_per_token", &ModelSize::kv_bytes_per_token),
                      field("kv_bytes_context", &ModelSize::kv_bytes_context),
                      field("kv_bytes_at", &ModelSize::kv_bytes_at),
                      field("kv_saved", &ModelSize::kv_saved),
                      field("n", &ModelSize::n),
                      field("attention_layer", &ModelSize::attention_layer),
                      field("attention_token", &ModelSize::attention_token),
                      field("scores_token", &ModelSize::scores_token),
                      field("mlp_token", &ModelSize::mlp_token),
                      field("unembed_token", &ModelSize::unembed_token),
                      field("token", &ModelSize::token)};
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
