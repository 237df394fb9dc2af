#pragma once
// A Booster robot in simulated time, for step()-driven tests of the whole path: praxis' motion
// pipeline posts RobotRequests; the backend's real RequestHandler (booster_interface planner,
// executors run inline, RobotStatus, structured log) calls the fake robot's own LocoService and
// LightService (examples/fake_booster) through in-process channels that answer at the simulated
// time. Joints are the mock's physics. What is not the real backend: DDS (the channels and the
// state come from here) and the worker thread (read() serves each 10 ms period that has passed).

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/hardware/booster/request_handler.hpp"
#include "praxis/hardware/booster/rpc.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/request_worker.hpp"

#include "light_service.hpp"
#include "loco_service.hpp"

namespace praxis::test {

// Calls answered by a fake service at the simulated time; a withheld or late answer is a timeout.
template <class Service>
class SimulatedChannel final : public booster::RpcChannel {
 public:
  SimulatedChannel(Service& service, const TimePoint& now, std::string name)
      : service_(service), now_(now), name_(std::move(name)) {}
  booster::RpcReply call(const booster::RpcCall& call, Duration timeout) override {
    const auto a = service_.handle(now_, call.api_id, call.body);
    if (!call.expect_response) return {};
    if (a.never || a.delay > timeout) {
      throw booster::RpcTimeout(name_ + ": no answer to API " + std::to_string(call.api_id) + " within the timeout");
    }
    return {a.status, a.body, ""};
  }
  [[nodiscard]] const std::string& name() const override { return name_; }

 private:
  Service& service_;
  const TimePoint& now_;
  std::string name_;
};

template <RobotModel M>
class SimulatedBooster {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true, .get_up = true, .head = true,
                                             .kick = true, .leds = true};
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  explicit SimulatedBooster(booster::InterfaceParams params = {}, fake_booster::LocoServiceOptions loco_options = {},
                            Duration get_up_time = std::chrono::seconds(1))
      : loco_service(std::move(loco_options), TimePoint{}),
        get_up_time_(get_up_time),
        physics_(mock::MockOptions{}, TimePoint{}),
        loco_channel_(loco_service, now_, "rt/LocoApiTopic"),
        light_channel_(light_service, now_, "rt/LightControlApiTopic"),
        loco_(loco_channel_),
        light_(light_channel_),
        handler_(loco_, &light_,
                 [this](const booster::KickMessage& k) {
                   kicks.push_back({now_, k});
                   return true;
                 },
                 params, log, /*threaded=*/false),
        worker_(handler_, std::chrono::milliseconds(10)) {
    physics_.set_joint_positions(M::stand_pose);
    handler_.set_fall_source(&fall_state_, &get_ups_finished_);
  }

  // ---- Backend ----
  bool read(RobotState<N>& out, TimePoint now) {
    while (next_serve_ <= now) {
      now_ = next_serve_;
      simulate_getting_up();
      worker_.serve_once(next_serve_);
      next_serve_ += worker_.period();
    }
    now_ = now;
    return physics_.read(out, now);
  }
  void write(const JointCommand<N>& c, TimePoint now) {
    joint_commands_sent += c.covers_any() ? 1 : 0;
    physics_.write(c, now);
  }
  void post(const RobotRequests& r) { worker_.post(r); }
  // Link health and lifecycle are the DDS half's (here: always up); the rest is the handler's.
  bool read_status(RobotStatus& s) {
    worker_.read_status(s);
    s.link.connected = true;
    s.lifecycle = LifecycleStage::in_control;
    return true;
  }

  // ---- the robot's side, for tests ----
  fake_booster::LocoService loco_service;
  fake_booster::LightService light_service;
  struct Kick {
    TimePoint time;
    booster::KickMessage message;
  };
  std::vector<Kick> kicks;
  std::shared_ptr<booster::RecordingEventLog> log = std::make_shared<booster::RecordingEventLog>();
  std::uint64_t joint_commands_sent = 0;
  [[nodiscard]] booster::RequestHandler& handler() { return handler_; }

 private:
  // The fake robot gets up within get_up_time of an accepted GetUp and reports it on rt/fall_down.
  void simulate_getting_up() {
    std::size_t accepted = 0;
    TimePoint last{};
    for (const auto& c : loco_service.calls()) {
      if (c.api_id == booster::loco_api::k_get_up && c.status == booster::status::k_ok) {
        ++accepted;
        last = c.at;
      }
    }
    if (accepted > get_ups_seen_) {
      get_ups_seen_ = accepted;
      fall_state_.store(static_cast<std::int32_t>(booster::FallState::getting_up));
    }
    if (fall_state_.load() == static_cast<std::int32_t>(booster::FallState::getting_up) && now_ - last >= get_up_time_) {
      fall_state_.store(static_cast<std::int32_t>(booster::FallState::ready));
      get_ups_finished_.fetch_add(1);
    }
  }

  TimePoint now_{};
  TimePoint next_serve_{};
  Duration get_up_time_;
  mock::MockRobot<M> physics_;
  SimulatedChannel<fake_booster::LocoService> loco_channel_;
  SimulatedChannel<fake_booster::LightService> light_channel_;
  booster::LocoClient loco_;
  booster::LightClient light_;
  // Lying on the floor until it got up, as the seed's validation list starts and as
  // praxis-fake-booster --lying reports it on rt/fall_down (a robot reporting itself ready is
  // standing: stand-up asks it for no get-up).
  std::atomic<std::int32_t> fall_state_{static_cast<std::int32_t>(booster::FallState::fallen)};
  std::atomic<std::uint32_t> get_ups_finished_{0};
  std::size_t get_ups_seen_ = 0;
  booster::RequestHandler handler_;
  RequestWorker<booster::RequestHandler> worker_;
};

}  // namespace praxis::test
