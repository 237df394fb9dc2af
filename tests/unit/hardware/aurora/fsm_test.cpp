// Aurora's FSM numbers and their names (fact sheet A.5). The take-control / hand-back sequence is
// tested in take_control_test.cpp, the walking handler in locomotion_test.cpp.

#include <catch2/catch.hpp>

#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/take_control.hpp"

namespace aurora_fsm_test {

namespace a = praxis::aurora;

TEST_CASE("aurora fsm: the numbers of A.5 and their names", "[aurora][fsm]") {
  CHECK(static_cast<int>(a::WholeBodyState::pd_stand) == 2);
  CHECK(static_cast<int>(a::k_locomotion_state) == 3);
  CHECK(static_cast<int>(a::WholeBodyState::security) == 9);
  CHECK(static_cast<int>(a::WholeBodyState::user_cmd) == 10);
  CHECK(static_cast<int>(a::WholeBodyState::upper_body_user_cmd) == 11);
  CHECK(static_cast<int>(a::UpperBodyState::move_command) == 4);
  CHECK(static_cast<int>(a::VelocitySource::navigation) == 2);
  CHECK(a::to_string(a::WholeBodyState::upper_body_user_cmd) == "UpperBodyUserCmd");
  CHECK(a::to_string(a::WholeBodyState::security) == "SecurityProtection");
  CHECK(a::to_string(static_cast<a::WholeBodyState>(42)) == "unknown");
  CHECK(a::to_string(a::VelocitySource::navigation) == "navigation");
  CHECK(a::to_string(a::GroupMotionState::error) == "error");
  CHECK(a::FsmSequence::state_name(2) == "PdStand (2)");
}

}  // namespace aurora_fsm_test
