// RobotStatus: the names of request outcomes and lifecycle stages (as logs and messages print
// them), the defaults a backend starts from (nothing known, nothing requested, not connected), and
// mode_confirmed(): true only when the robot reports a mode and it is the one the backend assumes.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "praxis/core/robot_status.hpp"

namespace robot_status_test {

using praxis::LifecycleStage;
using praxis::RequestOutcome;
using praxis::RobotMode;

TEST_CASE("robot status: every request outcome has its own name", "[core][robot_status]") {
  CHECK(praxis::to_string(RequestOutcome::none) == "none");
  CHECK(praxis::to_string(RequestOutcome::pending) == "pending");
  CHECK(praxis::to_string(RequestOutcome::ok) == "ok");
  CHECK(praxis::to_string(RequestOutcome::rejected) == "rejected");
  CHECK(praxis::to_string(RequestOutcome::timed_out) == "timed out");
  CHECK(praxis::to_string(RequestOutcome::failed) == "failed");
  STATIC_REQUIRE(praxis::to_string(RequestOutcome::failed) == std::string_view("failed"));
}

TEST_CASE("robot status: every lifecycle stage has its own name", "[core][robot_status]") {
  CHECK(praxis::to_string(LifecycleStage::idle) == "idle");
  CHECK(praxis::to_string(LifecycleStage::acquiring) == "acquiring");
  CHECK(praxis::to_string(LifecycleStage::in_control) == "in control");
  CHECK(praxis::to_string(LifecycleStage::releasing) == "releasing");
  CHECK(praxis::to_string(LifecycleStage::released) == "released");
  CHECK(praxis::to_string(LifecycleStage::failed) == "failed");
  STATIC_REQUIRE(praxis::to_string(LifecycleStage::in_control) == std::string_view("in control"));
}

TEST_CASE("robot status: a default status knows nothing requests nothing and is not connected",
          "[core][robot_status]") {
  const praxis::RobotStatus s;
  CHECK(s.reported_mode == RobotMode::unknown);
  CHECK(s.assumed_mode == RobotMode::unknown);
  CHECK(s.mode_since == praxis::TimePoint{});
  CHECK(s.last_request.id == 0);
  CHECK(s.last_request.outcome == RequestOutcome::none);
  CHECK(s.last_request.code == 0);
  CHECK(s.last_request.finished == praxis::TimePoint{});
  CHECK(s.requests_in_flight == 0);
  CHECK(s.get_ups_completed == 0);
  CHECK(s.posture == praxis::Posture::unknown);
  CHECK(s.lifecycle == LifecycleStage::idle);
  CHECK_FALSE(s.link.connected);
  CHECK(s.link.states_received == 0);
  CHECK(s.link.states_rejected == 0);
  CHECK(s.link.commands_sent == 0);
  CHECK(s.link.send_errors == 0);
  CHECK(s.sequence == 0);
  CHECK_FALSE(s.mode_confirmed());
}

TEST_CASE("robot status: a mode is confirmed only when the robot reports the one the backend assumes",
          "[core][robot_status]") {
  constexpr std::array<RobotMode, praxis::k_robot_modes> modes{RobotMode::unknown, RobotMode::damping,
                                                                RobotMode::prepare, RobotMode::locomotion,
                                                                RobotMode::user};
  for (const auto reported : modes) {
    for (const auto assumed : modes) {
      praxis::RobotStatus s;
      s.reported_mode = reported;
      s.assumed_mode = assumed;
      INFO("reported " << praxis::to_string(reported) << ", assumed " << praxis::to_string(assumed));
      // Both unknown is not a confirmation: a report is missing.
      CHECK(s.mode_confirmed() == (reported == assumed && reported != RobotMode::unknown));
    }
  }
  constexpr praxis::RobotStatus confirmed = [] {
    praxis::RobotStatus s;
    s.reported_mode = s.assumed_mode = RobotMode::locomotion;
    return s;
  }();
  STATIC_REQUIRE(confirmed.mode_confirmed());
}

TEST_CASE("robot status: the outcome and stage names are all different", "[core][robot_status]") {
  std::set<std::string> outcomes;
  for (std::size_t o = 0; o < 6; ++o) outcomes.emplace(praxis::to_string(static_cast<RequestOutcome>(o)));
  CHECK(outcomes.size() == 6);
  std::set<std::string> stages;
  for (std::size_t s = 0; s < 6; ++s) stages.emplace(praxis::to_string(static_cast<LifecycleStage>(s)));
  CHECK(stages.size() == 6);
}

}  // namespace robot_status_test
