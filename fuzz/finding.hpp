#pragma once
// A broken promise of the code under test: print what and abort, which libFuzzer records as a
// crash (with the input) and which fails the replay test.

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "praxis/core/robot_state.hpp"

namespace praxis::fuzz {

[[noreturn]] inline void finding(const char* target, const char* what) {
  std::fprintf(stderr, "FUZZ FINDING in %s: %s\n", target, what);
  std::abort();
}

inline void require(bool ok, const char* target, const char* what) {
  if (!ok) finding(target, what);
}

// What every state decoder promises for a state it accepted: joints, IMU and the values derived
// from the orientation are finite.
template <std::size_t N>
void require_finite_state(const RobotState<N>& s, const char* target) {
  require(s.all_finite(), target, "an accepted state has a joint or IMU value that is not finite");
  require(s.projected_gravity.allFinite(), target, "an accepted state has a non-finite projected gravity");
  require(s.imu.rpy.allFinite(), target, "an accepted state has a non-finite roll/pitch/yaw");
}

// An exception that is not the loader's own type: report its message.
[[noreturn]] inline void unexpected_exception(const char* target, const std::exception& e) {
  std::fprintf(stderr, "FUZZ FINDING in %s: unexpected exception: %s\n", target, e.what());
  std::abort();
}

}  // namespace praxis::fuzz
