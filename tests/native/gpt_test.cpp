// gpt_test.cpp: the small transformer (gpt.hpp) on a tiny configuration: every parameter's
// gradient against central finite differences of the float64 loss; float32 against float64;
// the loss of a uniform model is ln V; the causal mask (a later token changes no earlier
// logit); AdamW's first step by hand, and its moments and parameters over three steps against
// a float64 reference; errors.
#include "gpt.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace {

using attention::GptConfig;
using attention::Index;

const GptConfig tiny{7, 5, 8, 2, 2};

std::vector<std::int32_t> random_tokens(std::mt19937& gen, Index n, Index vocab) {
  std::uniform_int_distribution<int> pick(0, int(vocab) - 1);
  std::vector<std::int32_t> out(static_cast<size_t>(n));
  for (auto& t : out) t = pick(gen);
  return out;
}

// Parameters away from the initial ones, so that no gradient is 0 by symmetry.
std::vector<double> random_params(std::mt19937& gen, const GptConfig& c) {
  std::vector<double> p = attention::gpt_init<double>(c, 3);
  std::normal_distribution<double> noise(0, 0.3);
  for (double& x : p) x += noise(gen);
  return p;
}

// Every parameter's gradient of a configuration against central differences in float64.
void expect_gradients_match(const GptConfig& tiny) {
  std::mt19937 gen(1);
  const Index batch = 2, length = 4;
  const auto tokens = random_tokens(gen, batch * length, tiny.vocab);
  auto targets = random_tokens(gen, batch * length, tiny.vocab);
  targets[3] = -1;  // a row without a target
  std::vector<double> params = random_params(gen, tiny);
  const auto forward = attention::gpt_forward<double>(tiny, params, tokens, batch, targets);
  ASSERT_TRUE(forward.ok()) << forward.error;
  const auto grads = attention::gpt_backward<double>(tiny, params, forward.value, tokens, targets);
  ASSERT_TRUE(grads.ok()) << grads.error;
  const auto layout = attention::gpt_layout(tiny);
  for (const auto& t : layout) {
    for (std::int64_t i = t.offset; i < t.offset + std::int64_t(t.rows) * t.cols; ++i) {
      const double keep = params[size_t(i)], h = 1e-5 * std::max(1.0, std::fabs(keep));
      params[size_t(i)] = keep + h;
      const double up =
          attention::gpt_forward<double>(tiny, params, tokens, batch, targets).value.loss;
      params[size_t(i)] = keep - h;
      const double down =
          attention::gpt_forward<double>(tiny, params, tokens, batch, targets).value.loss;
      params[size_t(i)] = keep;
      const double numeric = (up - down) / (2 * h), exact = grads.value[size_t(i)];
      EXPECT_LE(std::fabs(exact - numeric),
                1e-7 * std::max(std::fabs(exact), std::fabs(numeric)) + 1e-9)
          << t.name << "[" << i - t.offset << "]: " << exact << " vs " << numeric;
    }
  }
}

TEST(Gpt, EveryGradientEqualsFiniteDifferences) { expect_gradients_match(tiny); }

// Attention-only blocks (the induction-head lab's): no MLP tensors in the layout, and every
// gradient still the loss's slope.
TEST(Gpt, WithoutMlpsTheLayoutHasNoMlpAndEveryGradientHolds) {
  GptConfig attention_only = tiny;
  attention_only.mlp = false;
  for (const auto& t : attention::gpt_layout(attention_only)) {
    EXPECT_EQ(t.name.find("_fc"), std::string::npos) << t.name;
    EXPECT_EQ(t.name.find("ln2"), std::string::npos) << t.name;
    EXPECT_EQ(t.name.find("proj"), std::string::npos) << t.name;
  }
  EXPECT_EQ(attention::gpt_size(attention_only),
            7 * 8 + 2 * (2 * 8 + 4 * 8 * 8) + 2 * 8);  // wte, 2 × (ln1, W_QKVO), lnf
  expect_gradients_match(attention_only);
}

