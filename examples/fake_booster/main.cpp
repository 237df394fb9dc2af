// praxis-fake-booster: impersonates a Booster T1 / K1 on DDS, for praxis (and any Booster client) to
// talk to before the real robot. It answers the loco and light RPCs the way the robot's state
// machine would (loco_service.hpp: modes, 409 for a request the current mode does not allow),
// records every call with its time, runs mock joint dynamics driven by its own controller (damped
// in Damping, the stand pose in Prepare / Walking / Soccer, getting up on GetUp) or, in Custom, by
// rt/joint_ctrl, and publishes rt/low_state at 500 Hz, rt/fall_down at 10 Hz, rt/remote_controller_state
// at 50 Hz and, with --button, rt/button_event.
// It counts rt/kick_ball samples. At exit it prints (and with --report writes) what happened as JSON.
//
//   praxis-fake-booster --robot t1 --domain 0 --interface lo [--lying] [--gamepad "R2:0.5-3.0,A:4.0"]
//                       [--hang-api 2001] [--delay-api 2000:300] [--duration 10] [--report report.json]
//                       [--reply-delay-ms 60] [--drop-every 2000:2] [--drop-probability 0.1 --seed 7]
//                       [--lose-answer 2000:1] [--refuse-once 2000:502] [--start-mode soccer]

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/core/gamepad_script.hpp>
#include <praxis/hardware/booster/api.hpp>
#include <praxis/hardware/booster/robot_codec.hpp>
#include <praxis/hardware/booster/models.hpp>
#include <praxis/hardware/booster/rpc.hpp>
#include <praxis/hardware/booster/topics.hpp>
#include <praxis/hardware/booster/upper_body.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/idl/brain.h>
#include <praxis/transport/dds.hpp>
#include <praxis/transport/dds_decoding_subscriber.hpp>
#include <praxis/transport/dds_encoding_publisher.hpp>
#include <praxis/transport/rpc.hpp>

#include "light_service.hpp"
#include "loco_service.hpp"
#include "serve.hpp"
#include "../common/fake_robot_main.hpp"

namespace {

namespace b = praxis::booster;
namespace fb = praxis::fake_booster;

// The shared options (fake_robot_main.hpp) and Booster's own.
struct Settings : fake_common::Settings {
  std::string space;  // empty: the model's (the space its published poses are in)
  std::string gamepad;
  std::vector<std::int64_t> hang;
  std::vector<std::string> delay;
  std::vector<std::string> buttons;  // "T:ID:EVENT"
  double min_interval_ms = 0.0;
  double reply_delay_ms = 0.0;
  std::vector<std::string> drop_every;   // "ID:K"
  std::vector<std::string> lose_answer;  // "ID:N"
  double drop_probability = 0.0;
  std::uint64_t seed = 1;
  std::vector<std::string> refuse_once;  // "ID:CODE"
  std::string start_mode = "damping";
  // or "first-command": the first rt/joint_ctrl frame taken in Custom, or UpperBodyCustomControl started
  std::string script_start = "start";
  bool lying = false;
  double get_up_seconds = 2.0;
};

// A service shared by the RPC thread and the physics loop: handle() under a lock, the answer's
// delay (serve.hpp sleeps it) outside of it.
template <class Service>
struct Locked {
  Service& service;
  std::mutex& mutex;
  fb::Answer handle(praxis::TimePoint now, std::int64_t api_id, std::string_view body) {
    std::lock_guard lock(mutex);
    return service.handle(now, api_id, body);
  }
};

struct KickValue {
  double x = 0, y = 0, dir = 0, goal_x = 0, goal_y = 0, theta = 0, power = 0;
  std::int32_t sec = 0;
  std::uint32_t nanosec = 0;
};
bool kick_from_wire(const brain_msg_dds__Kick_& k, KickValue& out) {
  out = {k.x, k.y, k.dir, k.goal_x, k.goal_y, k.robot_theta_to_field, k.power, k.header.stamp.sec,
         k.header.stamp.nanosec};
  return true;
}


std::string api_name(std::int64_t id) {
  const auto name = b::loco_api_name(id);
  return name.empty() ? std::to_string(id) : std::string(name);
}

// "ID:VALUE" (both integers), or an error naming the option and the expected form.
std::pair<std::int64_t, long long> id_and_value(const std::string& text, const char* option, const char* form) {
  const auto colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    std::size_t used = 0;
    const auto id = std::stoll(text.substr(0, colon), &used);
    if (used != colon) throw std::invalid_argument("trailing text");
    const auto rest = text.substr(colon + 1);
    const auto value = std::stoll(rest, &used);
    if (used != rest.size()) throw std::invalid_argument("trailing text");
    return {id, value};
  } catch (const std::logic_error&) {
    throw std::invalid_argument(std::string(option) + ": expected " + form + ", got \"" + text + "\"");
  }
}

