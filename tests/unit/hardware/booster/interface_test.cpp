// Booster interface planner: the manual validation list of HULKs' booster_interface, as tests with a
// simulated clock stepping the worker's 10 ms ticks, and the action log's diagnostics.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "../../../support/alloc_counter.hpp"
#include "praxis/hardware/booster/action_log.hpp"
#include "praxis/hardware/booster/interface.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/motion/collector.hpp"

namespace booster_interface_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;
using praxis::MotionType;
using praxis::RobotMode;
using praxis::RobotRequests;
using praxis::TimePoint;

namespace {

constexpr auto k_tick = 10ms;

struct Recorder {
  struct Call {
    TimePoint at;
    b::PlannedAction what;
  };
  TimePoint now{};
  std::vector<Call> calls;
  std::vector<b::InputState> inputs;

  void operator()(const b::PlannedAction& a) { calls.push_back({now, a}); }
  void operator()(const b::InputState& s) { inputs.push_back(s); }

  [[nodiscard]] std::vector<b::PlannedAction> of(b::Action a, TimePoint from = TimePoint::min(),
                                                 TimePoint to = TimePoint::max()) const {
    std::vector<b::PlannedAction> out;
    for (const auto& c : calls) {
      if (c.what.action == a && c.at >= from && c.at < to) out.push_back(c.what);
    }
    return out;
  }
  [[nodiscard]] std::size_t count(b::Action a, TimePoint from = TimePoint::min(), TimePoint to = TimePoint::max()) const {
    return of(a, from, to).size();
  }
};

// The planner with a simulated clock; every run() steps 10 ms ticks with the same requests.
struct Sim {
  explicit Sim(b::InterfaceParams p = {}) : planner(p) {}
  b::Interface planner;
  Recorder rec;
  TimePoint now = TimePoint{} + 1000s;

  TimePoint run(const RobotRequests& r, praxis::Duration d) {
    const TimePoint start = now;
    for (praxis::Duration t{}; t < d; t += k_tick) {
      rec.now = now;
      planner.tick(r, now, rec);
      now += k_tick;
    }
    return start;
  }
};

// The requests as the CommandsSender posts them: the selected motion and the mode it asks for.
RobotRequests with_mode(RobotMode m, MotionType motion = MotionType::user_control) {
  RobotRequests r;
  r.any = true;
  r.motion = motion;
  r.mode = m;
  // The collector keeps the robot's own controller running in prepare too (locomotion.active).
  r.locomotion.active = m != RobotMode::damping;
  return r;
}
RobotRequests damping() { return with_mode(RobotMode::damping, MotionType::damping); }
// A new get-up counter value comes with the stand-up motion (the sender counts on entering it).
RobotRequests prepare(std::uint32_t get_up = 0) {
  auto r = with_mode(RobotMode::prepare, get_up > 0 ? MotionType::stand_up : MotionType::prepare);
  r.get_up = get_up;
  return r;
}
RobotRequests stand() { return with_mode(RobotMode::locomotion, MotionType::stand); }
RobotRequests walk(double vx, double vy, double wz) {
  auto r = with_mode(RobotMode::locomotion, MotionType::walk);
  r.locomotion = {true, vx, vy, wz};
  return r;
}
RobotRequests visual_kick(bool strong = true) {
  auto r = with_mode(RobotMode::locomotion, MotionType::visual_kick);
  r.kick.ball_position = {1.0, -0.5};
  r.kick.kick_direction = 0.25;
  r.kick.target_position = {4.0, 0.5};
  r.kick.robot_theta_to_field = -1.25;
  r.kick.kick_power = strong ? praxis::KickPower::strong : praxis::KickPower::soft;
  return r;
}
RobotRequests with_head(RobotRequests r, double yaw, double pitch) {
  r.head = {true, yaw, pitch};
  return r;
}

std::vector<b::Mode> modes_of(const std::vector<b::PlannedAction>& changes) {
  std::vector<b::Mode> out;
  for (const auto& c : changes) out.push_back(c.mode);
  return out;
}

}  // namespace

