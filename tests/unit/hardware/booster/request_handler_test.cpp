// RequestHandler (request_handler.hpp), the Booster backend's I/O worker part, driven in this
// process: inline executors at simulated time, the loco and light services as scripted RPC
// channels, rt/kick_ball as a recorder. Pinned: nothing before the first command, what a refused
// mode change leads to, the status it keeps, the log it writes, and how control ends.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "praxis/hardware/booster/request_handler.hpp"

namespace {
namespace booster_request_handler_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;
using praxis::MotionType;
using praxis::RobotMode;
using praxis::RobotRequests;
using praxis::TimePoint;

// A robot's loco (or light) service: answers ChangeMode like a robot that enters the mode (unless
// told to refuse it, or to stay silent), GetMode with its mode, everything else with success.
class FakeService final : public b::RpcChannel {
 public:
  explicit FakeService(std::string name) : name_(std::move(name)) {}
  b::RpcReply call(const b::RpcCall& call, praxis::Duration) override {
    calls.push_back(call);
    if (call.api_id == b::loco_api::k_change_mode && name_ == "rt/LocoApiTopic") {
      const int wanted = call.body.at(call.body.find(':') + 1) - '0';
      if (silent_modes.count(wanted) != 0) throw b::RpcTimeout("no answer");
      if (late_modes.count(wanted) != 0) {  // executed, answered after the caller stopped waiting
        mode = wanted;
        throw b::RpcTimeout("no answer in time");
      }
      if (refused_modes.count(wanted) != 0) return {b::status::k_conflict, "not in this mode", ""};
      mode = wanted;
    }
    if (call.api_id == b::loco_api::k_get_mode && name_ == "rt/LocoApiTopic") {
      if (silent_get_mode) throw b::RpcTimeout("no answer");
      return {b::status::k_ok, "{\"mode\":" + std::to_string(mode) + "}", ""};
    }
    return {b::status::k_ok, "", ""};
  }
  [[nodiscard]] const std::string& name() const override { return name_; }
  [[nodiscard]] std::vector<std::int64_t> api_ids() const {
    std::vector<std::int64_t> out;
    for (const auto& c : calls) out.push_back(c.api_id);
    return out;
  }
  [[nodiscard]] std::size_t count(std::int64_t api) const {
    std::size_t n = 0;
    for (const auto& c : calls) n += c.api_id == api ? 1 : 0;
    return n;
  }

  int mode = 0;  // Damping
  std::set<int> refused_modes, silent_modes, late_modes;
  bool silent_get_mode = false;
  std::vector<b::RpcCall> calls;

 private:
  std::string name_;
};

struct Rig {
  explicit Rig(b::StartMode start = {}, b::InterfaceParams params = {})
      : loco_client(loco), light_client(light),
        handler(loco_client, &light_client, [this](const b::KickMessage& k) {
                  kicks.push_back(k);
                  return kick_written;
                }, params, log, /*threaded=*/false, start) {
    handler.set_mode_mirror(&mirror);
  }
  // Serves `r` every 10 ms for `d` of simulated time.
  void serve(const RobotRequests& r, praxis::Duration d = 10ms) {
    for (praxis::Duration t{}; t < d; t += 10ms) {
      handler.serve(r, status, now);
      now += 10ms;
    }
  }

