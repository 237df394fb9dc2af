#pragma once
// TienkungBackend<Model, Layout, Transport>: a Walker Tienkung (Pro or Lite) on its ROS 2 body
// service (`ros2 launch body_control body.launch.py`), talked to over raw DDS: the generic DdsBackend
// running TienkungTopics (topics.hpp: per-limb status and the IMU in, per-limb cmd_ctrl / cmd_vel
// out), plus Tienkung's own duties:
//
//   - taking control: acquire() waits for a valid status on every limb topic and the IMU; there is
//     nothing to switch on the robot (only one program may publish a limb's command topics, and
//     which one does is settled by the remote and the services started on the robot,
//     docs/backends/tienkung.md, "Wire facts and their sources": stop the vendor's locomotion
//     first).
//   - velocity mode keeps a motor turning until it receives speed 0. When a joint leaves velocity
//     mode (the runtime's damping replacing the command after a fault, a command that stops
//     covering it, disabled) the backend sends speed 0 on every write - before the limb's cmd_ctrl -
//     until the limb's status shows the motor stopped, online and error-free (velocity_stops.hpp);
//     only then is the joint counted stopped. release() and the destructor keep stopping until
//     that is confirmed or their timeout passes, and say which joints were not (confirm_stops()).
//   - arm zeroing (rt/arm/cmd_set_zero) exists only as ArmZeroing (arm_zeroing.hpp), which cannot
//     be made while the backend is in control; while one exists the backend cannot be taken into
//     control and write() sends nothing.
//   - a limb whose status falls silent has its joints reported offline (topics.hpp), so the
//     runtime's SafetyMonitor sees a joint fault and damps, as it does for the motors' own error
//     codes (codec.hpp).
//
//   praxis::tienkung::TienkungBackend<praxis::tienkung::Pro> robot(options);
//
// read() and write() never block or allocate.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/tienkung/topics.hpp"
#include "praxis/hardware/tienkung/velocity_stops.hpp"
#include "praxis/io/reflect_save.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::tienkung {

template <TienkungModel M, class Transport>
class ArmZeroing;

namespace detail {
// Who has the robot: a control run, an arm-zeroing session, or nobody. The two exclude each other.
enum class Holder : std::uint8_t { nobody, control, zeroing };
}  // namespace detail

template <TienkungModel M, StatusLayout Layout = StatusLayout::with_error, class Transport = transport::DdsTransport>
class TienkungBackend : public DdsBackend<TienkungTopics<M, Layout>, Transport> {
  using Base = DdsBackend<TienkungTopics<M, Layout>, Transport>;
  using Topics = TienkungTopics<M, Layout>;
  static constexpr std::size_t N = M::joint_count;

 public:
  static constexpr StatusLayout layout = Layout;
  // praxis commands every joint (the vendor's locomotion is stopped first): control ends with joint
  // damping, and speed 0 for every joint that was in velocity mode. The status topics carry no remote.
  static constexpr SafeState safe_state = SafeState::joint_damping;
  static constexpr bool has_remote = false;
  // The joints praxis' commands reach (what its summaries count): with upper_body_only, every limb
  // but the legs, whose topics are never written.
  [[nodiscard]] std::array<bool, M::joint_count> driven_joints() const {
    std::array<bool, M::joint_count> driven{};
    for (const auto& limb : M::limbs) {
      const bool skipped = this->options().upper_body_only && limb.limb == Limb::leg;
      for (std::size_t k = 0; k < limb.count; ++k) driven[limb.first + k] = !skipped;
    }
    return driven;
  }

  // The robot: domain 0 (UNVERIFIED) on the interface that reaches it.
  static BackendOptions robot(std::string interface, std::uint32_t domain = 0) {
    BackendOptions o;
    o.dds = {domain, std::move(interface)};
    return o;
  }

  using Base::Base;
  // Stops what still turns, waiting up to options().stop_timeout for the statuses to confirm it; a
  // joint not confirmed is named on stderr (a destructor has no one else to tell).
  ~TienkungBackend() {
    if (yielded_.load(std::memory_order_acquire) || this->codec_context().stops.not_stopped() == 0) return;
    try {
      const std::size_t left = confirm_stops(this->options().stop_timeout);
      if (left > 0) {
        std::fprintf(stderr, "praxis tienkung: %s\n", unconfirmed_report(this->options().stop_timeout).c_str());
      }
    } catch (...) {  // the report's strings; the stops themselves were sent
    }
  }
  TienkungBackend(const TienkungBackend&) = delete;
  TienkungBackend& operator=(const TienkungBackend&) = delete;

