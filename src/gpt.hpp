// gpt.hpp: a small decoder-only character transformer, and its training, in the core. Token
// embedding (tied: the logits are x·wteᵀ), RoPE on each head's q and k, pre-LayerNorm blocks
// of causal multi-head attention and an MLP (GELU, tanh form), the residual stream, a final
// LayerNorm, and cross-entropy on the next character; AdamW. Templated on the number type F:
// float for speed, double for the reference that the gradients are checked on. Every layer
// has a forward and a backward pass with the same names, the backward written from the
// forward's saved activations, as llm.c writes them; sizes are named as there: B sequences of
// T tokens, N = B·T rows, C = d_model, V the vocabulary, L layers, H heads.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "attention.hpp"
#include "random.hpp"

namespace attention {

struct GptConfig {
  Index vocab = 0;
  Index context = 0;
  Index d_model = 0;
  Index layers = 0;
  Index heads = 0;
  double base = 10000;
  bool mlp = true;

  static constexpr const char* kName = "GptConfig";
  static constexpr auto fields() {
    return std::tuple{
        field("vocab", &GptConfig::vocab, "V, how many tokens the model knows"),
        field("context", &GptConfig::context, "T, the longest sequence it reads"),
        field("d_model", &GptConfig::d_model, "C, the width of each token's vector"),
        field("layers", &GptConfig::layers, "L, how many blocks"),
        field("heads", &GptConfig::heads,
              "H, the heads of each block; d_head = C/H, even (RoPE turns pairs)"),
        sometimes("base", &GptConfig::base, "RoPE's base; 10000 unless given"),
        sometimes("mlp", &GptConfig::mlp,
                  "false: attention-only blocks, as in the induction lab; true unless given")};
  }
};

// How gpt_init starts a tensor: N(0, 0.02); N(0, 0.02/√(2L)) for the projections that the
// residual stream adds (w_o, w_proj); LayerNorm's gains 1; biases 0.
enum class GptInit { kNormal, kResidual, kOne, kZero };

// Where each parameter lives in the one flat buffer, row-major.
struct GptTensor {
  std::string name;
  Index rows = 0, cols = 0;
  std::int64_t offset = 0;
  bool decay = false;
  GptInit init = GptInit::kZero;

  static constexpr const char* kName = "GptTensor";
  static constexpr auto fields() {
    return std::tuple{
        field("name", &GptTensor::name, "\"wte\", \"l0.w_q\", … as the exported scripts name them"),
        field("rows", &GptTensor::rows, "its rows (1 for a vector)"),
        field("cols", &GptTensor::cols, "its columns"),
        field("offset", &GptTensor::offset, "where it starts in the flat parameters"),
        field("decay", &GptTensor::decay, "AdamW's weight decay applies (the matrices)")};
  }
};

// The parameters' layout for a configuration: wte (V, C); per layer ln1_g, ln1_b (C), w_q,
// w_k, w_v, w_o (C, C), and with MLPs ln2_g, ln2_b (C), w_fc (C, 4C), b_fc (4C), w_proj (4C, C),
// b_proj (C); lnf_g, lnf_b (C). Vectors are 1×n.
std::vector<GptTensor> gpt_layout(const GptConfig& config);
std::int64_t gpt_size(const GptConfig& config);  // how many parameters

// How a message names a configuration's fields: as C++ and Python name them, or as a model's
// description file does (kGptFileNames: "config.dModel").
struct GptConfigNames {
  const char* vocab = "vocab";
  const char* context = "context";
  const char* d_model = "d_model";
  const char* layers = "layers";
  const char* heads = "heads";
  const char* base = "base";
};
inline constexpr GptConfigNames kGptFileNames{"config.vocab",  "config.context", "config.dModel",
                                              "config.layers", "config.heads",   "config.base"};

// Checks a configuration: sizes from 1 up to the limits, d_head even.
std::string check_gpt_config(const GptConfig& config, const GptConfigNames& names = {});

// What a forward pass keeps for its backward, and for the page: B sequences of T tokens, N =
// B·T rows. Its fields() are what leaves the core; the rest stays for the backward pass.
template <typename F>
struct GptLayerTrace {
  Matrix<F> x;             // (N, C) the residual stream into the layer
  Vector<F> mean1, rstd1;  // (N)
  Matrix<F> h1;            // (N, C) ln1(x)
  Matrix<F> q, k, v;
  std::vector<Matrix<F>> s;
  std::vector<Matrix<F>> p;
  Matrix<F> concat;        // (N, C) the heads' outputs side by side
  Matrix<F> x_mid;         // (N, C) x + concat·W_O
  Vector<F> mean2, rstd2;  // (N)
  Matrix<F> h2;            // (N, C) ln2(x_mid)
  Matrix<F> fc;            // (N, 4C) h2·W_fc + b_fc
  Matrix<F> gelu_t;        // (N, 4C) tanh(√(2/π)(fc + 0.044715fc³)), for gelu and its slope
  Matrix<F> gelu;          // (N, 4C) gelu(fc)

