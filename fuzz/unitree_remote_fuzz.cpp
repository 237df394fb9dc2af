// Unitree wireless_remote (hardware/unitree/codec.hpp decode_remote): the first 40 bytes are the
// remote's bytes. Any 40 bytes decode to a gamepad (the decoder promises no more: axes are raw
// floats, NaN included), and encoding that gamepad gives back the button and axis bytes exactly.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  std::uint8_t remote[40];
  in.fill(remote, sizeof remote);
  const auto pad = praxis::unitree::decode_remote(remote);
  std::uint8_t back[40];
  praxis::unitree::encode_remote(pad, back);
  // Bytes 2-3 are the buttons, 4-23 the five axes; the rest is not read.
  praxis::fuzz::require(std::memcmp(back + 2, remote + 2, 22) == 0, "unitree_remote",
                        "decode then encode changed a button or axis byte");
  return 0;
}
