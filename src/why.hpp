// why.hpp: the labs of "why it is built this way". Online softmax as FlashAttention
// tiles it, the statistics behind the 1/√d_k scale, and dropout's statistics over many draws.
// All in double, with the same Result errors as attention.hpp; the mask value (−∞ or −1e9) is
// an option of attention.hpp itself.
#pragma once

#include <cstdint>
#include <vector>

#include "attention.hpp"

namespace attention {

// ---- online softmax: the keys in blocks, a running max m and sum ℓ per query row ----

// The state of every query row after one block of keys.
struct TiledBlock {
  Index start = 0, end = 0;
  Matrix<double> logits;
  // to the mask value
  Vector<double> block_max;
  Vector<double> m;
  Vector<double> rescale;
  //        before this block's terms are added (1 when m stays)
  Matrix<double> p;
  Vector<double> l;
  Matrix<double> acc;
  Matrix<double> partial;
  //             (0 while ℓ is 0)

  static constexpr const char* kName = "TiledBlock";
  static constexpr auto fields() {
    return std::tuple{
        field("start", &TiledBlock::start, "the block's first key, 0-based"),
        field("end", &TiledBlock::end, "one past its last key"),
        field("logits", &TiledBlock::logits,
              "(n_q, end − start) the block's scaled scores, masked cells at the mask value"),
        field("block_max", &TiledBlock::block_max, "(n_q) the block's largest logit"),
        field("m", &TiledBlock::m, "(n_q) the running max m after this block"),
        field("rescale", &TiledBlock::rescale,
              "(n_q) exp(m_old − m_new), what ℓ and acc were multiplied by (1 when m stayed)"),
        field("p", &TiledBlock::p, "(n_q, end − start) exp(logit − m)"),
        field("l", &TiledBlock::l, "(n_q) the running sum ℓ"),
        field("acc", &TiledBlock::acc,
              "(n_q, d_v) the unnormalised output Σ exp(logit − m)·v so far"),
        field("partial", &TiledBlock::partial,
              "(n_q, d_v) acc / ℓ: the output if these were all the keys (0 while ℓ is 0)")};
  }
};

struct TiledTrace {
  Index block = 0;
  double scale = 0;
  std::vector<TiledBlock> blocks;
  Matrix<double> output;
  Matrix<double> full;
  double max_difference = 0;
  std::vector<Index> blocked_rows;

  static constexpr const char* kName = "TiledTrace";
  static constexpr auto fields() {
    return std::tuple{
        field("block", &TiledTrace::block, "keys per block (the last block may be shorter)"),
        field("scale", &TiledTrace::scale, "1/√d_k unless given"),
        field("blocks", &TiledTrace::blocks, "every block, in order"),
        field("output", &TiledTrace::output, "(n_q, d_v) after the last block"),
        field("full", &TiledTrace::full, "(n_q, d_v) the whole-row computation's output"),
        field("max_difference", &TiledTrace::max_difference, "The largest \\|output − full\\|."),
        field("blocked_rows", &TiledTrace::blocked_rows,
              "rows whose keys are all masked (ℓ = 0): output 0")};
  }
};

// Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v); block from 1 to n_k. Options as attend()'s, with
// no dropout. The blocks keep n_q·(2·block + 2·d_v + 4) numbers each; all of them together
// are limited to kMaxValues.
Result<TiledTrace> tiled_attention(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                   const MatrixRef<double>& V, Index block,
                                   const Options& options = {});

// ---- why 1/√d_k: seeded unit-variance q and k ----

// rows queries and n_keys keys for each, every entry drawn from N(0, 1) with a seeded stream
// (splitmix64 and Box–Muller: the same numbers natively and in WASM).
struct ScalingBatch {
  Matrix<double> q;
  Matrix<double>
      k;  // (rows·n_keys, d_k): the keys of query r are rows r·n_keys … r·n_keys + n_keys − 1

  static constexpr const char* kName = "ScalingBatch";
  static constexpr auto fields() {
    return std::tuple{
        field("q", &ScalingBatch::q, "(rows, dK) seeded unit-variance queries"),
        field("k", &ScalingBatch::k,
              "(rows·nKeys, dK) the keys: query r's are rows r·nKeys … r·nKeys + nKeys − 1")};
  }
};

Result<ScalingBatch> scaling_batch(Index d_k, Index n_keys, Index rows, std::uint64_t seed);

// What scaling_batch's numbers give.
struct ScalingStats {
  Index d_k = 0, n_keys = 0, rows = 0;
  double scale = 0;
  double score_mean = 0;
  double score_variance = 0;
  double scaled_variance = 0;
  double max_weight_unscaled = 0;
  double max_weight_scaled = 0;
  double one_hot_unscaled = 0;
  double one_hot_scaled = 0;
  Vector<double> example_q;
  Matrix<double> example_k;
  Vector<double> example_scores;
  Vector<double> example_unscaled;
  Vector<double> example_scaled;

