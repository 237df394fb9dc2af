#pragma once
// Parameters of the Booster high-level interface (the planner in interface.hpp and the call
// executor in executor.hpp), read from a JSON file with comments (booster_interface.json5).
//
// The first keys are the ones the HULKs booster_interface reads, with its defaults and its way of
// writing a duration ({"secs": 0, "nanos": 20000000}); the others are praxis' own. A file may
// hold the object at its top level or under the key "booster_interface". Keys left out keep their
// defaults; an unknown key, a wrong type or a negative duration is an error naming the file and
// the dotted key, because a misspelt interval silently keeping its default is worse than a refusal.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/core/locomotion.hpp"

namespace praxis::booster {

// The kick stream's `power` per kick strength. Their JSON keys are HULKs' names for the two kicks,
// "rumpelstilzchen" (soft) and "schlong" (strong); only the loader (interface_params.cpp) knows them.
struct KickPowerParams {
  double soft = 1.5;    // the soft kick's power in the kick stream
  double strong = 6.0;  // the strong kick's power
};

struct KickingParams {
  Duration kick_message_interval = std::chrono::milliseconds(20);  // kick stream period while kicking
  KickPowerParams kick_power;
};

// The request that ends control (Damping): it pre-empts every queued call and is retried until the
// robot confirms it or `deadline` passes (executor.hpp). Each attempt is a ChangeMode(Damping) and,
// answered with success, a GetMode that must report Damping; each of the two waits up to
// `attempt_timeout`. praxis' own numbers: no vendor source gives any (the SDK's per-call default is
// 1 s: docs/backends/booster.md, "Wire facts and their sources").
struct EndRequestParams {
  Duration deadline = std::chrono::seconds(2);
  Duration attempt_timeout = std::chrono::milliseconds(400);
  Duration backoff = std::chrono::milliseconds(50);  // between attempts
};

// Failed one-shot calls (change_mode to another mode, get_up, visual_kick, the LED calls) are tried
// up to `max_attempts` times in all, waiting `backoff` before the first retry and twice as long before
// each next one. Only failures that may pass are retried: no answer, and the statuses 100 (the robot
// timed out), 429 (too frequent), 500 (internal error) and 502 (transition failed). 400, 409 and 501
// are the robot's decision about the request and are reported, not repeated.
struct RetryParams {
  std::uint32_t max_attempts = 3;
  Duration backoff = std::chrono::milliseconds(100);
};

struct InterfaceParams {
  WalkOptions walking;
  Duration move_robot_message_interval = std::chrono::milliseconds(20);  // ~50 Hz move_robot
  KickingParams kicking;
  Duration rotate_head_message_interval = std::chrono::milliseconds(20);  // ~50 Hz rotate_head
  Duration sdk_request_timeout = std::chrono::milliseconds(100);  // per call, counted from scheduling

  // ---- praxis' own keys ----
  // Before the first call, so that DDS discovery has matched the RPC topics (the SDK's default).
  Duration startup_wait = std::chrono::seconds(3);
  // The robot's mode for standing, walking and kicking: Soccer, or Walking on firmware without it.
  Mode locomotion_mode = Mode::soccer;
  std::int32_t visual_kick_version = 1;  // VisualKick's "version": 0 V1, 1 V2 (stronger)
  std::int32_t get_up_version = 0;       // GetUp's "version": 0 V1, 1 V2
  EndRequestParams damping_request;
  RetryParams retry;
  // The mode assumed at start when the robot does not answer GetMode (2017) in acquire(); a robot
  // that answers is taken at its word. Damping: what a robot that was just switched on is in.
  Mode initial_mode = Mode::damping;
};

// Reads `file` (see above); throws praxis::io::ParamError naming the file and key on any problem.
[[nodiscard]] InterfaceParams load_interface_params(const std::filesystem::path& file);

// The same from text; `origin` names the source in error messages.
[[nodiscard]] InterfaceParams parse_interface_params(std::string_view text, const std::string& origin);

}  // namespace praxis::booster
