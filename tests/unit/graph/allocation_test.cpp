// The cycle of a non-trivial pipeline performs no heap allocation.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <new>

#include "../../support/alloc_counter.hpp"
#include "praxis/graph.hpp"

namespace alloc {

inline constexpr std::size_t k_joints = 12;
using Joints = std::array<double, k_joints>;

struct Time : praxis::port<"time", double> {};
struct Measured : praxis::port<"measured", Joints> {};
struct Target : praxis::port<"target", Joints> {};
struct Torque : praxis::port<"torque", Joints> {};
struct Velocity : praxis::port<"velocity", Joints> {};

struct Clock {
  using outputs = praxis::ports<Time>;
  double t = 0;
  void cycle(double& time) { time = (t += 0.002); }
};
struct Trajectory {
  using inputs = praxis::ports<Time>;
  using outputs = praxis::ports<Target>;
  void cycle(const double& t, Joints& target) {
    for (std::size_t j = 0; j < k_joints; ++j) target[j] = 0.3 * std::sin(t + static_cast<double>(j));
  }
};
// A joint simulated by integrating the torque of the previous cycle.
struct Plant {
  using inputs = praxis::ports<praxis::previous<Torque>, praxis::previous<Velocity>>;
  using outputs = praxis::ports<Measured, Velocity>;
  Joints q{};
  void cycle(const Joints& tau, const Joints& dq_last, Joints& measured, Joints& dq) {
    for (std::size_t j = 0; j < k_joints; ++j) {
      dq[j] = dq_last[j] + 0.002 * (tau[j] - 0.5 * dq_last[j]);
      q[j] += 0.002 * dq[j];
    }
    measured = q;
  }
};
struct Pd {
  using inputs = praxis::ports<Target, Measured, Velocity>;
  using outputs = praxis::ports<Torque>;
  void cycle(const Joints& target, const Joints& q, const Joints& dq, Joints& tau) {
    for (std::size_t j = 0; j < k_joints; ++j) tau[j] = 40.0 * (target[j] - q[j]) - 1.0 * dq[j];
  }
};

}  // namespace alloc

TEMPLATE_TEST_CASE("100,000 cycles allocate nothing", "[graph][realtime]",
                   (praxis::Pipeline<alloc::Pd, alloc::Plant, alloc::Trajectory, alloc::Clock>),
                   (praxis::TimedPipeline<alloc::Pd, alloc::Plant, alloc::Trajectory,
                                          alloc::Clock>)) {
  TestType pipeline;
  pipeline.cycle();  // anything lazy happens here, outside the measured loop
  praxis::test::AllocationScope scope;
  for (int i = 0; i < 100'000; ++i) pipeline.cycle();
  CHECK(scope.allocations() == 0);
  // The loop did real work: the simulated joints follow the trajectory.
  const auto& target = pipeline.template get<alloc::Target>();
  const auto& q = pipeline.template get<alloc::Measured>();
  CHECK(std::abs(q[3] - target[3]) < 0.1);
  CHECK(std::abs(q[3]) > 1e-3);
}

TEST_CASE("the allocation counter sees allocations", "[graph][realtime]") {
  praxis::test::AllocationScope scope;
  // Called directly: new-expressions may legally be optimised away, these calls may not.
  void* p = ::operator new(24);
  ::operator delete(p);
  void* q = ::operator new(64, std::align_val_t{64});
  ::operator delete(q, std::align_val_t{64});
  CHECK(scope.allocations() == 2);
}
