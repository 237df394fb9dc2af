#pragma once
// Interface: which Booster calls the robot's requests need, and when — the schedule of HULKs'
// booster_interface, as a pure planner driven by the caller's clock.
//
// The cycle posts a level-triggered RobotRequests; every worker tick (10 ms on Booster) the planner
// compares it with what it assumes about the robot and hands the calls that are due to a sink. It
// performs nothing itself: no threads, no I/O, no allocation, so a test steps it with made-up time
// points and the backend's worker hands its plan to a CallExecutor (executor.hpp).
//
// Per tick, in this order (the order matters: a mode change and the call it enables share a tick):
//   1. nothing before the first requests with `any` set — no call reaches a robot nobody commands;
//   2. the motion's role, from the requests' motion (see k_roles);
//   3. leaving a visual kick: visual_kick(false) if Soccer is assumed, then the kick is over;
//   4. the desired mode (damping -> Damping, prepare -> Prepare, locomotion -> the configured
//      locomotion mode, Soccer unless told otherwise, never Walking by default, user -> Custom,
//      unknown -> whatever is assumed, i.e. no change);
//   5. the sink is told the InputState when it differs from the last one it was told;
//   6. change_mode when desired differs from assumed, and the planner assumes the new mode at once:
//      the robot's reports are not waited for. A change the robot finally refused (after the
//      executor's retries) is reported back with refused(): the planner then assumes the mode the
//      robot reports and does not ask for the refused one again until another mode is wanted;
//   7. get_up once per new get_up counter value while Prepare is assumed (a new value in another
//      mode is spent without a call: the robot only gets up from Prepare);
//   8. visual kick while the motion is the visual kick and Soccer is assumed: on entry kick_publish and
//      visual_kick(true), then kick_publish whenever the kick interval is due;
//   9. move_robot when standing or walking (locomotion.active), not kicking, the locomotion mode is
//      assumed and the move interval is due (standing sends zero velocity: the robot's own gait
//      controller balances only while it keeps being told what to do);
//  10. rotate_head when head.active, the locomotion mode is assumed and the head interval is due;
//  11. LEDs: set_leds on each change of a set colour, stop_leds when `set` turns false after having
//      been true. In any mode, but also behind step 1: before the first command the LEDs are the
//      robot's own.
// "Due" means now - last >= interval; the "last sent" times start at the first tick, as the timers
// of HULKs start with the node, so the first periodic call comes one interval after it.
//
// The mode assumed before the first change_mode is the one the robot reported at start (the backend
// asks GetMode in acquire()), or InterfaceParams::initial_mode when it did not answer.
//
// The sink is any callable taking `const PlannedAction&`; if it also takes `const InputState&`, it
// is told about input changes too (the "booster input state changed" log).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/interface_params.hpp"

