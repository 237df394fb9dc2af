// The Unitree CRC: test vectors (docs/backends/unitree_wire.md); the fast form equals the reference.

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include <praxis/idl/unitree_go.h>
#include <praxis/idl/unitree_hg.h>

#include "praxis/hardware/unitree/crc.hpp"

namespace unitree_crc_test {

using praxis::unitree::crc32;
using praxis::unitree::crc32_reference;
using praxis::unitree::message_crc;

TEST_CASE("CRC word vectors", "[unitree][crc]") {
  const std::array<std::uint32_t, 1> w1{0x00000000u};
  CHECK(crc32_reference(w1) == 0xC704DD7Bu);
  CHECK(crc32(w1) == 0xC704DD7Bu);
  const std::array<std::uint32_t, 2> w2{0x34333231u, 0x38373635u};
  CHECK(crc32_reference(w2) == 0xFEFC54F9u);
  CHECK(crc32(w2) == 0xFEFC54F9u);
  static_assert(crc32(std::array<std::uint32_t, 1>{0u}) == 0xC704DD7Bu, "usable at compile time");
}

TEST_CASE("CRC message vectors", "[unitree][crc]") {
  unitree_go_msg_dds__LowCmd_ go{};
  std::memset(&go, 0, sizeof go);
  CHECK(message_crc(go) == 0x4B5A4880u);  // V1

  go.head[0] = 0xFE;
  go.head[1] = 0xEF;
  go.level_flag = 0xFF;
  for (auto& m : go.motor_cmd) {
    m.mode = 1;
    m.q = 2.146e9f;
    m.dq = 16000.0f;
  }
  CHECK(message_crc(go) == 0x06E577CDu);  // V2

  unitree_hg_msg_dds__LowCmd_ hg{};
  std::memset(&hg, 0, sizeof hg);
  CHECK(message_crc(hg) == 0xFE172F9Fu);  // V4
}

TEST_CASE("the table CRC equals the bitwise reference on random buffers", "[unitree][crc]") {
  std::mt19937 rng(12345);
  for (std::size_t words : {1u, 2u, 7u, 202u, 250u, 294u, 522u}) {
    std::vector<std::uint32_t> buffer(words);
    for (auto& w : buffer) w = rng();
    INFO(words << " words");
    CHECK(crc32(buffer) == crc32_reference(buffer));
    CHECK(praxis::unitree::crc32_memory(buffer.data(), words) == crc32_reference(buffer));
  }
}

}  // namespace unitree_crc_test
