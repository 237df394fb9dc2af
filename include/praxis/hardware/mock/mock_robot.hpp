#pragma once
// MockRobot<Model>: an in-process robot for tests, simulation and benchmarks; a praxis::Plant
// (core/plant.hpp), like sim::MujocoPlant.
//
// Each joint is a rotor with inertia and viscous damping driven by the motor PD law the real drivers
// apply, tau = kp (q* - q) + kd (dq* - dq) + tau_ff, saturated at the joint's effort limit and
// stopped at its position limits. The IMU reports a settable orientation; the gamepad and faults
// are scripted against the mock's own (simulated) time.
//
// Threading: write() may be called from one thread and read() from another (RobotController::run
// does this); the physics advances inside read(). Scripting calls and the inspection accessors
// belong to the thread that owns the mock outside of run(), or to any thread before and after it.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Geometry>

#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/gamepad_script.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/plant.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::mock {

struct MockOptions {
  Duration physics_step = std::chrono::microseconds(500);
  Duration state_period = std::chrono::milliseconds(2);  // 500 Hz, like Unitree's rt/lowstate
  double inertia = 0.05;          // kg m^2 per joint (lumped rotor and link)
  double viscous_damping = 0.2;   // N m s / rad
  std::size_t state_history = 256;  // published states kept for delayed delivery
  std::size_t command_log_capacity = 8192;
};

enum class StateField : std::uint8_t { q, dq, tau, orientation, gyro };

template <std::size_t N>
struct LoggedCommand {
  TimePoint time{};
  JointCommand<N> command;
};

template <RobotModel M>
class MockRobot {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  using State = RobotState<N>;
  using Command = JointCommand<N>;
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  explicit MockRobot(MockOptions options = {}, TimePoint start = TimePoint{})
      : options_(options), time_(start), next_publication_(start + options.state_period) {
    if (options_.physics_step <= Duration::zero() || options_.state_period < options_.physics_step) {
      throw std::invalid_argument(
          "MockOptions: physics_step must be positive and state_period at least one physics step");
    }
    history_.resize(std::max<std::size_t>(options_.state_history, 2));
    command_log_.resize(std::max<std::size_t>(options_.command_log_capacity, 1));
    set_joint_positions(M::rest_pose);
  }

  // ---------------- the Backend interface ----------------

  bool read(State& out, TimePoint now) {
    advance_to(now);
    const Duration delay = active(delays_, now) ? delay_amount_at(now) : Duration::zero();
    // The newest publication the robot has delivered by `now`.
    const Publication* newest = nullptr;
    for (std::size_t k = 0; k < std::min(published_, history_.size()); ++k) {
      const auto& p = history_[(published_ - 1 - k) % history_.size()];
      if (p.time + delay > now) continue;
      if (!p.dropped) newest = &p;
      break;
    }
    if (newest == nullptr || newest->index <= last_delivered_) return false;
    last_delivered_ = newest->index;
    out = newest->state;
    return true;
  }

  void write(const Command& command, TimePoint now) {
    commands_.publish(TimedCommand{now, command});
    auto& slot = command_log_[commands_received_ % command_log_.size()];
    slot.time = now;
    slot.command = command;
    ++commands_received_;
    if (!command.all_finite()) ++non_finite_commands_;
    for (std::size_t j = 0; j < N; ++j) {
      if (command.q[j] < M::joints[j].lower - 1e-9 || command.q[j] > M::joints[j].upper + 1e-9) {
        ++out_of_limit_commands_;
        break;
      }
    }
  }

  // ---------------- the scene ----------------

  void set_joint_positions(const std::array<double, N>& q) {
    for (std::size_t j = 0; j < N; ++j) q_[j] = q[j];
    dq_.setZero();
    tau_.setZero();
  }
  void set_orientation(const Quaternion& body_to_world) { orientation_ = body_to_world.normalized(); }

  // Tilts the body to the given roll and pitch (rad) at `at` (simulated time).
  void tilt(double roll, double pitch, TimePoint at) {
    Event e{at};
    e.orientation = Quaternion(Eigen::AngleAxisd(pitch, Vector3::UnitY()) *
                               Eigen::AngleAxisd(roll, Vector3::UnitX()));
    schedule(e);
  }

  // ---------------- the gamepad script (core/gamepad_script.hpp) ----------------

