#pragma once
// RequestHandler: the vendor part of a Booster backend's I/O worker (request_worker.hpp). Every
// worker period (10 ms) it hands the cycle's newest RobotRequests to the booster_interface planner
// (interface.hpp), publishes rt/kick_ball itself (a DDS write, never blocking), and queues the RPCs
// on two executors (executor.hpp) — the loco service's and the light service's, each single flight
// with the per-call timeout `sdk_request_timeout` — so a hung RPC delays neither the worker nor
// the control cycle. It keeps the RobotStatus the runtime reads:
//
//   assumed_mode       the planner's (optimistic: assumed when change_mode is scheduled); at start
//                      the mode the robot reported (GetMode in acquire()), or the parameters'
//                      initial_mode when it did not answer
//   reported_mode      the mode the robot last reported: GetMode's answer, or the mode of the last
//                      change_mode it answered with success
//   last_request       the last completed call: its API id, outcome and the robot's status code
//   requests_in_flight calls scheduled and not completed yet
//   get_ups_completed  getting-up -> ready transitions on rt/fall_down
//
// The Damping request ends control (end_request.hpp): the executor puts it before every queued call
// and retries it until the robot confirms or the deadline passes; end_report() says which. At
// release, end_control() asks for Damping once more unless the robot confirmed it since the last
// other mode change, and shut_down() waits for the answer and says what it was.
//
// It writes the structured log (event_log.hpp): behaviour_input (the planner's input state),
// rpc (scheduled / retry / completed, with sequence numbers and in-flight counts), primary_state
// (the robot's fall state and reported mode) and, from the backend, button_input.
//
// threaded = false runs the executors inline at the worker's (simulated) time, for step() tests.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include <praxis/idl/brain.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/booster/action_log.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/end_request.hpp"
#include "praxis/hardware/booster/event_log.hpp"
#include "praxis/hardware/booster/executor.hpp"
#include "praxis/hardware/booster/interface.hpp"
#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/hardware/booster/rpc.hpp"
#include "praxis/hardware/booster/topics.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::booster {

// rt/kick_ball (brain::msg::Kick). The header's stamp is wall-clock time, as ROS stamps are.
class KickPublisher {
 public:
  KickPublisher(const transport::Participant& participant, const std::string& topic, std::string_view type_name = {})
      : publisher_(participant, topic, transport::with_type_name(&brain_msg_dds__Kick__desc, type_name)) {}
  bool publish(const KickMessage& k) {
    brain_msg_dds__Kick_ m{};
    const auto wall = std::chrono::system_clock::now().time_since_epoch();
    const auto sec = std::chrono::duration_cast<std::chrono::seconds>(wall);
    m.header.stamp.sec = static_cast<std::int32_t>(sec.count());
    m.header.stamp.nanosec = static_cast<std::uint32_t>(std::chrono::nanoseconds(wall - sec).count());
    m.header.frame_id = empty_;
    m.x = k.x;
    m.y = k.y;
    m.dir = k.dir;
    m.goal_x = k.goal_x;
    m.goal_y = k.goal_y;
    m.robot_theta_to_field = k.robot_theta_to_field;
    m.power = k.power;
    return publisher_.write(m);
  }

 private:
  transport::Publisher<brain_msg_dds__Kick_> publisher_;
  char empty_[1] = {'\0'};
};

[[nodiscard]] constexpr RobotMode robot_mode_of(Mode m) {
  switch (m) {
    case Mode::damping: return RobotMode::damping;
    case Mode::prepare: return RobotMode::prepare;
    case Mode::walking:
    case Mode::soccer: return RobotMode::locomotion;
    case Mode::custom: return RobotMode::user;
    case Mode::unknown: return RobotMode::unknown;
  }
  return RobotMode::unknown;
}

[[nodiscard]] constexpr std::uint32_t api_id_of(Action a) { return info(a).api_id; }

// The robot's mode at start: what it reported (reported = true), or the assumption it starts from.
struct StartMode {
  Mode mode = Mode::damping;
  bool reported = false;
};

class RequestHandler {
  // The blocking call behind each action, with the time left until its deadline.
  struct Perform {
    RequestHandler* handler;
    CallResult operator()(const PlannedAction& a, Duration timeout) const { return handler->perform(a, timeout); }
  };
  using Executor = CallExecutor<Perform>;

