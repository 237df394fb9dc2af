// A Go2 walking by itself (SportBackend, its sport service) under praxis' motion pipeline, over real
// Cyclone DDS against praxis-fake-robot in another process: how control ends when the cycle faults
// while the robot walks, and a robot whose locomotion is off is not taken. What counts is what the
// fake robot recorded: its postures and every sport call. And the fake H1-2's motion service: the H1
// LocoClient on rt/api/loco; a G1 through Ctrl-C, a stalled control thread and an exception.
// A Go2 that restarts mid-walk. Domains 176..178, 180..183 and 61.

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/alloc_counter.hpp"
#include "../support/fake_robot_process.hpp"
#include "../support/timetable.hpp"

#include "praxis/control/motion_controller.hpp"
#include "praxis/control/signals.hpp"
#include "praxis/hardware/unitree/sport_backend.hpp"

using namespace std::chrono_literals;
namespace u = praxis::unitree;
namespace m = praxis::motion;

namespace {

using Backend = u::SportBackend<u::Go2>;
static_assert(praxis::HasModes<Backend> && praxis::HasLocomotion<Backend>);
static_assert(Backend::safe_state == praxis::SafeState::mode_request);

struct FakeGo2 : praxis::test::FakeRobotProcess {
  FakeGo2(std::uint32_t domain, std::vector<std::string> extra)
      : FakeRobotProcess(PRAXIS_FAKE_ROBOT, "go2", domain, std::move(extra)) {}
};

std::vector<std::string> postures_of(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& p : report["sport"]["postures"]) out.push_back(p["posture"].get<std::string>());
  return out;
}

praxis::control::MotionOptions motion_options() {
  praxis::control::MotionOptions o;
  o.print = false;
  o.lifecycle_timeout = 10s;
  o.safety.stale_timeout = 500ms;  // a loaded machine may starve a thread; these tests are about requests
  return o;
}

}  // namespace

TEST_CASE("go2 sport over DDS: a tilt while the robot walks ends the run in a fault: it is stopped, laid down and "
          "damped", "[unitree][dds][two-process][sport]") {
  constexpr std::uint32_t domain = 176;
  // Rolled past 90 degrees 2.5 s after the first sport call: the robot walks by then.
  FakeGo2 fake(domain, {"--sport-mode", "normal", "--sport-posture", "damped", "--script-start", "first-command",
                        "--tilt", "2.5:2.0:0.0"});
  auto options = Backend::fake_robot(domain);
  options.link_timeout = 500ms;
  Backend robot(options);
  praxis::script::ScriptLibrary<u::Go2> library;
  praxis::control::MotionController<Backend, praxis::test::Timetable> motion(robot, library, motion_options());
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  motion.behaviour().steps = {{0.0, m::command::StandUp{}}, {1.5, walk}};
  const auto outcome = motion.run_for(8s);
  const auto report = fake.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  REQUIRE(motion.acquired().has_value());
  CHECK(motion.acquired()->ok);
  CHECK(outcome.end == praxis::control::RunEnd::fault);
  CHECK(outcome.hand_back_ok);
  CHECK_THAT(outcome.hand_back, Catch::Contains("Damp confirmed"));
  // Stood up, walked, and from the fault on: stopped, laid down, damped; nothing asked after.
  CHECK(postures_of(report) ==
        std::vector<std::string>{"damped", "balancing", "walking", "balancing", "lying", "damped"});
  const auto& calls = report["sport"]["calls"];
  REQUIRE(calls.size() >= 4);
  CHECK(calls[calls.size() - 1]["api"] == u::sport::k_damp);
  CHECK(calls[calls.size() - 2]["api"] == u::sport::k_stand_down);
  CHECK(calls[calls.size() - 3]["api"] == u::sport::k_stop_move);
  for (const auto& c : calls) CHECK(c["code"] == 0);  // no call the robot refused
  CHECK(report["frames_received"] == 0);             // and no joint command, ever
}