  FakeService loco{"rt/LocoApiTopic"};
  FakeService light{"rt/LightControlApiTopic"};
  b::LocoClient loco_client;
  b::LightClient light_client;
  std::vector<b::KickMessage> kicks;
  bool kick_written = true;
  std::shared_ptr<b::RecordingEventLog> log = std::make_shared<b::RecordingEventLog>();
  std::atomic<b::Mode> mirror{b::Mode::custom};
  praxis::RobotStatus status;
  TimePoint now = TimePoint{} + 100s;
  b::RequestHandler handler;
};

RobotRequests wanting(RobotMode m, MotionType motion) {
  RobotRequests r;
  r.any = true;
  r.mode = m;
  r.motion = motion;
  r.locomotion.active = m != RobotMode::damping;
  return r;
}
RobotRequests prepare() { return wanting(RobotMode::prepare, MotionType::prepare); }

bool logged(const Rig& rig, const std::string& category, const std::string& part) {
  for (const auto& e : rig.log->entries(category)) {
    if (e.json.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("booster request handler: the robot's modes as praxis' modes") {
  CHECK(b::robot_mode_of(b::Mode::damping) == RobotMode::damping);
  CHECK(b::robot_mode_of(b::Mode::prepare) == RobotMode::prepare);
  CHECK(b::robot_mode_of(b::Mode::walking) == RobotMode::locomotion);
  CHECK(b::robot_mode_of(b::Mode::soccer) == RobotMode::locomotion);
  CHECK(b::robot_mode_of(b::Mode::custom) == RobotMode::user);
  CHECK(b::robot_mode_of(b::Mode::unknown) == RobotMode::unknown);
  CHECK(b::api_id_of(b::Action::change_mode) == 2000);
  CHECK(b::api_id_of(b::Action::move_robot) == 2001);
  CHECK(b::api_id_of(b::Action::get_up) == 2008);
  CHECK(b::api_id_of(b::Action::visual_kick) == 2038);
  CHECK(b::api_id_of(b::Action::stop_leds) == 2001);  // the light service's
}

TEST_CASE("booster request handler: nothing is called and no joint frame allowed before the behaviour's first command") {
  Rig rig({b::Mode::custom, true});  // someone else holds the robot in Custom
  rig.serve(RobotRequests{}, 1s);
  CHECK(rig.loco.calls.empty());
  CHECK(rig.light.calls.empty());
  CHECK(rig.mirror.load() == b::Mode::unknown);
  CHECK(rig.status.reported_mode == RobotMode::user);  // what the robot reported at start

  rig.serve(prepare());
  REQUIRE(rig.loco.api_ids() == std::vector<std::int64_t>{b::loco_api::k_change_mode});
  CHECK(rig.loco.calls[0].body.find("\"mode\":1") != std::string::npos);
  CHECK(rig.mirror.load() == b::Mode::prepare);
  CHECK(rig.status.assumed_mode == RobotMode::prepare);
  CHECK(rig.status.reported_mode == RobotMode::prepare);  // its ChangeMode answered with success
  CHECK(rig.status.last_request.id == 2000);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::ok);
  CHECK(rig.status.requests_in_flight == 0);
  CHECK(logged(rig, "behaviour_input", "\"desired_mode\":\"Prepare\""));
  CHECK(logged(rig, "rpc", "\"event\":\"booster rpc completed\",\"sequence\":1,\"action\":\"change_mode\",\"status\":\"ok\""));
}

TEST_CASE("booster request handler: a refused mode change asks the robot where it is and reports that and is not "
          "asked again") {
  Rig rig;
  rig.loco.refused_modes = {1};
  rig.serve(prepare());
  CHECK(rig.loco.api_ids() == std::vector<std::int64_t>{b::loco_api::k_change_mode, b::loco_api::k_get_mode});
  CHECK(rig.status.reported_mode == RobotMode::damping);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::rejected);
  CHECK(rig.status.last_request.code == 409);
  CHECK(logged(rig, "rpc", "\"event\":\"booster rpc failed\",\"sequence\":1,\"action\":\"change_mode\""));
  rig.serve(prepare(), 2s);
  CHECK(rig.loco.count(b::loco_api::k_change_mode) == 1);
  CHECK(rig.status.assumed_mode == RobotMode::damping);  // the planner no longer assumes Prepare
  CHECK(rig.mirror.load() == b::Mode::damping);
}

TEST_CASE("booster request handler: a mode change unanswered in time is followed by GetMode: a robot already in the "
          "mode is not asked again") {
  Rig rig;
  rig.loco.late_modes = {1};  // Prepare executed, its answer too late
  rig.serve(prepare(), 2s);
  CHECK(rig.loco.api_ids() == std::vector<std::int64_t>{b::loco_api::k_change_mode, b::loco_api::k_get_mode});
  CHECK(rig.status.reported_mode == RobotMode::prepare);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::ok);
  CHECK(logged(rig, "rpc", "\"event\":\"booster rpc confirmed by GetMode\",\"sequence\":1"));
  CHECK(logged(rig, "rpc", "no answer in time); GetMode reports Prepare"));
}

TEST_CASE("booster request handler: a mode change unanswered in time, to a robot GetMode reports elsewhere, is tried "
          "again, each attempt after a GetMode") {
  Rig rig;
  rig.loco.silent_modes = {1};  // never switches, never answers
  rig.serve(prepare(), 2s);
  const auto ids = rig.loco.api_ids();
  REQUIRE(rig.loco.count(b::loco_api::k_change_mode) >= 2);  // the executor's retries
  for (std::size_t k = 1; k < ids.size(); ++k) {
    INFO("call " << k);
    if (ids[k] == b::loco_api::k_change_mode) CHECK(ids[k - 1] == b::loco_api::k_get_mode);  // never blind
  }
  CHECK(logged(rig, "rpc", "GetMode reports Damping: not executed, another attempt may"));
}

TEST_CASE("booster request handler: a mode change unanswered in time, and GetMode too, is not repeated") {
  Rig rig;
  rig.loco.late_modes = {1};
  rig.loco.silent_get_mode = true;  // the robot may have executed it: praxis cannot tell
  rig.serve(prepare(), 2s);
  CHECK(rig.loco.count(b::loco_api::k_change_mode) == 1);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::timed_out);
  CHECK(logged(rig, "rpc", "GetMode too ("));
  CHECK(logged(rig, "rpc", "no answer): not repeated, the robot may have executed it"));
}

