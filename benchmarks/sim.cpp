// Simulated time per wall time (praxis_demo --backend mujoco): how much faster than real time a G1
// runs in MuJoCo with a trained policy in control, on one core.
//
// Every series is praxis-sim's plant (examples/sim/sim_robot.hpp: MujocoPlant<G1> on models/
// g1_29dof.xml, on the elastic band with its feet just touching as the demo holds it, the base
// trajectory at 50 Hz), read every 2 ms control period of simulated time:
//   - the candidate: RobotController<WithGamepad<SimRobot<G1>>, OnnxPolicy<G1>> with the example
//     policy (examples/policy/g1, the network the build generates) in CTRL, as the demo runs it;
//   - the plain physics (its baseline): a second plant fed, period by period, the commands the same
//     controller sent in an untimed run before (a run is deterministic), so it steps exactly the
//     candidate's physics, bit for bit (checked), with no controller;
//   - an A/A control: two plants under one fixed PD hold, timed against each other the same way;
//     its ratio is what equal workloads differ by here.
// Interleaved batches of 250 periods (0.5 s simulated) each, the process pinned to the CPU it
// started on. A row's ns is wall time per 2 ms of simulated time; simulated seconds per wall second
// is 2 ms over it. The candidate's ratio to its baseline is what the controller and the policy add
// to the physics. (A hold of the policy's pose is no baseline for it: the policy's robot stands a
// little differently, and MuJoCo's contacts cost it 3 % less there.)

#include <sched.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/with_gamepad.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/policy/onnx_policy.hpp"
#include "sim/sim_robot.hpp"