  // ---- Backend ----
  // Nothing leaves while an ArmZeroing session holds the robot.
  void write(const JointCommand<N>& command, TimePoint now) {
    last_write_ns_.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    if (yielded_.load(std::memory_order_acquire)) return;
    if (holder_.load(std::memory_order_acquire) == detail::Holder::zeroing) {
      withheld_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    last_command_ = command;
    Base::write(command, now);
  }
  [[nodiscard]] std::uint64_t commands_withheld_while_zeroing() const {
    return withheld_.load(std::memory_order_relaxed);
  }

  // Sends speed 0 on cmd_vel, once, to every joint in velocity mode or whose stop is not yet
  // confirmed, each limb's followed by the last command written without its velocity joints (the
  // runtime's damping frame, typically: a motor that takes the speed 0 then takes that command
  // too, rather than staying in velocity mode at speed 0); returns how many joints that is. It
  // does not wait: keep calling it (or write()) until turning_joints() is 0, or call
  // confirm_stops(). Not concurrently with write().
  std::size_t stop_turning_joints() noexcept {
    const std::size_t n = turning_joints();
    if (n == 0 || yielded_.load(std::memory_order_acquire)) return 0;
    stop_command_ = last_command_;
    for (auto& mode : stop_command_.mode) {
      if (mode == JointMode::velocity) mode = JointMode::none;
    }
    Base::write(stop_command_, Clock::now());
    return n;
  }

  // Sends speed 0 every 2 ms and reads the statuses until every joint that was in velocity mode is
  // confirmed stopped or `timeout` passed; returns how many are not confirmed. Off the control
  // loop (release(), the destructor, or yours after the loop stopped): it reads and writes itself.
  std::size_t confirm_stops(Duration timeout) {
    const auto deadline = Clock::now() + timeout;
    RobotState<N> scratch{};
    for (;;) {
      this->read(scratch, Clock::now());  // the statuses are the evidence
      if (stop_turning_joints() == 0) return 0;
      if (Clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    this->read(scratch, Clock::now());
    if (stop_turning_joints() == 0) return 0;  // the last statuses confirmed them
    return turning_joints();
  }

  // Joints in velocity mode or whose stop the statuses have not confirmed yet (for tests and
  // reports; counted stopped only once confirmed).
  [[nodiscard]] std::size_t turning_joints() const { return this->codec_context().stops.not_stopped(); }
  // Speed-0 elements sent (every write repeats them until confirmed), and stops confirmed.
  [[nodiscard]] std::uint64_t zero_speeds_sent() const { return this->codec_context().stops.zeros_sent(); }
  [[nodiscard]] std::uint64_t stops_confirmed() const { return this->codec_context().stops.stops_confirmed(); }
  // "speed 0 not confirmed within 500 ms for: left_elbow (motor 14, status: error 33072)", or "".
  [[nodiscard]] std::string unconfirmed_report(Duration waited) const {
    std::string names;
    const auto& stops = this->codec_context().stops;
    for (std::size_t j = 0; j < N; ++j) {
      if (stops.phase(j) == SpeedPhase::idle) continue;
      names += (names.empty() ? "" : ", ") + std::string(M::joints[j].name) + " (motor " +
               std::to_string(M::motor_ids[j]) + ")";
    }
    if (names.empty()) return {};
    return "speed 0 not confirmed by the status within " + std::to_string(to_ms(waited)) +
           " ms (moving, offline, faulted or silent) for: " + names;
  }

  // ---- lifecycle ----
  LifecycleResult acquire(Duration timeout) {
    auto expected = detail::Holder::nobody;
    if (!holder_.compare_exchange_strong(expected, detail::Holder::control)) {
      return fail(expected == detail::Holder::zeroing
                      ? "an ArmZeroing session is open on " + this->options().topics.set_zero +
                            ": destroy it before taking control"
                      : std::string("the backend is already in control"),
                  expected == detail::Holder::control);
    }
    lifecycle_.store(LifecycleStage::acquiring);
    yielded_.store(false, std::memory_order_release);  // a new run: the guard of the last one is gone
    const auto deadline = Clock::now() + timeout;
    const auto& o = this->options();
    const auto primary = o.topics.of(M::limbs[0].limb).status;
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      std::string why = no_valid_sample_text("status", primary, timeout, o.dds);
      const std::string refused = rejection_report(0);
      if (!refused.empty()) {
        why += ": " + refused;
      } else if (wait.invalid > 0) {
        why += ": " + std::to_string(wait.invalid) + " invalid ones arrived (a motor missing, or values not finite)";
      } else {
        why += "; if the robot does send it, a MotorStatus layout longer than the robot's (configured: " +
               std::string(to_string(Layout)) + ", " + std::to_string(StatusWire<Layout>::element_bytes) +
               " bytes per motor) makes DDS drop every sample (Cyclone logs \"deserialization ... failed\")";
      }
      if (auto seen = this->state_near_misses("set topics.limbs or types.motor_status (docs/backends/tienkung.md)");
          !seen.empty()) {
        why += "; " + seen;
      }
      holder_.store(detail::Holder::nobody);
      return fail(why, false);
    }
    // The other limbs and the IMU; a state the wait consumed is waited for again below.
    bool consumed = false;
    const std::string missing =
        wait_for_every_state_topic<M>(static_cast<Base&>(*this), o.topics, deadline, consumed);
    if (!missing.empty()) {
      holder_.store(detail::Holder::nobody);
      std::string why = "receiving " + primary + " but no valid sample within " + std::to_string(to_ms(timeout)) +
                        " ms on: " + missing;
      for (std::size_t i = 1; i <= Topics::k_limbs; ++i) {
        const std::string refused = rejection_report(i);
        if (!refused.empty()) why += "; " + refused;
      }
      return fail(why, false);
    }
    if (consumed) this->wait_for_state(deadline > Clock::now() ? deadline - Clock::now() : Duration::zero());
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "receiving every limb status and " + o.topics.imu + " (MotorStatus layout " +
                std::string(to_string(Layout)) + "); commands on rt/<limb>/cmd_ctrl and cmd_vel"};
  }

  // Stops every joint still in velocity mode (speed 0 until the statuses confirm it, within
  // `timeout`), then stops sending. Fails, naming the joints, when a stop is not confirmed: such a
  // motor may turn on (or again, when it comes back online).
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    const std::size_t stopping = turning_joints();
    const std::size_t left = stopping > 0 ? confirm_stops(timeout) : 0;
    const std::string unconfirmed = left > 0 ? unconfirmed_report(timeout) : std::string();
    lifecycle_.store(left > 0 ? LifecycleStage::failed : LifecycleStage::released);
    auto control = detail::Holder::control;
    holder_.compare_exchange_strong(control, detail::Holder::nobody);  // an ArmZeroing's claim stays
    if (left > 0) return {false, LifecycleStage::failed, "stopped sending commands; " + unconfirmed};
    return {true, LifecycleStage::released,
            "stopped sending commands" +
                (stopping > 0 ? "; speed 0 sent to " + std::to_string(stopping) +
                                    " joints in velocity mode, confirmed stopped by their status"
                              : std::string())};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  // The guard builds this backend again from these options; the status layout is its name's.
  static constexpr std::string_view guard_backend = Layout == StatusLayout::with_error      ? "tienkung"
                                                    : Layout == StatusLayout::without_error ? "tienkung-without-error"
                                                                                            : "tienkung-with-voltage";
  // Only over DDS: a robot in this process (a loopback transport) is out of the guard's reach.
  [[nodiscard]] std::string guard_options() const
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    return io::to_json_text(this->options());
  }
  // The guard's start: as acquire(), which asks the robot nothing (every limb status and the IMU).
  LifecycleResult adopt(Duration timeout) { return acquire(timeout); }
  // The guard took the robot: nothing more leaves this backend, not even its destructor's speed 0
  // (the guard sends the stops; a controller that wakes up would send its last command with them).
  void yield_to_guard() noexcept {
    yielded_.store(true, std::memory_order_release);
    lifecycle_.store(LifecycleStage::released);
  }