 public:
  // kick: writes one rt/kick_ball message (a KickPublisher's publish, or a test's recorder).
  using KickSink = std::function<bool(const KickMessage&)>;

  RequestHandler(LocoClient& loco, LightClient* light, KickSink kick, InterfaceParams params,
                 std::shared_ptr<EventLog> log, bool threaded, StartMode start = {})
      : loco_(loco),
        light_(light),
        kick_(std::move(kick)),
        log_(log ? std::move(log) : std::make_shared<NoEventLog>()),
        threaded_(threaded),
        interface_(params, start.mode),
        actions_([log = log_](const std::string& line) { log->write("rpc", line); }),
        loco_calls_(Perform{this}, actions_, executor_options(params, threaded),
                    [this](const Completed& c, const PlannedAction& a, const CallResult& r) { completed(c, a, r); }),
        light_calls_(Perform{this}, actions_, executor_options(params, threaded),
                     [this](const Completed& c, const PlannedAction& a, const CallResult& r) { completed(c, a, r); }) {
    if (start.reported) confirmed_ = start.mode;
    query_timeout_ = params.sdk_request_timeout;
  }
  RequestHandler(const RequestHandler&) = delete;
  RequestHandler& operator=(const RequestHandler&) = delete;

  // Where the robot's fall state comes from (the backend's codec context, merged from rt/fall_down).
  void set_fall_source(const std::atomic<std::int32_t>* fall_state, const std::atomic<std::uint32_t>* get_ups) {
    fall_state_ = fall_state;
    get_ups_ = get_ups;
  }

  // Where the assumed mode is mirrored for other threads (the backend's write() sends joint
  // commands only while Custom is assumed).
  void set_mode_mirror(std::atomic<Mode>* mirror) { mode_mirror_ = mirror; }

  // Called at the start of every period on the worker thread (the backend logs button events there).
  void set_poller(std::function<void()> poll) { poll_ = std::move(poll); }