namespace praxis::booster {

enum class Action : std::uint8_t { change_mode, get_up, move_robot, rotate_head, kick_publish, visual_kick, set_leds, stop_leds };
inline constexpr std::size_t k_actions = 8;

// How each action reaches the robot: the loco service's RPC, the light service's RPC, or the kick
// topic (a DDS write, no call).
enum class Channel : std::uint8_t { loco, light, kick_topic };

// Every action's facts in one table, in Action's order: its name in logs, its channel, its RPC id
// (0 for the topic), and whether it is periodic (a newer one makes an older one still waiting
// worthless: the executor drops it).
struct ActionInfo {
  Action action;
  std::string_view name;
  Channel channel;
  std::uint32_t api_id;
  bool periodic;
};
inline constexpr std::array<ActionInfo, k_actions> k_action_table{{
    {Action::change_mode, "change_mode", Channel::loco, loco_api::k_change_mode, false},
    {Action::get_up, "get_up", Channel::loco, loco_api::k_get_up, false},
    {Action::move_robot, "move_robot", Channel::loco, loco_api::k_move, true},
    {Action::rotate_head, "rotate_head", Channel::loco, loco_api::k_rotate_head, true},
    {Action::kick_publish, "kick_publish", Channel::kick_topic, 0, true},
    {Action::visual_kick, "visual_kick", Channel::loco, loco_api::k_visual_kick, false},
    {Action::set_leds, "set_leds", Channel::light, light_api::k_set_led_light_color, false},
    {Action::stop_leds, "stop_leds", Channel::light, light_api::k_stop_led_light_control, false},
}};
static_assert(
    [] {
      for (std::size_t i = 0; i < k_actions; ++i) {
        if (static_cast<std::size_t>(k_action_table[i].action) != i) return false;
      }
      return true;
    }(),
    "k_action_table lists the actions in Action's order");

[[nodiscard]] constexpr const ActionInfo& info(Action a) { return k_action_table[static_cast<std::size_t>(a)]; }
[[nodiscard]] constexpr std::string_view to_string(Action a) { return info(a).name; }
[[nodiscard]] constexpr bool is_periodic(Action a) { return info(a).periodic; }

// What Booster's own controller does for each motion: the planner's table, by the requests' motion.
// Derived from the motion registry (what the robot runs, the mode a motion asks for); a motion
// added to the registry needs no entry here. Only two motions mean more than their mode: stand-up
// (Prepare, then the get-up call) and the visual kick (the kick stream in Soccer).
enum class Role : std::uint8_t {
  damping,  // the robot's Damping
  prepare,  // its Prepare pose
  get_up,   // Prepare, and getting up from it
  on_feet,  // its own standing and walking: move_robot at the move interval
  kick,     // its visual kick: the kick stream
  custom,   // joint control by praxis (Custom)
};

namespace detail {
[[nodiscard]] constexpr Role role_from_tag(MotionType t) {
  if (t == MotionType::stand_up) return Role::get_up;
  if (t == MotionType::visual_kick) return Role::kick;
  switch (Motions::robot_modes[static_cast<std::size_t>(t)]) {
    case RobotModeFor::damping: return Role::damping;
    case RobotModeFor::prepare: return Role::prepare;
    case RobotModeFor::locomotion_else_user: return Role::on_feet;
    case RobotModeFor::user: return Role::custom;
  }
  return Role::custom;
}
}  // namespace detail

inline constexpr std::array<Role, k_motion_types> k_roles = [] {
  std::array<Role, k_motion_types> roles{};
  for (std::size_t t = 0; t < k_motion_types; ++t) roles[t] = detail::role_from_tag(static_cast<MotionType>(t));
  return roles;
}();

[[nodiscard]] constexpr Role role_of(MotionType t) {
  return static_cast<std::size_t>(t) < k_motion_types ? k_roles[static_cast<std::size_t>(t)] : Role::damping;
}

// One message of the rt/kick_ball stream (Booster's Kick type, header stamp aside).
struct KickMessage {
  double x = 0.0, y = 0.0;            // m: the ball, robot frame
  double dir = 0.0;                   // rad: kick direction, robot frame
  double goal_x = 0.0, goal_y = 0.0;  // m: where the ball should go, robot frame
  double robot_theta_to_field = 0.0;  // rad
  double power = 0.0;                 // the configured power of the requested strength
  TimePoint stamp{};                  // when it was planned (the caller's clock)
};

[[nodiscard]] inline KickMessage kick_message(const Kick& k, const KickPowerParams& powers, TimePoint now) {
  return KickMessage{k.ball_position.x(),   k.ball_position.y(),   k.kick_direction,
                     k.target_position.x(), k.target_position.y(), k.robot_theta_to_field,
                     k.kick_power == KickPower::strong ? powers.strong : powers.soft, now};
}

// One call the robot should get. Only the fields of its action mean anything.
struct PlannedAction {
  Action action = Action::change_mode;
  Mode mode = Mode::unknown;             // change_mode
  bool enabled = false;                  // visual_kick: start or stop
  double forward = 0.0, left = 0.0, turn = 0.0;  // move_robot: m/s, m/s, rad/s
  double pitch = 0.0, yaw = 0.0;         // rotate_head: rad
  KickMessage kick;                      // kick_publish
  LedRequest leds;                       // set_leds
  std::int32_t version = 0;              // get_up and visual_kick: the API's "version" (from the parameters)
};

// The request that ends control: the robot's Damping mode (docs/safety.md). The executor
// delivers it before anything queued and retries it until the robot confirms (executor.hpp).
[[nodiscard]] constexpr bool ends_control(const PlannedAction& a) {
  return a.action == Action::change_mode && a.mode == Mode::damping;
}

// What the planner sees and assumes; the sink hears about every change.
struct InputState {
  MotionType motion = MotionType::damping;
  Mode desired_mode = Mode::damping;
  Mode assumed_mode = Mode::damping;
  bool visual_kick_active = false;
  bool head_present = false;
  friend constexpr bool operator==(const InputState&, const InputState&) = default;
};

class Interface {
 public:
  // `initial`: the robot's mode at start, as it reported it (GetMode), or InterfaceParams::initial_mode.
  explicit Interface(InterfaceParams params) : Interface(params, params.initial_mode) {}
  Interface(InterfaceParams params, Mode initial) : params_(params), assumed_(initial) {}

