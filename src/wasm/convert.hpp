// convert.hpp: the embind boundary, shared by every module of the bindings (core.cpp, inside.cpp,
// why.cpp, learn.cpp, gpt.cpp). JS matrices come in as { rows, cols, data }; results go out
// through one conversion that walks each struct's declared fields (src/fields.hpp): matrices
// as { rows, cols, data } of copied typed arrays, vectors as typed arrays, numbers as numbers,
// names in camelCase. An error goes out as { error }. No C++ exception crosses into JS: the
// core throws none. A module also lists the result types it returns (register_results), so that
// resultFields() can tell the tests every field a result has.
#pragma once

#include <emscripten/bind.h>

#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../attention.hpp"

namespace attention::wasm {

using emscripten::val;

// ---- in: what web/wasm/ packs ----

// A matrix that arrived from JS: its numbers, owned here, and a row-major view of them.
struct JsMatrix {
  std::vector<double> data;
  Index rows = 0, cols = 0;
  Eigen::Map<const Matrix<double>> view() const { return {data.data(), rows, cols}; }
};

inline JsMatrix read_matrix(const val& js) {
  JsMatrix m{emscripten::convertJSArrayToNumberVector<double>(js["data"]), js["rows"].as<Index>(),
             js["cols"].as<Index>()};
  if (Index(m.data.size()) != m.rows * m.cols) m.rows = m.cols = 0;
  return m;
}

template <typename T>
std::vector<T> read_numbers(const val& js) {
  return emscripten::convertJSArrayToNumberVector<T>(js);
}

// { scale?, causal, mask?: { rows, cols, data: Uint8Array }, maskValue?, dropoutP, seed }
inline Options read_options(const val& js) {
  Options options;
  if (!js["scale"].isUndefined()) options.scale = js["scale"].as<double>();
  if (js["causal"].as<bool>()) options.mask_kind = MaskKind::kCausal;
  if (!js["mask"].isUndefined()) {
    const val mask = js["mask"];
    const auto cells = read_numbers<std::uint8_t>(mask["data"]);
    options.mask_kind = MaskKind::kExplicit;
    options.mask.resize(mask["rows"].as<Index>(), mask["cols"].as<Index>());
    if (Index(cells.size()) != options.mask.size()) options.mask.resize(0, 0);
    for (Index i = 0; i < options.mask.size(); ++i) options.mask.data()[i] = cells[i] != 0;
  }
  if (!js["maskValue"].isUndefined()) options.mask_value = js["maskValue"].as<double>();
  options.dropout_p = js["dropoutP"].as<double>();
  options.seed = static_cast<std::uint64_t>(js["seed"].as<double>());
  return options;
}

// ---- out: one conversion for every declared result ----

// "blocked_rows" → "blockedRows"
inline std::string camel(const char* name) {
  std::string out;
  for (const char* c = name; *c; ++c) {
    if (*c == '_' && c[1] != 0) {
      out += char(std::toupper(static_cast<unsigned char>(*++c)));
    } else {
      out += *c;
    }
  }
  return out;
}

// An input struct that declares its fields (src/fields.hpp), read by the same walk: each field
// from the JS property of its camelCase name, when present (web/wasm/ has checked its
// kind); numbers, booleans and strings.
template <typename T>
T read_fields(const val& js) {
  T out;
  for_each_field(out, [&](const char* name, auto& member) {
    using M = std::decay_t<decltype(member)>;
    const val x = js[camel(name)];
    if (x.isUndefined()) return;
    if constexpr (std::is_same_v<M, bool> || std::is_same_v<M, std::string>) {
      member = x.as<M>();
    } else {
      static_assert(std::is_arithmetic_v<M>, "an input's field is a number, a flag or a string");
      member = static_cast<M>(x.as<double>());
    }
  });
  return out;
}

template <typename T>
val typed_copy(const T* data, size_t size) {
  return val(emscripten::typed_memory_view(size, data)).call<val>("slice");
}

template <typename T>
val to_js(const T& x) {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
    return val(x);
  } else if constexpr (std::is_arithmetic_v<T>) {
    return val(double(x));
  } else if constexpr (is_eigen_v<T>) {
    if constexpr (T::ColsAtCompileTime == 1) {
      return typed_copy(x.data(), size_t(x.size()));  // a vector: a typed array
    } else {
      val out = val::object();
      out.set("rows", x.rows());
      out.set("cols", x.cols());
      out.set("data", typed_copy(x.data(), size_t(x.size())));
      return out;
    }
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    if constexpr (std::is_arithmetic_v<E>) {
      return typed_copy(x.data(), x.size());
    } else {
      val out = val::array();
      for (const E& e : x) out.call<void>("push", to_js(e));
      return out;
    }
  } else {
    static_assert(has_fields_v<T>, "a result leaves the core through its declared fields");
    val out = val::object();
    for_each_field(x, [&](const char* name, const auto& member) {
      if (present(member)) out.set(camel(name), to_js(value_of(member)));
    });
    return out;
  }
}

