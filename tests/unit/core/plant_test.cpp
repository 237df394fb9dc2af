// The Plant concept (include/praxis/core/plant.hpp): which types model it, and the promises of its
// comment checked by one generic routine on a minimal plant written here and on mock::MockRobot.
// (sim::MujocoPlant is checked against the concept in tests/unit/sim/mujoco_plant_test.cpp, where
// MuJoCo is linked.)

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>

#include "praxis/core/plant.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {
namespace plant_test {

using namespace std::chrono_literals;
using praxis::Duration;
using praxis::JointCommand;
using praxis::RobotState;
using praxis::TimePoint;

struct TwoJoints {
  static constexpr std::string_view name = "two_joints";
  static constexpr std::size_t joint_count = 2;
  static constexpr std::array<praxis::JointSpec, 2> joints{{{"a", -2.0, 2.0, 10.0, 5.0}, {"b", -2.0, 2.0, 10.0, 5.0}}};
  static constexpr std::array<double, 2> stand_pose{0.5, -0.5};
  static constexpr std::array<double, 2> rest_pose{0.0, 0.0};
  static constexpr std::array<double, 2> default_kp{20.0, 20.0};
  static constexpr std::array<double, 2> default_kd{1.0, 1.0};
};

// The least a plant can be: each joint moves towards its position target at kp rad/s per rad of
// error, in 1 ms steps, and every step is a new state.
class MinimalPlant {
 public:
  using model = TwoJoints;
  static constexpr Duration k_step = 1ms;

  explicit MinimalPlant(TimePoint start) : time_(start) {}

  void write(const JointCommand<2>& command, TimePoint /*now*/) { command_ = command; }
  bool read(RobotState<2>& out, TimePoint now) {
    advance_to(now);
    if (steps_ == read_steps_) return false;
    read_steps_ = steps_;
    out.q = q_;
    out.stamp = time_;
    return true;
  }
  void advance_to(TimePoint now) {
    while (time_ + k_step <= now) {
      for (Eigen::Index j = 0; j < 2; ++j) {
        if (command_.drives(static_cast<std::size_t>(j))) {
          q_[j] += praxis::to_seconds(k_step) * command_.kp[j] * (command_.q[j] - q_[j]);
        }
      }
      time_ += k_step;
      ++steps_;
    }
  }
  [[nodiscard]] TimePoint time() const { return time_; }
  void set_joint_positions(const std::array<double, 2>& q) { q_ = {q[0], q[1]}; }

