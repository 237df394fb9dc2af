#pragma once
// A controller written against the Unitree deployment framework, as a team would write it there:
// it derives from BasicUserController, takes RobotInterface& and Gamepad&, keeps everything in
// float arrays of 12 and reads its own params.json. It names RobotInterface, Gamepad,
// BasicUserController and fs without defining them: the including file provides them, which is all
// a port to praxis changes.
//
// Behaviour: from the pose measured at Reset(), it blends linearly into init_pos over ramp_time
// seconds; A pauses and resumes the blend; the left stick x shifts joint 0 by lx * stick_gain.

#include <algorithm>
#include <array>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

class RampToStandController : public BasicUserController
{
public:
    RampToStandController() {}

    void LoadParam(fs::path &param_folder)
    {
        std::ifstream cfg_file(param_folder / "params.json");
        nlohmann::json cfg = nlohmann::json::parse(cfg_file);
        dt = cfg.at("dt").get<float>();
        kp = cfg.at("kp").get<float>();
        kd = cfg.at("kd").get<float>();
        ramp_time = cfg.at("ramp_time").get<float>();
        stick_gain = cfg.value("stick_gain", 0.0f);
        for (int i = 0; i < 12; ++i)
        {
            init_pos.at(i) = cfg.at("init_pos").at(i).get<float>();
        }
    }

    void Reset(RobotInterface &robot_interface, Gamepad &gamepad)
    {
        (void)gamepad;
        start_pos = robot_interface.jpos;
        jpos_des = robot_interface.jpos;
        elapsed = 0.0f;
        paused = false;
    }

    void GetInput(RobotInterface &robot_interface, Gamepad &gamepad)
    {
        gravity_z = robot_interface.projected_gravity.at(2);
        if (gamepad.A.on_press)
        {
            paused = !paused;
        }
        lx = gamepad.lx;
    }

    void Calculate()
    {
        if (!paused)
        {
            elapsed += dt;
        }
        float s = std::min(1.0f, elapsed / ramp_time);
        for (int i = 0; i < 12; ++i)
        {
            jpos_des.at(i) = start_pos.at(i) + s * (init_pos.at(i) - start_pos.at(i));
        }
        jpos_des.at(0) += lx * stick_gain;
        progress = s;
    }

    std::vector<float> GetLog()
    {
        return {progress, gravity_z};
    }

    float ramp_time = 1.0f;
    float stick_gain = 0.0f;

private:
    std::array<float, 12> start_pos{};
    float elapsed = 0.0f;
    float progress = 0.0f;
    float gravity_z = 0.0f;
    float lx = 0.0f;
    bool paused = false;
};
