#pragma once
// Shared by the motion pipeline tests: a MotionController on a mock robot driven in simulated time,
// and mock backends with a controller of their own (walking, modes, getting up) that record what the
// cycle posted to them.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace motion_test {

using namespace std::chrono_literals;
namespace m = praxis::motion;
using m::MotionType;
using Go2 = praxis::unitree::Go2;
using G1 = praxis::unitree::G1;

inline praxis::TimePoint at(double s) { return praxis::TimePoint{} + praxis::from_seconds(s); }

inline const char* go2_scripts() { return PRAXIS_SOURCE_DIR "/examples/scripts/go2"; }
inline const char* g1_scripts() { return PRAXIS_SOURCE_DIR "/examples/scripts/g1"; }

// A G1 that walks by itself (capabilities.locomotion) and is otherwise joint-controlled. Counts what
// it was posted without allocating, so that it can serve the allocation tests.
struct WalkingMock : praxis::mock::MockRobot<G1> {
  static constexpr praxis::Capabilities capabilities{.locomotion = true};
  praxis::RobotRequests last{};
  std::uint64_t posts = 0;
  std::uint64_t walking_posts = 0;  // posts asking the robot to walk (locomotion.active)
  void post(const praxis::RobotRequests& r) {
    last = r;
    ++posts;
    if (r.locomotion.active) ++walking_posts;
  }
};

// A G1 with a motion controller of its own (modes, walking, getting up), as the Booster robots
// have. Records every post. Its status reports the mode it was last asked for as the assumed mode,
// and, unless `confirms_modes` is false, the robot reporting that mode back.
struct ModalMock : praxis::mock::MockRobot<G1> {
  static constexpr praxis::Capabilities capabilities{.modes = true, .locomotion = true, .get_up = true};
  std::vector<praxis::RobotRequests> posts;
  bool confirms_modes = true;
  praxis::Posture posture = praxis::Posture::unknown;  // what it reports of itself
  void post(const praxis::RobotRequests& r) { posts.push_back(r); }
  bool read_status(praxis::RobotStatus& s) {
    s.link.connected = true;  // in process: the link never drops
    s.posture = posture;
    if (!posts.empty()) {
      s.assumed_mode = posts.back().mode;
      s.reported_mode = confirms_modes ? s.assumed_mode : praxis::RobotMode::unknown;
      // Gets up at once when asked (and the mode is confirmed).
      if (confirms_modes) s.get_ups_completed = posts.back().get_up;
    }
    return true;
  }
  // The modes asked for, each change once, in order.
  [[nodiscard]] std::vector<praxis::RobotMode> mode_changes() const {
    std::vector<praxis::RobotMode> out;
    for (const auto& p : posts) {
      if (out.empty() || out.back() != p.mode) out.push_back(p.mode);
    }
    return out;
  }
};

// The same robot without a get-up of its own: stand-up is only a mode request.
struct ModesOnlyMock : ModalMock {
  static constexpr praxis::Capabilities capabilities{.modes = true, .locomotion = true};
};

template <class Robot, class... Extra>
struct Rig {
  using Model = typename Robot::model;
  using Controller = praxis::control::MotionController<Robot, praxis::control::CommandInput, Extra...>;
  Robot robot;
  praxis::script::ScriptLibrary<Model> library;
  std::unique_ptr<Controller> motion;
  praxis::TimePoint now{};

  explicit Rig(const char* scripts, praxis::control::MotionOptions options = quiet()) {
    library.load_folder(scripts);
    motion = std::make_unique<Controller>(robot, library, options);
  }
  static praxis::control::MotionOptions quiet() {
    praxis::control::MotionOptions o;
    o.print = false;
    return o;
  }
  void command(const m::MotionCommand& c) { motion->behaviour().command = c; }
  void step() { motion->step(now += 2ms); }
  void run_until(double s) {
    while (now < at(s)) step();
  }
  // Steps until the selection changes (at most `limit` seconds on); the selection of that cycle.
  m::MotionSelection run_until_change(double limit) {
    while (now < at(limit)) {
      step();
      if (motion->selection().changed) return motion->selection();
    }
    return motion->selection();
  }
};

}  // namespace motion_test
