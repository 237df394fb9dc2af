// praxis-reference-loop: the reference deploy loop (reference_loop.hpp, the authors' loop on
// MuJoCo's C API, no praxis code) as a program, for checks that compare a praxis run with it.
//
//   praxis-reference-loop --model g1.xml --deploy deploy.json [--policy F] --command VX,VY,WZ
//                         --duration S [--release-after S | --initial-state handover_state.json]
//                         [--csv trajectory.csv]
//
// The robot starts in the MJCF's first keyframe (else its reference pose), or in the physics state
// a praxis_demo --backend mujoco run wrote at its hand-over (--initial-state: the same plant from
// the same state, the policy taking over at once), and holds the deploy
// file's default and hold poses under the file's PD for --release-after seconds (the authors' loop
// before its first inference; praxis' STAND before A). Then the policy takes over (its first
// inference at the release) and runs for --duration seconds with the velocity command --command,
// limited to the file's command min/max as praxis limits it. Printed on stdout as JSON: the base
// trajectory's summary from the release on: seconds upright (until the base tilts more than 60
// degrees from vertical or drops below half its height at the release), the straight distance and
// the path length in the plane, the heading change (yaw, unwrapped), the start and end points.
// --csv writes t, x, y, z, yaw at every inference. Exit 2 with a message on bad input.

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "reference_loop.hpp"

namespace {

using praxis_reference::BasePose;

std::array<double, 3> parse_command(const std::string& text) {
  std::array<double, 3> c{};
  std::stringstream in(text);
  std::string item;
  std::size_t i = 0;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (i >= 3 || used != item.size() || !std::isfinite(v)) {
      throw std::runtime_error("--command: expected VX,VY,WZ (three numbers), found \"" + text + "\"");
    }
    c[i++] = v;
  }
  if (i != 3) throw std::runtime_error("--command: expected VX,VY,WZ (three numbers), found \"" + text + "\"");
  return c;
}

nlohmann::json point(const BasePose& b) { return {{"x", b.x}, {"y", b.y}, {"z", b.z}, {"yaw", b.yaw}}; }

