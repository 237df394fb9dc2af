#pragma once
// RobotStatus: what the robot (through its backend) reports back into the cycle. Motions decide
// from it (a mode motion may be left once the robot confirmed the mode, or after a timeout), the
// selector uses link health, and the reporter logs disagreements between what the backend assumes
// and what the robot reports.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/enum_names.hpp"
#include "praxis/core/robot_requests.hpp"

namespace praxis {

enum class RequestOutcome : std::uint8_t { none, pending, ok, rejected, timed_out, failed };

inline constexpr EnumNameTable<RequestOutcome, 6> k_request_outcome_names{{
    {RequestOutcome::none, "none"},
    {RequestOutcome::pending, "pending"},
    {RequestOutcome::ok, "ok"},
    {RequestOutcome::rejected, "rejected"},
    {RequestOutcome::timed_out, "timed out"},
    {RequestOutcome::failed, "failed"},
}};
static_assert(in_enum_order(k_request_outcome_names),
              "k_request_outcome_names: one entry per RequestOutcome, in the enum's order");

[[nodiscard]] constexpr std::string_view to_string(RequestOutcome o) { return name_in(k_request_outcome_names, o); }

// The last request the I/O worker performed (an RPC, a service call).
struct RequestReport {
  std::uint32_t id = 0;           // the vendor's API id (Booster LocoApiId, Unitree api_id, ...)
  RequestOutcome outcome = RequestOutcome::none;
  std::int32_t code = 0;          // the vendor's status code, when it sent one
  TimePoint finished{};           // when it completed (outcome other than pending)
};

// Taking and handing back control (Unitree's motion-switcher release, Aurora's PdStand -> UserCmd,
// Booster's start-up wait).
enum class LifecycleStage : std::uint8_t { idle, acquiring, in_control, releasing, released, failed };

inline constexpr EnumNameTable<LifecycleStage, 6> k_lifecycle_stage_names{{
    {LifecycleStage::idle, "idle"},
    {LifecycleStage::acquiring, "acquiring"},
    {LifecycleStage::in_control, "in control"},
    {LifecycleStage::releasing, "releasing"},
    {LifecycleStage::released, "released"},
    {LifecycleStage::failed, "failed"},
}};
static_assert(in_enum_order(k_lifecycle_stage_names),
              "k_lifecycle_stage_names: one entry per LifecycleStage, in the enum's order");

[[nodiscard]] constexpr std::string_view to_string(LifecycleStage s) { return name_in(k_lifecycle_stage_names, s); }

struct LinkHealth {
  bool connected = false;            // a state arrived within the backend's link timeout
  std::uint64_t states_received = 0;
  std::uint64_t states_rejected = 0;  // CRC, decode or size errors
  std::uint64_t commands_sent = 0;
  std::uint64_t send_errors = 0;
};

// What the robot says about its own posture (robots that report it: Booster's rt/fall_down).
enum class Posture : std::uint8_t {
  unknown,  // not reported (yet)
  upright,  // standing: nothing to get up from (Booster IS_READY)
  fallen,   // falling, lying or getting up
};

struct RobotStatus {
  RobotMode reported_mode = RobotMode::unknown;  // what the robot says it is in
  RobotMode assumed_mode = RobotMode::unknown;   // what the backend assumes (may run ahead of reports)
  TimePoint mode_since{};                        // when assumed_mode last changed
  RequestReport last_request;
  std::uint32_t requests_in_flight = 0;
  std::uint32_t get_ups_completed = 0;  // grows when the robot finished getting up (robots that get up)
  Posture posture = Posture::unknown;   // what the robot reports (stand-up skips the get-up when upright)
  LifecycleStage lifecycle = LifecycleStage::idle;
  LinkHealth link;
  std::uint64_t sequence = 0;  // increases with every status the backend publishes

  // The robot confirms what the backend assumes (false while a report is missing or disagrees).
  [[nodiscard]] constexpr bool mode_confirmed() const {
    return reported_mode != RobotMode::unknown && reported_mode == assumed_mode;
  }
};

}  // namespace praxis
