// praxis_demo: one program for every robot praxis has. A robot is taken through the seed's story:
// control taken the robot's way, stand (R2 held), the user's controller (A), the end of control in
// the robot's own safe state.
//
//   praxis_demo --robot g1 [--duration 10] [--param DIR] [--log-folder logs | --no-log] [--realtime]
//               [--rt-priority 80] [--rt-cpu 3]
//   praxis_demo --robot gr2 --backend fake-robot   the same over real DDS, against the model's fake robot
//   praxis_demo --robot go2 --backend sim          in MuJoCo physics, against praxis-sim, with pictures
//   praxis_demo --robot g1 --backend mujoco        in MuJoCo physics in this process, in simulated time
//                                                  (bit-identical runs, faster than real time)
//   praxis_demo --robot g1 --backend dds --domain 0 --interface eth0     a real robot (careful!)
//   praxis_demo --robot g1 --backend fake-robot --arms-only    the arms only (G1: rt/arm_sdk, with the
//                                                              waist), while the robot's own controller
//                                                              keeps the legs
//   praxis_demo --robot g1 --controller policy [--policy policy.onnx --deploy deploy.json]
//                                              a trained policy as the user's controller (docs/policy.md);
//                                              without --deploy, the robot's example policy
//   praxis_demo --robot g1 --controller policy --command 0.3,0,0
//                                              the policy's velocity command (vx, vy m/s, wz rad/s)
//                                              instead of the robot's sticks; over time:
//                                              --command "0.5,0,0@2-12;0,0,0.3@12-16" (seconds since the
//                                              policy took control, zero outside the items)
//
// On mock hardware (the default) the robot lies on the floor and a scripted tilt ends the story in
// damping; every model runs there, with praxis owning every joint. Over DDS each vendor's robot is
// taken and handed back its own way (Unitree: motion switcher released, damping at the end; Booster:
// Prepare, Custom, Damping; Fourier: PdStand, UserCmd, PdStand; Tienkung: joint control, damping).
// Fourier and Tienkung robots report no remote: a scripted operator presses R2 and A.
//
// The exit status is 0 whenever a run ends normally, whatever state it ended in (a real robot's
// operator decides that); errors (bad parameters, no robot, control not taken, no valid state ever)
// give a non-zero status.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "demo.hpp"


