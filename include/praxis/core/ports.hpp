#pragma once
// The ports every layer shares: the robot's state, the cycle's clock and the robot's status. Their
// names start with "praxis/", a prefix reserved for praxis' own ports, so a user's port of the same
// plain name ("robot_state") is a different port instead of silently the same one.

#include <cstddef>

#include "praxis/core/cycle.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/graph/port.hpp"

namespace praxis {

template <std::size_t N>
struct StatePort : port<"praxis/robot_state", RobotState<N>> {};
struct CyclePort : port<"praxis/cycle", CycleInfo> {};
struct RobotStatusPort : port<"praxis/robot_status", RobotStatus> {};

}  // namespace praxis