namespace {

using namespace std::chrono_literals;
using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;
using Plant = sim::SimRobot<Model>;
using Robot = praxis::control::WithGamepad<Plant>;
constexpr praxis::Duration k_period = 2ms;
constexpr std::size_t k_per_batch = 250;

sim::SimOptions plant_options() {
  sim::SimOptions o;
  o.model = std::filesystem::path(PRAXIS_MODELS_DIR) / "g1_29dof.xml";
  o.band = sim::default_band("g1");  // feet just touching, as the demo holds it
  o.program = "bench_sim";
  return o;
}

// The CPU this process is on, and only it.
int pin_to_one_core() {
  const int cpu = sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "sim.json";
  const int cpu = pin_to_one_core();
  const auto policy_dir = std::filesystem::path(PRAXIS_EXAMPLE_POLICY_DIR) / "g1";
  const std::size_t batches = praxis::bench::scaled<std::size_t>(40, 4);  // 20 s (2 s) simulated each
  const std::size_t k_warm = 1250;  // 2.5 s before timing: standing, then in CTRL, the policy blended in
  const std::size_t periods = k_warm + (batches + 1) * k_per_batch;  // interleaved() warms up with a batch

  // The demo's configuration, stood up (R2) and handed to the policy (A).
  struct Story {
    Plant plant{plant_options(), praxis::TimePoint{}};
    Robot robot{plant};
    praxis::control::RobotController<Robot, praxis::policy::OnnxPolicy<Model>> controller;
    praxis::TimePoint t{};
    explicit Story(const std::filesystem::path& policy) : controller(robot, quiet()) {
      plant.press(praxis::GamepadButton::R2, praxis::TimePoint{} + 20ms);
      plant.release(praxis::GamepadButton::R2, praxis::TimePoint{} + 1s);
      plant.press(praxis::GamepadButton::A, praxis::TimePoint{} + 1200ms);
      plant.release(praxis::GamepadButton::A, praxis::TimePoint{} + 1300ms);
      controller.load_params(policy);
    }
    void step() {
      t += k_period;
      robot.set_gamepad(plant.gamepad());
      controller.step(t);
    }
    static praxis::control::ControllerOptions quiet() {
      praxis::control::ControllerOptions o;
      o.print = false;
      return o;
    }
  };

  // The commands the controller sends, from an untimed run of the same story.
  std::vector<praxis::JointCommand<N>> commands;
  commands.reserve(periods);
  {
    Story rehearsal(policy_dir);
    if (rehearsal.controller.period() != k_period) {
      std::fprintf(stderr, "the example policy's loop runs at %.1f ms, not 2 ms: the rows would not compare\n",
                   praxis::to_seconds(rehearsal.controller.period()) * 1e3);
      return 1;
    }
    for (std::size_t k = 0; k < periods; ++k) {
      rehearsal.step();
      commands.push_back(rehearsal.controller.command());
    }
  }

  Story story(policy_dir);
  const auto run_policy = [&](std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) story.step();
  };
  // The physics alone, in the runtime's order: read (step to now), then the cycle's command.
  Plant physics(plant_options(), praxis::TimePoint{});
  praxis::RobotState<N> state;
  praxis::TimePoint t_physics{};
  std::size_t next = 0;
  const auto run_physics = [&](std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      t_physics += k_period;
      physics.read(state, t_physics);
      physics.write(commands[next++], t_physics);
      praxis::bench::keep(state.q[0]);
    }
  };

  // The A/A pair: two plants under one hold of the stand pose.
  praxis::JointCommand<N> hold;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    hold.q[i] = Model::stand_pose[j];
    hold.kp[i] = Model::default_kp[j];
    hold.kd[i] = Model::default_kd[j];
  }
  Plant hold_a(plant_options(), praxis::TimePoint{}), hold_b(plant_options(), praxis::TimePoint{});
  praxis::TimePoint t_a{}, t_b{};
  const auto holding = [&](Plant& p, praxis::TimePoint& t) {
    return [&](std::size_t n) {
      for (std::size_t k = 0; k < n; ++k) {
        t += k_period;
        p.write(hold, t);
        p.read(state, t);
        praxis::bench::keep(state.q[0]);
      }
    };
  };

  run_policy(k_warm);
  run_physics(k_warm);
  holding(hold_a, t_a)(k_warm);
  holding(hold_b, t_b)(k_warm);
  if (story.controller.state() != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "the policy did not reach CTRL: the comparison would be meaningless\n");
    return 1;
  }
  const auto [policy_ns, physics_ns] = praxis::bench::interleaved(run_policy, run_physics, batches, k_per_batch);
  const auto [b_ns, a_ns] = praxis::bench::interleaved(holding(hold_b, t_b), holding(hold_a, t_a), batches, k_per_batch);
  (void)story.controller.finish();
  const auto base_policy = story.plant.plant().base();
  const auto base_physics = physics.plant().base();
  const bool same = next == periods && base_policy.position == base_physics.position &&
                    base_policy.orientation.coeffs() == base_physics.orientation.coeffs();
  if (!same) {
    std::fprintf(stderr, "the replayed physics is not the controller's (base %.6f m against %.6f m): the baseline "
                 "would not be the same physics\n", base_physics.position.z(), base_policy.position.z());
    return 1;
  }
  if (story.plant.plant().diverged() || hold_a.plant().diverged() || hold_b.plant().diverged()) {
    std::fprintf(stderr, "MuJoCo diverged: the timings are of a broken simulation\n");
    return 1;
  }

  const auto base = praxis::bench::summarize(physics_ns);
  const auto cand = praxis::bench::summarize(policy_ns);
  const auto aa_a = praxis::bench::summarize(a_ns);
  const auto aa_b = praxis::bench::summarize(b_ns);
  const double period_ns = std::chrono::duration<double, std::nano>(k_period).count();
  const auto factor = [&](double ns) { return period_ns / ns; };
  const std::string title = "MuJoCo G1 (29 joints, on the band), wall ns per 2 ms simulated (RobotController + "
                            "OnnxPolicy, the example g1 policy), batches of 250 periods, " +
                            std::string(cpu >= 0 ? "pinned to CPU " + std::to_string(cpu) : "not pinned");
  const std::string base_name = "physics, same commands (baseline)";
  const std::string cand_name = "physics + controller + policy";
  const std::string a_name = "physics, PD hold (A/A baseline)";
  const std::string b_name = "physics, PD hold, 2nd plant (A/A)";
  praxis::bench::print_table(title, {{base_name, base}, {cand_name, cand}, {a_name, aa_a}, {b_name, aa_b}});
  std::printf("\n  simulated seconds per wall second (p50): the physics alone %.2f, with the controller and the policy "
              "%.2f; ratio %.3f (the controller and the policy add %.1f%% to the physics); A/A control: ratio %.3f\n",
              factor(base.p50), factor(cand.p50), cand.p50 / base.p50, 100.0 * (cand.p50 / base.p50 - 1.0),
              aa_b.p50 / aa_a.p50);
  std::printf("  %zu inferences; the baseline stepped the candidate's physics bit for bit (base at %.3f m)\n",
              story.controller.user().inferences(), base_policy.position.z());

  nlohmann::json j;
  j["benchmark"] = "sim";
  j["report"] = praxis::bench::report_json({{base_name, base, "", std::nullopt},
                                            {cand_name, cand, base_name, std::nullopt},
                                            {a_name, aa_a, "", std::nullopt},
                                            {b_name, aa_b, a_name, std::nullopt}});
  j["cpu"] = cpu;
  j["simulated_per_wall_p50"] = {{"physics", factor(base.p50)}, {"policy", factor(cand.p50)}};
  j["ratio_p50"] = cand.p50 / base.p50;
  j["aa_ratio_p50"] = aa_b.p50 / aa_a.p50;
  j["inferences"] = story.controller.user().inferences();
  praxis::bench::write_json(json_path, j);
  return 0;
}