TEST_CASE("booster request handler: the kick goes to rt/kick_ball and a kick not written is a failed request") {
  Rig rig({b::Mode::soccer, true});
  RobotRequests kick = wanting(RobotMode::locomotion, MotionType::visual_kick);
  kick.kick.ball_position = {1.0, -0.5};
  kick.kick.kick_direction = 0.25;
  rig.serve(kick, 100ms);
  REQUIRE_FALSE(rig.kicks.empty());
  CHECK(rig.kicks.back().x == 1.0);
  CHECK(rig.kicks.back().dir == 0.25);
  CHECK(rig.loco.count(b::loco_api::k_visual_kick) == 1);
  CHECK_FALSE(logged(rig, "rpc", "rt/kick_ball not written"));
  rig.kick_written = false;
  rig.serve(kick, 100ms);
  CHECK(logged(rig, "rpc", "\"action\":\"kick_publish\",\"error\":\"rt/kick_ball not written\""));
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::failed);
}

TEST_CASE("booster request handler: LED colours go to the light service and without one they fail") {
  SECTION("with the light service") {
    Rig rig;
    RobotRequests r = prepare();
    r.leds = {true, 255, 0, 16};
    rig.serve(r, 100ms);
    REQUIRE(rig.light.api_ids() == std::vector<std::int64_t>{b::light_api::k_set_led_light_color});
    CHECK(rig.light.calls[0].body.find("255") != std::string::npos);
  }
  SECTION("without") {
    FakeService loco("rt/LocoApiTopic");
    b::LocoClient client(loco);
    auto log = std::make_shared<b::RecordingEventLog>();
    b::RequestHandler handler(client, nullptr, {}, {}, log, false);
    praxis::RobotStatus status;
    RobotRequests r = prepare();
    r.leds = {true, 1, 2, 3};
    handler.serve(r, status, TimePoint{} + 1s);
    bool failed = false;
    for (const auto& e : log->entries("rpc")) {
      failed = failed || e.json.find("\"action\":\"set_leds\",\"error\":\"no light service\"") != std::string::npos;
    }
    CHECK(failed);
  }
}

