// praxis-fake-tienkung: impersonates a Walker Tienkung (Pro or Lite) body service on DDS, for praxis
// (and any raw-DDS or ROS 2 client) to talk to before the real robot. Mock joint dynamics stand in
// for the motors; the wire is the robot's: rt/<limb>/status (MotorStatusMsg in the chosen layout,
// legs at 1000 Hz, the other limbs at 500 Hz), rt/imu/status (Imu, 500 Hz: the robot's IMU rate is
// not known), and per limb the three command topics:
//
//   rt/<limb>/cmd_ctrl  hybrid mode, applied as the motor PD law to the mock joints
//   rt/<limb>/cmd_vel   velocity mode: a motor keeps its speed until it is sent speed 0 (the
//                       vendor's arm manual, 8.7.2). Whether a cmd_ctrl / cmd_pos releases a motor
//                       latched at a nonzero speed is not documented: by default it does not (the
//                       fake ignores and counts those elements), --ctrl-unlatches makes it.
//                       After speed 0 the motor stays in velocity mode, holding still, until the
//                       next cmd_ctrl / cmd_pos.
//   rt/<limb>/cmd_pos   position servo (the model's gains towards pos); praxis never sends it
//
// A command sample naming a motor the model lacks, a motor of another limb, or a non-finite value
// is refused whole and counted by reason. --fault makes a motor report an error code from a time
// on; --silent-limb stops a limb's status from a time on; --offline takes a motor off the bus for a
// while: its status element reads error 33072 (the manual's "device offline") with speed 0 (with
// the without_error layout, which cannot say so, its limb's status is not published), every
// command element for it is dropped, and the motor keeps doing what it was last told (a motor
// latched in velocity mode keeps turning). At exit it prints (and with --report writes) what
// happened as JSON: counts per topic, the motors still turning or in velocity mode, what each
// offline window saw, final_q.
//
// --speed-unit rpm makes the fake speak rpm on the wire, as a robot would if the unit of its speeds
// is rpm (UNVERIFIED, codec.hpp SpeedUnit): every incoming spd (cmd_ctrl, cmd_vel, cmd_pos) is read
// as rpm and converted to rad/s before the motors use it, every MotorStatus.speed goes out in rpm.
// The report's "speeds" says, per motor sent a nonzero speed, what it was told (rad/s, and on the
// wire) and how fast it turned, so a unit mismatch with praxis' BackendOptions::speed_unit shows.
//
// --hric runs the robot's own motion controller (hric_service.hpp): the SetMotionMode service,
// rt/hric/motion/status at 100 Hz and rt/hric/robot/cmd_vel, as the robot has them once the operator
// has started its walking with the remote. The controller then owns every joint (stand pose,
// stepping, zero pose, stopped stiff); a limb command received meanwhile is recorded as above but
// moves nothing, and is counted in the report's hric.limb_commands_while_hric.
//
//   praxis-fake-tienkung --robot pro --domain 0 --interface lo [--layout with_error]
//                        [--fault 2.0:51:33072] [--silent-limb 2.0:arm] [--offline spin+0.3:12:1.0]
//                        [--ctrl-unlatches] [--speed-unit rad_per_s|rpm] [--duration 10] [--report r.json]
//                        [--hric [--hric-mode stand|walk|zero|stop] [--service-wire fastrtps|cyclonedds]
//                         [--console-control true|false] [--hric-transition 0.5]
//                         [--hric-silent-after S] [--hric-remote-at S]]

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/hardware/tienkung/codec.hpp>
#include <praxis/hardware/tienkung/models.hpp>
#include <praxis/hardware/tienkung/topics.hpp>
#include <praxis/idl/bodyctrl_msgs.h>
#include <praxis/transport/dds.hpp>
#include <praxis/transport/dds_decoding_subscriber.hpp>

#include "../common/fake_robot_main.hpp"
#include "hric_service.hpp"