  template <class Sink>
  void tick(const RobotRequests& r, TimePoint now, Sink&& sink) {
    if (!started_) {
      started_ = true;
      last_move_ = last_head_ = last_kick_ = now;
    }
    // 1.
    if (!r.any) return;
    commanded_ = true;

    // 2.
    const bool new_get_up = r.get_up != last_get_up_;
    const Role role = role_of(r.motion);

    // 3.
    if (visual_kick_active_ && role != Role::kick) {
      if (assumed_ == Mode::soccer) {
        PlannedAction a = make(Action::visual_kick);
        a.enabled = false;
        a.version = params_.visual_kick_version;
        sink(std::as_const(a));
      }
      visual_kick_active_ = false;
    }

    // 4.
    const Mode desired = desired_mode(r.mode);

    // 5.
    const InputState input{r.motion, desired, assumed_, visual_kick_active_, r.head.active};
    if (!input_told_ || !(input == input_)) {
      input_told_ = true;
      input_ = input;
      if constexpr (std::is_invocable_v<Sink&, const InputState&>) sink(std::as_const(input));
    }

    // 6.
    if (has_refused_ && desired != refused_) has_refused_ = false;  // another mode wanted: a fresh try
    if (desired != assumed_ && !(has_refused_ && desired == refused_)) {
      PlannedAction a = make(Action::change_mode);
      a.mode = desired;
      sink(std::as_const(a));
      assumed_ = desired;
    }

    // 7.
    if (new_get_up) {
      last_get_up_ = r.get_up;
      if (r.mode == RobotMode::prepare && assumed_ == Mode::prepare) {
        PlannedAction a = make(Action::get_up);
        a.version = params_.get_up_version;
        sink(std::as_const(a));
      }
    }

    // 8.
    if (role == Role::kick && assumed_ == Mode::soccer) {
      const bool entry = !visual_kick_active_;
      if (entry || due(last_kick_, params_.kicking.kick_message_interval, now)) {
        PlannedAction a = make(Action::kick_publish);
        a.kick = kick_message(r.kick, params_.kicking.kick_power, now);
        sink(std::as_const(a));
        last_kick_ = entry ? now : next_slot(last_kick_, params_.kicking.kick_message_interval, now);
      }
      if (entry) {
        PlannedAction a = make(Action::visual_kick);
        a.enabled = true;
        a.version = params_.visual_kick_version;
        sink(std::as_const(a));
        visual_kick_active_ = true;
      }
    }

    // 9.
    if (role == Role::on_feet && r.locomotion.active && assumed_ == params_.locomotion_mode &&
        due(last_move_, params_.move_robot_message_interval, now)) {
      PlannedAction a = make(Action::move_robot);
      a.forward = r.locomotion.vx;
      a.left = r.locomotion.vy;
      a.turn = r.locomotion.wz;
      sink(std::as_const(a));
      last_move_ = next_slot(last_move_, params_.move_robot_message_interval, now);
    }

    // 10.
    if (r.head.active && assumed_ == params_.locomotion_mode && due(last_head_, params_.rotate_head_message_interval, now)) {
      PlannedAction a = make(Action::rotate_head);
      a.pitch = r.head.pitch;
      a.yaw = r.head.yaw;
      sink(std::as_const(a));
      last_head_ = next_slot(last_head_, params_.rotate_head_message_interval, now);
    }

    // 11.
    const LedRequest leds = r.leds.set ? r.leds : LedRequest{};
    if (leds.set && !(leds == leds_)) {
      PlannedAction a = make(Action::set_leds);
      a.leds = leds;
      sink(std::as_const(a));
    } else if (!leds.set && leds_.set) {
      const PlannedAction a = make(Action::stop_leds);
      sink(a);
    }
    leds_ = leds;
  }

