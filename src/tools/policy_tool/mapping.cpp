#include "mapping.hpp"

#include <cmath>
#include <sstream>

namespace praxis::policy_tool::detail {

std::string number_text(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

std::string list_text(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + number_text(values[i]);
  return out + "]";
}

void put_rates(Json& deploy, const SourceDoc& doc, const std::string& key, double period, const MapOptions& options) {
  double policy_hz = 1.0 / period;
  // 1 / 0.02 is 50 to the last bit, 1 / (0.002 * 10) need not be: a rate within a millionth of a
  // whole number is that number, so the deploy file reads as the config meant it.
  if (std::abs(policy_hz - std::round(policy_hz)) < 1e-6 * policy_hz) policy_hz = std::round(policy_hz);
  const double ratio = options.loop_hz / policy_hz;
  if (ratio < 1.0 - 1e-9 || std::abs(ratio - std::round(ratio)) > 1e-6 * ratio) {
    doc.fail(key,
             "a policy period whose rate divides praxis' loop rate (" + number_text(options.loop_hz) +
                 " Hz, --loop-hz) a whole number of times",
             number_text(period) + " s (" + number_text(policy_hz) + " Hz)");
  }
  deploy["loop_hz"] = options.loop_hz;
  deploy["policy_hz"] = policy_hz;
}

void check_limits(const SourceDoc& doc, const std::string& key, const RobotTable& robot, std::size_t joint, double q) {
  const auto& spec = robot.joints[joint];
  if (!(q >= spec.lower && q <= spec.upper)) {
    doc.fail(key,
             spec.name + "'s position within its limits [" + number_text(spec.lower) + ", " + number_text(spec.upper) +
                 "] rad (robot " + robot.name + ")",
             number_text(q));
  }
}

std::vector<std::size_t> joints_of_motors(const SourceDoc& doc, const std::string& key,
                                          const std::vector<std::size_t>& motors, const RobotTable& robot,
                                          std::set<std::size_t>& taken, const std::string& taken_by) {
  std::vector<std::size_t> joints;
  for (std::size_t i = 0; i < motors.size(); ++i) {
    const std::string at = key + "/" + std::to_string(i);
    const std::size_t j = robot.joint_of_motor(motors[i]);
    if (j == RobotTable::npos) {
      doc.fail(at, "the motor index of a joint of " + robot.name + " (" + robot.motor_range() + ")",
               std::to_string(motors[i]));
    }
    if (!taken.insert(j).second) {
      doc.fail(at, "each motor once", std::to_string(motors[i]) + " (" + robot.joints[j].name + ") again, also in " + taken_by);
    }
    joints.push_back(j);
  }
  return joints;
}

}  // namespace praxis::policy_tool::detail
