#pragma once
// The fake Booster robot's loco service: it keeps the robot's mode and answers the loco API the way
// the robot's state machine would, so a client's mistakes (walking from Damping, kicking outside
// Soccer) show up as the 409s the real robot gives. Every call is recorded with its arrival time.
//
// Rules (the robot starts in Damping unless LocoServiceOptions::start_mode says otherwise):
//   ChangeMode   Damping and Prepare from any mode; Walking, Soccer, Custom only from Prepare or
//                from one another (409 otherwise); a value that is not a RobotMode 0..4 is 400
//   Move         Walking or Soccer          RotateHead  Walking, Soccer or Custom
//   GetUp        Prepare                    LieDown     Prepare, Walking or Soccer (ends in Prepare)
//   VisualKick   Soccer (then tracks whether the kick is active)
//   UpperBodyCustomControl   Walking (start or stop); leaving Walking ends it. Which modes the
//                robot allows it in is UNVERIFIED: the fake allows the one praxis' arms-only
//                access uses it in and refuses the others, so a call in another mode shows.
//   GetMode, GetStatus   always
// An unknown API id is 400, not 501: the status table gives 501 as "server refused", a decision
// about a request the server understood, while an id the service does not have is a malformed
// request. A body that is not a JSON object, or lacks a key or has one of the wrong type, is 400.
// GetUp's "version" and VisualKick's "version" may be missing (V1): vendor clients omit them.
//
// Faults, as options (the acceptance rules of a slow, lossy or reluctant robot): every answer late
// (reply_delay) or one API's (answer_after); answers lost (never_answer, drop_every, drop_probability
// with a seed: the robot acts, only the answer is lost); one API refused once with a code, not acted
// on (refuse_once: a 502 on the first ChangeMode is a state machine that did not switch); 429 when
// called too often (min_interval).

#include <cstdint>
#include <initializer_list>
#include <random>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "service.hpp"

namespace praxis::fake_booster {

struct LocoServiceOptions {
  std::map<std::int64_t, Duration> answer_after = {};  // api id -> delay before its answer
  std::set<std::int64_t> never_answer = {};            // api ids whose answers are withheld
  // > 0: a call arriving sooner than this after the last accepted call of the same API is 429.
  Duration min_interval = Duration::zero();
  Duration reply_delay = Duration::zero();  // every answer this much later (answer_after wins for its API)
  // api id (0: any API) -> k: the answers to its k-th, 2k-th, ... call are lost.
  std::map<std::int64_t, std::uint32_t> drop_every = {};
  // api id -> n: the answers to exactly these calls of it (1: its first call) are lost.
  std::map<std::int64_t, std::set<std::uint64_t>> lose_answer_to = {};
  double drop_probability = 0.0;  // each answer is lost with this probability ...
  std::uint64_t seed = 1;         // ... drawn from a generator seeded with this
  // api id -> status: the first call of that API is answered with this status and not acted on.
  std::map<std::int64_t, std::int32_t> refuse_once = {};
  booster::Mode start_mode = booster::Mode::damping;  // the mode the robot is in when the service starts
};

struct ModeEntry {
  booster::Mode mode;
  TimePoint at;
};

class LocoService {
 public:
  explicit LocoService(LocoServiceOptions options = {}, TimePoint start = TimePoint{})
      : options_(std::move(options)), entries_{{options_.start_mode, start}}, random_(options_.seed) {}

