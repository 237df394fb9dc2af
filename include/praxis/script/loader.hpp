#pragma once
// Loading and validating script files against a robot model. Everything is checked before the
// loop, and every problem of a file is reported, each naming the file, the frame, the target and
// what was expected:
//   scripts/g1/wave.json: frame 2, target 1: unknown joint "left_elbow_roll" (g1 joints: ...)

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/robot_model.hpp"
#include "praxis/script/script.hpp"

namespace praxis::script {

// One problem found in a script: where it is and what was expected there.
struct ScriptProblem {
  std::string origin;                // the file, or the origin given for text
  std::optional<std::size_t> frame;  // empty: the file as a whole
  std::optional<std::size_t> target;
  std::string message;               // what was found and what was expected
};

// "scripts/g1/wave.json: frame 2, target 1: unknown joint ..."
std::string to_string(const ScriptProblem& problem);

// Thrown by the loaders; carries every problem of the file (what() lists them one per line).
class ScriptError : public std::runtime_error {
 public:
  explicit ScriptError(const std::string& what) : std::runtime_error(what) {}
  explicit ScriptError(std::vector<ScriptProblem> problems);
  [[nodiscard]] const std::vector<ScriptProblem>& problems() const noexcept { return problems_; }

 private:
  std::vector<ScriptProblem> problems_;
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
// The frames of a script file and every problem found in it; the frames are only usable when there
// are no problems.
struct ParsedScript {
  std::vector<RawFrame> frames;
  std::vector<ScriptProblem> problems;
};

// Parses and validates the JSON structure, joint names and joint limits against `joints`. Reports
// every problem instead of stopping at the first. Implemented in src/script/loader.cpp (the only
// place that sees nlohmann_json).
ParsedScript parse_script_file(const std::filesystem::path& file, std::span<const JointSpec> joints,
                               std::string_view model_name);
ParsedScript parse_script_text(std::string_view text, const std::string& origin,
                               std::span<const JointSpec> joints, std::string_view model_name);

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

}  // namespace detail

// Every problem in one script file for robot model M (empty when the file is valid).
template <RobotModel M>
std::vector<ScriptProblem> check_script(const std::filesystem::path& file) {
  return detail::parse_script_file(file, M::joints, M::name).problems;
}

// Loads one script file for robot model M. The script's name is the file name without extension.
// Throws ScriptError with every problem of the file.
template <RobotModel M>
Script<M::joint_count> load_script(const std::filesystem::path& file, const GainMapping& gains = {}) {
  auto parsed = detail::parse_script_file(file, M::joints, M::name);
  if (!parsed.problems.empty()) throw ScriptError(std::move(parsed.problems));
  return detail::build<M::joint_count>(file.stem().string(), parsed.frames, gains);
}

// The same from text (for tests and for scripts built in code); `name` names it in errors.
template <RobotModel M>
Script<M::joint_count> parse_script(std::string_view text, std::string name, const GainMapping& gains = {}) {
  auto parsed = detail::parse_script_text(text, name, M::joints, M::name);
  if (!parsed.problems.empty()) throw ScriptError(std::move(parsed.problems));
  return detail::build<M::joint_count>(std::move(name), parsed.frames, gains);
}

}  // namespace praxis::script
