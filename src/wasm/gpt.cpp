// gpt.cpp: lesson 5's bindings, the small transformer (gpt.hpp): its layout, its files (the
// weights written and read, a description's characters checked; gpt_file.hpp), a forward pass,
// the loss's gradient, generation, and training sessions; the induction task (induction.hpp):
// its sequences, its scores, and training sessions on it; a learner's own text (text.hpp).
//
// The one exception to the boundary's rule that JS owns every state: a training session lives
// here, by number, between the page's frames (its parameters, AdamW's moments and the step
// under way, 2.3 MB for the shipped model, would otherwise cross the boundary a few times a
// frame). web/wasm/gpt.js closes it on close(), and when its JS object is collected without
// close() (a FinalizationRegistry); tests/node/gpt-sessions.test.mjs checks that both free it.
#include "../gpt.hpp"

#include <map>

#include "../gpt_file.hpp"
#include "../induction.hpp"
#include "../text.hpp"
#include "convert.hpp"

namespace {

using attention::Index;
using namespace attention::wasm;
using attention::field;
using attention::sometimes;

// What a training session's calls return.
struct TrainerOpened {
  int id = 0;
  static constexpr const char* kName = "GptTrainerOpened";
  static constexpr auto fields() {
    return std::tuple{field("id", &TrainerOpened::id,
                            "the session's number, by which the page steps and closes it")};
  }
};

struct TrainSteps {
  std::vector<double> losses;
  std::int64_t step = 0;
  static constexpr const char* kName = "GptTrainSteps";
  static constexpr auto fields() {
    return std::tuple{
        field("losses", &TrainSteps::losses, "(n) each step's batch loss, before its update"),
        field("step", &TrainSteps::step, "the steps taken so far")};
  }
};

struct TrainSlice {
  std::optional<double> loss;
  std::int64_t step = 0;
  static constexpr const char* kName = "GptTrainSlice";
  static constexpr auto fields() {
    return std::tuple{
        sometimes("loss", &TrainSlice::loss, "the batch's loss, when this slice ended a step"),
        field("step", &TrainSlice::step, "the steps taken so far")};
  }
};

struct TrainBatch {
  std::vector<std::int32_t> tokens, targets;
  std::int64_t done = 0;
  static constexpr const char* kName = "GptTrainBatch";
  static constexpr auto fields() {
    return std::tuple{
        field("tokens", &TrainBatch::tokens,
              "(B·T) the step's sequences, row-major by sequence: what its slices read"),
        field("targets", &TrainBatch::targets, "(B·T) each token's next, −1 where none"),
        field("done", &TrainBatch::done, "the sequences of it already added to the step")};
  }
};

struct StreamLoss {
  double loss = 0;
  static constexpr const char* kName = "GptStreamLoss";
  static constexpr auto fields() {
    return std::tuple{
        field("loss", &StreamLoss::loss, "the mean cross-entropy over the stream's next tokens")};
  }
};

// The parameters' layout: [{ name, rows, cols, offset, decay }], in the flat buffer's order.
val gpt_layout(val config) {
  const attention::GptConfig c = read_fields<attention::GptConfig>(config);
  if (auto e = attention::check_gpt_config(c); !e.empty()) return error(e);
  return to_js(attention::gpt_layout(c));
}

val gpt_dequantize(val config, val bytes) {
  return to_js(attention::gpt_dequantize(read_fields<attention::GptConfig>(config),
                                         read_numbers<std::uint8_t>(bytes)));
}

// The parameters as the weights file's bytes (a Uint8Array), or { error }.
val gpt_quantize(val config, val params) {
  return to_js(attention::gpt_quantize(read_fields<attention::GptConfig>(config),
                                       read_numbers<float>(params)));
}

// chars (UTF-8 here; web/wasm/model-files.js has refused lone surrogates) against the
// configuration.
val gpt_check_chars(val config, std::string chars) {
  const std::string e =
      attention::check_gpt_chars(read_fields<attention::GptConfig>(config), chars);
  return e.empty() ? val::undefined() : error(e);
}

// A model from its description's configuration and characters and its weights file, each
// checked (gpt_file.hpp): the parameters, or { error } naming the description's field.
val gpt_read_model(val config, std::string chars, val bytes) {
  return to_js(attention::gpt_read_model(read_fields<attention::GptConfig>(config), chars,
                                         read_numbers<std::uint8_t>(bytes)));
}

template <typename T>
val gpt_forward_as(const attention::GptConfig& c, const val& params, const val& tokens,
                   const val& targets) {
  const auto wanted =
      targets.isUndefined() ? std::vector<std::int32_t>{} : read_numbers<std::int32_t>(targets);
  return to_js(attention::gpt_forward<T>(c, read_numbers<T>(params),
                                         read_numbers<std::int32_t>(tokens), 1, wanted));
}

// One sequence: per layer q, k, v and each head's scores and weights; the logits and
// probabilities of the next token at every position; the loss when there are targets.
val gpt_forward(val config, val params, val tokens, val targets, bool precise) {
  const attention::GptConfig c = read_fields<attention::GptConfig>(config);
  return precise ? gpt_forward_as<double>(c, params, tokens, targets)
                 : gpt_forward_as<float>(c, params, tokens, targets);
}

template <typename T>
val gpt_gradients_as(const attention::GptConfig& c, const val& params, const val& tokens,
                     double batch, const val& targets) {
  return to_js(attention::gpt_loss_gradient<T>(c, read_numbers<T>(params),
                                               read_numbers<std::int32_t>(tokens), Index(batch),
                                               read_numbers<std::int32_t>(targets)));
}

val gpt_gradients(val config, val params, val tokens, double batch, val targets, bool precise) {
  const attention::GptConfig c = read_fields<attention::GptConfig>(config);
  return precise ? gpt_gradients_as<double>(c, params, tokens, batch, targets)
                 : gpt_gradients_as<float>(c, params, tokens, batch, targets);
}

val gpt_generate(val config, val params, val prompt, double count, double temperature,
                 double seed) {
  return to_js(attention::gpt_generate<float>(
      read_fields<attention::GptConfig>(config), read_numbers<float>(params),
      read_numbers<std::int32_t>(prompt), Index(count), temperature, std::uint64_t(seed)));
}

val gpt_stream_loss(val config, val params, val stream) {
  const auto r = attention::gpt_stream_loss<float>(read_fields<attention::GptConfig>(config),
                                                   read_numbers<float>(params),
                                                   read_numbers<std::int32_t>(stream));
  return r.ok() ? to_js(StreamLoss{r.value}) : error(r.error);
}

// Training sessions, by number (see the top of this file).
std::map<int, attention::GptTrainer<float>> trainers;
int next_trainer = 1;

val no_trainer(int id) { return error("no trainer " + std::to_string(id) + " is open"); }

val gpt_train_open(val config, val data, double batch, double lr, double total, double seed) {
  auto r = attention::gpt_trainer<float>(read_fields<attention::GptConfig>(config),
                                         read_numbers<std::int32_t>(data), Index(batch), lr,
                                         std::int64_t(total), std::uint64_t(seed));
  if (!r.ok()) return error(r.error);
  const int id = next_trainer++;
  trainers.emplace(id, std::move(r.value));
  return to_js(TrainerOpened{id});
}

val gpt_train_steps(int id, double steps) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return no_trainer(id);
  TrainSteps out;
  for (Index s = 0; s < Index(steps); ++s) {
    const auto loss = attention::gpt_train_step(found->second);
    if (!loss.ok()) return error(loss.error);
    out.losses.push_back(loss.value);
  }
  out.step = found->second.steps;
  return to_js(out);
}