TEST_CASE("booster request handler: the fall state becomes the posture - logged when it or the mode changes") {
  Rig rig;
  std::atomic<std::int32_t> fall{-1};
  std::atomic<std::uint32_t> get_ups{0};
  rig.handler.set_fall_source(&fall, &get_ups);
  rig.serve(RobotRequests{}, 30ms);
  CHECK(rig.status.posture == praxis::Posture::unknown);
  fall = 2;
  rig.serve(RobotRequests{}, 30ms);
  CHECK(rig.status.posture == praxis::Posture::fallen);
  fall = 3;
  rig.serve(RobotRequests{});
  CHECK(rig.status.posture == praxis::Posture::fallen);  // getting up is not upright yet
  fall = 0;
  get_ups = 1;
  rig.serve(RobotRequests{}, 30ms);
  CHECK(rig.status.posture == praxis::Posture::upright);
  CHECK(rig.status.get_ups_completed == 1);
  const auto states = rig.log->entries("primary_state");
  REQUIRE(states.size() == 4);  // unknown, fallen, getting_up, ready: once each
  CHECK(states[1].json == R"({"event":"booster primary state changed","fall_state":"fallen","confirmed_mode":"unknown"})");
  CHECK(states[3].json.find("\"fall_state\":\"ready\"") != std::string::npos);
}

TEST_CASE("booster request handler: a run that never commanded the robot ends without a call") {
  Rig rig;
  rig.serve(RobotRequests{}, 100ms);
  rig.handler.end_control(rig.status, rig.now);
  CHECK(rig.handler.shut_down(50ms) ==
        "booster_interface stopped: no Damping request: praxis did not command the robot's modes in this run");
  CHECK(rig.loco.calls.empty());
}

TEST_CASE("booster request handler: control ends with Damping - confirmed by ChangeMode and GetMode") {
  Rig rig;
  rig.serve(prepare(), 100ms);
  rig.loco.calls.clear();
  rig.handler.end_control(rig.status, rig.now);
  CHECK(rig.loco.api_ids() == std::vector<std::int64_t>{b::loco_api::k_change_mode, b::loco_api::k_get_mode});
  CHECK(rig.loco.calls[0].body.find("\"mode\":0") != std::string::npos);
  const auto report = rig.handler.end_report();
  CHECK(report.state == b::EndReport::State::confirmed);
  CHECK(report.mode_reported);
  const auto message = rig.handler.shut_down(50ms);
  CHECK(message.rfind("booster_interface stopped: Damping confirmed by the robot (ChangeMode answered with success, "
                      "GetMode reports Damping",
                      0) == 0);
  CHECK(rig.loco.count(b::loco_api::k_move) == 0);  // confirmed: nothing else to say
}

TEST_CASE("booster request handler: a Damping request the robot does not answer leaves it told to stand still") {
  Rig rig;
  rig.serve(prepare(), 100ms);
  rig.loco.silent_modes = {0};
  rig.handler.end_control(rig.status, rig.now);
  CHECK(rig.handler.end_report().state == b::EndReport::State::pending);  // its retry waits
  // Found by this test: the report counted attempts only when the request completed, so a pending
  // one said "0 attempts so far" after the first had gone out unanswered.
  CHECK(rig.handler.end_report().attempts == 1);
  const auto message = rig.handler.shut_down(50ms);
  INFO(message);
  CHECK(message.rfind("booster_interface stopped: Damping requested, not confirmed yet (1 attempt so far; ", 0) == 0);
  CHECK(message.find("; 1 call(s) still unanswered") != std::string::npos);
  CHECK(message.find("; sent move_robot(0, 0, 0) in case it still walks") != std::string::npos);
  CHECK(rig.handler.end_report().state == b::EndReport::State::not_confirmed);  // the stop dropped the retry
  REQUIRE(rig.loco.count(b::loco_api::k_move) == 1);
  CHECK(rig.loco.calls.back().api_id == b::loco_api::k_move);
  CHECK(rig.loco.calls.back().body.find("\"vx\":0") != std::string::npos);
}

}  // namespace booster_request_handler_test
}  // namespace
