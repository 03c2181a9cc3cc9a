// sizes.cpp: a configuration's parameters, KV cache and multiply-adds (sizes.hpp), counted part
// by part as the configuration's tensors are laid out, in 64-bit integers.
#include "sizes.hpp"

#include <algorithm>
#include <utility>

#include "support.hpp"

namespace attention {

namespace {

std::string one_of(const std::string& name, const std::string& value, const char* choices) {
  return name + " is \"" + value + "\"; it must be " + choices;
}

}  // namespace

std::string check_model_shape(const ModelShape& s) {
  const struct {
    const char* name;
    Index value, low, high;
  } sizes[] = {
      {"vocab", s.vocab, 1, kMaxShapeTokens},    {"context", s.context, 1, kMaxShapeTokens},
      {"d_model", s.d_model, 1, kMaxShapeModel}, {"layers", s.layers, 1, kMaxShapeLayers},
      {"heads", s.heads, 1, kMaxShapeHeads},     {"kv_heads", s.kv_heads, 1, kMaxShapeHeads},
      {"d_head", s.d_head, 1, kMaxShapeHead},    {"d_ff", s.d_ff, 0, kMaxShapeFf}};
  for (const auto& size : sizes) {
    if (size.value < size.low || size.value > size.high) {
      return range_error(size.name, size.value, size.low, size.high);
    }
  }
  if (s.heads % s.kv_heads != 0) {
    return "kv_heads is " + std::to_string(s.kv_heads) + "; it must divide heads (" +
           std::to_string(s.heads) + "): each key-value head serves the same number of query heads";
  }
  if (s.mlp != "gelu" && s.mlp != "gated" && s.mlp != "none") {
    return one_of("mlp", s.mlp, "gelu, gated or none");
  }
  if ((s.mlp == "none") != (s.d_ff == 0)) {
    return s.mlp == "none"
               ? "d_ff is " + std::to_string(s.d_ff) + "; with mlp \"none\" it must be 0"
               : "d_ff is 0; with mlp \"" + s.mlp + "\" it must be from 1 to " +
                     std::to_string(kMaxShapeFf);
  }
  if (s.mlp == "none" && s.mlp_bias) return "mlp_bias is true, but mlp is \"none\"";
  if (s.norm != "layer" && s.norm != "rms") return one_of("norm", s.norm, "layer or rms");
  if (s.positions != "learned" && s.positions != "rotary") {
    return one_of("positions", s.positions, "learned or rotary");
  }
  return {};
}

Result<ModelSize> model_size(const ModelShape& s, Index n, Index bytes_per_value) {
  if (auto error = check_model_shape(s); !error.empty()) return {{}, error};
  if (n < 1 || n > kMaxShapeTokens) return {{}, range_error("n", n, 1, kMaxShapeTokens)};
  if (bytes_per_value < 1 || bytes_per_value > 8) {
    return {{}, range_error("bytes_per_value", bytes_per_value, 1, 8)};
  }
  using I = std::int64_t;
  const I V = s.vocab, T = s.context, C = s.d_model, L = s.layers, h = s.heads, h_kv = s.kv_heads,
          d = s.d_head, ff = s.d_ff, bytes = bytes_per_value;
  const I norm = s.norm == "layer" ? 2 * C : C;  // a LayerNorm's gain and bias; RMSNorm's gain
  ModelSize m;

  // parameters: the embedding, then one layer as its tensors are laid out, then the end
  m.embedding = V * C;
  m.positions = s.positions == "learned" ? T * C : 0;
  LayerParameters& p = m.layer;
  p.w_q = C * h * d + (s.qkv_bias ? h * d : 0);
  p.w_k = C * h_kv * d + (s.qkv_bias ? h_kv * d : 0);
  p.w_v = p.w_k;
  p.w_o = h * d * C + (s.o_bias ? C : 0);
  p.qk_norm = s.qk_norm ? 2 * d : 0;
  p.attention = p.w_q + p.w_k + p.w_v + p.w_o + p.qk_norm;
  const I mlp_matrices = s.mlp == "gated" ? 3 : s.mlp == "gelu" ? 2 : 0;
  const I mlp_biases = !s.mlp_bias ? 0 : (mlp_matrices - 1) * ff + C;  // the hidden ones, then C
  p.mlp = mlp_matrices * C * ff + mlp_biases;
  p.norms = (s.mlp == "none" ? 1 : 2) * norm;
  p.total = p.attention + p.mlp + p.norms;
  m.layers = L * p.total;
  m.attention = L * p.attention;
  m.final_norm = norm;
  m.mlp = L * p.mlp;
  m.norms = L * p.norms + m.final_norm;
  m.unembedding = s.tied ? 0 : V * C;
  m.total = m.embedding + m.positions + m.layers + m.final_norm + m.unembedding;
  m.attention_share = double(m.attention) / double(m.total);

  // the KV cache
  m.kv_values_per_token = 2 * L * h_kv * d;
  m.kv_bytes_per_token = m.kv_values_per_token * bytes;
  m.kv_bytes_context = m.kv_bytes_per_token * T;
  m.kv_bytes_at = m.kv_bytes_per_token * n;
  m.kv_saved = 2 * L * (h - h_kv) * d * bytes;

  // one new token at context n
  m.n = n;
  m.attention_layer = decode_cost(C, h, h_kv, d, n);
  m.attention_token = L * m.attention_layer.total;
  m.scores_token = L * (m.attention_layer.scores + m.attention_layer.weighted_sum);
  m.mlp_token = L * mlp_matrices * C * ff;
  m.unembed_token = V * C;
  m.token = m.attention_token + m.mlp_token + m.unembed_token;

  constexpr std::int64_t exact = std::int64_t{1} << 53;
  for (const auto& [name, value] : {std::pair{"its parameters", m.total},
                                    {"its KV cache", std::max(m.kv_bytes_context, m.kv_bytes_at)},
                                    {"a token's multiply-adds", m.token}}) {
    if (value >= exact) {
      return {{},
              std::string(name) + " would count " + number(double(value)) +
                  ", past 2^53, the largest whole number JS holds exactly"};
    }
  }
  return {std::move(m), {}};
}

}  // namespace attention
