// The MuJoCo plant on the Go2 model: the model's facts, the joint mapping, falling, standing under
// the vendor's PD, clamping, determinism and an allocation-free step. MujocoWorld's model errors and
// readings are tested in mujoco_world_test.cpp.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <mujoco/mujoco.h>

#include "praxis/core/plant.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/mujoco_plant.hpp"
#include "../../support/alloc_counter.hpp"
#include "model_files.hpp"

namespace mujoco_plant_test {

namespace sim_test {

using Go2 = praxis::unitree::Go2;
using Plant = praxis::sim::MujocoPlant<Go2>;
using Command = Plant::Command;
using State = Plant::State;

inline const std::filesystem::path k_go2_xml = std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml";

// Unitree's go2_stand_example: the standing target (every leg hip 0, thigh 0.67, calf -1.3) and gains.
constexpr std::array<double, 12> k_sdk_stand{0, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3};
constexpr double k_sdk_kp = 60.0;
constexpr double k_sdk_kd = 5.0;
// Base height of the Go2 holding k_sdk_stand under that PD, measured in MuJoCo 2.2.2 on Unitree's
// own model (the kinematic height with the feet just touching is 0.362 m).
constexpr double k_sdk_stand_height = 0.351;
// Base height, feet just touching, in Go2::rest_pose (lying down).
constexpr double k_lying_kinematic_height = 0.174;

Command pd_command(const std::array<double, 12>& q, double kp, double kd) {
  Command c;
  for (std::size_t j = 0; j < 12; ++j) c.q[static_cast<Eigen::Index>(j)] = q[j];
  c.kp.setConstant(kp);
  c.kd.setConstant(kd);
  return c;
}

std::array<double, 12> blend(const std::array<double, 12>& a, const std::array<double, 12>& b, double s) {
  std::array<double, 12> out{};
  for (std::size_t j = 0; j < 12; ++j) out[j] = (1.0 - s) * a[j] + s * b[j];
  return out;
}

// Puts the robot lying on the floor in its rest pose, holds that pose for 0.5 s, then moves the
// joint targets linearly to `stand` over 1 s, the way go2_stand_example does.
void stand_up(Plant& plant, const std::array<double, 12>& stand) {
  plant.set_joint_positions(Go2::rest_pose);
  plant.set_base_pose({0.0, 0.0, k_lying_kinematic_height + 0.01});
  plant.write(pd_command(Go2::rest_pose, k_sdk_kp, k_sdk_kd));
  plant.step(250);
  for (int k = 1; k <= 500; ++k) {
    plant.write(pd_command(blend(Go2::rest_pose, stand, k / 500.0), k_sdk_kp, k_sdk_kd));
    plant.step();
  }
}

// Counts MuJoCo's own heap allocations (mju_malloc) while alive.
class MujocoAllocationCounter {
 public:
  MujocoAllocationCounter() {
    count_ = 0;
    mju_user_malloc = &counting_malloc;
    mju_user_free = &std::free;
  }
  ~MujocoAllocationCounter() {
    mju_user_malloc = nullptr;
    mju_user_free = nullptr;
  }
  MujocoAllocationCounter(const MujocoAllocationCounter&) = delete;
  MujocoAllocationCounter& operator=(const MujocoAllocationCounter&) = delete;
  [[nodiscard]] static int count() { return count_; }