// The induction lab's one-layer contrast: one attention-only layer of one head, RoPE base 100.
TEST(Gpt, OneAttentionOnlyLayerOfOneHeadHasEveryGradient) {
  const GptConfig one{7, 5, 8, 1, 1, 100, false};
  EXPECT_EQ(attention::gpt_size(one), 7 * 8 + 2 * 8 + 4 * 8 * 8 + 2 * 8);
  expect_gradients_match(one);
}

TEST(Gpt, Float32FollowsFloat64AndAUniformModelCostsLnV) {
  std::mt19937 gen(2);
  const auto tokens = random_tokens(gen, 3 * 5, tiny.vocab);
  const auto targets = random_tokens(gen, 3 * 5, tiny.vocab);
  const std::vector<double> p64 = random_params(gen, tiny);
  const std::vector<float> p32(p64.begin(), p64.end());
  const auto a = attention::gpt_forward<double>(tiny, p64, tokens, 3, targets);
  const auto b = attention::gpt_forward<float>(tiny, p32, tokens, 3, targets);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NEAR(b.value.loss, a.value.loss, 1e-5 * a.value.loss);
  EXPECT_LE((b.value.logits.cast<double>() - a.value.logits).cwiseAbs().maxCoeff(), 1e-4);
  // an embedding of zeros gives equal logits: the loss is ln V
  std::vector<double> zero = attention::gpt_init<double>(tiny, 1);
  for (size_t i = 0; i < size_t(tiny.vocab * tiny.d_model); ++i) zero[i] = 0;
  const auto u = attention::gpt_forward<double>(tiny, zero, tokens, 3, targets);
  EXPECT_NEAR(u.value.loss, std::log(double(tiny.vocab)), 1e-12);
}

TEST(Gpt, ALaterTokenChangesNoEarlierLogit) {
  std::mt19937 gen(3);
  auto tokens = random_tokens(gen, 5, tiny.vocab);
  const std::vector<double> p = random_params(gen, tiny);
  const auto a = attention::gpt_forward<double>(tiny, p, tokens, 1).value;
  tokens[4] = (tokens[4] + 1) % tiny.vocab;
  const auto b = attention::gpt_forward<double>(tiny, p, tokens, 1).value;
  EXPECT_EQ(a.logits.topRows(4), b.logits.topRows(4));
  EXPECT_NE(a.logits.row(4), b.logits.row(4));
  // each head's weights: rows sum to 1 and nothing above the diagonal
  for (const auto& w : a.layers[0].p) {
    for (Index i = 0; i < 5; ++i) {
      EXPECT_NEAR(w.row(i).sum(), 1, 1e-12);
      for (Index j = i + 1; j < 5; ++j) EXPECT_EQ(w(i, j), 0);
    }
  }
}

TEST(Gpt, AdamWsFirstStepByHand) {
  // after one step with bias correction, every parameter moves by lr·sign(g) (±1e-8), plus
  // decay·p for the matrices
  const std::vector<double> p = attention::gpt_init<double>(tiny, 5);
  std::vector<double> g(p.size());
  for (size_t i = 0; i < g.size(); ++i) g[i] = (i % 3 == 0 ? -1.0 : 0.5) * double(i + 1);
  std::vector<double> moved = p;
  attention::AdamState<double> state;
  attention::adamw_step(tiny, attention::AdamW{}, 0.01, moved, g, state);
  const auto layout = attention::gpt_layout(tiny);
  for (const auto& t : layout) {
    for (std::int64_t i = t.offset; i < t.offset + std::int64_t(t.rows) * t.cols; ++i) {
      const double sign = g[size_t(i)] > 0 ? 1 : -1;
      const double expected = p[size_t(i)] - 0.01 * (sign + (t.decay ? 0.1 * p[size_t(i)] : 0));
      EXPECT_NEAR(moved[size_t(i)], expected, 1e-9) << t.name;
    }
  }
  EXPECT_EQ(state.step, 1);
}