 private:
  TimePoint time_;
  JointCommand<2> command_ = [] {
    JointCommand<2> c;
    c.mode.fill(praxis::JointMode::disabled);
    return c;
  }();
  praxis::JointVector<2> q_ = praxis::JointVector<2>::Zero();
  std::uint64_t steps_ = 0, read_steps_ = 0;
};

// The same plant with one thing wrong each.
struct NoRead {
  using model = TwoJoints;
  void write(const JointCommand<2>&, TimePoint) {}
  void advance_to(TimePoint) {}
  [[nodiscard]] TimePoint time() const { return {}; }
  void set_joint_positions(const std::array<double, 2>&) {}
};
struct WrongCommand {  // a command for three joints on a two-joint model
  using model = TwoJoints;
  bool read(RobotState<2>&, TimePoint) { return false; }
  void write(const JointCommand<3>&, TimePoint) {}
  void advance_to(TimePoint) {}
  [[nodiscard]] TimePoint time() const { return {}; }
  void set_joint_positions(const std::array<double, 2>&) {}
};
struct ReadWithoutAnswer {  // read() that does not say whether the state is new
  using model = TwoJoints;
  void read(RobotState<2>&, TimePoint) {}
  void write(const JointCommand<2>&, TimePoint) {}
  void advance_to(TimePoint) {}
  [[nodiscard]] TimePoint time() const { return {}; }
  void set_joint_positions(const std::array<double, 2>&) {}
};
struct NoModel {
  bool read(RobotState<2>&, TimePoint) { return false; }
  void write(const JointCommand<2>&, TimePoint) {}
  void advance_to(TimePoint) {}
  [[nodiscard]] TimePoint time() const { return {}; }
  void set_joint_positions(const std::array<double, 2>&) {}
};
struct NotAModel {};
struct ModelNotARobotModel : MinimalPlant {
  using model = NotAModel;
};
struct TimeNotConst : MinimalPlant {  // time() callable only on a mutable plant
  using MinimalPlant::MinimalPlant;
  TimePoint time() { return MinimalPlant::time(); }
};

static_assert(praxis::Plant<MinimalPlant>);
static_assert(praxis::check_plant<MinimalPlant>());
static_assert(praxis::Plant<praxis::mock::MockRobot<praxis::unitree::Go2>>);
static_assert(praxis::Plant<praxis::mock::MockRobot<TwoJoints>>);
static_assert(!praxis::Plant<NoRead>);
static_assert(!praxis::Plant<WrongCommand>);
static_assert(!praxis::Plant<ReadWithoutAnswer>);
static_assert(!praxis::Plant<NoModel>);
static_assert(!praxis::Plant<ModelNotARobotModel>);
static_assert(!praxis::Plant<TimeNotConst>);
static_assert(!praxis::Plant<int>);
// Every plant is a backend (hardware/backend.hpp): the runtime can drive it.
static_assert(praxis::Backend<MinimalPlant>);

JointCommand<2> towards(const std::array<double, 2>& q) {
  JointCommand<2> c;
  c.q = {q[0], q[1]};
  c.kp = {TwoJoints::default_kp[0], TwoJoints::default_kp[1]};
  c.kd = {TwoJoints::default_kd[0], TwoJoints::default_kd[1]};
  return c;
}

// What plant.hpp's comment promises, checked on any plant of the two-joint model: time advances only
// in advance_to() and read(), in steps up to `now` and never back; a state is new once; the command
// written is the one the motors follow from the next step on, whether advance_to() or read() takes it.
template <praxis::Plant P>
void keeps_the_plant_promises(P& plant) {
  const TimePoint t0 = plant.time();
  plant.set_joint_positions(TwoJoints::stand_pose);
  CHECK(plant.time() == t0);  // placing the joints takes no time

  plant.write(towards(TwoJoints::rest_pose), t0 + 10s);
  CHECK(plant.time() == t0);  // writing never advances time, whatever `now` it is given

  plant.advance_to(t0 + 100ms);
  const TimePoint t1 = plant.time();
  CHECK(t1 > t0);
  CHECK(t1 <= t0 + 100ms);
  CHECK(t0 + 100ms - t1 < 10ms);  // whole steps up to `now`, not a fraction of the way
  plant.advance_to(t0 + 50ms);    // an earlier time changes nothing
  CHECK(plant.time() == t1);

  RobotState<2> state;
  REQUIRE(plant.read(state, t0 + 200ms));
  CHECK(plant.time() > t1);
  CHECK(plant.time() <= t0 + 200ms);
  CHECK_FALSE(plant.read(state, t0 + 200ms));  // nothing new at the same time

  // The command written before advance_to() drove the joints from the stand pose towards rest from
  // the first step on: 200 ms of kp 20 leave less than a fifth of the way (about a tenth on the
  // mock's rotors); driven only from read() on, the mock's joints were still more than a fifth away.
  for (Eigen::Index j = 0; j < 2; ++j) {
    const double start = TwoJoints::stand_pose[static_cast<std::size_t>(j)];
    CHECK(std::abs(state.q[j]) < 0.2 * std::abs(start));
  }
}

TEST_CASE("a minimal plant keeps the promises of the Plant concept") {
  MinimalPlant plant(TimePoint{} + 1s);
  keeps_the_plant_promises(plant);
}

TEST_CASE("mock::MockRobot keeps the promises of the Plant concept") {
  praxis::mock::MockRobot<TwoJoints> plant(praxis::mock::MockOptions{}, TimePoint{} + 1s);
  keeps_the_plant_promises(plant);
}

}  // namespace plant_test
}  // namespace
