// praxis-sim: the physics twin of praxis-fake-robot. The same DDS bridge (fake_robot/bridge.hpp:
// topics, CRC, modes, rates, gamepad script, motion_switcher RPC) in front of a MuJoCo plant instead
// of mock dynamics, so a praxis controller or a vendor client runs against it unchanged.
//
//   praxis-sim --robot go2 --domain 1 --interface lo [--model models/go2.xml] [--lockstep]
//              [--start lying|model] [--band "0:feet,3:0.6,8:off"] [--gamepad "R2:1.0-3.0,A:3.5"]
//              [--duration 10] [--report r.json] [--pictures DIR [--picture-every 0.5] [--picture-size 320x240]]

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "../fake_robot/bridge.hpp"
#include "sim_robot.hpp"

namespace {

template <praxis::unitree::UnitreeModel M>
fake_common::Report run(const fake_robot::Settings& s, const sim::SimOptions& options) {
  return fake_robot::run_bridge<M>(s, [&](praxis::TimePoint t0) { return sim::SimRobot<M>(options, t0); });
}

}  // namespace

int main(int argc, char** argv) {
  fake_robot::Settings s;
  s.program = "praxis-sim";
  const auto fake =
      fake_robot::unitree_fake("praxis-sim", "praxis-sim: a Unitree robot simulated in MuJoCo, on DDS like the real one", "go2");
  sim::SimOptions options;
  std::string model, start;
  bool lockstep = false;
  bool realtime = false;  // the default; the flag only makes a command line say it
  std::optional<std::string> band;
  std::string pictures, picture_size = "320x240";
  double picture_every = 0.5;
  const auto add_options = [&](CLI::App& app) {
    fake_robot::add_bridge_options(app, s);
    app.get_option("--duration")->description("simulated seconds to run (0: until SIGINT/SIGTERM)");
    app.add_option("--model", model,
                   "MJCF model (default: the shipped model of --robot; h1_2 has none): praxis' own or a "
                   "vendor's published one for MuJoCo 3, translated for 2.2.2 at load");
    app.add_option("--start", start,
                   "lying: on the ground in the robot's rest pose, motors off (Go2's default); model: the model's "
                   "keyframe (G1's default)")
        ->check(CLI::IsMember({"lying", "model"}));
    app.add_option("--band", band,
                   "elastic band script: TIME:LENGTH, TIME:feet (the length that holds the robot with its feet just "
                   "touching), TIME:off (lowered until the feet carry the robot, then released) or TIME:cut (let go at "
                   "once) items, simulated s and "
                   "rest length m (default for humanoids \"0:feet\"; none for go2; \"\" for none)");
    auto* ls = app.add_flag("--lockstep", lockstep,
                            "deterministic: advance one 2 ms control period per tick with a command, else stand still");
    app.add_flag("--realtime", realtime, "simulated time follows the wall clock (the default)")->excludes(ls);
    app.add_option("--pictures", pictures,
                   "folder for pictures of the run (offscreen, no display needed): frame_NNN.png and "
                   "contact_sheet.png, written at the end");
    app.add_option("--picture-every", picture_every, "simulated seconds between pictures")->check(CLI::Range(0.01, 3600.0));
    app.add_option("--picture-size", picture_size, "WIDTHxHEIGHT of each picture");
  };
  return fake_common::fake_robot_main(argc, argv, fake, s, add_options, [&] {
    options.model = model.empty() ? sim::shipped_model(s.robot) : std::filesystem::path(model);
    options.pacing = lockstep ? sim::Pacing::lockstep : sim::Pacing::realtime;
    options.lying = start.empty() ? s.robot == "go2" : start == "lying";
    options.band = band ? *band : sim::default_band(s.robot);
    if (!pictures.empty()) {
      options.pictures.folder = pictures;
      options.pictures.every = praxis::from_seconds(picture_every);
      std::tie(options.pictures.width, options.pictures.height) = sim::parse_picture_size(picture_size);
      options.pictures.camera = sim::robot_view(s.robot != "go2");
    }
    if (s.robot == "g1") return run<praxis::unitree::G1>(s, options);
    if (s.robot == "go2") return run<praxis::unitree::Go2>(s, options);
    if (s.robot == "h1_2") return run<praxis::unitree::H1_2>(s, options);
    throw std::invalid_argument("--robot " + s.robot + ": not simulated (go2, g1, h1_2)");
  });
}
