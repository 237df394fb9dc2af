#pragma once
// An enum's names written beside its enumerators, so that a swap or a missing entry does not
// compile (a bare array of names in enum order would take both silently):
//
//   inline constexpr praxis::EnumNameTable<RobotMode, 5> k_robot_mode_names{{
//       {RobotMode::unknown, "unknown"}, {RobotMode::damping, "damping"}, ...}};
//   static_assert(praxis::in_enum_order(k_robot_mode_names), "...");
//   constexpr std::string_view to_string(RobotMode m) { return praxis::name_in(k_robot_mode_names, m); }
//
// The table's order is the enum's (0, 1, 2, ...), so a lookup is an index.

#include <array>
#include <cstddef>
#include <string_view>

namespace praxis {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
using EnumNameTable = std::array<EnumName<E>, N>;

// Whether entry i names enumerator i, for every i: one entry per enumerator, in order.
template <class E, std::size_t N>
[[nodiscard]] constexpr bool in_enum_order(const EnumNameTable<E, N>& table) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(table[i].value) != i || table[i].name.empty()) return false;
  }
  return true;
}

// The name of `e` ("?" for a value past the table: a cast from a wire byte, say).
template <class E, std::size_t N>
[[nodiscard]] constexpr std::string_view name_in(const EnumNameTable<E, N>& table, E e) {
  const auto i = static_cast<std::size_t>(e);
  return i < N ? table[i].name : std::string_view("?");
}

}  // namespace praxis