TEST(Gpt, AdamWsMomentsAndParametersOverThreeStepsAgainstAFloat64Reference) {
  // three steps with a different gradient each and a different learning rate each, against
  // AdamW written again here: m ← β1·m + (1 − β1)·g, v ← β2·v + (1 − β2)·g², p ← p − lr·(m̂/(√v̂ +
  // ε) + decay·p) with m̂ = m/(1 − β1^t), v̂ = v/(1 − β2^t), decay 0.1 on the matrices only
  const attention::AdamW adam;
  const std::vector<double> p0 = attention::gpt_init<double>(tiny, 7);
  const auto layout = attention::gpt_layout(tiny);
  std::vector<double> p = p0, want = p0, m(p0.size(), 0.0), v(p0.size(), 0.0);
  attention::AdamState<double> state;
  const double rates[] = {0.01, 0.004, 0.02};
  for (int step = 1; step <= 3; ++step) {
    std::vector<double> g(p.size());
    for (size_t i = 0; i < g.size(); ++i)
      g[i] = std::sin(double(i + 1) * (0.7 + 0.3 * step)) * (step == 2 ? 3.0 : 0.5);
    attention::adamw_step(tiny, adam, rates[step - 1], p, g, state);
    ASSERT_EQ(state.step, step);
    const double c1 = 1 - std::pow(0.9, step), c2 = 1 - std::pow(0.95, step);
    for (const auto& t : layout) {
      for (std::int64_t i = t.offset; i < t.offset + std::int64_t(t.rows) * t.cols; ++i) {
        const size_t k = size_t(i);
        m[k] = 0.9 * m[k] + 0.1 * g[k];
        v[k] = 0.95 * v[k] + 0.05 * g[k] * g[k];
        const double decay = t.decay ? 0.1 : 0.0;
        want[k] -=
            rates[step - 1] * ((m[k] / c1) / (std::sqrt(v[k] / c2) + 1e-8) + decay * want[k]);
        EXPECT_NEAR(state.m[k], m[k], 1e-14) << t.name << " step " << step;
        EXPECT_NEAR(state.v[k], v[k], 1e-14) << t.name << " step " << step;
        EXPECT_NEAR(p[k], want[k], 1e-13) << t.name << " step " << step;
      }
    }
  }
  // and the parameters did move, by more than the rounding above
  double moved = 0;
  for (size_t k = 0; k < p.size(); ++k) moved = std::max(moved, std::abs(p[k] - p0[k]));
  EXPECT_GT(moved, 0.01);
}

TEST(Gpt, AStepInSlicesIsTheWholeStep) {
  // the page takes a step a few sequences at a time: slices of 1, 2 and 1 of a batch of 4 sum
  // to the step that gpt_train_step takes at once, to rounding
  std::mt19937 gen(11);
  const std::vector<std::int32_t> data = random_tokens(gen, 60, tiny.vocab);
  auto whole = attention::gpt_trainer<double>(tiny, data, 4, 1e-2, 10, 7).value;
  auto sliced = attention::gpt_trainer<double>(tiny, data, 4, 1e-2, 10, 7).value;
  for (int step = 0; step < 3; ++step) {
    const double loss = attention::gpt_train_step(whole).value;
    EXPECT_FALSE(attention::gpt_train_slice(sliced, 1).value.has_value());
    EXPECT_FALSE(attention::gpt_train_slice(sliced, 2).value.has_value());
    const auto last = attention::gpt_train_slice(sliced, 5);  // only 1 is left
    ASSERT_TRUE(last.ok() && last.value.has_value());
    EXPECT_NEAR(*last.value, loss, 1e-12);
    EXPECT_EQ(sliced.steps, step + 1);
  }
  for (size_t i = 0; i < whole.params.size(); ++i)
    EXPECT_NEAR(sliced.params[i], whole.params[i], 1e-12) << i;
  EXPECT_EQ(attention::gpt_train_slice(sliced, 0).error, "sequences is 0; it must be from 1 to 4");
}

