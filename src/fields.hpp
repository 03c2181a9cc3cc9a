// fields.hpp: how a result declares its fields, once, beside its struct, for every binding to
// walk (the embind one in src/wasm/, and any other). A struct that leaves the core declares
//
//   static constexpr auto fields() {
//     return std::tuple{field("scores", &Trace::scores), …, inlined(&SinusoidalTrace::angles)};
//   }
//
// with its own name (`kName`, the name the JS types and docs give it). Field names are
// snake_case, as in C++; a binding may spell them in its language's case (JS: camelCase).
// `inlined` puts a member's own fields in its place (TypeScript's `extends`). A binding sees,
// for each field, its name and the member's C++ type: numbers, strings, Eigen matrices and
// vectors, std::vector, std::optional, and other structs that declare their fields. Two rules
// hold in every binding (present() and value_of() below): an empty optional is absent, and so
// is an empty matrix (a step not taken, such as `masked` without a mask).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace attention {

template <typename S, typename M>
struct Field {
  const char* name;
  M S::*member;
};

template <typename S, typename M>
struct Inlined {
  M S::*member;
};

template <typename S, typename M>
constexpr Field<S, M> field(const char* name, M S::*member) {
  return {name, member};
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

// Calls visit(name, TypeTag<Member>{}) for every field of S: its shape, without an instance.
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
                visit(one.name, TypeTag<Member>{});
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
