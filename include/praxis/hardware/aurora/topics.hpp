#pragma once
// An Aurora robot on the generic DDS backend (hardware/dds_backend.hpp): its topic names, DDS type
// names and QoS as options, and the topic table.
//
// State topics, in table order: robot_control_group_state (primary: q, dq, tau and per-group motion
// state), base_data_pub (IMU), contact_data_pub (kept for readers outside the cycle),
// aurora_state and robot_stand_pose_state (the FSM, for taking control and for RobotStatus).
// Command topics: robot_motor_cfg_group_cmd (the command's kp / kd, only when they changed, at most
// every gain_period) and robot_control_group_cmd (complete groups). Both are sent only while the
// robot reports the control state acquire() established (UserCmd or UpperBodyUserCmd): outside it
// Aurora ignores them, and after the robot left it (joystick, its own safety) praxis must not
// pretend to be in control.
//
// Facts (docs/backends/aurora.md, "Wire facts and their sources": transport, topic and type
// names): bare topic names; the optional prefix "<robot_name>/<serial>/" on every topic when a
// serial number is given; every endpoint of Fourier's client is best effort + volatile, keep last
// 1; domain 123. Type names are UNVERIFIED: the DDS reference lists fourier_msgs::msg::<Type> (the
// default here), client 0.1.0 registered each topic's name as its type name
// (TypeNames::topic_names_as_types), and a ROS-compatible mode would use rt/ topics and
// fourier_msgs::msg::dds_::<Type>_. Capture the robot's discovery data before trusting any of them.

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::aurora {

struct TopicNames {
  std::string aurora_state = "aurora_state";
  std::string stand_pose = "robot_stand_pose_state";
  std::string base_data = "base_data_pub";
  std::string contact = "contact_data_pub";
  std::string group_state = "robot_control_group_state";
  std::string whole_body_request = "whole_body_fsm_state_change_cmd";
  std::string upper_body_request = "upper_body_fsm_state_change_cmd";
  std::string velocity_source = "velocity_source_cmd";
  std::string velocity = "velocity_cmd";
  std::string group_command = "robot_control_group_cmd";
  std::string motor_config = "robot_motor_cfg_group_cmd";

  // Aurora's rule: with a serial number, every topic is "<robot_name>/<serial>/<topic>"; without
  // one, the names stay bare.
  [[nodiscard]] TopicNames prefixed(const std::string& robot_name, const std::string& serial) const {
    if (serial.empty()) return *this;
    const std::string p = robot_name + "/" + serial + "/";
    TopicNames t = *this;
    for (std::string* s : {&t.aurora_state, &t.stand_pose, &t.base_data, &t.contact, &t.group_state,
                           &t.whole_body_request, &t.upper_body_request, &t.velocity_source, &t.velocity,
                           &t.group_command, &t.motor_config}) {
      *s = p + *s;
    }
    return t;
  }
};

// DDS type names (UNVERIFIED, see the file comment). Empty: the IDL's own name, which is the
// documented one.
struct TypeNames {
  std::string aurora_state = "fourier_msgs::msg::AuroraState";
  std::string stand_pose = "fourier_msgs::msg::RobotStandPoseState";
  std::string base_data = "fourier_msgs::msg::BaseData";
  std::string contact = "fourier_msgs::msg::ContactData";
  std::string group_state = "fourier_msgs::msg::RobotControlGroupState";
  std::string whole_body_request = "fourier_msgs::msg::WholeBodyFsmStateChangeCmd";
  std::string upper_body_request = "fourier_msgs::msg::UpperBodyFsmStateChangeCmd";
  std::string velocity_source = "fourier_msgs::msg::VelocitySourceCmd";
  std::string velocity = "fourier_msgs::msg::VelocityCmd";
  std::string group_command = "fourier_msgs::msg::RobotControlGroupCmd";
  std::string motor_config = "fourier_msgs::msg::RobotMotorCfgGroupCmd";

  // What Fourier's client 0.1.0 registered: each topic's (unprefixed) name as its type name.
  [[nodiscard]] static TypeNames topic_names_as_types(const TopicNames& t) {
    return {t.aurora_state,       t.stand_pose,         t.base_data,       t.contact,
            t.group_state,        t.whole_body_request, t.upper_body_request, t.velocity_source,
            t.velocity,           t.group_command,      t.motor_config};
  }
};

// How the names in WireOptions become the names on the wire (all UNVERIFIED; docs/backends/aurora.md,
// "Wire facts and their sources", topic and type names):
//   as_given      topics and types exactly as set (default: bare topic names, the IDL's type names,
//                 as Aurora's DDS reference documents them)
//   topic_names   each topic's own name as its type name, as Fourier's client 0.1.0 registers them
//   ros2          ROS 2 mangling (Fast DDS-Gen -typeros2): topics "rt/<name>", types
//                 "fourier_msgs::msg::dds_::<Type>_"
enum class NameStyle : std::uint8_t { as_given, topic_names, ros2 };

struct WireOptions {
  TopicNames topics{};  // after the prefix, if any (TopicNames::prefixed)
  TypeNames types{};
  NameStyle naming = NameStyle::as_given;
  // Put before every topic name (after the style's own "rt/"), e.g. "gr3/": a robot name without a
  // serial, as a third-party log shows client 0.1.8 doing. Empty: none.
  std::string topic_prefix;
  transport::TopicQos qos{.reliable = false, .depth = 1, .transient_local = false};  // Fourier's client: best effort, volatile
  // The command's kp / kd go to robot_motor_cfg_group_cmd when they change, at most this often
  // (Aurora reports its motor configuration at 1 Hz; what rate it accepts is UNVERIFIED). false: the
  // gains acquire() sent stay, whatever the commands say.
  bool follow_command_gains = true;
  Duration gain_period = std::chrono::milliseconds(50);
};

// The names on the wire after `naming` and `topic_prefix` (the backend applies this once, when it
// is constructed).
[[nodiscard]] inline WireOptions resolved_names(WireOptions w) {
  std::array<std::string*, 11> topics{&w.topics.aurora_state,       &w.topics.stand_pose,      &w.topics.base_data,
                                      &w.topics.contact,            &w.topics.group_state,     &w.topics.whole_body_request,
                                      &w.topics.upper_body_request, &w.topics.velocity_source, &w.topics.velocity,
                                      &w.topics.group_command,      &w.topics.motor_config};
  std::array<std::string*, 11> types{&w.types.aurora_state,       &w.types.stand_pose,      &w.types.base_data,
                                     &w.types.contact,            &w.types.group_state,     &w.types.whole_body_request,
                                     &w.types.upper_body_request, &w.types.velocity_source, &w.types.velocity,
                                     &w.types.group_command,      &w.types.motor_config};
  if (w.naming == NameStyle::topic_names) w.types = TypeNames::topic_names_as_types(w.topics);
  if (w.naming == NameStyle::ros2) {
    for (std::string* t : types) {
      const auto colons = t->rfind("::");
      if (colons != std::string::npos && t->find("::dds_::") == std::string::npos) {
        *t = t->substr(0, colons) + "::dds_::" + t->substr(colons + 2) + "_";
      }
    }
  }
  const std::string before = (w.naming == NameStyle::ros2 ? "rt/" : "") + w.topic_prefix;
  if (!before.empty()) {
    for (std::string* t : topics) *t = before + *t;
  }
  w.naming = NameStyle::as_given;  // applied: applying again changes nothing
  w.topic_prefix.clear();
  return w;
}

// contact_data_pub's newest sample, for readers outside the cycle.
struct ContactState {
  ContactValue contact;
  TimePoint received{};
  std::uint64_t count = 0;
};

// Vendor = BackendOptions (backend.hpp), which has members dds, link_timeout and wire.
template <AuroraModel M, class BackendOptions>
struct AuroraTopics {
  using model = M;
  using Options = BackendOptions;
  static constexpr std::size_t N = M::joint_count;
  // Aurora's groups take position (PD around q, dq with tau_ff) or effort; a velocity-only or
  // motor-off mode has no equivalent in ControlGroupCmd (group_motion_state "stop" is UNVERIFIED).
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::torque};
  static constexpr int k_not_reported = -1;
  static constexpr int k_not_in_control = -1;

  // Options without a take-control sequence (stand-ins in tests and fuzzers) command every group.
  static bool arms_in_pd_stand(const Options& o) {
    if constexpr (requires { o.sequence.control_state; }) {
      return o.sequence.control_state == WholeBodyState::pd_stand;
    } else {
      return false;
    }
  }

  struct Context {
    explicit Context(const Options& o)
        // PdStand accepts no PD configuration (robot_motor_cfg_group_cmd only in UserCmd and
        // UpperBodyUserCmd): arms-only control there keeps PdStand's gains.
        : follow_gains(o.wire.follow_command_gains && !arms_in_pd_stand(o)),
          gain_period(o.wire.gain_period), link_timeout(o.link_timeout) {}

    // ---- written on the reading thread (read()), read anywhere ----
    // Each value with the time its sample arrived (0: none yet): a value is believed only while it
    // is fresh, and a sequence only takes values that arrived after its own request.
    std::atomic<int> whole_body{k_not_reported};  // aurora_state.whole_body_fsm_state
    std::atomic<int> upper_body{k_not_reported};
    std::atomic<int> velocity_source{k_not_reported};
    std::atomic<Duration::rep> fsm_received{0};     // aurora_state's arrival, Clock ticks
    std::atomic<int> stable_level{k_not_reported};  // robot_stand_pose_state.stable_level
    std::atomic<Duration::rep> stand_received{0};
    std::atomic<std::uint64_t> fsm_reports{0};
    std::atomic<std::uint64_t> stand_reports{0};
    std::atomic<std::uint64_t> group_state_rejections{0};
    std::atomic<std::uint64_t> last_state_fault{0};  // packed StateDecode (pack / unpack below)
    LatestValue<ContactState> contact;               // one reader: read_contact()
    std::uint64_t contact_count = 0;

    // ---- set by acquire() / release(), read by write() ----
    std::atomic<int> control_state{k_not_in_control};  // the whole-body state commands need
    std::atomic<GroupMask> allowed_groups{k_all_groups<M>};

    // ---- written on the writing thread (write()) ----
    std::atomic<std::uint64_t> outside_control{0};  // commands not sent: the robot not in control_state
    std::atomic<std::uint64_t> without_fresh_state{0};  // of those: no aurora_state within link_timeout
    std::atomic<std::uint64_t> refused{0};          // commands refused by the encoder (partial group, ...)
    std::atomic<std::uint64_t> withheld_groups{0};  // groups not sent: not accepted in control_state
    std::atomic<std::uint64_t> last_command_fault{0};
    bool follow_gains;
    Duration gain_period;
    Duration link_timeout;
    JointVector<N> sent_kp = JointVector<N>::Constant(-1.0), sent_kd = JointVector<N>::Constant(-1.0);
    TimePoint gains_sent_at{};

    // When the last aurora_state arrived (nullopt: none yet).
    [[nodiscard]] std::optional<TimePoint> fsm_at() const {
      const auto t = fsm_received.load(std::memory_order_acquire);
      return t == 0 ? std::nullopt : std::optional<TimePoint>(TimePoint(Duration(t)));
    }
    [[nodiscard]] std::optional<TimePoint> stand_at() const {
      const auto t = stand_received.load(std::memory_order_acquire);
      return t == 0 ? std::nullopt : std::optional<TimePoint>(TimePoint(Duration(t)));
    }
    // aurora_state arrived within link_timeout before `now`.
    [[nodiscard]] bool fsm_fresh(TimePoint now) const {
      const auto at = fsm_at();
      return at.has_value() && now - *at <= link_timeout;
    }
    // In control only while a fresh aurora_state says the robot is in the state acquire()
    // established: a cached report is not believed (the robot may have restarted meanwhile).
    [[nodiscard]] bool in_control(TimePoint now) const {
      const int need = control_state.load(std::memory_order_acquire);
      return need != k_not_in_control && whole_body.load(std::memory_order_acquire) == need && fsm_fresh(now);
    }
  };

  static std::uint64_t pack(std::uint8_t fault, std::size_t where, std::uint32_t extra) {
    return (std::uint64_t{fault} << 56) | (std::uint64_t{static_cast<std::uint32_t>(where) & 0xFFFFFFu} << 32) | extra;
  }
  static StateDecode unpack_state(std::uint64_t p) {
    return {static_cast<StateFault>(p >> 56), static_cast<std::size_t>((p >> 32) & 0xFFFFFFu),
            static_cast<std::uint32_t>(p & 0xFFFFFFFFu)};
  }
  static CommandEncode unpack_command(std::uint64_t p) {
    return {static_cast<CommandFault>(p >> 56), static_cast<std::size_t>(p & 0xFFFFFFFFu),
            static_cast<std::size_t>((p >> 32) & 0xFFFFFFu), 0};
  }

  // ---- decode (reading thread) ----

  static bool decode_groups(const GroupStateValue& in, TimePoint, RobotState<N>& out, Context& c) {
    const StateDecode d = decode_group_state<M>(in, out);
    if (!d.ok()) {
      c.group_state_rejections.fetch_add(1, std::memory_order_relaxed);
      c.last_state_fault.store(pack(static_cast<std::uint8_t>(d.fault), d.group, d.found), std::memory_order_relaxed);
      return false;
    }
    // A group Aurora reports in error: its joints are faulted (the code is the group motion state).
    for (std::size_t e = 0; e < in.groups.size; ++e) {
      const std::size_t g = group_index<M>(in.groups[e].name.view());
      if (g == M::groups.size()) continue;
      const bool error = e < in.motion.size && in.motion[e] == static_cast<std::uint8_t>(GroupMotionState::error);
      for (std::size_t k = 0; k < M::groups[g].count; ++k) {
        auto& h = out.health[M::groups[g].first + k];
        h.faults = error ? k_joint_driver_error : k_joint_ok;
        h.error_code = error ? in.motion[e] : 0u;
      }
    }
    return true;
  }
  static bool decode_imu(const BaseValue& in, TimePoint, RobotState<N>& out, Context&) { return decode_base(in, out); }
  static bool decode_contact(const ContactValue& in, TimePoint received, RobotState<N>&, Context& c) {
    c.contact.publish(ContactState{in, received, ++c.contact_count});
    return true;
  }
  static bool decode_fsm(const AuroraStateValue& in, TimePoint received, RobotState<N>&, Context& c) {
    c.whole_body.store(in.whole_body, std::memory_order_relaxed);
    c.upper_body.store(in.upper_body, std::memory_order_relaxed);
    c.velocity_source.store(in.velocity_source, std::memory_order_relaxed);
    c.fsm_reports.fetch_add(1, std::memory_order_relaxed);
    c.fsm_received.store(stamp_of(received), std::memory_order_release);  // last: publishes the values
    return true;
  }
  static bool decode_stand(const StandPoseValue& in, TimePoint received, RobotState<N>&, Context& c) {
    c.stable_level.store(in.stable_level, std::memory_order_relaxed);
    c.stand_reports.fetch_add(1, std::memory_order_relaxed);
    c.stand_received.store(stamp_of(received), std::memory_order_release);
    return true;
  }
  // A receive time as stored (never 0, which means "none yet").
  static Duration::rep stamp_of(TimePoint t) {
    const auto r = t.time_since_epoch().count();
    return r == 0 ? 1 : r;
  }

  // ---- encode (writing thread) ----

  static bool encode_groups(const JointCommand<N>& command, TimePoint now, Context& c, GroupCommandValue& out) {
    if (!c.in_control(now)) {
      c.outside_control.fetch_add(1, std::memory_order_relaxed);
      if (c.control_state.load(std::memory_order_relaxed) != k_not_in_control && !c.fsm_fresh(now)) {
        c.without_fresh_state.fetch_add(1, std::memory_order_relaxed);
      }
      return false;
    }
    const CommandEncode r = encode_group_command<M>(command, c.allowed_groups.load(std::memory_order_relaxed), out);
    if (r.withheld > 0) c.withheld_groups.fetch_add(r.withheld, std::memory_order_relaxed);
    if (r.sent()) return true;
    if (r.fault != CommandFault::nothing_covered) {
      c.refused.fetch_add(1, std::memory_order_relaxed);
      c.last_command_fault.store(pack(static_cast<std::uint8_t>(r.fault), r.joint, static_cast<std::uint32_t>(r.group)),
                                 std::memory_order_relaxed);
    }
    return false;
  }

  // The groups the command drives completely and whose gains differ from those last sent.
  static GroupMask changed_gains(const JointCommand<N>& command, const Context& c, GroupMask allowed) {
    GroupMask changed = 0;
    for (std::size_t g = 0; g < M::groups.size(); ++g) {
      const ControlGroup& group = M::groups[g];
      if ((allowed & (GroupMask{1} << g)) == 0) continue;
      bool complete = true, differs = false;
      for (std::size_t k = 0; k < group.count; ++k) {
        const std::size_t j = group.first + k;
        const auto i = static_cast<Eigen::Index>(j);
        complete = complete && (command.mode[j] == JointMode::position || command.mode[j] == JointMode::torque) &&
                   std::isfinite(command.kp[i]) && std::isfinite(command.kd[i]);
        differs = differs || command.kp[i] != c.sent_kp[i] || command.kd[i] != c.sent_kd[i];
      }
      if (complete && differs) changed |= GroupMask{1} << g;
    }
    return changed;
  }

  static bool encode_gains(const JointCommand<N>& command, TimePoint now, Context& c, MotorConfigValue& out) {
    if (!c.follow_gains || !c.in_control(now)) return false;
    if (now - c.gains_sent_at < c.gain_period) return false;
    const GroupMask changed = changed_gains(command, c, c.allowed_groups.load(std::memory_order_relaxed));
    if (changed == 0) return false;
    motor_config<M>(command.kp, command.kd, changed, out);
    for (std::size_t g = 0; g < M::groups.size(); ++g) {
      if ((changed & (GroupMask{1} << g)) == 0) continue;
      const auto first = static_cast<Eigen::Index>(M::groups[g].first);
      const auto count = static_cast<Eigen::Index>(M::groups[g].count);
      c.sent_kp.segment(first, count) = command.kp.segment(first, count);
      c.sent_kd.segment(first, count) = command.kd.segment(first, count);
    }
    c.gains_sent_at = now;
    return true;
  }

  // ---- the table ----

  static auto state_topics(const Options& o) {
    const auto& t = o.wire.topics;
    const auto& y = o.wire.types;
    DecodedStateTopic<N, Context, GroupStateWire, GroupStateValue> groups;
    groups.name = t.group_state;
    groups.descriptor = transport::with_type_name(&fourier_msgs_msg_RobotControlGroupState_desc, y.group_state);
    groups.decode = &decode_groups;
    groups.to_value = &group_state_from_wire;
    groups.qos = o.wire.qos;
    DecodedStateTopic<N, Context, BaseDataWire, BaseValue> base;
    base.name = t.base_data;
    base.descriptor = transport::with_type_name(&fourier_msgs_msg_BaseData_desc, y.base_data);
    base.decode = &decode_imu;
    base.to_value = &base_from_wire;
    base.qos = o.wire.qos;
    DecodedStateTopic<N, Context, ContactDataWire, ContactValue> contact;
    contact.name = t.contact;
    contact.descriptor = transport::with_type_name(&fourier_msgs_msg_ContactData_desc, y.contact);
    contact.decode = &decode_contact;
    contact.to_value = &contact_from_wire;
    contact.qos = o.wire.qos;
    DecodedStateTopic<N, Context, AuroraStateWire, AuroraStateValue> fsm;
    fsm.name = t.aurora_state;
    fsm.descriptor = transport::with_type_name(&fourier_msgs_msg_AuroraState_desc, y.aurora_state);
    fsm.decode = &decode_fsm;
    fsm.to_value = &aurora_state_from_wire;
    fsm.qos = o.wire.qos;
    DecodedStateTopic<N, Context, StandPoseStateWire, StandPoseValue> stand;
    stand.name = t.stand_pose;
    stand.descriptor = transport::with_type_name(&fourier_msgs_msg_RobotStandPoseState_desc, y.stand_pose);
    stand.decode = &decode_stand;
    stand.to_value = &stand_pose_from_wire;
    stand.qos = o.wire.qos;
    return std::tuple{std::move(groups), std::move(base), std::move(contact), std::move(fsm), std::move(stand)};
  }

  static auto command_topics(const Options& o) {
    const auto& t = o.wire.topics;
    const auto& y = o.wire.types;
    EncodedCommandTopic<N, Context, MotorConfigWire, MotorConfigValue, MotorConfigToWire> gains;
    gains.name = t.motor_config;
    gains.descriptor = transport::with_type_name(&fourier_msgs_msg_RobotMotorCfgGroupCmd_desc, y.motor_config);
    gains.encode = &encode_gains;
    gains.qos = o.wire.qos;
    EncodedCommandTopic<N, Context, GroupCommandWire, GroupCommandValue, GroupCommandToWire> groups;
    groups.name = t.group_command;
    groups.descriptor = transport::with_type_name(&fourier_msgs_msg_RobotControlGroupCmd_desc, y.group_command);
    groups.encode = &encode_groups;
    groups.qos = o.wire.qos;
    return std::tuple{std::move(gains), std::move(groups)};
  }
};

// Table positions, for DdsBackend's per-topic counters.
inline constexpr std::size_t k_group_state_topic = 0;
inline constexpr std::size_t k_base_data_topic = 1;
inline constexpr std::size_t k_contact_topic = 2;
inline constexpr std::size_t k_aurora_state_topic = 3;
inline constexpr std::size_t k_stand_pose_topic = 4;
inline constexpr std::size_t k_motor_config_topic = 0;
inline constexpr std::size_t k_group_command_topic = 1;

}  // namespace praxis::aurora
