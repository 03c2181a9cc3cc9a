// induction.cpp: the induction-head task of induction.hpp: its sequences, its scores and its
// trainer.
#include "induction.hpp"

#include <cmath>
#include <numeric>
#include <utility>

#include "support.hpp"

namespace attention {

std::string check_induction_task(const InductionTask& t) {
  if (t.vocab < 2 || t.vocab > 65536) return range_error("vocab", t.vocab, 2, 65536);
  if (t.context < 4 || t.context > 1024) return range_error("context", t.context, 4, 1024);
  if (t.min_segment < 2 || t.min_segment > t.max_segment) {
    return range_error("min_segment", t.min_segment, 2, t.max_segment);
  }
  if (t.max_segment > t.vocab || 2 * t.max_segment > t.context) {
    return range_error("max_segment", t.max_segment, t.min_segment,
                       std::min(t.vocab, t.context / 2));
  }
  return {};
}

void induction_draw(const InductionTask& task, Index batch, SplitMix64& pick,
                    std::vector<std::int32_t>& tokens, std::vector<std::int32_t>& targets,
                    std::vector<std::int32_t>& segments) {
  const Index V = task.vocab, T = task.context;
  std::vector<std::int32_t> pool(static_cast<size_t>(V));
  std::vector<std::int32_t> sequence;
  for (Index b = 0; b < batch; ++b) {
    const Index span = task.max_segment - task.min_segment + 1;
    const Index m = task.min_segment + std::min(span - 1, Index(pick.uniform() * double(span)));
    // m distinct tokens: the first m of a partial Fisher–Yates shuffle of 0 … V−1
    std::iota(pool.begin(), pool.end(), 0);
    sequence.clear();
    for (Index i = 0; i < m; ++i) {
      const Index j = i + std::min(V - i - 1, Index(pick.uniform() * double(V - i)));
      std::swap(pool[size_t(i)], pool[size_t(j)]);
      sequence.push_back(pool[size_t(i)]);
    }
    for (Index i = 0; i < m; ++i) sequence.push_back(sequence[size_t(i)]);
    while (Index(sequence.size()) < T + 1) {
      sequence.push_back(std::int32_t(std::min(V - 1, Index(pick.uniform() * double(V)))));
    }
    tokens.insert(tokens.end(), sequence.begin(), sequence.begin() + long(T));
    targets.insert(targets.end(), sequence.begin() + 1, sequence.end());
    segments.push_back(std::int32_t(m));
  }
}

Result<InductionBatch> induction_batch(const InductionTask& task, Index batch, std::uint64_t seed) {
  if (auto e = check_induction_task(task); !e.empty()) return {{}, e};
  if (batch < 1 || batch > 4096) return {{}, range_error("batch", batch, 1, 4096)};
  InductionBatch out;
  out.batch = batch;
  out.context = task.context;
  SplitMix64 pick(seed);
  induction_draw(task, batch, pick, out.tokens, out.targets, out.segments);
  return {std::move(out), {}};
}

namespace {

// A batch's fields agree with each other and with the configuration.
std::string check_batch(const GptConfig& c, const InductionBatch& b) {
  const Index T = b.context;
  if (b.batch < 1 || T < 1 || T > c.context) {
    return "the batch's sequences are " + std::to_string(T) + " tokens; the model reads up to " +
           std::to_string(c.context);
  }
  if (Index(b.tokens.size()) != b.batch * T || b.targets.size() != b.tokens.size() ||
      Index(b.segments.size()) != b.batch) {
    return "the batch has " + count(Index(b.tokens.size()), "token") + ", " +
           count(Index(b.targets.size()), "target") + " and " +
           count(Index(b.segments.size()), "segment length") + " for " +
           count(b.batch, "sequence") + " of " + std::to_string(T);
  }
  for (Index s = 0; s < b.batch; ++s) {
    const Index m = b.segments[size_t(s)];
    if (m < 2 || 2 * m > T) return "segments" + row(s) + " is " + std::to_string(m);
  }
  return {};
}

}  // namespace

template <typename F>
Result<InductionScores> induction_scores(const GptConfig& c, const std::vector<F>& params,
                                         const InductionBatch& b) {
  if (auto e = check_batch(c, b); !e.empty()) return {{}, e};
  const auto forward = gpt_forward<F>(c, params, b.tokens, b.batch, b.targets);
  if (!forward.ok()) return {{}, forward.error};
  const GptTrace<F>& f = forward.value;
  const Index T = b.context, H = c.heads;
  InductionScores out;
  double first = 0, repeat = 0;
  Index firsts = 0, repeats = 0;
  for (Index s = 0; s < b.batch; ++s) {
    const Index m = b.segments[size_t(s)];
    for (Index i = 0; i < 2 * m - 1; ++i) {
      if (i == m - 1) continue;  // its next token starts the copy: not predictable either way
      const Index r = s * T + i;
      const double loss = -std::log(double(f.probs(r, b.targets[size_t(r)])));
      if (i < m - 1) {
        first += loss;
        ++firsts;
      } else {
        repeat += loss;
        ++repeats;
      }
    }
  }
  out.first_loss = first / double(firsts);
  out.repeat_loss = repeat / double(repeats);
  out.previous = Matrix<double>::Zero(c.layers, H);
  out.induction = Matrix<double>::Zero(c.layers, H);
  for (Index l = 0; l < c.layers; ++l) {
    for (Index h = 0; h < H; ++h) {
      double previous = 0, induction = 0;
      Index inductions = 0;
      for (Index s = 0; s < b.batch; ++s) {
        const Matrix<F>& w = f.layers[size_t(l)].p[size_t(s * H + h)];
        for (Index i = 1; i < T; ++i) previous += double(w(i, i - 1));
        const Index m = b.segments[size_t(s)];
        for (Index i = m; i < 2 * m; ++i) induction += double(w(i, i - m + 1));
        inductions += m;
      }
      out.previous(l, h) = previous / double(b.batch * (T - 1));
      out.induction(l, h) = induction / double(inductions);
    }
  }
  return {std::move(out), {}};
}

template <typename F>
Result<GptTrainer<F>> induction_trainer(const GptConfig& config, const InductionTask& task,
                                        Index batch, double lr, std::int64_t total,
                                        std::uint64_t seed) {
  if (auto e = check_induction_task(task); !e.empty()) return {{}, e};
  if (config.vocab != task.vocab || config.context != task.context) {
    return {{},
            "the model reads " + std::to_string(config.context) + " tokens of " +
                std::to_string(config.vocab) + "; the task's sequences are " +
                std::to_string(task.context) + " tokens of " + std::to_string(task.vocab)};
  }
  // two sequences of the task as the stream that gpt_trainer checks; `draw` stands in for it
  auto r =
      gpt_trainer<F>(config, induction_batch(task, 2, seed).value.tokens, batch, lr, total, seed);
  if (!r.ok()) return r;
  // no weight decay: measured, it shrinks W_Q and W_K until the previous-token head smears
  // (docs/model.md, "The induction head")
  r.value.adam.weight_decay = 0;
  r.value.draw = [task](SplitMix64& pick, Index b, std::vector<std::int32_t>& tokens,
                        std::vector<std::int32_t>& targets) {
    std::vector<std::int32_t> segments;
    induction_draw(task, b, pick, tokens, targets, segments);
  };
  return r;
}

#define ATTENTION_INDUCTION(F)                                                                    \
  template Result<InductionScores> induction_scores(const GptConfig&, const std::vector<F>&,      \
                                                    const InductionBatch&);                       \
  template Result<GptTrainer<F>> induction_trainer(const GptConfig&, const InductionTask&, Index, \
                                                   double, std::int64_t, std::uint64_t);
ATTENTION_INDUCTION(float)
ATTENTION_INDUCTION(double)
#undef ATTENTION_INDUCTION

}  // namespace attention
