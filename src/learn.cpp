// learn.cpp: the gradient descent of learn.hpp. Each step is a forward call and its backward
// pass (backward.cpp), then the update.
#include "learn.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "support.hpp"

namespace attention {
namespace {

// η and the number of steps, as both descents take them.
std::string check_descent(double eta, Index steps) {
  if (!std::isfinite(eta)) return "η is " + number(eta) + "; it must be a finite number";
  if (steps < 1 || steps > kMaxSteps) return range_error("steps", steps, 1, kMaxSteps);
  return {};
}

// "step 3: …": which step of a descent went wrong.
std::string at_step(Index t, const std::string& error) {
  return "step " + std::to_string(t + 1) + ": " + error;
}

}  // namespace

Result<std::vector<SharpnessStep>> sharpness_descent(const MatrixRef<double>& q,
                                                     const MatrixRef<double>& K,
                                                     const MatrixRef<double>& V, double target,
                                                     double alpha, double eta, Index steps) {
  if (auto e = check_descent(eta, steps); !e.empty()) return {{}, e};
  if (q.rows() != 1) return {{}, "q has " + count(q.rows(), "row") + "; the lookup has one query"};
  if (V.cols() != 1) {
    return {{}, "V has " + count(V.cols(), "column") + "; the lookup gives one number"};
  }
  for (auto [name, x] : {std::pair{"target", target}, std::pair{"α", alpha}}) {
    if (!std::isfinite(x))
      return {{}, std::string(name) + " is " + number(x) + "; it must be finite"};
  }
  std::vector<SharpnessStep> path;
  for (Index t = 0; t < steps; ++t) {
    SharpnessStep s;
    s.alpha = alpha;
    const Matrix<double> query = q * alpha;  // (1, d_k)
    Result<Trace<double>> forward = attend<double>(query, K, V);
    if (!forward.ok()) return {{}, at_step(t, forward.error)};
    const double output = forward.value.output(0, 0);
    s.loss = (output - target) * (output - target);
    s.d_output = 2 * (output - target);
    Result<AttentionBackward> back =
        attend_backward(query, K, V, {Matrix<double>::Constant(1, 1, s.d_output), {}});
    if (!back.ok()) return {{}, at_step(t, back.error)};
    s.at = std::move(back.value);
    s.d_alpha = s.at.gradients.q.row(0).dot(q.row(0));
    s.next = alpha - eta * s.d_alpha;
    if (!std::isfinite(s.loss)) {
      return {{}, at_step(t, "the loss (output − target)² overflows to Infinity")};
    }
    if (!std::isfinite(s.next)) {
      return {{}, at_step(t, "α − η·dL/dα = " + number(s.next) + " is not finite; η is too large")};
    }
    alpha = s.next;
    path.push_back(std::move(s));
  }
  return {std::move(path), {}};
}

Result<TeachRun> teach_descent(const MatrixRef<double>& X, const MatrixRef<double>& W_Q,
                               const MatrixRef<double>& W_K, const MatrixRef<double>& W_V,
                               Index row, Index key, double eta, Index steps) {
  if (auto e = check_descent(eta, steps); !e.empty()) return {{}, e};
  if (row < 0 || row >= X.rows())
    return {{}, range_error("row", row + 1, 1, X.rows(), " (X's rows)")};
  if (key < 0 || key >= X.rows())
    return {{}, range_error("key", key + 1, 1, X.rows(), " (X's rows)")};
  TeachRun run{{}, W_Q, W_K, {}};
  for (Index t = 0; t < steps; ++t) {
    TeachStep s;
    s.w_q = run.w_q;
    s.w_k = run.w_k;
    Result<Trace<double>> forward = self_attention<double>(X, s.w_q, s.w_k, W_V);
    if (!forward.ok()) return {{}, at_step(t, forward.error)};
    const double w = forward.value.weights(row, key);
    if (!(w > 0)) {
      return {{}, at_step(t, "weights" + cell(row, key) + " is 0: its cross-entropy is infinite")};
    }
    s.loss = -std::log(w);
    LossGradients loss{Matrix<double>::Zero(X.rows(), W_V.cols()),
                       Matrix<double>::Zero(X.rows(), X.rows())};
    loss.weights(row, key) = -1 / w;
    Result<AttentionBackward> back = self_attention_backward(X, s.w_q, s.w_k, W_V, loss);
    if (!back.ok()) return {{}, at_step(t, back.error)};
    s.at = std::move(back.value);
    run.w_q = s.w_q - eta * s.at.gradients.w_q;
    run.w_k = s.w_k - eta * s.at.gradients.w_k;
    if (!run.w_q.allFinite() || !run.w_k.allFinite()) {
      return {{}, at_step(t, "W − η·dL/dW is not finite; η is too large")};
    }
    run.steps.push_back(std::move(s));
  }
  Result<Trace<double>> after = self_attention<double>(X, run.w_q, run.w_k, W_V);
  if (!after.ok()) return {{}, at_step(steps - 1, after.error)};
  run.after = std::move(after.value);
  return {std::move(run), {}};
}

}  // namespace attention
