// praxis_demo's and praxis-replay's robots: which vendor runs which model, on which backends, and
// the checks of a combination before anything starts.

#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"

namespace demo {
namespace {

struct Vendor {
  const char* name;
  std::vector<std::string> models;
  int (*run)(const demo::Settings&);
  std::vector<std::string> backends;
};

const std::vector<Vendor>& vendors() {
  static const std::vector<Vendor> all{
      {"Unitree", {"go2", "g1", "g1_23", "h1_2"}, &demo::run_unitree, {"mock", "fake-robot", "sim", "dds", "mujoco"}},
      {"Booster", {"t1", "k1"}, &demo::run_booster, {"mock", "fake-robot", "dds"}},
      {"Fourier", {"gr1", "gr2", "gr3", "n1"}, &demo::run_aurora, {"mock", "fake-robot", "dds"}},
      {"Tienkung", {"pro", "lite"}, &demo::run_tienkung, {"mock", "fake-robot", "dds"}},
  };
  return all;
}

}  // namespace

#ifndef PRAXIS_DEMO_WITH_MUJOCO
int run_mujoco(const Settings& /*s*/) {
  throw std::runtime_error("--backend mujoco: this build has no MuJoCo (install libmujoco-dev and configure again)");
}
#endif

std::string model_choices() {
  std::string out;
  for (const auto& v : vendors()) {
    if (!out.empty()) out += "; ";
    out += v.name;
    out += ":";
    for (const auto& m : v.models) out += " " + m;
  }
  return out;
}

std::vector<std::string> all_models() {
  std::vector<std::string> out;
  for (const auto& v : vendors()) out.insert(out.end(), v.models.begin(), v.models.end());
  return out;
}


int run_robot(const Settings& s) {
  if (s.robot.empty()) {
    throw std::invalid_argument("--robot is required: which robot is this? One of " + model_choices());
  }
  for (const auto& v : vendors()) {
    for (const auto& m : v.models) {
      if (m != s.robot) continue;
      bool offered = false;
      for (const auto& b : v.backends) offered = offered || b == s.backend;
      if (!offered) {
        std::string list;
        for (const auto& b : v.backends) list += (list.empty() ? "" : ", ") + b;
        throw std::invalid_argument("--backend " + s.backend + ": not for " + std::string(v.name) + " robots (" +
                                    list + ")");
      }
      if (s.backend == "mock" && (!s.backend_params.empty() || !s.settings.empty())) {
        throw std::invalid_argument("--backend-params / --set: they set a DDS backend's options; the mock robot has "
                                    "none (use --backend fake-robot or dds)");
      }
      if (s.backend != "mujoco" && (!s.model.empty() || s.band)) {
        throw std::invalid_argument("--model / --band: they set up the simulation of --backend mujoco, not of --backend " +
                                    s.backend);
      }
      if (s.backend == "mujoco") return run_mujoco(s);
      if (s.backend == "mock" && s.arm_sdk) {
        throw std::invalid_argument("--arms-only: the robot's own controller keeps the legs, which a mock robot has "
                                    "not; use --backend fake-robot or dds");
      }
      return v.run(s);
    }
  }
  throw std::invalid_argument("unknown robot \"" + s.robot + "\": one of " + model_choices());
}

}  // namespace demo
