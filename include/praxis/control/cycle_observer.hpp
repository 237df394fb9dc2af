#pragma once
// What the graph saw from outside in one cycle, and the hook that looks at every cycle.
//
// CycleInput is everything that reaches the graph from outside the graph: the newest state, the
// cycle's clock and the robot's status, as the runtime hands them to StateSource. A run is a
// function of its cycle inputs (and its configuration), which is what makes a recorded run
// replayable (observe/replay.hpp).
//
// CycleObserver is called on the control thread after each cycle's command went out (the command's
// latency does not include it), with the graph as the cycle left it. It must not allocate, lock,
// block, do I/O or throw: observe/tap.hpp copies the ports into a lock-free queue and leaves the
// rest to a thread of its own.

#include <cstddef>

#include "praxis/core/cycle.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"

namespace praxis::control {

template <std::size_t N>
struct CycleInput {
  RobotState<N> state;
  CycleInfo info;
  RobotStatus status;
};

template <class Graph, std::size_t N>
class CycleObserver {
 public:
  virtual void on_cycle(const Graph& graph, const CycleInput<N>& input) noexcept = 0;

 protected:
  CycleObserver() = default;
  CycleObserver(const CycleObserver&) = default;
  CycleObserver& operator=(const CycleObserver&) = default;
  ~CycleObserver() = default;
};

}  // namespace praxis::control
