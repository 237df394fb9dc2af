// The state machine rules, table-driven, exactly as the Unitree deployment framework defines them.

#include <catch2/catch.hpp>

#include "praxis/control/state_machine.hpp"

namespace state_machine_test {

using praxis::control::ControlState;
using praxis::control::StateMachine;

namespace {
StateMachine in(ControlState s, double pd) {
  StateMachine m;
  m.state = s;
  m.pd_ratio = pd;
  return m;
}
}  // namespace

TEST_CASE("initial values are the framework's", "[control][state_machine]") {
  const StateMachine m;
  CHECK(m.state == ControlState::damping);
  CHECK(m.pd_ratio == 0.1);
  CHECK(m.delta_pd == 0.005);
}

TEST_CASE("every transition rule", "[control][state_machine]") {
  struct Row {
    ControlState from;
    double pd;
    char request;  // 's' stop, 't' stand, 'c' ctrl
    bool accepted;
    ControlState to;
    double pd_after;
  };
  const Row rows[] = {
      {ControlState::damping, 0.5, 't', true, ControlState::stand, 0.5},
      {ControlState::ctrl, 1.0, 't', true, ControlState::stand, 1.0},
      {ControlState::stand, 0.7, 't', false, ControlState::stand, 0.7},
      {ControlState::stand, 0.96, 'c', true, ControlState::ctrl, 0.96},
      {ControlState::stand, 0.95, 'c', false, ControlState::stand, 0.95},  // strictly greater
      {ControlState::stand, 0.2, 'c', false, ControlState::stand, 0.2},
      {ControlState::damping, 1.0, 'c', false, ControlState::damping, 1.0},
      {ControlState::ctrl, 1.0, 'c', false, ControlState::ctrl, 1.0},
      {ControlState::damping, 0.3, 's', true, ControlState::damping, 0.0},
      {ControlState::stand, 0.8, 's', true, ControlState::damping, 0.0},
      {ControlState::ctrl, 1.0, 's', true, ControlState::damping, 0.0},
  };
  for (const auto& r : rows) {
    auto m = in(r.from, r.pd);
    const bool ok = r.request == 's' ? m.stop() : r.request == 't' ? m.stand() : m.ctrl();
    INFO("from " << praxis::control::to_string(r.from) << " pd " << r.pd << " request " << r.request);
    CHECK(ok == r.accepted);
    CHECK(m.state == r.to);
    CHECK(m.pd_ratio == Approx(r.pd_after));
  }
}

TEST_CASE("standing ramps pd_ratio only in STAND, clamped to [0, 1]", "[control][state_machine]") {
  auto m = in(ControlState::stand, 0.1);
  for (int i = 0; i < 10; ++i) m.standing(true);
  CHECK(m.pd_ratio == Approx(0.15));
  for (int i = 0; i < 4; ++i) m.standing(false);
  CHECK(m.pd_ratio == Approx(0.13));
  for (int i = 0; i < 1000; ++i) m.standing(true);
  CHECK(m.pd_ratio == 1.0);
  for (int i = 0; i < 1000; ++i) m.standing(false);
  CHECK(m.pd_ratio == 0.0);

  auto d = in(ControlState::damping, 0.4);
  d.standing(true);
  CHECK(d.pd_ratio == 0.4);
  auto c = in(ControlState::ctrl, 0.99);
  c.standing(false);
  CHECK(c.pd_ratio == 0.99);
}

TEST_CASE("from damping, 190 steps up are needed before ctrl is allowed", "[control][state_machine]") {
  auto m = in(ControlState::damping, 0.1);
  m.stop();  // pd_ratio 0 as after L2+B
  REQUIRE(m.stand());
  int steps = 0;
  while (!m.ctrl()) {
    m.standing(true);
    ++steps;
    REQUIRE(steps < 1000);
  }
  // 190 steps of 0.005: in floating point the sum is 0.9500000000000007, just above the threshold.
  // (At 500 Hz that is 0.38 s of holding R2; at the framework's 100 Hz, 1.9 s.)
  CHECK(steps == 190);
}

}  // namespace state_machine_test
