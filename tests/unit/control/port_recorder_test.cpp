// PortRecorder: a user's port recorded from the running graph to CSV with its field names as the
// header, every k-th cycle, without allocating in the cycle; bad files named in the error.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/hana/define_struct.hpp>

#include "praxis/control/port_recorder.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

#ifdef PRAXIS_COUNT_ALLOCATIONS
#include "../../support/alloc_counter.hpp"
#include "../../support/scratch_dir.hpp"
#include "../../support/hold.hpp"
#endif

namespace port_recorder_test {

using namespace std::chrono_literals;

namespace {
using Model = praxis::unitree::Go2;
constexpr std::size_t N = Model::joint_count;

struct KneeEstimate {
  BOOST_HANA_DEFINE_STRUCT(KneeEstimate, (double, mean), (std::array<double, 2>, front), (bool, bent));
};
struct KneeEstimatePort : praxis::port<"test/knee_estimate", KneeEstimate> {};

// The user's estimator: reads the state, writes the estimate port (with a drift that makes every
// cycle's value different, so a row recorded from the wrong cycle shows).
struct KneeEstimator {
  using inputs = praxis::ports<praxis::StatePort<N>>;
  using outputs = praxis::ports<KneeEstimatePort>;
  int runs = 0;
  void cycle(const praxis::RobotState<N>& s, KneeEstimate& out) {
    const double drift = 0.001 * runs++;
    out.front = {s.q[2] + drift, s.q[5] + drift};
    out.mean = 0.5 * (out.front[0] + out.front[1]);
    out.bent = out.mean > 1.0;
  }
};

using HoldController = praxis::test::Hold<Model>;

using Recorder = praxis::control::PortRecorder<KneeEstimatePort>;
using Controller = praxis::control::RobotController<praxis::mock::MockRobot<Model>, HoldController, KneeEstimator, Recorder>;

praxis::control::ControllerOptions quiet() {
  praxis::control::ControllerOptions o;
  o.print = false;
  return o;
}

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}
}  // namespace

TEST_CASE("PortRecorder writes a user's port every k-th cycle with its field names as the header",
          "[control][recorder]") {
  const praxis::test::ScratchDir scratch("port_recorder");
  const auto file = scratch / "knees.csv";
  praxis::mock::MockRobot<Model> robot;
  Controller controller(robot, quiet());
  controller.node<Recorder>().open(file, 2);

  const praxis::TimePoint t0 = praxis::Clock::now();
  std::vector<double> means;
  for (int k = 0; k < 200; ++k) {
    controller.step(t0 + k * 2ms);
    if (k % 2 == 0) means.push_back(controller.graph().get<KneeEstimatePort>().mean);
  }
  controller.node<Recorder>().close();
  CHECK(controller.node<Recorder>().dropped() == 0);
  CHECK(controller.node<Recorder>().written() == 100);

  const auto rows = read_csv(file);
  REQUIRE(rows.size() == 101);
  CHECK(rows[0] == std::vector<std::string>{"time", "cycle", "mean", "front[0]", "front[1]", "bent"});
  CHECK(std::stod(rows[1][0]) == 0.0);
  CHECK(std::stod(rows[2][0]) == Approx(0.004));  // every second cycle of 2 ms
  CHECK(rows[2][1] == "2");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == 6);
    CHECK(std::stod(rows[r][2]) == means[r - 1]);  // shortest round-trip text: exact
    CHECK(std::stod(rows[r][2]) == Approx(0.5 * (std::stod(rows[r][3]) + std::stod(rows[r][4]))));
  }
}

#ifdef PRAXIS_COUNT_ALLOCATIONS
TEST_CASE("PortRecorder: recording allocates nothing in the cycle", "[control][recorder]") {
  const praxis::test::ScratchDir scratch("port_recorder");
  const auto file = scratch / "knees.csv";
  praxis::mock::MockRobot<Model> robot;
  Controller controller(robot, quiet());
  controller.node<Recorder>().open(file);
  const praxis::TimePoint t0 = praxis::Clock::now();
  controller.step(t0);  // start-up (reporter, lifecycle) allocates once
  const auto before = praxis::test::thread_allocation_count();
  for (int k = 1; k < 500; ++k) controller.step(t0 + k * 2ms);
  CHECK(praxis::test::thread_allocation_count() == before);
  controller.node<Recorder>().close();
  CHECK(controller.node<Recorder>().written() + controller.node<Recorder>().dropped() == 500);
}
#endif

TEST_CASE("PortRecorder: a file that cannot be created is named in the error, and nothing records",
          "[control][recorder]") {
  praxis::mock::MockRobot<Model> robot;
  Controller controller(robot, quiet());
  const std::filesystem::path bad = "/nonexistent-dir/estimate.csv";
  REQUIRE_THROWS_WITH(controller.node<Recorder>().open(bad), Catch::Contains("/nonexistent-dir/estimate.csv"));
  REQUIRE_THROWS_WITH(controller.node<Recorder>().open("x.csv", 0), Catch::Contains("every must be at least 1"));
  controller.step(praxis::Clock::now());  // not recording: the cycle runs as without a recorder
  CHECK(controller.node<Recorder>().written() == 0);
}

}  // namespace port_recorder_test
