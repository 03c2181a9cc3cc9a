// multihead.hpp: attention as it sits inside a model. Multi-head self-attention with grouped-query
// heads (h_kv key-value heads shared by h query heads), one decoding step against a KV cache,
// and word order: sinusoidal position encodings added to X, or rotary encodings (RoPE) applied
// to Q and K. Double precision, for teaching: every intermediate number is kept in the trace.
//
// Same conventions as attention.hpp: row-major matrices, no exceptions, a Result whose `error`
// names the argument and the shapes, rows and columns counted from 1 in messages.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "attention.hpp"

namespace attention {

enum class Positions {
  kNone,
  kSinusoidal,  // PE (n, d_model) added to the rows of X before the projections
  kRotary,      // RoPE: the pairs (2i, 2i+1) of every head's q and k rows rotated by pos·θ_i
};

struct MultiHeadOptions {
  Index heads = 1;     // h, the query heads
  Index kv_heads = 0;  // h_kv, the key-value heads; 0 means h. h_kv must divide h
  bool causal = false;
  Positions positions = Positions::kNone;
  double base = 10000;          // θ_i = base^(−2i/d): 10000 in both papers
  double pe_scale = 1;          // X + pe_scale·PE with sinusoidal positions: 1 in the paper
  std::optional<double> scale;  // default 1/√d_head
};

// The weights of one multi-head attention layer.
struct MultiHeadWeights {
  Matrix<double> W_Q;  // (d_model, h·d_head)
  Matrix<double> W_K;  // (d_model, h_kv·d_head)
  Matrix<double> W_V;  // (d_model, h_kv·d_head)
  Matrix<double> W_O;  // (h·d_head, d_model)
};

// Angles of position encodings: angles(p, i) = pos_p·θ_i with θ_i = base^(−2i/d).
struct PositionTrace {
  std::vector<double> positions;
  Vector<double> theta;
  Matrix<double> angles;
  Matrix<double> cos, sin;

  static constexpr const char* kName = "PositionAngles";
  static constexpr auto fields() {
    return std::tuple{field("positions", &PositionTrace::positions,
                            "The position of each row; 0 is the first token."),
                      field("theta", &PositionTrace::theta, "(⌈d/2⌉) θ_i"),
                      field("angles", &PositionTrace::angles, "(n, ⌈d/2⌉) pos·θ_i"),
                      field("cos", &PositionTrace::cos, "(n, d_head/2) cos of the angles"),
                      field("sin", &PositionTrace::sin, "(n, d_head/2) sin of the angles")};
  }
};

// Sinusoidal encodings ("Attention Is All You Need"): PE(pos, 2i) = sin(pos·θ_i),
// PE(pos, 2i+1) = cos(pos·θ_i), θ_i = base^(−2i/d_model).
struct SinusoidalTrace {
  PositionTrace angles;
  Matrix<double> encoding;

  static constexpr const char* kName = "SinusoidalTrace";
  static constexpr auto fields() {
    return std::tuple{
        inlined(&SinusoidalTrace::angles),
        field("encoding", &SinusoidalTrace::encoding,
              "(n, d_model): PE[pos][2i] = sin(pos·θ_i), PE[pos][2i+1] = cos(pos·θ_i).")};
  }
};

// RoPE on the interleaved pairs (2i, 2i+1) of each block of d_head columns (RoFormer):
// out[2i] = x[2i]·cos − x[2i+1]·sin, out[2i+1] = x[2i]·sin + x[2i+1]·cos, angle pos·θ_i,
// θ_i = base^(−2i/d_head).
struct RotaryTrace {
  PositionTrace angles;  // (n, d_head/2)
  Matrix<double> rotated;

  static constexpr const char* kName = "RotaryTrace";
  static constexpr auto fields() {
    return std::tuple{
        inlined(&RotaryTrace::angles),
        field("rotated", &RotaryTrace::rotated,
              "The input with the pairs (2i, 2i+1) of every d_head block rotated by pos·θ_i.")};
  }
};

struct MultiHeadTrace {
  Index d_head = 0;
  Index heads = 0, kv_heads = 0;
  std::vector<Index> kv_head;
  Matrix<double> x;
  std::optional<SinusoidalTrace> sinusoidal;
  Matrix<double> q;
  Matrix<double> k;
  Matrix<double> v;
  std::optional<RotaryTrace> q_rotated, k_rotated;
  // One trace per query head; its q, k and v are the head's own columns (after RoPE), so that
  // head i's q is columns i·d_head+1 … (i+1)·d_head of Q, and its k and v those of head
  // kv_head[i].
  std::vector<Trace<double>> head;
  Matrix<double> concat;
  Matrix<double> output;

