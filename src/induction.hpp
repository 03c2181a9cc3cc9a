// induction.hpp: the induction-head task of lesson 5. Seeded sequences of a
// segment of m distinct random tokens, then the same segment again, then random tokens to the
// end; what a model has learnt of them (the loss on each half, every head's previous-token and
// induction scores); and a trainer that draws its batches from them.
#pragma once

#include <cstdint>
#include <vector>

#include "gpt.hpp"
#include "random.hpp"

namespace attention {

struct InductionTask {
  Index vocab = 32;
  Index context = 20;
  Index min_segment = 3;
  Index max_segment = 10;

  static constexpr const char* kName = "InductionTask";
  static constexpr auto fields() {
    return std::tuple{
        field("vocab", &InductionTask::vocab, "V, how many different tokens a sequence draws from"),
        field("context", &InductionTask::context, "T, each sequence's length"),
        field("min_segment", &InductionTask::min_segment,
              "the shortest segment m that a sequence repeats"),
        field("max_segment", &InductionTask::max_segment,
              "the longest segment m that a sequence repeats")};
  }
};

// Checks a task: 2 ≤ min_segment ≤ max_segment ≤ vocab, 2·max_segment ≤ context ≤ 1024.
std::string check_induction_task(const InductionTask& task);

// B sequences: tokens and targets (B·T each, row-major by sequence; targets[i] = the token after
// tokens[i]) and each sequence's segment length m.
struct InductionBatch {
  Index batch = 0, context = 0;
  std::vector<std::int32_t> tokens, targets;
  std::vector<std::int32_t> segments;

  static constexpr const char* kName = "InductionBatch";
  static constexpr auto fields() {
    return std::tuple{
        field("tokens", &InductionBatch::tokens,
              "(B·T) the sequences' tokens, one sequence after another"),
        field("targets", &InductionBatch::targets, "(B·T) each token's next one"),
        field("segments", &InductionBatch::segments, "(B) each sequence's segment length m")};
  }
};

// Appends one batch's sequences to tokens, targets and segments, drawn from `pick`. The task
// must have passed check_induction_task.
void induction_draw(const InductionTask& task, Index batch, SplitMix64& pick,
                    std::vector<std::int32_t>& tokens, std::vector<std::int32_t>& targets,
                    std::vector<std::int32_t>& segments);

// A seeded batch: the same sequences in the tests, the page and Python.
Result<InductionBatch> induction_batch(const InductionTask& task, Index batch, std::uint64_t seed);

// What a model does on a batch of the task. A sequence of segment m: the first half's loss is
// the mean −log p(target) at positions 0 … m−2 (their next token is new: nothing to predict),
// the repeated half's at positions m … 2m−2 (their next token is the one after the earlier
// copy). Per layer and head (rows L, columns H): the previous-token score, the mean weight from
// position i on i − 1 (i from 1 to T − 1), and the induction score, the mean weight from a
// token of the second half (i from m to 2m − 1) on the token after its earlier occurrence
// (i − m + 1). Means over all the batch's positions so counted.
struct InductionScores {
  double first_loss = 0, repeat_loss = 0;
  Matrix<double> previous, induction;

  static constexpr const char* kName = "InductionScores";
  static constexpr auto fields() {
    return std::tuple{field("first_loss", &InductionScores::first_loss,
                            "the mean −log p(target) at positions 0 … m−2: the next token is new"),
                      field("repeat_loss", &InductionScores::repeat_loss,
                            "the mean −log p(target) at positions m … 2m−2: the next token follows "
                            "the earlier copy"),
                      field("previous", &InductionScores::previous,
                            "(L, H) each head's mean weight on position i − 1"),
                      field("induction", &InductionScores::induction,
                            "(L, H) each head's mean weight, from a token of the second half, on "
                            "the token after its earlier one")};
  }
};

template <typename F>
Result<InductionScores> induction_scores(const GptConfig& config, const std::vector<F>& params,
                                         const InductionBatch& batch);

// A trainer (gpt.hpp) whose batches are the task's sequences, drawn from its `pick` stream
// (seed + 1), AdamW without weight decay; the configuration's vocab and context must be the
// task's.
template <typename F>
Result<GptTrainer<F>> induction_trainer(const GptConfig& config, const InductionTask& task,
                                        Index batch, double lr, std::int64_t total,
                                        std::uint64_t seed);

}  // namespace attention