b::Mode mode_named(const std::string& name) {
  if (name == "damping") return b::Mode::damping;
  if (name == "prepare") return b::Mode::prepare;
  if (name == "walking") return b::Mode::walking;
  if (name == "soccer") return b::Mode::soccer;
  if (name == "custom") return b::Mode::custom;
  throw std::invalid_argument("--start-mode: expected damping, prepare, walking, soccer or custom, got \"" + name + "\"");
}

struct IntakeCounts {
  std::uint64_t applied = 0;         // in Custom: the command drives the joints
  std::uint64_t blended = 0;         // in another mode: weighted into the robot's own controller
  std::uint64_t wrong_space = 0;     // cmd_type not the robot's configured space
  std::uint64_t non_finite = 0;
  // Walking, the arms lent by weight (praxis' upper-body access): what a robot walking by itself
  // must never see, and whether the arms were blended while UpperBodyCustomControl was on.
  std::uint64_t leg_weight = 0;               // a leg or waist motor with weight > 0: the legs carry the robot
  std::uint64_t without_upper_body_control = 0;  // an arm weight > 0 with UpperBodyCustomControl off
  std::uint64_t arms_blended = 0;             // an arm weight > 0 with it on
  double max_arm_weight = 0.0;
  double last_weight = 0.0;                   // the largest weight of the last frame blended
};