 private:
  static void* counting_malloc(std::size_t size) {
    ++count_;
    return std::aligned_alloc(64, (size + 63) / 64 * 64);
  }
  static inline int count_ = 0;
};

}  // namespace sim_test

using namespace sim_test;

TEST_CASE("go2.xml loads in MuJoCo with the Go2's 15.206 kg, 12 motors and Unitree's 52 sensor values") {
  Plant plant(k_go2_xml);
  const mjModel* m = plant.world().model();
  // The published masses of the 13 bodies add up to 15.206408 kg; 1 g covers the rounding of 15.206.
  CHECK(plant.world().total_mass() == Approx(15.206).margin(0.001));
  CHECK(m->nq == 7 + 12);
  CHECK(m->nv == 6 + 12);
  CHECK(m->nu == 12);
  CHECK(m->nsensordata == 52);
  CHECK(plant.world().timestep() == 0.002);
  CHECK(plant.step_period() == std::chrono::milliseconds(2));
}

TEST_CASE("go2.xml: actuators and sensors follow Unitree's motor order, the joints are found by name") {
  Plant plant(k_go2_xml);
  const mjModel* m = plant.world().model();
  for (std::size_t i = 0; i < 12; ++i) {
    const std::string name(Go2::joints[i].name);
    INFO("motor " << i << " " << name);
    const int a = static_cast<int>(i);
    CHECK(mj_id2name(m, mjOBJ_ACTUATOR, a) == name);
    CHECK(mj_id2name(m, mjOBJ_JOINT, m->actuator_trnid[2 * a]) == name + "_joint");
    CHECK(plant.world().actuator_id(i) == a);
    CHECK(plant.world().joint_id(i) == m->actuator_trnid[2 * a]);
    CHECK(m->actuator_ctrlrange[2 * a] == -Go2::joints[i].effort);
    CHECK(m->actuator_ctrlrange[2 * a + 1] == Go2::joints[i].effort);
    const int jnt = m->actuator_trnid[2 * a];
    CHECK(m->jnt_range[2 * jnt] == Approx(Go2::joints[i].lower));
    CHECK(m->jnt_range[2 * jnt + 1] == Approx(Go2::joints[i].upper));
    // Sensor blocks: positions, velocities, torques, each in motor order.
    CHECK(m->sensor_type[i] == mjSENS_JOINTPOS);
    CHECK(m->sensor_objid[i] == jnt);
    CHECK(m->sensor_type[12 + i] == mjSENS_JOINTVEL);
    CHECK(m->sensor_objid[12 + i] == jnt);
    CHECK(m->sensor_type[24 + i] == mjSENS_ACTUATORFRC);
    CHECK(m->sensor_objid[24 + i] == a);
  }
  // The bodies are declared FL, FR, RL, RR: the first leg joint in qpos is FL_hip, not motor 0.
  CHECK(m->jnt_qposadr[plant.world().joint_id(3)] == 7);
  CHECK(m->jnt_qposadr[plant.world().joint_id(0)] == 10);

  // Distinct positions per motor come back at the same motor, through MuJoCo's own jointpos sensors.
  std::array<double, 12> q{};
  for (std::size_t i = 0; i < 12; ++i) q[i] = 0.5 * (Go2::joints[i].lower + Go2::joints[i].upper) + 0.01 * static_cast<double>(i);
  plant.set_joint_positions(q);
  State s;
  plant.current_state(s);
  mj_forward(m, plant.world().data());
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(s.q[static_cast<Eigen::Index>(i)] == q[i]);
    CHECK(plant.world().data()->sensordata[i] == q[i]);
  }
}

TEST_CASE("with the motors off, the Go2 dropped from its initial pose comes to rest lying on the floor") {
  Plant plant(k_go2_xml);
  const double start_height = plant.base().position.z();
  CHECK(start_height == Approx(0.40));
  plant.step(2000);  // 4 s
  const auto rest = plant.base();
  plant.step(500);
  const auto later = plant.base();
  State s;
  plant.current_state(s);
  INFO("base height " << later.position.z() << " m, speed " << later.linear_velocity.norm() << " m/s");
  CHECK_FALSE(plant.diverged());
  CHECK(s.all_finite());
  CHECK(later.position.allFinite());
  // Lying: far below the stand height, above the trunk's half-height (0.057 m) minus contact softness.
  CHECK(later.position.z() < k_sdk_stand_height - 0.1);
  CHECK(later.position.z() > 0.04);
  // At rest: it no longer moves, and the trunk stays upright-ish (it sank, it did not roll over).
  CHECK(later.linear_velocity.norm() < 0.02);
  CHECK((later.position - rest.position).norm() < 0.01);
  CHECK(s.projected_gravity.z() < -0.9);
  // At rest the accelerometer reads gravity (+9.81 m/s^2, up) in the IMU frame.
  CHECK(s.imu.accelerometer.norm() == Approx(9.81).margin(0.05));
  // With no torque the knees fold to their stop.
  for (std::size_t i = 2; i < 12; i += 3) CHECK(s.q[static_cast<Eigen::Index>(i)] < Go2::calf_lo + 0.3);
}

