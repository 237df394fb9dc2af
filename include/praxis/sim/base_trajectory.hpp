#pragma once
// BaseTrajectory: where a simulated robot's floating base went — x, y, z and yaw over simulated
// time at a fixed sampling period — and its summary: how long the base stayed upright, how far it
// went, where it ended and which way it faced. It is what a sim-to-sim check compares: a policy that
// walks in its training simulator should walk the same way here.
//
// Sampling reads nothing but the BaseReading it is given (MujocoPlant::base()), so it never
// changes the simulation. offer() does not allocate once reserve() made room for the run.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/sim/mujoco_world.hpp"

namespace praxis::sim {

struct BaseSample {
  double time = 0.0;                  // s from the start of the run
  double x = 0.0, y = 0.0, z = 0.0;   // the base's origin, world frame (m)
  double yaw = 0.0;                   // heading about world z (rad, -pi to pi; 0 faces +x)
  double tilt = 0.0;                  // the base's z axis from the vertical (rad)
};

struct TrajectorySummary {
  double duration = 0.0;         // s between the first and the last sample
  double upright_seconds = 0.0;  // s with the tilt at most the upright limit
  double distance = 0.0;         // path length in the floor plane (m)
  double displacement = 0.0;     // start to end in the floor plane (m)
  BaseSample start;
  BaseSample end;                // end point and heading
  double turned = 0.0;           // yaw change start to end, unwrapped (rad; + is counter-clockwise)
  bool finite = true;            // every sample was finite
};

// One line for a person: "10.00 s, upright 9.50 s, travelled 1.234 m (1.200 m from the start), end
// point (1.200, 0.010, 0.780) m, heading 3.1 deg (turned +3.1 deg)".
[[nodiscard]] inline std::string describe(const TrajectorySummary& t) {
  constexpr double deg = 180.0 / std::numbers::pi;
  char text[256];
  std::snprintf(text, sizeof text,
                "%.2f s, upright %.2f s, travelled %.3f m (%.3f m from the start), end point (%.3f, %.3f, %.3f) m, "
                "heading %.1f deg (turned %+.1f deg)%s",
                t.duration, t.upright_seconds, t.distance, t.displacement, t.end.x, t.end.y, t.end.z, t.end.yaw * deg,
                t.turned * deg, t.finite ? "" : ", NOT FINITE");
  return text;
}

class BaseTrajectory {
 public:
  // The base counts as upright up to this tilt: the fall detector's default (motion::FallOptions),
  // so "upright" here is what praxis' own safety calls upright.
  static constexpr double k_upright_tilt = 1.0;

  explicit BaseTrajectory(Duration period = std::chrono::milliseconds(20)) : period_(period) {
    if (period_ <= Duration::zero()) throw std::invalid_argument("BaseTrajectory: the sampling period must be positive");
  }

  // Room for `span` of samples, so offer() does not allocate during a run of that length.
  void reserve(Duration span) {
    samples_.reserve(static_cast<std::size_t>(std::max<Duration::rep>(0, span / period_)) + 2);
  }

  // Whether offer() at `elapsed` would take a sample (a caller can skip reading the base when not).
  [[nodiscard]] bool due(Duration elapsed) const noexcept { return samples_.empty() || elapsed >= next_; }

  // Takes a sample when one is due at `elapsed` (simulated time from the start): the first offer,
  // then one every period. True when it took one.
  bool offer(Duration elapsed, const BaseReading& base) {
    if (!due(elapsed)) return false;
    next_ = (samples_.empty() ? elapsed : next_) + period_;
    if (next_ <= elapsed) next_ = elapsed + period_;  // a late offer does not bunch up samples
    samples_.push_back(sample(to_seconds(elapsed), base));
    return true;
  }

  [[nodiscard]] Duration period() const noexcept { return period_; }
  [[nodiscard]] const std::vector<BaseSample>& samples() const noexcept { return samples_; }

  [[nodiscard]] TrajectorySummary summary() const {
    TrajectorySummary s;
    if (samples_.empty()) return s;
    s.start = samples_.front();
    s.end = samples_.back();
    s.duration = s.end.time - s.start.time;
    for (std::size_t i = 0; i < samples_.size(); ++i) {
      const BaseSample& b = samples_[i];
      s.finite = s.finite && std::isfinite(b.x) && std::isfinite(b.y) && std::isfinite(b.z) && std::isfinite(b.yaw) &&
                 std::isfinite(b.tilt);
      if (i == 0) continue;
      const BaseSample& a = samples_[i - 1];
      // Each interval counts as upright when it began upright.
      if (a.tilt <= k_upright_tilt) s.upright_seconds += b.time - a.time;
      s.distance += std::hypot(b.x - a.x, b.y - a.y);
      s.turned += std::remainder(b.yaw - a.yaw, 2.0 * std::numbers::pi);
    }
    s.displacement = std::hypot(s.end.x - s.start.x, s.end.y - s.start.y);
    return s;
  }

  // `file` as CSV: time,x,y,z,yaw,tilt, a row per sample, every bit of each value (two equal runs
  // give equal files). Written beside and renamed into place: a failed write leaves no half file.
  // Throws std::runtime_error naming the file.
  void write_csv(const std::filesystem::path& file) const {
    const std::filesystem::path partial = file.string() + ".partial";
    std::FILE* out = std::fopen(partial.c_str(), "w");
    if (out == nullptr) throw std::runtime_error(file.string() + ": cannot write the base trajectory");
    bool ok = std::fputs("time,x,y,z,yaw,tilt\n", out) >= 0;
    for (const BaseSample& b : samples_) {
      ok = ok && std::fprintf(out, "%.3f,%.17g,%.17g,%.17g,%.17g,%.17g\n", b.time, b.x, b.y, b.z, b.yaw, b.tilt) > 0;
    }
    ok = std::fclose(out) == 0 && ok;
    std::error_code ec;
    if (ok) std::filesystem::rename(partial, file, ec);
    if (!ok || ec) {
      std::filesystem::remove(partial, ec);
      throw std::runtime_error(file.string() + ": writing the base trajectory failed");
    }
  }

  // One sample of a reading: the heading and tilt from the base's orientation.
  [[nodiscard]] static BaseSample sample(double time, const BaseReading& base) {
    const Quaternion& q = base.orientation;
    BaseSample b;
    b.time = time;
    b.x = base.position.x();
    b.y = base.position.y();
    b.z = base.position.z();
    b.yaw = std::atan2(2.0 * (q.w() * q.z() + q.x() * q.y()), 1.0 - 2.0 * (q.y() * q.y() + q.z() * q.z()));
    // The world z component of the base's z axis is the rotation matrix's (2, 2).
    b.tilt = std::acos(std::clamp(1.0 - 2.0 * (q.x() * q.x() + q.y() * q.y()), -1.0, 1.0));
    return b;
  }

 private:
  Duration period_;
  Duration next_{};
  std::vector<BaseSample> samples_;
};

}  // namespace praxis::sim
