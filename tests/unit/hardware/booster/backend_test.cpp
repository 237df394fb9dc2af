// Booster's backend (backend.hpp): its factories and options, and its I/O worker's decisions.
#include <catch2/catch.hpp>

#include "praxis/hardware/booster/backend.hpp"
#include "praxis/hardware/booster/models.hpp"

namespace {
namespace booster_backend_test {

namespace b = praxis::booster;

TEST_CASE("booster backend: commands go in the space the model's values were published in (T1 parallel, K1 serial)") {
  static_assert(b::values_in_motor_space<b::T1>() && !b::values_in_motor_space<b::K1>());
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::robot("eth0").wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::fake_robot(3).wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::K1>::robot("eth0").wire.codec.space == b::MotorSpace::serial);
  // The T1's ankle targets are its crank motors' (the SDK example's parallel values).
  CHECK(b::T1::joints[15].name == "CrankUpLeft");
  CHECK(b::T1::stand_pose[15] == 0.2);
}

}  // namespace booster_backend_test
}  // namespace
