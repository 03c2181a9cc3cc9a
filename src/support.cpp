// support.cpp: the messages and checks of support.hpp.
#include "support.hpp"

namespace attention {

std::string number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  std::string sign = std::signbit(x) && x != 0 ? "-" : "";
  x = std::fabs(x);
  if (x == 0) return sign + "0";
  // 6 significant digits: x ≈ digits × 10^(exponent − 5), 100000 ≤ digits < 1000000. The power
  // of 10 is applied in two halves, which stay finite for denormals and near DBL_MAX.
  const auto digits_at = [x](int e) {
    const double half = std::pow(10.0, (5 - e) / 2);
    return std::round(x * half * std::pow(10.0, 5 - e - (5 - e) / 2));
  };
  int exponent = int(std::floor(std::log10(x)));
  double scaled = digits_at(exponent);
  if (scaled >= 1e6) {  // log10 rounded up to the next power, or the rounding carried
    scaled = digits_at(++exponent);
  } else if (scaled < 1e5) {  // log10 rounded down
    scaled = digits_at(--exponent);
  }
  std::string digits = std::to_string(static_cast<long long>(scaled));
  const bool scientific = exponent < -4 || exponent >= 6;
  const int point = scientific ? 1 : exponent + 1;  // digits before the decimal point
  std::string text;
  if (point <= 0) {
    text = "0." + std::string(-point, '0') + digits;
  } else {
    text = digits.substr(0, point) + "." + digits.substr(point);
  }
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  if (scientific) {
    const int e = std::abs(exponent);
    text += std::string(exponent < 0 ? "e-" : "e+") + (e < 10 ? "0" : "") + std::to_string(e);
  }
  return sign + text;
}

std::string count(std::int64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string shape(Index rows, Index cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

std::string row(Index i) { return "[" + std::to_string(i + 1) + "]"; }
std::string cell(Index i, Index j) { return row(i) + row(j); }

std::string range_error(const std::string& name, std::int64_t value, std::int64_t low,
                        std::int64_t high, const std::string& what) {
  return name + " is " + std::to_string(value) + "; it must be from " + std::to_string(low) +
         " to " + std::to_string(high) + what;
}

std::string check_size(const std::string& name, Index rows, Index cols) {
  if (rows > kMaxDim || cols > kMaxDim) {
    return name + " is " + shape(rows, cols) + ", over the limit of " + std::to_string(kMaxDim) +
           " per dimension";
  }
  if (rows * cols > kMaxValues) {
    return name + " is " + shape(rows, cols) + ", over the limit of " + std::to_string(kMaxValues) +
           " values";
  }
  if (rows == 0) return name + " has no rows (it is " + shape(rows, cols) + ")";
  return {};
}

std::string overflow_message(const std::string& where, const std::string& name, Index i, Index j,
                             const std::string& formula, double x, bool float32) {
  return where + name + cell(i, j) + " = " + formula +
         (std::isnan(x) ? " overflows (its terms reach both Infinity and -Infinity)"
                        : std::string(" overflows to ") + number(x)) +
         "; the inputs are finite but too large for " +
         (float32 ? "float32 (at most 3.4e38)" : "double (at most 1.8e308)");
}

std::string product_formula(const std::string& left, Index i, const std::string& right, Index j) {
  return left + row(i) + "·(column " + std::to_string(j + 1) + " of " + right + ")";
}

}  // namespace attention