  void press(GamepadButton b, TimePoint at) { gamepad_script_.press(b, at); }
  void release(GamepadButton b, TimePoint at) { gamepad_script_.release(b, at); }
  void hold(GamepadButton b, TimePoint from, Duration length) { gamepad_script_.hold(b, from, length); }
  // Presses and releases one button after `at` (one state period held).
  void tap(GamepadButton b, TimePoint at, Duration length = std::chrono::milliseconds(50)) {
    hold(b, at, length);
  }
  void set_axis(GamepadAxis a, float value, TimePoint at) { gamepad_script_.set_axis(a, value, at); }
  void set_sticks(float lx, float ly, float rx, float ry, TimePoint at) {
    set_axis(GamepadAxis::lx, lx, at);
    set_axis(GamepadAxis::ly, ly, at);
    set_axis(GamepadAxis::rx, rx, at);
    set_axis(GamepadAxis::ry, ry, at);
  }
  // A script's text ("R2:0.5-3.0,A:4.0,LY=0.5@10-30"), or its parsed items, from t0.
  void script_gamepad(std::string_view text, TimePoint t0) { gamepad_script_.add(text, t0); }
  void script_gamepad(std::span<const GamepadScriptItem> items, TimePoint t0) { gamepad_script_.add(items, t0); }

  // ---------------- faults (windows in simulated time) ----------------

  // No state is published in [from, until): the robot went silent.
  void drop_states(TimePoint from, TimePoint until) { drops_.push_back({from, until}); }
  // States published in [from, until) arrive `delay` late.
  void delay_states(Duration delay, TimePoint from, TimePoint until) {
    delays_.push_back({from, until});
    delay_amounts_.push_back(delay);
  }
  // States keep arriving in [from, until), but with the content, stamp and sequence of the last
  // one before `from`: a driver resending a stale buffer.
  void freeze_states(TimePoint from, TimePoint until) { freezes_.push_back({from, until}); }
  // One field of one joint (or axis, for IMU fields) reads NaN in [from, until).
  void inject_nan(StateField field, std::size_t index, TimePoint from, TimePoint until) {
    nans_.push_back({field, index, {from, until}});
  }
  // The joint's motor produces no torque, its reading stops updating and its health reports it
  // offline in [from, until).
  void set_joint_offline(std::size_t joint, TimePoint from,
                         TimePoint until = TimePoint::max()) {
    if (joint >= N) throw std::out_of_range("MockRobot::set_joint_offline: joint " + std::to_string(joint));
    offline_.push_back({joint, {from, until}});
  }

  // ---------------- inspection ----------------

  [[nodiscard]] TimePoint time() const { return time_; }
  [[nodiscard]] const JointVector<N>& q() const { return q_; }
  [[nodiscard]] const JointVector<N>& dq() const { return dq_; }
  [[nodiscard]] const JointVector<N>& tau() const { return tau_; }
  [[nodiscard]] const Quaternion& orientation() const { return orientation_; }
  [[nodiscard]] const GamepadState& gamepad() const { return gamepad_; }

  [[nodiscard]] std::uint64_t commands_received() const { return commands_received_; }
  [[nodiscard]] std::uint64_t non_finite_commands() const { return non_finite_commands_; }
  [[nodiscard]] std::uint64_t out_of_limit_commands() const { return out_of_limit_commands_; }
  [[nodiscard]] std::uint64_t states_published() const { return published_; }
  // The last command written (what reached the motors), valid once commands_received() > 0.
  [[nodiscard]] const LoggedCommand<N>& last_command() const {
    return command_log_[(commands_received_ + command_log_.size() - 1) % command_log_.size()];
  }
  // The commands still in the log, oldest first (at most MockOptions::command_log_capacity).
  [[nodiscard]] std::vector<LoggedCommand<N>> command_log() const {
    const auto n = std::min<std::uint64_t>(commands_received_, command_log_.size());
    std::vector<LoggedCommand<N>> out;
    out.reserve(n);
    for (std::uint64_t k = commands_received_ - n; k < commands_received_; ++k) {
      out.push_back(command_log_[k % command_log_.size()]);
    }
    return out;
  }