TEST_CASE("booster interface: action names are the fact sheet's") {
  CHECK(b::to_string(b::Action::change_mode) == "change_mode");
  CHECK(b::to_string(b::Action::get_up) == "get_up");
  CHECK(b::to_string(b::Action::move_robot) == "move_robot");
  CHECK(b::to_string(b::Action::rotate_head) == "rotate_head");
  CHECK(b::to_string(b::Action::kick_publish) == "kick_publish");
  CHECK(b::to_string(b::Action::visual_kick) == "visual_kick");
  CHECK(b::to_string(b::Action::set_leds) == "set_leds");
  CHECK(b::to_string(b::Action::stop_leds) == "stop_leds");
}

TEST_CASE("booster interface: before the first request with `any` nothing is called, whatever the requests say") {
  Sim sim;
  RobotRequests idle = with_head(walk(0.3, 0.0, 0.0), 0.2, 0.1);
  idle.any = false;
  idle.get_up = 3;
  idle.leds = {true, 255, 0, 0};
  sim.run(idle, 3s);
  CHECK(sim.rec.calls.empty());
  CHECK(sim.rec.inputs.empty());
  CHECK(sim.planner.assumed_mode() == b::Mode::damping);

  idle.any = true;
  sim.run(idle, 100ms);
  CHECK(sim.rec.count(b::Action::change_mode) == 1);
  CHECK(sim.rec.count(b::Action::set_leds) == 1);
  // Told before the mode change (assumed Damping), then again once Soccer is assumed.
  CHECK(sim.rec.inputs.size() == 2);
}

TEST_CASE("booster interface: exactly one change_mode per change of the desired mode, and the mode is assumed at once") {
  Sim sim;
  sim.run(damping(), 1s);  // the robot is assumed to start damped: nothing to change
  CHECK(sim.rec.count(b::Action::change_mode) == 0);
  sim.run(prepare(), 1s);
  CHECK(sim.planner.assumed_mode() == b::Mode::prepare);
  sim.run(stand(), 1s);
  sim.run(walk(0.3, 0.0, 0.1), 1s);  // still Soccer: no change
  sim.run(visual_kick(), 1s);        // still Soccer
  sim.run(stand(), 1s);
  sim.run(with_mode(RobotMode::unknown), 1s);  // no mode wanted: keep what is assumed
  sim.run(with_mode(RobotMode::user), 1s);
  sim.run(damping(), 1s);
  sim.run(damping(), 1s);
  CHECK(modes_of(sim.rec.of(b::Action::change_mode)) ==
        std::vector<b::Mode>{b::Mode::prepare, b::Mode::soccer, b::Mode::custom, b::Mode::damping});
}

TEST_CASE("booster interface: the planner starts from the mode the robot reported, or the initial_mode parameter") {
  // A robot already standing in Soccer (GetMode said so): standing costs no mode change, damping does.
  Sim soccer;
  soccer.planner = b::Interface(b::InterfaceParams{}, b::Mode::soccer);
  soccer.run(stand(), 1s);
  CHECK(soccer.rec.count(b::Action::change_mode) == 0);
  CHECK(soccer.rec.count(b::Action::move_robot) >= 45);
  soccer.run(damping(), 1s);
  CHECK(modes_of(soccer.rec.of(b::Action::change_mode)) == std::vector<b::Mode>{b::Mode::damping});
  CHECK_FALSE(Sim{}.planner.commanded());
  CHECK(soccer.planner.commanded());

  // No report: the parameter decides.
  b::InterfaceParams params;
  params.initial_mode = b::Mode::prepare;
  Sim assumed(params);
  assumed.run(damping(), 1s);
  CHECK(modes_of(assumed.rec.of(b::Action::change_mode)) == std::vector<b::Mode>{b::Mode::damping});
}

TEST_CASE("booster interface: a mode the robot refused is not asked for again until another mode is wanted, and the "
          "planner assumes what the robot reports") {
  Sim sim;
  sim.run(stand(), 100ms);
  CHECK(sim.planner.assumed_mode() == b::Mode::soccer);
  const auto moves_before = sim.rec.count(b::Action::move_robot);
  sim.planner.refused(b::Mode::soccer, b::Mode::damping);
  CHECK(sim.planner.assumed_mode() == b::Mode::damping);
  sim.run(stand(), 1s);
  CHECK(sim.rec.count(b::Action::change_mode) == 1);             // not again
  CHECK(sim.rec.count(b::Action::move_robot) == moves_before);  // not walking in Damping
  sim.run(prepare(), 100ms);
  sim.run(stand(), 100ms);
  CHECK(modes_of(sim.rec.of(b::Action::change_mode)) ==
        std::vector<b::Mode>{b::Mode::soccer, b::Mode::prepare, b::Mode::soccer});
  // A refusal that arrives after a newer change was planned changes nothing.
  sim.planner.refused(b::Mode::prepare, b::Mode::damping);
  CHECK(sim.planner.assumed_mode() == b::Mode::soccer);
}

