// learn_test.cpp: the labs' gradient descent (learn.hpp): the age lookup's α by hand (its
// output, loss and dL/dα at α = 1, and output(α) = 19 + 3/(3e^{α/√3} + 1) worked out here),
// dL/dα against central differences, where the descents go, and a row taught to attend.
#include "learn.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

using attention::Index;
using Mat = attention::Matrix<double>;

// The age table: q "surname Zhang", K and V of 张三, 张三, 李四, 张麻子.
const Mat q = (Mat(1, 3) << 1, 0, 0).finished();
const Mat K = (Mat(4, 3) << 1, 2, 0, 1, 2, 0, 0, 0, 2, 1, 4, 0).finished();
const Mat V = (Mat(4, 1) << 18, 20, 22, 19).finished();

// output(α) worked out by hand: three keys score α/√3, 李四 scores 0.
double output(double alpha) { return 19 + 3 / (3 * std::exp(alpha / std::sqrt(3.0)) + 1); }

TEST(Learn, TheSharpnessAtAlphaOneByHand) {
  const auto r = attention::sharpness_descent(q, K, V, 19, 1, 10, 1);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& s = r.value[0];
  EXPECT_NEAR(s.at.trace.output(0, 0), 19.472892, 5e-7);
  EXPECT_NEAR(s.at.trace.output(0, 0), output(1), 1e-12);
  EXPECT_NEAR(s.loss, 0.223627, 5e-7);
  EXPECT_NEAR(s.d_alpha, -0.217519, 5e-7);
  EXPECT_DOUBLE_EQ(s.d_output, 2 * (s.at.trace.output(0, 0) - 19));
  EXPECT_DOUBLE_EQ(s.next, 1 - 10 * s.d_alpha);
}

TEST(Learn, DLossDAlphaEqualsFiniteDifferencesAlongTheDescent) {
  for (const double target : {19.0, 19.2}) {
    const auto r = attention::sharpness_descent(q, K, V, target, 0.5, 5, 12);
    ASSERT_TRUE(r.ok()) << r.error;
    for (const auto& s : r.value) {
      const double h = 1e-5;
      const auto loss = [&](double a) { return std::pow(output(a) - target, 2); };
      const double numeric = (loss(s.alpha + h) - loss(s.alpha - h)) / (2 * h);
      EXPECT_NEAR(s.d_alpha, numeric, 1e-7 * std::fabs(numeric) + 1e-10) << "α = " << s.alpha;
      EXPECT_NEAR(s.loss, loss(s.alpha), 1e-12);
    }
  }
}

TEST(Learn, WhereTheDescentsGo) {
  // Target 19 has no finite minimum: α grows, the loss falls, and learning slows.
  const auto slow = attention::sharpness_descent(q, K, V, 19, 1, 10, 30).value;
  for (size_t t = 1; t < slow.size(); ++t) {
    EXPECT_GT(slow[t].alpha, slow[t - 1].alpha);
    EXPECT_LT(slow[t].loss, slow[t - 1].loss);
    EXPECT_LT(std::fabs(slow[t].d_alpha), std::fabs(slow[t - 1].d_alpha));
  }
  // A step that is too large lands α where the gradient is almost 0.
  const auto far = attention::sharpness_descent(q, K, V, 19, 1, 50, 3).value;
  EXPECT_GT(far[1].alpha, 11);
  EXPECT_LT(std::fabs(far[1].d_alpha), 1e-4);
  // Target 19.2 has its minimum where output(α) = 19.2: α* = √3·ln(14/3).
  const double best = std::sqrt(3.0) * std::log(14.0 / 3);
  const auto found = attention::sharpness_descent(q, K, V, 19.2, 1, 20, 25).value;
  EXPECT_NEAR(found.back().next, best, 1e-3);
  // With η = 40 the first step overshoots it, and the loss goes up before it comes down.
  const auto over = attention::sharpness_descent(q, K, V, 19.2, 1, 40, 10).value;
  EXPECT_GT(over[1].alpha, best);
  EXPECT_GT(over[1].d_alpha, 0) << "past the minimum the gradient turns";
}

TEST(Learn, ARowTaughtToAttend) {
  std::mt19937 gen(2);
  std::normal_distribution<double> normal;
  Mat X(5, 3), W_Q(3, 3), W_K(3, 3);
  for (Mat* m : {&X, &W_Q, &W_K})
    for (Index i = 0; i < m->size(); ++i) m->data()[i] = normal(gen);
  const auto r = attention::teach_descent(X, W_Q, W_K, Mat::Identity(3, 3), 4, 1, 0.5, 40);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& steps = r.value.steps;
  EXPECT_EQ(steps[0].w_q, W_Q);
  EXPECT_NEAR(steps[0].loss, -std::log(steps[0].at.trace.weights(4, 1)), 1e-15);
  EXPECT_EQ(steps[1].w_q, W_Q - 0.5 * steps[0].at.gradients.w_q);
  EXPECT_LT(steps.back().loss, steps[0].loss / 4);
  EXPECT_GT(steps.back().at.trace.weights(4, 1), 0.7);
}

TEST(Learn, Errors) {
  EXPECT_EQ(attention::sharpness_descent(q, K, V, 19, 1, 10, 0).error,
            "steps is 0; it must be from 1 to 1000");
  EXPECT_EQ(attention::sharpness_descent(q, K, V, 19, 1, std::nan(""), 1).error,
            "η is NaN; it must be a finite number");
  EXPECT_EQ(attention::sharpness_descent(K, K, V, 19, 1, 1, 1).error,
            "q has 4 rows; the lookup has one query");
  EXPECT_EQ(attention::sharpness_descent(q, K, K, 19, 1, 1, 1).error,
            "V has 3 columns; the lookup gives one number");
  EXPECT_EQ(attention::sharpness_descent(q, K, V, 1e200, 1, 1, 2).error,
            "step 1: the loss (output − target)² overflows to Infinity");
  const Mat X = Mat::Ones(3, 2);
  EXPECT_EQ(
      attention::teach_descent(X, Mat::Ones(2, 2), Mat::Ones(2, 2), Mat::Ones(2, 2), 3, 0, 1, 1)
          .error,
      "row is 4; it must be from 1 to 3 (X's rows)");
  EXPECT_EQ(
      attention::teach_descent(X, Mat::Ones(2, 2), Mat::Ones(3, 2), Mat::Ones(2, 2), 0, 0, 1, 1)
          .error,
      "step 1: W_K has 3 rows but X has 2 columns (X·W_K needs them equal)");
}

}  // namespace
