#pragma once
// Loading and validating script files against a robot model. Everything is checked before the
// loop; an error names the file, the frame, the target and what was expected:
//   scripts/g1/wave.json: frame 2, target 1: unknown joint "left_elbow_roll" (g1 joints: ...)

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/robot_model.hpp"
#include "praxis/script/script.hpp"

namespace praxis::script {

class ScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One target as written in the file, with its joint resolved to an index.
struct RawTarget {
  std::size_t joint = 0;
  double position = 0, gain = 0, torque = 100;
};
struct RawFrame {
  double duration_ms = 0;
  std::vector<RawTarget> targets;
};

namespace detail {
// Parses and validates the JSON structure; joint names are resolved with `joint_names`.
// Implemented in src/script/loader.cpp (the only place that sees nlohmann_json).
std::vector<RawFrame> parse_script_file(const std::filesystem::path& file,
                                        const std::vector<std::string_view>& joint_names,
                                        std::string_view model_name);
std::vector<RawFrame> parse_script_text(std::string_view text, const std::string& origin,
                                        const std::vector<std::string_view>& joint_names,
                                        std::string_view model_name);

template <std::size_t N>
Script<N> build(std::string name, const std::vector<RawFrame>& raw, const GainMapping& gains) {
  Script<N> s;
  s.name = std::move(name);
  s.frames.resize(raw.size());
  std::array<double, N> position, kp, kd;
  position.fill(k_unset);
  kp.fill(k_unset);
  kd.fill(k_unset);
  for (std::size_t f = 0; f < raw.size(); ++f) {
    for (const auto& t : raw[f].targets) {
      position[t.joint] = t.position;
      kp[t.joint] = t.gain * gains.kp_per_gain * t.torque / 100.0;
      kd[t.joint] = kp[t.joint] * gains.kd_per_kp;
      s.joints.set(t.joint);
    }
    auto& frame = s.frames[f];
    frame.duration = std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(raw[f].duration_ms));
    frame.position = position;
    frame.kp = kp;
    frame.kd = kd;
  }
  // Back-fill gains of leading frames from each joint's first target.
  for (std::size_t j = 0; j < N; ++j) {
    if (!s.joints.test(j)) continue;
    std::size_t first = 0;
    while (std::isnan(s.frames[first].kp[j])) ++first;
    for (std::size_t f = 0; f < first; ++f) {
      s.frames[f].kp[j] = s.frames[first].kp[j];
      s.frames[f].kd[j] = s.frames[first].kd[j];
    }
  }
  return s;
}

template <RobotModel M>
std::vector<std::string_view> joint_names() {
  std::vector<std::string_view> names;
  for (const auto& j : M::joints) names.push_back(j.name);
  return names;
}
}  // namespace detail

// Loads one script file for robot model M. The script's name is the file name without extension.
template <RobotModel M>
Script<M::joint_count> load_script(const std::filesystem::path& file, const GainMapping& gains = {}) {
  const auto raw = detail::parse_script_file(file, detail::joint_names<M>(), M::name);
  auto s = detail::build<M::joint_count>(file.stem().string(), raw, gains);
  for (std::size_t f = 0; f < s.frames.size(); ++f) {
    for (std::size_t j = 0; j < M::joint_count; ++j) {
      const double p = s.frames[f].position[j];
      if (!std::isnan(p) && (p < M::joints[j].lower || p > M::joints[j].upper)) {
        throw ScriptError(file.string() + ": frame " + std::to_string(f) + ": joint \"" +
                          std::string(M::joints[j].name) + "\" position " + std::to_string(p) +
                          " is outside its limits [" + std::to_string(M::joints[j].lower) + ", " +
                          std::to_string(M::joints[j].upper) + "]");
      }
    }
  }
  return s;
}

// The same from text (for tests and for scripts built in code); `origin` names it in errors.
template <RobotModel M>
Script<M::joint_count> parse_script(std::string_view text, std::string name, const GainMapping& gains = {}) {
  const auto raw = detail::parse_script_text(text, name, detail::joint_names<M>(), M::name);
  return detail::build<M::joint_count>(std::move(name), raw, gains);
}

}  // namespace praxis::script