TEST_CASE("booster interface: Damping, Prepare, StandUp, Stand, Walk and VisualKick ask for Damping, Prepare and Soccer, never Walking") {
  struct Case {
    const char* name;
    RobotRequests requests;
    b::Mode expected;
  };
  const std::vector<Case> cases{{"Damping", damping(), b::Mode::damping},
                                {"Prepare", prepare(), b::Mode::prepare},
                                {"StandUp", prepare(1), b::Mode::prepare},
                                {"Stand", stand(), b::Mode::soccer},
                                {"Walk", walk(0.2, 0.1, 0.0), b::Mode::soccer},
                                {"VisualKick", visual_kick(), b::Mode::soccer}};
  for (const auto& c : cases) {
    for (const auto& from : {damping(), prepare(), stand()}) {
      Sim sim;
      sim.run(from, 200ms);
      const auto before = sim.rec.count(b::Action::change_mode);
      sim.run(c.requests, 1s);
      INFO(c.name << " from " << to_string(from.mode));
      CHECK(sim.planner.assumed_mode() == c.expected);
      const auto changes = sim.rec.of(b::Action::change_mode);
      CHECK(changes.size() - before == (sim.planner.desired_mode(from.mode) == c.expected ? 0U : 1U));
      for (const auto& ch : changes) CHECK(ch.mode != b::Mode::walking);
    }
  }
}

TEST_CASE("booster interface: the Walking mode is only used when the parameters ask for it") {
  b::InterfaceParams p;
  p.locomotion_mode = b::Mode::walking;
  Sim sim(p);
  const auto start = sim.run(walk(0.3, 0.0, 0.0), 1s);
  CHECK(modes_of(sim.rec.of(b::Action::change_mode)) == std::vector<b::Mode>{b::Mode::walking});
  CHECK(sim.rec.count(b::Action::move_robot, start + 20ms) == 49);  // moves go to the configured mode
  sim.run(visual_kick(), 1s);
  CHECK(sim.rec.count(b::Action::visual_kick) == 0);  // the visual kick is a Soccer-mode feature
}

TEST_CASE("booster interface: walking sends move_robot at 50 Hz (+-1 per second) with the requested velocity") {
  Sim sim;
  sim.run(stand(), 500ms);
  const auto start = sim.run(walk(0.3, -0.2, 0.4), 3s);
  for (int s = 0; s < 3; ++s) {
    const auto from = start + std::chrono::seconds(s);
    const auto n = sim.rec.count(b::Action::move_robot, from, from + 1s);
    INFO("second " << s);
    CHECK(n >= 49);
    CHECK(n <= 51);
  }
  for (const auto& m : sim.rec.of(b::Action::move_robot, start)) {
    CHECK(m.forward == 0.3);
    CHECK(m.left == -0.2);
    CHECK(m.turn == 0.4);
  }
  // Consecutive moves are one interval apart, not one tick.
  TimePoint last{};
  for (const auto& c : sim.rec.calls) {
    if (c.what.action != b::Action::move_robot) continue;
    if (last != TimePoint{}) CHECK(c.at - last == 20ms);
    last = c.at;
  }
}

