// why.cpp: the labs of "why it is built this way" (see why.hpp). Plain loops over small matrices,
// in double.
#include "why.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "random.hpp"
#include "support.hpp"

namespace attention {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The stable softmax of a row: subtract its max, exp, divide by the sum. (n)
Vector<double> softmax(const Vector<double>& x) {
  const Vector<double> e = (x.array() - x.maxCoeff()).exp();
  return e / e.sum();
}

// The count after n on the marks 1, 2, 5, 10, 20, 50, 100 …
Index next_mark(Index n) {
  Index decade = 1;
  while (decade * 10 <= n) decade *= 10;
  const Index lead = n / decade;
  return (lead < 2 ? 2 : lead < 5 ? 5 : 10) * decade;
}

}  // namespace

Result<TiledTrace> tiled_attention(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                   const MatrixRef<double>& V, Index block,
                                   const Options& options) {
  if (options.dropout_p != 0) {
    return {{}, "the tiled attention has no dropout; dropout p must be 0"};
  }
  const Index n_q = Q.rows(), n_k = K.rows(), d_v = V.cols();
  if (block < 1 || block > n_k) return {{}, range_error("block", block, 1, n_k, " (n_k)")};
  const std::int64_t blocks = (n_k + block - 1) / block;
  const std::int64_t numbers = std::int64_t(n_q) * (2 * n_k + blocks * (2 * d_v + 4));
  if (numbers > kMaxValues) {
    return {{},
            "the tiled trace would hold " + std::to_string(numbers) +
                " numbers, over the limit of " + std::to_string(kMaxValues) +
                "; use a larger block"};
  }
  // The full computation checks every input, and is what the tiles must give back.
  Result<Trace<double>> full = attend<double>(Q, K, V, options);
  if (!full.ok()) return {{}, full.error};

  TiledTrace t;
  t.block = block;
  t.scale = full.value.scale;
  Vector<double> m = Vector<double>::Constant(n_q, -kInf);  // (n_q) running max
  Vector<double> l = Vector<double>::Zero(n_q);             // (n_q) running sum
  Matrix<double> acc = Matrix<double>::Zero(n_q, d_v);      // (n_q, d_v)
  for (Index start = 0; start < n_k; start += block) {
    const Index end = std::min(n_k, start + block), width = end - start;
    TiledBlock b;
    b.start = start;
    b.end = end;
    // this block's scores, scaled and masked: (n_q, width)
    b.logits = Q.lazyProduct(K.middleRows(start, width).transpose()) * t.scale;
    for (Index i = 0; i < n_q; ++i)
      for (Index j = 0; j < width; ++j)
        if (blocked(options, i, start + j)) b.logits(i, j) = options.mask_value;
    b.block_max = b.logits.rowwise().maxCoeff();
    b.m.resize(n_q);
    b.rescale.resize(n_q);
    b.p.resize(n_q, width);
    for (Index i = 0; i < n_q; ++i) {
      const double m_new = std::max(m(i), b.block_max(i));
      // exp(m_old − m_new); when the max stays (also while it is −∞), nothing is rescaled.
      b.rescale(i) = m_new == m(i) ? 1.0 : std::exp(m(i) - m_new);
      for (Index j = 0; j < width; ++j) {
        const double x = b.logits(i, j);
        b.p(i, j) = x == -kInf ? 0.0 : std::exp(x - m_new);
      }
      m(i) = m_new;
      l(i) = l(i) * b.rescale(i) + b.p.row(i).sum();
      acc.row(i) = acc.row(i) * b.rescale(i) + b.p.row(i).lazyProduct(V.middleRows(start, width));
      // acc is divided by ℓ only at the end: its sum of up to n_k rows of V may overflow where
      // the whole row's average does not.
      for (Index c = 0; c < d_v; ++c) {
        if (!std::isfinite(acc(i, c))) {
          return {{},
                  "acc" + cell(i, c) + " overflows to Infinity after the keys " +
                      std::to_string(start + 1) + " to " + std::to_string(end) +
                      ": the tiled output is divided by its sum only at the end, and V's values "
                      "are too large for double (at most 1.8e308)"};
        }
      }
    }
    b.m = m;
    b.l = l;
    b.acc = acc;
    b.partial = Matrix<double>::Zero(n_q, d_v);
    for (Index i = 0; i < n_q; ++i)
      if (l(i) > 0) b.partial.row(i) = acc.row(i) / l(i);
    t.blocks.push_back(std::move(b));
  }
  t.output = t.blocks.back().partial;
  for (Index i = 0; i < n_q; ++i)
    if (l(i) == 0) t.blocked_rows.push_back(i);
  t.full = std::move(full.value.output);
  t.max_difference = (t.output - t.full).cwiseAbs().maxCoeff();
  return {std::move(t), {}};
}

