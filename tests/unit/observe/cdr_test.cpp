// observe/cdr.hpp: ros2msg definitions and CDR encodings from reflection, bit-exact round trips.

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <boost/hana/define_struct.hpp>

#include "praxis/observe/cdr.hpp"

namespace observe_cdr_test_types {
enum class Phase : std::uint8_t { a, b, c };
struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner, (std::uint8_t, flag), (double, value));
};
struct Sample {
  BOOST_HANA_DEFINE_STRUCT(Sample, (bool, on), (double, x), (std::array<float, 3>, axes), (Eigen::Vector2d, xy),
                           (Phase, phase), (std::chrono::nanoseconds, age), (std::optional<double>, maybe),
                           (Inner, inner), (std::array<Inner, 2>, pair), (Eigen::Quaterniond, orientation));
};
struct Event {
  BOOST_HANA_DEFINE_STRUCT(Event, (std::uint32_t, id), (std::string, text));
};
}  // namespace observe_cdr_test_types

namespace {
namespace observe_cdr_test {

using namespace praxis::observe;
using observe_cdr_test_types::Event;
using observe_cdr_test_types::Inner;
using observe_cdr_test_types::Phase;
using observe_cdr_test_types::Sample;

const std::string k_rule(80, '=');

template <class T>
T read_at(const std::vector<std::byte>& bytes, std::size_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

TEST_CASE("cdr schema lists the fields in declaration order with nested messages after rules") {
  const std::string expected = "bool on\n"
                               "float64 x\n"
                               "float32[3] axes\n"
                               "float64[2] xy\n"
                               "uint8 phase\n"
                               "int64 age\n"
                               "bool has_maybe\n"
                               "float64 maybe\n"
                               "praxis_msgs/Inner inner\n"
                               "praxis_msgs/Inner[2] pair\n"
                               "praxis_msgs/Quaternion orientation\n" +
                               k_rule + "\nMSG: praxis_msgs/Inner\nuint8 flag\nfloat64 value\n" + k_rule +
                               "\nMSG: praxis_msgs/Quaternion\nfloat64 x\nfloat64 y\nfloat64 z\nfloat64 w\n";
  CHECK(cdr_schema<Sample>() == expected);
  CHECK(cdr_type_name<Sample>() == "Sample");
}

TEST_CASE("cdr field at an offset names the leaf holding it and padding belongs to the field after it") {
  CHECK(cdr_field_at<Sample>(0) == "(CDR header)");
  CHECK(cdr_field_at<Sample>(4 + 0) == "on");
  CHECK(cdr_field_at<Sample>(4 + 5) == "x");  // padding before x
  CHECK(cdr_field_at<Sample>(4 + 8) == "x");
  CHECK(cdr_field_at<Sample>(4 + 20) == "axes[1]");
  CHECK(cdr_field_at<Sample>(4 + 64) == "maybe.has_value");
  CHECK(cdr_field_at<Sample>(4 + 100) == "pair[0].value");
  CHECK(cdr_field_at<Sample>(4 + 152) == "orientation.w");
  CHECK(cdr_field_at<Sample>(4 + 160) == "(past the end)");
  CHECK(cdr_field_at<praxis::RobotState<12>>(4 + 8 * 3) == "q[3]");
  CHECK(cdr_field_at<double>(4) == "value");
}

TEST_CASE("cdr schema of a plain value or array is one field named value") {
  CHECK(cdr_schema<double>() == "float64 value\n");
  CHECK(cdr_schema<std::array<std::int16_t, 4>>() == "int16[4] value\n");
  CHECK(cdr_schema<std::optional<std::uint32_t>>() == "bool has_value\nuint32 value\n");
}

TEST_CASE("cdr encoding aligns each primitive to its size after the encapsulation header") {
  Sample s;
  s.on = true;
  s.x = 1.5;
  s.axes = {1.0f, -2.0f, 3.0f};
  s.xy = Eigen::Vector2d(4.0, 5.0);
  s.phase = Phase::c;
  s.age = std::chrono::nanoseconds(-7);
  s.maybe = std::nullopt;
  s.inner = {9, 0.25};
  s.pair = {Inner{1, 2.0}, Inner{3, 4.0}};
  s.orientation = Eigen::Quaterniond(0.5, 0.1, 0.2, 0.3);  // w x y z
  const auto bytes = encode_cdr(s);
  REQUIRE(bytes.size() >= 4);
  CHECK(bytes[0] == std::byte{0});
  CHECK(bytes[1] == std::byte{1});
  // Offsets after the header (+4 in the buffer): on 0, x 8 (7 bytes padding), axes 16..28,
  // xy 32 (aligned to 8), phase 48, age 56, has_maybe 64, maybe 72, inner.flag 80, inner.value 88,
  // pair[0] 96 104, pair[1] 112 120, orientation 128..160.
  CHECK(read_at<std::uint8_t>(bytes, 4 + 0) == 1);
  for (std::size_t pad = 1; pad < 8; ++pad) CHECK(read_at<std::uint8_t>(bytes, 4 + pad) == 0);
  CHECK(read_at<double>(bytes, 4 + 8) == 1.5);
  CHECK(read_at<float>(bytes, 4 + 16) == 1.0f);
  CHECK(read_at<float>(bytes, 4 + 24) == 3.0f);
  CHECK(read_at<double>(bytes, 4 + 32) == 4.0);
  CHECK(read_at<double>(bytes, 4 + 40) == 5.0);
  CHECK(read_at<std::uint8_t>(bytes, 4 + 48) == 2);
  CHECK(read_at<std::int64_t>(bytes, 4 + 56) == -7);
  CHECK(read_at<std::uint8_t>(bytes, 4 + 64) == 0);
  CHECK(read_at<std::uint8_t>(bytes, 4 + 80) == 9);
  CHECK(read_at<double>(bytes, 4 + 88) == 0.25);
  CHECK(read_at<std::uint8_t>(bytes, 4 + 112) == 3);
  CHECK(read_at<double>(bytes, 4 + 120) == 4.0);
  CHECK(read_at<double>(bytes, 4 + 128) == 0.1);  // x first
  CHECK(read_at<double>(bytes, 4 + 152) == 0.5);  // w last
  CHECK(bytes.size() == 4 + 160);
  STATIC_REQUIRE(cdr_max_size<Sample>() == 4 + 160);
}

TEST_CASE("cdr round trip of a robot state is bit for bit with NaN and infinity") {
  praxis::RobotState<29> s;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int j = 0; j < 29; ++j) {
    s.q[j] = u(rng);
    s.dq[j] = u(rng);
    s.tau[j] = u(rng);
    s.health[static_cast<std::size_t>(j)].faults = static_cast<std::uint8_t>(j % 5);
    s.health[static_cast<std::size_t>(j)].error_code = static_cast<std::uint32_t>(rng());
    s.health[static_cast<std::size_t>(j)].temperature = static_cast<float>(u(rng) * 20.0);
  }
  s.q[3] = std::numeric_limits<double>::quiet_NaN();
  s.dq[4] = -std::numeric_limits<double>::infinity();
  s.health[2].temperature = std::numeric_limits<float>::quiet_NaN();
  s.imu.orientation = Eigen::Quaterniond(0.9, 0.1, -0.2, 0.3).normalized();
  s.imu.gyro = Eigen::Vector3d(u(rng), u(rng), u(rng));
  s.update_derived();
  s.gamepad.buttons = 0xA5C3;
  s.gamepad.lx = -0.25f;
  s.stamp = praxis::TimePoint(std::chrono::nanoseconds(1'234'567'890'123));
  s.age = std::chrono::nanoseconds(456);
  s.sequence = 0xFFFF'FFFF'FFFF'0001ULL;

  std::array<std::byte, cdr_max_size<praxis::RobotState<29>>()> buffer{};
  const std::size_t n = encode_cdr(s, std::span<std::byte>(buffer));
  REQUIRE(n == buffer.size());
  praxis::RobotState<29> back;
  REQUIRE(decode_cdr(std::span<const std::byte>(buffer.data(), n), back));
  const auto same_bits = [](const auto& a, const auto& b) {
    return std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
  };
  CHECK(same_bits(back.q, s.q));
  CHECK(same_bits(back.dq, s.dq));
  CHECK(same_bits(back.tau, s.tau));
  CHECK(same_bits(back.imu.orientation.coeffs(), s.imu.orientation.coeffs()));
  CHECK(same_bits(back.imu.gyro, s.imu.gyro));
  CHECK(same_bits(back.imu.rpy, s.imu.rpy));
  CHECK(same_bits(back.projected_gravity, s.projected_gravity));
  CHECK(back.gamepad == s.gamepad);
  for (std::size_t j = 0; j < 29; ++j) {
    CHECK(back.health[j].faults == s.health[j].faults);
    CHECK(back.health[j].error_code == s.health[j].error_code);
    CHECK(std::bit_cast<std::uint32_t>(back.health[j].temperature) == std::bit_cast<std::uint32_t>(s.health[j].temperature));
  }
  CHECK(back.stamp == s.stamp);
  CHECK(back.age == s.age);
  CHECK(back.sequence == s.sequence);
  // And the decoded value encodes to the same bytes.
  std::array<std::byte, buffer.size()> again{};
  REQUIRE(encode_cdr(back, std::span<std::byte>(again)) == n);
  CHECK(std::memcmp(again.data(), buffer.data(), n) == 0);
}

TEST_CASE("cdr encode reports 0 for a buffer one byte short and writes nothing it claims") {
  praxis::JointCommand<12> c;
  c.q.setConstant(0.5);
  std::vector<std::byte> buffer(cdr_max_size<praxis::JointCommand<12>>());
  CHECK(encode_cdr(c, std::span<std::byte>(buffer)) == buffer.size());
  CHECK(encode_cdr(c, std::span<std::byte>(buffer.data(), buffer.size() - 1)) == 0);
  CHECK(encode_cdr(c, std::span<std::byte>(buffer.data(), 3)) == 0);
}

TEST_CASE("cdr decode refuses short input a wrong header and bytes left over") {
  praxis::CycleInfo info;
  info.cycle = 42;
  info.have_state = true;
  auto bytes = encode_cdr(info);
  praxis::CycleInfo back;
  REQUIRE(decode_cdr(std::span<const std::byte>(bytes), back));
  CHECK(back.cycle == 42);
  CHECK(back.have_state);
  CHECK_FALSE(decode_cdr(std::span<const std::byte>(bytes.data(), bytes.size() - 1), back));
  auto longer = bytes;
  longer.push_back(std::byte{0});
  CHECK_FALSE(decode_cdr(std::span<const std::byte>(longer), back));
  auto big_endian = bytes;
  big_endian[1] = std::byte{0};  // CDR_BE
  CHECK_FALSE(decode_cdr(std::span<const std::byte>(big_endian), back));
  CHECK_FALSE(decode_cdr(std::span<const std::byte>(bytes.data(), 2), back));
}

TEST_CASE("cdr strings carry their length with the NUL and decode back") {
  Event e{7, "tilt (projected gravity)"};
  const auto bytes = encode_cdr(e);
  CHECK(read_at<std::uint32_t>(bytes, 4) == 7);
  CHECK(read_at<std::uint32_t>(bytes, 8) == e.text.size() + 1);
  CHECK(bytes.back() == std::byte{0});
  Event back;
  REQUIRE(decode_cdr(std::span<const std::byte>(bytes), back));
  CHECK(back.text == e.text);
  auto no_nul = bytes;
  no_nul.back() = std::byte{'x'};
  CHECK_FALSE(decode_cdr(std::span<const std::byte>(no_nul), back));
  CHECK(cdr_schema<Event>() == "uint32 id\nstring text\n");
}

TEST_CASE("cdr type names drop namespaces and integer suffixes for g++ and clang alike") {
  CHECK(cdr_type_name<praxis::RobotState<29>>() == "RobotState29");
  CHECK(cdr_type_name<praxis::JointCommand<12>>() == "JointCommand12");
  CHECK(cdr_type_name<praxis::motion::MotionCommand>() == "MotionCommandView");
  using praxis::observe::detail::sanitized_type_name;
  CHECK(sanitized_type_name("std::string f() [with T = praxis::RobotState<29>; std::string = std::basic_string<char>]") ==
        "RobotState29");
  CHECK(sanitized_type_name("std::string f() [T = praxis::RobotState<29UL>]") == "RobotState29");
  CHECK(sanitized_type_name("std::string f() [T = my_ns::imu_reading<other::Kind, 3>]") == "ImureadingKind3");
  CHECK(sanitized_type_name("no template here") == "Type");
}

TEST_CASE("cdr refuses types it cannot carry at compile time") {
  struct Opaque {
    int hidden = 0;
  };
  STATIC_REQUIRE_FALSE(CdrEncodable<Opaque>);
  STATIC_REQUIRE_FALSE(CdrEncodable<std::array<std::array<double, 2>, 2>>);  // ros2msg has no arrays of arrays
  STATIC_REQUIRE(CdrEncodable<praxis::RobotRequests>);
  STATIC_REQUIRE(CdrEncodable<praxis::motion::SafetyStatus>);
}

}  // namespace observe_cdr_test
}  // namespace
