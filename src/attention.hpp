// attention.hpp: scaled dot-product attention, softmax(Q·Kᵀ·scale)·V, computed as a trace of
// named steps so that every intermediate number can be shown and checked by hand.
//
// No exceptions: every entry point validates its input and returns a Result whose `error`
// names the argument and the shapes. Matrices are row-major, so JS rows map in directly.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fields.hpp"

namespace attention {

using Index = Eigen::Index;
template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <typename T>
using MatrixRef = Eigen::Ref<const Matrix<T>>;
using Mask = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Size limits: every dimension is at most kMaxDim, and every matrix of a trace holds at most
// kMaxValues numbers. A whole trace (six n_q×n_k matrices of doubles, 192 MiB) then fits the
// WASM heap. Larger inputs are an error, not an out-of-memory abort. (The batched path is
// limited by bytes instead: kMaxBytes below.)
inline constexpr Index kMaxDim = 8192;
inline constexpr Index kMaxValues = Index{1} << 22;

enum class MaskKind {
  kNone,
  kCausal,    // query i sees keys 0..i (top-left aligned when n_q != n_k)
  kExplicit,  // Options::mask, (n_q, n_k), true where query i may attend to key j
};

struct Options {
  std::optional<double> scale;  // default 1/√d_k
  MaskKind mask_kind = MaskKind::kNone;
  Mask mask;  // (n_q, n_k), used when mask_kind is kExplicit
  // What a masked cell becomes: −∞ (then exp gives exactly 0, and a row whose keys are all
  // masked is blocked: weights 0, output 0), or a finite number such as −1e9, as many
  // implementations use (then such a row spreads its weight evenly over the masked keys).
  double mask_value = -std::numeric_limits<double>::infinity();
  double dropout_p = 0.0;  // in [0, 1); 0 turns dropout off
  std::uint64_t seed = 0;  // dropout's random stream
};

// Whether the mask hides key j from query i.
inline bool blocked(const Options& options, Index i, Index j) {
  switch (options.mask_kind) {
    case MaskKind::kCausal:
      return j > i;
    case MaskKind::kExplicit:
      return !options.mask(i, j);
    default:
      return false;
  }
}

// The named steps, numbered as the README and the page number them (the page's step ids are
// these names: projections, scores, scaled, masked, weights, output). A query row whose keys
// are all masked has weights 0 and output 0, and is listed in blocked_rows; it never yields NaN.
template <typename T>
struct Trace {
  // projections, set by self_attention only
  Matrix<T> q, k, v;
  // 1 scores
  Matrix<T> scores;
  // 2 scaled
  Matrix<T> scaled;
  // 3 masked: scaled, with the mask value (−∞) where blocked; empty without a mask
  Matrix<T> masked;
  // 4 weights: the softmax of each row, and the weights after dropout
  Vector<T> row_max;
  Matrix<T> exp;
  Vector<T> row_sum;
  Matrix<T> weights;
  Matrix<T> dropped;
  // 5 output
  Matrix<T> output;
  std::vector<Index> blocked_rows;
  T scale = 0;

