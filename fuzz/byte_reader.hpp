#pragma once
// Turns a fuzz input into typed values, front to back. Past the end every read yields zero bytes,
// so a short input is still a complete (mostly zero) message and the decoders' rejection paths
// are reached as well as their acceptance paths.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace praxis::fuzz {

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  // Raw bytes into trivially copyable storage (a generated message without pointers).
  void fill(void* out, std::size_t bytes) {
    const std::size_t n = std::min(bytes, size_ - at_);
    if (n > 0) std::memcpy(out, data_ + at_, n);
    std::memset(static_cast<unsigned char*>(out) + n, 0, bytes - n);
    at_ += n;
  }

  template <class T>
  T take() {
    static_assert(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool>, "take<bool>: use boolean()");
    T value;
    fill(&value, sizeof value);
    return value;
  }

  // A bool from one byte: only 0 and 1 are valid bool objects (DDS deserialisation checks that too).
  bool boolean() { return (take<std::uint8_t>() & 1u) != 0; }

  // A length in [0, limit], so sequences may be one longer than a decoder accepts.
  std::uint32_t length(std::uint32_t limit) { return take<std::uint8_t>() % (limit + 1); }

  // Up to `limit` characters, NUL-free (a DDS string cannot hold NUL).
  std::string text(std::size_t limit) {
    const std::size_t n = length(static_cast<std::uint32_t>(limit));
    std::string s;
    for (std::size_t i = 0; i < n && at_ < size_; ++i) {
      const char c = static_cast<char>(data_[at_++]);
      s += c == '\0' ? '_' : c;
    }
    return s;
  }

  [[nodiscard]] std::size_t remaining() const { return size_ - at_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace praxis::fuzz