  static constexpr const char* kName = "ScalingStats";
  static constexpr auto fields() {
    return std::tuple{
        field("d_k", &ScalingStats::d_k, "as asked"),
        field("n_keys", &ScalingStats::n_keys, "keys per query, as asked"),
        field("rows", &ScalingStats::rows, "queries, as asked"),
        field("scale", &ScalingStats::scale, "1/√dK"),
        field("score_mean", &ScalingStats::score_mean,
              "the mean and the variance of every q·k (the variance is about dK)"),
        field("score_variance", &ScalingStats::score_variance, "their variance (about dK)"),
        field("scaled_variance", &ScalingStats::scaled_variance,
              "the variance of q·k/√dK (about 1)"),
        field("max_weight_unscaled", &ScalingStats::max_weight_unscaled,
              "the mean over the rows of the largest softmax weight, without and with 1/√dK"),
        field("max_weight_scaled", &ScalingStats::max_weight_scaled,
              "the same for softmax(q·k/√dK)"),
        field("one_hot_unscaled", &ScalingStats::one_hot_unscaled,
              "the share of rows whose largest weight is above 0.99"),
        field("one_hot_scaled", &ScalingStats::one_hot_scaled, "the same with the scale"),
        field("example_q", &ScalingStats::example_q,
              "the first query (d_k) and its keys (nKeys × d_k)"),
        field("example_k", &ScalingStats::example_k, "(nKeys, dK) its keys"),
        field("example_scores", &ScalingStats::example_scores, "(nKeys) the first query's q·k"),
        field("example_unscaled", &ScalingStats::example_unscaled, "(nKeys) softmax(q·k)"),
        field("example_scaled", &ScalingStats::example_scaled, "(nKeys) softmax(q·k/√dK)")};
  }
};

Result<ScalingStats> scaling_stats(Index d_k, Index n_keys, Index rows, std::uint64_t seed);

// ---- dropout: one draw, and the average of many ----

inline constexpr Index kMaxDraws = 100000;

struct DropoutStats {
  Matrix<double> weights;
  Matrix<double> output;
  Matrix<double> dropped;
  Vector<double> dropped_row_sums;
  Matrix<double> draw_output;
  Matrix<double> mean_dropped;
  Matrix<double> kept;
  Matrix<double> mean_output;
  double max_difference = 0;
  std::vector<Index> counts;
  std::vector<double> differences;
  // draws' outputs − output|

  static constexpr const char* kName = "DropoutStats";
  static constexpr auto fields() {
    return std::tuple{
        field("weights", &DropoutStats::weights, "(n_q, n_k) and (n_q, d_v) without dropout"),
        field("output", &DropoutStats::output, "(n_q, d_v) the output without dropout"),
        field("dropped", &DropoutStats::dropped,
              "(n_q, n_k) the first draw, its row sums (not 1) and its output"),
        field("dropped_row_sums", &DropoutStats::dropped_row_sums,
              "(n_q) the first draw's row sums: not 1"),
        field("draw_output", &DropoutStats::draw_output, "(n_q, d_v) the first draw's output"),
        field("mean_dropped", &DropoutStats::mean_dropped, "averages over every draw"),
        field("kept", &DropoutStats::kept, "(n_q, n_k) how many draws kept each weight"),
        field("mean_output", &DropoutStats::mean_output,
              "(n_q, d_v) the output, averaged over every draw"),
        field("max_difference", &DropoutStats::max_difference,
              "the largest \\|meanOutput − output\\|"),
        field("counts", &DropoutStats::counts,
              "1, 2, 5, 10 … draws, and the largest \\|average output of that many − output\\|"),
        field("differences", &DropoutStats::differences,
              "for each count, the largest \\|average of that many draws' outputs − output\\|")};
  }
};

// Draw t (0-based) uses the seed options.seed + t; options.dropout_p must be above 0. draws
// from 1 to kMaxDraws, and draws·n_q·n_k at most 2^26 (the work is bounded).
Result<DropoutStats> dropout_stats(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                   const MatrixRef<double>& V, const Options& options, Index draws);

}  // namespace attention