  static constexpr const char* kName = "GptLayer";
  static constexpr auto fields() {
    return std::tuple{
        field("q", &GptLayerTrace::q, "(T, C) the queries after RoPE, the heads side by side"),
        field("k", &GptLayerTrace::k, "(T, C) the keys after RoPE"),
        field("v", &GptLayerTrace::v, "(T, C) the values"),
        field("scores", &GptLayerTrace::s,
              "per head (T, T): q·k/√d_head; above the diagonal unused"),
        field("weights", &GptLayerTrace::p, "per head (T, T): the causal softmax of the scores")};
  }
};

template <typename F>
struct GptTrace {
  Index batch = 0, length = 0;  // B, T
  std::vector<GptLayerTrace<F>> layers;
  Matrix<F> x_final;       // (N, C) the residual stream after the last layer
  Vector<F> meanf, rstdf;  // (N)
  Matrix<F> hf;            // (N, C) lnf(x_final)
  Matrix<F> logits;
  Matrix<F> probs;
  Vector<F> top, sum;
  double loss = 0;

  static constexpr const char* kName = "GptForward";
  static constexpr auto fields() {
    return std::tuple{
        field("layers", &GptTrace::layers, "per layer, what the page shows of it"),
        field("logits", &GptTrace::logits, "(T, V) x·wteᵀ, the embedding tied"),
        field("probs", &GptTrace::probs,
              "(T, V) each row's softmax: the next token's probabilities"),
        field("top", &GptTrace::top, "(T) each logits row's largest"),
        field("sum", &GptTrace::sum,
              "(T) each row's Σ e^(logit − top): probs = e^(logit − top) / sum"),
        field("loss", &GptTrace::loss,
              "the mean −log probs[target] over the rows with a target (0 without targets)")};
  }
};

// The buffers of a training step, allocated on a trainer's first step and reused by every later
// one (llm.c's shape): the forward pass's trace, the backward pass's intermediate gradients, RoPE's
// cosines and sines, and one slice's gradient. Their values mean nothing between two steps.
template <typename F>
struct GptWork {
  GptTrace<F> trace;
  Matrix<F> projected;  // (N, C) a block's output, which the residual stream adds
  Matrix<F> d_logits;   // (N, V) the loss's gradient for the logits: its softmax and one-hot
  Matrix<F> d_hf, dx, d_mid, d_fc, d_h2, d_concat, dq, dk, dv, d_h1;  // (N, C) or (N, 4C)
  Matrix<F> dp;                                                       // (T, T) one head's
  Index rope_length = 0, rope_d_head = 0;
  double rope_base = 0;
  std::vector<F> rope_cos, rope_sin;          // (T, d_head/2) at position r, pair i
  std::vector<F> grads;                       // (gpt_size) one slice's
  std::vector<std::int32_t> tokens, targets;  // one slice's
  // In WebAssembly: every weight matrix transposed, (cols, rows) row-major at its offset in the
  // flat layout (the vectors' places unused), so that the products that read a transposed
  // weight read it in place instead of packing it each slice. Made by the first pass after
  // `transposed_current` is cleared, which a trainer does at each step's first slice: the
  // weights are those of the whole step.
  std::vector<F> transposed;
  bool transposed_current = false;
};

// tokens (B·T, row-major by sequence), ids from 0 to V−1; targets the same size, −1 where a
// row has none. Computes the forward pass; with targets, the loss.
template <typename F>
Result<GptTrace<F>> gpt_forward(const GptConfig& config, const std::vector<F>& params,
                                const std::vector<std::int32_t>& tokens, Index batch,
                                const std::vector<std::int32_t>& targets = {});

// The gradient of the forward's mean loss with respect to every parameter, in the flat layout.
template <typename F>
Result<std::vector<F>> gpt_backward(const GptConfig& config, const std::vector<F>& params,
                                    const GptTrace<F>& trace,
                                    const std::vector<std::int32_t>& tokens,
                                    const std::vector<std::int32_t>& targets);

// The forward's mean loss and its gradient for every parameter, in the flat layout: one call.
template <typename F>
struct GptLossGradient {
  double loss = 0;
  std::vector<F> gradients;