namespace {

namespace tk = praxis::tienkung;

// The shared options (fake_robot_main.hpp) and Tienkung's own.
struct Settings : fake_common::Settings {
  std::string layout = "with_error";
  std::vector<std::string> faults;  // "T:MOTOR_ID:CODE"
  std::vector<std::string> silent;  // "T:limb"
  std::vector<std::string> offline;  // "WHEN:MOTOR_ID:SECONDS", WHEN = T or spin+T
  bool ctrl_unlatches = false;
  std::string speed_unit = "rad_per_s";  // of every spd / speed on the wire
  // The robot's own motion controller (hric_service.hpp).
  bool hric = false;
  std::string hric_mode = "stand";
  std::string service_wire = "fastrtps";
  bool console_control = true;
  double hric_transition = 0.5;
  std::optional<double> hric_silent_after;
  std::optional<double> hric_remote_at;
};

tk::SpeedUnit speed_unit(const Settings& s) {
  return s.speed_unit == "rpm" ? tk::SpeedUnit::rpm : tk::SpeedUnit::rad_per_s;
}

fake_tienkung::HricSettings hric_settings(const Settings& s) {
  fake_tienkung::HricSettings h;
  h.start = s.hric_mode == "walk"   ? tk::WalkMode::walk
            : s.hric_mode == "zero" ? tk::WalkMode::zero
            : s.hric_mode == "stop" ? tk::WalkMode::stop
                                    : tk::WalkMode::stand;
  h.wire = s.service_wire == "cyclonedds" ? tk::ServiceWire::cyclonedds : tk::ServiceWire::fastrtps;
  h.console_control = s.console_control;
  h.transition = s.hric_transition;
  h.silent_after = s.hric_silent_after;
  h.remote_at = s.hric_remote_at;
  return h;
}

struct Fault {
  double at = 0;
  std::uint16_t motor = 0;
  std::uint32_t code = 0;
};
struct Silence {
  double at = 0;
  tk::Limb limb = tk::Limb::leg;
};

// A motor off the bus from `at` seconds (after the fake's start, or after the motor was first sent a
// nonzero speed) for `seconds`.
struct Offline {
  bool after_spin = false;
  double at = 0;
  std::uint16_t motor = 0;
  double seconds = 0;
  // What happened (seconds since the fake's start; NaN: not yet).
  double from = std::nan(""), to = std::nan("");
  bool turning_when_back = false;
  double stopped_after_back = std::nan("");  // seconds after `to` when a speed 0 stopped it
};

template <tk::TienkungModel M>
std::vector<Offline> parse_offline(const std::vector<std::string>& texts) {
  std::vector<Offline> out;
  for (const auto& text : texts) {
    Offline o;
    std::string rest = text;
    if (rest.rfind("spin+", 0) == 0) {
      o.after_spin = true;
      rest = rest.substr(5);
    }
    long id = -1;
    char c1 = 0, c2 = 0;
    std::istringstream in(rest);
    if (!(in >> o.at >> c1 >> id >> c2 >> o.seconds) || c1 != ':' || c2 != ':' || !(o.at >= 0) ||
        !(o.seconds > 0) || id < 0 || id > 0xffff || !in.eof()) {
      throw std::invalid_argument("--offline: expected WHEN:MOTOR_ID:SECONDS (WHEN seconds after the start, or "
                                  "spin+S: S seconds after the motor was first sent a nonzero speed), got \"" +
                                  text + "\"");
    }
    o.motor = static_cast<std::uint16_t>(id);
    if (tk::joint_of_motor<M>(o.motor) == M::joint_count) {
      throw std::invalid_argument("--offline: " + std::string(M::name) + " has no motor " + std::to_string(id) +
                                  " (in \"" + text + "\")");
    }
    out.push_back(o);
  }
  return out;
}

template <tk::TienkungModel M>
std::vector<Fault> parse_faults(const std::vector<std::string>& texts) {
  std::vector<Fault> out;
  for (const auto& text : texts) {
    double t = 0;
    long id = 0;
    long long code = 0;
    char c1 = 0, c2 = 0;
    std::istringstream in(text);
    if (!(in >> t >> c1 >> id >> c2 >> code) || c1 != ':' || c2 != ':' || t < 0 || code < 0 ||
        code > 0xffffffffLL || id < 0 || id > 0xffff) {
      throw std::invalid_argument("--fault: expected T:MOTOR_ID:CODE (seconds, motor id, error code >= 0), got \"" +
                                  text + "\"");
    }
    if (tk::joint_of_motor<M>(static_cast<std::uint16_t>(id)) == M::joint_count) {
      throw std::invalid_argument("--fault: " + std::string(M::name) + " has no motor " + std::to_string(id) +
                                  " (in \"" + text + "\")");
    }
    out.push_back({t, static_cast<std::uint16_t>(id), static_cast<std::uint32_t>(code)});
  }
  return out;
}

template <tk::TienkungModel M>
std::vector<Silence> parse_silences(const std::vector<std::string>& texts) {
  std::vector<Silence> out;
  for (const auto& text : texts) {
    const auto colon = text.find(':');
    double t = -1;
    try {
      t = colon == std::string::npos ? -1 : std::stod(text.substr(0, colon));
    } catch (const std::exception&) {
      t = -1;
    }
    const std::string name = colon == std::string::npos ? "" : text.substr(colon + 1);
    bool found = false;
    for (const auto& l : M::limbs) {
      if (tk::to_string(l.limb) == name) {
        out.push_back({t, l.limb});
        found = true;
      }
    }
    if (!(t >= 0) || !found) {  // !(t >= 0): std::stod reads "nan", which t < 0 lets through
      std::string limbs;
      for (const auto& l : M::limbs) {
        if (!limbs.empty()) limbs += '|';
        limbs += tk::to_string(l.limb);
      }
      throw std::invalid_argument("--silent-limb: expected T:LIMB with LIMB one of " + limbs + ", got \"" + text +
                                  "\"");
    }
  }
  return out;
}

// What one command topic received.
struct TopicCounts {
  std::uint64_t received = 0;
  std::uint64_t applied = 0;
  std::uint64_t unknown_motor = 0;  // a motor id the model does not have
  std::uint64_t wrong_limb = 0;     // a motor of another limb
  std::uint64_t non_finite = 0;
  std::uint64_t ignored_while_turning = 0;  // cmd_ctrl / cmd_pos elements for a motor in velocity mode
  std::uint64_t kp_zero_samples = 0;        // cmd_ctrl: every element kp 0 (damping)
  std::uint64_t stiff_samples = 0;          // cmd_ctrl: some element kp > 0
  bool last_all_kp_zero = false;
  std::uint64_t zero_speeds = 0;  // cmd_vel: speed-0 elements that stopped a turning motor
  std::uint64_t dropped_offline = 0;  // elements for a motor that was off the bus
  double last_speed = std::nan("");   // cmd_pos: the last element's spd, rad/s (the servo does not use it)
};

enum class Kind : std::uint8_t { ctrl, vel, pos };
inline constexpr std::size_t k_kinds = 3;

// The motors' side of the command topics: what each motor was last told. Cyclone's receive thread
// writes it (every sample, none skipped: velocity mode's stop must not be lost), the physics loop
// reads it. A fake robot may lock; the control cycle it talks to may not.
template <tk::TienkungModel M>
class MotorBoard {
 public:
  static constexpr std::size_t N = M::joint_count;