TEST_CASE("under go2_stand_example's PD (Kp 60, Kd 5) the Go2 stands up from lying and holds 0.351 m") {
  Plant plant(k_go2_xml);
  stand_up(plant, k_sdk_stand);
  double lowest = 1.0, highest = 0.0, worst_tracking = 0.0;
  State s;
  for (int k = 0; k < 1500; ++k) {  // 3 s
    plant.step();
    if (k < 500) continue;  // the last 2 s
    const double z = plant.base().position.z();
    lowest = std::min(lowest, z);
    highest = std::max(highest, z);
    plant.current_state(s);
    for (std::size_t j = 0; j < 12; ++j) {
      worst_tracking = std::max(worst_tracking, std::abs(s.q[static_cast<Eigen::Index>(j)] - k_sdk_stand[j]));
    }
  }
  INFO("base height " << lowest << " ... " << highest << " m; worst joint error " << worst_tracking << " rad");
  CHECK_FALSE(plant.diverged());
  // Standing up, the feet slide from where they lay to a stance a little different from the one
  // placed on the floor in the test below (where this pose settles within 1 mm of 0.351 m); the
  // height moves with the stance, hence 5 mm here.
  CHECK(lowest > k_sdk_stand_height - 0.005);
  CHECK(highest < k_sdk_stand_height + 0.005);
  CHECK(highest - lowest < 0.001);  // holding still, not bouncing
  CHECK(s.projected_gravity.z() < -0.999);
  // Holding still, each motor's torque is its PD term: tau = kp (q* - q) up to kd dq and one step's
  // motion. The knees carry the weight, every motor stays far from its limit, and the joints sag
  // from their targets only by that holding torque over kp.
  double worst_torque = 0.0;
  for (std::size_t j = 0; j < 12; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    INFO("motor " << j << ": tau " << s.tau[i] << " N m, error " << k_sdk_stand[j] - s.q[i] << " rad");
    CHECK(s.tau[i] == Approx(k_sdk_kp * (k_sdk_stand[j] - s.q[i])).margin(0.01));
    worst_torque = std::max(worst_torque, std::abs(s.tau[i]));
  }
  for (std::size_t j = 2; j < 12; j += 3) CHECK(std::abs(s.tau[static_cast<Eigen::Index>(j)]) > 1.0);
  CHECK(worst_torque < 8.0);
  CHECK(worst_tracking < 8.0 / k_sdk_kp);
}

// Holds `pose` under PD from the moment its feet touch the floor (the base at the pose's kinematic
// height) for 3 s, and returns the lowest and highest base height of the last 2 s.
std::pair<double, double> settle(Plant& plant, const std::array<double, 12>& pose, double kinematic_height,
                                 double kp, double kd) {
  plant.set_joint_positions(pose);
  plant.set_base_pose({0.0, 0.0, kinematic_height + 0.001});
  plant.write(pd_command(pose, kp, kd));
  plant.step(500);
  double lowest = 1.0, highest = 0.0;
  for (int k = 0; k < 1000; ++k) {
    plant.step();
    const double z = plant.base().position.z();
    lowest = std::min(lowest, z);
    highest = std::max(highest, z);
  }
  return {lowest, highest};
}

TEST_CASE("standing under PD, the base settles at the heights Unitree's model settles at") {
  // Each pose is placed with its feet on the floor and held for 3 s, as the reference heights were
  // measured. The references have three decimals; 3 mm also covers what differs from Unitree's
  // model where it does not touch the ground (the shapes of the leg links).
  Plant plant(k_go2_xml);
  SECTION("go2_stand_example's target, Kp 60, Kd 5: 0.351 m (kinematic 0.362 m)") {
    const auto [lowest, highest] = settle(plant, k_sdk_stand, 0.362, k_sdk_kp, k_sdk_kd);
    INFO("base height " << lowest << " ... " << highest << " m");
    CHECK(lowest > k_sdk_stand_height - 0.003);
    CHECK(highest < k_sdk_stand_height + 0.003);
  }
  SECTION("Go2::stand_pose (stand_go2's stand_up), Kp 50, Kd 3.5: 0.360 m (kinematic 0.373 m)") {
    const auto [lowest, highest] = settle(plant, Go2::stand_pose, 0.373, 50.0, 3.5);
    INFO("base height " << lowest << " ... " << highest << " m");
    CHECK(lowest > 0.360 - 0.003);
    CHECK(highest < 0.360 + 0.003);
  }
  SECTION("Go2::rest_pose (stand_go2's stand_down, lying), Kp 50, Kd 3.5: 0.142 m (kinematic 0.174 m)") {
    const auto [lowest, highest] = settle(plant, Go2::rest_pose, k_lying_kinematic_height, 50.0, 3.5);
    INFO("base height " << lowest << " ... " << highest << " m");
    CHECK(lowest > 0.142 - 0.003);
    CHECK(highest < 0.142 + 0.003);
  }
  CHECK_FALSE(plant.diverged());
}