TEST_CASE("go2 sport over DDS: a robot whose motion service is off is not taken, and nothing is called",
          "[unitree][dds][two-process][sport]") {
  constexpr std::uint32_t domain = 177;
  FakeGo2 fake(domain, {});  // low-level control released its motion service
  Backend robot(Backend::fake_robot(domain));
  const auto r = robot.acquire(5s);
  const auto report = fake.stop();
  INFO(r.message << "\n" << report.dump());
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.message, Catch::Contains("no motion service is active"));
  CHECK(report["sport_requests"] == 0);
  CHECK(report["rpc_requests"] == 1);  // CheckMode, and no SelectMode: praxis never starts it
  CHECK(report["active_mode"] == "");
}

TEST_CASE("go2 sport over DDS: what the control thread calls (post, write, read_status, read) allocates nothing",
          "[unitree][dds][two-process][sport]") {
  constexpr std::uint32_t domain = 178;
  FakeGo2 fake(domain, {"--sport-mode", "normal", "--sport-posture", "damped"});
  Backend robot(Backend::fake_robot(domain));
  REQUIRE(robot.acquire(5s).ok);
  praxis::RobotRequests wish;
  wish.any = true;
  wish.mode = praxis::RobotMode::locomotion;
  wish.locomotion = {true, 0.2, 0.0, 0.0};
  praxis::JointCommand<u::Go2::joint_count> none;
  none.mode.fill(praxis::JointMode::none);
  praxis::RobotStatus status;
  praxis::RobotState<u::Go2::joint_count> state;
  std::uint64_t states = 0;
  const auto before = praxis::test::thread_allocation_count();
  for (int k = 0; k < 3000; ++k) {  // 3 s of a 1 kHz cycle; the worker makes its calls meanwhile
    robot.post(wish);
    robot.write(none, praxis::Clock::now());
    (void)robot.read_status(status);
    states += robot.read(state, praxis::Clock::now()) ? 1 : 0;
    std::this_thread::sleep_for(1ms);
  }
  const auto allocations = praxis::test::thread_allocation_count() - before;
  const auto released = robot.release(10s);
  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(allocations == 0);
  CHECK(states > 100);
  CHECK(robot.sport().moves_sent() > 10);  // the worker walked the robot meanwhile
  CHECK(robot.commands_withheld() == 3000);
  CHECK(released.ok);
}

TEST_CASE("h1-2 loco over DDS: the fake H1-2 answers the H1 LocoClient on rt/api/loco and refuses what its posture "
          "does not allow", "[unitree][dds][two-process][sport]") {
  constexpr std::uint32_t domain = 180;
  namespace h1 = u::h1_loco;
  praxis::test::FakeRobotProcess fake(PRAXIS_FAKE_ROBOT, "h1_2", domain,
                                      {"--sport-mode", "normal", "--sport-posture", "damped"});
  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::RpcClient<u::UnitreeApiTraits> loco(participant, u::api_request_topic(h1::k_service),
                                                   u::api_response_topic(h1::k_service));
  const auto call = [&](std::int64_t id, const nlohmann::json& parameter) {
    return loco.call({id, parameter.dump()}, 3000ms).code;
  };
  const nlohmann::json walk{{"velocity", {0.2, 0.0, 0.0}}, {"duration", 1.0}};
  const nlohmann::json stop{{"velocity", {0.0, 0.0, 0.0}}, {"duration", 1.0}};
  constexpr std::int32_t refused = 4001;  // the fake's refusal in a posture (examples/fake_robot/sport_service.hpp)
  // Damped: no walking, no Start, no balance mode; the G1's Start id is not an H1 FSM id.
  CHECK(call(h1::k_set_velocity, walk) == refused);
  CHECK(call(h1::k_set_fsm_id, {{"data", h1::k_fsm_start}}) == refused);
  CHECK(call(h1::k_set_balance_mode, {{"data", 0}}) == refused);
  CHECK(call(h1::k_set_fsm_id, {{"data", u::loco::k_fsm_start}}) == h1::k_error_invalid_fsm_id);
  CHECK(call(u::loco::k_set_fsm_id, {{"data", u::loco::k_fsm_stand_up}}) == 3203);  // the G1's ids: not here
  // StandUp, Start, BalanceStand, a walk and a stop.
  CHECK(call(h1::k_set_fsm_id, {{"data", h1::k_fsm_stand_up}}) == 0);
  CHECK(call(h1::k_set_fsm_id, {{"data", h1::k_fsm_start}}) == 0);
  CHECK(call(h1::k_set_balance_mode, {{"data", 0}}) == 0);
  CHECK(call(h1::k_set_balance_mode, {{"data", 7}}) == 3204);
  CHECK(call(h1::k_set_velocity, walk) == 0);
  CHECK(call(h1::k_set_velocity, stop) == 0);
  // The Go2's and G1's service name is not answered on an H1-2.
  praxis::transport::RpcClient<u::UnitreeApiTraits> sport(participant, u::api_request_topic(u::sport::k_service),
                                                    u::api_response_topic(u::sport::k_service));
  CHECK_THROWS_AS(sport.call({u::sport::k_stand_down, "{}"}, 500ms), praxis::transport::RpcUnanswered);
  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(postures_of(report) ==
        std::vector<std::string>{"damped", "standing_locked", "balancing", "walking", "balancing"});
  CHECK(report["sport"]["moves_accepted"] == 1);
  CHECK(report["sport_requests"] == 11);
  CHECK(report["sport_requests_refused"] == 6);
  CHECK(report["frames_received"] == 0);
}

