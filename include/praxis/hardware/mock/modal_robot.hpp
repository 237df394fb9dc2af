#pragma once
// ModalRobot<Model>: a mock robot with a controller of its own — modes, walking, getting up, head —
// reached through an I/O worker, the way a JSON-RPC robot is (Booster). Joint commands drive the
// same physics as MockRobot; requests go through a RequestWorker that, every period, calls the
// simulated robot's "RPCs":
//
//   change_mode(mode)    once per change of the requested mode; the backend assumes the new mode
//                        at once, and the robot reports it `confirm_delay` later
//   move(vx, vy, wz)     every period while locomotion is assumed (zero velocity when standing)
//   get_up()             once per new RobotRequests::get_up value, in the prepare mode; reported
//                        finished (RobotStatus::get_ups_completed) `get_up_time` later
//   rotate_head(y, p)    every period while locomotion is assumed and the head is requested
//
// Nothing is called before the behaviour's first command (RobotRequests::any). Every call is
// recorded with its time, for tests.
//
// threaded = true: the worker runs on its own thread in real time (use with run()).
// threaded = false: read() runs the worker's period work in simulated time (use with step()).

#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/request_worker.hpp"

namespace praxis::mock {

enum class RobotCall : std::uint8_t { change_mode, move, get_up, rotate_head };

[[nodiscard]] constexpr std::string_view to_string(RobotCall c) {
  switch (c) {
    case RobotCall::change_mode: return "change_mode";
    case RobotCall::move: return "move";
    case RobotCall::get_up: return "get_up";
    case RobotCall::rotate_head: return "rotate_head";
  }
  return "?";
}

struct RecordedCall {
  TimePoint time{};
  RobotCall call{};
  RobotMode mode = RobotMode::unknown;  // change_mode
  double a = 0, b = 0, c = 0;           // move: vx, vy, wz; rotate_head: yaw, pitch
};

struct ModalOptions {
  MockOptions physics{};
  bool threaded = true;
  Duration period = std::chrono::milliseconds(20);         // the vendor's rate (Booster: 20 ms)
  Duration confirm_delay = std::chrono::milliseconds(100);  // until the robot reports a new mode
  Duration get_up_time = std::chrono::milliseconds(200);    // from get_up() until it reports standing
};

template <RobotModel M>
class ModalRobot {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true, .get_up = true, .head = true};
  static constexpr SafeState safe_state = SafeState::mode_request;

  explicit ModalRobot(ModalOptions options = {}, TimePoint start = TimePoint{})
      : options_(options), physics_(options.physics, start), remote_{*this}, worker_(remote_, options.period), next_serve_(start) {
    if (options_.threaded) worker_.start();
  }
  ~ModalRobot() { worker_.stop(); }
  ModalRobot(const ModalRobot&) = delete;
  ModalRobot& operator=(const ModalRobot&) = delete;

  // ---- Backend ----
  bool read(RobotState<N>& out, TimePoint now) {
    if (!options_.threaded) {
      while (next_serve_ <= now) {
        worker_.serve_once(next_serve_);
        next_serve_ += options_.period;
      }
    }
    return physics_.read(out, now);
  }
  void write(const JointCommand<N>& c, TimePoint now) { physics_.write(c, now); }
  void post(const RobotRequests& r) { worker_.post(r); }
  void post_safe_mode(RobotMode mode) noexcept { worker_.post_safe_mode(mode); }
  bool read_status(RobotStatus& s) { return worker_.read_status(s); }

  // ---- for tests ----
  [[nodiscard]] MockRobot<M>& physics() { return physics_; }
  [[nodiscard]] std::vector<RecordedCall> calls() const {
    std::lock_guard lock(calls_mutex_);  // the worker thread records; never the control thread
    return calls_;
  }
  void stop_worker() { worker_.stop(); }

 private:
  // The simulated robot behind the RPCs; runs on the worker.
  struct Remote {
    ModalRobot& robot;
    std::uint32_t last_get_up = 0;
    RobotMode pending = RobotMode::unknown;
    TimePoint pending_since{};
    bool getting_up = false;
    TimePoint getting_up_since{};

    void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
      status.link.connected = true;
      status.lifecycle = LifecycleStage::in_control;
      if (pending != RobotMode::unknown && now - pending_since >= robot.options_.confirm_delay) {
        status.reported_mode = pending;
        status.last_request = {1, RequestOutcome::ok, 0, now};
        status.requests_in_flight = 0;
        pending = RobotMode::unknown;
      }
      if (!wanted.any) return;
      if (wanted.mode != RobotMode::unknown && wanted.mode != status.assumed_mode) {
        robot.record({now, RobotCall::change_mode, wanted.mode});
        status.assumed_mode = wanted.mode;
        status.mode_since = now;
        status.last_request = {1, RequestOutcome::pending, 0, {}};
        status.requests_in_flight = 1;
        pending = wanted.mode;
        pending_since = now;
      }
      if (status.assumed_mode == RobotMode::prepare && wanted.get_up != last_get_up) {
        robot.record({now, RobotCall::get_up});
        last_get_up = wanted.get_up;
        getting_up_since = now;
        getting_up = true;
      }
      if (getting_up && now - getting_up_since >= robot.options_.get_up_time) {
        ++status.get_ups_completed;
        getting_up = false;
      }
      if (status.assumed_mode == RobotMode::locomotion) {
        const auto& l = wanted.locomotion;
        robot.record({now, RobotCall::move, RobotMode::unknown, l.active ? l.vx : 0.0, l.active ? l.vy : 0.0,
                      l.active ? l.wz : 0.0});
        if (wanted.head.active) {
          robot.record({now, RobotCall::rotate_head, RobotMode::unknown, wanted.head.yaw, wanted.head.pitch});
        }
      }
    }
  };

  void record(const RecordedCall& c) {
    std::lock_guard lock(calls_mutex_);
    calls_.push_back(c);
  }

  ModalOptions options_;
  MockRobot<M> physics_;
  Remote remote_;
  RequestWorker<Remote> worker_;
  TimePoint next_serve_{};
  mutable std::mutex calls_mutex_;
  std::vector<RecordedCall> calls_;
};

}  // namespace praxis::mock