TEST_CASE("the motor torque is clamped to the actuator's ctrlrange, in both directions") {
  Plant plant(k_go2_xml);
  const mjData* d = plant.world().data();
  for (const double sign : {1.0, -1.0}) {
    Command c;
    for (std::size_t j = 0; j < 12; ++j) {
      // 10 rad of position error at Kp 1000: far beyond every motor's limit.
      c.q[static_cast<Eigen::Index>(j)] = plant.world().q(j) + sign * 10.0;
    }
    c.kp.setConstant(1000.0);
    plant.write(c);
    plant.step();
    State s;
    plant.current_state(s);
    for (std::size_t j = 0; j < 12; ++j) {
      INFO("motor " << j << ", sign " << sign);
      CHECK(d->ctrl[plant.world().actuator_id(j)] == sign * Go2::joints[j].effort);
      CHECK(s.tau[static_cast<Eigen::Index>(j)] == sign * Go2::joints[j].effort);
    }
  }
  // Within the range the law is applied exactly: tau_ff alone, then kp * error + kd * (dq* - dq).
  Command c;
  c.mode.fill(praxis::JointMode::torque);
  c.tau_ff.setConstant(1.25);
  plant.write(c);
  plant.step();
  for (std::size_t j = 0; j < 12; ++j) CHECK(d->ctrl[plant.world().actuator_id(j)] == 1.25);
  const double q0 = plant.world().q(0), dq0 = plant.world().dq(0);
  Command pd;
  pd.q[0] = q0 + 0.1;
  pd.dq[0] = 0.5;
  pd.kp[0] = 20.0;
  pd.kd[0] = 2.0;
  pd.tau_ff[0] = -0.5;
  for (std::size_t j = 1; j < 12; ++j) pd.mode[j] = praxis::JointMode::disabled;
  plant.write(pd);
  plant.step();
  CHECK(d->ctrl[plant.world().actuator_id(0)] == Approx(-0.5 + 20.0 * 0.1 + 2.0 * (0.5 - dq0)));
  for (std::size_t j = 1; j < 12; ++j) CHECK(d->ctrl[plant.world().actuator_id(j)] == 0.0);
  // A non-finite target switches that motor off instead of feeding NaN to the physics.
  pd.q[0] = std::nan("");
  plant.write(pd);
  plant.step();
  CHECK(d->ctrl[plant.world().actuator_id(0)] == 0.0);
  CHECK_FALSE(plant.diverged());
}

TEST_CASE("deterministic: the same commands give bit-identical states, and reading does not perturb") {
  // One run reads the state every step, the other never does until the end.
  auto run = [](bool read_every_step) {
    Plant plant(k_go2_xml);
    State s;
    for (int k = 0; k < 1500; ++k) {
      const double phase = 0.004 * k;
      auto target = blend(Go2::rest_pose, k_sdk_stand, std::min(1.0, k / 500.0));
      target[1] += 0.2 * std::sin(phase * 6.0);
      plant.write(pd_command(target, k_sdk_kp, k_sdk_kd));
      plant.step();
      if (read_every_step) plant.current_state(s);
    }
    const mjModel* m = plant.world().model();
    const mjData* d = plant.world().data();
    std::vector<double> out(d->qpos, d->qpos + m->nq);
    out.insert(out.end(), d->qvel, d->qvel + m->nv);
    out.insert(out.end(), d->ctrl, d->ctrl + m->nu);
    plant.current_state(s);
    out.insert(out.end(), s.imu.accelerometer.data(), s.imu.accelerometer.data() + 3);
    out.insert(out.end(), s.imu.gyro.data(), s.imu.gyro.data() + 3);
    return out;
  };
  const auto a = run(false);
  const auto b = run(false);
  const auto c = run(true);
  REQUIRE(a.size() == b.size());
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
  CHECK(std::memcmp(a.data(), c.data(), a.size() * sizeof(double)) == 0);
  // The run did move: the base is not where it started.
  CHECK(std::abs(a[2] - 0.40) > 0.01);
}

