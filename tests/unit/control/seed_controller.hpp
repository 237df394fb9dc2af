#pragma once
// A controller written the way the Unitree deployment framework's example is written: same method
// names, float arrays, LoadParam taking a non-const path, GetLog returning a vector. It is kept as
// such on purpose: it must compile against praxis unchanged.

#include <array>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

class SeedStyleController {
 public:
  SeedStyleController() {}

  void LoadParam(fs::path &param_folder) {
    std::ifstream cfg_file(param_folder / "params.json");
    nlohmann::json cfg = nlohmann::json::parse(cfg_file);
    dt = cfg.value("dt", 0.01);
    kp = cfg.value("kp", 40.0);
    kd = cfg.value("kd", 1.0);
    for (int i = 0; i < 12; ++i) init_pos.at(i) = cfg["init_pos"].at(i);
  }

  void Reset(RobotInterface &robot_interface, Gamepad &gamepad) {
    (void)gamepad;
    jpos_des = robot_interface.jpos;
    reset_count++;
  }

  void GetInput(RobotInterface &robot_interface, Gamepad &gamepad) {
    seen_gravity_z = robot_interface.projected_gravity.at(2);
    seen_q0 = robot_interface.jpos.at(0);
    lx = gamepad.lx;
  }

  void Calculate() {
    for (int i = 0; i < 12; ++i) jpos_des.at(i) = init_pos.at(i);
    jpos_des.at(1) += 0.1f;
  }

  std::vector<float> GetLog() { return {seen_q0, seen_gravity_z}; }

  float dt, kp, kd;
  std::array<float, 12> init_pos;
  std::array<float, 12> jpos_des;

  int reset_count = 0;
  float seen_gravity_z = 0, seen_q0 = 0, lx = 0;
};