  MotorBoard(bool ctrl_unlatches, tk::SpeedUnit unit)
      : ctrl_unlatches_(ctrl_unlatches), wire_per_rad_s_(tk::wire_speed_per_rad_s(unit)) {
    command_.mode.fill(praxis::JointMode::disabled);  // motors unpowered until told otherwise
    last_speed_.fill(std::nan(""));
    last_speed_wire_.fill(std::nan(""));
  }

  template <class Element>
  const char* take(tk::Limb limb, Kind kind, const Element* elements, std::uint32_t count) {
    std::lock_guard lock(mutex_);
    TopicCounts& c = counts_[index(limb, kind)];
    ++c.received;
    if (const char* why = check(limb, elements, count, c)) return why;
    ++c.applied;
    bool stiff = false;
    for (std::uint32_t k = 0; k < count; ++k) {
      const Element& e = elements[k];
      const std::size_t j = tk::joint_of_motor<M>(e.name);
      const auto i = static_cast<Eigen::Index>(j);
      const double spd = static_cast<double>(e.spd) / wire_per_rad_s_;  // the wire's unit -> rad/s
      if (offline_[j]) {  // off the bus: it never hears this
        ++c.dropped_offline;
        continue;
      }
      if constexpr (requires { e.kp; }) {  // cmd_ctrl
        stiff = stiff || e.kp > 0.0f;
        if (turning_[j] && !ctrl_unlatches_) {
          ++c.ignored_while_turning;
          continue;
        }
        turning_[j] = false;
        command_.mode[j] = praxis::JointMode::position;
        command_.kp[i] = e.kp;
        command_.kd[i] = e.kd;
        command_.q[i] = e.pos;
        command_.dq[i] = spd;
        command_.tau_ff[i] = e.tor;
      } else if constexpr (requires { e.pos; }) {  // cmd_pos
        if (turning_[j] && !ctrl_unlatches_) {
          ++c.ignored_while_turning;
          continue;
        }
        turning_[j] = false;
        command_.mode[j] = praxis::JointMode::position;
        command_.kp[i] = M::default_kp[j];
        command_.kd[i] = M::default_kd[j];
        command_.q[i] = e.pos;
        command_.dq[i] = command_.tau_ff[i] = 0.0;
        c.last_speed = spd;
      } else {  // cmd_vel
        if (e.spd == 0.0f && turning_[j]) {
          ++c.zero_speeds;
          last_stop_[j] = praxis::Clock::now();
        }
        if (e.spd != 0.0f && first_spin_[j] == praxis::TimePoint{}) first_spin_[j] = praxis::Clock::now();
        if (e.spd != 0.0f) {
          last_speed_[j] = spd;
          last_speed_wire_[j] = e.spd;
        }
        turning_[j] = e.spd != 0.0f;
        command_.mode[j] = praxis::JointMode::velocity;
        command_.dq[i] = spd;
        command_.kd[i] = std::max(1.0, M::default_kd[j]);  // the drive's speed loop
        command_.kp[i] = command_.tau_ff[i] = 0.0;
      }
    }
    if constexpr (requires { elements->kp; }) {
      c.last_all_kp_zero = !stiff;
      ++(stiff ? c.stiff_samples : c.kp_zero_samples);
    }
    max_turning_ = std::max(max_turning_, turning_count());
    return nullptr;
  }

