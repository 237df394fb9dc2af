#pragma once
// Sequences and strings in idlc-generated C samples, and their fixed-size counterparts.
//
// A generated sample with a `sequence<E>` member holds { _maximum, _length, _buffer, _release }, and
// a `string` member is a `char*`: both point at memory somebody owns. The control cycle cannot own
// such memory (it would allocate), so it works on trivially copyable values instead:
//   BoundedSequence<E, N>  up to N elements inline, with a size
//   BoundedString<N>       up to N characters inline, NUL-terminated
// and the codec between the two sides uses
//   copy_sequence / copy_string   sample -> value (receive); false when the value has no room
//   lend / lend_string            value -> sample (send): the sample's pointer is set to storage the
//                                 caller owns (allocated once, up front); _release = false tells
//                                 Cyclone never to free it

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

namespace praxis::transport {

// The shape idlc gives every `sequence<E>` (dds_sequence_double, dds_sequence_<module>_<Struct>, ...).
template <class S>
concept DdsSequence = requires(S s) {
  { s._maximum } -> std::convertible_to<std::uint32_t>;
  { s._length } -> std::convertible_to<std::uint32_t>;
  { s._release } -> std::convertible_to<bool>;
  requires std::is_pointer_v<decltype(s._buffer)>;
};

template <DdsSequence S>
using sequence_element_t = std::remove_pointer_t<decltype(S::_buffer)>;

template <class E, std::size_t N>
struct BoundedSequence {
  static_assert(std::is_trivially_copyable_v<E>, "BoundedSequence<E, N>: E must be trivially copyable");
  static constexpr std::size_t capacity = N;

  std::array<E, N> items{};
  std::uint32_t size = 0;

  [[nodiscard]] std::span<const E> view() const { return {items.data(), size}; }
  [[nodiscard]] std::span<E> view() { return {items.data(), size}; }
  [[nodiscard]] const E& operator[](std::size_t i) const { return items[i]; }
  [[nodiscard]] E& operator[](std::size_t i) { return items[i]; }
  // False (and unchanged) when `from` has more than N elements.
  bool assign(std::span<const E> from) {
    if (from.size() > N) return false;
    std::copy(from.begin(), from.end(), items.begin());
    size = static_cast<std::uint32_t>(from.size());
    return true;
  }
};

template <std::size_t N>
struct BoundedString {
  static constexpr std::size_t capacity = N;

  std::array<char, N + 1> chars{};  // NUL-terminated, so it can be lent to a sample as is
  std::uint32_t size = 0;

  [[nodiscard]] std::string_view view() const { return {chars.data(), size}; }
  [[nodiscard]] const char* c_str() const { return chars.data(); }
  // False (and unchanged) when `text` is longer than N.
  bool assign(std::string_view text) {
    if (text.size() > N) return false;
    std::copy(text.begin(), text.end(), chars.begin());
    chars[text.size()] = '\0';
    size = static_cast<std::uint32_t>(text.size());
    return true;
  }
};

// ---- receive: sample -> value ----

// Copies the sequence's elements; false (out unchanged) when there are more than N.
template <DdsSequence S, class E, std::size_t N>
  requires std::is_assignable_v<E&, const sequence_element_t<S>&>
bool copy_sequence(const S& seq, BoundedSequence<E, N>& out) {
  if (seq._length > N) return false;
  if (seq._length > 0) std::copy(seq._buffer, seq._buffer + seq._length, out.items.begin());
  out.size = seq._length;
  return true;
}

// Converts each element with `convert(const Element&, E&)`; false (out.size unchanged) when there
// are more than N.
template <DdsSequence S, class E, std::size_t N, class Convert>
  requires std::is_invocable_v<Convert&, const sequence_element_t<S>&, E&>
bool copy_sequence(const S& seq, BoundedSequence<E, N>& out, Convert&& convert) {
  if (seq._length > N) return false;
  for (std::uint32_t i = 0; i < seq._length; ++i) convert(seq._buffer[i], out.items[i]);
  out.size = seq._length;
  return true;
}

// Copies a string member (a null pointer reads as empty); false when longer than N.
template <std::size_t N>
bool copy_string(const char* text, BoundedString<N>& out) {
  return out.assign(text == nullptr ? std::string_view{} : std::string_view{text});
}

// ---- send: value -> sample, on storage the caller allocated up front ----

// Points `seq` at the first `length` elements of `storage`. False (seq unchanged) when length
// exceeds the storage.
template <DdsSequence S>
bool lend(S& seq, std::span<sequence_element_t<S>> storage, std::size_t length) {
  if (length > storage.size()) return false;
  seq._maximum = static_cast<std::uint32_t>(storage.size());
  seq._length = static_cast<std::uint32_t>(length);
  seq._buffer = storage.data();
  seq._release = false;  // Cyclone must never free praxis' storage
  return true;
}

// Copies `from` into `storage` and points `seq` at it.
template <DdsSequence S, class E, std::size_t N>
  requires std::is_assignable_v<sequence_element_t<S>&, const E&>
bool lend(S& seq, std::span<sequence_element_t<S>> storage, const BoundedSequence<E, N>& from) {
  if (from.size > storage.size()) return false;
  std::copy(from.items.begin(), from.items.begin() + from.size, storage.begin());
  return lend(seq, storage, from.size);
}

// Copies `text` into `storage` (NUL-terminated) and points the string member at it. False (field
// unchanged) when it does not fit.
inline bool lend_string(char*& field, std::span<char> storage, std::string_view text) {
  if (text.size() + 1 > storage.size()) return false;
  std::memcpy(storage.data(), text.data(), text.size());
  storage[text.size()] = '\0';
  field = storage.data();
  return true;
}

}  // namespace praxis::transport
