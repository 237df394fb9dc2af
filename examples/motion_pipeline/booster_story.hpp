#pragma once
// praxis_motion_demo --backend fake-booster: the same motion pipeline on a Booster K1 / T1 over DDS,
// against praxis-fake-booster started as a second process. The robot walks, turns its head, gets up
// and kicks by itself; praxis sends it the booster_interface RPC schedule. Afterwards the demo
// prints what a user would check on a robot: the behaviour's commands, every mode change and
// one-shot call with its answer, the periodic calls' rates per phase, and what the robot recorded.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/booster/backend.hpp>
#include <praxis/hardware/booster/event_log.hpp>
#include <praxis/hardware/booster/interface_params.hpp>

#include "timetable.hpp"

extern char** environ;

namespace example {

namespace m = praxis::motion;

// The behaviour: a timetable from its first cycle, plus an LED colour per phase (as a RoboCup
// team shows its game state: blue damped, yellow preparing, green playing).
struct BoosterTimetable {
  static constexpr std::string_view name = "timetable";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<m::MotionCommandPort, m::LedCommandPort>;
  struct Step {
    double at;
    std::string label;
    m::MotionCommand command;
    praxis::LedRequest leds;
  };
  std::vector<Step> steps;
  praxis::TimePoint start{};
  bool started = false;
  void cycle(const praxis::CycleInfo& info, m::MotionCommand& out, praxis::LedRequest& leds) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = praxis::to_seconds(info.now - start);
    out = m::command::Unset{};
    leds = {};
    for (const auto& s : steps) {
      if (t < s.at) break;
      out = s.command;
      leds = s.leds;
    }
  }
};

inline std::vector<BoosterTimetable::Step> booster_steps() {
  m::command::Stand stand;
  stand.head = m::HeadMotion::look_around();
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  walk.angular_velocity = 0.1;
  m::command::VisualKick kick;
  kick.ball_position = {0.6, -0.1};
  kick.kick_direction = 0.1;
  kick.target_position = {4.5, 0.0};
  kick.kick_power = m::KickPower::strong;
  m::command::Walk to_ball;
  to_ball.path.add({1.0, 0.5});
  to_ball.speed = 0.4;
  to_ball.orientation_mode = m::OrientationMode::align_with_path();
  const praxis::LedRequest blue{true, 0, 0, 255}, yellow{true, 255, 255, 0}, green{true, 0, 255, 50};
  return {{0.5, "Prepare", m::command::Prepare{}, yellow},
          {1.5, "StandUp", m::command::StandUp{}, yellow},
          {4.0, "Stand (looking around)", stand, green},
          {5.5, "WalkWithVelocity 0.3 m/s", walk, green},
          {7.0, "VisualKick", kick, green},
          {8.5, "Walk along a path", to_ball, green},
          {10.0, "Stand", m::command::Stand{}, green},
          {11.0, "Damping", m::command::Damping{}, blue}};
}

