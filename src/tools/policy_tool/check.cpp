#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/policy/onnx_policy.hpp"
#include "robots.hpp"

namespace praxis::policy_tool {

namespace {

std::string names_of(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string shape_text(const policy::TensorInfo& t) {
  std::string out = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(t.shape[i]);
  return out + "]";
}

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string triple(const std::array<double, 3>& v) {
  return "[" + number_text(v[0]) + ", " + number_text(v[1]) + ", " + number_text(v[2]) + "]";
}

template <RobotModel M>
std::string check_for(const std::filesystem::path& deploy, const std::string& robot,
                      const std::optional<std::filesystem::path>& policy_file) {
  policy::OnnxPolicy<M> policy;
  policy.load(deploy, policy_file);
  const auto& c = *policy.config();
  const auto net = policy::Network::load(policy_file ? *policy_file : c.policy);

  std::vector<bool> driven(M::joint_count, false);
  for (const auto w : policy.wire_indices()) driven[w] = true;
  std::vector<std::string> drives, holds;
  for (const auto& name : c.joint_names) drives.push_back(name);
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    if (!driven[j]) holds.push_back(std::string(M::joints[j].name));
  }
  const std::size_t by_file = c.hold.joint_names.size();

  std::string s = deploy.string() + ": passes every load-time check for " + robot + ". ";
  s += "The policy drives " + std::to_string(drives.size()) + " joints (" + names_of(drives) + ")";
  if (holds.empty()) {
    s += " and holds none. ";
  } else {
    s += " and holds " + std::to_string(holds.size()) + " (" + names_of(holds) + ")";
    if (by_file == holds.size()) {
      s += " at the file's hold pose and gains. ";
    } else if (by_file == 0) {
      s += " at the robot's stand pose with its default gains (the file holds nothing). ";
    } else {
      s += ", " + std::to_string(by_file) + " of them at the file's hold pose and gains, the others at the robot's stand "
           "pose with its default gains. ";
    }
  }
  s += "Rates: loop " + number_text(c.loop_hz) + " Hz, policy " + number_text(c.policy_hz) + " Hz (an inference every " +
       std::to_string(c.decimation) + (c.decimation == 1 ? " cycle). " : " cycles). ");
  s += "Observation: " + std::to_string(c.observation_size()) + " values (" + policy::describe_observation(c) + "). ";
  s += "Network " + (policy_file ? *policy_file : c.policy).string() + ": " + net.summary() + "; ";
  if (c.recurrent.empty()) {
    s += "no recurrent state. ";
  } else {
    s += "recurrent state";
    for (const auto& pair : c.recurrent) {
      s += " " + pair.output + " -> " + pair.input + " " + shape_text(net.inputs()[net.input_index(pair.input)]);
    }
    s += ", zeroed when the policy takes over. ";
  }
  const bool velocity = std::any_of(c.terms.begin(), c.terms.end(),
                                    [](const policy::ObsTermConfig& t) { return t.term == policy::ObsTerm::velocity_command; });
  const std::string range = "[" + triple(c.command_min) + ", " + triple(c.command_max) + "]";
  if (!velocity) {
    s += "No velocity command.";
  } else if (c.command_source == policy::CommandSource::behaviour) {
    s += "Command: from the behaviour, within " + range + ".";
  } else if (c.sticks == policy::StickMapping::scaled) {
    s += "Command: the gamepad's sticks (vx from ly, vy from -lx, wz from -rx) times max " + triple(c.command_max) + ".";
  } else {
    s += "Command: the gamepad's sticks (vx from ly, vy from -lx, wz from -rx) clamped to min " + triple(c.command_min) +
         ", max " + triple(c.command_max) + ".";
  }
  return s;
}

}  // namespace

double compare_network(const std::filesystem::path& onnx, const nlohmann::ordered_json& samples,
                       const std::vector<policy::RecurrentPair>& carry, const std::string& reference, double tolerance) {
  auto net = policy::Network::load(onnx);
  for (const auto& pair : carry) net.carry(net.output_index(pair.output), net.input_index(pair.input));
  net.reset_state();
  double worst = 0.0;
  for (std::size_t step = 0; step < samples.size(); ++step) {
    const auto& sample = samples[step];
    for (const auto& [name, values] : sample.at("inputs").items()) {
      auto in = net.input(net.input_index(name));
      if (values.size() != in.size()) {
        throw policy::PolicyError(onnx.string() + ": input '" + name + "' takes " + std::to_string(in.size()) +
                                  " values, " + reference + " gave " + std::to_string(values.size()));
      }
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = values[i].get<float>();
    }
    net.run();
    for (const auto& [name, values] : sample.at("outputs").items()) {
      const auto out = net.output(net.output_index(name));
      double scale = 1.0, diff = 0.0;
      for (const auto& v : values) scale = std::max(scale, std::abs(v.get<double>()));
      if (values.size() != out.size()) diff = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < out.size() && i < values.size(); ++i) {
        const double d = std::abs(static_cast<double>(out[i]) - values[i].get<double>());
        diff = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(diff, d);
      }
      worst = std::max(worst, diff / scale);
      if (!(diff / scale <= tolerance)) {
        throw policy::PolicyError(onnx.string() + ": praxis' network disagrees with " + reference + " at step " +
                                  std::to_string(step + 1) + " of " + std::to_string(samples.size()) + " (output '" +
                                  name + "'): largest difference " + number_text(diff / scale) +
                                  " of the output's scale (allowed " + number_text(tolerance) + ")");
      }
    }
  }
  return worst;
}

std::string check_deploy(const std::filesystem::path& deploy, const std::string& robot_option,
                         const std::optional<std::filesystem::path>& policy) {
  std::string robot = robot_option;
  if (robot.empty()) {
    robot = policy::load_deploy(deploy).robot;
    if (robot.empty()) {
      throw UsageError(deploy.string() + ": has no \"robot\" key naming the robot it was written for; give --robot (" +
                       robot_choices() + ")");
    }
    if (std::find(k_robot_names.begin(), k_robot_names.end(), robot) == k_robot_names.end()) {
      throw policy::PolicyError(deploy.string() + ": key \"/robot\": expected one of praxis_demo's model names (" +
                                robot_choices() + "), found \"" + robot + "\"");
    }
  }
  return with_model(robot, [&]<RobotModel M>() { return check_for<M>(deploy, robot, policy); });
}

}  // namespace praxis::policy_tool
