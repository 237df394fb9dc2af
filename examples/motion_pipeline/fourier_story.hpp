#pragma once
// praxis_motion_demo on a Fourier robot that walks by itself (Aurora's RL locomotion, state 3): the
// behaviour asks for stand, a walk and stand again; the backend takes the robot the FSM's way
// (PdStand, stable, then state 3, the velocity source to navigation, velocity_cmd at 50 Hz) and
// hands it back at the end (the joystick's velocity source again, then PdStand). No joint is
// commanded. With the fake robot, what it recorded is printed: the states it went through, the
// velocity commands it took and any rule the client broke.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/aurora/backend.hpp>

extern char** environ;

namespace example {

// The behaviour: a timetable of motion commands from the first cycle.
struct FourierTimetable {
  static constexpr std::string_view name = "timetable";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::MotionCommandPort>;
  struct Step {
    double at;
    std::string label;
    praxis::motion::MotionCommand command;
  };
  std::vector<Step> steps;
  praxis::TimePoint start{};
  bool started = false;
  void cycle(const praxis::CycleInfo& info, praxis::motion::MotionCommand& out) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = praxis::to_seconds(info.now - start);
    out = praxis::motion::command::Unset{};
    for (const auto& s : steps) {
      if (t < s.at) break;
      out = s.command;
    }
  }
};

template <class Model>
int run_fourier_story(const std::string& self, std::uint32_t domain, const std::string& interface, bool spawn_fake,
                      const std::string& robot_name) {
  namespace a = praxis::aurora;
  namespace m = praxis::motion;
  using Backend = a::AuroraBackend<Model, a::Access::locomotion>;
  const auto report_file = std::filesystem::temp_directory_path() /
                           ("praxis_motion_demo_fourier_" + std::to_string(::getpid()) + ".json");
  pid_t fake = 0;
  if (spawn_fake) {
    const auto exe = std::filesystem::path(self).parent_path() / "praxis-fake-aurora";
    std::vector<std::string> args{exe.string(), "--robot",        robot_name, "--domain", std::to_string(domain),
                                  "--interface", interface,       "--stable-after", "0.5", "--report",
                                  report_file.string()};
    std::vector<char*> argv;
    for (auto& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    if (posix_spawn(&fake, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start " + exe.string());
    }
    std::printf("started praxis-fake-aurora (pid %d): a %s in Default\n", static_cast<int>(fake), robot_name.c_str());
  }
  struct StopFake {
    pid_t pid;
    ~StopFake() {
      if (pid > 0) {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
      }
    }
  } stop_fake{fake};

  auto options = Backend::robot(interface);
  options.dds = {domain, interface};
  options.sequence.pd_stand_timeout = std::chrono::seconds(6);  // includes discovery on a loaded machine
  Backend robot(options);
  praxis::script::ScriptLibrary<Model> library;  // the robot stands and walks by itself: no scripts
  praxis::MotionOptions mo;
  mo.print = false;
  mo.lifecycle_timeout = std::chrono::seconds(20);  // PdStand may take 15 s to report stable
  praxis::MotionController<Backend, FourierTimetable> motion(robot, library, mo);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.2, 0.0};
  motion.behaviour().steps = {{0.0, "Stand", m::command::Stand{}},
                              {1.0, "WalkWithVelocity 0.2 m/s", walk},
                              {4.0, "Stand", m::command::Stand{}}};
  std::printf("DDS domain %u, interface \"%s\": running the behaviour for 6 s\n", domain, interface.c_str());
  std::fflush(stdout);
  const praxis::StopOnSignals stop_on_signals(motion);  // Ctrl-C: the robot handed back (PdStand)
  const auto outcome = motion.run_for(std::chrono::seconds(6));
  const auto& acquired = motion.acquired();
  if (!acquired || !acquired->ok) {
    std::printf("could not take the robot: %s\n", acquired ? acquired->message.c_str() : "no lifecycle");
    return 3;
  }
  std::printf("lifecycle: %s\n", acquired->message.c_str());
  for (const auto& s : motion.behaviour().steps) std::printf("%6.2f  command: %s\n", s.at, s.label.c_str());
  if (const auto* h = robot.locomotion()) {
    std::printf("velocity commands sent: %llu, timeouts: %llu\n", static_cast<unsigned long long>(h->velocities_sent()),
                static_cast<unsigned long long>(h->timeouts()));
  }

  if (fake > 0) {
    ::kill(fake, SIGTERM);
    ::waitpid(fake, nullptr, 0);
    stop_fake.pid = 0;
    std::ifstream in(report_file);
    const auto report = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(report_file);
    if (!report.is_discarded()) {
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