TEST_CASE("booster interface: standing sends zero-velocity move_robot at 50 Hz, only while Soccer is assumed") {
  Sim sim;
  const auto damped = sim.run(damping(), 1s);
  const auto prepared = sim.run(prepare(), 1s);  // locomotion.active is set in prepare too
  const auto standing = sim.run(stand(), 3s);
  CHECK(sim.rec.count(b::Action::move_robot, damped, prepared) == 0);
  CHECK(sim.rec.count(b::Action::move_robot, prepared, standing) == 0);
  for (int s = 0; s < 3; ++s) {
    const auto from = standing + std::chrono::seconds(s);
    const auto n = sim.rec.count(b::Action::move_robot, from, from + 1s);
    CHECK(n >= 49);
    CHECK(n <= 51);
  }
  for (const auto& m : sim.rec.of(b::Action::move_robot)) {
    CHECK(m.forward == 0.0);
    CHECK(m.left == 0.0);
    CHECK(m.turn == 0.0);
  }
  const auto after = sim.run(damping(), 1s);
  CHECK(sim.rec.count(b::Action::move_robot, after) == 0);
}

TEST_CASE("booster interface: rotate_head at about 50 Hz while Soccer is assumed, in any motion, and never otherwise") {
  Sim sim;
  const auto damped = sim.run(with_head(damping(), 0.5, 0.2), 1s);
  const auto prepared = sim.run(with_head(prepare(), 0.5, 0.2), 1s);
  CHECK(sim.rec.count(b::Action::rotate_head) == 0);
  (void)damped;
  const auto standing = sim.run(with_head(stand(), 0.5, 0.2), 2s);
  const auto kicking = sim.run(with_head(visual_kick(), -0.3, 0.1), 2s);
  const auto no_head = sim.run(stand(), 1s);
  for (const auto from : {standing, standing + 1s, kicking, kicking + 1s}) {
    const auto n = sim.rec.count(b::Action::rotate_head, from, from + 1s);
    CHECK(n >= 49);
    CHECK(n <= 51);
  }
  CHECK(sim.rec.count(b::Action::rotate_head, prepared, standing) == 0);
  CHECK(sim.rec.count(b::Action::rotate_head, no_head) == 0);
  const auto heads = sim.rec.of(b::Action::rotate_head, standing, kicking);
  REQUIRE(!heads.empty());
  CHECK(heads.front().yaw == 0.5);
  CHECK(heads.front().pitch == 0.2);
  CHECK(sim.rec.of(b::Action::rotate_head, kicking).front().yaw == -0.3);
}

TEST_CASE("booster interface: one get_up on stand-up entry while Prepare is assumed, none while the counter stays") {
  Sim sim;
  sim.run(prepare(0), 2s);
  CHECK(sim.rec.count(b::Action::get_up) == 0);
  const auto up = sim.run(prepare(1), 3s);  // stand-up entered: the counter moved once
  CHECK(sim.rec.count(b::Action::get_up) == 1);
  CHECK(sim.rec.of(b::Action::get_up).front().version == 0);
  CHECK(sim.rec.calls.back().at < up + 3s);
  sim.run(prepare(2), 1s);
  CHECK(sim.rec.count(b::Action::get_up) == 2);

  // From Damping, the change to Prepare and the get_up come in the same tick, in that order.
  Sim from_damping;
  from_damping.run(damping(), 1s);
  const auto t = from_damping.run(prepare(1), 1s);
  const auto& calls = from_damping.rec.calls;
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].what.action == b::Action::change_mode);
  CHECK(calls[0].what.mode == b::Mode::prepare);
  CHECK(calls[1].what.action == b::Action::get_up);
  CHECK(calls[0].at == t);
  CHECK(calls[1].at == t);

  // A new counter value outside Prepare is spent without a call.
  Sim standing;
  standing.run(stand(), 1s);
  auto odd = stand();
  odd.get_up = 5;
  standing.run(odd, 1s);
  standing.run(prepare(5), 1s);
  CHECK(standing.rec.count(b::Action::get_up) == 0);
}

