#pragma once
// praxis_motion_demo on a Fourier robot that walks by itself (Aurora's RL locomotion, state 3): the
// behaviour asks for stand, a walk and stand again; the backend takes the robot the FSM's way
// (PdStand, stable, then state 3, the velocity source to navigation, velocity_cmd at 50 Hz) and
// hands it back at the end (the joystick's velocity source again, then PdStand). No joint is
// commanded. With the fake robot, what it recorded is printed: the states it went through, the
// velocity commands it took and any rule the client broke.

#include <chrono>
#include <cstdio>
#include <string>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/aurora/backend.hpp>

#include "timetable.hpp"

namespace example {

template <class Model>
int run_aurora_story(const std::string& self, std::uint32_t domain, const std::string& interface, bool spawn_fake,
                      const std::string& robot_name, const std::string& runtime_params) {
  namespace a = praxis::aurora;
  namespace m = praxis::motion;
  using Backend = a::AuroraBackend<Model, a::Access::locomotion>;
  FakeRobot fake;
  if (spawn_fake) {
    fake = FakeRobot(self, "praxis-fake-aurora",
                     {"--robot", robot_name, "--domain", std::to_string(domain), "--interface", interface,
                      "--stable-after", "0.5"});
    std::printf("started praxis-fake-aurora (pid %d): a %s in Default\n", static_cast<int>(fake.pid()),
                robot_name.c_str());
  }

  auto options = Backend::robot(interface);
  options.dds = {domain, interface};
  options.sequence.pd_stand_timeout = std::chrono::seconds(6);  // includes discovery on a loaded machine
  auto mo = story_options(runtime_params);
  options.link_timeout = std::max(options.link_timeout, mo.safety.stale_timeout);
  Backend robot(options);
  praxis::script::ScriptLibrary<Model> library;  // the robot stands and walks by itself: no scripts
  mo.lifecycle_timeout = std::chrono::seconds(20);  // PdStand may take 15 s to report stable
  praxis::control::MotionController<Backend, Timetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.2, 0.0};
  motion.behaviour().steps = {{0.0, "Stand", m::command::Stand{}},
                              {1.0, "WalkWithVelocity 0.2 m/s", walk},
                              {4.0, "Stand", m::command::Stand{}}};
  // Ctrl-C ends the run the robot's way: handed back (PdStand).
  praxis::control::RunOutcome outcome;
  if (!run_timetable(motion, "DDS domain " + std::to_string(domain) + ", interface \"" + interface + "\"", 6, outcome)) {
    return 3;
  }
  if (const auto* h = robot.locomotion()) {
    std::printf("velocity commands sent: %llu, timeouts: %llu\n", static_cast<unsigned long long>(h->velocities_sent()),
                static_cast<unsigned long long>(h->timeouts()));
  }

  if (fake.pid() > 0) {
    const auto report = fake.report();
    if (!report.is_null()) {
      std::string states;
      for (const auto& e : report["states"]) states += (states.empty() ? "" : " -> ") + e["name"].get<std::string>();
      std::printf("\nthe fake robot recorded: states %s; velocity commands accepted %d; velocity source at the end "
                  "%d; client violations %d\n",
                  states.c_str(), report["velocities_accepted"].get<int>(), report["velocity_source"].get<int>(),
                  report["violations_total"].get<int>());
    }
  }
  std::printf("%s\n", outcome.summary().c_str());
  return outcome.exit_code();
}

}  // namespace example
