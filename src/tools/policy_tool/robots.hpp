#pragma once
// praxis-policy's robots: praxis_demo's model names, each with its model type (for the check, which
// runs OnnxPolicy<Model>::load) and a run-time copy of its joint table (for the mapping of a
// published config onto it).

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/robot_model.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/g1_23.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/hardware/unitree/h1_2.hpp"

namespace praxis::policy_tool {

// A wrong command line (an unknown robot, a missing file): exit 2 like a refused input.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::array<std::string_view, 12> k_robot_names{"go2", "g1", "g1_23", "h1_2", "t1", "k1",
                                                                 "gr1", "gr2", "gr3", "n1", "pro", "lite"};

[[nodiscard]] inline std::string robot_choices() {
  std::string out;
  for (const auto n : k_robot_names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// Calls f.template operator()<Model>() for praxis_demo's model name `robot`.
template <class F>
decltype(auto) with_model(std::string_view robot, F&& f) {
  if (robot == "go2") return f.template operator()<unitree::Go2>();
  if (robot == "g1") return f.template operator()<unitree::G1>();
  if (robot == "g1_23") return f.template operator()<unitree::G1_23>();
  if (robot == "h1_2") return f.template operator()<unitree::H1_2>();
  if (robot == "t1") return f.template operator()<booster::T1>();
  if (robot == "k1") return f.template operator()<booster::K1>();
  if (robot == "gr1") return f.template operator()<aurora::GR1>();
  if (robot == "gr2") return f.template operator()<aurora::GR2>();
  if (robot == "gr3") return f.template operator()<aurora::GR3>();
  if (robot == "n1") return f.template operator()<aurora::N1>();
  if (robot == "pro") return f.template operator()<tienkung::Pro>();
  if (robot == "lite") return f.template operator()<tienkung::Lite>();
  throw UsageError("unknown robot \"" + std::string(robot) + "\": one of " + robot_choices() +
                   " (praxis_demo's model names)");
}

struct RobotJoint {
  std::string name;
  double lower = 0.0;
  double upper = 0.0;
};

struct RobotTable {
  std::string name;  // praxis_demo's model name
  std::vector<RobotJoint> joints;
  std::vector<double> stand_pose;
  // Unitree only: the SDK's motor index of each joint (the index into LowCmd's motor_cmd), and the
  // message family ("hg" or "go"). Empty for the other vendors.
  std::vector<std::size_t> motor_of_joint;
  std::string unitree_msg_type;
  // The IMU praxis reads sits on the torso above a waist joint, not on the pelvis the policies of
  // unitree_rl_gym observe (its deploy_real configs say imu_type: torso for H1 and H1-2).
  bool imu_on_torso = false;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // The joint with this name, or npos. A vendor name ending in "_joint" (URDF and Isaac Lab
  // spelling) is tried without it when the robot has no joint of that exact name.
  [[nodiscard]] std::size_t joint(std::string_view vendor_name) const {
    for (std::size_t i = 0; i < joints.size(); ++i) {
      if (joints[i].name == vendor_name) return i;
    }
    constexpr std::string_view suffix = "_joint";
    if (vendor_name.size() > suffix.size() && vendor_name.ends_with(suffix)) {
      return joint(vendor_name.substr(0, vendor_name.size() - suffix.size()));
    }
    return npos;
  }

  // The joint a Unitree SDK motor index drives (the robot's joint of that index for the other
  // vendors, whose praxis order is their SDK's), or npos.
  [[nodiscard]] std::size_t joint_of_motor(std::size_t motor) const {
    if (motor_of_joint.empty()) return motor < joints.size() ? motor : npos;
    for (std::size_t j = 0; j < motor_of_joint.size(); ++j) {
      if (motor_of_joint[j] == motor) return j;
    }
    return npos;
  }

  [[nodiscard]] std::string joint_names() const {
    std::string out;
    for (const auto& j : joints) out += (out.empty() ? "" : ", ") + j.name;
    return out;
  }
  // "0..28" or the motor indices the robot's joints have.
  [[nodiscard]] std::string motor_range() const {
    if (motor_of_joint.empty()) return "0.." + std::to_string(joints.size() - 1);
    std::string out;
    for (const auto m : motor_of_joint) out += (out.empty() ? "" : ", ") + std::to_string(m);
    return out;
  }
};

template <RobotModel M>
[[nodiscard]] RobotTable table_of(std::string_view robot) {
  RobotTable t;
  t.name = std::string(robot);
  for (const auto& j : M::joints) t.joints.push_back(RobotJoint{std::string(j.name), j.lower, j.upper});
  t.stand_pose.assign(M::stand_pose.begin(), M::stand_pose.end());
  if constexpr (requires { M::g1_slot; }) {
    t.motor_of_joint.assign(M::g1_slot.begin(), M::g1_slot.end());
  } else if (robot == "go2" || robot == "g1" || robot == "h1_2") {
    for (std::size_t j = 0; j < M::joint_count; ++j) t.motor_of_joint.push_back(j);
  }
  if (!t.motor_of_joint.empty()) t.unitree_msg_type = robot == "go2" ? "go" : "hg";
  t.imu_on_torso = robot == "h1_2";
  return t;
}

[[nodiscard]] inline RobotTable robot_table(std::string_view robot) {
  return with_model(robot, [&]<RobotModel M>() { return table_of<M>(robot); });
}

}  // namespace praxis::policy_tool