TEST_CASE("g1 loco over DDS: Ctrl-C, a stalled control thread and an exception while the robot walks each end with "
          "it stopped and balancing, never damped", "[unitree][dds][two-process][sport][ends]") {
  using D = praxis::test::Timetable::Disturbance;
  using G1Backend = u::SportBackend<u::G1>;
  const auto disturbance = GENERATE(D::signal, D::stall, D::exception);
  const std::uint32_t domain = disturbance == D::signal ? 181 : disturbance == D::stall ? 182 : 183;
  praxis::test::FakeRobotProcess fake(PRAXIS_FAKE_ROBOT, "g1", domain,
                                      {"--sport-mode", "normal", "--sport-posture", "damped"});
  auto options = G1Backend::fake_robot(domain);
  options.link_timeout = 500ms;
  G1Backend robot(options);
  praxis::script::ScriptLibrary<u::G1> library;
  auto mo = motion_options();
  mo.stall_timeout = 100ms;
  praxis::control::MotionController<G1Backend, praxis::test::Timetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  auto& behaviour = motion.behaviour();
  behaviour.steps = {{0.0, m::command::StandUp{}}, {1.0, walk}};
  behaviour.disturbance = disturbance;
  behaviour.disturb_at = 3.0;  // walking by then
  behaviour.stall_for = 4s;
  praxis::control::RunOutcome outcome;
  if (disturbance == D::exception) {
    CHECK_THROWS_WITH(motion.run_for(10s), Catch::Contains("the behaviour failed"));
  } else {
    const praxis::control::StopOnSignals stop_on_signals(motion);
    outcome = motion.run_for(10s);
  }
  const auto report = fake.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  if (disturbance == D::signal) CHECK(outcome.signal == SIGINT);
  if (disturbance == D::stall) {
    CHECK(outcome.end == praxis::control::RunEnd::stalled);
    // The robot stopped while the control thread still slept (4 s from 3 s on), not after it came
    // back: walking (from about 1 s) to balancing again took well under the 6 s that waiting for
    // the thread would have.
    CHECK(praxis::to_seconds(behaviour.stall_ended - behaviour.stall_began) > 3.5);
    const auto& postures = report["sport"]["postures"];
    REQUIRE(postures.size() == 5);
    CHECK(postures[4]["t"].get<double>() - postures[3]["t"].get<double>() < 4.0);
  }
  if (disturbance != D::exception) CHECK(outcome.hand_back_ok);
  CHECK(postures_of(report) ==
        std::vector<std::string>{"damped", "standing_locked", "balancing", "walking", "balancing"});
  for (const auto& c : report["sport"]["calls"]) CHECK(c["code"] == 0);
  CHECK(report["frames_received"] == 0);
}