TEST_CASE("time is simulated: read(now) steps to now, write(command, now) starts the command at now") {
  const auto t0 = praxis::TimePoint{} + std::chrono::seconds(100);
  Plant plant(k_go2_xml, t0);
  State s;
  CHECK(plant.read(s, t0));
  CHECK(s.stamp == t0);
  CHECK_FALSE(plant.read(s, t0 + std::chrono::milliseconds(1)));  // less than a step
  CHECK(plant.read(s, t0 + std::chrono::milliseconds(21)));
  CHECK(plant.world().step_count() == 10);
  CHECK(s.stamp == t0 + std::chrono::milliseconds(20));
  // A command takes effect from the next step on, wherever the caller's clock says it is.
  Command c;
  c.mode.fill(praxis::JointMode::torque);
  c.tau_ff.setConstant(2.0);
  plant.write(c, t0 + std::chrono::milliseconds(100));
  CHECK(plant.time() == t0 + std::chrono::milliseconds(20));
  CHECK(plant.world().data()->ctrl[0] == 0.0);  // the motors were off so far
  CHECK(plant.read(s, t0 + std::chrono::milliseconds(22)));
  CHECK(plant.world().data()->ctrl[0] == 2.0);
  CHECK(s.tau[0] == 2.0);
  // reset(): the initial state, time from the start again, motors off.
  plant.reset();
  CHECK(plant.time() == t0);
  plant.step();
  CHECK(plant.world().data()->ctrl[0] == 0.0);
  CHECK(plant.base().position.z() == Approx(0.40).margin(1e-4));
}

// The plant plugs into everything written for a backend (RobotController, CommandsSender, ...).
static_assert(praxis::Backend<Plant>);
static_assert(praxis::Plant<Plant>);
static_assert(praxis::backend_joint_count<Plant> == 12);

TEST_CASE("stepping and reading the state allocate nothing, neither in C++ nor inside MuJoCo") {
  Plant plant(k_go2_xml);
  State s;
  const Command c = pd_command(k_sdk_stand, k_sdk_kp, k_sdk_kd);
  plant.write(c);
  plant.step(10);  // the feet touch the floor: contacts and constraints are in play below
  plant.current_state(s);
  std::uint64_t cxx = 0;
  int mujoco = 0;
  {
    MujocoAllocationCounter counter;
    const praxis::test::AllocationScope scope;
    for (int k = 0; k < 2000; ++k) {
      plant.write(c);
      plant.step();
      plant.current_state(s);
      (void)plant.base();
    }
    cxx = scope.allocations();
    mujoco = MujocoAllocationCounter::count();
  }
  CHECK(cxx == 0);
  CHECK(mujoco == 0);
  CHECK(plant.world().step_count() == 2010);
  // The counter does count: making another mjData goes through mju_malloc.
  {
    MujocoAllocationCounter counter;
    mjData* other = mj_makeData(plant.world().model());
    CHECK(MujocoAllocationCounter::count() > 0);
    mj_deleteData(other);
  }
}

// A 12-joint G1 stand-in in the style of unitree_rl_gym's published g1_12dof.xml (MuJoCo 3: ranges
// without `limited`, torque limits as the joints' actuatorfrcrange, motors without ctrlrange, the
// arms and waist fixed to the pelvis, an imu_in_pelvis site with the model's own gyro and
// accelerometer), written here with primitive geoms.
std::string g1_legs_xml() {
  constexpr std::array<std::array<const char*, 3>, 6> leg{{
      {"hip_pitch", "0 1 0", "88"}, {"hip_roll", "1 0 0", "139"}, {"hip_yaw", "0 0 1", "88"},
      {"knee", "0 1 0", "139"},     {"ankle_pitch", "0 1 0", "50"}, {"ankle_roll", "1 0 0", "50"}}};
  constexpr std::array<const char*, 6> offsets{"0 Y -0.1", "0 0 -0.05", "0 0 -0.12", "0 0 -0.18", "0 0 -0.3", "0 0 -0.02"};
  std::string xml = R"(<mujoco model="g1_legs">
  <compiler angle="radian"/>
  <default><joint damping="0.001" armature="0.01" frictionloss="0.1"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 0.05"/>
    <body name="pelvis" pos="0 0 0.793">
      <joint name="floating_base_joint" type="free" limited="false" actuatorfrclimited="false"/>
      <geom type="box" size="0.1 0.15 0.1" mass="17"/>
      <site name="imu_in_pelvis" pos="0.04525 0 -0.08339"/>
)";
  std::string actuators;
  for (const char* side : {"left", "right"}) {
    std::string closing;
    for (std::size_t k = 0; k < leg.size(); ++k) {
      std::string offset = offsets[k];
      const auto y = offset.find('Y');
      if (y != std::string::npos) offset.replace(y, 1, std::string(side) == "left" ? "0.064" : "-0.064");
      const std::string joint = std::string(side) + "_" + leg[k][0] + "_joint";
      xml += "<body name=\"" + std::string(side) + "_" + leg[k][0] + "_link\" pos=\"" + offset + "\">\n";
      xml += "  <joint name=\"" + joint + "\" axis=\"" + leg[k][1] + "\" range=\"-2.5 2.8\" actuatorfrcrange=\"-" + leg[k][2] +
             " " + leg[k][2] + "\"/>\n";
      xml += "  <geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.1\" size=\"0.03\" mass=\"1\"/>\n";
      closing += "</body>\n";
      actuators += "<motor name=\"" + joint + "\" joint=\"" + joint + "\"/>\n";
    }
    xml += "<geom type=\"box\" size=\"0.1 0.03 0.01\" pos=\"0.03 0 -0.03\" mass=\"0.5\"/>\n" + closing;
  }
  xml += R"(    </body>
  </worldbody>
  <actuator>
)" + actuators + R"(  </actuator>
  <sensor>
    <gyro name="imu-pelvis-angular-velocity" site="imu_in_pelvis"/>
    <accelerometer name="imu-pelvis-linear-acceleration" site="imu_in_pelvis"/>
  </sensor>
</mujoco>
)";
  return xml;
}

