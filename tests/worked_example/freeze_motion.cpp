// The worked example of docs/motion.md, "Adding a motion": compiled against praxis' headers with the
// example's patch applied (tests/worked_example/run.sh). The patch adds the freeze motion in two
// places, its tag (core/motion_registry.hpp) and its node (motion/motions.hpp); this program shows
// that everything else followed: the behaviour asks for it by type, MotionController runs its node,
// the selection, the collector, the names and a vendor's request table know it.
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/booster/interface.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {

using Model = praxis::unitree::Go2;
constexpr std::size_t N = Model::joint_count;
namespace m = praxis::motion;
using praxis::MotionType;

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

// The Go2 mock does not walk by itself: walking holds the stand pose.
struct HoldStandWalk {
  static constexpr std::string_view name = "hold_stand_walk";
  void cycle(praxis::out<m::BodyCommandPort<MotionType::walk, N>, m::SafeExitPort<MotionType::walk>> out) const {
    auto& cmd = out.template get<m::BodyCommandPort<MotionType::walk, N>>();
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      cmd.q[i] = Model::stand_pose[j];
      cmd.kp[i] = Model::default_kp[j];
      cmd.kd[i] = Model::default_kd[j];
    }
    cmd.mode.fill(praxis::JointMode::position);
    out.template get<m::SafeExitPort<MotionType::walk>>() = true;
  }
};

}  // namespace

int main() {
  using namespace std::chrono_literals;
  // Derived from the one list: the count, the name, the port names, a vendor's table.
  check(praxis::k_motion_types == 11, "k_motion_types counts the new motion");
  check(praxis::to_string(MotionType::freeze) == "freeze", "to_string(MotionType::freeze)");
  check(m::BodyCommandPort<MotionType::freeze, N>::name == "praxis/body/freeze", "the freeze body port's name");
  check(praxis::booster::role_of(MotionType::freeze) == praxis::booster::Role::custom,
        "Booster's table: freeze is joint control by praxis");
  check(m::requested_type(m::MotionCommand{m::command::Request{MotionType::freeze}}) == MotionType::freeze,
        "command::Request asks for freeze");

  praxis::mock::MockRobot<Model> robot;
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.dispatch_duration = 1s;
  praxis::control::MotionController<decltype(robot), praxis::control::CommandInput, HoldStandWalk> motion(robot, library, options);

  praxis::TimePoint now{};
  const auto run_for = [&](praxis::Duration d) {
    for (const auto end = now + d; now < end; now += 2ms) motion.step(now);
  };
  motion.behaviour().command = m::command::Stand{};
  run_for(3s);
  check(motion.selection().current == MotionType::stand, "the robot stands first");

  // Freeze where the robot is: entered directly (its tag says it is not dispatched into).
  const auto entry = robot.q();
  motion.behaviour().command = m::command::Request{MotionType::freeze};
  run_for(4ms);
  check(motion.selection().current == MotionType::freeze, "freeze is selected at once");
  run_for(1s);
  check(motion.selection().current == MotionType::freeze, "freeze holds");
  const auto& cmd = motion.command();
  double worst = 0.0;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    worst = std::max(worst, std::abs(cmd.q[i] - entry[i]));
    if (cmd.kp[i] != Model::default_kp[j] || cmd.mode[j] != praxis::JointMode::position) {
      check(false, "every joint is held stiff with the model's gains");
      break;
    }
  }
  check(worst < 0.02, "the held pose is the pose at entry");
  check(motion.safe_exits()[MotionType::freeze], "the safe-exit collection has freeze's flag");

  // Damping still wins over the new motion, as over every other.
  motion.behaviour().command = m::command::Damping{};
  run_for(4ms);
  check(motion.selection().current == MotionType::damping, "damping is selected from freeze");

  if (failures == 0) std::printf("PASS: the freeze motion, added in two places, runs\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
