// Controller cycle and motion pipeline for one robot of each vendor besides Unitree (whose G1 is
// in controller_cycle): Booster T1 (23 joints), Aurora GR-1 (32), Tienkung Pro (30).
//
// Each runs on MockRobot with the vendor's model, not on the vendor backend: the backends need a
// DDS peer (a robot or a fake one) and would put the network into a number meant to show the
// cycle. The codecs are measured on their own in bench_codec.
//
// Per robot, every cycle timed on its own, interleaved in batches:
//   mock only (baseline)      the mock's read and write of a command, its physics included: the
//                             floor every variant pays
//   RobotController step      the whole controller graph in CTRL with a waving USER_CTRL
//   MotionController step     the behaviour-driven pipeline, standing
// Heap allocations on the calling thread are counted per cycle, after each series' first step.
//
//   bench_vendor_cycle [results.json]

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "allocation_counter.hpp"
#include "harness.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "../examples/motion_pipeline/step_in_place.hpp"

namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

template <praxis::RobotModel Model>
struct Wave {
  static constexpr std::size_t N = Model::joint_count;
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double t = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { t = 0; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    t += dt;
    for (std::size_t j = 0; j < N; ++j) jpos_des[j] = init_pos[j] + 0.05 * std::sin(3.0 * t + 0.1 * static_cast<double>(j));
  }
  std::array<float, 1> log() const { return {static_cast<float>(t)}; }
};

// One series: a step function timed per call, with its allocations on this thread. The first call
// is left out of the count: a controller's first step() starts its reporter thread (start-up, not
// the cycle).
struct Series {
  std::vector<double> ns;
  std::size_t allocations = 0;
  template <class F>
  void time(F&& step) {
    const auto a0 = praxis::bench::allocation_count();
    const auto t0 = clock_type::now();
    step();
    const auto t1 = clock_type::now();
    if (!ns.empty()) allocations += praxis::bench::allocation_count() - a0;
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
};

template <praxis::RobotModel Model>
bool run_robot(const std::string& label, const std::string& key, std::size_t cycles,
               std::vector<praxis::bench::ReportRow>& rows) {
  using Robot = praxis::mock::MockRobot<Model>;
  constexpr std::size_t N = Model::joint_count;
  Robot floor_robot, ctrl_robot, motion_robot;
  // Stand (hold R2), then CTRL (tap A): the cycles measured run the user controller.
  ctrl_robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 20ms, 1s);
  ctrl_robot.tap(praxis::GamepadButton::A, praxis::TimePoint{} + 1200ms);

  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<Robot, Wave<Model>> controller(ctrl_robot, options);
  praxis::script::ScriptLibrary<Model> library;  // no scripts: the motion pipeline stands
  praxis::control::MotionOptions motion_options;
  motion_options.print = false;
  praxis::control::MotionController<Robot, praxis::control::CommandInput, example::StepInPlace<Model>> motion(motion_robot, library,
                                                                                            motion_options);
  motion.behaviour().command = praxis::motion::command::Stand{};

  praxis::RobotState<N> state;
  praxis::JointCommand<N> hold;
  hold.q.setZero();
  hold.kd.setConstant(2.0);
  Series floor, ctrl, pipeline;
  for (auto* s : {&floor, &ctrl, &pipeline}) s->ns.reserve(cycles);
  praxis::TimePoint t{};
  constexpr std::size_t k_batch = 1000;
  for (std::size_t done = 0; done < cycles; done += k_batch) {
    for (std::size_t k = 0; k < k_batch; ++k) {
      const auto now = t + static_cast<std::int64_t>(k) * 2ms;
      floor.time([&] {
        floor_robot.read(state, now);
        floor_robot.write(hold, now);
      });
    }
    for (std::size_t k = 0; k < k_batch; ++k) ctrl.time([&] { controller.step(t + static_cast<std::int64_t>(k) * 2ms); });
    for (std::size_t k = 0; k < k_batch; ++k) pipeline.time([&] { motion.step(t + static_cast<std::int64_t>(k) * 2ms); });
    t += static_cast<std::int64_t>(k_batch) * 2ms;
  }
  if (controller.state() != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "%s: the controller did not reach CTRL: the numbers would be meaningless\n", label.c_str());
    return false;
  }
  const auto per_cycle = [&](const Series& s) { return static_cast<double>(s.allocations) / static_cast<double>(cycles); };
  const std::string floor_name = label + " mock read+write (baseline)";
  rows.push_back({floor_name, praxis::bench::summarize(floor.ns), "", per_cycle(floor)});
  rows.push_back({label + " RobotController step", praxis::bench::summarize(ctrl.ns), floor_name, per_cycle(ctrl)});
  rows.push_back({label + " MotionController step (stand)", praxis::bench::summarize(pipeline.ns), floor_name,
                  per_cycle(pipeline)});
  praxis::bench::dump_samples("vendor_cycle", key + "_mock", floor.ns);
  praxis::bench::dump_samples("vendor_cycle", key + "_robot_controller", ctrl.ns);
  praxis::bench::dump_samples("vendor_cycle", key + "_motion_controller", pipeline.ns);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "vendor_cycle.json";
  const std::size_t cycles = praxis::bench::scaled<std::size_t>(60'000, 5'000);
  std::vector<praxis::bench::ReportRow> rows;
  const bool ok = run_robot<praxis::booster::T1>("Booster T1", "booster_t1", cycles, rows) &&
                  run_robot<praxis::aurora::GR1>("Aurora GR-1", "aurora_gr1", cycles, rows) &&
                  run_robot<praxis::tienkung::Pro>("Tienkung Pro", "tienkung_pro", cycles, rows);
  if (!ok) return 1;
  std::vector<praxis::bench::Row> table;
  for (const auto& r : rows) table.push_back({r.name, r.ns});
  praxis::bench::print_table("controller cycle per vendor on MockRobot<model>, ns per step(), " +
                                 std::to_string(cycles) + " cycles each",
                             table);
  for (const auto& r : rows) std::printf("  %-44s allocations per cycle %.3f\n", r.name.c_str(), *r.allocations);
  praxis::bench::write_json(json_path, {{"benchmark", "vendor_cycle"},
                                        {"cycles", cycles},
                                        {"report", praxis::bench::report_json(rows)}});
  return 0;
}
