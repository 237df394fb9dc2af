// Unit tests for include/praxis/hardware/aurora/models.hpp: each model's control groups, joint
// order, quoted limits, example gains and walking ranges against the fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md, sections A.4, A.6 and A.7), and the tiling check
// that keeps a model's groups and joints in step.

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/hardware/aurora/models.hpp"

namespace aurora_models_test {

namespace a = praxis::aurora;

template <class M>
std::vector<std::string> joint_names() {
  std::vector<std::string> out;
  for (const auto& j : M::joints) out.emplace_back(j.name);
  return out;
}

template <class M>
std::vector<std::string> group_names() {
  std::vector<std::string> out;
  for (const auto& g : M::groups) out.emplace_back(g.name);
  return out;
}

template <class M>
std::vector<std::size_t> group_counts() {
  std::vector<std::size_t> out;
  for (const auto& g : M::groups) out.push_back(g.count);
  return out;
}

// A.4's naming rule: "left_" / "right_" + the listed name + "_joint" for the limbs, no side for the
// waist and head.
std::vector<std::string> whole_body(const std::vector<std::string>& leg, const std::vector<std::string>& waist,
                                    const std::vector<std::string>& head, const std::vector<std::string>& arm) {
  std::vector<std::string> out;
  for (const char* side : {"left_", "right_"}) {
    for (const auto& j : leg) out.push_back(side + j + "_joint");
  }
  for (const auto& j : waist) out.push_back(j + "_joint");
  for (const auto& j : head) out.push_back(j + "_joint");
  for (const char* side : {"left_", "right_"}) {
    for (const auto& j : arm) out.push_back(side + j + "_joint");
  }
  return out;
}

template <std::size_t N>
std::vector<double> as_vector(const std::array<double, N>& a) {
  return {a.begin(), a.end()};
}

TEST_CASE("aurora models: the fact sheet's groups - counts and joint orders", "[aurora][models]") {
  CHECK(a::GR1::joint_count == 32);
  CHECK(a::GR2::joint_count == 29);
  CHECK(a::GR3::joint_count == 31);
  CHECK(a::N1::joint_count == 23);
  CHECK(a::N1::groups.size() == 5);  // no head
  CHECK(a::group_index<a::N1>("head") == a::N1::groups.size());
  CHECK(a::GR3::groups[2].count == 3);  // waist yaw, roll, pitch
  CHECK(a::GR3::joints[13].name == "waist_roll_joint");
  CHECK(a::GR1::joints[0].name == "left_hip_roll_joint");  // GR-1's legs start with hip roll
  CHECK(a::N1::joints[4].name == "left_ankle_roll_joint");  // N1: ankle roll before pitch
  CHECK(a::GR2::joints[21].name == "left_wrist_roll_joint");
  CHECK(a::GR2::joints[0].upper == 2.618);
  CHECK(a::GR2::default_kp[3] == 400);  // knee, A.6
  CHECK(a::GR3::default_kd[5] == 2.6);
  CHECK(praxis::joint_index<a::GR2>("right_manipulator") == a::GR2::joint_count);
}

TEST_CASE("aurora models: every joint name in A.4's order for GR-1 GR-2 GR-3 and N1", "[aurora][models]") {
  // A.4's table, row by row.
  const std::vector<std::string> gr2_leg{"hip_pitch", "hip_roll", "hip_yaw", "knee_pitch", "ankle_pitch", "ankle_roll"};
  const std::vector<std::string> gr2_arm{"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow_pitch",
                                         "wrist_yaw",      "wrist_pitch",   "wrist_roll"};
  CHECK(joint_names<a::GR1>() ==
        whole_body({"hip_roll", "hip_yaw", "hip_pitch", "knee_pitch", "ankle_pitch", "ankle_roll"},
                   {"waist_yaw", "waist_pitch", "waist_roll"}, {"head_roll", "head_yaw", "head_pitch"},
                   {"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow_pitch", "wrist_yaw", "wrist_roll",
                    "wrist_pitch"}));
  CHECK(joint_names<a::GR2>() == whole_body(gr2_leg, {"waist_yaw"}, {"head_yaw", "head_pitch"}, gr2_arm));
  CHECK(joint_names<a::GR3>() ==
        whole_body(gr2_leg, {"waist_yaw", "waist_roll", "waist_pitch"}, {"head_yaw", "head_pitch"}, gr2_arm));
  CHECK(joint_names<a::N1>() ==
        whole_body({"hip_pitch", "hip_roll", "hip_yaw", "knee_pitch", "ankle_roll", "ankle_pitch"}, {"waist_yaw"}, {},
                   {"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow_pitch", "wrist_yaw"}));

  // Whole-body order: left_leg, right_leg, waist, head, left_manipulator, right_manipulator.
  const std::vector<std::string> six{"left_leg", "right_leg", "waist", "head", "left_manipulator", "right_manipulator"};
  CHECK(group_names<a::GR1>() == six);
  CHECK(group_names<a::GR2>() == six);
  CHECK(group_names<a::GR3>() == six);
  CHECK(group_names<a::N1>() ==
        std::vector<std::string>{"left_leg", "right_leg", "waist", "left_manipulator", "right_manipulator"});
  CHECK(group_counts<a::GR1>() == std::vector<std::size_t>{6, 6, 3, 3, 7, 7});
  CHECK(group_counts<a::GR2>() == std::vector<std::size_t>{6, 6, 1, 2, 7, 7});
  CHECK(group_counts<a::GR3>() == std::vector<std::size_t>{6, 6, 3, 2, 7, 7});
  CHECK(group_counts<a::N1>() == std::vector<std::size_t>{6, 6, 1, 5, 5});
  // The hands are not part of any model (their finger names are UNVERIFIED).
  CHECK(a::group_index<a::GR2>("left_hand") == a::GR2::groups.size());
  CHECK(a::group_index<a::GR3>("right_manipulator") == 5);
}

TEST_CASE("aurora models: the limits A.4 quotes and the example gains of A.6", "[aurora][models]") {
  // A.4: GR-2 hip_pitch +-2.618 rad, 6.4997 rad/s, 366.05 N m; GR-3 knee_pitch 0..2.3562, 366 N m;
  // N1 hip_pitch +-2.617, 16.2 rad/s, 90 N m; GR-1 knee_pitch -0.09..1.92, 135 N m.
  for (std::size_t j : {std::size_t{0}, std::size_t{6}}) {
    CAPTURE(j);
    CHECK(a::GR2::joints[j].lower == -2.618);
    CHECK(a::GR2::joints[j].upper == 2.618);
    CHECK(a::GR2::joints[j].velocity == 6.4997);
    CHECK(a::GR2::joints[j].effort == 366.05);
    CHECK(a::N1::joints[j].lower == -2.617);
    CHECK(a::N1::joints[j].upper == 2.617);
    CHECK(a::N1::joints[j].velocity == 16.2);
    CHECK(a::N1::joints[j].effort == 90.0);
  }
  for (std::size_t j : {std::size_t{3}, std::size_t{9}}) {
    CAPTURE(j);
    CHECK(a::GR3::joints[j].lower == 0.0);
    CHECK(a::GR3::joints[j].upper == 2.3562);
    CHECK(a::GR3::joints[j].effort == 366.0);
    CHECK(a::GR1::joints[j].lower == -0.09);
    CHECK(a::GR1::joints[j].upper == 1.92);
    CHECK(a::GR1::joints[j].effort == 135.0);
  }

  // A.6, group by group in the models' joint order.
  CHECK(as_vector(a::GR2::default_kp) ==
        std::vector<double>{200, 150, 150, 400, 150, 80, 200, 150, 150, 400, 150, 80, 200, 100, 100,
                            300, 300, 100, 100, 50,  50, 50,  300, 300, 100, 100, 50,  50,  50});
  CHECK(as_vector(a::GR2::default_kd) == std::vector<double>{20, 15, 15, 30, 15, 8, 20, 15, 15, 30, 15, 8, 10, 10, 10,
                                                             10, 10, 5,  5,  5,  5, 5,  10, 10, 5,  5,  5, 5,  5});
  CHECK(as_vector(a::GR3::default_kp) ==
        std::vector<double>{400, 200, 200, 400, 200, 26, 400, 200, 200, 400, 200, 26, 200, 300, 200, 100,
                            100, 400, 200, 200, 200, 50, 50,  50,  400, 200, 200, 200, 50,  50,  50});
  CHECK(as_vector(a::GR3::default_kd) ==
        std::vector<double>{20, 20, 20, 20, 20,  2.6, 20,  20,  20, 20, 20, 2.6, 10,  15,  10, 10,
                            10, 20, 10, 10, 10, 2.5, 2.5, 2.5, 20, 10, 10, 10,  2.5, 2.5, 2.5});
  CHECK(as_vector(a::N1::default_kp) == std::vector<double>{180, 120, 90, 120, 45, 45, 180, 120, 90, 120, 45, 45,
                                                            90,  90,  45, 45,  45, 45, 90,  45,  45, 45, 45});
  CHECK(as_vector(a::N1::default_kd) == std::vector<double>{10, 10,  8,   8,   2.5, 2.5, 10,  10,  8,   8,   2.5, 2.5,
                                                            8,  8,   2.5, 2.5, 2.5, 2.5, 8,   2.5, 2.5, 2.5, 2.5});
}

TEST_CASE("aurora models: walking ranges of A.7 and the GR-3 WBC scale", "[aurora][models]") {
  // A.7: GR-2 vx [-0.5, 0.75], vy +-0.5, yaw +-1.0; GR-1 vx [-0.4, 0.5], vy +-0.3, yaw +-0.8; N1 vx +-0.5
  // (its vy and yaw are GR-1's, UNVERIFIED). A.5: GR-3 vx +-1.0, vy +-0.4, yaw +-0.6.
  const auto same = [](const a::VelocityRange& r, double vx_min, double vx_max, double vy, double yaw) {
    return r.vx_min == vx_min && r.vx_max == vx_max && r.vy_max == vy && r.yaw_max == yaw;
  };
  CHECK(same(a::GR2::velocity_range, -0.5, 0.75, 0.5, 1.0));
  CHECK(same(a::GR1::velocity_range, -0.4, 0.5, 0.3, 0.8));
  CHECK(same(a::GR3::velocity_range, -1.0, 1.0, 0.4, 0.6));
  CHECK(same(a::N1::velocity_range, -0.5, 0.5, a::GR1::velocity_range.vy_max, a::GR1::velocity_range.yaw_max));
}

// Models whose groups do not tile their joints: each must fail the check the real models pass.
struct Gap : a::GR2 {  // head starts one joint late
  static constexpr std::array<a::ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                          {"right_leg", 6, 6},
                                                          {"waist", 12, 1},
                                                          {"head", 14, 1},
                                                          {"left_manipulator", 15, 7},
                                                          {"right_manipulator", 22, 7}}};
};
struct Short : a::GR2 {  // the last joint in no group
  static constexpr std::array<a::ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                          {"right_leg", 6, 6},
                                                          {"waist", 12, 1},
                                                          {"head", 13, 2},
                                                          {"left_manipulator", 15, 7},
                                                          {"right_manipulator", 22, 6}}};
};
struct Empty : a::GR2 {  // an empty group
  static constexpr std::array<a::ControlGroup, 7> groups{{{"left_leg", 0, 6},
                                                          {"right_leg", 6, 6},
                                                          {"waist", 12, 1},
                                                          {"nothing", 13, 0},
                                                          {"head", 13, 2},
                                                          {"left_manipulator", 15, 7},
                                                          {"right_manipulator", 22, 7}}};
};
struct Wide : a::GR2 {  // one group larger than k_max_group_joints
  static constexpr std::array<a::ControlGroup, 5> groups{{{"left_leg", 0, 6},
                                                          {"right_leg", 6, 6},
                                                          {"waist", 12, 1},
                                                          {"head", 13, 2},
                                                          {"arms", 15, 14}}};
};
struct LongName : a::GR2 {  // a name longer than the wire's k_max_group_name
  static constexpr std::array<a::ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                          {"right_leg", 6, 6},
                                                          {"waist", 12, 1},
                                                          {"head", 13, 2},
                                                          {"left_manipulator_with_a_very_long_name", 15, 7},
                                                          {"right_manipulator", 22, 7}}};
};

TEST_CASE("aurora models: the tiling check refuses gaps - uncovered joints - empty or oversized groups and long names",
          "[aurora][models]") {
  STATIC_REQUIRE(a::detail::groups_tile_joints<a::GR2>());
  STATIC_REQUIRE(a::detail::groups_tile_joints<a::N1>());
  STATIC_REQUIRE_FALSE(a::detail::groups_tile_joints<Gap>());
  STATIC_REQUIRE_FALSE(a::detail::groups_tile_joints<Short>());
  STATIC_REQUIRE_FALSE(a::detail::groups_tile_joints<Empty>());
  STATIC_REQUIRE_FALSE(a::detail::groups_tile_joints<Wide>());
  STATIC_REQUIRE(std::string_view("left_manipulator_with_a_very_long_name").size() > a::k_max_group_name);
  STATIC_REQUIRE_FALSE(a::detail::groups_tile_joints<LongName>());
}

}  // namespace aurora_models_test
