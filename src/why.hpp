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
  Index start = 0, end = 0;  // the keys of this block, 0-based, [start, end)
  Matrix<double> logits;     // (n_q, end − start)  the block's scaled scores, masked cells set
                             // to the mask value
  Vector<double> block_max;  // (n_q)  the largest logit of this block
  Vector<double> m;          // (n_q)  the running max after this block
  Vector<double> rescale;    // (n_q)  exp(m_old − m_new): what ℓ and acc are multiplied by
                             //        before this block's terms are added (1 when m stays)
  Matrix<double> p;          // (n_q, end − start)  exp(logit − m_new)
  Vector<double> l;          // (n_q)  the running sum ℓ = ℓ·rescale + Σ p
  Matrix<double> acc;        // (n_q, d_v)  acc·rescale + p·V_block: unnormalised output
  Matrix<double> partial;    // (n_q, d_v)  acc / ℓ: the output if these were all the keys
                             //             (0 while ℓ is 0)

  static constexpr const char* kName = "TiledBlock";
  static constexpr auto fields() {
    return std::tuple{
        field("start", &TiledBlock::start),   field("end", &TiledBlock::end),
        field("logits", &TiledBlock::logits), field("block_max", &TiledBlock::block_max),
        field("m", &TiledBlock::m),           field("rescale", &TiledBlock::rescale),
        field("p", &TiledBlock::p),           field("l", &TiledBlock::l),
        field("acc", &TiledBlock::acc),       field("partial", &TiledBlock::partial)};
  }
};

struct TiledTrace {
  Index block = 0;                  // keys per block (the last block may be shorter)
  double scale = 0;                 // 1/√d_k unless given
  std::vector<TiledBlock> blocks;   // in order
  Matrix<double> output;            // (n_q, d_v)  acc / ℓ after the last block
  Matrix<double> full;              // (n_q, d_v)  attend()'s output: the whole row at once
  double max_difference = 0;        // the largest |output − full|
  std::vector<Index> blocked_rows;  // rows whose keys are all masked (ℓ = 0): output 0

  static constexpr const char* kName = "TiledTrace";
  static constexpr auto fields() {
    return std::tuple{field("block", &TiledTrace::block),
                      field("scale", &TiledTrace::scale),
                      field("blocks", &TiledTrace::blocks),
                      field("output", &TiledTrace::output),
                      field("full", &TiledTrace::full),
                      field("max_difference", &TiledTrace::max_difference),
                      field("blocked_rows", &TiledTrace::blocked_rows)};
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
  Matrix<double> q;  // (rows, d_k)
  Matrix<double>
      k;  // (rows·n_keys, d_k): the keys of query r are rows r·n_keys … r·n_keys + n_keys − 1

  static constexpr const char* kName = "ScalingBatch";
  static constexpr auto fields() {
    return std::tuple{field("q", &ScalingBatch::q), field("k", &ScalingBatch::k)};
  }
};

Result<ScalingBatch> scaling_batch(Index d_k, Index n_keys, Index rows, std::uint64_t seed);

// What scaling_batch's numbers give.
struct ScalingStats {
  Index d_k = 0, n_keys = 0, rows = 0;
  double scale = 0;                // 1/√d_k
  double score_mean = 0;           // the mean of every q·k
  double score_variance = 0;       // their variance (about d_k)
  double scaled_variance = 0;      // the variance of q·k/√d_k (about 1)
  double max_weight_unscaled = 0;  // over the rows, the mean of the largest weight of softmax(q·k)
  double max_weight_scaled = 0;    // the same for softmax(q·k/√d_k)
  double one_hot_unscaled = 0;     // the share of rows whose largest weight is above 0.99
  double one_hot_scaled = 0;       // the same with the scale
  Vector<double> example_q;        // (d_k) the first query
  Matrix<double> example_k;        // (n_keys, d_k) its keys
  Vector<double> example_scores;   // (n_keys) the first query's q·k
  Vector<double> example_unscaled;  // (n_keys) softmax(q·k)
  Vector<double> example_scaled;    // (n_keys) softmax(q·k/√d_k)

  static constexpr const char* kName = "ScalingStats";
  static constexpr auto fields() {
    return std::tuple{field("d_k", &ScalingStats::d_k),
                      field("n_keys", &ScalingStats::n_keys),
                      field("rows", &ScalingStats::rows),
                      field("scale", &ScalingStats::scale),
                      field("score_mean", &ScalingStats::score_mean),
                      field("score_variance", &ScalingStats::score_variance),
                      field("scaled_variance", &ScalingStats::scaled_variance),
                      field("max_weight_unscaled", &ScalingStats::max_weight_unscaled),
                      field("max_weight_scaled", &ScalingStats::max_weight_scaled),
                      field("one_hot_unscaled", &ScalingStats::one_hot_unscaled),
                      field("one_hot_scaled", &ScalingStats::one_hot_scaled),
                      field("example_q", &ScalingStats::example_q),
                      field("example_k", &ScalingStats::example_k),
                      field("example_scores", &ScalingStats::example_scores),
                      field("example_unscaled", &ScalingStats::example_unscaled),
                      field("example_scaled", &ScalingStats::example_scaled)};
  }
};

Result<ScalingStats> scaling_stats(Index d_k, Index n_keys, Index rows, std::uint64_t seed);

// ---- dropout: one draw, and the average of many ----

inline constexpr Index kMaxDraws = 100000;

struct DropoutStats {
  Matrix<double> weights;           // (n_q, n_k)  without dropout
  Matrix<double> output;            // (n_q, d_v)  without dropout
  Matrix<double> dropped;           // (n_q, n_k)  the first draw (options.seed)
  Vector<double> dropped_row_sums;  // (n_q)       its row sums: not 1
  Matrix<double> draw_output;       // (n_q, d_v)  its output
  Matrix<double> mean_dropped;      // (n_q, n_k)  dropped, averaged over every draw
  Matrix<double> kept;              // (n_q, n_k)  how many draws kept each weight
  Matrix<double> mean_output;       // (n_q, d_v)  the output, averaged over every draw
  double max_difference = 0;        // the largest |mean_output − output|
  std::vector<Index> counts;        // 1, 2, 5, 10, 20, 50 … up to draws (and draws itself)
  std::vector<double> differences;  // for each count, the largest |average of that many
                                    // draws' outputs − output|

  static constexpr const char* kName = "DropoutStats";
  static constexpr auto fields() {
    return std::tuple{field("weights", &DropoutStats::weights),
                      field("output", &DropoutStats::output),
                      field("dropped", &DropoutStats::dropped),
                      field("dropped_row_sums", &DropoutStats::dropped_row_sums),
                      field("draw_output", &DropoutStats::draw_output),
                      field("mean_dropped", &DropoutStats::mean_dropped),
                      field("kept", &DropoutStats::kept),
                      field("mean_output", &DropoutStats::mean_output),
                      field("max_difference", &DropoutStats::max_difference),
                      field("counts", &DropoutStats::counts),
                      field("differences", &DropoutStats::differences)};
  }
};

// Draw t (0-based) uses the seed options.seed + t; options.dropout_p must be above 0. draws
// from 1 to kMaxDraws, and draws·n_q·n_k at most 2^26 (the work is bounded).
Result<DropoutStats> dropout_stats(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                   const MatrixRef<double>& V, const Options& options, Index draws);

}  // namespace attention
