// convert.hpp: the Python boundary (pybind11), as src/wasm/convert.hpp is the JS one. Matrices
// come in as 2-D float64 NumPy arrays that python/attention_by_hand/ has checked and made
// C-contiguous; results go out through one conversion that walks each struct's declared fields
// (src/fields.hpp): matrices and vectors as NumPy arrays (copies), numbers as numbers, lists
// as lists, names as declared (snake_case). An error goes out as { "error": message }, which
// the Python side raises as ValueError: no C++ exception crosses into Python.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../attention.hpp"

namespace attention::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A 2-D array as a row-major view of its numbers (the Python side has checked it is 2-D).
inline Eigen::Map<const Matrix<double>> view(const Array& a) {
  const Index rows = a.ndim() == 2 ? Index(a.shape(0)) : 0;
  const Index cols = a.ndim() == 2 ? Index(a.shape(1)) : 0;
  return {a.data(), rows, cols};
}

// An input struct that declares its fields (src/fields.hpp), read by the same walk: each field
// from the dict's key of its declared name, when present and not None (attention_by_hand has
// checked its kind); numbers, booleans and strings.
template <typename T>
T read_fields(const py::dict& d) {
  T out;
  for_each_field(out, [&](const char* name, auto& member) {
    using M = std::decay_t<decltype(member)>;
    if (!d.contains(name) || d[name].is_none()) return;
    static_assert(std::is_arithmetic_v<M> || std::is_same_v<M, std::string>,
                  "an input's field is a number, a flag or a string");
    member = d[name].cast<M>();
  });
  return out;
}

template <typename T>
py::object to_py(const T& x) {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
    return py::cast(x);
  } else if constexpr (std::is_integral_v<T>) {
    return py::int_(static_cast<long long>(x));
  } else if constexpr (std::is_floating_point_v<T>) {
    return py::float_(double(x));
  } else if constexpr (is_eigen_v<T>) {
    using S = typename T::Scalar;
    if constexpr (T::ColsAtCompileTime == 1) {
      return py::array_t<S>(py::ssize_t(x.size()), x.data());  // copies
    } else {
      return py::array_t<S>({py::ssize_t(x.rows()), py::ssize_t(x.cols())}, x.data());
    }
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    if constexpr (std::is_arithmetic_v<E>) {
      return py::array_t<E>(py::ssize_t(x.size()), x.data());
    } else {
      py::list out;
      for (const E& e : x) out.append(to_py(e));
      return std::move(out);
    }
  } else {
    static_assert(has_fields_v<T>, "a result leaves the core through its declared fields");
    py::dict out;
    for_each_field(x, [&](const char* name, const auto& member) {
      if (present(member)) out[name] = to_py(value_of(member));
    });
    return std::move(out);
  }
}

inline py::dict error(const std::string& message) {
  py::dict out;
  out["error"] = message;
  return out;
}

template <typename T>
py::object to_py(const Result<T>& result) {
  return result.ok() ? to_py(result.value) : py::object(error(result.error));
}

}  // namespace attention::python