  [[nodiscard]] Mode assumed_mode() const { return assumed_; }
  // Whether requests with `any` arrived: praxis commands the robot (and must end that with Damping).
  [[nodiscard]] bool commanded() const { return commanded_; }

  // The robot finally refused (or never answered) the change to `wanted`, and reports `reported`
  // (Mode::unknown when it did not say). Unless a newer change was planned since, the planner
  // assumes what the robot reports, and `wanted` is not asked for again until another mode is.
  void refused(Mode wanted, Mode reported) {
    if (assumed_ != wanted) return;
    assumed_ = reported;
    refused_ = wanted;
    has_refused_ = true;
  }
  [[nodiscard]] bool visual_kick_active() const { return visual_kick_active_; }
  [[nodiscard]] const InputState& input_state() const { return input_; }
  [[nodiscard]] const InterfaceParams& params() const { return params_; }

  // The robot's mode for a requested one; unknown leaves the assumed mode as it is.
  [[nodiscard]] Mode desired_mode(RobotMode m) const {
    switch (m) {
      case RobotMode::damping: return Mode::damping;
      case RobotMode::prepare: return Mode::prepare;
      case RobotMode::locomotion: return params_.locomotion_mode;
      case RobotMode::user: return Mode::custom;
      case RobotMode::unknown: return assumed_;
    }
    return assumed_;
  }

 private:
  static PlannedAction make(Action a) {
    PlannedAction p;
    p.action = a;
    return p;
  }
  static bool due(TimePoint last, Duration interval, TimePoint now) { return now - last >= interval; }
  // The slot a periodic call was sent for: one interval after the last, so that ticks which land a
  // little late (a 10 ms worker on a busy machine) do not stretch 20 ms into 30 and the rate stays
  // at 1 / interval; after a longer gap the schedule restarts from now instead of catching up.
  static TimePoint next_slot(TimePoint last, Duration interval, TimePoint now) {
    return now - last < 2 * interval ? last + interval : now;
  }

  InterfaceParams params_;
  bool started_ = false;
  // From the robot's report at start (HULKs assumes Damping; praxis asks): a first request for the
  // mode the robot is in costs no call.
  Mode assumed_ = Mode::damping;
  bool commanded_ = false;
  bool has_refused_ = false;
  Mode refused_ = Mode::unknown;
  bool visual_kick_active_ = false;
  std::uint32_t last_get_up_ = 0;  // RobotRequests' initial value: a first request with 1 is a new one
  LedRequest leds_{};
  bool input_told_ = false;
  InputState input_{};
  TimePoint last_move_{}, last_head_{}, last_kick_{};
};

}  // namespace praxis::booster