TEST_CASE("booster interface: visual kick entry publishes the kick and sends one visual_kick(true), then publishes at about 50 Hz") {
  Sim sim;
  sim.run(stand(), 1s);
  const auto kick = sim.run(visual_kick(), 3s);
  const auto in_kick = sim.rec.of(b::Action::visual_kick);
  REQUIRE(in_kick.size() == 1);
  CHECK(in_kick.front().enabled);
  CHECK(in_kick.front().version == 1);
  CHECK(sim.planner.visual_kick_active());

  // On entry: kick_publish then visual_kick(true), in the first tick of the kick.
  std::vector<b::Action> first_tick;
  for (const auto& c : sim.rec.calls) {
    if (c.at == kick) first_tick.push_back(c.what.action);
  }
  CHECK(first_tick == std::vector<b::Action>{b::Action::kick_publish, b::Action::visual_kick});
  for (int s = 0; s < 3; ++s) {
    const auto from = kick + std::chrono::seconds(s);
    const auto n = sim.rec.count(b::Action::kick_publish, from, from + 1s);
    CHECK(n >= 49);
    CHECK(n <= 51);
  }
  // While kicking the robot's kick walks it: no move_robot competes with it.
  CHECK(sim.rec.count(b::Action::move_robot, kick) == 0);
  // Each message carries a fresh stamp.
  const auto published = sim.rec.of(b::Action::kick_publish, kick);
  CHECK(published[1].kick.stamp - published[0].kick.stamp == 20ms);
}

TEST_CASE("booster interface: the kick message carries the ball, direction, goal and the configured power") {
  Sim sim;
  sim.run(stand(), 100ms);
  sim.run(visual_kick(true), 100ms);
  const auto strong = sim.rec.of(b::Action::kick_publish);
  REQUIRE(!strong.empty());
  const auto& k = strong.front().kick;
  CHECK(k.x == 1.0);
  CHECK(k.y == -0.5);
  CHECK(k.dir == 0.25);
  CHECK(k.goal_x == 4.0);
  CHECK(k.goal_y == 0.5);
  CHECK(k.robot_theta_to_field == -1.25);
  CHECK(k.power == 6.0);

  praxis::Kick soft = visual_kick(false).kick;
  b::KickPowerParams powers{2.5, 7.0};
  CHECK(b::kick_message(soft, powers, TimePoint{} + 3s).power == 2.5);
  CHECK(b::kick_message(soft, b::KickPowerParams{}, TimePoint{}).power == 1.5);
}

TEST_CASE("booster interface: the motion pipeline's visual kick command reaches the kick message, field orientation included") {
  constexpr praxis::Capabilities caps{true, true, true, true, true, true};
  using Model = b::K1;
  praxis::motion::CommandsSender<Model, caps> sender;
  praxis::motion::command::VisualKick kick;
  kick.ball_position = {1.0, -0.5};
  kick.kick_direction = 0.25;
  kick.target_position = {4.0, 0.5};
  kick.robot_theta_to_field = 2.5;
  kick.kick_power = praxis::motion::KickPower::strong;
  praxis::motion::MotionSelection sel;
  sel.current = praxis::motion::MotionType::visual_kick;
  sel.commanded = true;
  praxis::JointCommand<Model::joint_count> cmd, actuated;
  RobotRequests r;
  sender.cycle(cmd, sel, praxis::motion::MotionCommand{kick}, praxis::LocomotionRequest{}, praxis::motion::HeadCommand{},
               praxis::LedRequest{}, praxis::RobotStatus{}, praxis::motion::SafetyStatus{false}, actuated, r);
  REQUIRE(r.motion == praxis::MotionType::visual_kick);
  CHECK(r.kick.robot_theta_to_field == 2.5);

  Sim sim;
  sim.run(stand(), 100ms);
  sim.run(r, 100ms);
  const auto published = sim.rec.of(b::Action::kick_publish);
  REQUIRE(!published.empty());
  const auto& m = published.front().kick;
  CHECK(m.x == 1.0);
  CHECK(m.y == -0.5);
  CHECK(m.dir == 0.25);
  CHECK(m.goal_x == 4.0);
  CHECK(m.goal_y == 0.5);
  CHECK(m.robot_theta_to_field == 2.5);
  CHECK(m.power == 6.0);
}

