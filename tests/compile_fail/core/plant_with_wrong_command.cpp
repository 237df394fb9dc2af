// A plant whose write() takes a command for another number of joints than its model has gets the
// sentence naming write(), not a dump of the whole Plant constraint.
#include "praxis/core/plant.hpp"
#include "praxis/hardware/unitree/go2.hpp"

struct AlmostPlant {
  using model = praxis::unitree::Go2;
  bool read(praxis::RobotState<12>&, praxis::TimePoint) { return false; }
  void write(const praxis::JointCommand<29>&, praxis::TimePoint) {}  // a G1's command
  void advance_to(praxis::TimePoint) {}
  [[nodiscard]] praxis::TimePoint time() const { return {}; }
  void set_joint_positions(const std::array<double, 12>&) {}
};

// Generic code taking a plant checks it the way examples/fake_robot/bridge.hpp does.
template <class P>
void drive(P&) {
  static_assert(praxis::check_plant<P>(), "see the Plant message above");
}

void run() {
  AlmostPlant plant;
  drive(plant);
}

// expect: praxis::Plant needs `void write(const praxis::JointCommand<N>& command, praxis::TimePoint now)`
// expect: AlmostPlant
// expect once: praxis::Plant needs