// The state praxis_demo wrote (examples/sim/sim_robot.hpp's physics_state), on the same model.
void start_from(praxis_reference::ReferenceLoop& loop, const std::filesystem::path& file,
                const std::filesystem::path& model) {
  nlohmann::json j;
  try {
    std::ifstream in(file);
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": not JSON (" + e.what() + ")");
  }
  const auto array = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_array()) {
      throw std::runtime_error(file.string() + ": \"" + key + "\": expected an array of numbers");
    }
    return j[key].get<std::vector<double>>();
  };
  if (j.value("band_on", false)) {
    throw std::runtime_error(file.string() + ": the elastic band still held the robot at the hand-over; this loop "
                             "has no band (release it by then, e.g. praxis_demo --band 0:feet,T:cut)");
  }
  if (j.contains("model") && j["model"].is_string() &&
      std::filesystem::weakly_canonical(j["model"].get<std::string>()) != std::filesystem::weakly_canonical(model)) {
    std::cerr << "praxis-reference-loop: " << file.string() << " is a state of " << j["model"].get<std::string>()
              << ", not of " << model.string() << "\n";
  }
  try {
    loop.set_physics_state(array("qpos"), array("qvel"), array("qacc_warmstart"), array("act"),
                           j.at("time").get<double>());
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

int run(int argc, char** argv) {
  CLI::App app{"The reference deploy loop (the authors' loop on MuJoCo's C API): a policy's base trajectory as JSON"};
  std::filesystem::path model, deploy_file, policy, csv, initial_state;
  std::string command_text = "0,0,0";
  double duration = 10.0, release_after = 0.0;
  app.add_option("--model", model, "the MJCF")->required()->check(CLI::ExistingFile);
  app.add_option("--deploy", deploy_file, "the deploy file (praxis' deploy.json)")->required()->check(CLI::ExistingFile);
  app.add_option("--policy", policy, "the ONNX network instead of the deploy file's")->check(CLI::ExistingFile);
  app.add_option("--command", command_text, "velocity command VX,VY,WZ (m/s, m/s, rad/s)");
  app.add_option("--duration", duration, "seconds of policy control after the release")->check(CLI::Range(0.0, 3600.0));
  auto* release = app.add_option("--release-after", release_after,
                                 "seconds of holding the default pose before the policy takes over")
                      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--initial-state", initial_state,
                 "start from this physics state (praxis_demo --backend mujoco's handover_state.json), the policy "
                 "taking over at once")
      ->check(CLI::ExistingFile)
      ->excludes(release);
  app.add_option("--csv", csv, "write t, x, y, z, yaw at every inference here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  auto command = parse_command(command_text);
  praxis_reference::ReferenceLoop loop(model, praxis_reference::read_deploy(deploy_file), policy);
  for (std::size_t i = 0; i < 3; ++i) {
    command[i] = std::clamp(command[i], loop.deploy().command_min[i], loop.deploy().command_max[i]);
  }
  loop.set_command(command);
  for (const auto& j : loop.unnamed_joints()) {
    std::cerr << "praxis-reference-loop: joint '" << j << "' is in neither joint_names nor hold: left without torque\n";
  }

  if (!initial_state.empty()) start_from(loop, initial_state, model);

  const double dt = loop.timestep();
  const auto hold_steps = static_cast<long>(std::lround(release_after / dt));
  const auto policy_steps = static_cast<long>(std::lround(duration / dt));
  for (long k = 0; k < hold_steps; ++k) loop.hold_step();
  loop.engage();
  const BasePose start = loop.base();
  std::vector<BasePose> track{start};
  double upright = -1.0;
  double heading = 0.0, path = 0.0;
  BasePose last = start;
  std::size_t seen = loop.inferences();
  const auto fallen = [&](const BasePose& b) { return b.up < 0.5 || b.z < 0.5 * start.z; };
  for (long k = 0; k < policy_steps; ++k) {
    loop.policy_step();
    const BasePose b = loop.base();
    if (upright < 0.0 && fallen(b)) upright = b.t;
    if (loop.inferences() != seen || k + 1 == policy_steps) {
      seen = loop.inferences();
      double turn = b.yaw - last.yaw;
      turn = std::remainder(turn, 2.0 * std::numbers::pi);
      heading += turn;
      path += std::hypot(b.x - last.x, b.y - last.y);
      last = b;
      track.push_back(b);
    }
  }
  const BasePose end = loop.base();
  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "t,x,y,z,yaw\n";
    for (const auto& b : track) out << b.t << ',' << b.x << ',' << b.y << ',' << b.z << ',' << b.yaw << '\n';
    if (!out) throw std::runtime_error(csv.string() + ": could not write");
  }
  nlohmann::json j;
  j["model"] = model.string();
  j["deploy"] = deploy_file.string();
  j["policy"] = (policy.empty() ? loop.deploy().policy : policy).string();
  j["command"] = command;
  j["release_after"] = static_cast<double>(hold_steps) * dt;
  j["duration"] = static_cast<double>(policy_steps) * dt;
  j["timestep"] = dt;
  j["decimation"] = loop.decimation();
  j["inferences"] = loop.inferences();
  j["seconds_upright"] = upright < 0.0 ? end.t : upright;
  j["fell"] = upright >= 0.0;
  j["distance"] = std::hypot(end.x - start.x, end.y - start.y);
  j["path_length"] = path;
  j["heading_change"] = heading;
  j["start"] = point(start);
  j["end"] = point(end);
  j["unactuated_joints"] = loop.unnamed_joints();
  j["absent_held_joints"] = loop.absent_held_joints();
  std::cout << j.dump(2) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "praxis-reference-loop: " << e.what() << '\n';
    return 2;
  }
}
