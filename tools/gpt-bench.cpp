// gpt-bench.cpp: the real model's training speed natively, for `make bench`
// (tools/gpt-bench.mjs). One thread, float32, built with the same flags as `make train`. It
// measures this machine's Eigen float32 matrix-multiply rate (the best of a few runs of a 512³
// product and of the model's own shapes), then the training step (gpt_train_step) on random tokens,
// and prints JSON: the step's median time, tokens per second, its matrix-product FLOPs and the
// fraction of the measured rate that it reaches. With --fingerprint first, instead: the loss of
// each of the first 20 steps, taken a sequence at a time (gpt_train_slice) as the page takes
// them, and a 64-bit FNV-1a hash of the weights' float32 bits after them, to check that a
// change to the step leaves its numbers as they were, bit for bit (docs/performance.md).
//
//   attention_gpt_bench [--fingerprint] VOCAB CONTEXT D_MODEL LAYERS HEADS BATCH
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "gpt.hpp"

namespace {

using attention::Index;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The best rate of (m × k)·(k × n), in GFLOP/s.
double gemm_rate(Index m, Index k, Index n) {
  const attention::Matrix<float> a = attention::Matrix<float>::Random(m, k);
  const attention::Matrix<float> b = attention::Matrix<float>::Random(k, n);
  attention::Matrix<float> c(m, n);
  const int repeats = std::max(1, int(2e9 / (2.0 * double(m) * double(k) * double(n))));
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const auto t = Clock::now();
    for (int r = 0; r < repeats; ++r) c.noalias() = a * b;
    best = std::max(best, 2.0 * double(m) * double(k) * double(n) * repeats / seconds_since(t));
  }
  std::fprintf(stderr, "%ldx%ldx%ld %.3f\n", long(m), long(k), long(n), double(c(0, 0)));
  return best / 1e9;
}

// The losses of the first 20 steps and the weights' hash after them, as JSON.
void fingerprint(attention::GptTrainer<float>& trainer) {
  std::printf("{\"losses\":[");
  for (int s = 0; s < 20; ++s) {
    std::optional<double> loss;
    while (!loss) loss = attention::gpt_train_slice(trainer, 1).value;
    std::printf("%s%.17g", s ? "," : "", *loss);
  }
  std::uint64_t h = 0xcbf29ce484222325u;
  for (const float p : trainer.params) {
    std::uint32_t bits;
    std::memcpy(&bits, &p, sizeof bits);
    for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 0xffu)) * 0x100000001b3u;
  }
  std::printf("],\"params\":\"%016llx\"}\n", static_cast<unsigned long long>(h));
}

}  // namespace

int main(int argc, char** argv) {
  const bool fingerprinting = argc == 8 && std::strcmp(argv[1], "--fingerprint") == 0;
  if (argc != 7 && !fingerprinting) {
    std::fprintf(stderr,
                 "usage: attention_gpt_bench [--fingerprint] VOCAB CONTEXT D_MODEL LAYERS HEADS "
                 "BATCH\n");
    return 2;
  }
  const auto arg = [&](int i) { return Index(std::atol(argv[i + (fingerprinting ? 1 : 0)])); };
  const attention::GptConfig c{arg(1), arg(2), arg(3), arg(4), arg(5)};
  const Index batch = arg(6);
  std::vector<std::int32_t> data(200000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = std::int32_t((i * 7919) % size_t(c.vocab));
  auto made = attention::gpt_trainer<float>(c, data, batch, 3e-3, 1000, 1);
  if (!made.ok()) {
    std::fprintf(stderr, "gpt-bench: %s\n", made.error.c_str());
    return 2;
  }
  if (fingerprinting) {
    fingerprint(made.value);
    return 0;
  }
  const double n = double(batch * c.context), C = double(c.d_model);
  const double square = gemm_rate(512, 512, 512);
  const double logits = gemm_rate(batch * c.context, c.d_model, c.vocab);
  const double mlp = gemm_rate(batch * c.context, c.d_model, 4 * c.d_model);
  std::vector<double> ms;
  for (int s = 0; s < 23; ++s) {
    const auto t = Clock::now();
    attention::gpt_train_step(made.value);
    if (s >= 3) ms.push_back(seconds_since(t) * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  // the matrix products of a step: forward per layer q, k, v, o (8nC²), the MLP (16nC²), the
  // heads' scores and weights·v over the whole T×T (4nTC); the logits (2nCV); backward twice
  // the forward
  const double forward = double(c.layers) * (24 * n * C * C + 4 * n * double(c.context) * C) +
                         2 * n * C * double(c.vocab);
  const double flops = 3 * forward;
  const double gflops = flops / (median / 1e3) / 1e9;
  std::printf(
      "{\"gemmGflops\":{\"square512\":%.2f,\"logits\":%.2f,\"mlp\":%.2f},\"stepMs\":%.3f,"
      "\"tokensPerSecond\":%.0f,\"stepGflop\":%.4f,\"stepGflops\":%.2f,\"fractionOfGemm\":%.3f}\n",
      square, logits, mlp, median, n / (median / 1e3), flops / 1e9, gflops,
      gflops / std::max({square, logits, mlp}));
  return 0;
}