template <class Model>
int run_booster_story(const std::string& self, std::uint32_t domain, const std::string& interface, bool spawn_fake,
                      const std::string& params_file, const std::string& runtime_params) {
  namespace b = praxis::booster;
  using Backend = b::BoosterBackend<Model>;
  const auto report_file = std::filesystem::temp_directory_path() /
                           ("praxis_motion_demo_booster_" + std::to_string(::getpid()) + ".json");
  pid_t fake = 0;
  if (spawn_fake) {
    const auto exe = std::filesystem::path(self).parent_path() / "praxis-fake-booster";
    std::vector<std::string> args{exe.string(), "--robot",      std::string(Model::name), "--domain",
                                  std::to_string(domain), "--interface", interface, "--lying",
                                  "--get-up-seconds", "1.5", "--report", report_file.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&fake, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start " + exe.string());
    }
    std::printf("started praxis-fake-booster (pid %d): a %s lying down, in Damping\n", static_cast<int>(fake),
                std::string(Model::name).c_str());
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

  auto options = Backend::fake_robot(domain);
  options.dds.interface = interface;
  if (!params_file.empty()) {
    options.interface = b::load_interface_params(params_file);
    std::printf("booster_interface parameters: %s\n", params_file.c_str());
  }
  auto log = std::make_shared<b::RecordingEventLog>();
  options.log = log;
  auto mo = story_options(runtime_params);
  // A wider stale timeout widens the link's with it: both say how long a silent robot is tolerated.
  options.link_timeout = std::max(options.link_timeout, mo.safety.stale_timeout);
  Backend robot(options);
  praxis::script::ScriptLibrary<Model> library;  // the robot gets up and walks by itself: no scripts
  mo.walk = options.interface.walking;  // the file's walking keys shape the step the pipeline computes
  mo.lifecycle_timeout = std::chrono::seconds(10);
  praxis::control::MotionController<Backend, BoosterTimetable> motion(robot, library, mo);
  motion.behaviour().steps = booster_steps();
  std::printf("DDS domain %u, interface \"%s\": running the behaviour for 12 s\n", domain, interface.c_str());
  std::fflush(stdout);
  const praxis::control::StopOnSignals stop_on_signals(motion);  // Ctrl-C: Damping is requested, the robot handed back
  const auto outcome = motion.run_for(std::chrono::seconds(12));
  const auto& acquired = motion.acquired();
  if (!acquired || !acquired->ok) {
    std::printf("could not take the robot: %s\n", acquired ? acquired->message.c_str() : "no lifecycle");
    return 3;
  }
  std::printf("lifecycle: %s\n", acquired->message.c_str());

  // ---- the story: commands and one-shot calls in time order ----
  const auto start = motion.behaviour().start;
  const auto& steps = motion.behaviour().steps;
  std::printf("\n  time  what\n");
  struct Line {
    double t;
    std::string text;
  };
  std::vector<Line> lines;
  for (const auto& s : steps) lines.push_back({s.at, "command: " + s.label});
  std::map<std::uint64_t, nlohmann::json> scheduled;
  struct Rates {
    std::map<std::string, int> count;
  };
  std::vector<Rates> per_phase(steps.size() + 1);
  const auto phase_of = [&](double t) {
    std::size_t k = 0;
    while (k < steps.size() && t >= steps[k].at) ++k;
    return k;  // 0: before the first command
  };
  for (const auto& e : log->entries()) {
    const double t = praxis::to_seconds(e.time - start);
    const auto j = nlohmann::json::parse(e.json, nullptr, false);
    if (j.is_discarded()) continue;
    const std::string event = j.value("event", "");
    if (e.category == "primary_state") {
      lines.push_back({t, "robot: fall state " + j.value("fall_state", "?") + ", confirmed mode " +
                              j.value("confirmed_mode", "?")});
      continue;
    }
    if (e.category != "rpc") continue;
    const std::string action = j.value("action", "");
    if (event == "booster rpc scheduled") {
      scheduled[j["sequence"].get<std::uint64_t>()] = j;
      if (action == "change_mode") {
        lines.push_back({t, "  rpc #" + std::to_string(j["sequence"].get<int>()) + " change_mode " +
                                j.value("mode", "?")});
      } else if (action == "get_up" || action == "set_leds" || action == "stop_leds") {
        lines.push_back({t, "  rpc #" + std::to_string(j["sequence"].get<int>()) + " " + action});
      } else if (action == "visual_kick") {
        lines.push_back({t, "  rpc #" + std::to_string(j["sequence"].get<int>()) + " visual_kick " +
                                (j.value("enabled", false) ? "start" : "stop")});
      }
    } else if (event == "booster rpc completed") {
      if (action == "move_robot" || action == "rotate_head" || action == "kick_publish") {
        // Counted as answered (ok), not as scheduled: a slow robot answers far fewer than are planned.
        const std::string status = j.value("status", "");
        ++per_phase[phase_of(t)].count[status == "ok" ? action : action + " " + status];
        continue;
      }
      char buf[160];
      std::snprintf(buf, sizeof buf, "    #%d %s: %s after %.1f ms", j["sequence"].get<int>(), action.c_str(),
                    j.value("status", "?").c_str(), j.value("elapsed_ms", 0.0));
      lines.push_back({t, buf});
    } else if (event == "booster rpc failed") {
      lines.push_back({t, "    failed: " + j.value("error", "")});
    }
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.t < b.t; });
  for (const auto& l : lines) std::printf("%6.2f  %s\n", l.t, l.text.c_str());

  std::printf("\nperiodic calls answered ok per phase (calls/s):\n  %-26s %10s %11s %12s\n", "phase", "move_robot",
              "rotate_head", "kick_publish");
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const double from = steps[k].at;
    const double to = k + 1 < steps.size() ? steps[k + 1].at : 12.0;
    const auto rate = [&](const char* a) {
      const auto it = per_phase[k + 1].count.find(a);
      return it == per_phase[k + 1].count.end() ? 0.0 : it->second / (to - from);
    };
    std::printf("  %-26s %10.1f %11.1f %12.1f\n", steps[k].label.c_str(), rate("move_robot"), rate("rotate_head"),
                rate("kick_publish"));
  }
  std::size_t not_ok = 0;
  for (const auto& phase : per_phase) {
    for (const auto& [name, n] : phase.count) not_ok += name.find(' ') != std::string::npos ? n : 0;
  }
  std::printf("periodic calls not answered ok: %zu\n", not_ok);
  std::printf("\ncalls per action: %12s %6s %9s %4s %8s %10s %8s %8s\n", "scheduled", "sent", "answered", "ok",
              "refused", "timed out", "dropped", "retries");
  for (std::size_t a = 0; a < b::k_actions; ++a) {
    const auto action = static_cast<b::Action>(a);
    const auto c = robot.call_counts(action);
    if (c.scheduled == 0) continue;
    std::printf("  %-15s %12llu %6llu %9llu %4llu %8llu %10llu %8llu %8llu\n", std::string(b::to_string(action)).c_str(),
                static_cast<unsigned long long>(c.scheduled), static_cast<unsigned long long>(c.sent),
                static_cast<unsigned long long>(c.answered), static_cast<unsigned long long>(c.ok),
                static_cast<unsigned long long>(c.refused), static_cast<unsigned long long>(c.timed_out),
                static_cast<unsigned long long>(c.dropped), static_cast<unsigned long long>(c.retries));
  }

  if (fake > 0) {
    ::kill(fake, SIGTERM);
    ::waitpid(fake, nullptr, 0);
    stop_fake.pid = 0;
    std::ifstream in(report_file);
    const auto report = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(report_file);
    if (!report.is_discarded()) {
      std::string modes;
      for (const auto& e : report["modes"]) modes += (modes.empty() ? "" : " -> ") + e["mode"].get<std::string>();
      std::map<std::string, std::pair<int, int>> calls;  // name -> (all, refused)
      for (const auto& c : report["loco_calls"]) {
        auto& n = calls[c["name"].get<std::string>()];
        ++n.first;
        n.second += c["status"].get<int>() != 0;
      }
      std::printf("\nthe fake robot recorded: modes %s; %s\n", modes.c_str(),
                  report["standing"].get<bool>() ? "standing" : "not standing");
      for (const auto& [name, n] : calls) std::printf("  %-11s %5d calls, %d refused\n", name.c_str(), n.first, n.second);
      std::printf("  LED calls %zu, rt/kick_ball messages %d (%.1f Hz), walked %.2f m\n", report["light_calls"].size(),
                  report["kick_ball"]["received"].get<int>(), report["kick_ball"]["rate_hz"].get<double>(),
                  report["odometry"]["x"].get<double>());
    }
  }
  std::printf("%s\n", outcome.summary().c_str());
  return outcome.exit_code();
}

}  // namespace example
