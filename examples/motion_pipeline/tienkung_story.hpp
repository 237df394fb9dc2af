#pragma once
// praxis_motion_demo on a Walker Tienkung that stands and walks by itself (its motion controller,
// HRIC): the behaviour asks for a stand, a walk and a stand again; the backend turns that into
// walk-mode requests (stand 3, walk 4) and cmd_vel, and ends with the robot standing, balancing by
// itself. No limb command topic is written. With the fake robot, what it recorded is printed: the
// walk modes it went through, the requests and how it answered them, the velocities.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>

#include <praxis/control/motion_controller.hpp>
#include <praxis/hardware/tienkung/walking_backend.hpp>
#include <praxis/hardware/tienkung/walking_params.hpp>

#include "timetable.hpp"

namespace example {

template <class Model>
int run_tienkung_story(const std::string& self, bool spawn_fake, const std::string& runtime_params,
                       praxis::tienkung::WalkingParams params) {
  namespace tk = praxis::tienkung;
  namespace m = praxis::motion;
  using Backend = tk::WalkingBackend<Model>;
  const std::string robot_name = std::is_same_v<Model, praxis::tienkung::Lite> ? "lite" : "pro";  // the fake's --robot
  const std::uint32_t domain = params.backend.dds.domain;
  const std::string interface = params.backend.dds.interface;
  const auto wire = params.hric.wire;
  FakeRobot fake;
  if (spawn_fake) {
    // Stood up by the operator with the remote and handed to programs: where praxis may start.
    fake = FakeRobot(self, "praxis-fake-tienkung",
                     {"--robot", robot_name, "--domain", std::to_string(domain), "--interface", interface, "--hric",
                      "--hric-mode", "stand", "--service-wire", std::string(tk::to_string(wire))});
    std::printf("started praxis-fake-tienkung (pid %d): a Tienkung %s standing under its own controller\n",
                static_cast<int>(fake.pid()), robot_name.c_str());
  }
  auto mo = story_options(runtime_params);
  params.backend.link_timeout = std::max(params.backend.link_timeout, mo.safety.stale_timeout);
  Backend robot(params.backend, params.walking, params.hric);
  praxis::script::ScriptLibrary<Model> library;  // the robot stands and walks by itself: no scripts
  mo.lifecycle_timeout = std::chrono::seconds(10);
  praxis::control::MotionController<Backend, Timetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  motion.behaviour().steps = {{0.0, "Stand", m::command::Stand{}},
                              {1.0, "WalkWithVelocity 0.3 m/s", walk},
                              {3.5, "Stand", m::command::Stand{}}};
  // Ctrl-C ends the run the robot's way: stopped, standing, balancing.
  praxis::control::RunOutcome outcome;
  if (!run_timetable(motion, "DDS domain " + std::to_string(domain) + ", interface \"" + interface + "\"", 5, outcome)) {
    return 3;
  }
  const auto& w = robot.walking();
  std::printf("walk-mode requests: %llu (failed %llu), velocities sent: %llu, joint commands withheld: %llu\n",
              static_cast<unsigned long long>(w.calls()), static_cast<unsigned long long>(w.calls_failed()),
              static_cast<unsigned long long>(w.velocities_sent()),
              static_cast<unsigned long long>(robot.commands_withheld()));

  if (fake.pid() > 0) {
    const auto report = fake.report();
    if (!report.is_null() && report.contains("hric")) {
      const auto& h = report["hric"];
      std::string modes;
      for (const auto& e : h["mode_timeline"]) modes += (modes.empty() ? "" : " -> ") + e["mode"].get<std::string>();
      std::printf("\nthe fake robot recorded: walk modes %s; requests %zu (refused %d); velocities %d; "
                  "stop/zero asked %d; limb commands %d\n",
                  modes.c_str(), h["calls"].size(), h["refused"].get<int>(), h["velocities_received"].get<int>(),
                  h["balance_taken"].get<int>(), h["limb_commands_while_hric"].get<int>());
    }
  }
  std::printf("%s\n", outcome.summary().c_str());
  return outcome.exit_code();
}

}  // namespace example