  // Answers one call that arrived at `now`. The mode changes as soon as the call is handled, also
  // when its answer is delayed or withheld (the robot acted; the answer was slow or lost).
  Answer handle(TimePoint now, std::int64_t api_id, std::string_view body) {
    Answer answer;
    const auto last = last_accepted_.find(api_id);
    if (options_.min_interval > Duration::zero() && last != last_accepted_.end() &&
        now - last->second < options_.min_interval) {
      answer = {booster::status::k_too_frequent,
                detail::message_body("API " + std::to_string(api_id) + " again after " +
                                     std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        now - last->second).count()) +
                                     " ms; the minimum interval is " +
                                     std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        options_.min_interval).count()) + " ms")};
    } else if (const auto refuse = options_.refuse_once.find(api_id);
               refuse != options_.refuse_once.end() && refused_.insert(api_id).second) {
      answer = {refuse->second, detail::message_body("API " + std::to_string(api_id) + " refused once with status " +
                                                     std::to_string(refuse->second) + " (--refuse-once)")};
    } else {
      last_accepted_[api_id] = now;
      try {
        answer = dispatch(now, api_id, body);
      } catch (const detail::BadBody& e) {
        answer = {booster::status::k_bad_request, detail::message_body(e.what())};
      }
    }
    answer.delay = options_.reply_delay;
    if (const auto it = options_.answer_after.find(api_id); it != options_.answer_after.end()) answer.delay = it->second;
    const bool lost = lose_answer(api_id);  // counted for every call, so "every k-th" means what it says
    answer.never = options_.never_answer.count(api_id) != 0 || lost;
    calls_.push_back({now, api_id, std::string(body), answer.status, !answer.never});
    return answer;
  }

  [[nodiscard]] booster::Mode mode() const { return entries_.back().mode; }
  [[nodiscard]] std::uint64_t answers_lost() const { return answers_lost_; }
  [[nodiscard]] bool visual_kick_active() const { return visual_kick_active_; }
  [[nodiscard]] int visual_kick_version() const { return visual_kick_version_; }
  [[nodiscard]] bool lying_down() const { return lying_down_; }
  [[nodiscard]] bool upper_body_control() const { return upper_body_control_; }
  struct Velocity {
    double vx = 0, vy = 0, vyaw = 0;
  };
  [[nodiscard]] Velocity velocity() const { return velocity_; }  // the last accepted Move
  [[nodiscard]] double head_pitch() const { return head_pitch_; }
  [[nodiscard]] double head_yaw() const { return head_yaw_; }

  [[nodiscard]] std::vector<RecordedCall> calls() const { return calls_; }
  // Every mode entered, in order, with its time; the first is Damping at the start time.
  [[nodiscard]] const std::vector<ModeEntry>& mode_entries() const { return entries_; }
  // When `m` was last entered, if ever.
  [[nodiscard]] std::optional<TimePoint> entered(booster::Mode m) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (it->mode == m) return it->at;
    }
    return std::nullopt;
  }
  LocoServiceOptions& options() { return options_; }

 private:
  using Mode = booster::Mode;

  // drop_every and drop_probability: whether this call's answer is lost.
  bool lose_answer(std::int64_t api_id) {
    const auto per_api = ++call_count_[api_id];
    const auto any = ++call_count_any_;
    bool lose = false;
    if (const auto it = options_.drop_every.find(api_id); it != options_.drop_every.end() && it->second > 0) {
      lose = per_api % it->second == 0;
    }
    if (const auto it = options_.drop_every.find(0); it != options_.drop_every.end() && it->second > 0) {
      lose = lose || any % it->second == 0;
    }
    if (const auto it = options_.lose_answer_to.find(api_id); it != options_.lose_answer_to.end()) {
      lose = lose || it->second.count(per_api) != 0;
    }
    if (options_.drop_probability > 0.0) {
      lose = std::uniform_real_distribution<double>(0.0, 1.0)(random_) < options_.drop_probability || lose;
    }
    answers_lost_ += lose ? 1 : 0;
    return lose;
  }

  static Answer ok(std::string body = "") { return {booster::status::k_ok, std::move(body)}; }
  Answer conflict(std::string_view api, std::string_view allowed) const {
    return {booster::status::k_conflict,
            detail::message_body(std::string(api) + " needs " + std::string(allowed) + "; the robot is in " +
                                 std::string(booster::to_string(mode())))};
  }
  bool in(std::initializer_list<Mode> modes) const {
    for (const Mode m : modes) {
      if (mode() == m) return true;
    }
    return false;
  }

  void enter(Mode m, TimePoint now) {
    if (m == mode()) return;
    entries_.push_back({m, now});
    if (m != Mode::soccer) visual_kick_active_ = false;
    if (m != Mode::walking && m != Mode::soccer) velocity_ = {};
    if (m != Mode::walking) upper_body_control_ = false;
  }

  Answer dispatch(TimePoint now, std::int64_t api_id, std::string_view body) {
    namespace api = booster::loco_api;
    switch (api_id) {
      case api::k_change_mode: {
        const auto j = detail::parse_body("ChangeMode", body);
        const auto value = detail::integer(j, "ChangeMode", "mode");
        if (value < static_cast<std::int64_t>(Mode::damping) || value > static_cast<std::int64_t>(Mode::soccer)) {
          return {booster::status::k_bad_request,
                  detail::message_body("ChangeMode: \"mode\" " + std::to_string(value) +
                                       " is not a RobotMode (0 Damping, 1 Prepare, 2 Walking, 3 Custom, 4 Soccer)")};
        }
        const auto target = static_cast<Mode>(value);
        const bool gaited = target == Mode::walking || target == Mode::soccer || target == Mode::custom;
        if (gaited && !in({Mode::prepare, Mode::walking, Mode::soccer, Mode::custom})) {
          return conflict("ChangeMode to " + std::string(booster::to_string(target)),
                          "Prepare, Walking, Soccer or Custom");
        }
        enter(target, now);
        return ok();
      }
      case api::k_move: {
        const auto j = detail::parse_body("Move", body);
        const Velocity v{detail::number(j, "Move", "vx"), detail::number(j, "Move", "vy"),
                         detail::number(j, "Move", "vyaw")};
        if (!in({Mode::walking, Mode::soccer})) return conflict("Move", "Walking or Soccer");
        velocity_ = v;
        return ok();
      }
      case api::k_rotate_head: {
        const auto j = detail::parse_body("RotateHead", body);
        const double pitch = detail::number(j, "RotateHead", "pitch");
        const double yaw = detail::number(j, "RotateHead", "yaw");
        if (!in({Mode::walking, Mode::soccer, Mode::custom})) return conflict("RotateHead", "Walking, Soccer or Custom");
        head_pitch_ = pitch;
        head_yaw_ = yaw;
        return ok();
      }
      case api::k_get_up: {
        const auto j = detail::parse_body("GetUp", body);
        if (j.contains("version")) (void)detail::integer(j, "GetUp", "version");
        if (!in({Mode::prepare})) return conflict("GetUp", "Prepare");
        lying_down_ = false;
        return ok();
      }
      case api::k_lie_down: {
        (void)detail::parse_body("LieDown", body);
        if (!in({Mode::prepare, Mode::walking, Mode::soccer})) return conflict("LieDown", "Prepare, Walking or Soccer");
        // The robot's mode after lying down is not documented; the fake settles in Prepare, the mode
        // GetUp needs, so LieDown then GetUp works as a pair.
        enter(Mode::prepare, now);
        lying_down_ = true;
        return ok();
      }
      case api::k_visual_kick: {
        const auto j = detail::parse_body("VisualKick", body);
        const bool start = detail::boolean(j, "VisualKick", "start");
        const auto version = j.contains("version") ? detail::integer(j, "VisualKick", "version") : 0;
        if (!in({Mode::soccer})) return conflict("VisualKick", "Soccer");
        visual_kick_active_ = start;
        visual_kick_version_ = static_cast<int>(version);
        return ok();
      }
      case api::k_upper_body_custom_control: {
        const auto j = detail::parse_body("UpperBodyCustomControl", body);
        const bool start = detail::boolean(j, "UpperBodyCustomControl", "start");
        if (!in({Mode::walking})) return conflict("UpperBodyCustomControl", "Walking");
        upper_body_control_ = start;
        return ok();
      }
      case api::k_get_mode:
        (void)detail::parse_body("GetMode", body);
        return ok(nlohmann::json{{"mode", static_cast<std::int32_t>(mode())}}.dump());
      case api::k_get_status:
        (void)detail::parse_body("GetStatus", body);
        return ok(nlohmann::json{{"current_mode", static_cast<std::int32_t>(mode())},
                                 {"current_body_control", body_control()},
                                 {"current_actions", nlohmann::json::array()}}
                      .dump());
      default:
        return {booster::status::k_bad_request,
                detail::message_body("the loco service has no API " + std::to_string(api_id))};
    }
  }

  // BodyControl as the robot reports it (SDK robot_shared.hpp).
  int body_control() const {
    switch (mode()) {
      case Mode::damping: return 1;
      case Mode::prepare: return lying_down_ ? 4 : 2;  // ProneBody / Prepare
      case Mode::walking: return 3;                    // HumanlikeGait
      case Mode::soccer:
        if (visual_kick_active_) return visual_kick_version_ == 0 ? 14 : 10;  // VisualKickV1 / InsideFoot (V2)
        return 5;                                                              // SoccerGait
      case Mode::custom: return 6;
      case Mode::unknown: break;
    }
    return 0;
  }

  LocoServiceOptions options_;
  std::vector<ModeEntry> entries_;
  std::vector<RecordedCall> calls_;
  std::map<std::int64_t, TimePoint> last_accepted_;
  std::set<std::int64_t> refused_;
  std::map<std::int64_t, std::uint64_t> call_count_;
  std::uint64_t call_count_any_ = 0;
  std::uint64_t answers_lost_ = 0;
  std::mt19937_64 random_;
  bool visual_kick_active_ = false;
  int visual_kick_version_ = 0;
  bool lying_down_ = false;
  bool upper_body_control_ = false;
  Velocity velocity_{};
  double head_pitch_ = 0, head_yaw_ = 0;
};

}  // namespace praxis::fake_booster
