#pragma once
// Fixed-size joint-space vectors. Sizes are template parameters so nothing in the cycle allocates.

#include <cstddef>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace praxis {

template <std::size_t N>
using JointVector = Eigen::Matrix<double, static_cast<int>(N), 1>;

using Vector3 = Eigen::Vector3d;
using Quaternion = Eigen::Quaterniond;

}  // namespace praxis
