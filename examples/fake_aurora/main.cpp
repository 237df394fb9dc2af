// praxis-fake-aurora: impersonates a Fourier robot (GR-1, GR-2, GR-3, N1) running Aurora on DDS,
// for praxis (and any Aurora client) to talk to before the real robot. It keeps Aurora's
// whole-body state machine with the acceptance rules of fsm_rules.hpp, counts every client
// mistake by kind, runs mock joint dynamics driven by its own controller (damping, JointStand's
// zero pose, PdStand's stand-pose hold, SecurityProtection) or, in UserCmd / UpperBodyUserCmd, by
// the accepted robot_control_group_cmd groups under the PD gains of robot_motor_cfg_group_cmd, and
// publishes aurora_state, robot_control_group_state, base_data_pub and contact_data_pub at 500 Hz
// (robot_stand_pose_state too in PdStand's stance stage), all best effort, keep last 1, like Aurora.
// Aurora's remote is a joystick on the robot, not a DDS topic, so there is no --gamepad here.
// At exit it prints (and with --report writes) what happened as JSON, with the group commands
// received per whole-body state (a client must send none outside the states that take them).
//
//   praxis-fake-aurora --robot gr2 --domain 123 --interface lo [--prefix gr2/SN0042]
//                      [--stable-after 2.0] [--stance-after 0.5] [--switch-latency 1.5]
//                      [--pd-stand-knee 0.3] [--restart-at 3 | --restart-after-control 1]
//                      [--restart-silence 0.5 --restart-fsm-delay 0.2]
//                      [--refuse-state 10] [--duration 10] [--report r.json]
//
// --restart-at: the robot's software restarts at that time: it goes silent (publishes nothing and
// takes no command: received ones are counted and dropped), then comes back in Default with the
// model's gains. Its topics come back one by one (each writer is discovered anew, the FSM task
// starts after the drivers): aurora_state only --restart-fsm-delay after the others.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/hardware/aurora/backend.hpp>
#include <praxis/hardware/aurora/codec.hpp>
#include <praxis/hardware/aurora/robot_codec.hpp>
#include <praxis/hardware/aurora/fsm.hpp>
#include <praxis/hardware/aurora/models.hpp>
#include <praxis/hardware/aurora/topics.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/idl/fourier_msgs.h>
#include <praxis/transport/dds.hpp>

#include "fsm_rules.hpp"
#include "../common/fake_robot_main.hpp"

namespace {

namespace a = praxis::aurora;
namespace fa = praxis::fake_aurora;

constexpr auto k_period = std::chrono::milliseconds(2);         // Aurora's state topics: 500 Hz
constexpr auto k_security_damping = std::chrono::seconds(2);    // then zero torque
constexpr int k_no_refusal = -1;

// The shared options (fake_robot_main.hpp) and Aurora's own.
struct Settings : fake_common::Settings {
  std::string prefix;  // ROBOT_NAME/SERIAL
  std::string type_names = "documented";
  double stable_after = 2.0;
  double stance_after = 0.0;
  double switch_latency = 0.0;
  double pd_stand_knee = 0.0;
  double restart_at = -1.0;
  double restart_after_control = -1.0;
  double restart_silence = 0.5;
  double restart_fsm_delay = 0.2;
  int refuse_state = k_no_refusal;
};

// Every sample of a command topic, in order, on the main loop's thread (the acceptance rules must
// see each one, not only the newest). Best effort like Aurora's readers; a deep history so that a
// burst between two ticks is not lost here.
template <class Wire>
class CommandReader {
 public:
  CommandReader(const praxis::transport::Participant& p, const std::string& topic, const dds_topic_descriptor_t* descriptor) {
    const dds_entity_t t = dds_create_topic(p.handle(), descriptor, topic.c_str(), nullptr, nullptr);
    if (t < 0) throw std::runtime_error("cannot create topic \"" + topic + "\": " + dds_strretcode(t));
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_BEST_EFFORT, 0);
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 64);
    reader_ = dds_create_reader(p.handle(), t, qos, nullptr);
    dds_delete_qos(qos);
    if (reader_ < 0) throw std::runtime_error("cannot create a reader on \"" + topic + "\": " + dds_strretcode(reader_));
  }
  ~CommandReader() { dds_delete(reader_); }
  CommandReader(const CommandReader&) = delete;
  CommandReader& operator=(const CommandReader&) = delete;

  template <class F>
  void take(F&& on_sample) {
    for (;;) {
      void* samples[16] = {};
      dds_sample_info_t info[16];
      const dds_return_t n = dds_take(reader_, samples, info, 16, 16);
      if (n <= 0) return;
      for (dds_return_t i = 0; i < n; ++i) {
        if (!info[i].valid_data) continue;
        ++received_;
        on_sample(*static_cast<const Wire*>(samples[i]));
      }
      dds_return_loan(reader_, samples, n);
    }
  }
  [[nodiscard]] std::uint64_t received() const { return received_; }

 private:
  dds_entity_t reader_ = 0;
  std::uint64_t received_ = 0;
};