  bool read_status(RobotStatus& out) {
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    out.reported_mode = out.assumed_mode =
        out.lifecycle == LifecycleStage::in_control ? RobotMode::user : RobotMode::unknown;
    this->read_link(out.link);
    ++out.sequence;
    return true;
  }

  // What the decoder of state topic i (limbs in model order, then the IMU) refused on Cyclone's
  // thread, e.g. `topic "rt/arm/status": 3 of 120 samples rejected (last: ...)`; "" when nothing
  // was (and always on a loopback transport, whose peers hand values over undecoded). Off the
  // control thread.
  [[nodiscard]] std::string rejection_report(std::size_t i) const {
    if constexpr (std::is_same_v<Transport, transport::DdsTransport>) {
      std::string out;
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((I == i ? (out = this->template state_reader<I>().rejection_report(), 0) : 0), ...);
      }(std::make_index_sequence<Topics::k_limbs + 1>{});
      return out;
    } else {
      (void)i;
      return {};
    }
  }

 private:
  template <TienkungModel, class>
  friend class ArmZeroing;

  LifecycleResult fail(std::string why, bool keep_stage) {
    if (!keep_stage) lifecycle_.store(LifecycleStage::failed);
    return {false, LifecycleStage::failed, std::move(why)};
  }

  static JointCommand<N> make_none() {
    JointCommand<N> c;
    c.mode.fill(JointMode::none);
    return c;
  }

  JointCommand<N> last_command_ = make_none();  // writer side: what write() sent last
  JointCommand<N> stop_command_ = make_none();  // writer side: it, without its velocity joints
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<detail::Holder> holder_{detail::Holder::nobody};
  std::atomic<Duration::rep> last_write_ns_{0};  // 0: never written
  std::atomic<std::uint64_t> withheld_{0};
  std::atomic<bool> yielded_{false};  // praxis-guard took the robot (yield_to_guard)
};

}  // namespace praxis::tienkung

// The options by field name, so that every user of the backend can hand them on (praxis-guard).
#include "praxis/hardware/tienkung/options_params.hpp"
