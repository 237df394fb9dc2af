#pragma once
// The Tienkung topic table on the generic DDS backend (hardware/dds_backend.hpp), and its options.
//
// State: one rt/<limb>/status (MotorStatusMsg) per limb of the model, in the model's limb order,
// then rt/imu/status (Imu). The legs' status is the primary topic: it is the fastest (about
// 1000 Hz against 500 Hz for arm, head and waist; docs/backends/tienkung.md, "Wire facts and their
// sources"), so waking on it gives the control loop the freshest data, and the legs are the joints
// a standing robot cannot do without. The other topics are merged in as they arrive; a limb whose
// status has been silent for longer than `limb_timeout` while the legs spoke has its joints reported
// offline, and an IMU silent for longer than `imu_timeout` while the legs spoke makes the state
// invalid (both make the runtime damp). "While the legs spoke": silence is judged once a read has
// taken every topic's latest sample (complete_state), and counted from the end of the legs' own
// last gap longer than the timeout, because when the whole link pauses (a network or a scheduler
// hiccup the runtime's stale-state timeout tolerates) the legs' status arrives a little before the
// others', and judging the others then would fault a robot whose every topic is alive.
// Commands: per limb, rt/<limb>/cmd_vel (CmdSetMotorSpeed), rt/<limb>/cmd_ctrl (CmdMotorCtrl) and,
// with BackendOptions::position_command = servo, rt/<limb>/cmd_pos (CmdSetMotorPosition),
// each sent only when the command has something for it (codec.hpp). A write sends them in that
// order: a limb's cmd_vel leaves before its cmd_ctrl and cmd_pos, so a joint leaving velocity mode
// gets its speed 0 before the command that replaces it (a motor latched in velocity mode is not
// released by a cmd_ctrl; the damping that follows a speed 0 then reaches a motor that took it).
//
// Topic names (docs/backends/tienkung.md, "Wire facts and their sources": ROS 2 topic /arm/status
// is DDS topic rt/arm/status) and DDS type names (bodyctrl_msgs::msg::dds_::<Type>_, the rmw
// mapping) are options with those defaults. The QoS (RELIABLE + VOLATILE, rclcpp's depth 10) is the
// observed one; ROS_DOMAIN_ID 0 is ROS' default and UNVERIFIED on the robot.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include <praxis/idl/bodyctrl_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::tienkung {

struct LimbTopicNames {
  std::string status, cmd_ctrl, cmd_vel, cmd_pos;
};

struct TopicNames {
  std::array<LimbTopicNames, k_limb_kinds> limbs = [] {
    std::array<LimbTopicNames, k_limb_kinds> a;
    for (std::size_t k = 0; k < k_limb_kinds; ++k) {
      const std::string base = "rt/" + std::string(to_string(static_cast<Limb>(k))) + "/";
      a[k] = {base + "status", base + "cmd_ctrl", base + "cmd_vel", base + "cmd_pos"};
    }
    return a;
  }();
  std::string imu = "rt/imu/status";
  std::string set_zero = "rt/arm/cmd_set_zero";
  [[nodiscard]] const LimbTopicNames& of(Limb l) const { return limbs[static_cast<std::size_t>(l)]; }
  [[nodiscard]] LimbTopicNames& of(Limb l) { return limbs[static_cast<std::size_t>(l)]; }
};

struct TypeNames {
  std::string motor_status = "bodyctrl_msgs::msg::dds_::MotorStatusMsg_";  // whatever the layout
  std::string motor_ctrl = "bodyctrl_msgs::msg::dds_::CmdMotorCtrl_";
  std::string motor_speed = "bodyctrl_msgs::msg::dds_::CmdSetMotorSpeed_";
  std::string motor_position = "bodyctrl_msgs::msg::dds_::CmdSetMotorPosition_";
  std::string imu = "bodyctrl_msgs::msg::dds_::Imu_";
  std::string string = "std_msgs::msg::dds_::String_";
};

