#pragma once
// The runtime's end of every configuration's graph: StateSource hands what the runtime read from
// the backend (state, cycle, status) to the graph, and check_joint_modes stops the build when a
// node commands joints in a mode the backend cannot send.

#include <cstddef>
#include <string_view>

#include "praxis/control/cycle_observer.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/diagnostics.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis::control {

// Hands what the runtime read from the backend to the graph.
template <std::size_t N>
struct StateSource {
  static constexpr std::string_view name = "state_source";
  using outputs = ports<StatePort<N>, CyclePort, RobotStatusPort>;
  const CycleInput<N>* input = nullptr;
  void cycle(RobotState<N>& state, CycleInfo& info, RobotStatus& status) const {
    state = input->state;
    info = input->info;
    status = input->status;
  }
};

// A node (or USER_CTRL) may declare `static constexpr praxis::JointModeSet joint_modes`: the modes
// it commands. One the backend cannot send stops the build here, naming backend and mode.
template <class Backend, JointMode Mode>
struct backend_cannot_send_joint_mode {
  static_assert(diagnostics::always_false<Backend>,
                "praxis: a node of this graph commands joints in a mode this backend cannot send (the template "
                "arguments name the backend and the mode). Declare the mode in the backend's joint_modes if the "
                "robot supports it, or command the joints in a mode it has.");
};

template <class Backend, class Node>
constexpr bool check_joint_modes() {
  if constexpr (requires { Node::joint_modes; }) {
    constexpr JointModeSet wanted = Node::joint_modes;
    constexpr JointModeSet have = joint_modes_of<Backend>();
    if constexpr (!have.contains(wanted)) {
      constexpr auto first_missing = [=] {
        for (std::size_t m = 0; m < k_joint_modes; ++m) {
          if (wanted.contains(static_cast<JointMode>(m)) && !have.contains(static_cast<JointMode>(m))) {
            return static_cast<JointMode>(m);
          }
        }
        return JointMode::position;
      }();
      (void)sizeof(backend_cannot_send_joint_mode<Backend, first_missing>);
      return false;
    }
  }
  return true;
}
}  // namespace praxis::control