TEST(Gpt, SlicesComputedApartAndAddedInOrderAreTheTrainersOwnStepBitForBit) {
  // how the page's workers share a step: the batch drawn, each slice's gradient computed from
  // the step's weights with a work area of its own, added in order; exactly gpt_train_slice's
  std::mt19937 gen(12);
  const std::vector<std::int32_t> data = random_tokens(gen, 80, tiny.vocab);
  auto alone = attention::gpt_trainer<float>(tiny, data, 4, 1e-2, 10, 3).value;
  auto shared = attention::gpt_trainer<float>(tiny, data, 4, 1e-2, 10, 3).value;
  attention::GptWork<float> apart;
  const auto T = long(tiny.context);
  for (int step = 0; step < 3; ++step) {
    std::optional<double> loss;
    while (!loss) loss = attention::gpt_train_slice(alone, 2).value;
    attention::gpt_train_draw(shared);
    const std::vector<float> weights = shared.params;
    std::optional<double> added;
    for (long s = 0; s < 4; s += 2) {
      apart.tokens.assign(shared.tokens.begin() + s * T, shared.tokens.begin() + (s + 2) * T);
      apart.targets.assign(shared.targets.begin() + s * T, shared.targets.begin() + (s + 2) * T);
      apart.transposed_current = false;
      ASSERT_EQ(attention::gpt_slice_gradient(tiny, weights, 2, apart), "");
      added = attention::gpt_train_add(shared, 2, apart.trace.loss, apart.grads).value;
    }
    ASSERT_TRUE(added.has_value());
    EXPECT_EQ(*added, *loss) << "step " << step;
    for (size_t i = 0; i < alone.params.size(); ++i)
      ASSERT_EQ(shared.params[i], alone.params[i]) << "step " << step << ", parameter " << i;
  }
}

TEST(Gpt, ASliceAddedWrongIsRefusedAndTheStepStaysAsItWas) {
  std::mt19937 gen(13);
  const std::vector<std::int32_t> data = random_tokens(gen, 80, tiny.vocab);
  auto t = attention::gpt_trainer<double>(tiny, data, 2, 1e-2, 10, 3).value;
  const std::vector<double> grads(t.params.size(), 0.5);
  EXPECT_EQ(attention::gpt_train_add(t, 1, 1.0, grads).error,
            "no step is under way: its batch is drawn first");
  attention::gpt_train_draw(t);
  EXPECT_EQ(attention::gpt_train_add(t, 3, 1.0, grads).error,
            "sequences is 3; it must be from 1 to 2");
  EXPECT_EQ(attention::gpt_train_add(t, 1, 1.0, std::vector<double>(3, 0.5)).error,
            "gradients has 3 numbers but the model has " + std::to_string(t.params.size()) +
                " parameters");
  std::vector<double> bad = grads;
  bad.back() = std::numeric_limits<double>::infinity();
  EXPECT_EQ(attention::gpt_train_add(t, 1, 1.0, bad).error,
            "a gradient overflows: the loss is too steep");
  // none of that was added: the step is still at none of its sequences, its gradient zero
  EXPECT_EQ(t.done, 0);
  for (const double g : t.grads) ASSERT_EQ(g, 0.0);
  EXPECT_FALSE(attention::gpt_train_add(t, 1, 1.0, grads).value.has_value());
  EXPECT_EQ(t.done, 1);
}

