#include "praxis/graph.hpp"

struct Imu : praxis::port<"imu", float> {};
struct Odometry : praxis::port<"odometry", float> {};
struct Pose : praxis::port<"pose", float> {};

struct ImuReader {
  using outputs = praxis::ports<Imu>;
  void cycle(float&) {}
};
struct Fusion {
  using inputs = praxis::ports<Imu, Odometry>;
  using outputs = praxis::ports<Pose>;
  void cycle(const float&, const float&, float&) {}
};

praxis::Pipeline<ImuReader, Fusion> pipeline;

// expect: input_without_producer<Fusion, Odometry>
// expect: no node in the pipeline writes
