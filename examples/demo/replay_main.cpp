// praxis-replay: a run recorded with praxis_demo --record, replayed through the same configuration
// and checked port by port (docs/observability.md, "Replay").
//
//   praxis-replay logs/<run>/run.mcap                     bit-identical? (exit 0), or where it first
//                                                         diverged (exit 1)
//   praxis-replay run.mcap --param my_params/             the same inputs, changed parameters
//   praxis-replay run.mcap --out other.mcap               where the replayed run is recorded
//                                                         (default: run.replay.mcap beside it)
//
// The robot, the backend, the parameter folder and the runtime parameters come from the recording;
// a changed controller is replayed by building this program with it.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "demo.hpp"

int main(int argc, char** argv) {
  std::string file, param_folder, runtime_params, out, deploy, policy;
  CLI::App app{"praxis-replay: a recorded run's inputs through the same controller again, every port compared"};
  app.add_option("recording", file, "the run's MCAP file (praxis_demo --record)")->required()->check(CLI::ExistingFile);
  app.add_option("-p,--param", param_folder, "the controller's parameter folder (default: the recorded one)");
  app.add_option("--runtime-params", runtime_params, "the runtime's safety settings (default: the recorded ones)")
      ->check(CLI::ExistingFile);
  app.add_option("--deploy", deploy, "a policy run: the deploy file (default: the recorded one)")
      ->check(CLI::ExistingFile);
  app.add_option("--policy", policy, "a policy run: the network (default: the recorded one)")->check(CLI::ExistingFile);
  app.add_option("-o,--out", out, "where the replayed run is recorded (default: <recording>.replay.mcap)");
  CLI11_PARSE(app, argc, argv);
  try {
    const praxis::observe::McapReader recording(file);
    const auto facts = demo::recording_facts(recording);
    const auto fact = [&](const char* key) -> std::string {
      const auto it = facts.find(key);
      if (it == facts.end()) {
        throw std::runtime_error(file + ": the recording says nothing of \"" + key +
                                 "\" (metadata \"praxis\"): was it made by praxis_demo --record?");
      }
      return it->second;
    };
    demo::Settings s;
    s.self = praxis::examples::own_path(argv[0]).string();
    s.replay = file;
    s.replay_out = out;
    s.robot = fact("robot");
    s.backend = fact("backend");
    s.arm_sdk = fact("arms_only") == "1";
    s.status_layout = fact("status_layout");
    s.param_folder = param_folder.empty() ? fact("param_folder") : param_folder;
    // A policy run replays with the recorded deploy file and network (or the ones given now).
    if (facts.count("controller") > 0) s.controller = fact("controller");
    if (s.controller == "policy") {
      if (facts.count("command") > 0) s.command = fact("command");  // --command's timeline, as recorded
      s.deploy = deploy.empty() ? fact("deploy") : deploy;
      s.policy = policy.empty() ? fact("policy") : policy;
      for (const auto& f : {s.deploy, s.policy}) {
        if (!f.empty() && !std::filesystem::exists(f)) {
          throw std::runtime_error("the recorded policy file " + f + " is not here: give it with --deploy / --policy");
        }
      }
    }
    s.runtime_params = app.count("--runtime-params") > 0 ? runtime_params : fact("runtime_params");
    if (!s.runtime_params.empty() && !std::filesystem::exists(s.runtime_params)) {
      throw std::runtime_error("the recorded runtime parameters " + s.runtime_params +
                               " are not here: give them with --runtime-params");
    }
    return demo::run_robot(s);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}