Result<ScalingBatch> scaling_batch(Index d_k, Index n_keys, Index rows, std::uint64_t seed) {
  for (auto [name, value] :
       {std::pair{"d_k", d_k}, std::pair{"n_keys", n_keys}, std::pair{"rows", rows}}) {
    if (value < 1 || value > kMaxDim) return {{}, range_error(name, value, 1, kMaxDim, "")};
  }
  const std::int64_t numbers = std::int64_t(rows) * (n_keys + 1) * d_k;
  if (numbers > kMaxValues) {
    return {{},
            "rows·(n_keys + 1)·d_k is " + std::to_string(numbers) + ", over the limit of " +
                std::to_string(kMaxValues) + " numbers"};
  }
  ScalingBatch batch;
  SplitMix64 random(seed);
  batch.q.resize(rows, d_k);
  batch.k.resize(rows * n_keys, d_k);
  for (Index i = 0; i < batch.q.size(); ++i) batch.q.data()[i] = random.normal();
  for (Index i = 0; i < batch.k.size(); ++i) batch.k.data()[i] = random.normal();
  return {std::move(batch), {}};
}

Result<ScalingStats> scaling_stats(Index d_k, Index n_keys, Index rows, std::uint64_t seed) {
  Result<ScalingBatch> batch = scaling_batch(d_k, n_keys, rows, seed);
  if (!batch.ok()) return {{}, batch.error};
  const Matrix<double>& q = batch.value.q;  // (rows, d_k)
  const Matrix<double>& k = batch.value.k;  // (rows·n_keys, d_k)
  ScalingStats s;
  s.d_k = d_k;
  s.n_keys = n_keys;
  s.rows = rows;
  const double scale = s.scale = 1.0 / std::sqrt(double(d_k));
  // every q·k: (rows, n_keys)
  Matrix<double> scores(rows, n_keys);
  for (Index r = 0; r < rows; ++r)
    for (Index j = 0; j < n_keys; ++j) scores(r, j) = q.row(r).dot(k.row(r * n_keys + j));
  const double count = double(scores.size());
  s.score_mean = scores.sum() / count;
  s.score_variance = (scores.array() - s.score_mean).square().sum() / count;
  s.scaled_variance = s.score_variance * scale * scale;
  for (Index r = 0; r < rows; ++r) {
    const Vector<double> row = scores.row(r).transpose();  // (n_keys)
    const Vector<double> unscaled = softmax(row), scaled = softmax(row * scale);
    s.max_weight_unscaled += unscaled.maxCoeff() / double(rows);
    s.max_weight_scaled += scaled.maxCoeff() / double(rows);
    s.one_hot_unscaled += unscaled.maxCoeff() > 0.99 ? 1.0 / double(rows) : 0.0;
    s.one_hot_scaled += scaled.maxCoeff() > 0.99 ? 1.0 / double(rows) : 0.0;
    if (r == 0) {
      s.example_q = q.row(0).transpose();
      s.example_k = k.topRows(n_keys);
      s.example_scores = row;
      s.example_unscaled = unscaled;
      s.example_scaled = scaled;
    }
  }
  return {std::move(s), {}};
}

Result<DropoutStats> dropout_stats(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                   const MatrixRef<double>& V, const Options& options,
                                   Index draws) {
  if (draws < 1 || draws > kMaxDraws) return {{}, range_error("draws", draws, 1, kMaxDraws, "")};
  if (options.dropout_p == 0) return {{}, "dropout p is 0; the statistics need p above 0"};
  Options plain = options;
  plain.dropout_p = 0;
  Result<Trace<double>> none = attend<double>(Q, K, V, plain);
  if (!none.ok()) return {{}, none.error};
  const std::int64_t work = std::int64_t(draws) * Q.rows() * K.rows();
  if (work > (std::int64_t{1} << 26)) {
    return {{},
            "draws·n_q·n_k is " + std::to_string(work) + ", over the limit of " +
                std::to_string(std::int64_t{1} << 26)};
  }
  DropoutStats s;
  s.weights = std::move(none.value.weights);
  s.output = std::move(none.value.output);
  s.mean_dropped = Matrix<double>::Zero(s.weights.rows(), s.weights.cols());
  s.kept = Matrix<double>::Zero(s.weights.rows(), s.weights.cols());
  Matrix<double> sum = Matrix<double>::Zero(s.output.rows(), s.output.cols());  // (n_q, d_v)
  Index next_count = 1;  // 1, 2, 5, 10, 20, 50 …
  for (Index t = 0; t < draws; ++t) {
    Options draw = options;
    draw.seed = options.seed + std::uint64_t(t);
    Result<Trace<double>> r = attend<double>(Q, K, V, draw);
    if (!r.ok()) return {{}, r.error};
    if (t == 0) {
      s.dropped = r.value.dropped;
      s.dropped_row_sums = s.dropped.rowwise().sum();
      s.draw_output = r.value.output;
    }
    s.mean_dropped += r.value.dropped;
    // the cells this draw kept: the same stream as the draw's own dropout
    SplitMix64 stream(draw.seed);
    s.kept += dropout_keep(stream, draw.dropout_p, s.kept.rows(), s.kept.cols()).cast<double>();
    sum += r.value.output;
    const Index n = t + 1;
    if (n == next_count || n == draws) {
      s.counts.push_back(n);
      s.differences.push_back((sum / double(n) - s.output).cwiseAbs().maxCoeff());
      next_count = next_mark(n);
    }
  }
  s.mean_dropped /= double(draws);
  s.mean_output = sum / double(draws);
  s.max_difference = (s.mean_output - s.output).cwiseAbs().maxCoeff();
  return {std::move(s), {}};
}

}  // namespace attention
