#pragma once
// The elastic band that holds a humanoid up in Unitree's simulator (unitree_mujoco's ElasticBand;
// docs/backends/unitree.md, "Wire facts and their sources"): a spring-damper from the anchor
// (0, 0, 3) m to the free joint's position, k 200 N/m, c 100 N s/m, rest length L, pulling
// torso_link (else the free joint's body) at its centre of mass. Lengthening L lowers the robot;
// switched off, the force is zeroed (MuJoCo 2.2.2 keeps xfrc_applied until someone clears it).
//
// praxis-sim's --band script changes L or releases the band at simulated times: "0:feet,3:0.6,6:off".
// "feet" is the length at which the band carries the whole robot with its base at its start height,
// so the feet just touch the floor (the model's own mass: Unitree's 0.5 m is that length for its 35 kg
// G1, not for every model). "off" lets the robot down onto its feet before letting go: the band is
// paid out at k_release_speed until it no longer pulls, then switched off, so a robot hanging above
// the floor is lowered and one standing takes its weight gradually instead of all at once. The
// gamepad's d-pad moves it by hand (sim_robot.hpp); its "left" switches it off at once, as Unitree's
// key does.

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
  static constexpr double k_release_speed = 0.5;  // m/s the band is paid out at when released

  struct Change {
    praxis::Duration at{};  // simulated time from the start
    bool on = true;
    bool feet = false;  // the length that holds the robot with its feet just touching
    bool cut = false;   // off at once, without lowering first
    double length = 0.0;
  };

  // "T:L" sets the rest length L (m) at T (s), "T:feet" the length that holds the robot at its start
  // height, "T:off" releases the band (lowering first), "T:cut" lets go at once (as the d-pad's left:
  // a run that hands a robot standing on its feet to a policy at T starts with no band from there on,
  // as its authors' loop does); items in time order.
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
        c.on = what != "off" && what != "cut";
        c.feet = what == "feet";
        c.cut = what == "cut";
        if (c.on && !c.feet) {
          c.length = std::stod(what, &used);
          if (used != what.size() || !(c.length >= 0.0 && c.length < k_anchor_height)) {
            throw std::invalid_argument("length");
          }
        }
      } catch (const std::exception&) {
        throw std::invalid_argument("--band: \"" + item + "\" is not TIME:LENGTH, TIME:feet, TIME:off or TIME:cut (s, m from 0 to 3)");
      }
      if (!changes.empty() && c.at < changes.back().at) {
        throw std::invalid_argument("--band: \"" + item + "\" comes before the item it follows");
      }
      changes.push_back(c);
    }
    return changes;
  }

  // Pulls torso_link, else the free joint's body, of `model`; `data` holds the start state, whose
  // base height and the model's mass give the "feet" length.
  ElasticBand(const mjModel* model, const mjData* data, std::vector<Change> changes) : changes_(std::move(changes)) {
    int free = -1;
    for (int j = 0; j < model->njnt && free < 0; ++j) {
      if (model->jnt_type[j] == mjJNT_FREE) free = j;
    }
    if (free < 0) throw std::invalid_argument("the elastic band needs a model whose base floats on a free joint");
    qpos_ = model->jnt_qposadr[free];
    dof_ = model->jnt_dofadr[free];
    body_ = mj_name2id(model, mjOBJ_BODY, "torso_link");
    if (body_ < 0) body_ = model->jnt_bodyid[free];
    const double weight = mj_getTotalmass(model) * std::sqrt(mju_dot3(model->opt.gravity, model->opt.gravity));
    feet_length_ = std::max(0.0, distance(data) - weight / k_stiffness);
  }

  // Before each physics step at simulated time `t` from the start.
  void apply(const mjModel* model, mjData* data, praxis::Duration t) {
    while (next_ < changes_.size() && changes_[next_].at <= t) {
      const Change& c = changes_[next_];
      if (c.cut) {
        on_ = releasing_ = false;
      } else if (!c.on) {
        releasing_ = on_;  // a band already off stays off
      } else {
        on_ = true;
        releasing_ = false;
        length_ = c.feet ? feet_length_ : c.length;
      }
      ++next_;
    }
    double* f = data->xfrc_applied + 6 * body_;
    std::fill(f, f + 6, 0.0);
    force_ = 0.0;
    if (!on_) return;
    // Position and velocity of the free joint, as Unitree's simulator takes them.
    const double* p = data->qpos + qpos_;
    const double d[3] = {-p[0], -p[1], k_anchor_height - p[2]};
    const double dist = distance(data);
    if (!(dist > 1e-9)) return;
    double v = 0.0;
    for (int i = 0; i < 3; ++i) v += data->qvel[dof_ + i] * d[i] / dist;
    const double magnitude = k_stiffness * (dist - length_) - k_damping * v;
    if (releasing_) {
      // Let out until the band no longer pulls: the feet carry the robot, and it is let go.
      if (magnitude <= 0.0 || length_ > k_anchor_height + 1.0) {
        on_ = releasing_ = false;
        return;
      }
      length_ += k_release_speed * model->opt.timestep;
    }
    for (int i = 0; i < 3; ++i) f[i] = magnitude * d[i] / dist;
    force_ = magnitude;
  }

  // By hand, as the keys of Unitree's simulator (7/up, 8/down, 9): shorter raises the robot.
  void lengthen(double by) { length_ = std::clamp(length_ + by, 0.0, k_anchor_height - 0.1); }
  void toggle() {
    on_ = !on_;
    releasing_ = false;
  }

  [[nodiscard]] bool on() const { return on_; }
  [[nodiscard]] bool releasing() const { return releasing_; }
  [[nodiscard]] double feet_length() const { return feet_length_; }
  [[nodiscard]] double length() const { return length_; }
  [[nodiscard]] double force() const { return on_ ? force_ : 0.0; }  // N, along the band

 private:
  [[nodiscard]] double distance(const mjData* data) const {
    const double* p = data->qpos + qpos_;
    return std::sqrt(p[0] * p[0] + p[1] * p[1] + (k_anchor_height - p[2]) * (k_anchor_height - p[2]));
  }

  std::vector<Change> changes_;
  std::size_t next_ = 0;
  int body_ = 1;
  int qpos_ = 0;  // the free joint's addresses
  int dof_ = 0;
  double feet_length_ = 0.0;
  bool on_ = false;
  bool releasing_ = false;
  double length_ = 0.0;
  double force_ = 0.0;
};

}  // namespace sim
