// The cycle of a non-trivial pipeline performs no heap allocation.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <new>
#include <vector>

#include "../../support/alloc_counter.hpp"
#include "praxis/graph.hpp"

namespace allocation_test {

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

// previous<P> copy-assigns P's value once per cycle. For a port whose value owns memory (here a
// std::vector that grows by one element per cycle) that copy allocates whenever the value outgrows
// what the copy already holds; a default_value() that reserves the largest size keeps it free.
namespace alloc {

inline constexpr std::size_t k_max_samples = 64;

struct GrowingLog : praxis::port<"growing_log", std::vector<int>> {};
struct ReservedLog : praxis::port<"reserved_log", std::vector<int>> {
  static std::vector<int> default_value() {
    std::vector<int> v;
    v.reserve(k_max_samples);
    return v;
  }
};

template <class Log>
struct Appender {
  using inputs = praxis::ports<praxis::previous<Log>>;
  using outputs = praxis::ports<Log>;
  void cycle(const std::vector<int>& last, std::vector<int>& log) {
    // The current value gets its full capacity once, so from then on the previous<> copy is the
    // only thing in the cycle that may allocate.
    if (log.capacity() < k_max_samples) log.reserve(k_max_samples);
    if (log.size() < k_max_samples) log.push_back(static_cast<int>(last.size()));
  }
};

}  // namespace alloc

TEST_CASE("previous<> of a growing vector allocates only beyond the reserved default",
          "[graph][realtime][previous]") {
  SECTION("value-initialised default: the copy allocates as the vector grows") {
    praxis::Pipeline<alloc::Appender<alloc::GrowingLog>> pipeline;
    pipeline.cycle();  // the current value reserves here
    praxis::test::AllocationScope scope;
    for (std::size_t i = 1; i < alloc::k_max_samples; ++i) pipeline.cycle();
    CHECK(scope.allocations() > 0);
    CHECK(pipeline.get<alloc::GrowingLog>().size() == alloc::k_max_samples);
  }
  SECTION("default_value() reserves the largest size: no allocation at all") {
    praxis::Pipeline<alloc::Appender<alloc::ReservedLog>> pipeline;
    praxis::test::AllocationScope scope;
    for (std::size_t i = 0; i < 2 * alloc::k_max_samples; ++i) pipeline.cycle();
    CHECK(scope.allocations() == 0);
    const auto& log = pipeline.get<alloc::ReservedLog>();
    REQUIRE(log.size() == alloc::k_max_samples);
    CHECK(log[10] == 10);  // each cycle saw last cycle's size through previous<>
  }
}

}  // namespace allocation_test