struct BackendOptions {
  transport::DdsOptions dds{};  // ROS_DOMAIN_ID 0 (UNVERIFIED), on the interface that reaches the robot
  Duration link_timeout = std::chrono::milliseconds(100);  // no leg status this long: link down
  Duration limb_timeout = std::chrono::milliseconds(50);   // another limb silent this long: offline
  // The IMU silent this long: the state's IMU becomes NaN, an invalid state the runtime damps on
  // (no source gives the IMU's rate: UNVERIFIED, generous; docs/backends/tienkung.md, "Wire facts
  // and their sources").
  Duration imu_timeout = std::chrono::milliseconds(100);
  TopicNames topics{};
  TypeNames types{};
  transport::TopicQos state_qos{.reliable = true, .depth = 10};
  transport::TopicQos command_qos{.reliable = true, .depth = 10};
  // JointMode::position on cmd_ctrl (hybrid, praxis' gains) or on cmd_pos (the motor's servo).
  PositionCommand position_command = PositionCommand::hybrid;
  ServoLimits servo{};  // speed in rad/s, converted to speed_unit on the wire
  SpeedUnit speed_unit = SpeedUnit::rad_per_s;  // UNVERIFIED (codec.hpp)
  // Upper body only: the arm, head and waist limbs are commanded, the leg topics never written (the
  // robot's own motion controller keeps the legs). The legs' status is still read.
  bool upper_body_only = false;
  // A joint that left velocity mode is sent speed 0 on every write until its status reads
  // |speed| < stopped_speed (rad/s), online and error-free for stop_confirm_time, after a speed 0
  // that left while it read online (velocity_stops.hpp). release() waits for that up to its
  // timeout, the destructor up to stop_timeout.
  float stopped_speed = 0.05f;
  Duration stop_confirm_time = std::chrono::milliseconds(20);
  Duration stop_timeout = std::chrono::milliseconds(500);
  // ArmZeroing (arm_zeroing.hpp): refused while the backend wrote a command this recently, and how
  // long it waits for the body service to subscribe rt/arm/cmd_set_zero.
  Duration zeroing_quiet_period = std::chrono::seconds(1);
  Duration zeroing_match_timeout = std::chrono::seconds(2);
};