  // Advances the simulation to `now` with the newest command written; read() does this itself.
  void advance_to(TimePoint now) {
    // The command is taken here, not in read() alone: one written before advance_to() drives the
    // motors from the next step on, as the Plant concept promises (core/plant.hpp).
    if (commands_.fetch()) applied_ = commands_.value();
    // A robot constructed without a start time and first asked about a time far from the epoch (a
    // controller stepping it with Clock::now()) has been standing there all along: start the
    // simulation at `now` instead of integrating every physics step since the epoch (hours on a
    // machine that has been up for hours, far longer under sanitizers).
    if (published_ == 0 && time_ == TimePoint{} && now - time_ > k_epoch_catch_up) {
      time_ = now;
      next_publication_ = now + options_.state_period;
      publish_state();
      return;
    }
    while (time_ + options_.physics_step <= now) {
      apply_events(time_ + options_.physics_step);
      integrate(to_seconds(options_.physics_step));
      time_ += options_.physics_step;
      if (time_ >= next_publication_) {
        publish_state();
        next_publication_ += options_.state_period;
      }
    }
  }

 private:
  struct TimedCommand {
    TimePoint time{};
    Command command;
  };
  struct Window {
    TimePoint from, until;
    [[nodiscard]] bool contains(TimePoint t) const { return t >= from && t < until; }
  };
  struct NanFault {
    StateField field;
    std::size_t index;
    Window window;
  };
  struct OfflineFault {
    std::size_t joint;
    Window window;
  };
  struct Event {  // a scripted change of the scene: the body's orientation
    TimePoint at{};
    Quaternion orientation = Quaternion::Identity();
  };
  struct Publication {
    TimePoint time{};
    std::uint64_t index = 0;
    bool dropped = false;
    State state;
  };

  template <class W>
  static bool active(const std::vector<W>& windows, TimePoint t) {
    for (const auto& w : windows) {
      if (w.contains(t)) return true;
    }
    return false;
  }
  [[nodiscard]] Duration delay_amount_at(TimePoint t) const {
    for (std::size_t k = 0; k < delays_.size(); ++k) {
      if (delays_[k].contains(t)) return delay_amounts_[k];
    }
    return Duration::zero();
  }
  [[nodiscard]] bool joint_offline(std::size_t j, TimePoint t) const {
    for (const auto& o : offline_) {
      if (o.joint == j && o.window.contains(t)) return true;
    }
    return false;
  }

  void schedule(const Event& e) {
    const auto at = std::upper_bound(events_.begin() + static_cast<std::ptrdiff_t>(next_event_),
                                     events_.end(), e.at,
                                     [](TimePoint t, const Event& x) { return t < x.at; });
    events_.insert(at, e);
  }

  void apply_events(TimePoint until) {
    while (next_event_ < events_.size() && events_[next_event_].at <= until) {
      orientation_ = events_[next_event_++].orientation;
    }
    gamepad_ = gamepad_script_.state_at(until);
  }

  // One implicit step per joint: the PD torque is evaluated at the end of the step, which keeps
  // stiff gains stable at any step size; saturation falls back to a fixed torque for the step.
  void integrate(double h) {
    const auto& c = applied_.command;
    const double inertia = options_.inertia;
    const double b = options_.viscous_damping;
    for (std::size_t j = 0; j < N; ++j) {
      const bool driven = c.drives(j) && !joint_offline(j, time_) && std::isfinite(c.q[j]) &&
                          std::isfinite(c.dq[j]) && std::isfinite(c.kp[j]) &&
                          std::isfinite(c.kd[j]) && std::isfinite(c.tau_ff[j]);
      const double q0 = q_[j], dq0 = dq_[j];
      double dq1 = 0.0, torque = 0.0;
      if (driven) {
        // Velocity mode has no position term, torque mode neither term (see core/joint_command.hpp).
        const double kp = c.mode[j] == JointMode::position ? std::max(0.0, c.kp[j]) : 0.0;
        const double kd = c.mode[j] == JointMode::torque ? 0.0 : std::max(0.0, c.kd[j]);
        dq1 = (inertia * dq0 / h + kp * (c.q[j] - q0) + kd * c.dq[j] + c.tau_ff[j]) /
              (inertia / h + kp * h + kd + b);
        torque = kp * (c.q[j] - (q0 + h * dq1)) + kd * (c.dq[j] - dq1) + c.tau_ff[j];
        const double limit = M::joints[j].effort;
        if (std::abs(torque) > limit) {
          torque = std::copysign(limit, torque);
          dq1 = (inertia * dq0 / h + torque) / (inertia / h + b);
        }
      } else {
        dq1 = (inertia * dq0 / h) / (inertia / h + b);
      }
      double q1 = q0 + h * dq1;
      if (q1 < M::joints[j].lower) {
        q1 = M::joints[j].lower;
        dq1 = std::max(dq1, 0.0);
      } else if (q1 > M::joints[j].upper) {
        q1 = M::joints[j].upper;
        dq1 = std::min(dq1, 0.0);
      }
      q_[j] = q1;
      dq_[j] = dq1;
      tau_[j] = torque;
    }
  }

