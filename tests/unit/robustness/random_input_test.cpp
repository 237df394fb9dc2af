// Decoders and loaders fed random and mutated input: they answer with a result or a clear error of
// their own type, never a crash, a hang or another exception. (A cheap stand-in for coverage-guided
// fuzzing; the seeds are fixed, so failures reproduce.)

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <unistd.h>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/io/params.hpp"
#include "praxis/script/loader.hpp"

namespace random_input_test {

namespace u = praxis::unitree;

TEST_CASE("random LowState images are rejected by the CRC and change nothing", "[robustness]") {
  std::mt19937 rng(7);
  unitree_hg_msg_dds__LowState_ msg;
  praxis::RobotState<29> good;
  u::encode_state<u::G1>(good, {1, 5, 0}, msg);
  praxis::RobotState<29> out;
  REQUIRE(u::decode_state<u::G1>(msg, {}, out));
  int accepted = 0;
  for (int i = 0; i < 5000; ++i) {
    auto mutated = msg;
    auto* bytes = reinterpret_cast<unsigned char*>(&mutated);
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int f = 0; f < flips; ++f) bytes[rng() % (sizeof mutated - 4)] ^= static_cast<unsigned char>(1u << (rng() % 8));
    if (std::memcmp(&mutated, &msg, sizeof msg) == 0) continue;  // two flips of the same bit
    praxis::RobotState<29> target = out;
    if (u::decode_state<u::G1>(mutated, {}, target)) ++accepted;
    else REQUIRE(target.q == out.q);
  }
  CHECK(accepted == 0);  // CRC-32: all 1-3 bit errors caught, more with probability 1 - 2^-32
}

TEST_CASE("random and mutated script text gives ScriptError or a valid script", "[robustness]") {
  const std::string valid = R"([{"duration": 500, "targets": [{"id": "FR_hip", "position": 0.1, "gain": 20, "torque": 100}]}])";
  const std::string alphabet = "[]{}\":,0123456789.-e truefalsnul_abcdFRhiptgq";
  std::mt19937 rng(11);
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const auto at = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        default: if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()];
      }
    }
    try {
      const auto s = praxis::script::parse_script<praxis::unitree::Go2>(text, "fuzz");
      REQUIRE(!s.frames.empty());
      ++parsed;
    } catch (const praxis::script::ScriptError& e) {
      REQUIRE(std::string(e.what()).rfind("fuzz", 0) == 0);  // the error names its origin
      ++rejected;
    }
  }
  CHECK(rejected > 0);
  CHECK(parsed + rejected == 3000);
}

TEST_CASE("random wireless_remote bytes always decode to some gamepad", "[robustness]") {
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    std::uint8_t r[40];
    for (auto& b : r) b = static_cast<std::uint8_t>(rng());
    const auto g = u::decode_remote(r);
    std::uint8_t back[40];
    u::encode_remote(g, back);
    REQUIRE(std::memcmp(back + 2, r + 2, 22) == 0);  // buttons and axes survive bit for bit
  }
}

TEST_CASE("mutated parameter files give ParamError naming the file, or load", "[robustness]") {
  const auto file = std::filesystem::temp_directory_path() / ("praxis_fuzz_params_" + std::to_string(::getpid()) + ".json");
  const std::string valid = R"({"dt": 0.01, "kp": 40.0, "init_pos": [0.0, 0.9, -1.8]})";
  const std::string alphabet = "[]{}\":,0123456789.-e truefalsnul_dtkpinos";
  std::mt19937 rng(5);
  int rejected = 0;
  for (int i = 0; i < 400; ++i) {
    std::string text = valid;
    for (int e = 0; e < 1 + static_cast<int>(rng() % 4); ++e) {
      const auto at = rng() % text.size();
      text[at] = alphabet[rng() % alphabet.size()];
    }
    std::ofstream(file) << text;
    try {
      const auto p = praxis::io::ParamFile::load(file);
      (void)p.number("dt");
      (void)p.numbers("init_pos", 3);
    } catch (const praxis::io::ParamError& e) {
      REQUIRE(std::string(e.what()).find(file.string()) == 0);
      ++rejected;
    }
  }
  std::filesystem::remove(file);
  CHECK(rejected > 0);
}

}  // namespace random_input_test
