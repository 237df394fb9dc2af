#pragma once
// The CRC Unitree puts in LowCmd / LowState: CRC-32 with polynomial 0x04C11DB7, initial value
// 0xFFFFFFFF, no reflection, no final XOR, over 32-bit little-endian words each processed from
// bit 31 down (docs/backends/unitree_wire.md). It covers every word of the naturally aligned C
// struct image before the final crc field; padding bytes must be zero.
//
// crc32_reference() is the vendor's bit-by-bit definition, kept as the oracle for tests and the
// baseline for the benchmark. crc32() is the same function with four 256-entry tables (one word per
// step, "slicing by 4"), computed at compile time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace praxis::unitree {

inline constexpr std::uint32_t k_crc_polynomial = 0x04C11DB7u;

[[nodiscard]] constexpr std::uint32_t crc32_reference(std::span<const std::uint32_t> words) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const std::uint32_t data : words) {
    for (int bit = 31; bit >= 0; --bit) {
      const bool top = (crc & 0x80000000u) != 0;
      crc <<= 1;
      if (top) crc ^= k_crc_polynomial;
      if ((data >> bit) & 1u) crc ^= k_crc_polynomial;
    }
  }
  return crc;
}

namespace detail {
struct CrcTables {
  std::array<std::array<std::uint32_t, 256>, 4> t{};
};
constexpr CrcTables make_crc_tables() {
  CrcTables tables;
  for (std::uint32_t x = 0; x < 256; ++x) {
    std::uint32_t c = x << 24;
    for (int k = 0; k < 8; ++k) c = (c & 0x80000000u) ? (c << 1) ^ k_crc_polynomial : c << 1;
    tables.t[0][x] = c;
  }
  // t[k][x]: t[0][x] followed by k zero bytes.
  for (std::size_t k = 1; k < 4; ++k) {
    for (std::uint32_t x = 0; x < 256; ++x) {
      const std::uint32_t v = tables.t[k - 1][x];
      tables.t[k][x] = (v << 8) ^ tables.t[0][v >> 24];
    }
  }
  return tables;
}
inline constexpr CrcTables k_crc_tables = make_crc_tables();
}  // namespace detail

[[nodiscard]] constexpr std::uint32_t crc32(std::span<const std::uint32_t> words) {
  const auto& t = detail::k_crc_tables.t;
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const std::uint32_t data : words) {
    const std::uint32_t c = crc ^ data;
    crc = t[3][c >> 24] ^ t[2][(c >> 16) & 0xFFu] ^ t[1][(c >> 8) & 0xFFu] ^ t[0][c & 0xFFu];
  }
  return crc;
}

// The same over raw memory holding `words` 32-bit words (read with memcpy: no alignment or
// aliasing assumptions).
[[nodiscard]] inline std::uint32_t crc32_memory(const void* data, std::size_t words) {
  const auto& t = detail::k_crc_tables.t;
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t w = 0; w < words; ++w) {
    std::uint32_t word;
    std::memcpy(&word, bytes + 4 * w, 4);
    const std::uint32_t c = crc ^ word;
    crc = t[3][c >> 24] ^ t[2][(c >> 16) & 0xFFu] ^ t[1][(c >> 8) & 0xFFu] ^ t[0][c & 0xFFu];
  }
  return crc;
}

// CRC of a message's C struct image: every 32-bit word before the trailing crc field.
template <class Message>
[[nodiscard]] std::uint32_t message_crc(const Message& m) {
  static_assert(sizeof(Message) % 4 == 0, "a Unitree message image is a whole number of 32-bit words");
  return crc32_memory(&m, sizeof(Message) / 4 - 1);
}

}  // namespace praxis::unitree