  praxis::JointCommand<N> command() const {
    std::lock_guard lock(mutex_);
    return command_;
  }
  TopicCounts counts(tk::Limb limb, Kind kind) const {
    std::lock_guard lock(mutex_);
    return counts_[index(limb, kind)];
  }
  std::vector<std::uint16_t> turning_motors() const {
    std::lock_guard lock(mutex_);
    std::vector<std::uint16_t> out;
    for (std::size_t j = 0; j < N; ++j) {
      if (turning_[j]) out.push_back(M::motor_ids[j]);
    }
    return out;
  }
  std::size_t max_turning() const {
    std::lock_guard lock(mutex_);
    return max_turning_;
  }
  // Motors whose last command was cmd_vel (turning, or holding speed 0 in velocity mode).
  std::vector<std::uint16_t> velocity_mode_motors() const {
    std::lock_guard lock(mutex_);
    std::vector<std::uint16_t> out;
    for (std::size_t j = 0; j < N; ++j) {
      if (command_.mode[j] == praxis::JointMode::velocity) out.push_back(M::motor_ids[j]);
    }
    return out;
  }
  void set_offline(std::size_t j, bool off) {
    std::lock_guard lock(mutex_);
    offline_[j] = off;
  }
  bool turning(std::size_t j) const {
    std::lock_guard lock(mutex_);
    return turning_[j];
  }
  praxis::TimePoint first_spin(std::size_t j) const {
    std::lock_guard lock(mutex_);
    return first_spin_[j];
  }
  praxis::TimePoint last_stop(std::size_t j) const {
    std::lock_guard lock(mutex_);
    return last_stop_[j];
  }
  // The last nonzero speed the motor was sent on cmd_vel: rad/s as it took it, and as it came on
  // the wire (NaN: never).
  std::pair<double, double> last_speed(std::size_t j) const {
    std::lock_guard lock(mutex_);
    return {last_speed_[j], last_speed_wire_[j]};
  }

 private:
  static std::size_t index(tk::Limb limb, Kind kind) {
    return static_cast<std::size_t>(limb) * k_kinds + static_cast<std::size_t>(kind);
  }
  template <class Element>
  static const char* check(tk::Limb limb, const Element* elements, std::uint32_t count, TopicCounts& c) {
    const tk::LimbSpec& spec = *tk::find_limb<M>(limb);
    for (std::uint32_t k = 0; k < count; ++k) {
      const Element& e = elements[k];
      const std::size_t j = tk::joint_of_motor<M>(e.name);
      if (j == N) {
        ++c.unknown_motor;
        return "unknown motor id";
      }
      if (j < spec.first || j >= spec.first + spec.count) {
        ++c.wrong_limb;
        return "a motor of another limb";
      }
      bool finite = std::isfinite(e.spd);
      if constexpr (requires { e.kp; }) {
        finite = finite && std::isfinite(e.kp) && std::isfinite(e.kd) && std::isfinite(e.pos) && std::isfinite(e.tor);
      } else if constexpr (requires { e.pos; }) {
        finite = finite && std::isfinite(e.pos) && std::isfinite(e.cur);
      }
      if (!finite) {
        ++c.non_finite;
        return "a non-finite value";
      }
    }
    return nullptr;
  }
  std::size_t turning_count() const {
    return static_cast<std::size_t>(std::count(turning_.begin(), turning_.end(), true));
  }

