#pragma once
// How each Unitree model sits in its message family (docs/backends/unitree_wire.md): which
// generated C types, how many motor slots, the motor mode byte, and the hg family's mode_machine.

#include <array>
#include <cstddef>
#include <cstdint>

#include <praxis/idl/unitree_go.h>
#include <praxis/idl/unitree_hg.h>

#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/g1_23.hpp"
#include "praxis/hardware/unitree/h1_2.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace praxis::unitree {

// PosStopF / VelStopF: what unused go-family slots carry (the vendor examples' "stop" values).
inline constexpr float k_pos_stop = 2.146e9f;
inline constexpr float k_vel_stop = 16000.0f;

struct GoFamily {
  using LowCmd = unitree_go_msg_dds__LowCmd_;
  using LowState = unitree_go_msg_dds__LowState_;
  static constexpr std::size_t slots = 20;
  static constexpr const dds_topic_descriptor_t* low_cmd_descriptor() { return &unitree_go_msg_dds__LowCmd__desc; }
  static constexpr const dds_topic_descriptor_t* low_state_descriptor() { return &unitree_go_msg_dds__LowState__desc; }
};

struct HgFamily {
  using LowCmd = unitree_hg_msg_dds__LowCmd_;
  using LowState = unitree_hg_msg_dds__LowState_;
  static constexpr std::size_t slots = 35;
  static constexpr const dds_topic_descriptor_t* low_cmd_descriptor() { return &unitree_hg_msg_dds__LowCmd__desc; }
  static constexpr const dds_topic_descriptor_t* low_state_descriptor() { return &unitree_hg_msg_dds__LowState__desc; }
};

template <class Model>
struct Wire;  // specialised per model below; a model without one has no Unitree wire format

template <>
struct Wire<Go2> {
  using Family = GoFamily;
  static constexpr std::uint8_t motor_mode = 0x01;  // servo (PMSM) mode
  static constexpr std::array<std::size_t, Go2::joint_count> slot{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
};

template <>
struct Wire<G1> {
  using Family = HgFamily;
  static constexpr std::uint8_t motor_mode = 0x01;  // hg: 1 = enable, 0 = disable
  static constexpr std::array<std::size_t, G1::joint_count> slot{
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28};
  // mode_machine of g1_29dof_rev_1_0; the robot reports its own, which is what gets echoed.
  static constexpr std::uint8_t expected_mode_machine = 5;
};

template <>
struct Wire<G1_23> {
  using Family = HgFamily;
  static constexpr std::uint8_t motor_mode = 0x01;
  static constexpr std::array<std::size_t, G1_23::joint_count> slot = G1_23::g1_slot;
  static constexpr std::uint8_t expected_mode_machine = 4;  // g1_23dof_rev_1_0
};

template <>
struct Wire<H1_2> {
  using Family = HgFamily;
  static constexpr std::uint8_t motor_mode = 0x01;
  static constexpr std::array<std::size_t, H1_2::joint_count> slot{0,  1,  2,  3,  4,  5,  6,  7,  8,
                                                                   9,  10, 11, 12, 13, 14, 15, 16, 17,
                                                                   18, 19, 20, 21, 22, 23, 24, 25, 26};
  // No mode_machine is documented for H1-2: echo what the robot reports, or
  // set BackendOptions::mode_machine. The fake robot reports 0 unless told otherwise.
  static constexpr std::uint8_t expected_mode_machine = 0;
};

template <class Model>
concept UnitreeModel = RobotModel<Model> && requires { typename Wire<Model>::Family; };

}  // namespace praxis::unitree