template <TienkungModel M, StatusLayout Layout>
struct TienkungTopics {
  using model = M;
  using Options = BackendOptions;
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::size_t k_limbs = M::limbs.size();
  static constexpr std::size_t k_imu_topic = k_limbs;  // the state table's last entry
  static constexpr StatusLayout layout = Layout;
  // Hybrid mode carries position, torque and disabled (zero gains); cmd_vel carries velocity.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  struct Context {
    explicit Context(const Options& o)
        : limb_timeout(o.limb_timeout),
          imu_timeout(o.imu_timeout),
          position(o.position_command),
          servo(o.servo),
          speed_scale(wire_speed_per_rad_s(o.speed_unit)),
          upper_body_only(o.upper_body_only),
          stops(StopRule{o.stopped_speed, o.stop_confirm_time, o.limb_timeout}) {}
    Duration limb_timeout;
    Duration imu_timeout;
    PositionCommand position;
    ServoLimits servo;
    float speed_scale;  // wire units per rad/s
    bool upper_body_only;
    // Reader side: when each state topic last delivered a valid sample (limbs, then the IMU).
    std::array<TimePoint, k_limbs + 1> last_seen{};
    // Reader side: the legs' last status, and the ends of their last gap longer than limb_timeout
    // and imu_timeout: silence of the others is counted from there (mark_silent_limbs).
    TimePoint legs_seen{};
    TimePoint legs_back_limbs{};
    TimePoint legs_back_imu{};
    // Velocity mode's stops: the statuses observed on the reader side, each joint's phase on the
    // writer side (velocity_stops.hpp).
    VelocityStops<N> stops;
  };

  template <std::size_t I>
  static bool decode_limb(const LimbStatus& in, TimePoint received, RobotState<N>& out, Context& c) {
    if (!decode_limb_status<M, M::limbs[I].limb>(in, out)) return false;
    c.last_seen[I] = received;
    if (c.speed_scale != 1.0f) {
      constexpr const LimbSpec& limb = M::limbs[I];
      for (std::size_t j = limb.first; j < limb.first + limb.count; ++j) out.dq[static_cast<Eigen::Index>(j)] /= c.speed_scale;
    }
    for (const MotorReading& m : in.motors.view()) {
      c.stops.observe(joint_of_motor<M>(m.name), m.speed / c.speed_scale, m.error, received);
    }
    if constexpr (I == 0) {
      const bool first = c.legs_seen == TimePoint{};
      if (first || received - c.legs_seen > c.limb_timeout) c.legs_back_limbs = received;
      if (first || received - c.legs_seen > c.imu_timeout) c.legs_back_imu = received;
      c.legs_seen = received;
    }
    return true;
  }
  static bool decode_imu_topic(const ImuReading& in, TimePoint received, RobotState<N>& out, Context& c) {
    if (!decode_imu<N>(in, out)) return false;
    c.last_seen[k_imu_topic] = received;
    return true;
  }

  // After a read that brought a leg status (DdsBackend::read, with every topic's latest sample in):
  // the state is as of the legs' status, `legs`.
  static void complete_state(TimePoint legs, RobotState<N>& out, const Context& c) { mark_silent_limbs(legs, out, c); }

  template <std::size_t I>
  static bool encode_ctrl(const JointCommand<N>& command, TimePoint, Context& c, LimbCtrl& out) {
    if (c.upper_body_only && M::limbs[I].limb == Limb::leg) return false;
    // After encode_speed<I> of the same write (table order): a joint whose first speed 0 just left
    // waits a write for its cmd_ctrl.
    return encode_limb_ctrl<M, M::limbs[I].limb>(command, out, c.position, c.speed_scale, &c.stops);
  }
  template <std::size_t I>
  static bool encode_position(const JointCommand<N>& command, TimePoint, Context& c, LimbPosition& out) {
    if (c.upper_body_only && M::limbs[I].limb == Limb::leg) return false;
    return c.position == PositionCommand::servo &&
           encode_limb_position<M, M::limbs[I].limb>(command, c.servo, out, c.speed_scale);
  }
  template <std::size_t I>
  static bool encode_speed(const JointCommand<N>& command, TimePoint, Context& c, LimbSpeed& out) {
    // The statuses' arrival times are Clock's; the cycle's `now` may be a simulated clock.
    if (c.upper_body_only && M::limbs[I].limb == Limb::leg) return false;
    return encode_limb_speed<M, M::limbs[I].limb>(command, c.stops, Clock::now(), out, c.speed_scale);
  }

  static auto state_topics(const Options& o) {
    auto limbs = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple{limb_status_topic<I>(o)...};
    }(std::make_index_sequence<k_limbs>{});
    DecodedStateTopic<N, Context, ImuWire, ImuReading> imu;
    imu.name = o.topics.imu;
    imu.descriptor = transport::with_type_name(&bodyctrl_msgs_msg_dds__Imu__desc, o.types.imu);
    imu.decode = &decode_imu_topic;
    imu.to_value = &imu_from_wire;
    imu.qos = o.state_qos;
    return std::tuple_cat(std::move(limbs), std::tuple{std::move(imu)});
  }

  static auto command_topics(const Options& o) {
    // A limb's cmd_vel before its cmd_ctrl: DdsBackend::write() sends in table order.
    auto speed_and_hybrid = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple_cat(std::tuple{speed_topic<I>(o), ctrl_topic<I>(o)}...);
    }(std::make_index_sequence<k_limbs>{});
    auto servo = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple{position_topic<I>(o)...};
    }(std::make_index_sequence<k_limbs>{});
    return std::tuple_cat(std::move(speed_and_hybrid), std::move(servo));
  }

  // Command-table indices of limb I's topics (cmd_pos after all the others).
  static constexpr std::size_t speed_topic_index(std::size_t limb_index) { return 2 * limb_index; }
  static constexpr std::size_t ctrl_topic_index(std::size_t limb_index) { return 2 * limb_index + 1; }
  static constexpr std::size_t position_topic_index(std::size_t limb_index) { return 2 * k_limbs + limb_index; }

 private:
  using StatusMessage = typename StatusWire<Layout>::Message;

  template <std::size_t I>
  static auto limb_status_topic(const Options& o) {
    constexpr Limb limb = M::limbs[I].limb;
    DecodedStateTopic<N, Context, StatusMessage, LimbStatus> t;
    t.name = o.topics.of(limb).status;
    t.descriptor = transport::with_type_name(StatusWire<Layout>::descriptor(), o.types.motor_status);
    t.decode = &decode_limb<I>;
    t.to_value = &limb_status_from_wire<M, limb, Layout>;
    t.qos = o.state_qos;
    return t;
  }
  template <std::size_t I>
  static auto ctrl_topic(const Options& o) {
    EncodedCommandTopic<N, Context, CmdMotorCtrlWire, LimbCtrl, CtrlToWire> t;
    t.name = o.topics.of(M::limbs[I].limb).cmd_ctrl;
    t.descriptor = transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdMotorCtrl__desc, o.types.motor_ctrl);
    t.encode = &encode_ctrl<I>;
    t.qos = o.command_qos;
    return t;
  }
  template <std::size_t I>
  static auto position_topic(const Options& o) {
    EncodedCommandTopic<N, Context, CmdSetMotorPositionWire, LimbPosition, PositionToWire> t;
    t.name = o.topics.of(M::limbs[I].limb).cmd_pos;
    t.descriptor =
        transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdSetMotorPosition__desc, o.types.motor_position);
    t.encode = &encode_position<I>;
    t.qos = o.command_qos;
    return t;
  }
  template <std::size_t I>
  static auto speed_topic(const Options& o) {
    EncodedCommandTopic<N, Context, CmdSetMotorSpeedWire, LimbSpeed, SpeedToWire> t;
    t.name = o.topics.of(M::limbs[I].limb).cmd_vel;
    t.descriptor = transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdSetMotorSpeed__desc, o.types.motor_speed);
    t.encode = &encode_speed<I>;
    t.qos = o.command_qos;
    return t;
  }

  // Every other limb silent for longer than limb_timeout while the legs spoke (or never heard) has
  // its joints reported offline until its status speaks again; an IMU silent for longer than
  // imu_timeout while the legs spoke (or never heard) leaves NaN in the state's IMU (RobotState has
  // no IMU health: an invalid state is how the runtime learns it) until the IMU speaks again.
  static void mark_silent_limbs(TimePoint now, RobotState<N>& out, const Context& c) {
    for (std::size_t k = 1; k < k_limbs; ++k) {
      const bool silent =
          c.last_seen[k] == TimePoint{} || now - std::max(c.last_seen[k], c.legs_back_limbs) > c.limb_timeout;
      if (!silent) continue;
      const LimbSpec& limb = M::limbs[k];
      for (std::size_t j = limb.first; j < limb.first + limb.count; ++j) out.health[j].faults |= k_joint_offline;
    }
    const TimePoint imu = c.last_seen[k_imu_topic];
    if (imu == TimePoint{} || now - std::max(imu, c.legs_back_imu) > c.imu_timeout) {  // never heard: silent
      const double nan = std::numeric_limits<double>::quiet_NaN();
      out.imu.orientation = Quaternion(nan, nan, nan, nan);
      out.imu.gyro.setConstant(nan);
      out.imu.accelerometer.setConstant(nan);
      out.update_derived();
    }
  }
};