inline val error(const std::string& message) {
  val out = val::object();
  out.set("error", message);
  return out;
}

template <typename T>
val to_js(const Result<T>& result) {
  return result.ok() ? to_js(result.value) : error(result.error);
}

// ---- the results' fields, for the tests and tools/api.mjs ----
// { Trace: [{ name: "scores", type: "Matrix", scalar: "float64", what, sometimes }, …], … }

// The TypeScript type a member becomes in JS, before web/wasm/core.js unpacks it.
template <typename T>
std::string ts_type() {
  if constexpr (std::is_same_v<T, bool>) {
    return "boolean";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else if constexpr (std::is_arithmetic_v<T>) {
    return "number";
  } else if constexpr (is_eigen_v<T>) {
    return T::ColsAtCompileTime == 1 ? "number[]" : "Matrix";
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    return std::is_arithmetic_v<E> ? "number[]" : ts_type<E>() + "[]";
  } else if constexpr (is_optional<T>::value) {
    return ts_type<typename T::value_type>();
  } else {
    return T::kName;
  }
}

struct FieldDoc {
  std::string name, type, scalar, what;
  bool sometimes = false;
  // an input's default, its field in T{}, made when asked (embind's types are not registered
  // yet while the modules register theirs)
  std::function<val()> fallback;
};
using FieldDocs = std::map<std::string, std::vector<FieldDoc>>;

// The declared results, and the declared inputs (what read_fields reads).
inline FieldDocs& registered_results() {
  static FieldDocs results;
  return results;
}
inline FieldDocs& registered_inputs() {
  static FieldDocs inputs;
  return inputs;
}

template <typename T>
void register_declared(FieldDocs& registry) {
  if constexpr (is_vector<T>::value || is_optional<T>::value) {
    register_declared<typename T::value_type>(registry);
  } else if constexpr (has_fields_v<T>) {
    auto& fields = registry[T::kName];
    if (!fields.empty()) return;
    for_each_field_type<T>([&](const auto& field, auto tag) {
      using M = typename decltype(tag)::type;
      fields.push_back({field.name, ts_type<M>(), scalar_of<M>(), field.what,
                        field.sometimes || is_optional<M>::value});
      register_declared<M>(registry);
    });
  }
}

// Called in each module's EMSCRIPTEN_BINDINGS block with the result types it returns and the
// input types it reads.
template <typename... Results>
void register_results() {
  (register_declared<Results>(registered_results()), ...);
}
template <typename T>
void register_input() {
  register_declared<T>(registered_inputs());
  const T defaults{};
  size_t i = 0;
  for_each_field(defaults, [&](const char*, const auto& member) {
    registered_inputs()[T::kName][i++].fallback = [member] { return to_js(member); };
  });
}
template <typename... Inputs>
void register_inputs() {
  (register_input<Inputs>(), ...);
}

}  // namespace attention::wasm
