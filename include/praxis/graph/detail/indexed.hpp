#pragma once
// Constant-depth indexing into type packs. Recursive "nth type" templates cost O(N) instantiations
// per lookup and make large graphs slow to compile; inheriting from one base per element and letting
// overload resolution pick the base is O(1) per lookup.

#include <cstddef>
#include <utility>

namespace praxis::detail {

template <std::size_t I, class T>
struct indexed_type {
  using type = T;
};

template <class Seq, class... Ts>
struct type_pack_index;

template <std::size_t... I, class... Ts>
struct type_pack_index<std::index_sequence<I...>, Ts...> : indexed_type<I, Ts>... {};

template <std::size_t I, class T>
indexed_type<I, T> select_indexed(const indexed_type<I, T>&);

#if defined(__clang__) && __has_builtin(__type_pack_element)
// Clang's builtin does the same without a lookup among bases.
template <std::size_t I, class... Ts>
using type_at = __type_pack_element<I, Ts...>;
#else
template <std::size_t I, class... Ts>
using type_at = typename decltype(select_indexed<I>(
    std::declval<type_pack_index<std::index_sequence_for<Ts...>, Ts...>>()))::type;
#endif

// The position of T in a pack built as type_pack_index, or k_not_unique when T occurs there more
// than once (or not at all). Deducing I from a pointer to the pack fails when several bases
// indexed_type<I, T> match, so the fallback is chosen: a repeated type is found in one overload
// resolution per type, without comparing types pairwise and without addresses.
inline constexpr std::size_t k_not_unique = static_cast<std::size_t>(-1);

template <class T, std::size_t I>
constexpr std::size_t unique_position(const indexed_type<I, T>*) {
  return I;
}
template <class T>
constexpr std::size_t unique_position(const void*) {
  return k_not_unique;
}

template <std::size_t I, class List>
struct list_at;
template <std::size_t I, template <class...> class L, class... Ts>
struct list_at<I, L<Ts...>> {
  using type = type_at<I, Ts...>;
};

// Storage: one member per element, reachable by index in O(1).
template <std::size_t I, class T>
struct indexed_slot {
  [[no_unique_address]] T value;
};

template <class Seq, class... Ts>
struct indexed_storage;

template <std::size_t... I, class... Ts>
struct indexed_storage<std::index_sequence<I...>, Ts...> : indexed_slot<I, Ts>... {
  indexed_storage() = default;
  explicit indexed_storage(Ts... values)
    requires(sizeof...(Ts) > 0)
      : indexed_slot<I, Ts>{std::move(values)}... {}
};

template <std::size_t I, class T>
constexpr T& slot_get(indexed_slot<I, T>& s) {
  return s.value;
}
template <std::size_t I, class T>
constexpr const T& slot_get(const indexed_slot<I, T>& s) {
  return s.value;
}

// References to a pack of objects, reachable by index in O(1) (what std::forward_as_tuple would
// give, without a tuple's recursive instantiation).
template <std::size_t I, class T>
struct indexed_ref {
  T& ref;
};

template <class Seq, class... Ts>
struct indexed_refs;

template <std::size_t... I, class... Ts>
struct indexed_refs<std::index_sequence<I...>, Ts...> : indexed_ref<I, Ts>... {
  explicit indexed_refs(Ts&... objects) : indexed_ref<I, Ts>{objects}... {}
};

template <std::size_t I, class T>
constexpr T& ref_get(const indexed_ref<I, T>& r) {
  return r.ref;
}

}  // namespace praxis::detail
