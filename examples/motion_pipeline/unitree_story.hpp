#pragma once
// praxis_motion_demo on a Go2 that stands and walks by itself (its sport service): the behaviour
// asks for a stand-up, a stand, a walk and a stand again; the backend turns that into sport calls
// (StandUp, BalanceStand, Move at 20 Hz, StopMove) and ends in the robot's own safe state (laid
// down by StandDown, then Damp). No joint is commanded. With the fake robot, what it recorded is
// printed: the postures it went through, the calls and how it answered them, its odometry.

#include <chrono>
#include <cstdio>
#include <string>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/unitree/sport_backend.hpp>

#include "timetable.hpp"

namespace example {

inline int run_go2_story(const std::string& self, std::uint32_t domain, const std::string& interface, bool spawn_fake) {
  namespace u = praxis::unitree;
  namespace m = praxis::motion;
  using Backend = u::SportBackend<u::Go2>;
  FakeRobot fake;
  if (spawn_fake) {
    // Lying damped, its sport service on: what a Go2 is after power-on before it stands up.
    fake = FakeRobot(self, "praxis-fake-robot",
                     {"--robot", "go2", "--domain", std::to_string(domain), "--interface", interface, "--sport-mode",
                      "normal", "--sport-posture", "damped"});
    std::printf("started praxis-fake-robot (pid %d): a Go2 lying damped, its sport service on\n",
                static_cast<int>(fake.pid()));
  }
  auto options = Backend::robot(interface);
  options.dds = {domain, interface};
  Backend robot(options);
  praxis::script::ScriptLibrary<u::Go2> library;  // the robot stands and walks by itself: no scripts
  praxis::MotionOptions mo;
  mo.print = false;
  mo.lifecycle_timeout = std::chrono::seconds(10);
  praxis::MotionController<Backend, Timetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  motion.behaviour().steps = {{0.0, "StandUp", m::command::StandUp{}},
                              {2.5, "Stand", m::command::Stand{}},
                              {3.0, "WalkWithVelocity 0.3 m/s", walk},
                              {5.0, "Stand", m::command::Stand{}}};
  // Ctrl-C ends the run the robot's way: laid down and damped.
  praxis::RunOutcome outcome;
  if (!run_timetable(motion, "DDS domain " + std::to_string(domain) + ", interface \"" + interface + "\"", 6, outcome)) {
    return 3;
  }
  const auto& sport = robot.sport();
  std::printf("sport calls: %llu (failed %llu), Move calls answered: %llu, joint commands withheld: %llu\n",
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
