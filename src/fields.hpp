// fields.hpp: how a result declares its fields, once, beside its struct, for every binding to
// walk (the embind one in src/wasm/, and any other). A struct that leaves the core declares
//
//   static constexpr auto fields() {
//     return std::tuple{field("scores", &Trace::scores, "(n_q, n_k) Q·Kᵀ"), …,
//                       sometimes("masked", &Trace::masked, "Only with a mask: …"),
//                       inlined(&SinusoidalTrace::angles)};
//   }
//
// with its own name (`kName`, the name the JS types and docs give it). Field names are
// snake_case, as in C++; a binding may spell them in its language's case (JS: camelCase). Each
// field says what it is, once: the JS types (web/attention.d.ts), docs/api.md's tables and the
// Python stubs (_core.pyi) are generated from these words (tools/api.mjs). `sometimes` marks a
// field that may be absent: a result's step not always taken, or an input the caller may leave
// out (it then keeps the struct's own default). A std::optional member is always `sometimes`.
// A member's words are in its field, not in a comment beside the member.
// `inlined` puts a member's own fields in its place (TypeScript's `extends`). A binding sees,
// for each field, its name and the member's C++ type: numbers, strings, Eigen matrices and
// vectors, std::vector, std::optional, and other structs that declare their fields. Two rules
// hold in every binding (present() and value_of() below): an empty optional is absent, and so
// is an empty matrix (a step not taken, such as `masked` without a mask).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace attention {

template <typename S, typename M>
struct Field {
  const char* name;
  M S::*member;
  const char* what;
  bool sometimes;
};

template <typename S, typename M>
struct Inlined {
  M S::*member;
};

template <typename S, typename M>
constexpr Field<S, M> field(const char* name, M S::*member, const char* what) {
  return {name, member, what, false};
}

template <typename S, typename M>
constexpr Field<S, M> sometimes(const char* name, M S::*member, const char* what) {
  return {name, member, what, true};
}

template <typename S, typename M>
constexpr Inlined<S, M> inlined(M S::*member) {
  return {member};
}

template <typename T>
struct is_inlined : std::false_type {};
template <typename S, typename M>
struct is_inlined<Inlined<S, M>> : std::true_type {};
template <typename T>
inline constexpr bool is_inlined_v = is_inlined<std::decay_t<T>>::value;

template <typename S, typename = void>
struct has_fields : std::false_type {};
template <typename S>
struct has_fields<S, std::void_t<decltype(S::fields())>> : std::true_type {};
template <typename S>
inline constexpr bool has_fields_v = has_fields<S>::value;

// Calls visit(name, member) for every field of s, in order, an inlined member's own fields in
// its place. `s` may be const or not; `member` has the same constness.
template <typename S, typename Visit>
void for_each_field(S& s, Visit&& visit) {
  using Plain = std::remove_const_t<S>;
  std::apply(
      [&](const auto&... f) {
        (
            [&](const auto& one) {
              if constexpr (is_inlined_v<decltype(one)>) {
                for_each_field(s.*(one.member), visit);
              } else {
                visit(one.name, s.*(one.member));
              }
            }(f),
            ...);
      },
      Plain::fields());
}

// Calls visit(field, TypeTag<Member>{}) for every field of S (its name, what and sometimes), its
// shape, without an instance.
template <typename M>
struct TypeTag {
  using type = M;
};

template <typename S, typename Visit>
void for_each_field_type(Visit&& visit) {
  std::apply(
      [&](const auto&... f) {
        (
            [&](const auto& one) {
              using Member = std::remove_reference_t<decltype(std::declval<S&>().*(one.member))>;
              if constexpr (is_inlined_v<decltype(one)>) {
                for_each_field_type<Member>(visit);
              } else {
                visit(one, TypeTag<Member>{});
              }
            }(f),
            ...);
      },
      S::fields());
}

// What kind of value a member is, for the bindings' conversions.
template <typename T>
struct is_vector : std::false_type {};
template <typename E>
struct is_vector<std::vector<E>> : std::true_type {};
template <typename T>
struct is_optional : std::false_type {};
template <typename E>
struct is_optional<std::optional<E>> : std::true_type {};
template <typename T>
inline constexpr bool is_eigen_v = std::is_base_of_v<Eigen::EigenBase<T>, T>;
// A matrix, not a vector (a vector has one column).
template <typename T, bool = is_eigen_v<T>>
inline constexpr bool is_matrix_v = false;
template <typename T>
inline constexpr bool is_matrix_v<T, true> = T::ColsAtCompileTime != 1;

// The number type under a member ("float64", "float32", "int32", "int64", "uint8", "bool"), or
// "" for strings and structs, for the bindings' lists of declared fields: which typed array a
// vector is, and whether a number is whole. An enum is its underlying integer.
template <typename T>
std::string scalar_of() {
  if constexpr (std::is_same_v<T, bool>) {
    return "bool";
  } else if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 8 ? "float64" : "float32";
  } else if constexpr (std::is_enum_v<T>) {
    return scalar_of<std::underlying_type_t<T>>();
  } else if constexpr (std::is_integral_v<T>) {
    return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
  } else if constexpr (is_eigen_v<T>) {
    return scalar_of<typename T::Scalar>();
  } else if constexpr (is_vector<T>::value || is_optional<T>::value) {
    return scalar_of<typename T::value_type>();
  } else {
    return "";
  }
}

// Whether a field is there to convert, and its value.
template <typename M>
bool present(const M& member) {
  if constexpr (is_optional<M>::value) {
    return member.has_value();
  } else if constexpr (is_matrix_v<M>) {
    return member.size() > 0;
  } else {
    return true;
  }
}

template <typename M>
const auto& value_of(const M& member) {
  if constexpr (is_optional<M>::value) {
    return *member;
  } else {
    return member;
  }
}

}  // namespace attention