// The state topics (every limb's status, then the IMU) a backend on them has had no valid sample on
// yet, comma-separated.
template <TienkungModel M, class Backend>
[[nodiscard]] std::string silent_state_topics(const Backend& backend, const TopicNames& names) {
  constexpr std::size_t limbs = M::limbs.size();
  std::string out;
  const auto add = [&](std::size_t i) {
    out += (out.empty() ? "" : ", ") + (i < limbs ? names.of(M::limbs[i].limb).status : names.imu);
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((backend.template states_accepted<I>() == 0 ? add(I) : void()), ...);
  }(std::make_index_sequence<limbs + 1>{});
  return out;
}

// Taking control waits for every limb and the IMU, not the legs alone: a limb not heard yet reads
// offline, and the runtime's first cycle would fault on it. Reads (merging what arrived) until every
// state topic delivered or `deadline`; returns the silent ones, and sets `consumed` when a read took
// a state the caller's wait_for_state() had kept for the loop.
template <TienkungModel M, class Backend>
[[nodiscard]] std::string wait_for_every_state_topic(Backend& backend, const TopicNames& names, TimePoint deadline,
                                                     bool& consumed) {
  std::string missing = silent_state_topics<M>(backend, names);
  while (!missing.empty() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    RobotState<M::joint_count> scratch{};
    consumed = backend.read(scratch, Clock::now()) || consumed;
    missing = silent_state_topics<M>(backend, names);
  }
  return missing;
}

}  // namespace praxis::tienkung
