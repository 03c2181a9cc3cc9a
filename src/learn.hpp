// learn.hpp: gradient descent as the "how it learns" labs run it. Every step's forward trace,
// its gradients (backward.hpp) and the update come from here, so that every number those labs
// show is the core's: plain gradient descent, w ← w − η·dL/dw.
#pragma once

#include <vector>

#include "backward.hpp"

namespace attention {

// ---- learn the sharpness: α multiplies the age lookup's query ----

// One step at α: the lookup of α·q, L = (output − target)², dL/dα = dL/d(query) · q.
struct SharpnessStep {
  double alpha = 0;
  double loss = 0;
  double d_output = 0;
  double d_alpha = 0;
  double next = 0;
  AttentionBackward at;  // the lookup of α·q and its gradients for dL/d(output)

  static constexpr const char* kName = "SharpnessStep";
  static constexpr auto fields() {
    return std::tuple{field("alpha", &SharpnessStep::alpha, "α at this step"),
                      field("loss", &SharpnessStep::loss, "(output − target)²"),
                      field("d_output", &SharpnessStep::d_output, "2·(output − target)"),
                      field("d_alpha", &SharpnessStep::d_alpha, "dL/dα"),
                      field("next", &SharpnessStep::next, "α − η·dL/dα"),
                      inlined(&SharpnessStep::at)};
  }
};

// q (1, d_k), K (n_k, d_k), V (n_k, 1): steps from α = alpha, with learning rate eta. steps
// from 1 to kMaxSteps; every number finite.
inline constexpr Index kMaxSteps = 1000;
Result<std::vector<SharpnessStep>> sharpness_descent(const MatrixRef<double>& q,
                                                     const MatrixRef<double>& K,
                                                     const MatrixRef<double>& V, double target,
                                                     double alpha, double eta, Index steps);

// ---- teach a row to attend: W_Q and W_K of self-attention, on a cross-entropy ----

// One step: the self-attention of X with W_Q, W_K and W_V; L = −log weights[row][key], the
// cross-entropy of that row's weights against the key; its gradients (the loss is on the
// weights themselves, so dL/d(output) is 0 and dL/d(weights) is −1/w at that one cell).
struct TeachStep {
  Matrix<double> w_q, w_k;
  double loss = 0;
  AttentionBackward at;

  static constexpr const char* kName = "TeachStep";
  static constexpr auto fields() {
    return std::tuple{field("wq", &TeachStep::w_q, "(d_model, d_k) W_Q before this step"),
                      field("wk", &TeachStep::w_k, "(d_model, d_k) W_K before this step"),
                      field("loss", &TeachStep::loss, "−log weights[row][key]"),
                      inlined(&TeachStep::at)};
  }
};

struct TeachRun {
  std::vector<TeachStep> steps;
  Matrix<double> w_q, w_k;
  Trace<double> after;

  static constexpr const char* kName = "TeachRun";
  static constexpr auto fields() {
    return std::tuple{field("steps", &TeachRun::steps, "each step, in order"),
                      field("wq", &TeachRun::w_q, "(d_model, d_k) W_Q after the last step"),
                      field("wk", &TeachRun::w_k, "(d_model, d_k) W_K after the last step"),
                      field("after", &TeachRun::after,
                            "the self-attention with them (the wrapper's `{ trace }`)")};
  }
};

// X (n, d_model), W_Q and W_K (d_model, d_k) to start from, W_V (d_model, d_v) kept; row and
// key from 0; steps from 1 to kMaxSteps.
Result<TeachRun> teach_descent(const MatrixRef<double>& X, const MatrixRef<double>& W_Q,
                               const MatrixRef<double>& W_K, const MatrixRef<double>& W_V,
                               Index row, Index key, double eta, Index steps);

}  // namespace attention