template <b::BoosterModel M>
fake_common::Report run(const Settings& s) {
  constexpr std::size_t N = M::joint_count;
  using Mode = b::Mode;
  const auto space = s.space == "parallel"  ? b::MotorSpace::parallel
                     : s.space == "serial" ? b::MotorSpace::serial
                     : (b::values_in_motor_space<M>() ? b::MotorSpace::parallel : b::MotorSpace::serial);

  praxis::transport::Participant participant({s.domain, s.interface});
  const b::TopicNames topics;
  const auto t0 = praxis::Clock::now();

  fb::LocoServiceOptions loco_options;
  for (auto id : s.hang) loco_options.never_answer.insert(id);
  for (const auto& d : s.delay) {  // "ID:MS"
    const auto colon = d.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("--delay-api: expected ID:MS, got \"" + d + "\"");
    loco_options.answer_after[std::stoll(d.substr(0, colon))] =
        std::chrono::milliseconds(std::stoll(d.substr(colon + 1)));
  }
  loco_options.min_interval = praxis::from_seconds(s.min_interval_ms / 1000.0);
  loco_options.reply_delay = praxis::from_seconds(s.reply_delay_ms / 1000.0);
  for (const auto& d : s.drop_every) {
    const auto [id, k] = id_and_value(d, "--drop-every", "ID:K (ID 0: any API)");
    if (k <= 0) throw std::invalid_argument("--drop-every: K must be at least 1, got \"" + d + "\"");
    loco_options.drop_every[id] = static_cast<std::uint32_t>(k);
  }
  for (const auto& d : s.lose_answer) {
    const auto [id, n] = id_and_value(d, "--lose-answer", "ID:N (N: 1 for the API's first call)");
    if (n <= 0) throw std::invalid_argument("--lose-answer: N must be at least 1, got \"" + d + "\"");
    loco_options.lose_answer_to[id].insert(static_cast<std::uint64_t>(n));
  }
  loco_options.drop_probability = s.drop_probability;
  loco_options.seed = s.seed;
  for (const auto& r : s.refuse_once) {
    const auto [id, code] = id_and_value(r, "--refuse-once", "ID:CODE");
    loco_options.refuse_once[id] = static_cast<std::int32_t>(code);
  }
  loco_options.start_mode = mode_named(s.start_mode);
  if (s.lying && loco_options.start_mode != Mode::damping && loco_options.start_mode != Mode::prepare) {
    throw std::invalid_argument("--lying with --start-mode " + s.start_mode +
                                ": a robot lying down is in Damping or Prepare, not walking");
  }
  fb::LocoService loco(loco_options, t0);
  fb::LightService light;
  std::mutex loco_mutex, light_mutex;

  praxis::transport::RpcServer<b::BoosterRpcTraits> loco_server(participant, b::request_topic(topics.loco_channel),
                                                          b::response_topic(topics.loco_channel));
  praxis::transport::RpcServer<b::BoosterRpcTraits> light_server(participant, b::request_topic(topics.light_channel),
                                                           b::response_topic(topics.light_channel));
  std::atomic<bool> rpc_stop{false};
  std::thread rpc_thread([&] {
    Locked<fb::LocoService> locked_loco{loco, loco_mutex};
    Locked<fb::LightService> locked_light{light, light_mutex};
    while (!rpc_stop.load()) {
      loco_server.poll([&](const auto& rq, auto& rs) { return fb::serve(locked_loco, rq, rs); });
      light_server.poll([&](const auto& rq, auto& rs) { return fb::serve(locked_light, rq, rs); });
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });

  praxis::transport::DecodingSubscriber<b::LowCmdWire, b::LowCmdValue<N>> joint_ctrl(
      participant, topics.joint_ctrl, &booster_interface_msg_dds__LowCmd__desc,
      [](const b::LowCmdWire& w, b::LowCmdValue<N>& v) { return b::decode_low_cmd<N>(w, v); });
  praxis::transport::DecodingSubscriber<brain_msg_dds__Kick_, KickValue> kicks(participant, topics.kick_ball,
                                                                          &brain_msg_dds__Kick__desc, &kick_from_wire);
  praxis::transport::EncodingPublisher<b::LowStateWire, praxis::RobotState<N>, b::LowStateToWire<N>> low_state(
      participant, topics.low_state, &booster_interface_msg_dds__LowState__desc);
  praxis::transport::Publisher<b::FallDownWire> fall_down(participant, topics.fall_down,
                                                    &booster_interface_msg_dds__FallDownState__desc);
  struct ButtonPress {
    double at;
    b::ButtonEventWire event;
  };
  std::vector<ButtonPress> presses;
  for (const auto& text : s.buttons) {
    double t = 0;
    int id = 0, ev = 0;
    char c1 = 0, c2 = 0;
    std::stringstream in(text);
    if (!(in >> t >> c1 >> id >> c2 >> ev) || c1 != ':' || c2 != ':' || ev < 0 || ev > 7) {
      throw std::invalid_argument("--button: expected T:ID:EVENT with EVENT 0..7, got \"" + text + "\"");
    }
    b::ButtonEventWire e{};
    e.button = id;
    e.event = static_cast<booster_interface_msg_dds__ButtonEventType>(ev);
    presses.push_back({t, e});
  }
  praxis::transport::Publisher<b::ButtonEventWire> button_events(participant, topics.button_event,
                                                           &booster_interface_msg_dds__ButtonEventMsg__desc,
                                                           praxis::transport::TopicQos{.reliable = true, .depth = 16});
  std::size_t next_press = 0;
  praxis::transport::Publisher<b::RemoteWire> remote(participant, topics.remote_controller,
                                               &booster_interface_msg_dds__RemoteControllerState__desc);

  praxis::mock::MockRobot<M> robot(praxis::mock::MockOptions{}, t0);
  if (!s.lying) robot.set_joint_positions(M::stand_pose);
  bool script_started = s.script_start == "start";
  // Checked now either way (a bad script is an error before anything runs).
  const auto gamepad_script = praxis::parse_gamepad_script(s.gamepad);
  if (script_started) robot.script_gamepad(gamepad_script, t0);

  std::printf("praxis-fake-booster: %s on DDS domain %u, interface %s, %s space, %s, mode %s\n",
              std::string(M::name).c_str(), s.domain, s.interface.c_str(),
              space == b::MotorSpace::parallel ? "parallel" : "serial",
              s.lying ? "lying" : "standing", std::string(b::to_string(loco_options.start_mode)).c_str());
  std::fflush(stdout);

  IntakeCounts intake;
  // The joints that carry the robot: legs and waist (every joint but head and arms).
  std::array<bool, N> carries_weight{};
  {
    const auto upper = b::upper_body_joints<M>(/*include_head=*/true);
    for (std::size_t j = 0; j < N; ++j) carries_weight[j] = !upper[j];
  }
  praxis::RobotState<N> state;
  praxis::JointCommand<N> own, custom;
  bool have_custom = false;
  praxis::transport::Stamped<b::LowCmdValue<N>> frame;
  praxis::transport::Stamped<KickValue> kick;
  std::uint64_t kicks_received = 0, states_published = 0;
  praxis::TimePoint first_kick{}, last_kick{};
  KickValue last_kick_value;
  bool standing = !s.lying;
  std::size_t get_ups_seen = 0;
  bool getting_up = false;  // (not std::optional: g++ 12 warns maybe-uninitialized)
  praxis::TimePoint getting_up_since{};
  b::FallState fall = standing ? b::FallState::ready : b::FallState::fallen;
  std::array<double, N> get_up_from{};
  double odom_x = 0, odom_y = 0, odom_theta = 0;
  praxis::TimePoint last_fall_publish{}, last_remote_publish{}, last_tick = t0;

  auto next = t0;
  while (!fake_common::stop_requested()) {
    next += std::chrono::milliseconds(2);
    std::this_thread::sleep_until(next);
    const auto now = praxis::Clock::now();
    if (s.duration > 0 && now - t0 > praxis::from_seconds(s.duration)) break;
    const double dt = praxis::to_seconds(now - last_tick);
    last_tick = now;

    Mode mode;
    fb::LocoService::Velocity velocity;
    double head_pitch = 0, head_yaw = 0;
    std::size_t get_ups = 0;
    bool upper_body = false;
    {
      std::lock_guard lock(loco_mutex);
      mode = loco.mode();
      upper_body = loco.upper_body_control();
      velocity = loco.velocity();
      head_pitch = loco.head_pitch();
      head_yaw = loco.head_yaw();
      for (const auto& c : loco.calls()) get_ups += c.api_id == b::loco_api::k_get_up && c.status == 0;
    }

    // Getting up: from wherever the joints are to the stand pose, in Prepare.
    if (get_ups > get_ups_seen) {
      get_ups_seen = get_ups;
      if (mode == Mode::prepare) {
        getting_up = true;
        getting_up_since = now;
        for (std::size_t j = 0; j < N; ++j) get_up_from[j] = robot.q()[static_cast<Eigen::Index>(j)];
        fall = b::FallState::getting_up;
      }
    }
    double get_up_progress = 1.0;
    if (getting_up) {
      get_up_progress = std::min(1.0, praxis::to_seconds(now - getting_up_since) / s.get_up_seconds);
      if (get_up_progress >= 1.0) {
        getting_up = false;
        standing = true;
        fall = b::FallState::ready;
      }
    }

    // The robot's own controller.
    const bool holds_pose = mode == Mode::prepare || mode == Mode::walking || mode == Mode::soccer;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      own.mode[j] = praxis::JointMode::position;
      own.dq[i] = own.tau_ff[i] = 0.0;
      if (holds_pose && (standing || getting_up)) {
        const double target = getting_up ? get_up_from[j] + get_up_progress * (M::stand_pose[j] - get_up_from[j])
                                               : M::stand_pose[j];
        own.q[i] = target;
        own.kp[i] = M::default_kp[j];
        own.kd[i] = M::default_kd[j];
      } else {  // Damping, Custom before its first command, or lying in Prepare
        own.q[i] = robot.q()[i];
        own.kp[i] = 0.0;
        own.kd[i] = M::default_kd[j];
      }
    }
    if (mode == Mode::walking || mode == Mode::soccer) {
      own.q[0] = head_yaw;
      own.q[1] = head_pitch;
      odom_theta += velocity.vyaw * dt;
      odom_x += (velocity.vx * std::cos(odom_theta) - velocity.vy * std::sin(odom_theta)) * dt;
      odom_y += (velocity.vx * std::sin(odom_theta) + velocity.vy * std::cos(odom_theta)) * dt;
    }

    // rt/joint_ctrl: in Custom it drives the joints (weight is ignored there); in the other modes
    // each joint's weight blends it into the robot's own command.
    praxis::JointCommand<N> applied = own;
    if (joint_ctrl.fetch(frame)) {
      const auto& v = frame.message;
      bool finite = true;
      for (const auto& m : v.motors) {
        finite = finite && std::isfinite(m.q) && std::isfinite(m.dq) && std::isfinite(m.kp) && std::isfinite(m.kd) &&
                 std::isfinite(m.tau) && std::isfinite(m.weight);
      }
      if (v.space != space) {
        ++intake.wrong_space;
      } else if (!finite) {
        ++intake.non_finite;
      } else if (mode == Mode::custom) {
        for (std::size_t j = 0; j < N; ++j) {
          const auto i = static_cast<Eigen::Index>(j);
          custom.q[i] = v.motors[j].q;
          custom.dq[i] = v.motors[j].dq;
          custom.kp[i] = v.motors[j].kp;
          custom.kd[i] = v.motors[j].kd;
          custom.tau_ff[i] = v.motors[j].tau;
        }
        have_custom = true;
        ++intake.applied;
        if (!script_started) {  // --script-start first-command: the controller has taken the joints
          script_started = true;
          robot.script_gamepad(gamepad_script, now);
          std::printf("praxis-fake-booster: script started at the first command in Custom\n");
          std::fflush(stdout);
        }
      } else {
        double arm_weight = 0.0, largest = 0.0;
        bool leg_weight = false;
        for (std::size_t j = 0; j < N; ++j) {
          const double w = std::clamp(static_cast<double>(v.motors[j].weight), 0.0, 1.0);
          largest = std::max(largest, w);
          if (carries_weight[j] && w > 0.0) leg_weight = true;
          if (!carries_weight[j]) arm_weight = std::max(arm_weight, w);
        }
        intake.last_weight = largest;
        if (mode == Mode::walking) {
          intake.leg_weight += leg_weight ? 1 : 0;
          if (arm_weight > 0.0) ++(upper_body ? intake.arms_blended : intake.without_upper_body_control);
          intake.max_arm_weight = std::max(intake.max_arm_weight, arm_weight);
        }
        for (std::size_t j = 0; j < N; ++j) {
          const auto i = static_cast<Eigen::Index>(j);
          const double w = std::clamp(static_cast<double>(v.motors[j].weight), 0.0, 1.0);
          applied.q[i] = w * v.motors[j].q + (1 - w) * own.q[i];
          applied.kp[i] = w * v.motors[j].kp + (1 - w) * own.kp[i];
          applied.kd[i] = w * v.motors[j].kd + (1 - w) * own.kd[i];
          applied.tau_ff[i] = w * v.motors[j].tau;
        }
        ++intake.blended;
      }
    }
    if (mode != Mode::custom) have_custom = false;
    if (!script_started && upper_body) {  // --script-start first-command: the arms were taken
      script_started = true;
      robot.script_gamepad(gamepad_script, now);
      std::printf("praxis-fake-booster: script started at UpperBodyCustomControl\n");
      std::fflush(stdout);
    }
    robot.write(mode == Mode::custom && have_custom ? custom : applied, now);
    robot.read(state, now);
    state.gamepad = robot.gamepad();
    if (low_state.write(state)) ++states_published;

    if (now - last_fall_publish >= std::chrono::milliseconds(100)) {
      b::FallDownWire f{};
      f.fall_down_state = static_cast<booster_interface_msg_dds__FallDownStateType>(fall);
      f.is_recovery_available = fall == b::FallState::fallen;
      fall_down.write(f);
      last_fall_publish = now;
    }
    if (now - last_remote_publish >= std::chrono::milliseconds(20)) {
      remote.write(b::remote_from(state.gamepad));
      last_remote_publish = now;
    }
    while (next_press < presses.size() && now - t0 >= praxis::from_seconds(presses[next_press].at)) {
      button_events.write(presses[next_press++].event);
    }
    if (kicks.fetch(kick)) {
      if (kicks_received == 0) first_kick = now;
      last_kick = now;
      last_kick_value = kick.message;
    }
    kicks_received = kicks.received();
  }
  rpc_stop = true;
  rpc_thread.join();

  nlohmann::json report;
  report["robot"] = std::string(M::name);
  report["states_published"] = states_published;
  {
    std::lock_guard lock(loco_mutex);
    report["mode"] = std::string(b::to_string(loco.mode()));
    report["answers_lost"] = loco.answers_lost();
    auto& modes = report["modes"] = nlohmann::json::array();
    for (const auto& e : loco.mode_entries()) {
      modes.push_back({{"t", praxis::to_seconds(e.at - t0)}, {"mode", std::string(b::to_string(e.mode))}});
    }
    auto& calls = report["loco_calls"] = nlohmann::json::array();
    for (const auto& c : loco.calls()) {
      calls.push_back({{"t", praxis::to_seconds(c.at - t0)},
                       {"api", c.api_id},
                       {"name", api_name(c.api_id)},
                       {"status", c.status},
                       {"answered", c.answered},
                       {"body", c.body}});
    }
  }
  {
    std::lock_guard lock(light_mutex);
    auto& calls = report["light_calls"] = nlohmann::json::array();
    for (const auto& c : light.calls()) {
      calls.push_back({{"t", praxis::to_seconds(c.at - t0)}, {"api", c.api_id}, {"status", c.status}, {"body", c.body}});
    }
  }
  const double kick_span = praxis::to_seconds(last_kick - first_kick);
  report["kick_ball"] = {{"received", kicks_received},
                         {"rate_hz", kicks_received > 1 && kick_span > 0 ? (kicks_received - 1) / kick_span : 0.0},
                         {"last_x", last_kick_value.x},
                         {"last_y", last_kick_value.y},
                         {"last_power", last_kick_value.power}};
  report["joint_ctrl"] = {{"received", joint_ctrl.received()},
                          {"rejected", joint_ctrl.rejected()},
                          {"applied_in_custom", intake.applied},
                          {"blended", intake.blended},
                          {"wrong_space", intake.wrong_space},
                          {"non_finite", intake.non_finite}};
  {
    std::lock_guard lock(loco_mutex);
    report["upper_body"] = {{"control_at_end", loco.upper_body_control()},
                            {"arms_blended_in_walking", intake.arms_blended},
                            {"leg_weight_in_walking", intake.leg_weight},
                            {"without_upper_body_control", intake.without_upper_body_control},
                            {"max_arm_weight", intake.max_arm_weight},
                            {"last_weight", intake.last_weight}};
  }
  report["odometry"] = {{"x", odom_x}, {"y", odom_y}, {"theta", odom_theta}};
  report["standing"] = standing;
  report["final_q"] = std::vector<double>(robot.q().data(), robot.q().data() + N);
  const std::string summary = std::to_string(report["loco_calls"].size()) + " loco calls, " +
                              std::to_string(report["light_calls"].size()) + " light calls, ended in " +
                              report["mode"].get<std::string>();
  return {report, summary};
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const fake_common::Fake fake{.program = "praxis-fake-booster",
                               .description = "praxis-fake-booster: a Booster T1 / K1 impersonated on DDS, with mock dynamics",
                               .robots = {"t1", "t1_7dof", "k1"},
                               .robot = "t1",
                               .domain = 0,
                               .domain_help = "DDS domain id (Booster robots: 0)"};
  const auto add_options = [&s](CLI::App& app) {
    app.add_option("--space", s.space,
                   "the motor space rt/joint_ctrl must use (LowCmd.cmd_type); default: the model's (t1 parallel, k1 serial)")
        ->check(CLI::IsMember({"serial", "parallel"}));
    app.add_option("-g,--gamepad", s.gamepad,
                   "remote controller script, seconds from the script's start: buttons BUTTON:START[-END], sticks "
                   "AXIS=VALUE@START[-END] (lx ly rx ry, -1..1), e.g. \"R2:0.5-3.0,A:4.0,LY=0.5@10-30\"");
    app.add_option("--script-start", s.script_start,
                   "when the --gamepad times start counting: at the robot's start, or when a controller took the "
                   "robot (the first rt/joint_ctrl frame taken in Custom, or UpperBodyCustomControl started): one "
                   "slow to take it still sees the whole script")
        ->check(CLI::IsMember({"start", "first-command"}));
    app.add_option("--hang-api", s.hang, "loco API ids never answered (the client's timeout is tested)");
    app.add_option("--delay-api", s.delay, "loco API answered late: ID:MS");
    app.add_option("--min-interval-ms", s.min_interval_ms, "answer 429 to the same API sooner than this");
    app.add_option("--reply-delay-ms", s.reply_delay_ms, "answer every loco call this late (--delay-api wins for its API)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--drop-every", s.drop_every,
                   "lose the answers to the K-th, 2K-th, ... call of a loco API: ID:K (ID 0: counting every API)");
    app.add_option("--lose-answer", s.lose_answer, "lose the answer to the N-th call of a loco API: ID:N (2000:1)");
    app.add_option("--drop-probability", s.drop_probability, "lose each loco answer with this probability")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--seed", s.seed, "seed of --drop-probability's draws");
    app.add_option("--refuse-once", s.refuse_once,
                   "answer the first call of a loco API with this status, without acting on it: ID:CODE (2000:502)");
    app.add_option("--start-mode", s.start_mode, "the robot's mode at start (standing unless --lying)")
        ->check(CLI::IsMember({"damping", "prepare", "walking", "soccer", "custom"}));
    app.add_option("--button", s.buttons, "publish a button event on rt/button_event: T:ID:EVENT (s, button, 0..7)");
    app.add_flag("--lying", s.lying, "start lying down (fallen): Prepare, then GetUp stands the robot up");
    app.add_option("--get-up-seconds", s.get_up_seconds, "how long getting up takes");
  };
  return fake_common::fake_robot_main(argc, argv, fake, s, add_options, [&s] {
    if (s.robot == "k1") return run<praxis::booster::K1>(s);
    if (s.robot == "t1_7dof") return run<praxis::booster::T1Arms7>(s);
    return run<praxis::booster::T1>(s);
  });
}
