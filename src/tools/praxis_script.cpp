// praxis-script: checks keyframe script files against a robot model.
//
//   praxis-script check examples/scripts/g1/wave.json --robot g1
//
// Prints every frame (start time, duration, the joints it moves) and the total time, or every
// problem of the file, each with file, frame and target; the exit status is 0 only for a valid file.

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/loader.hpp"

namespace {

template <praxis::RobotModel M>
int check(const std::string& file) {
  const auto script = praxis::script::load_script<M>(file);
  std::printf("%s: %zu frame(s) for %s, %zu joint(s) used\n", file.c_str(), script.frames.size(),
              std::string(M::name).c_str(), script.joints.count());
  double start = 0.0;
  for (std::size_t f = 0; f < script.frames.size(); ++f) {
    const auto& frame = script.frames[f];
    const double d = praxis::to_seconds(frame.duration);
    std::string moved;
    for (std::size_t j = 0; j < M::joint_count; ++j) {
      const double now = frame.position[j];
      const double before = f == 0 ? std::nan("") : script.frames[f - 1].position[j];
      if (std::isnan(now) || (!std::isnan(before) && before == now && f > 0)) continue;
      if (!moved.empty()) moved += ", ";
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s %.3f", std::string(M::joints[j].name).c_str(), now);
      moved += buf;
    }
    std::printf("  frame %zu  t=%6.3f s  duration %6.3f s  %s\n", f, start, d, moved.empty() ? "(holds)" : moved.c_str());
    start += d;
  }
  std::printf("total: %.3f s\n", start);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"praxis-script: keyframe script tools"};
  app.require_subcommand(1);
  auto* cmd = app.add_subcommand("check", "validate a script file and print its frames and total time");
  std::string file, robot;
  cmd->add_option("file", file, "script file (JSON)")->required();
  cmd->add_option("-r,--robot", robot, "robot model")->required()->check(CLI::IsMember({"go2", "g1"}));
  CLI11_PARSE(app, argc, argv);
  try {
    return robot == "g1" ? check<praxis::unitree::G1>(file) : check<praxis::unitree::Go2>(file);
  } catch (const praxis::script::ScriptError& e) {
    if (e.problems().empty()) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return 1;
    }
    for (const auto& problem : e.problems()) {
      std::fprintf(stderr, "error: %s\n", praxis::script::to_string(problem).c_str());
    }
    std::fprintf(stderr, "%s: %zu problem(s)\n", file.c_str(), e.problems().size());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