int main(int argc, char** argv) {
  demo::Settings s;
  CLI::App app{"praxis demo: a robot through damping, stand, the user's controller and the end of control"};
  app.add_option("-r,--robot", s.robot, "robot model (required): " + demo::model_choices())
      ->check(CLI::IsMember(demo::all_models()));
  app.add_option("-d,--duration", s.duration, "seconds to run")->check(CLI::Range(2.0, 3600.0));
  app.add_option("-p,--param", s.param_folder,
                 "folder with the controller's params.json (default: examples/custom_controller/params/<robot>)");
  app.add_option("--runtime-params", s.runtime_params,
                 "JSON file with the runtime's safety settings (safety.stale_timeout, fall, collector limits; "
                 "docs/parameters.md)")
      ->check(CLI::ExistingFile);
  app.add_option("-l,--log-folder", s.log_base, "where run folders are created");
  app.add_flag("--no-log", s.no_log, "write no log files");
  app.add_flag("--realtime", s.realtime, "mock: run in real time with receive/control/send threads");
  app.add_option("--rt-priority", s.rt_priority,
                 "real-time runs (--realtime, DDS backends): SCHED_FIFO at this priority for the control thread "
                 "(the receive and send threads just below), memory locked, stacks and heap prefaulted; what "
                 "was granted is printed (docs/realtime.md)")
      ->check(CLI::Range(1, 99));
  app.add_option("--rt-cpu", s.rt_cpu, "real-time runs: the CPU the control thread runs on")->check(CLI::NonNegativeNumber);
  app.add_option("-b,--backend", s.backend,
                 "mock (in process), fake-robot (the model's fake robot over DDS), sim (praxis-sim: MuJoCo physics "
                 "over DDS, Unitree go2 or g1, with pictures), mujoco (MuJoCo physics in this process, simulated "
                 "time, Unitree go2 or g1, with pictures and the base trajectory) or dds (a robot on the network)")
      ->check(CLI::IsMember({"mock", "fake-robot", "sim", "dds", "mujoco"}));
  app.add_option("--model", s.model, "--backend mujoco: another MJCF (default: the robot's shipped model)")
      ->check(CLI::ExistingFile);
  app.add_option("--band", s.band,
                 "--backend mujoco: the elastic band's script, TIME:LENGTH, TIME:feet, TIME:off or TIME:cut items in simulated "
                 "s and m "
                 "(praxis-sim's --band; default for g1 as praxis-sim's, none for go2; \"\" for none)");
  app.add_option("--domain", s.domain,
                 "DDS domain id (default: the fake robot's 1, or the vendor's robot domain with --backend dds)");
  app.add_option("--interface", s.interface, "network interface for DDS (the one that reaches the robot)");
  app.add_option("--target", s.target,
                 "Unitree: robot (the motion switcher must answer), simulator (Unitree's simulators run none) or "
                 "auto (domain 0 = robot)")
      ->check(CLI::IsMember({"auto", "robot", "simulator"}));
  app.add_flag("--arms-only,--arm-sdk", s.arm_sdk,
               "control the arms only while the robot's own controller keeps the legs: Unitree g1, g1_23, h1_2 "
               "over rt/arm_sdk (with the waist), Booster t1, k1 by rt/joint_ctrl's weight while walking, Fourier "
               "in PdStand's stance (with waist and head), Tienkung's upper body");
  app.add_option("--backend-params", s.backend_params,
                 "DDS backends: JSON file over the backend's options (topic and type names, QoS, domain, ...: the "
                 "UNVERIFIED wire facts, listed in docs/backends/<vendor>.md)")
      ->check(CLI::ExistingFile);
  app.add_option("--set", s.settings,
                 "DDS backends: one backend option, KEY=VALUE by its field path (e.g. wire.naming=ros2, "
                 "dds.domain=0, lowstate_topic=rt/lowstate); after --backend-params, repeatable");
  app.add_option("--fake-arg", s.fake_args,
                 "--backend fake-robot: one more argument for the fake robot (repeatable), to make it the robot in "
                 "front of you, e.g. --fake-arg=--type-names --fake-arg=topic-names")
      ->allow_extra_args(false);
  app.add_option("--status-layout", s.status_layout, "Tienkung: the MotorStatus layout the robot sends")
      ->check(CLI::IsMember({"with_error", "without_error", "with_voltage"}));
  app.add_flag("--no-state-crc", s.no_state_crc,
               "Unitree: accept LowState without checking its CRC (Unitree's Python simulator sends crc = 0)");
  app.add_flag("--record", s.record,
               "record every port of the run (the cycle's inputs included) to <run folder>/run.mcap, for Foxglove, "
               "PlotJuggler and praxis-replay (docs/observability.md)");
  app.add_option("--record-compression", s.record_compression, "the recording's chunk compression")
      ->check(CLI::IsMember({"zstd", "lz4", "none"}));
  app.add_option("--live", s.live,
                 "serve the run live on [ADDRESS:]PORT: the Foxglove WebSocket protocol and a page of its own at "
                 "http://ADDRESS:PORT/ (ADDRESS 127.0.0.1 unless given; read-only)");
  app.add_option("--live-rate", s.live_rate, "the live view's rate per channel and client, Hz (0: every cycle)")
      ->check(CLI::Range(0.0, 100000.0));
  app.add_option("--controller", s.controller,
                 "the user's controller: the example sinusoid, or a trained ONNX policy (docs/policy.md)")
      ->check(CLI::IsMember({"sinusoid", "policy"}));
  app.add_option("--deploy", s.deploy,
                 "--controller policy: its deploy file (default: the robot's example policy, "
                 "examples/policy/<robot>/deploy.json)")
      ->check(CLI::ExistingFile);
  app.add_option("--policy", s.policy, "--controller policy: the network (default: the deploy file's \"policy\")")
      ->check(CLI::ExistingFile);
  app.add_option("--command", s.command,
                 "--controller policy: its velocity command in place of the deploy file's source (the robot's "
                 "sticks): VX,VY,WZ (m/s, m/s, rad/s) from start to end, or items VX,VY,WZ@START[-END] separated by "
                 "';', in seconds since the policy took control (each entry into CTRL starts again), zero outside "
                 "them, e.g. \"0.5,0,0@2-12;0,0,0.3@12-16\"; limited to the deploy file's max (docs/policy.md)");
  app.add_flag("--strict", s.strict,
               "exit 3 when a run that ended normally rode out a stall of the control thread, a freeze of the "
               "control loop or a pause of the robot's state (the summary names them; docs/safety.md)");
  CLI11_PARSE(app, argc, argv);
  s.self = praxis::examples::own_path(argv[0]).string();
  if (s.controller != "policy" && (!s.deploy.empty() || !s.policy.empty())) {
    std::cerr << "error: --deploy and --policy choose a trained policy's files: add --controller policy\n";
    return 2;
  }
  if (s.controller == "policy" && app.count("--param") > 0) {
    std::cerr << "error: --param is the sinusoid's parameter folder; a policy's settings are its deploy file (--deploy)\n";
    return 2;
  }
  s.domain_given = app.count("--domain") > 0;
  if (app.count("--command") > 0 && s.command.empty()) {
    std::cerr << "error: --command: no command given: expected VX,VY,WZ[@START[-END]], items separated by ';'\n";
    return 2;
  }

  try {
    return demo::run_robot(s);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}