TEST_CASE("booster interface: leaving the visual kick for stand or walk sends one visual_kick(false) and stays in Soccer") {
  for (const auto& next : {stand(), walk(0.3, 0.0, 0.0), walk(0.0, 0.0, 0.5)}) {
    Sim sim;
    sim.run(stand(), 1s);
    sim.run(visual_kick(), 1s);
    const auto changes_before = sim.rec.count(b::Action::change_mode);
    const auto left = sim.run(next, 2s);
    const auto stops = sim.rec.of(b::Action::visual_kick, left);
    REQUIRE(stops.size() == 1);
    CHECK_FALSE(stops.front().enabled);
    CHECK(sim.rec.count(b::Action::change_mode) == changes_before);
    CHECK(sim.planner.assumed_mode() == b::Mode::soccer);
    CHECK_FALSE(sim.planner.visual_kick_active());
    CHECK(sim.rec.count(b::Action::kick_publish, left) == 0);
    CHECK(sim.rec.count(b::Action::move_robot, left, left + 1s) >= 49);
  }
  // Leaving for Damping: the kick ends with the mode, no visual_kick(false) is sent to a damped robot.
  Sim sim;
  sim.run(stand(), 1s);
  sim.run(visual_kick(), 1s);
  const auto left = sim.run(damping(), 1s);
  const auto stops = sim.rec.of(b::Action::visual_kick, left);
  REQUIRE(stops.size() == 1);  // sent before the change_mode, while Soccer is still assumed
  CHECK_FALSE(stops.front().enabled);
  CHECK(sim.rec.calls[sim.rec.calls.size() - 1].what.action == b::Action::change_mode);
}

TEST_CASE("booster interface: LED colours are forwarded once per change, stop once when released") {
  Sim sim;
  auto r = damping();
  sim.run(r, 500ms);
  r.leds = {true, 0, 0, 255};
  sim.run(r, 1s);
  r.leds = {true, 255, 255, 0};
  sim.run(r, 1s);
  r = prepare();  // a mode change does not repeat the colour
  r.leds = {true, 255, 255, 0};
  sim.run(r, 1s);
  r.leds = {false, 1, 2, 3};
  sim.run(r, 1s);
  r.leds = {true, 255, 255, 0};  // the same colour again after a stop is a change
  sim.run(r, 1s);
  const auto sets = sim.rec.of(b::Action::set_leds);
  REQUIRE(sets.size() == 3);
  CHECK(sets[0].leds == praxis::LedRequest{true, 0, 0, 255});
  CHECK(sets[1].leds == praxis::LedRequest{true, 255, 255, 0});
  CHECK(sets[2].leds == praxis::LedRequest{true, 255, 255, 0});
  CHECK(sim.rec.count(b::Action::stop_leds) == 1);
}

TEST_CASE("booster interface: the input state is reported on change only, with motion, modes, kick and head") {
  Sim sim;
  sim.run(damping(), 1s);
  sim.run(with_head(stand(), 0.1, 0.0), 1s);
  sim.run(with_head(walk(0.2, 0.0, 0.0), 0.3, 0.0), 1s);  // head values change, head_present does not
  sim.run(visual_kick(), 1s);
  const auto& in = sim.rec.inputs;
  REQUIRE(in.size() == 6);
  CHECK(in[0] == b::InputState{MotionType::damping, b::Mode::damping, b::Mode::damping, false, false});
  // Told before the mode change (desired Soccer, still assumed Damping), and on the next tick the
  // assumption changed.
  CHECK(in[1] == b::InputState{MotionType::stand, b::Mode::soccer, b::Mode::damping, false, true});
  CHECK(in[2] == b::InputState{MotionType::stand, b::Mode::soccer, b::Mode::soccer, false, true});
  CHECK(in[3] == b::InputState{MotionType::walk, b::Mode::soccer, b::Mode::soccer, false, true});
  CHECK(in[4] == b::InputState{MotionType::visual_kick, b::Mode::soccer, b::Mode::soccer, false, false});
  CHECK(in[5] == b::InputState{MotionType::visual_kick, b::Mode::soccer, b::Mode::soccer, true, false});
  CHECK(b::to_json_line(in[1]) ==
        R"({"event":"booster input state changed","motion":"stand","desired_mode":"Soccer","assumed_mode":"Damping","visual_kick_active":false,"head_present":true})");
}