  mutable std::mutex mutex_;
  const bool ctrl_unlatches_;
  const double wire_per_rad_s_;  // the wire's speed unit per rad/s
  praxis::JointCommand<N> command_;
  std::array<bool, N> turning_{};
  std::array<bool, N> offline_{};
  std::array<praxis::TimePoint, N> first_spin_{};  // the first nonzero speed it heard
  std::array<praxis::TimePoint, N> last_stop_{};   // the last speed 0 that stopped it
  std::array<double, N> last_speed_{};              // the last nonzero cmd_vel speed, rad/s
  std::array<double, N> last_speed_wire_{};         // the same, as it came on the wire
  std::size_t max_turning_ = 0;
  std::array<TopicCounts, tk::k_limb_kinds * k_kinds> counts_{};
};

// The command subscribers' value: the board holds what matters, the mailbox only wakes nobody.
struct Nothing {
  std::uint8_t unused = 0;
};

template <tk::TienkungModel M, class Wire>
struct Intake {
  MotorBoard<M>* board;
  tk::Limb limb;
  Kind kind;
  const char* operator()(const Wire& w, Nothing&) const {
    return board->take(limb, kind, w.cmds._buffer, w.cmds._length);
  }
};

template <class Header>
void stamp(Header& h, char* empty_frame) {
  const tk::RosStamp now = tk::ros_now();
  h.stamp.sec = now.sec;
  h.stamp.nanosec = now.nanosec;
  h.frame_id = empty_frame;
}

template <tk::TienkungModel M, tk::StatusLayout L>
fake_common::Report run(const Settings& s) {
  constexpr std::size_t N = M::joint_count;
  constexpr std::size_t k_limbs = M::limbs.size();
  using Wire = tk::StatusWire<L>;
  const auto faults = parse_faults<M>(s.faults);
  const auto silences = parse_silences<M>(s.silent);
  auto offline = parse_offline<M>(s.offline);

  praxis::transport::Participant participant({s.domain, s.interface});
  const tk::TopicNames topics;
  const tk::TypeNames types;
  const praxis::transport::TopicQos qos{.reliable = true, .depth = 10};
  const auto status_type = praxis::transport::with_type_name(Wire::descriptor(), types.motor_status);

  const tk::SpeedUnit unit = speed_unit(s);
  const double wire_per_rad_s = tk::wire_speed_per_rad_s(unit);
  MotorBoard<M> board(s.ctrl_unlatches, unit);
  using CtrlSub = praxis::transport::DecodingSubscriber<tk::CmdMotorCtrlWire, Nothing, Intake<M, tk::CmdMotorCtrlWire>>;
  using VelSub =
      praxis::transport::DecodingSubscriber<tk::CmdSetMotorSpeedWire, Nothing, Intake<M, tk::CmdSetMotorSpeedWire>>;
  using PosWire = bodyctrl_msgs_msg_dds__CmdSetMotorPosition_;
  using PosSub = praxis::transport::DecodingSubscriber<PosWire, Nothing, Intake<M, PosWire>>;
  using StatusPub = praxis::transport::Publisher<typename Wire::Message>;
  std::vector<std::unique_ptr<CtrlSub>> ctrl_subs;
  std::vector<std::unique_ptr<VelSub>> vel_subs;
  std::vector<std::unique_ptr<PosSub>> pos_subs;
  std::vector<std::unique_ptr<StatusPub>> status_pubs;
  for (const auto& l : M::limbs) {
    const auto& names = topics.of(l.limb);
    ctrl_subs.push_back(std::make_unique<CtrlSub>(
        participant, names.cmd_ctrl,
        praxis::transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdMotorCtrl__desc, types.motor_ctrl),
        Intake<M, tk::CmdMotorCtrlWire>{&board, l.limb, Kind::ctrl}, qos));
    vel_subs.push_back(std::make_unique<VelSub>(
        participant, names.cmd_vel,
        praxis::transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdSetMotorSpeed__desc, types.motor_speed),
        Intake<M, tk::CmdSetMotorSpeedWire>{&board, l.limb, Kind::vel}, qos));
    const std::string pos_topic = "rt/" + std::string(tk::to_string(l.limb)) + "/cmd_pos";
    pos_subs.push_back(std::make_unique<PosSub>(
        participant, pos_topic,
        praxis::transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdSetMotorPosition__desc,
                                    "bodyctrl_msgs::msg::dds_::CmdSetMotorPosition_"),
        Intake<M, PosWire>{&board, l.limb, Kind::pos}, qos));
    status_pubs.push_back(std::make_unique<StatusPub>(participant, names.status, status_type, qos));
  }
  praxis::transport::Publisher<tk::ImuWire> imu_pub(
      participant, topics.imu, praxis::transport::with_type_name(&bodyctrl_msgs_msg_dds__Imu__desc, types.imu), qos);

  const auto t0 = praxis::Clock::now();
  praxis::mock::MockOptions mock_options;
  mock_options.state_period = std::chrono::milliseconds(1);
  praxis::mock::MockRobot<M> robot(mock_options, t0);
  robot.set_joint_positions(M::stand_pose);

  // The robot's own motion controller: it drives the joints instead of the limb commands.
  const fake_tienkung::HricSettings hric_options = hric_settings(s);
  std::optional<fake_tienkung::HricController<M>> hric;
  std::optional<fake_tienkung::HricEndpoints<M>> hric_io;
  if (s.hric) {
    hric.emplace(hric_options, t0);
    hric_io.emplace(participant, *hric, hric_options, t0);
  }

  std::printf("praxis-fake-tienkung: %s on DDS domain %u, interface %s, MotorStatus layout %s (%zu bytes per "
              "motor), speeds on the wire in %s%s\n",
              std::string(M::name).c_str(), s.domain, s.interface.c_str(), std::string(tk::to_string(L)).c_str(),
              Wire::element_bytes, s.speed_unit.c_str(),
              s.hric ? (", motion controller (HRIC) in " + std::string(tk::to_string(hric_options.start)) +
                        ", service wire " + std::string(tk::to_string(hric_options.wire)) +
                        (hric_options.console_control ? ", a program steers" : ", the remote holds the robot"))
                           .c_str()
                     : "");
  std::fflush(stdout);

  std::array<typename Wire::Element, tk::k_max_limb_motors> elements{};
  char empty_frame[1] = "";
  std::array<std::uint64_t, k_limbs> status_published{};
  std::uint64_t imu_published = 0, ticks = 0;
  praxis::RobotState<N> state;
  robot.read(state, t0);
  std::array<double, N> peak_speed{};  // per joint, the fastest it turned in velocity mode (rad/s)

  auto next = t0;
  while (!fake_common::stop_requested()) {
    next += std::chrono::milliseconds(1);
    std::this_thread::sleep_until(next);
    const auto now = praxis::Clock::now();
    const double t = praxis::to_seconds(now - t0);
    if (s.duration > 0 && t > s.duration) break;
    // Motors going off the bus and coming back.
    std::array<bool, N> off{};
    for (Offline& o : offline) {
      const std::size_t j = tk::joint_of_motor<M>(o.motor);
      double start = o.at;
      if (o.after_spin) {
        const auto spin = board.first_spin(j);
        start = spin == praxis::TimePoint{} ? std::nan("") : praxis::to_seconds(spin - t0) + o.at;
      }
      const bool now_off = t >= start && t < start + o.seconds;
      if (now_off && std::isnan(o.from)) {
        o.from = t;
        board.set_offline(j, true);
      } else if (!now_off && !std::isnan(o.from) && std::isnan(o.to)) {
        o.to = t;
        o.turning_when_back = board.turning(j);
        board.set_offline(j, false);
      }
      if (!std::isnan(o.to) && std::isnan(o.stopped_after_back) && o.turning_when_back && !board.turning(j)) {
        o.stopped_after_back = praxis::to_seconds(board.last_stop(j) - t0) - o.to;
      }
      off[j] = off[j] || now_off;
    }
    // With --hric the robot's controller drives the joints; the limb commands move nothing.
    const praxis::JointCommand<N> limb_command = board.command();
    robot.write(hric ? hric->command(now, state.q) : limb_command, now);
    robot.read(state, now);
    if (!hric) {
      for (std::size_t j = 0; j < N; ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        if (limb_command.mode[j] == praxis::JointMode::velocity && limb_command.dq[i] != 0.0) {
          peak_speed[j] = std::max(peak_speed[j], std::abs(state.dq[i]));
        }
      }
    }
    const std::uint64_t tick = ticks++;
    const bool slow_tick = tick % 2 == 0;  // 500 Hz: every limb but the legs, and the IMU
    if (hric_io && tick % 10 == 0) hric_io->publish(now);  // MotionStatus at 100 Hz

    for (std::size_t k = 0; k < k_limbs; ++k) {
      const tk::LimbSpec& limb = M::limbs[k];
      if (limb.limb != tk::Limb::leg && !slow_tick) continue;
      const bool silent = std::any_of(silences.begin(), silences.end(),
                                      [&](const Silence& x) { return x.limb == limb.limb && t >= x.at; });
      if (silent) continue;
      if constexpr (L == tk::StatusLayout::without_error) {
        // This layout cannot say "offline": a limb with a motor off the bus is not published.
        bool limb_off = false;
        for (std::size_t n = 0; n < limb.count; ++n) limb_off = limb_off || off[limb.first + n];
        if (limb_off) continue;
      }
      typename Wire::Message msg{};
      stamp(msg.header, empty_frame);
      for (std::size_t n = 0; n < limb.count; ++n) {
        const std::size_t j = limb.first + n;
        const auto i = static_cast<Eigen::Index>(j);
        auto& e = elements[n];
        e = {};
        e.name = M::motor_ids[j];
        e.pos = static_cast<float>(state.q[i]);
        e.speed = static_cast<float>(state.dq[i] * wire_per_rad_s);  // rad/s -> the wire's unit
        e.current = M::ct_scale[j] > 0.0 ? static_cast<float>(state.tau[i] / M::ct_scale[j]) : 0.0f;
        e.temperature = 36.0f;
        if constexpr (L != tk::StatusLayout::without_error) {
          for (const Fault& f : faults) {
            if (f.motor == e.name && t >= f.at) e.error = f.code;  // the latest one in force wins
          }
          if (off[j]) {  // nothing measured: no speed, the manual's "device offline"
            e.speed = 0.0f;
            e.current = 0.0f;
            e.error = static_cast<std::uint32_t>(tk::MotorError::offline);
          }
        }
        if constexpr (L == tk::StatusLayout::with_voltage) e.voltage = 48.0f;
      }
      msg.status._buffer = elements.data();
      msg.status._length = msg.status._maximum = static_cast<std::uint32_t>(limb.count);
      msg.status._release = false;
      if (status_pubs[k]->write(msg)) ++status_published[k];
    }

    if (slow_tick) {
      tk::ImuWire imu{};
      stamp(imu.header, empty_frame);
      const auto& q = state.imu.orientation;
      imu.orientation = {q.x(), q.y(), q.z(), q.w()};
      imu.angular_velocity = {state.imu.gyro.x(), state.imu.gyro.y(), state.imu.gyro.z()};
      imu.linear_acceleration = {state.imu.accelerometer.x(), state.imu.accelerometer.y(),
                                 state.imu.accelerometer.z()};
      imu.euler = {state.imu.rpy.x(), state.imu.rpy.y(), state.imu.rpy.z()};
      if (imu_pub.write(imu)) ++imu_published;
    }
  }

  // Cyclone's threads stop calling the board before it is read for the report.
  ctrl_subs.clear();
  vel_subs.clear();
  pos_subs.clear();
  const std::uint64_t hric_status_published = hric_io ? hric_io->status_published() : 0;
  hric_io.reset();  // the service thread and the cmd_vel reader stop calling the controller

  nlohmann::json report;
  report["robot"] = std::string(M::name);
  report["layout"] = std::string(tk::to_string(L));
  report["speed_unit"] = s.speed_unit;
  report["seconds"] = praxis::to_seconds(praxis::Clock::now() - t0);
  report["imu_published"] = imu_published;
  auto& limbs = report["limbs"] = nlohmann::json::object();
  for (std::size_t k = 0; k < k_limbs; ++k) {
    const tk::Limb l = M::limbs[k].limb;
    const auto& names = topics.of(l);
    auto counts = [&](Kind kind) {
      const TopicCounts c = board.counts(l, kind);
      nlohmann::json j{{"received", c.received},
                       {"applied", c.applied},
                       {"rejected",
                        {{"unknown_motor_id", c.unknown_motor},
                         {"wrong_limb", c.wrong_limb},
                         {"non_finite", c.non_finite}}}};
      if (kind != Kind::vel) j["ignored_while_turning"] = c.ignored_while_turning;
      if (kind == Kind::ctrl) {
        j["kp_zero_samples"] = c.kp_zero_samples;
        j["stiff_samples"] = c.stiff_samples;
        j["last_all_kp_zero"] = c.last_all_kp_zero;
      }
      if (kind == Kind::vel) j["zero_speeds"] = c.zero_speeds;
      if (kind == Kind::pos) {
        j["last_speed"] = std::isnan(c.last_speed) ? nlohmann::json() : nlohmann::json(c.last_speed);
      }
      j["dropped_offline"] = c.dropped_offline;
      return j;
    };
    limbs[std::string(tk::to_string(l))] = {{"status_topic", names.status},
                                            {"status_published", status_published[k]},
                                            {"cmd_ctrl", counts(Kind::ctrl)},
                                            {"cmd_vel", counts(Kind::vel)},
                                            {"cmd_pos", counts(Kind::pos)}};
  }
  report["turning_at_exit"] = board.turning_motors();
  report["max_turning"] = board.max_turning();
  report["velocity_mode_at_exit"] = board.velocity_mode_motors();
  // Per motor sent a nonzero speed on cmd_vel: the last such speed as the motor took it (rad/s) and
  // as it came on the wire (speed_unit), and the fastest it turned (rad/s, and as MotorStatus.speed
  // carried it).
  auto& speeds = report["speeds"] = nlohmann::json::array();
  for (std::size_t j = 0; j < N; ++j) {
    const auto [commanded, commanded_wire] = board.last_speed(j);
    if (std::isnan(commanded)) continue;
    speeds.push_back({{"motor", M::motor_ids[j]},
                      {"commanded", commanded},
                      {"commanded_wire", commanded_wire},
                      {"peak_speed", peak_speed[j]},
                      {"peak_speed_wire", static_cast<float>(peak_speed[j] * wire_per_rad_s)}});
  }
  auto& windows = report["offline"] = nlohmann::json::array();
  const auto number_or_null = [](double x) { return std::isnan(x) ? nlohmann::json() : nlohmann::json(x); };
  for (const Offline& o : offline) {
    windows.push_back({{"motor", o.motor},
                       {"from", number_or_null(o.from)},
                       {"to", number_or_null(o.to)},
                       {"turning_when_back", o.turning_when_back},
                       {"stopped_after_back", number_or_null(o.stopped_after_back)}});
  }
  auto& injected = report["faults"] = nlohmann::json::array();
  for (const Fault& f : faults) injected.push_back({{"t", f.at}, {"motor", f.motor}, {"code", f.code}});
  auto& silenced = report["silent_limbs"] = nlohmann::json::array();
  for (const Silence& x : silences) silenced.push_back({{"t", x.at}, {"limb", std::string(tk::to_string(x.limb))}});
  report["final_q"] = std::vector<double>(robot.q().data(), robot.q().data() + N);
  if (hric) {
    auto& h = report["hric"] = hric->report();
    h["status_published"] = hric_status_published;
    // Every limb command sample received while the controller ran: the whole run.
    std::uint64_t limb_commands = 0;
    for (const auto& l : M::limbs) {
      for (const Kind kind : {Kind::ctrl, Kind::vel, Kind::pos}) limb_commands += board.counts(l.limb, kind).received;
    }
    h["limb_commands_while_hric"] = limb_commands;
  }
  return {report, std::to_string(board.turning_motors().size()) + " motors still turning"};
}

