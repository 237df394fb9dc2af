#pragma once
// The elastic band that holds a humanoid up in Unitree's simulator (unitree_mujoco's ElasticBand;
// docs/backends/unitree.md, "Wire facts and their sources"): a spring-damper from the anchor
// (0, 0, 3) m to the free joint's position, k 200 N/m, c 100 N s/m, rest length L, pulling
// torso_link (else the base) at its centre of mass. Lengthening L lowers the robot; switched off,
// the force is zeroed (MuJoCo 2.2.2 keeps xfrc_applied until someone clears it).
//
// praxis-sim's --band script changes L or releases the band at simulated times: "0:0.5,3:0.6,6:off";
// the gamepad's d-pad moves it by hand (sim_robot.hpp).

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <praxis/core/clock.hpp>

namespace sim {

class ElasticBand {
 public:
  static constexpr double k_stiffness = 200.0;  // N/m
  static constexpr double k_damping = 100.0;    // N s/m
  static constexpr double k_anchor_height = 3.0;

  struct Change {
    praxis::Duration at{};  // simulated time from the start
    bool on = true;
    double length = 0.0;
  };

  // "T:L" sets the rest length L (m) at T (s), "T:off" releases the band; items in time order.
  static std::vector<Change> parse(const std::string& script) {
    std::vector<Change> changes;
    std::stringstream all(script);
    std::string item;
    while (std::getline(all, item, ',')) {
      const auto colon = item.find(':');
      Change c;
      try {
        if (colon == std::string::npos) throw std::invalid_argument("no colon");
        std::size_t used = 0;
        const double t = std::stod(item.substr(0, colon), &used);
        if (used != colon || !(t >= 0.0 && t < 1e6)) throw std::invalid_argument("time");
        c.at = praxis::from_seconds(t);
        const std::string what = item.substr(colon + 1);
        c.on = what != "off";
        if (c.on) {
          c.length = std::stod(what, &used);
          if (used != what.size() || !(c.length >= 0.0 && c.length < k_anchor_height)) {
            throw std::invalid_argument("length");
          }
        }
      } catch (const std::exception&) {
        throw std::invalid_argument("--band: \"" + item + "\" is not TIME:LENGTH or TIME:off (s, m from 0 to 3)");
      }
      if (!changes.empty() && c.at < changes.back().at) {
        throw std::invalid_argument("--band: \"" + item + "\" comes before the item it follows");
      }
      changes.push_back(c);
    }
    return changes;
  }

  // Pulls `body` (torso_link, else the free joint's body) of `model`.
  ElasticBand(const mjModel* model, std::vector<Change> changes) : changes_(std::move(changes)) {
    body_ = mj_name2id(model, mjOBJ_BODY, "torso_link");
    if (body_ < 0) body_ = 1;  // the first body after the world: the floating base
  }

  // Before each physics step at simulated time `t` from the start.
  void apply(const mjModel* /*model*/, mjData* data, praxis::Duration t) {
    while (next_ < changes_.size() && changes_[next_].at <= t) {
      on_ = changes_[next_].on;
      if (on_) length_ = changes_[next_].length;
      ++next_;
    }
    double* f = data->xfrc_applied + 6 * body_;
    std::fill(f, f + 6, 0.0);
    if (!on_) return;
    // Position and velocity of the free joint, as Unitree's simulator takes them.
    const double d[3] = {-data->qpos[0], -data->qpos[1], k_anchor_height - data->qpos[2]};
    const double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(dist > 1e-9)) return;
    double v = 0.0;
    for (int i = 0; i < 3; ++i) v += data->qvel[i] * d[i] / dist;
    const double magnitude = k_stiffness * (dist - length_) - k_damping * v;
    for (int i = 0; i < 3; ++i) f[i] = magnitude * d[i] / dist;
    force_ = magnitude;
  }

  // By hand, as the keys of Unitree's simulator (7/up, 8/down, 9): shorter raises the robot.
  void lengthen(double by) { length_ = std::clamp(length_ + by, 0.0, k_anchor_height - 0.1); }
  void toggle() { on_ = !on_; }

  [[nodiscard]] bool on() const { return on_; }
  [[nodiscard]] double length() const { return length_; }
  [[nodiscard]] double force() const { return on_ ? force_ : 0.0; }  // N, along the band

 private:
  std::vector<Change> changes_;
  std::size_t next_ = 0;
  int body_ = 1;
  bool on_ = false;
  double length_ = 0.0;
  double force_ = 0.0;
};

}  // namespace sim