  static constexpr const char* kName = "GptGradients";
  static constexpr auto fields() {
    return std::tuple{
        field("loss", &GptLossGradient::loss, "the mean loss of the batch"),
        field("gradients", &GptLossGradient::gradients,
              "(gptSize) in gptLayout's order: a typed array, as the parameters are")};
  }
};

template <typename F>
Result<GptLossGradient<F>> gpt_loss_gradient(const GptConfig& config, const std::vector<F>& params,
                                             const std::vector<std::int32_t>& tokens, Index batch,
                                             const std::vector<std::int32_t>& targets);

// Seeded initial parameters, each tensor as its layout's `init` says.
template <typename F>
std::vector<F> gpt_init(const GptConfig& config, std::uint64_t seed);

// AdamW, with weight decay on the matrices only.
struct AdamW {
  double lr = 3e-3, beta1 = 0.9, beta2 = 0.95, eps = 1e-8, weight_decay = 0.1;
};

template <typename F>
struct AdamState {
  std::vector<F> m, v;  // the moments, in the flat layout
  std::int64_t step = 0;
};

// One step: params updated in place from grads, with learning rate `lr` (after any schedule).
template <typename F>
void adamw_step(const GptConfig& config, const AdamW& adam, double lr, std::vector<F>& params,
                const std::vector<F>& grads, AdamState<F>& state);

// The learning rate at step s of `total`: a linear warmup over the first tenth (at most 100
// steps), then a cosine decay to a tenth of `lr`.
double gpt_learning_rate(double lr, std::int64_t total, std::int64_t s);

// The training, as `make train` runs it natively and the page runs it in WASM: each step takes
// `batch` windows of context + 1 tokens from `data` at seeded random places, one forward and
// backward pass, and one AdamW step.
template <typename F>
struct GptTrainer {
  GptConfig config;
  std::vector<F> params;
  std::vector<std::int32_t> data;  // the training stream
  // When set, each step's batch comes from here instead (B·T tokens and their targets, appended
  // to the empty vectors, drawn from `pick`): the induction task's sequences (induction.hpp).
  std::function<void(SplitMix64& pick, Index batch, std::vector<std::int32_t>& tokens,
                     std::vector<std::int32_t>& targets)>
      draw;
  Index batch = 16;
  double lr = 3e-3;
  std::int64_t total = 1;  // the steps the schedule is for
  AdamW adam;
  AdamState<F> state;
  SplitMix64 pick{0};
  std::int64_t steps = 0;  // taken so far
  // The step under way, when it is taken in slices: its batch (drawn when it starts), the
  // gradient and loss of the sequences done so far, each weighted by its share of the batch.
  std::vector<std::int32_t> tokens, targets;  // (B·T)
  std::vector<F> grads;
  double loss = 0;
  Index done = 0;      // of the batch's sequences
  bool drawn = false;  // whether the step under way has its batch
  GptWork<F> work;
};

// Checks and starts a trainer: parameters seeded (gpt_init) unless given.
template <typename F>
Result<GptTrainer<F>> gpt_trainer(const GptConfig& config, std::vector<std::int32_t> data,
                                  Index batch, double lr, std::int64_t total, std::uint64_t seed,
                                  std::vector<F> params = {});

// Part of a step: the next `sequences` of the batch (at most what is left), forward and
// backward. When that completes the batch, the AdamW step, and the batch's loss before it;
// otherwise nothing. The page trains this way, a few sequences between frames; the sum is the
// same step as gpt_train_step's.
template <typename F>
Result<std::optional<double>> gpt_train_slice(GptTrainer<F>& trainer, Index sequences);

// A step's parts, as workers take them: the batch of the step under way, drawn unless it is
// (tokens and targets, B·T); one slice's loss and gradient, of `sequences` whose tokens and
// targets the caller put in work.tokens and work.targets (sequences·T each), from `params`, into
// work.trace.loss and work.grads (computed anywhere, the same bits); and such a slice added to
// the step, the next of its sequences, with the batch's loss when it ends the step. Slices
// added in order give gpt_train_slice's step, bit for bit: it is these three.
template <typename F>
void gpt_train_draw(GptTrainer<F>& trainer);
template <typename F>
std::string gpt_slice_gradient(const GptConfig& config, const std::vector<F>& params,
                               Index sequences, GptWork<F>& work);
template <typename F>
Result<std::optional<double>> gpt_train_add(GptTrainer<F>& trainer, Index sequences, double loss,
                                            const std::vector<F>& grads);

// One step (the rest of it, if one is under way); returns the batch's loss before the update.
template <typename F>
Result<double> gpt_train_step(GptTrainer<F>& trainer);

// The mean loss over a stream in windows of `context` tokens, each predicting its next token.
template <typename F>
Result<double> gpt_stream_loss(const GptConfig& config, const std::vector<F>& params,
                               const std::vector<std::int32_t>& stream);

// Up to `count` tokens after `prompt`, sampled from softmax(logits / temperature) with a seeded
// stream (the largest at temperature 0), never the unknown token, which stands for no one
// character; it stops after the end token, and reads at most the last `context` tokens.
template <typename F>
Result<std::vector<std::int32_t>> gpt_generate(const GptConfig& config,
                                               const std::vector<F>& params,
                                               std::vector<std::int32_t> prompt, Index count,
                                               double temperature, std::uint64_t seed,
                                               std::int32_t end_token = 0,
                                               std::int32_t unknown_token = 1);

}  // namespace attention