template <tk::TienkungModel M>
fake_common::Report run_layout(const Settings& s) {
  if (s.layout == "without_error") return run<M, tk::StatusLayout::without_error>(s);
  if (s.layout == "with_voltage") return run<M, tk::StatusLayout::with_voltage>(s);
  return run<M, tk::StatusLayout::with_error>(s);
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const fake_common::Fake fake{
      .program = "praxis-fake-tienkung",
      .description = "praxis-fake-tienkung: a Walker Tienkung body service impersonated on DDS, with mock dynamics",
      .robots = {"pro", "lite"},
      .robot = "pro",
      .domain = 0,
      .domain_help = "DDS domain id (ROS_DOMAIN_ID; the robot's is unverified, ROS' default 0)"};
  const auto add_options = [&s](CLI::App& app) {
    app.add_option("--layout", s.layout, "the MotorStatus layout sent on rt/<limb>/status")
        ->check(CLI::IsMember({"without_error", "with_error", "with_voltage"}));
    app.add_option("--fault", s.faults,
                   "from T seconds on, motor MOTOR_ID reports error CODE (33072 offline, 1 over-temperature, ...): "
                   "T:MOTOR_ID:CODE");
    app.add_option("--silent-limb", s.silent, "from T seconds on, rt/LIMB/status is not published: T:LIMB");
    app.add_option("--offline", s.offline,
                   "motor MOTOR_ID off the bus for SECONDS (status error 33072, commands to it dropped, it keeps its "
                   "last command), from WHEN: seconds after the start, or spin+S, S seconds after it was first sent a "
                   "nonzero speed: WHEN:MOTOR_ID:SECONDS");
    app.add_flag("--ctrl-unlatches", s.ctrl_unlatches,
                 "a cmd_ctrl / cmd_pos releases a motor latched in velocity mode (undocumented; by default it does not)");
    app.add_option("--speed-unit", s.speed_unit,
                   "the unit of every spd / speed on the wire (UNVERIFIED on the robot): incoming spd is converted "
                   "to rad/s, MotorStatus.speed sent in it")
        ->check(CLI::IsMember({"rad_per_s", "rpm"}));
    auto* hric = app.add_flag("--hric", s.hric,
                              "run the robot's own motion controller (HRIC): the SetMotionMode service, "
                              "rt/hric/motion/status, rt/hric/robot/cmd_vel; it drives every joint");
    app.add_option("--hric-mode", s.hric_mode, "the motion controller's walk mode at start")
        ->check(CLI::IsMember({"stand", "walk", "zero", "stop"}))
        ->needs(hric);
    app.add_option("--service-wire", s.service_wire,
                   "the SetMotionMode envelope served: fastrtps (the payload alone) or cyclonedds (client id and "
                   "sequence number ahead of it)")
        ->check(CLI::IsMember({"fastrtps", "cyclonedds"}))
        ->needs(hric);
    app.add_option("--console-control", s.console_control,
                   "MotionStatus.is_console_control: true, a program may steer; false, the remote holds the robot "
                   "(every request refused with error 2, cmd_vel ignored)")
        ->needs(hric);
    app.add_option("--hric-transition", s.hric_transition,
                   "seconds a stand-to-walk, walk-to-stand or zero-to-stand transition takes")
        ->check(CLI::NonNegativeNumber)
        ->needs(hric);
    app.add_option("--hric-silent-after", s.hric_silent_after,
                   "from S seconds on, no MotionStatus is published (the limbs keep publishing)")
        ->check(CLI::NonNegativeNumber)
        ->needs(hric);
    app.add_option("--hric-remote-at", s.hric_remote_at,
                   "from S seconds on, the remote holds the robot (is_console_control false)")
        ->check(CLI::NonNegativeNumber)
        ->needs(hric);
  };
  return fake_common::fake_robot_main(argc, argv, fake, s, add_options, [&s] {
    if (s.robot == "lite") return run_layout<praxis::tienkung::Lite>(s);
    return run_layout<praxis::tienkung::Pro>(s);
  });
}