// Part of a step: the next `sequences` of its batch; the loss when that ends the step.
val gpt_train_slice(int id, double sequences) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return no_trainer(id);
  const auto r = attention::gpt_train_slice(found->second, Index(sequences));
  if (!r.ok()) return error(r.error);
  return to_js(TrainSlice{r.value, found->second.steps});
}

// The step under way's batch, drawn unless it is: what workers compute its slices from.
val gpt_train_batch(int id) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return no_trainer(id);
  attention::GptTrainer<float>& t = found->second;
  attention::gpt_train_draw(t);
  return to_js(TrainBatch{t.tokens, t.targets, t.done});
}

// A slice's loss and gradient, computed elsewhere (gpt_slice_gradient), added as the step's next
// `sequences`; the loss when that ends the step.
val gpt_train_add(int id, double sequences, double loss, val gradients) {
  const auto found = trainers.find(id);
  if (found == trainers.end()) return no_trainer(id);
  const auto r = attention::gpt_train_add(found->second, Index(sequences), loss,
                                          read_numbers<float>(gradients));
  if (!r.ok()) return error(r.error);
  return to_js(TrainSlice{r.value, found->second.steps});
}

// Slicers: a step's weights kept in the core while a worker computes that step's slices from
// them (one copy and one check of the weights a step, not one a slice), by number.
struct Slicer {
  attention::GptConfig config;
  std::vector<float> params;
  attention::GptWork<float> work;
};
std::map<int, Slicer> slicers;

val gpt_slicer_open(val config, val params) {
  Slicer s{read_fields<attention::GptConfig>(config), read_numbers<float>(params), {}};
  if (std::int64_t(s.params.size()) != attention::gpt_size(s.config)) {
    return error("params has " + std::to_string(s.params.size()) + " numbers but the model has " +
                 std::to_string(attention::gpt_size(s.config)));
  }
  const int id = next_trainer++;
  slicers.emplace(id, std::move(s));
  return to_js(TrainerOpened{id});
}

