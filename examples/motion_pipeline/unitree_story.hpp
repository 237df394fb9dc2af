#pragma once
// praxis_motion_demo on a Go2, G1 or H1-2 that stands and walks by itself (its motion service): the
// behaviour asks for a stand-up, a stand, a walk and a stand again; the backend turns that into the
// robot's calls (Go2: StandUp or RecoveryStand, BalanceStand, Move at 20 Hz, StopMove; G1: FSM 4,
// FSM 500, SetVelocity; H1-2, through the H1 LocoClient on rt/api/loco: FSM 2, FSM 204, SetVelocity)
// and ends in the robot's own safe state (Go2: laid down by StandDown, then Damp; G1, H1-2: stopped,
// balancing by itself). No joint is commanded. With the fake robot, what it
// recorded is printed: the postures it went through, the calls and how it answered them, its
// odometry.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/unitree/sport_backend.hpp>

#include "timetable.hpp"

namespace example {

template <class Model>
int run_unitree_story(const std::string& self, std::uint32_t domain, const std::string& interface, bool spawn_fake,
                      const std::string& runtime_params) {
  namespace u = praxis::unitree;
  namespace m = praxis::motion;
  using Backend = u::SportBackend<Model>;
  const std::string robot_name(Model::name);
  FakeRobot fake;
  if (spawn_fake) {
    // Damped, its motion service on: what the robot is after power-on before it stands up.
    fake = FakeRobot(self, "praxis-fake-robot",
                     {"--robot", robot_name, "--domain", std::to_string(domain), "--interface", interface,
                      "--sport-mode", "normal", "--sport-posture", "damped"});
    std::printf("started praxis-fake-robot (pid %d): a %s damped, its motion service on\n",
                static_cast<int>(fake.pid()), robot_name.c_str());
  }
  auto options = Backend::robot(interface);
  options.dds = {domain, interface};
  auto mo = story_options(runtime_params);
  options.link_timeout = std::max(options.link_timeout, mo.safety.stale_timeout);
  Backend robot(options);
  praxis::script::ScriptLibrary<Model> library;  // the robot stands and walks by itself: no scripts
  mo.lifecycle_timeout = std::chrono::seconds(10);
  praxis::control::MotionController<Backend, Timetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  motion.behaviour().steps = {{0.0, "StandUp", m::command::StandUp{}},
                              {2.5, "Stand", m::command::Stand{}},
                              {3.0, "WalkWithVelocity 0.3 m/s", walk},
                              {5.0, "Stand", m::command::Stand{}}};
  // Ctrl-C ends the run the robot's way: a Go2 laid down and damped, a G1 or H1-2 stopped and balancing.
  praxis::control::RunOutcome outcome;
  if (!run_timetable(motion, "DDS domain " + std::to_string(domain) + ", interface \"" + interface + "\"", 6, outcome)) {
    return 3;
  }
  const auto& sport = robot.sport();
  std::printf("%s calls: %llu (failed %llu), Move calls answered: %llu, joint commands withheld: %llu\n",
              sport.api().name.c_str(),
              static_cast<unsigned long long>(sport.calls()), static_cast<unsigned long long>(sport.calls_failed()),
              static_cast<unsigned long long>(sport.moves_sent()),
              static_cast<unsigned long long>(robot.commands_withheld()));

  if (fake.pid() > 0) {
    const auto report = fake.report();
    if (!report.is_null() && report.contains("sport")) {
      const auto& s = report["sport"];
      std::string postures;
      for (const auto& e : s["postures"]) postures += (postures.empty() ? "" : " -> ") + e["posture"].get<std::string>();
      int refused = 0;
      for (const auto& c : s["calls"]) refused += c["code"].get<int>() != 0 ? 1 : 0;
      std::printf("\nthe fake robot recorded: postures %s; Move accepted %d; calls refused %d; odometry x %.2f m; "
                  "rt/lowcmd frames %d\n",
                  postures.c_str(), s["moves_accepted"].get<int>(), refused, s["odometry"]["x"].get<double>(),
                  report["frames_received"].get<int>());
    }
  }
  std::printf("%s\n", outcome.summary().c_str());
  return outcome.exit_code();
}

}  // namespace example
