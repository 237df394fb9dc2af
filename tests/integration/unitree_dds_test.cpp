// Two processes over real Cyclone DDS on loopback: RobotController with the Unitree backend in this
// process, praxis-fake-robot in another. Each test uses its own DDS domain, so tests can run in
// parallel.

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/unitree/backend.hpp"

extern char** environ;

using namespace std::chrono_literals;
namespace u = praxis::unitree;

namespace {

std::uint32_t unique_domain(std::uint32_t k) {
  // 100-189: each test its own sub-range of 30, the process id picks within it.
  return 100 + 30 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 30);
}

// The fake robot as a child process; SIGTERM and a JSON report when stopped.
class FakeRobot {
 public:
  FakeRobot(const std::string& robot, std::uint32_t domain, const std::string& gamepad,
            const std::string& sport_mode = "") {
    report_ = std::filesystem::temp_directory_path() /
              ("praxis_fake_" + std::to_string(::getpid()) + "_" + std::to_string(domain) + "_" +
               std::to_string(counter()++) + ".json");
    std::vector<std::string> args{PRAXIS_FAKE_ROBOT, "--robot", robot, "--domain", std::to_string(domain),
                                  "--interface", "lo", "--report", report_.string()};
    if (!gamepad.empty()) {
      args.push_back("--gamepad");
      args.push_back(gamepad);
    }
    if (!sport_mode.empty()) {
      args.push_back("--sport-mode");
      args.push_back(sport_mode);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid_, PRAXIS_FAKE_ROBOT, nullptr, nullptr, argv.data(), environ) == 0);
  }
  ~FakeRobot() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove(report_);
  }
  // Ends the process gracefully and returns its report.
  nlohmann::json stop() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::ifstream in(report_);
    return nlohmann::json::parse(in);
  }
  void kill_hard() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = 0;
  }

 private:
  static int& counter() {
    static int c = 0;
    return c;
  }
  pid_t pid_ = 0;
  std::filesystem::path report_;
};

template <class Model>
struct HoldOffset {
  static constexpr std::size_t N = Model::joint_count;
  double dt = 0.002, kp = 60.0, kd = 2.0;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    jpos_des = init_pos;
    jpos_des[1] += 0.1;
  }
  std::array<float, 0> log() const { return {}; }
};

template <class Model>
void stand_and_control(const std::string& robot_name, std::uint32_t domain) {
  // Button times leave the controller (which first takes control: releases the sport mode and waits
  // for the first state) a margin: a button already held when control starts has no press edge, like
  // on the real remote.
  FakeRobot fake(robot_name, domain, "R2:1.5-3.0,A:3.5", "normal");
  auto backend_options = u::UnitreeBackend<Model>::simulator(domain);
  backend_options.release = {.call_timeout = 5s, .overall_timeout = 10s, .retry_interval = 100ms};
  u::UnitreeBackend<Model> backend(backend_options);

  // No release_motion_control() by hand: run_for() runs the backend's lifecycle around the loop.
  praxis::ControllerOptions options;
  options.print = false;
  praxis::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  controller.run_for(5s);
  controller.flush();
  REQUIRE(controller.acquired().has_value());
  CHECK(controller.acquired()->ok);
  CHECK_THAT(controller.acquired()->message, Catch::Contains("released motion service \"normal\""));
  const auto transitions = controller.transitions();
  CHECK(controller.state() == praxis::ControlState::ctrl);
  REQUIRE(transitions.size() >= 2);
  CHECK(transitions[transitions.size() - 2].to == praxis::motion::MotionType::stand);
  CHECK(transitions.back().to == praxis::motion::MotionType::user_control);
  CHECK(backend.crc_errors() == 0);
  CHECK(backend.states_accepted() > 1000);

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["crc_errors"] == 0);
  CHECK(report["header_errors"] == 0);
  CHECK(report["mode_errors"] == 0);
  CHECK(report["mode_machine_errors"] == 0);
  CHECK(report["applied"].get<int>() > 500);
  CHECK(report["active_mode"] == "");
  const double q1 = report["final_q"][1].get<double>();
  CHECK(q1 == Approx(Model::stand_pose[1] + 0.1).margin(0.02));  // the controller's target reached the joint
}

}  // namespace

TEST_CASE("a fake Go2 over DDS: release sport mode, stand up, control", "[unitree][dds][two-process]") {
  stand_and_control<u::Go2>("go2", unique_domain(1));
}

TEST_CASE("a fake G1 over DDS: hg messages, echoed mode_machine", "[unitree][dds][two-process]") {
  stand_and_control<u::G1>("g1", unique_domain(2));
}

TEST_CASE("a killed robot means damping; after a restart only the state machine brings it back",
          "[unitree][dds][two-process]") {
  using Model = u::Go2;
  const auto domain = unique_domain(3);
  auto first = std::make_unique<FakeRobot>("go2", domain, "R2:1.0-2.2");
  u::UnitreeBackend<Model> backend(u::UnitreeBackend<Model>::simulator(domain));
  REQUIRE(backend.wait_for_state(5s).ok);  // so that the 3 s below are counted from a robot that is up
  praxis::ControllerOptions options;
  options.print = false;
  praxis::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  std::thread run([&] { controller.run_for(10s); });

  std::this_thread::sleep_for(3000ms);
  first->kill_hard();  // the robot disappears while standing
  std::this_thread::sleep_for(700ms);
  // The new robot presses A first (must be ignored in damping), then R2, then A.
  FakeRobot second("go2", domain, "A:0.5,R2:1.2-2.7,A:3.5");
  run.join();
  controller.flush();
  const auto t = controller.transitions();
  std::vector<std::pair<praxis::ControlState, praxis::ControlState>> seen;
  for (const auto& e : t) {
    seen.emplace_back(praxis::control::control_state(e.from), praxis::control::control_state(e.to));
  }
  using S = praxis::ControlState;
  const std::vector<std::pair<S, S>> expected{
      {S::damping, S::stand}, {S::stand, S::damping}, {S::damping, S::stand}, {S::stand, S::ctrl}};
  CHECK(seen == expected);
  REQUIRE(t.size() == 4);
  CHECK(t[1].cause == praxis::motion::SelectionCause::stale_state);
  CHECK(t[3].cause == praxis::motion::SelectionCause::requested);  // the gamepad's A
  const auto report = second.stop();
  CHECK(report["crc_errors"] == 0);
  CHECK(report["mode_errors"] == 0);
}
