// A robot whose backend cannot walk, and no walking node: the motion pipeline must not compile.
#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

using Robot = praxis::mock::MockRobot<praxis::unitree::Go2>;
using Motion = praxis::control::MotionController<Robot, praxis::control::CommandInput>;

Robot robot;
praxis::script::ScriptLibrary<praxis::unitree::Go2> library;
Motion motion(robot, library);

// expect: this robot's backend has no locomotion capability
// expect: walking_needs_a_node_of_yours