// One slice's loss and gradient from the slicer's weights, as a trainer computes it: what a
// worker computes for the trainer of another, which adds it in order (gpt_train_add).
val gpt_slicer_gradient(int id, val tokens, val targets, double sequences) {
  const auto found = slicers.find(id);
  if (found == slicers.end()) return error("no slicer " + std::to_string(id) + " is open");
  Slicer& s = found->second;
  s.work.tokens = read_numbers<std::int32_t>(tokens);
  s.work.targets = read_numbers<std::int32_t>(targets);
  if (auto e = attention::gpt_slice_gradient(s.config, s.params, Index(sequences), s.work);
      !e.empty()) {
    return error(e);
  }
  return to_js(attention::GptLossGradient<float>{s.work.trace.loss, s.work.grads});
}

void gpt_slicer_close(int id) { slicers.erase(id); }

// The induction task: a seeded batch of its sequences, and what a model does on one.
val induction_batch(val task, double batch, double seed) {
  return to_js(attention::induction_batch(read_fields<attention::InductionTask>(task), Index(batch),
                                          std::uint64_t(seed)));
}

// batch: { tokens, targets, segments }, B = segments.length sequences of tokens.length / B
val induction_scores(val config, val params, val batch) {
  attention::InductionBatch b;
  b.tokens = read_numbers<std::int32_t>(batch["tokens"]);
  b.targets = read_numbers<std::int32_t>(batch["targets"]);
  b.segments = read_numbers<std::int32_t>(batch["segments"]);
  b.batch = Index(b.segments.size());
  b.context = b.batch > 0 ? Index(b.tokens.size()) / b.batch : 0;
  return to_js(attention::induction_scores<float>(read_fields<attention::GptConfig>(config),
                                                  read_numbers<float>(params), b));
}

// A training session whose batches are the task's sequences; the gptTrain* calls run it.
val induction_train_open(val config, val task, double batch, double lr, double total, double seed) {
  auto r = attention::induction_trainer<float>(
      read_fields<attention::GptConfig>(config), read_fields<attention::InductionTask>(task),
      Index(batch), lr, std::int64_t(total), std::uint64_t(seed));
  if (!r.ok()) return error(r.error);
  const int id = next_trainer++;
  trainers.emplace(id, std::move(r.value));
  return to_js(TrainerOpened{id});
}

// A learner's text, as bytes (so that a binary file is found out, not read as text): its
// streams, vocabulary and baselines.
val text_corpus(val bytes) {
  const auto read = read_numbers<std::uint8_t>(bytes);
  return to_js(attention::text_corpus(std::string(read.begin(), read.end())));
}

val gpt_train_params(int id) {
  const auto found = trainers.find(id);
  return found == trainers.end() ? no_trainer(id) : to_js(found->second.params);
}

void gpt_train_close(int id) { trainers.erase(id); }

double gpt_trainers_open() { return double(trainers.size()); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_gpt) {
  emscripten::function("gptLayout", &gpt_layout);
  emscripten::function("gptDequantize", &gpt_dequantize);
  emscripten::function("gptQuantize", &gpt_quantize);
  emscripten::function("gptCheckChars", &gpt_check_chars);
  emscripten::function("gptReadModel", &gpt_read_model);
  emscripten::function("gptForward", &gpt_forward);
  emscripten::function("gptGradients", &gpt_gradients);
  emscripten::function("gptGenerate", &gpt_generate);
  emscripten::function("gptStreamLoss", &gpt_stream_loss);
  emscripten::function("gptTrainOpen", &gpt_train_open);
  emscripten::function("gptTrainSteps", &gpt_train_steps);
  emscripten::function("gptTrainSlice", &gpt_train_slice);
  emscripten::function("gptTrainParams", &gpt_train_params);
  emscripten::function("gptTrainBatch", &gpt_train_batch);
  emscripten::function("gptTrainAdd", &gpt_train_add);
  emscripten::function("gptSlicerOpen", &gpt_slicer_open);
  emscripten::function("gptSlicerGradient", &gpt_slicer_gradient);
  emscripten::function("gptSlicerClose", &gpt_slicer_close);
  emscripten::function("gptTrainClose", &gpt_train_close);
  emscripten::function("gptTrainersOpen", &gpt_trainers_open);
  emscripten::function("inductionBatch", &induction_batch);
  emscripten::function("inductionScores", &induction_scores);
  emscripten::function("inductionTrainOpen", &induction_train_open);
  emscripten::function("textCorpus", &text_corpus);
  register_results<std::vector<attention::GptTensor>, attention::GptTrace<float>,
                   attention::GptLossGradient<float>, TrainerOpened, TrainSteps, TrainSlice,
                   TrainBatch, StreamLoss, attention::InductionBatch, attention::InductionScores,
                   attention::TextCorpus, attention::TextBaselines>();
  register_inputs<attention::GptConfig, attention::InductionTask>();
}