  // ---- the worker thread ----
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    if (wanted.any) last_wanted_ = wanted;
    if (poll_) poll_();
    {
      std::lock_guard lock(mutex_);
      if (refusal_.pending) {
        refusal_.pending = false;
        interface_.refused(refusal_.wanted, refusal_.reported);
      }
    }
    interface_.tick(wanted, now, Sink{this, now});
    if (!threaded_) {
      loco_calls_.run_pending(now);
      light_calls_.run_pending(now);
    }
    // Before the behaviour's first command the robot is not praxis' to drive, whatever mode it reported
    // (a robot someone else holds in Custom gets no frame of praxis').
    if (mode_mirror_ != nullptr) {
      mode_mirror_->store(interface_.commanded() ? interface_.assumed_mode() : Mode::unknown, std::memory_order_release);
    }
    const RobotMode assumed = robot_mode_of(interface_.assumed_mode());
    if (assumed != status.assumed_mode) {
      status.assumed_mode = assumed;
      status.mode_since = now;
    }
    {
      std::lock_guard lock(mutex_);
      status.reported_mode = robot_mode_of(confirmed_);
      status.last_request = last_;
    }
    status.requests_in_flight = actions_.total_in_flight();
    const auto fall = fall_state_ != nullptr ? fall_state_->load(std::memory_order_acquire)
                                             : static_cast<std::int32_t>(FallState::unknown);
    if (get_ups_ != nullptr) status.get_ups_completed = get_ups_->load(std::memory_order_acquire);
    status.posture = fall == static_cast<std::int32_t>(FallState::ready) ? Posture::upright
                     : fall == static_cast<std::int32_t>(FallState::unknown) ? Posture::unknown
                                                                             : Posture::fallen;
    if (fall != logged_fall_ || status.reported_mode != logged_mode_) {
      logged_fall_ = fall;
      logged_mode_ = status.reported_mode;
      log_->write("primary_state", "{\"event\":\"booster primary state changed\",\"fall_state\":\"" +
                                       std::string(fall_name(fall)) + "\",\"confirmed_mode\":\"" +
                                       std::string(to_string(status.reported_mode)) + "\"}");
    }
  }

  // release(), on the caller's thread once the worker has stopped: the end of control is the robot's
  // Damping mode. If praxis commanded the robot in this run, the last requests are served once more
  // with Damping (the kick ends, walking and the head stop) and, unless the robot confirmed Damping
  // since the last other mode change, a Damping request goes out now.
  void end_control(RobotStatus& status, TimePoint now) {
    if (!interface_.commanded()) return;
    RobotRequests r = last_wanted_;
    r.mode = RobotMode::damping;
    r.locomotion = {};
    r.head.active = false;
    r.motion = MotionType::damping;
    serve(r, status, now);
    bool again = false;
    {
      std::lock_guard lock(mutex_);
      again = end_.state == EndReport::State::none || end_.state == EndReport::State::not_confirmed;
    }
    if (again) {
      PlannedAction a;
      a.action = Action::change_mode;
      a.mode = Mode::damping;
      dispatch(a, now);
      if (!threaded_) loco_calls_.run_pending(now);
    }
  }

  // release(): waits until `timeout` for the Damping request to be confirmed or given up on (its own
  // deadline comes first by default) and for the calls still out to complete; a robot that did not
  // confirm Damping and may still be walking is then told to stand still; nothing is called after
  // this. Returns what is true: "Damping confirmed by the robot (...)" or "Damping requested, not
  // confirmed after 2000 ms (...)", and what else happened.
  std::string shut_down(Duration timeout) {
    const auto deadline = Clock::now() + timeout;
    const auto settled = [this] {
      std::lock_guard lock(mutex_);
      return end_.state != EndReport::State::pending;
    };
    while ((!settled() || actions_.total_in_flight() > 0) && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const EndReport end = end_report();
    std::string message = "booster_interface stopped: " + describe(end);
    if (const auto left = actions_.total_in_flight(); left > 0) {
      message += "; " + std::to_string(left) + " call(s) still unanswered";
    }
    const bool may_walk = end.state == EndReport::State::pending || end.state == EndReport::State::not_confirmed;
    if (may_walk) {
      try {
        loco_.move(0.0, 0.0, 0.0, interface_.params().sdk_request_timeout * 5);
        message += "; sent move_robot(0, 0, 0) in case it still walks";
      } catch (const std::exception& e) {
        message += std::string("; the fallback move_robot(0, 0, 0) failed too: ") + e.what();
      }
    }
    loco_calls_.stop();
    light_calls_.stop();
    return message;
  }

  // What became of the last Damping request (none before the first).
  [[nodiscard]] EndReport end_report() const {
    std::lock_guard lock(mutex_);
    return end_;
  }

  [[nodiscard]] const Interface& interface() const { return interface_; }
  [[nodiscard]] ActionLog& actions() { return actions_; }
  [[nodiscard]] EventLog& log() { return *log_; }

 private:
  struct Sink {
    RequestHandler* self;
    TimePoint now;
    void operator()(const InputState& s) const { self->log_->write("behaviour_input", to_json_line(s)); }
    void operator()(const PlannedAction& a) const { self->dispatch(a, now); }
  };

  static ExecutorOptions executor_options(const InterfaceParams& p, bool threaded) {
    ExecutorOptions o;
    o.mode = threaded ? ExecutorMode::threaded : ExecutorMode::inline_calls;
    o.timeout = p.sdk_request_timeout;
    o.retry = p.retry;
    o.end = p.damping_request;
    return o;
  }

  static std::string_view fall_name(std::int32_t f) {
    switch (f) {
      case 0: return "ready";
      case 1: return "falling";
      case 2: return "fallen";
      case 3: return "getting_up";
      default: return "unknown";
    }
  }

  void dispatch(const PlannedAction& a, TimePoint now) {
    switch (info(a.action).channel) {
      case Channel::kick_topic: {
        // A DDS write returns at once: no executor, but the same log entries.
        const auto s = actions_.schedule(a);
        const bool ok = kick_ && kick_(a.kick);
        const auto c = actions_.complete(s, ok ? Completed::ok : Completed::error, Duration::zero(), 0);
        completed(c, a, CallResult{c.status, 0, ok ? "" : "rt/kick_ball not written"});
        break;
      }
      case Channel::light: light_calls_.submit(a, now); break;
      case Channel::loco: {
        if (a.action != Action::change_mode) {
          loco_calls_.submit(a, now);
          break;
        }
        {
          std::lock_guard lock(mutex_);
          end_ = EndReport{};  // another mode: a later release must ask for Damping again
          if (ends_control(a)) {
            end_.state = EndReport::State::pending;
            end_.deadline = interface_.params().damping_request.deadline;
          }
        }
        const auto sequence = loco_calls_.submit(a, now);
        std::lock_guard lock(mutex_);
        last_mode_sequence_ = std::max(last_mode_sequence_, sequence);
        break;
      }
    }
  }

  CallResult perform(const PlannedAction& a, Duration timeout) {
    if (ends_control(a)) {
      {
        // Counted as it goes out: a report read while a retry waits says how many were made.
        std::lock_guard lock(mutex_);
        if (end_.state == EndReport::State::pending) ++end_.attempts;
      }
      const ModeAttempt m = attempt_mode(loco_, a.mode, timeout);
      if (m.mode_reported) {
        std::lock_guard lock(mutex_);
        end_mode_reported_ = true;
      }
      return m.result;
    }
    if (a.action == Action::change_mode) return change_mode_once(a.mode, timeout);
    try {
      switch (a.action) {
        case Action::change_mode: break;  // above
        case Action::get_up: loco_.get_up(a.version, timeout); break;
        case Action::move_robot: loco_.move(a.forward, a.left, a.turn, timeout); break;
        case Action::rotate_head: loco_.rotate_head(a.pitch, a.yaw, timeout); break;
        case Action::visual_kick: loco_.visual_kick(a.enabled, a.version, timeout); break;
        case Action::set_leds:
          if (light_ == nullptr) return {Completed::error, 0, "no light service", false, false};
          light_->set_color(a.leds.r, a.leds.g, a.leds.b, timeout);
          break;
        case Action::stop_leds:
          if (light_ == nullptr) return {Completed::error, 0, "no light service", false, false};
          light_->stop(timeout);
          break;
        case Action::kick_publish: break;
      }
      return {Completed::ok, status::k_ok, ""};
    } catch (...) {
      return failure_of(std::current_exception());
    }
  }

  // A ChangeMode to another mode than the end's. One that went unanswered may still have been
  // executed (a robot slower to answer than the timeout): the robot is asked where it is before
  // anything is repeated, so that the same ChangeMode never reaches a robot that may already be in
  // the mode (a second Soccer while it stands up, a second Prepare while it walks). In the mode: done.
  // Reported elsewhere: it did not switch, another attempt may. No answer to that either: not
  // repeated; completed() asks once more and the planner follows what the robot then says.
  CallResult change_mode_once(Mode mode, Duration timeout) {
    const std::string name(to_string(mode));
    try {
      loco_.change_mode(mode, timeout);
      return {Completed::ok, status::k_ok, ""};
    } catch (const transport::RpcUnanswered& e) {
      try {
        const Mode reported = loco_.get_mode(timeout);
        if (reported == mode) {
          return {Completed::ok, status::k_ok,
                  "ChangeMode(" + name + ") unanswered in time (" + e.what() + "); GetMode reports " + name};
        }
        return {Completed::timeout, status::k_timeout,
                "ChangeMode(" + name + ") unanswered in time (" + e.what() + "); GetMode reports " +
                    std::string(to_string(reported)) + ": not executed, another attempt may",
                /*answered=*/false, /*retryable=*/true};
      } catch (const std::exception& g) {
        return {Completed::timeout, status::k_timeout,
                "ChangeMode(" + name + ") unanswered in time (" + e.what() + "), GetMode too (" + g.what() +
                    "): not repeated, the robot may have executed it",
                /*answered=*/false, /*retryable=*/false};
      }
    } catch (...) {
      return failure_of(std::current_exception());
    }
  }

  // Executor threads (or the worker, inline).
  void completed(const Completed& c, const PlannedAction& a, const CallResult& r) {
    // A change to another mode that failed for good (the executor's retries are over): ask the
    // robot where it is, so the planner stops assuming a mode the robot never entered.
    Mode reported = Mode::unknown;
    const bool refused = a.action == Action::change_mode && !ends_control(a) && c.status != Completed::ok &&
                         c.status != Completed::dropped;
    if (refused) {
      try {
        reported = loco_.get_mode(query_timeout_);
      } catch (const std::exception&) {
        reported = Mode::unknown;  // it did not say: assume nothing
      }
    }
    std::lock_guard lock(mutex_);
    if (refused && c.sequence >= last_mode_sequence_) {
      refusal_ = {a.mode, reported, true};
      if (reported != Mode::unknown) confirmed_ = reported;
    }
    // The outcome of the newest mode request, if it is a Damping request: an older one superseded by
    // a newer one (dropped), or one overtaken by a later change to another mode, says nothing now.
    if (ends_control(a) && c.sequence >= last_mode_sequence_) {
      if (c.status != Completed::dropped || r.message != "superseded by the Damping request") {
        end_.state = c.status == Completed::ok ? EndReport::State::confirmed : EndReport::State::not_confirmed;
        end_.attempts = c.attempts;
        end_.code = r.code;
        end_.detail = r.message.empty() ? std::string(to_string(c.status)) : r.message;
        end_.mode_reported = c.status == Completed::ok && end_mode_reported_;
        end_.took = std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(c.elapsed_ms));
        end_mode_reported_ = false;
      }
    }
    if (c.status == Completed::dropped) return;  // never sent: says nothing about the robot
    if (a.action == Action::change_mode && c.status == Completed::ok) confirmed_ = a.mode;
    last_.id = api_id_of(a.action);
    last_.code = r.code;
    last_.finished = Clock::now();
    last_.outcome = c.status == Completed::ok        ? RequestOutcome::ok
                    : c.status == Completed::timeout ? RequestOutcome::timed_out
                    : r.code > 0                     ? RequestOutcome::rejected
                                                     : RequestOutcome::failed;
    if (c.status == Completed::ok && a.action == Action::change_mode && !r.message.empty()) {
      // Confirmed by GetMode after its own answer came too late (change_mode_once).
      log_->write("rpc", "{\"event\":\"booster rpc confirmed by GetMode\",\"sequence\":" + std::to_string(c.sequence) +
                             ",\"action\":\"change_mode\",\"detail\":" + quoted(r.message) + "}");
    }
    if (c.status != Completed::ok && !r.message.empty()) {
      log_->write("rpc", "{\"event\":\"booster rpc failed\",\"sequence\":" + std::to_string(c.sequence) +
                             ",\"action\":\"" + std::string(to_string(a.action)) + "\",\"error\":" + quoted(r.message) +
                             "}");
    }
  }

  static std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (static_cast<unsigned char>(ch) < 0x20) {
        out += ' ';
        continue;
      }
      out += ch;
    }
    return out + "\"";
  }

  LocoClient& loco_;
  LightClient* light_;
  KickSink kick_;
  std::function<void()> poll_;
  std::atomic<Mode>* mode_mirror_ = nullptr;
  std::shared_ptr<EventLog> log_;
  bool threaded_;
  Interface interface_;  // worker thread only
  ActionLog actions_;
  mutable std::mutex mutex_;  // confirmed_, last_, end_: written by the executors
  Mode confirmed_ = Mode::unknown;
  RequestReport last_{};
  EndReport end_{};
  struct Refusal {
    Mode wanted = Mode::unknown;
    Mode reported = Mode::unknown;
    bool pending = false;
  } refusal_;
  std::uint64_t last_mode_sequence_ = 0;
  bool end_mode_reported_ = false;
  Duration query_timeout_{};     // GetMode after a refused mode change (executor threads: read only)
  RobotRequests last_wanted_{};  // worker thread (release: the caller, once the worker stopped)
  const std::atomic<std::int32_t>* fall_state_ = nullptr;
  const std::atomic<std::uint32_t>* get_ups_ = nullptr;
  std::int32_t logged_fall_ = -2;
  RobotMode logged_mode_ = RobotMode::unknown;
  Executor loco_calls_;   // last two: their threads use everything above
  Executor light_calls_;
};

}  // namespace praxis::booster