// A Go2 that restarts mid-walk (its process gone, a new one on the same domain 61, its motion
// service on as a robot boots): the walk the behaviour still asks for is never sent to the new
// robot. Whether it boots lying or standing, it gets its safe request and no Move until the
// behaviour asks for something else (a stand-up) and then a walk again.
TEST_CASE("go2 sport over DDS: a robot that restarts mid-walk is not walked again until the behaviour asks anew",
          "[unitree][dds][two-process][sport][restart]") {
  const std::string boots = GENERATE(std::string("damped"), std::string("balancing"));
  INFO("restarted " << boots);
  constexpr std::uint32_t domain = 61;
  std::optional<FakeGo2> before(std::in_place, domain,
                                std::vector<std::string>{"--sport-mode", "normal", "--sport-posture", "damped",
                                                         "--duration", "4"});
  auto options = Backend::fake_robot(domain);
  options.link_timeout = 500ms;
  Backend robot(options);
  praxis::script::ScriptLibrary<u::Go2> library;
  praxis::control::MotionController<Backend, praxis::test::Timetable> motion(robot, library, motion_options());
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  motion.behaviour().steps = {{0.0, m::command::StandUp{}}, {1.5, walk}, {7.0, m::command::StandUp{}}, {8.0, walk}};
  praxis::control::RunOutcome outcome;
  std::thread run([&] { outcome = motion.run_for(10s); });
  REQUIRE(before->wait_for_exit(15000ms));
  const auto first = before->stop();
  CHECK(postures_of(first).back() == "walking");  // it walked when it went
  std::this_thread::sleep_for(1000ms);  // past the link timeout (500 ms here): a robot boots far slower
  FakeGo2 after(domain, {"--sport-mode", "normal", "--sport-posture", boots});
  const auto back = std::chrono::steady_clock::now();
  run.join();
  const double lasted = std::chrono::duration<double>(std::chrono::steady_clock::now() - back).count();
  const auto report = after.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  motion.flush();
  std::string story;
  for (const auto& e : motion.transitions()) {
    story += std::to_string(e.time) + " s " + std::string(m::to_string(e.from)) + " -> " +
             std::string(m::to_string(e.to)) + " (" + std::string(m::to_string(e.cause)) + "); ";
  }
  INFO("transitions: " << story);
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  REQUIRE(lasted > 4.0);  // the behaviour's walk at 8 s of the run came well after the restart
  // The posture praxis knew went with the link: the returning robot gets the safe request (laid
  // down if it stands; a robot that is not standing refuses StandDown and is damped where it lies),
  // then the behaviour's stand-up (RecoveryStand), and only then a walk.
  const auto& calls = report["sport"]["calls"];
  REQUIRE(calls.size() >= 4);
  CHECK(calls[0]["api"] == u::sport::k_stand_down);
  CHECK(calls[0]["code"] == (boots == "damped" ? 4001 : 0));
  CHECK(calls[1]["api"] == u::sport::k_damp);
  CHECK(calls[1]["code"] == 0);
  int moves = 0;
  double stand_up_at = -1.0;
  for (std::size_t k = 1; k < calls.size(); ++k) {
    const auto& c = calls[k];
    CHECK(c["code"] == 0);  // nothing else the robot refused
    if (c["api"] == u::sport::k_recovery_stand && stand_up_at < 0.0) stand_up_at = c["t"].get<double>();
    if (c["api"] != u::sport::k_move) continue;
    ++moves;
    CHECK(c["t"].get<double>() > 2.0);
    CHECK(stand_up_at >= 0.0);  // after the behaviour's stand-up, never before it
  }
  CHECK(moves > 0);  // and then walked again
  CHECK(postures_of(report).back() == "damped");  // the run's end
  CHECK(report["frames_received"] == 0);
}