// A sequence field pointing at storage the caller keeps alive while the sample is written.
template <class Seq, class T>
void point(Seq& s, T* data, std::size_t n) {
  s._maximum = s._length = static_cast<std::uint32_t>(n);
  s._buffer = data;
  s._release = false;
}

template <a::AuroraModel M>
fake_common::Report run(const Settings& s) {
  constexpr std::size_t N = M::joint_count;
  constexpr std::size_t G = M::groups.size();

  a::TopicNames topics;
  if (!s.prefix.empty()) {
    const auto slash = s.prefix.find('/');
    std::string name = s.prefix.substr(0, slash), serial = slash == std::string::npos ? "" : s.prefix.substr(slash + 1);
    if (!serial.empty() && serial.back() == '/') serial.pop_back();
    if (name.empty() || serial.empty() || serial.find('/') != std::string::npos) {
      throw std::invalid_argument("--prefix: expected ROBOT_NAME/SERIAL (e.g. gr2/SN0042), got \"" + s.prefix + "\"");
    }
    topics = topics.prefixed(name, serial);
  }
  const a::TypeNames types = s.type_names == "topic-names" ? a::TypeNames::topic_names_as_types(a::TopicNames{})
                                                           : a::TypeNames{};
  const auto typed = [](const dds_topic_descriptor_t* d, const std::string& name) {
    return praxis::transport::with_type_name(d, name);
  };

  praxis::transport::Participant participant({s.domain, s.interface});
  const praxis::transport::TopicQos qos{.reliable = false, .depth = 1, .transient_local = false};
  praxis::transport::Publisher<a::AuroraStateWire> fsm_pub(participant, topics.aurora_state,
                                                      typed(&fourier_msgs_msg_AuroraState_desc, types.aurora_state), qos);
  praxis::transport::Publisher<a::StandPoseStateWire> stand_pub(
      participant, topics.stand_pose, typed(&fourier_msgs_msg_RobotStandPoseState_desc, types.stand_pose), qos);
  praxis::transport::Publisher<a::BaseDataWire> base_pub(participant, topics.base_data,
                                                    typed(&fourier_msgs_msg_BaseData_desc, types.base_data), qos);
  praxis::transport::Publisher<a::ContactDataWire> contact_pub(participant, topics.contact,
                                                          typed(&fourier_msgs_msg_ContactData_desc, types.contact), qos);
  praxis::transport::Publisher<a::GroupStateWire> group_pub(
      participant, topics.group_state, typed(&fourier_msgs_msg_RobotControlGroupState_desc, types.group_state), qos);
  CommandReader<a::WholeBodyRequestWire> whole_body_in(
      participant, topics.whole_body_request,
      typed(&fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc, types.whole_body_request));
  CommandReader<a::UpperBodyRequestWire> upper_body_in(
      participant, topics.upper_body_request,
      typed(&fourier_msgs_msg_UpperBodyFsmStateChangeCmd_desc, types.upper_body_request));
  CommandReader<a::VelocitySourceWire> source_in(participant, topics.velocity_source,
                                                 typed(&fourier_msgs_msg_VelocitySourceCmd_desc, types.velocity_source));
  CommandReader<a::VelocityWire> velocity_in(participant, topics.velocity,
                                             typed(&fourier_msgs_msg_VelocityCmd_desc, types.velocity));
  CommandReader<a::GroupCommandWire> group_in(participant, topics.group_command,
                                              typed(&fourier_msgs_msg_RobotControlGroupCmd_desc, types.group_command));
  CommandReader<a::MotorConfigWire> config_in(participant, topics.motor_config,
                                              typed(&fourier_msgs_msg_RobotMotorCfgGroupCmd_desc, types.motor_config));

  const auto t0 = praxis::Clock::now();
  fa::RulesOptions rules_options;
  rules_options.stable_after = praxis::from_seconds(s.stable_after);
  rules_options.stance_after = praxis::from_seconds(s.stance_after);
  rules_options.switch_latency = praxis::from_seconds(s.switch_latency);
  if (s.refuse_state != k_no_refusal) rules_options.refuse_state = static_cast<std::uint8_t>(s.refuse_state);
  fa::FsmRules<M> rules(rules_options, t0);

  praxis::mock::MockRobot<M> robot(praxis::mock::MockOptions{}, t0);
  robot.set_joint_positions(M::stand_pose);

  // The pose PdStand holds: the model's stand pose, or a crouch with the knees bent by
  // --pd-stand-knee and the hips and ankles pitched half of it back (the real PdStand pose is
  // UNVERIFIED; a GR-2 was seen with 0.3 rad at the knees).
  std::array<double, N> pd_stand_pose = M::stand_pose;
  for (std::size_t j = 0; j < N; ++j) {
    const std::string_view name = M::joints[j].name;
    if (name.find("knee") != std::string_view::npos) pd_stand_pose[j] += s.pd_stand_knee;
    if (name.find("hip_pitch") != std::string_view::npos || name.find("ankle_pitch") != std::string_view::npos) {
      pd_stand_pose[j] -= 0.5 * s.pd_stand_knee;
    }
  }

  std::printf("praxis-fake-aurora: %s on DDS domain %u, interface %s, topics \"%s\"..., state %s\n",
              std::string(M::name).c_str(), s.domain, s.interface.c_str(), topics.aurora_state.c_str(),
              std::string(a::to_string(rules.state())).c_str());
  std::fflush(stdout);

  // The PD gains robot_motor_cfg_group_cmd set (the model's example gains until then) and the
  // targets of the accepted group commands.
  praxis::JointVector<N> kp, kd;
  a::default_gains<M>(kp, kd);
  praxis::JointCommand<N> targets;
  std::array<bool, N> effort_mode{};
  std::uint64_t groups_applied = 0, configs_applied = 0, velocities_accepted = 0;
  std::array<std::uint64_t, a::k_whole_body_states> group_commands_in_state{};  // received, by the state then
  std::uint64_t received_while_down = 0;
  nlohmann::json source_log = nlohmann::json::array();  // every change of the velocity source: time, source
  // When the restart happens: at a fixed time, or a while after the robot first entered UserCmd /
  // UpperBodyUserCmd (a restart mid-run, whenever the client took control).
  std::optional<praxis::TimePoint> restart_at;
  if (s.restart_at >= 0.0) restart_at = t0 + praxis::from_seconds(s.restart_at);
  praxis::TimePoint back_at{}, fsm_back_at{};
  bool restarted = false;
  nlohmann::json config_log = nlohmann::json::array();  // every applied configuration: time, kp per joint
  a::VelocityValue velocity{};
  a::WholeBodyState last_state = rules.state();

  const auto hold_current = [&](std::size_t first, std::size_t count) {
    for (std::size_t j = first; j < first + count; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      targets.q[i] = robot.q()[i];
      targets.dq[i] = targets.tau_ff[i] = 0.0;
      effort_mode[j] = false;
    }
  };

  // Wire storage for the state messages, written from these arrays every tick.
  std::array<std::array<double, a::k_max_group_joints>, G> q_out{}, dq_out{}, tau_out{};
  std::array<fourier_msgs_msg_ControlGroupState, G> group_out{};
  std::array<std::uint8_t, G> motion_out{};
  for (std::size_t g = 0; g < G; ++g) group_out[g].group_name = const_cast<char*>(M::groups[g].name.data());
  char frame[1] = {'\0'};
  std::array<double, 4> quat{};
  std::array<double, 3> omega{}, acc{};
  std::array<double, 12> force{};
  std::array<double, 2> probability{};

  std::uint64_t published_fsm = 0, published_stand = 0, published_base = 0, published_contact = 0, published_groups = 0;
  praxis::RobotState<N> state;
  praxis::JointCommand<N> applied;
  auto next = t0;
  while (!fake_common::stop_requested()) {
    next += k_period;
    std::this_thread::sleep_until(next);
    const auto now = praxis::Clock::now();
    if (s.duration > 0 && now - t0 > praxis::from_seconds(s.duration)) break;

    // ---- a restart: silent and deaf, then back in Default with the model's gains ----
    if (!restart_at && s.restart_after_control >= 0.0 &&
        (rules.state() == a::WholeBodyState::user_cmd || rules.state() == a::WholeBodyState::upper_body_user_cmd)) {
      restart_at = now + praxis::from_seconds(s.restart_after_control);
    }
    if (restart_at && !restarted && now >= *restart_at) {
      restarted = true;
      back_at = now + praxis::from_seconds(s.restart_silence);
      fsm_back_at = back_at + praxis::from_seconds(s.restart_fsm_delay);
      rules.restart(now);
      a::default_gains<M>(kp, kd);
      std::printf("praxis-fake-aurora: restarting at %.3f s\n", praxis::to_seconds(now - t0));
      std::fflush(stdout);
    }
    if (restarted && now < back_at) {
      const auto drop = [&](const auto&) { ++received_while_down; };
      config_in.take(drop);
      group_in.take(drop);
      whole_body_in.take(drop);
      upper_body_in.take(drop);
      source_in.take(drop);
      velocity_in.take(drop);
      continue;  // the mock joints wait with it

    }
    const bool fsm_silent = restarted && now < fsm_back_at;

    // ---- commands, then requests, each sample judged in order ----
    // Commands first: one that arrives in the same tick as a state request was sent before it (a
    // client sends commands only after it saw the state it asked for reported).
    config_in.take([&](const a::MotorConfigWire& w) {
      a::MotorConfigValue v;
      if (a::motor_config_from_wire(w, v) != nullptr) {
        rules.record(fa::Violation::motor_config_partial_group);
        return;
      }
      if (!rules.check_motor_config(v).accepted) return;
      for (std::size_t e = 0; e < v.groups.size; ++e) {
        const std::size_t g = a::group_index<M>(v.groups[e].name.view());
        if (g == G) continue;  // a hand
        for (std::size_t k = 0; k < M::groups[g].count; ++k) {
          const auto i = static_cast<Eigen::Index>(M::groups[g].first + k);
          kp[i] = v.groups[e].kp[k];
          kd[i] = v.groups[e].kd[k];
        }
      }
      ++configs_applied;
      config_log.push_back({{"t", praxis::to_seconds(now - t0)}, {"kp", std::vector<double>(kp.data(), kp.data() + N)}});
    });
    group_in.take([&](const a::GroupCommandWire& w) {
      ++group_commands_in_state[static_cast<std::size_t>(rules.state())];
      a::GroupCommandValue v;
      if (a::group_command_from_wire(w, v) != nullptr) {
        rules.record(fa::Violation::partial_group);
        return;
      }
      if (!rules.check_group_command(v, now).accepted) return;
      for (std::size_t e = 0; e < v.groups.size; ++e) {
        const auto& entry = v.groups[e];
        const std::size_t g = a::group_index<M>(entry.name.view());
        if (g == G) continue;
        const auto& group = M::groups[g];
        if (entry.motion_state == static_cast<std::uint8_t>(a::GroupMotionState::stop)) {
          hold_current(group.first, group.count);
          continue;
        }
        for (std::size_t k = 0; k < group.count; ++k) {
          const std::size_t j = group.first + k;
          const auto i = static_cast<Eigen::Index>(j);
          targets.q[i] = entry.position[k];
          targets.dq[i] = entry.velocity[k];
          targets.tau_ff[i] = entry.effort[k];
          effort_mode[j] = entry.motor_mode == static_cast<std::uint8_t>(a::MotorMode::effort);
        }
        ++groups_applied;
      }
    });

    whole_body_in.take([&](const a::WholeBodyRequestWire& w) { rules.request_whole_body(w.desired_state, now); });
    upper_body_in.take([&](const a::UpperBodyRequestWire& w) { rules.request_upper_body(w.desired_state); });
    source_in.take([&](const a::VelocitySourceWire& w) {
      const auto before = rules.velocity_source();
      if (rules.request_velocity_source(w.desired_source) && rules.velocity_source() != before) {
        source_log.push_back({{"t", praxis::to_seconds(now - t0)}, {"source", rules.velocity_source()}});
      }
    });
    velocity_in.take([&](const a::VelocityWire& w) {
      const a::VelocityValue v{w.vx, w.vy, w.yaw};
      if (rules.check_velocity(v)) {
        velocity = v;
        ++velocities_accepted;
      }
    });
    rules.tick(now);
    if (rules.state() != last_state) {
      // A new state starts from where the joints are: nothing jumps to an old target.
      hold_current(0, N);
      last_state = rules.state();
    }
    // ---- the joints: the robot's own controller, or the client's groups ----
    const a::WholeBodyState st = rules.state();
    const a::GroupMask client_groups = rules.commandable_groups(now);
    for (std::size_t g = 0; g < G; ++g) {
      const bool client = (client_groups & (a::GroupMask{1} << g)) != 0;
      for (std::size_t k = 0; k < M::groups[g].count; ++k) {
        const std::size_t j = M::groups[g].first + k;
        const auto i = static_cast<Eigen::Index>(j);
        applied.mode[j] = praxis::JointMode::position;
        applied.dq[i] = applied.tau_ff[i] = 0.0;
        if (client) {
          applied.q[i] = targets.q[i];
          applied.dq[i] = targets.dq[i];
          applied.tau_ff[i] = targets.tau_ff[i];
          applied.kp[i] = effort_mode[j] ? 0.0 : kp[i];
          applied.kd[i] = effort_mode[j] ? 0.0 : kd[i];
          continue;
        }
        switch (st) {
          case a::WholeBodyState::joint_stand:
          case a::WholeBodyState::pd_stand:
          case a::WholeBodyState::user_a:  // the robot's own walking keeps the stand pose here
            applied.q[i] = st == a::WholeBodyState::joint_stand ? 0.0
                           : st == a::WholeBodyState::pd_stand  ? pd_stand_pose[j]
                                                                : M::stand_pose[j];
            applied.kp[i] = M::default_kp[j];
            applied.kd[i] = M::default_kd[j];
            break;
          case a::WholeBodyState::security:
            applied.q[i] = robot.q()[i];
            applied.kp[i] = 0.0;
            applied.kd[i] = now - rules.entered_at() < k_security_damping ? M::default_kd[j] : 0.0;
            break;
          default:  // Default, and the legs in UpperBodyUserCmd: zero torque
            applied.q[i] = robot.q()[i];
            applied.kp[i] = applied.kd[i] = 0.0;
            break;
        }
      }
    }
    robot.write(applied, now);
    robot.read(state, now);

    // ---- state topics ----
    for (std::size_t g = 0; g < G; ++g) {
      const auto& group = M::groups[g];
      for (std::size_t k = 0; k < group.count; ++k) {
        const auto i = static_cast<Eigen::Index>(group.first + k);
        q_out[g][k] = state.q[i];
        dq_out[g][k] = state.dq[i];
        tau_out[g][k] = state.tau[i];
      }
      point(group_out[g].joint_position, q_out[g].data(), group.count);
      point(group_out[g].joint_velocity, dq_out[g].data(), group.count);
      point(group_out[g].joint_effort, tau_out[g].data(), group.count);
      const bool moving = (client_groups & (a::GroupMask{1} << g)) != 0;
      motion_out[g] = static_cast<std::uint8_t>(moving ? a::GroupMotionState::move : a::GroupMotionState::idle);
    }
    const std::uint8_t stable_level = rules.stable_level(now);
    a::GroupStateWire groups_msg{};
    groups_msg.header.frame_id = frame;
    point(groups_msg.group_motion_state, motion_out.data(), G);
    point(groups_msg.group_state, group_out.data(), G);
    groups_msg.stable_level = stable_level;

    a::AuroraStateWire fsm_msg{};
    fsm_msg.header.frame_id = frame;
    fsm_msg.velocity_command_source = rules.velocity_source();
    fsm_msg.whole_body_fsm_state = static_cast<std::uint8_t>(st);
    fsm_msg.upper_body_fsm_state = rules.upper_body();
    if (!fsm_silent && fsm_pub.write(fsm_msg)) ++published_fsm;

    if (rules.in_stance(now)) {
      a::StandPoseStateWire stand_msg{};
      stand_msg.header.frame_id = frame;
      stand_msg.stable_level = stable_level;
      if (stand_pub.write(stand_msg)) ++published_stand;
    }

    const auto& o = state.imu.orientation;
    quat = {o.x(), o.y(), o.z(), o.w()};
    omega = {state.imu.gyro.x(), state.imu.gyro.y(), state.imu.gyro.z()};
    acc = {state.imu.accelerometer.x(), state.imu.accelerometer.y(), state.imu.accelerometer.z()};
    a::BaseDataWire base_msg{};
    base_msg.header.frame_id = frame;
    point(base_msg.quat_xyzw, quat.data(), 4);
    point(base_msg.omega_B, omega.data(), 3);
    point(base_msg.acc_B, acc.data(), 3);
    if (base_pub.write(base_msg)) ++published_base;

    // Feet on the ground whenever something holds the legs up.
    const bool supported = st == a::WholeBodyState::joint_stand || st == a::WholeBodyState::pd_stand ||
                           st == a::WholeBodyState::user_a || st == a::WholeBodyState::user_cmd;
    force.fill(0.0);
    force[2] = force[8] = supported ? 300.0 : 0.0;
    probability.fill(supported ? 1.0 : 0.0);
    a::ContactDataWire contact_msg{};
    contact_msg.header.frame_id = frame;
    point(contact_msg.contact_force, force.data(), force.size());
    point(contact_msg.contact_prob, probability.data(), probability.size());
    if (contact_pub.write(contact_msg)) ++published_contact;

    if (group_pub.write(groups_msg)) ++published_groups;  // last: a client's primary state finds the rest fresh
  }

  nlohmann::json report;
  report["robot"] = std::string(M::name);
  report["state"] = static_cast<int>(rules.state());
  report["state_name"] = std::string(a::to_string(rules.state()));
  auto& entered = report["states"] = nlohmann::json::array();
  for (const auto& e : rules.entries()) {
    entered.push_back({{"t", praxis::to_seconds(e.at - t0)},
                       {"state", e.state},
                       {"name", std::string(a::to_string(static_cast<a::WholeBodyState>(e.state)))}});
  }
  report["received"] = {{topics.whole_body_request, whole_body_in.received()},
                        {topics.upper_body_request, upper_body_in.received()},
                        {topics.velocity_source, source_in.received()},
                        {topics.velocity, velocity_in.received()},
                        {topics.group_command, group_in.received()},
                        {topics.motor_config, config_in.received()}};
  report["published"] = {{topics.aurora_state, published_fsm},
                         {topics.stand_pose, published_stand},
                         {topics.base_data, published_base},
                         {topics.contact, published_contact},
                         {topics.group_state, published_groups}};
  auto& violations = report["violations"] = nlohmann::json::object();
  for (std::size_t v = 0; v < fa::k_violation_kinds; ++v) {
    const auto kind = static_cast<fa::Violation>(v);
    violations[std::string(fa::to_string(kind))] = rules.violations(kind);
  }
  report["violations_total"] = rules.total_violations();
  report["refused_requests"] = rules.refused_requests();
  report["restarts"] = rules.restarts();
  if (restarted) report["restart_t"] = praxis::to_seconds(*restart_at - t0);
  report["received_while_down"] = received_while_down;
  auto& by_state = report["group_commands_in_state"] = nlohmann::json::object();
  for (std::size_t st = 0; st < group_commands_in_state.size(); ++st) {
    by_state[std::to_string(st)] = group_commands_in_state[st];
  }
  report["velocity_source"] = rules.velocity_source();
  report["velocity_sources"] = source_log;
  report["groups_applied"] = groups_applied;
  report["motor_configs_applied"] = configs_applied;
  report["velocities_accepted"] = velocities_accepted;
  report["last_velocity"] = {velocity.vx, velocity.vy, velocity.yaw};
  report["motor_configs"] = config_log;
  report["final_kp"] = std::vector<double>(kp.data(), kp.data() + N);
  report["final_q"] = std::vector<double>(robot.q().data(), robot.q().data() + N);
  return {report, "ended in " + report["state_name"].get<std::string>() + ", " +
                     std::to_string(rules.total_violations()) + " violations"};
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const fake_common::Fake fake{
      .program = "praxis-fake-aurora",
      .description = "praxis-fake-aurora: a Fourier robot running Aurora, impersonated on DDS, with mock dynamics",
      .robots = {"gr1", "gr2", "gr3", "n1"},
      .robot = "gr2",
      .domain = a::k_default_domain,
      .domain_help = "DDS domain id (Aurora: 123)"};
  const auto add_options = [&s](CLI::App& app) {
    app.add_option("--prefix", s.prefix, "topic prefix ROBOT_NAME/SERIAL: every topic becomes ROBOT_NAME/SERIAL/<topic>");
    app.add_option("--type-names", s.type_names,
                   "DDS type names: documented (fourier_msgs::msg::<Type>) or topic-names (client 0.1.0's)")
        ->check(CLI::IsMember({"documented", "topic-names"}));
    app.add_option("--stable-after", s.stable_after, "seconds PdStand takes to report stable_level > 100")
        ->check(CLI::PositiveNumber);
    app.add_option("--stance-after", s.stance_after,
                   "seconds after entering PdStand before its stance stage (stand pose published, stable level rising)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--switch-latency", s.switch_latency,
                   "seconds an accepted whole-body request takes to take effect (a GR-2 was measured at 1.5)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--pd-stand-knee", s.pd_stand_knee, "radians PdStand bends the knees by (0: the model's stand pose)");
    app.add_option("--restart-at", s.restart_at, "seconds after start when the robot's software restarts (back in Default)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--restart-after-control", s.restart_after_control,
                   "seconds after the robot first entered UserCmd / UpperBodyUserCmd when its software restarts")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--restart-silence", s.restart_silence, "seconds the restarting robot publishes nothing and takes no command")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--restart-fsm-delay", s.restart_fsm_delay,
                   "seconds after the other topics that aurora_state comes back from a restart")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--refuse-state", s.refuse_state, "a whole-body state (0..11) the robot refuses to enter")
        ->check(CLI::Range(0, static_cast<int>(a::k_whole_body_states) - 1));
  };
  return fake_common::fake_robot_main(argc, argv, fake, s, add_options, [&s] {
    if (s.robot == "gr1") return run<a::GR1>(s);
    if (s.robot == "gr3") return run<a::GR3>(s);
    if (s.robot == "n1") return run<a::N1>(s);
    return run<a::GR2>(s);
  });
}
