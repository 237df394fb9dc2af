#pragma once
// The request that ends control, and what became of it.
//
// On a Booster robot in its own modes praxis owns no joint: control ends with the robot's Damping
// mode, asked for by RPC (docs/safety.md). With joint access (Custom) it ends with joint
// damping and then BackendOptions::release_mode, asked for the same way. Either request counts as
// confirmed only when the robot answered ChangeMode with success and, where the robot says (GetMode,
// 2017), reports the mode; a robot that does not answer GetMode confirms by its ChangeMode answer
// alone, and the report says so. EndReport is what the backend tells its user (release()'s
// message): confirmed, or requested and not confirmed after the deadline, and why.
//
//   attempt_mode(loco, mode, timeout)   one attempt: ChangeMode, then GetMode (blocking, I/O thread)
//   deliver_mode(loco, mode, params)    attempts until confirmed or the deadline (blocking)
//   describe(report)                    "Damping confirmed by the robot (...)" / "... not confirmed ..."

#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/executor.hpp"
#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/hardware/booster/rpc.hpp"

namespace praxis::booster {

struct EndReport {
  enum class State : std::uint8_t { none, pending, confirmed, not_confirmed };
  State state = State::none;
  Mode mode = Mode::damping;    // the mode asked for
  bool mode_reported = false;   // confirmed: GetMode reported it too (not only ChangeMode's answer)
  std::uint32_t attempts = 0;
  std::int32_t code = 0;        // the last failure's status (100: no answer in time)
  std::string detail;           // confirmed: how; otherwise the last failure
  Duration took{};              // from the request to its outcome
  Duration deadline{};          // the deadline it was given
};

[[nodiscard]] inline std::string describe(const EndReport& r) {
  const std::string mode(to_string(r.mode));
  const std::string tries = std::to_string(r.attempts) + (r.attempts == 1 ? " attempt" : " attempts");
  switch (r.state) {
    case EndReport::State::none: return "no " + mode + " request: praxis did not command the robot's modes in this run";
    case EndReport::State::pending:
      return mode + " requested, not confirmed yet (" + tries + " so far; the release timeout ended the wait)";
    case EndReport::State::confirmed:
      return mode + " confirmed by the robot (" + r.detail + "; " + tries + ", " + std::to_string(to_ms(r.took)) + " ms)";
    case EndReport::State::not_confirmed:
      return mode + " requested, not confirmed after " + std::to_string(to_ms(r.deadline)) + " ms (" + tries +
             "; last: " + r.detail + ")";
  }
  return mode + ": ?";
}

// The outcome of a failed call as a CallResult: who answered what, and whether trying again may help.
[[nodiscard]] inline CallResult failure_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const RpcStatusError& x) {
    return {Completed::error, x.status(), x.what(), /*answered=*/true, retryable_status(x.status())};
  } catch (const transport::RpcUnanswered& x) {  // RpcTimeout: nothing matched or nothing answered in time
    return {Completed::timeout, status::k_timeout, x.what(), /*answered=*/false, /*retryable=*/true};
  } catch (const std::exception& x) {
    return {Completed::error, -1, x.what(), /*answered=*/false, /*retryable=*/false};
  }
}

struct ModeAttempt {
  CallResult result;           // ok: confirmed (result.message says how)
  bool mode_reported = false;  // GetMode answered with the mode asked for
};

// One attempt to put the robot in `mode`: ChangeMode, then GetMode; each waits up to `timeout`.
// A GetMode the robot does not have (400) or does not answer leaves the ChangeMode answer as the
// confirmation; a GetMode reporting another mode is a failure worth another attempt.
[[nodiscard]] inline ModeAttempt attempt_mode(LocoClient& loco, Mode mode, Duration timeout) {
  const std::string name(to_string(mode));
  try {
    loco.change_mode(mode, timeout);
  } catch (...) {
    return {failure_of(std::current_exception()), false};
  }
  try {
    const Mode reported = loco.get_mode(timeout);
    if (reported == mode) {
      return {{Completed::ok, status::k_ok, "ChangeMode answered with success, GetMode reports " + name}, true};
    }
    return {{Completed::error, status::k_ok,
             "ChangeMode(" + name + ") answered with success, but GetMode reports " + std::string(to_string(reported)),
             /*answered=*/true, /*retryable=*/true},
            false};
  } catch (...) {
    const auto why = failure_of(std::current_exception());
    return {{Completed::ok, status::k_ok,
             "ChangeMode answered with success; the mode itself not reported (GetMode: " + why.message + ")"},
            false};
  }
}

// Attempts until the robot confirms `mode` or no attempt may start any more (params.deadline from
// now), `backoff` apart. Blocking: for acquire() / release(), never the control thread.
[[nodiscard]] inline EndReport deliver_mode(LocoClient& loco, Mode mode, const EndRequestParams& params) {
  EndReport r;
  r.mode = mode;
  r.deadline = params.deadline;
  const TimePoint start = Clock::now();
  for (;;) {
    ++r.attempts;
    const ModeAttempt a = attempt_mode(loco, mode, params.attempt_timeout);
    r.took = Clock::now() - start;
    r.detail = a.result.message;
    if (a.result.status == Completed::ok) {
      r.state = EndReport::State::confirmed;
      r.mode_reported = a.mode_reported;
      return r;
    }
    r.code = a.result.code;
    if (Clock::now() + params.backoff >= start + params.deadline) {
      r.state = EndReport::State::not_confirmed;
      return r;
    }
    std::this_thread::sleep_for(params.backoff);
  }
}

}  // namespace praxis::booster
