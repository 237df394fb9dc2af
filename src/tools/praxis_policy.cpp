// praxis-policy: a published policy into a praxis deploy folder, and the check of a deploy file.
//
//   praxis-policy import --from legged_gym --policy motion.pt --config g1.yaml --robot g1 --out walk/
//   praxis-policy import --from isaaclab --policy policy.onnx --config deploy.yaml --robot g1 --out walk/
//   praxis-policy check walk/deploy.json [--robot g1] [--policy other.onnx]
//
// import writes deploy.json and policy.onnx (docs/policy.md, section 1): the mapping is
// policy_tool/{legged_gym,isaaclab}.cpp, YAML and TorchScript go through praxis_policy.py (Debian's
// python3), and the folder appears only once everything, the check included, passed. Both commands
// exit 0 with a summary, 2 with the refusal.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "policy_tool/check.hpp"
#include "policy_tool/mapping.hpp"
#include "policy_tool/python.hpp"
#include "policy_tool/robots.hpp"
#include "policy_tool/staging.hpp"

#ifndef PRAXIS_POLICY_PYTHON
#define PRAXIS_POLICY_PYTHON "/usr/bin/python3"
#endif

namespace {

namespace fs = std::filesystem;
using namespace praxis::policy_tool;

struct ImportArgs {
  std::string from, policy, config, robot, out, python = PRAXIS_POLICY_PYTHON;
  bool force = false;
  double loop_hz = 500.0;
  std::vector<std::string> joints;
};

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

// The deploy file in a reader's order: what it runs, for which robot, its state, then the rest.
Json assemble(const Mapped& m, const std::vector<praxis::policy::RecurrentPair>& recurrent) {
  Json d;
  d["policy"] = "policy.onnx";
  d["robot"] = m.deploy.at("robot");
  if (!recurrent.empty()) {
    Json pairs = Json::array();
    for (const auto& p : recurrent) pairs.push_back(Json{{"input", p.input}, {"output", p.output}});
    d["recurrent"] = pairs;
  }
  for (auto it = m.deploy.begin(); it != m.deploy.end(); ++it) {
    if (it.key() != "robot") d[it.key()] = it.value();
  }
  return d;
}

// rsl_rl's ONNX exporter names the recurrent state h_in/h_out and c_in/c_out.
std::vector<praxis::policy::RecurrentPair> recurrent_by_name(const fs::path& onnx) {
  const auto net = praxis::policy::Network::load(onnx);
  std::vector<praxis::policy::RecurrentPair> pairs;
  for (const char* state : {"h", "c"}) {
    const std::string in = std::string(state) + "_in", out = std::string(state) + "_out";
    bool has_in = false, has_out = false;
    for (const auto& t : net.inputs()) has_in = has_in || t.name == in;
    for (const auto& t : net.outputs()) has_out = has_out || t.name == out;
    if (has_in && has_out) pairs.push_back({in, out});
  }
  return pairs;
}

int run_import(const ImportArgs& a) {
  const RobotTable robot = robot_table(a.robot);
  std::error_code ec;
  if (!fs::is_regular_file(a.policy, ec)) throw UsageError("--policy " + a.policy + ": no such file");
  if (!(a.loop_hz >= 1.0)) throw UsageError("--loop-hz: at least 1 Hz");
  Staging staging(a.out, a.force);
  const PythonHalf python(a.python, PythonHalf::installed_script());
  const SourceDoc config = python.yaml(a.config);
  const MapOptions options{a.loop_hz, a.joints};
  const bool legged_gym = a.from == "legged_gym";
  const Mapped mapped = legged_gym ? map_legged_gym(config, robot, options) : map_isaaclab(config, robot, options);

  const fs::path onnx = staging.dir() / "policy.onnx";
  const fs::path report = staging.dir() / ".report.json";
  std::vector<praxis::policy::RecurrentPair> recurrent;
  Json samples;
  std::string reference, conversion;
  if (legged_gym) {
    const Json r = python.torch_to_onnx(a.policy, mapped.num_obs, mapped.num_actions, onnx, report, mapped.obs_source);
    for (const auto& p : r.at("recurrent")) recurrent.push_back({p.at("input"), p.at("output")});
    samples = r.at("samples");
    reference = "the TorchScript module " + a.policy;
    conversion = "converted from TorchScript (" + r.at("kind").get<std::string>() + "), checked against it over " +
                 std::to_string(r.at("steps").get<int>()) + " steps to " + number_text(r.at("max_difference").get<double>());
  } else {
    fs::copy_file(a.policy, onnx, ec);
    if (ec) throw UsageError("--policy " + a.policy + ": cannot be copied (" + ec.message() + ")");
    recurrent = recurrent_by_name(onnx);
    conversion = "copied as published";
  }

  const fs::path deploy = staging.dir() / "deploy.json";
  {
    std::ofstream out(deploy, std::ios::binary);
    out << assemble(mapped, recurrent).dump(2) << "\n";
    if (!out.flush()) throw UsageError("--out " + a.out + ": cannot write deploy.json");
  }
  std::string summary;
  try {
    summary = check_deploy(deploy, robot.name, std::nullopt);
    if (!legged_gym) {
      const Json r = python.onnx_samples(onnx, report, recurrent);
      samples = r.at("samples");
      reference = "the published ONNX (evaluated by praxis_policy.py from the operator semantics)";
      if (r.contains("not_evaluated")) {
        conversion += "; not compared numerically (" + r.at("not_evaluated").get<std::string>() + ")";
      }
    }
    if (!samples.empty()) {
      const double worst = compare_network(onnx, samples, recurrent, reference);
      conversion += "; praxis' network reproduces " + reference + " over " + std::to_string(samples.size()) +
                    " steps to " + number_text(worst);
    }
  } catch (const praxis::policy::PolicyError& e) {
    throw praxis::policy::PolicyError(staging.as_out(e.what()));
  }
  staging.commit();
  std::printf("wrote %s and %s for %s: policy.onnx %s.\n", (staging.out() / "deploy.json").c_str(),
              (staging.out() / "policy.onnx").c_str(), robot.name.c_str(), conversion.c_str());
  for (const auto& note : mapped.notes) std::printf("%s\n", note.c_str());
  std::printf("%s\n", staging.as_out(summary).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"praxis-policy: a published policy into a praxis deploy folder, and the check of a deploy file"};
  app.require_subcommand(1);

  ImportArgs im;
  auto* import = app.add_subcommand("import", "write deploy.json + policy.onnx from a published policy and its config");
  import->add_option("--from", im.from, "where the policy comes from")->required()->check(CLI::IsMember({"legged_gym", "isaaclab"}));
  import->add_option("--policy", im.policy, "the published network: motion.pt (legged_gym, TorchScript) or policy.onnx (isaaclab)")->required();
  import->add_option("--config", im.config, "its deploy config: deploy_mujoco/deploy_real YAML (legged_gym), params/deploy.yaml (isaaclab)")->required();
  import->add_option("--robot", im.robot, "praxis' robot model: " + robot_choices())->required();
  import->add_option("--out", im.out, "the folder to write (deploy.json, policy.onnx)")->required();
  import->add_flag("--force", im.force, "replace an existing --out");
  import->add_option("--loop-hz", im.loop_hz, "praxis' control loop rate; the policy's rate must divide it")->capture_default_str();
  import->add_option("--joints", im.joints, "deploy_mujoco configs: the policy's joints, in its order, instead of the robot's first num_actions")->delimiter(',');
  import->add_option("--python", im.python, "Debian's python3 with python3-yaml (and python3-torch for legged_gym)")->capture_default_str();

  std::string deploy, robot, policy;
  auto* check = app.add_subcommand("check", "run every load-time check of a deploy file for its robot and summarize it");
  check->add_option("deploy", deploy, "the deploy file (deploy.json)")->required();
  check->add_option("--robot", robot, "praxis' robot model (default: the file's \"robot\"): " + robot_choices());
  check->add_option("--policy", policy, "the ONNX file instead of the deploy file's \"policy\"");

  CLI11_PARSE(app, argc, argv);
  try {
    if (import->parsed()) return run_import(im);
    std::printf("%s\n", check_deploy(deploy, robot, policy.empty() ? std::nullopt : std::optional<fs::path>(policy)).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