TEST_CASE("booster interface: every action's name and channel and RPC id and periodicity come from one table") {
  CHECK(b::to_string(b::Action::change_mode) == "change_mode");
  CHECK(b::to_string(b::Action::stop_leds) == "stop_leds");
  CHECK(b::info(b::Action::kick_publish).channel == b::Channel::kick_topic);
  CHECK(b::info(b::Action::kick_publish).api_id == 0);  // a topic write: no RPC
  CHECK(b::info(b::Action::set_leds).channel == b::Channel::light);
  CHECK(b::info(b::Action::set_leds).api_id == 2000);  // the light service's SetLEDLightColor
  CHECK(b::info(b::Action::change_mode).api_id == 2000);  // the loco service's ChangeMode
  CHECK(b::info(b::Action::visual_kick).api_id == 2038);
  CHECK(b::info(b::Action::get_up).channel == b::Channel::loco);
  std::size_t periodic = 0;
  for (const auto& a : b::k_action_table) periodic += a.periodic ? 1 : 0;
  CHECK(periodic == 3);  // move_robot, rotate_head, kick_publish: a newer one replaces a waiting one
  CHECK(b::is_periodic(b::Action::move_robot));
  CHECK(b::is_periodic(b::Action::rotate_head));
  CHECK_FALSE(b::is_periodic(b::Action::change_mode));
}

TEST_CASE("booster interface: the planner works from the requests' motion by a table and infers nothing") {
  // The table, from the motion registry: only stand-up and the kick mean more than their mode.
  CHECK(b::role_of(MotionType::damping) == b::Role::damping);
  CHECK(b::role_of(MotionType::prepare) == b::Role::prepare);
  CHECK(b::role_of(MotionType::stand_up) == b::Role::get_up);
  CHECK(b::role_of(MotionType::stand) == b::Role::on_feet);
  CHECK(b::role_of(MotionType::walk) == b::Role::on_feet);
  CHECK(b::role_of(MotionType::visual_kick) == b::Role::kick);
  for (auto t : {MotionType::script, MotionType::dispatching, MotionType::fall_protection, MotionType::user_control}) {
    INFO(praxis::to_string(t));
    CHECK(b::role_of(t) == b::Role::custom);
  }
  CHECK(b::role_of(static_cast<MotionType>(200)) == b::Role::damping);  // not a motion: the safe reading

  // Walking on the spot is walking, and a stand with a (stale) velocity is standing: the motion
  // says which, not the velocity (the old planner told them apart by "velocity != 0").
  Sim sim;
  sim.run(walk(0.0, 0.0, 0.0), 500ms);
  auto moving_stand = stand();
  moving_stand.locomotion = {true, 0.4, 0.0, 0.0};
  sim.run(moving_stand, 500ms);
  const auto& in = sim.rec.inputs;
  REQUIRE(in.size() >= 2);
  CHECK(in.front().motion == MotionType::walk);
  CHECK(in.back().motion == MotionType::stand);
  // A kick is the motion, whatever the locomotion fields say, and ends when the motion changes.
  Sim kick;
  kick.run(stand(), 200ms);
  auto k = visual_kick();
  k.locomotion = {true, 0.3, 0.0, 0.0};
  kick.run(k, 200ms);
  CHECK(kick.planner.visual_kick_active());
  kick.run(walk(0.3, 0.0, 0.0), 200ms);
  CHECK_FALSE(kick.planner.visual_kick_active());
}

TEST_CASE("booster interface: a sink that only takes actions works, and ticks never allocate") {
  b::Interface planner{b::InterfaceParams{}};
  std::array<std::size_t, b::k_actions> counts{};
  const auto sink = [&counts](const b::PlannedAction& a) { ++counts[static_cast<std::size_t>(a.action)]; };
  const std::array<RobotRequests, 6> phases{damping(), prepare(1), with_head(stand(), 0.1, 0.2),
                                            walk(0.3, 0.0, 0.1), visual_kick(), stand()};
  TimePoint now{};
  const praxis::test::AllocationScope scope;
  for (const auto& r : phases) {
    for (int i = 0; i < 200; ++i, now += k_tick) planner.tick(r, now, sink);
  }
  CHECK(scope.allocations() == 0);
  CHECK(counts[static_cast<std::size_t>(b::Action::change_mode)] == 2);  // Prepare, Soccer
  CHECK(counts[static_cast<std::size_t>(b::Action::get_up)] == 1);
  CHECK(counts[static_cast<std::size_t>(b::Action::visual_kick)] == 2);  // start and stop
  CHECK(counts[static_cast<std::size_t>(b::Action::move_robot)] > 250);
}

}  // namespace booster_interface_test
