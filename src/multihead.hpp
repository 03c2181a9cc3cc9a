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
  std::vector<double> positions;  // (n) the position of each row, 0 for the first token
  Vector<double> theta;           // (⌈d/2⌉) θ_i
  Matrix<double> angles;          // (n, ⌈d/2⌉) pos·θ_i
  Matrix<double> cos, sin;        // (n, ⌈d/2⌉) cos and sin of the angles

  static constexpr const char* kName = "PositionAngles";
  static constexpr auto fields() {
    return std::tuple{field("positions", &PositionTrace::positions),
                      field("theta", &PositionTrace::theta),
                      field("angles", &PositionTrace::angles), field("cos", &PositionTrace::cos),
                      field("sin", &PositionTrace::sin)};
  }
};

// Sinusoidal encodings ("Attention Is All You Need"): PE(pos, 2i) = sin(pos·θ_i),
// PE(pos, 2i+1) = cos(pos·θ_i), θ_i = base^(−2i/d_model).
struct SinusoidalTrace {
  PositionTrace angles;
  Matrix<double> encoding;  // (n, d_model)

  static constexpr const char* kName = "SinusoidalTrace";
  static constexpr auto fields() {
    return std::tuple{inlined(&SinusoidalTrace::angles),
                      field("encoding", &SinusoidalTrace::encoding)};
  }
};

// RoPE on the interleaved pairs (2i, 2i+1) of each block of d_head columns (RoFormer):
// out[2i] = x[2i]·cos − x[2i+1]·sin, out[2i+1] = x[2i]·sin + x[2i+1]·cos, angle pos·θ_i,
// θ_i = base^(−2i/d_head).
struct RotaryTrace {
  PositionTrace angles;    // (n, d_head/2)
  Matrix<double> rotated;  // the same shape as the input

  static constexpr const char* kName = "RotaryTrace";
  static constexpr auto fields() {
    return std::tuple{inlined(&RotaryTrace::angles), field("rotated", &RotaryTrace::rotated)};
  }
};

struct MultiHeadTrace {
  Index d_head = 0;
  Index heads = 0, kv_heads = 0;
  std::vector<Index> kv_head;  // (h) the key-value head each query head reads, ⌊i·h_kv/h⌋
  Matrix<double> x;            // (n, d_model) the input, with the sinusoidal encodings added
  std::optional<SinusoidalTrace> sinusoidal;
  Matrix<double> q;                                 // (n, h·d_head)     X·W_Q
  Matrix<double> k;                                 // (n, h_kv·d_head)  X·W_K
  Matrix<double> v;                                 // (n, h_kv·d_head)  X·W_V
  std::optional<RotaryTrace> q_rotated, k_rotated;  // RoPE on q and k
  // One trace per query head; its q, k and v are the head's own columns (after RoPE), so that
  // head i's q is columns i·d_head+1 … (i+1)·d_head of Q, and its k and v those of head
  // kv_head[i].
  std::vector<Trace<double>> head;
  Matrix<double> concat;  // (n, h·d_head) the heads' outputs side by side
  Matrix<double> output;  // (n, d_model)  concat·W_O

  static constexpr const char* kName = "MultiHeadTrace";
  static constexpr auto fields() {
    return std::tuple{field("h", &MultiHeadTrace::heads),
                      field("h_kv", &MultiHeadTrace::kv_heads),
                      field("d_head", &MultiHeadTrace::d_head),
                      field("kv_head", &MultiHeadTrace::kv_head),
                      field("x", &MultiHeadTrace::x),
                      field("sinusoidal", &MultiHeadTrace::sinusoidal),
                      field("q", &MultiHeadTrace::q),
                      field("k", &MultiHeadTrace::k),
                      field("v", &MultiHeadTrace::v),
                      field("q_rotated", &MultiHeadTrace::q_rotated),
                      field("k_rotated", &MultiHeadTrace::k_rotated),
                      field("heads", &MultiHeadTrace::head),
                      field("concat", &MultiHeadTrace::concat),
                      field("output", &MultiHeadTrace::output)};
  }
};

// X (n, d_model) → the multi-head trace.
Result<MultiHeadTrace> multi_head_attention(const MatrixRef<double>& X,
                                            const MultiHeadWeights& weights,
                                            const MultiHeadOptions& options = {});

// Multiply-adds of matrix products (exp, the softmax's sums and the rotations not counted).
struct Cost {
  std::int64_t projections = 0;   // Q, K and V of the rows computed
  std::int64_t scores = 0;        // q·k over the (query, key) pairs a causal pass needs
  std::int64_t weighted_sum = 0;  // weights·V over the same pairs
  std::int64_t output = 0;        // concat·W_O
  std::int64_t total = 0;

  static constexpr const char* kName = "Cost";
  static constexpr auto fields() {
    return std::tuple{field("projections", &Cost::projections), field("scores", &Cost::scores),
                      field("weighted_sum", &Cost::weighted_sum), field("output", &Cost::output),
                      field("total", &Cost::total)};
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
  Index position = 0;      // of the new token, 0 for the first
  Matrix<double> k_cache;  // (length+1, h_kv·d_head) the cache after this step
  Matrix<double> v_cache;  // (length+1, h_kv·d_head)
  MultiHeadTrace trace;    // the new token's row only: q, k, v (1, …), heads with 1 query row
  Cost cost;               // what this step did
  Cost full;               // what a causal pass over all length+1 tokens does

  static constexpr const char* kName = "DecodeStep";
  static constexpr auto fields() {
    return std::tuple{
        field("position", &DecodeStep::position), field("k_cache", &DecodeStep::k_cache),
        field("v_cache", &DecodeStep::v_cache),   field("trace", &DecodeStep::trace),
        field("cost", &DecodeStep::cost),         field("full", &DecodeStep::full)};
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