  static constexpr const char* kName = "Trace";
  static constexpr auto fields() {
    return std::tuple{
        sometimes("q", &Trace::q, "(n, d_k) X·W_Q: selfAttention's only (see SelfAttentionTrace)"),
        sometimes("k", &Trace::k, "(n, d_k) X·W_K: selfAttention's only"),
        sometimes("v", &Trace::v, "(n, d_v) X·W_V: selfAttention's only"),
        field("scores", &Trace::scores, "(n_q, n_k) Q·Kᵀ"),
        field("scaled", &Trace::scaled, "(n_q, n_k) scores × scale"),
        sometimes("masked", &Trace::masked,
                  "(n_q, n_k) scaled, with the mask value (maskValue, −Infinity by default) where "
                  "a key is hidden; present only with a mask."),
        field("row_max", &Trace::row_max,
              "(n_q) the largest logit of each row, subtracted before exp."),
        field("exp", &Trace::exp, "(n_q, n_k) exp(logit − rowMax)."),
        field("row_sum", &Trace::row_sum, "(n_q) the sum of each row of exp."),
        field("weights", &Trace::weights,
              "(n_q, n_k) exp / rowSum: each row sums to 1, or is all 0 for a blocked row."),
        sometimes("dropped", &Trace::dropped,
                  "(n_q, n_k) weights after dropout; present only with dropout."),
        field("output", &Trace::output, "(n_q, d_v) weights·V (dropped·V with dropout)."),
        field("blocked_rows", &Trace::blocked_rows,
              "Query rows whose keys are all masked: their weights and output are 0."),
        field("scale", &Trace::scale, "The scale that was used.")};
  }
};

template <typename T>
struct Result {
  T value;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

// Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v) → the trace. Cross-attention in general.
template <typename T>
Result<Trace<T>> attend(const MatrixRef<T>& Q, const MatrixRef<T>& K, const MatrixRef<T>& V,
                        const Options& options = {});

// X (n, d_model), W_Q and W_K (d_model, d_k), W_V (d_model, d_v) → the trace with q, k, v.
template <typename T>
Result<Trace<T>> self_attention(const MatrixRef<T>& X, const MatrixRef<T>& W_Q,
                                const MatrixRef<T>& W_K, const MatrixRef<T>& W_V,
                                const Options& options = {});

// The shape of article 000's calculate_attention: [batch, heads, seq, dim].
// 64-bit, so that products of the dimensions are checked against the limits without overflow
// in wasm32.
struct BatchShape {
  std::int64_t batch = 0, heads = 0, n_q = 0, n_k = 0, d_k = 0, d_v = 0;
};

// A batched call is limited by the memory it takes, not by a count of values: every dimension
// is at most kMaxDim, and all its buffers together take at most kMaxBytes, the WASM module's
// maximum memory. The native build keeps the same limit, so both refuse the same calls.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 30;

struct BatchOptions {
  bool weights = true;     // also return the (n_q, n_k) weights of every head
  bool reference = false;  // run compute() (Eigen) head by head instead of the fast kernel
};

// Every buffer of one batched call and its size, worked out before anything is allocated.
// Sizes are in floats, except `reference`.
struct BatchPlan {
  std::int64_t q = 0, k = 0, v = 0;  // the inputs
  std::int64_t output = 0;           // (batch, heads, n_q, d_v)
  std::int64_t weights = 0;          // (batch, heads, n_q, n_k); 0 without the weights
  std::int64_t workspace = 0;        // the fast kernel's tiles; 0 on the reference
  std::int64_t reference = 0;        // bytes the reference allocates itself for one head
  bool fast = true;  // the fast kernel runs; false when asked for the reference, or with an
                     // explicit mask or dropout, which only the reference handles
};

// The buffers of a planned call, all float32, owned by the caller. The workspace is 16-byte
// aligned.
struct BatchBuffers {
  const float* q = nullptr;    // (batch, heads, n_q, d_k)
  const float* k = nullptr;    // (batch, heads, n_k, d_k)
  const float* v = nullptr;    // (batch, heads, n_k, d_v)
  float* output = nullptr;     // (batch, heads, n_q, d_v)
  float* weights = nullptr;    // (batch, heads, n_q, n_k), when plan.weights > 0
  float* workspace = nullptr;  // plan.workspace floats
};

// Checks the shape, the options, the inputs' sizes (q_size, k_size, v_size floats) and the
// limits, and plans the call.
Result<BatchPlan> plan_batched(const BatchShape& shape, std::int64_t q_size, std::int64_t k_size,
                               std::int64_t v_size, const Options& options = {},
                               const BatchOptions& batch = {});

// Runs a planned call: the outputs are written into buffers.output (and buffers.weights).
// Returns an error, for a non-finite input or an overflow, or "" on success.
std::string run_batched(const BatchShape& shape, const Options& options, const BatchPlan& plan,
                        const BatchBuffers& buffers);

struct Batch {
  std::vector<float> output;   // (batch, heads, n_q, d_v)
  std::vector<float> weights;  // (batch, heads, n_q, n_k), after dropout when it is on; empty
                               // without the weights
};

// q (batch, heads, n_q, d_k), k (batch, heads, n_k, d_k), v (batch, heads, n_k, d_v), float32:
// plan_batched and run_batched on buffers allocated here. An explicit mask is (n_q, n_k) and
// applies to every head. Dropout draws one stream, head by head in order.
Result<Batch> attend_batched(const std::vector<float>& q, const std::vector<float>& k,
                             const std::vector<float>& v, const BatchShape& shape,
                             const Options& options = {}, const BatchOptions& batch = {});

}  // namespace attention