TEST(Gpt, GenerationSamplesTheLogitsButNeverTheUnknownToken) {
  std::mt19937 gen(5);
  std::vector<double> p = random_params(gen, tiny);
  // make the unknown token (1) the likeliest after anything: its embedding along the last
  // LayerNorm's output
  const auto layout = attention::gpt_layout(tiny);
  for (Index j = 0; j < tiny.d_model; ++j) p[size_t(layout[0].offset + tiny.d_model + j)] *= 8;
  const std::vector<std::int32_t> prompt{2, 3};
  const auto f = attention::gpt_forward<double>(tiny, p, prompt, 1).value;
  Eigen::Index best = 0;
  auto last = f.logits.row(1).eval();
  last(1) = -INFINITY;
  last.maxCoeff(&best);
  const auto greedy = attention::gpt_generate<double>(tiny, p, prompt, 1, 0, 1, -1).value;
  EXPECT_EQ(greedy, std::vector<std::int32_t>{std::int32_t(best)});
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto out = attention::gpt_generate<double>(tiny, p, prompt, 12, 1.5, seed, -1).value;
    EXPECT_EQ(out.size(), 12u);
    for (const auto t : out) EXPECT_NE(t, 1) << seed;
  }
  // it stops after the end token
  const auto stopped = attention::gpt_generate<double>(tiny, p, prompt, 12, 1.5, 3, 0).value;
  const auto end = std::find(stopped.begin(), stopped.end(), 0);
  EXPECT_TRUE(end == stopped.end() || end + 1 == stopped.end());
  EXPECT_EQ(attention::gpt_generate<double>(tiny, p, {}, 3, 1, 1).error,
            "the prompt is empty: give it at least one token");
  EXPECT_EQ(attention::gpt_generate<double>(tiny, p, prompt, 3, -1, 1).error,
            "temperature is -1; it must be 0 or above");
}

TEST(Gpt, Errors) {
  const std::vector<double> p = attention::gpt_init<double>(tiny, 1);
  EXPECT_EQ(attention::gpt_forward<double>(tiny, p, {1, 2, 9}, 1).error,
            "tokens[3] is 9; it must be from 0 to 6 (the vocabulary)");
  EXPECT_EQ(attention::gpt_forward<double>(tiny, p, {1, 2, 3, 4, 5, 6}, 1).error,
            "each sequence has 6 tokens, over the context of 5");
  EXPECT_EQ(attention::gpt_forward<double>(tiny, p, {1, 2, 3}, 2).error,
            "tokens has 3 numbers, which is not batch×length for batch 2");
  EXPECT_EQ(attention::gpt_forward<double>(tiny, {1.0}, {1}, 1).error,
            "params has 1 number but the model has " + std::to_string(attention::gpt_size(tiny)));
  GptConfig odd = tiny;
  odd.heads = 8;
  EXPECT_EQ(attention::check_gpt_config(odd),
            "d_model 8 is not heads × an even d_head (heads = 8; RoPE turns pairs)");
  // the parameters' cap names what makes them, worked out here: 65536·512 + 16·(12·512² +
  // 9·512) + 2·512 = 33,554,432 + 50,405,376 + 1,024
  const GptConfig big{65536, 8, 512, 16, 8};
  EXPECT_EQ(attention::check_gpt_config(big),
            "the model would have 83960832 parameters (vocab × d_model + layers × (12·d_model² + "
            "9·d_model) + 2·d_model), over the limit of 33554432 values a matrix");
  const GptConfig plain{65536, 8, 512, 16, 8, 10000, false};  // no MLPs: 4·512² + 2·512 a layer
  EXPECT_EQ(attention::gpt_size(plain), 65536 * 512 + 16 * (4 * 512 * 512 + 2 * 512) + 2 * 512);
  EXPECT_EQ(attention::check_gpt_config(plain),
            "the model would have 50349056 parameters (vocab × d_model + layers × (4·d_model² + "
            "2·d_model) + 2·d_model), over the limit of 33554432 values a matrix");
  // a model that cannot run at its own context is refused when it is made, not at its first long
  // pass: 1024 × 40000 logits
  EXPECT_EQ(attention::check_gpt_config(GptConfig{40000, 1024, 16, 1, 2}),
            "context × vocab is 40960000: the logits of one sequence at its full context would "
            "pass the limit of 33554432 values a matrix");
  EXPECT_EQ(attention::check_gpt_config(GptConfig{32768, 1024, 16, 1, 2}), "");
}

}  // namespace
