// How each Unitree model sits in its message family (wire.hpp): which family, generated types and
// topic descriptors, how many motor slots, which slot each joint takes, and the go family's stop
// values (docs/backends/unitree_wire.md).

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/hardware/unitree/wire.hpp"

namespace {
namespace unitree_wire_test {

namespace u = praxis::unitree;

// A robot model with no Unitree wire format.
struct Other {
  static constexpr std::string_view name = "other";
  static constexpr std::size_t joint_count = 1;
  static constexpr std::array<praxis::JointSpec, 1> joints{{{"j", -1.0, 1.0, 1.0, 1.0}}};
  static constexpr std::array<double, 1> stand_pose{0.0};
  static constexpr std::array<double, 1> rest_pose{0.0};
  static constexpr std::array<double, 1> default_kp{1.0};
  static constexpr std::array<double, 1> default_kd{0.1};
};

template <class T, std::size_t N>
constexpr std::size_t extent(const T (&)[N]) {
  return N;
}

TEST_CASE("UnitreeModel: the four models with a wire format and no other", "[unitree][wire]") {
  STATIC_REQUIRE(praxis::RobotModel<Other>);
  STATIC_REQUIRE_FALSE(u::UnitreeModel<Other>);
  STATIC_REQUIRE(u::UnitreeModel<u::Go2>);
  STATIC_REQUIRE(u::UnitreeModel<u::G1>);
  STATIC_REQUIRE(u::UnitreeModel<u::G1_23>);
  STATIC_REQUIRE(u::UnitreeModel<u::H1_2>);
}

TEST_CASE("the families: go for the Go2, hg for the humanoids, each with its generated types and slot count",
          "[unitree][wire]") {
  STATIC_REQUIRE(std::is_same_v<u::Wire<u::Go2>::Family, u::GoFamily>);
  STATIC_REQUIRE(std::is_same_v<u::Wire<u::G1>::Family, u::HgFamily>);
  STATIC_REQUIRE(std::is_same_v<u::Wire<u::G1_23>::Family, u::HgFamily>);
  STATIC_REQUIRE(std::is_same_v<u::Wire<u::H1_2>::Family, u::HgFamily>);
  // The slot count is the generated arrays' length, both ways.
  const u::GoFamily::LowCmd go_cmd{};
  const u::GoFamily::LowState go_state{};
  const u::HgFamily::LowCmd hg_cmd{};
  const u::HgFamily::LowState hg_state{};
  CHECK(extent(go_cmd.motor_cmd) == u::GoFamily::slots);
  CHECK(extent(go_state.motor_state) == u::GoFamily::slots);
  CHECK(extent(hg_cmd.motor_cmd) == u::HgFamily::slots);
  CHECK(extent(hg_state.motor_state) == u::HgFamily::slots);
  CHECK(u::GoFamily::slots == 20);
  CHECK(u::HgFamily::slots == 35);
}

TEST_CASE("each family's topic descriptors carry the vendor's DDS type names", "[unitree][wire]") {
  CHECK(std::string(u::GoFamily::low_cmd_descriptor()->m_typename) == "unitree_go::msg::dds_::LowCmd_");
  CHECK(std::string(u::GoFamily::low_state_descriptor()->m_typename) == "unitree_go::msg::dds_::LowState_");
  CHECK(std::string(u::HgFamily::low_cmd_descriptor()->m_typename) == "unitree_hg::msg::dds_::LowCmd_");
  CHECK(std::string(u::HgFamily::low_state_descriptor()->m_typename) == "unitree_hg::msg::dds_::LowState_");
}

template <class M>
void check_slots() {
  using W = u::Wire<M>;
  std::set<std::size_t> seen;
  for (const auto s : W::slot) {
    CHECK(s < W::Family::slots);
    seen.insert(s);
  }
  CHECK(seen.size() == M::joint_count);  // no two joints share a motor
  for (std::size_t j = 1; j < M::joint_count; ++j) CHECK(W::slot[j] > W::slot[j - 1]);  // wire order is joint order
}

TEST_CASE("every joint has its own motor slot inside its family, in joint order", "[unitree][wire]") {
  check_slots<u::Go2>();
  check_slots<u::G1>();
  check_slots<u::G1_23>();
  check_slots<u::H1_2>();
}

TEST_CASE("the go family's stop values are the vendor examples' PosStopF and VelStopF", "[unitree][wire]") {
  CHECK(u::k_pos_stop == 2.146e9f);
  CHECK(u::k_vel_stop == 16000.0f);
  // Far outside any joint's range: a slot carrying them can never be mistaken for a target.
  CHECK(static_cast<double>(u::k_pos_stop) > 1e9);
}

}  // namespace unitree_wire_test
}  // namespace