TEST_CASE("a 12-joint model (legs only) drives the 29-joint G1: the others are reported missing, read 0 and "
          "ignore their commands") {
  using G1 = praxis::unitree::G1;
  const sim_test_files::ModelFolder folder("g1_legs");
  const auto file = folder.write("g1_legs.xml", g1_legs_xml());
  praxis::sim::MujocoPlant<G1> plant(file);
  const auto& world = plant.world();

  const auto missing = plant.missing_joints();
  REQUIRE(missing.size() == 17);
  for (std::size_t k = 0; k < missing.size(); ++k) CHECK(missing[k] == 12 + k);  // waist and arms
  CHECK(world.translations().size() == 13);  // autolimits, and 12 joints' torque limits onto their motors
  CHECK(world.imu_source().kind == praxis::sim::ImuSource::Kind::site);
  CHECK(world.imu_source().frame == "imu_in_pelvis");

  // Placing: the legs take their angles, the missing joints stay where the model holds them.
  std::array<double, 29> placed{};
  placed.fill(0.3);
  plant.set_joint_positions(placed);
  praxis::RobotState<29> s;
  plant.current_state(s);
  for (std::size_t j = 0; j < 29; ++j) CHECK(s.q[static_cast<Eigen::Index>(j)] == (j < 12 ? 0.3 : 0.0));

  // Every joint commanded hard away from where it is: the legs push at their torque limits (the
  // joints' actuatorfrcrange, now the motors' ctrlrange), the others do nothing at all.
  praxis::JointCommand<29> c;
  for (std::size_t j = 0; j < 29; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 2.0;
    c.kp[i] = 1e4;
    c.kd[i] = 1.0;
  }
  plant.write(c);
  plant.step(5);
  plant.current_state(s);
  for (std::size_t j = 0; j < 29; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    INFO(G1::joints[j].name);
    if (j < 12) {
      constexpr std::array<double, 6> k_limits{88, 139, 88, 139, 50, 50};  // as written in g1_legs_xml
      CHECK(s.tau[i] == k_limits[j % 6]);
    } else {
      CHECK(s.q[i] == 0.0);
      CHECK(s.dq[i] == 0.0);
      CHECK(s.tau[i] == 0.0);
    }
  }
  CHECK(std::isfinite(s.imu.accelerometer.norm()));
  CHECK_FALSE(plant.diverged());

  // The IMU computed from the site reads without allocating, as the sensors do.
  std::uint64_t cxx = 0;
  int mujoco = 0;
  {
    MujocoAllocationCounter counter;
    const praxis::test::AllocationScope scope;
    for (int k = 0; k < 200; ++k) {
      plant.step();
      plant.current_state(s);
      (void)plant.base();
    }
    cxx = scope.allocations();
    mujoco = MujocoAllocationCounter::count();
  }
  CHECK(cxx == 0);
  CHECK(mujoco == 0);
}

}  // namespace mujoco_plant_test
