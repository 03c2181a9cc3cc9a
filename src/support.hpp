// support.hpp: what every part of the core says and checks the same way. Numbers, shapes and
// cells as messages write them (rows and columns counted from 1, as the page counts them), the
// size limits, finite inputs, and arithmetic that overflows on finite input. attention.cpp,
// multihead.cpp, why.cpp and the gradients all word their errors through these.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "attention.hpp"
#include "random.hpp"

namespace attention {

// A number as JS would name it, to 6 significant digits as printf's %g writes it: 0.5,
// -2.5e+10, NaN, Infinity, -Infinity. Written out, so that the WASM module carries no printf.
std::string number(double x);

// count(1, "row") is "1 row", count(3, "row") is "3 rows".
std::string count(std::int64_t n, const char* word);

// shape(3, 2) is "3×2".
std::string shape(Index rows, Index cols);

// row(0) is "[1]"; cell(0, 1) is "[1][2]".
std::string row(Index i);
std::string cell(Index i, Index j);

// "block is 0; it must be from 1 to 11 (n_k)": `what` follows the range.
std::string range_error(const std::string& name, std::int64_t value, std::int64_t low,
                        std::int64_t high, const std::string& what = "");

// A matrix's shape against the limits (kMaxDim per dimension, kMaxValues in all), and at least
// one row: "K is 9000×2, over the limit of 8192 per dimension".
std::string check_size(const std::string& name, Index rows, Index cols);

// `where` prefixes the message, for example "batch 1, head 2: ". "Q[2][1] is NaN; every input
// must be finite".
template <typename T>
std::string check_finite(const std::string& name, const T* data, Index rows, Index cols,
                         const std::string& where = "") {
  for (Index i = 0; i < rows * cols; ++i) {
    if (!std::isfinite(data[i])) {
      return where + name + cell(i / cols, i % cols) + " is " +
             (std::isnan(data[i]) ? "NaN" : "infinite") + "; every input must be finite";
    }
  }
  return {};
}

// An input matrix: its size, at least one row and one column (unless empty_ok: a cache may be
// empty), and finite numbers.
template <typename T>
std::string check_input(const std::string& name, const MatrixRef<T>& m, bool empty_ok = false) {
  if (m.rows() > 0 || !empty_ok) {
    if (auto error = check_size(name, m.rows(), m.cols()); !error.empty()) return error;
  }
  if (!empty_ok && m.cols() == 0) return name + " has 0 columns (it is " + shape(m.rows(), 0) + ")";
  return check_finite(name, m.data(), m.rows(), m.cols());
}

// "scores[2][1] = Q[2]·K[1] overflows to Infinity; the inputs are finite but too large for
// double (at most 1.8e308)"
std::string overflow_message(const std::string& where, const std::string& name, Index i, Index j,
                             const std::string& formula, double x, bool float32);

// Finite inputs can still overflow. The first cell of m that is not finite, with the formula
// (i, j) → text that made it, or "" when every cell is finite.
template <typename T, typename Formula>
std::string check_overflow(const std::string& name, const Matrix<T>& m, Formula formula,
                           const std::string& where = "") {
  if (m.allFinite()) return {};
  Index at = 0;
  while (std::isfinite(m.data()[at])) ++at;
  const Index i = at / m.cols(), j = at % m.cols();
  return overflow_message(where, name, i, j, formula(i, j), double(m.data()[at]),
                          std::is_same_v<T, float>);
}

// Dropout's kept cells of an (rows, cols) matrix, one draw of the stream per cell, row by row:
// a cell is dropped when its draw is below p. The forward pass and its gradient draw the same.
inline Mask dropout_keep(SplitMix64& rng, double p, Index rows, Index cols) {
  Mask keep(rows, cols);
  for (Index i = 0; i < keep.size(); ++i) keep.data()[i] = !(rng.uniform() < p);
  return keep;
}

// "X[2]·(column 3 of W_Q)": how a cell of a product of a matrix and a weight matrix is made.
std::string product_formula(const std::string& left, Index i, const std::string& right, Index j);

}  // namespace attention