  static constexpr const char* kName = "MultiHeadTrace";
  static constexpr auto fields() {
    return std::tuple{
        field("h", &MultiHeadTrace::heads, "the query heads"),
        field("h_kv", &MultiHeadTrace::kv_heads, "the key-value heads"),
        field("d_head", &MultiHeadTrace::d_head, "each head's width: W_Q's columns / h"),
        field("kv_head", &MultiHeadTrace::kv_head,
              "(h) the key-value head each query head reads, 0-based: ⌊i·h_kv/h⌋."),
        field("x", &MultiHeadTrace::x,
              "(n, d_model) the input, with the sinusoidal encodings added when asked."),
        sometimes("sinusoidal", &MultiHeadTrace::sinusoidal,
                  "the encodings added to X, with sinusoidal positions"),
        field("q", &MultiHeadTrace::q, "(n, h·d_head) X·W_Q, before RoPE"),
        field("k", &MultiHeadTrace::k, "(n, h_kv·d_head) X·W_K, before RoPE"),
        field("v", &MultiHeadTrace::v, "(n, h_kv·d_head) X·W_V"),
        sometimes("q_rotated", &MultiHeadTrace::q_rotated, "RoPE on Q, with rotary positions"),
        sometimes("k_rotated", &MultiHeadTrace::k_rotated, "RoPE on K, with rotary positions"),
        field("heads", &MultiHeadTrace::head,
              "One trace per query head; its q, k, v are the head's own columns (after RoPE)."),
        field("concat", &MultiHeadTrace::concat, "(n, h·d_head) the heads' outputs side by side."),
        field("output", &MultiHeadTrace::output, "(n, d_model) concat·W_O")};
  }
};

// X (n, d_model) → the multi-head trace.
Result<MultiHeadTrace> multi_head_attention(const MatrixRef<double>& X,
                                            const MultiHeadWeights& weights,
                                            const MultiHeadOptions& options = {});

// Multiply-adds of matrix products (exp, the softmax's sums and the rotations not counted).
struct Cost {
  std::int64_t projections = 0;
  std::int64_t scores = 0;
  std::int64_t weighted_sum = 0;
  std::int64_t output = 0;
  std::int64_t total = 0;

  static constexpr const char* kName = "Cost";
  static constexpr auto fields() {
    return std::tuple{
        field("projections", &Cost::projections,
              "multiply-adds of Q, K and V for the rows computed"),
        field("scores", &Cost::scores, "of q·k over the (query, key) pairs a causal pass needs"),
        field("weighted_sum", &Cost::weighted_sum, "of weights·V over the same pairs"),
        field("output", &Cost::output, "of concat·W_O"), field("total", &Cost::total, "their sum")};
  }
};

// One token's multiply-adds in one layer, the KV cache holding its n − 1 predecessors (the token
// sees n keys): its q, k, v rows d_model·(h + 2·h_kv)·d_head, its scores and its weighted sum
// h·n·d_head each, the output h·d_head·d_model. The KV-cache lab's counter and the sizes of real
// models (sizes.hpp) both count with it.
Cost decode_cost(std::int64_t d_model, std::int64_t h, std::int64_t h_kv, std::int64_t d_head,
                 std::int64_t n);

// One decoding step: token number length+1 arrives; its K and V rows join the cache and its
// query attends to every cached key. The cache's K rows are stored after RoPE, as models do.
struct DecodeStep {
  Index position = 0;
  Matrix<double> k_cache;
  Matrix<double> v_cache;
  MultiHeadTrace trace;
  Cost cost;
  Cost full;

  static constexpr const char* kName = "DecodeStep";
  static constexpr auto fields() {
    return std::tuple{
        field("position", &DecodeStep::position, "The new token's position, 0 for the first."),
        field("k_cache", &DecodeStep::k_cache,
              "(t + 1, h_kv·d_head) the new cache's keys, one row longer than the cache passed in"),
        field("v_cache", &DecodeStep::v_cache,
              "(t + 1, h_kv·d_head) the new cache's values, one row longer"),
        field(
            "trace", &DecodeStep::trace,
            "The new token's row of everything: its heads attend to every cached key and itself."),
        field("cost", &DecodeStep::cost, "What this step did."),
        field("full", &DecodeStep::full, "What a causal pass over all cache.length tokens does.")};
  }
};

// x (1, d_model), k_cache and v_cache (length, h_kv·d_head), length ≥ 0. options.causal is
// implied (the new token sees the cache and itself).
Result<DecodeStep> decode_step(const MatrixRef<double>& x, const MatrixRef<double>& k_cache,
                               const MatrixRef<double>& v_cache, const MultiHeadWeights& weights,
                               const MultiHeadOptions& options = {});

// The encodings alone, for the page's word-order lab: rows at `positions`, d columns.
Result<SinusoidalTrace> sinusoidal_positions(const std::vector<double>& positions, Index d_model,
                                             double base = 10000);
// M (n, h·d_head) with row p at positions[p]: every d_head block rotated.
Result<RotaryTrace> rotary(const MatrixRef<double>& M, const std::vector<double>& positions,
                           Index d_head, double base = 10000);

}  // namespace attention