  void publish_state() {
    auto& p = history_[published_ % history_.size()];
    const auto& previous = history_[(published_ + history_.size() - 1) % history_.size()];
    p.time = time_;
    p.index = ++published_;
    p.dropped = active(drops_, time_);
    if (active(freezes_, time_) && published_ > 1) {
      p.state = previous.state;  // same content, stamp and sequence as before the freeze
      return;
    }
    auto& s = p.state;
    for (std::size_t j = 0; j < N; ++j) {
      s.health[j] = {};
      s.health[j].temperature = 35.0f;
      if (joint_offline(j, time_)) s.health[j].faults = k_joint_offline;
      if (joint_offline(j, time_) && published_ > 1) {
        s.q[j] = previous.state.q[j];
        s.dq[j] = previous.state.dq[j];
        s.tau[j] = previous.state.tau[j];
      } else {
        s.q[j] = q_[j];
        s.dq[j] = dq_[j];
        s.tau[j] = tau_[j];
      }
    }
    s.imu.orientation = orientation_;
    s.imu.gyro.setZero();
    s.imu.accelerometer = orientation_.conjugate() * Vector3(0.0, 0.0, 9.81);
    s.update_derived();
    s.gamepad = gamepad_;
    s.stamp = time_;
    s.age = Duration::zero();
    s.sequence = ++sequence_;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& f : nans_) {
      if (!f.window.contains(time_)) continue;
      switch (f.field) {
        case StateField::q: s.q[static_cast<Eigen::Index>(f.index % N)] = nan; break;
        case StateField::dq: s.dq[static_cast<Eigen::Index>(f.index % N)] = nan; break;
        case StateField::tau: s.tau[static_cast<Eigen::Index>(f.index % N)] = nan; break;
        case StateField::orientation: s.imu.orientation.coeffs()[static_cast<Eigen::Index>(f.index % 4)] = nan; break;
        case StateField::gyro: s.imu.gyro[static_cast<Eigen::Index>(f.index % 3)] = nan; break;
      }
    }
  }

  static constexpr Duration k_epoch_catch_up = std::chrono::seconds(10);

  MockOptions options_;
  TimePoint time_;
  TimePoint next_publication_;
  JointVector<N> q_ = JointVector<N>::Zero();
  JointVector<N> dq_ = JointVector<N>::Zero();
  JointVector<N> tau_ = JointVector<N>::Zero();
  Quaternion orientation_ = Quaternion::Identity();
  GamepadScript gamepad_script_;
  GamepadState gamepad_{};  // as of the last physics step

  LatestValue<TimedCommand> commands_{TimedCommand{TimePoint{}, disabled_command()}};
  TimedCommand applied_{TimePoint{}, disabled_command()};
  std::vector<LoggedCommand<N>> command_log_;
  std::uint64_t commands_received_ = 0;
  std::uint64_t non_finite_commands_ = 0;
  std::uint64_t out_of_limit_commands_ = 0;

  std::vector<Publication> history_;
  std::uint64_t published_ = 0;
  std::uint64_t last_delivered_ = 0;
  std::uint64_t sequence_ = 0;

  std::vector<Event> events_;
  std::size_t next_event_ = 0;
  std::vector<Window> drops_, delays_, freezes_;
  std::vector<Duration> delay_amounts_;
  std::vector<NanFault> nans_;
  std::vector<OfflineFault> offline_;

  static Command disabled_command() {
    Command c;
    c.mode.fill(JointMode::disabled);
    return c;
  }
};

}  // namespace praxis::mock
