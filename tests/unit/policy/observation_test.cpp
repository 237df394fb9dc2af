// policy/observation.hpp: the observation for a scripted state, checked term by term against values
// the test computes itself from the state (the policy's joints in another order than the wire's),
// the clip, both history orders (filled with the first frame after reset), the description used in
// messages, and no allocation while building.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "praxis/policy/deploy.hpp"
#include "praxis/policy/observation.hpp"

#ifdef PRAXIS_COUNT_ALLOCATIONS
#include "../../support/alloc_counter.hpp"
#endif

namespace observation_test {

using praxis::policy::DeployConfig;
using praxis::policy::ObservationBuilder;
using praxis::policy::ObservationInputs;

// A robot of 5 joints; the policy drives three of them, in the order wire 4, 0, 2.
constexpr std::size_t N = 5;
const std::vector<std::size_t> k_wire{4, 0, 2};
const std::vector<double> k_default{0.1, -0.2, 0.3};

std::string deploy_json(double history, const std::string& order, const std::string& extra = "") {
  return R"({"loop_hz": 500, "policy_hz": 50,
    "joint_names": ["j4", "j0", "j2"], "default_pose": [0.1, -0.2, 0.3], "kp": 10, "kd": 1,
    "action": {"scale": 1},
    "observation": {
      "terms": [{"name": "base_ang_vel", "scale": 0.25}, {"name": "projected_gravity"},
                {"name": "velocity_command", "scale": [2.0, 2.0, 0.25]},
                {"name": "joint_pos_rel", "scale": [1.0, 2.0, 3.0]}, {"name": "joint_vel_rel", "scale": 0.05},
                {"name": "last_action"}, {"name": "phase", "period": 0.8, "scale": [1.0, 0.5]}],
      "history_length": )" +
         std::to_string(static_cast<int>(history)) + R"(, "history_order": ")" + order + "\"" + extra + R"(},
    "command": {"source": "behaviour"}, "blend_in": 0})";
}

DeployConfig config(int history, const std::string& order, const std::string& extra = "") {
  return praxis::policy::parse_deploy(deploy_json(history, order, extra), "obs/deploy.json");
}

// Step k of a scripted episode: every value changes with k, and differs per joint.
struct Scripted {
  praxis::RobotState<N> state;
  std::array<double, 3> command{};
  std::array<float, 3> last_action{};
  double time = 0.0;
};

Scripted scripted(int k) {
  Scripted s;
  const double t = k;
  for (std::size_t j = 0; j < N; ++j) {
    const double jd = static_cast<double>(j);
    s.state.q[static_cast<Eigen::Index>(j)] = 0.1 * jd + 0.01 * t * (jd + 1.0);
    s.state.dq[static_cast<Eigen::Index>(j)] = -0.5 + 0.2 * jd + 0.03 * t;
  }
  s.state.imu.gyro = praxis::Vector3(0.1 + 0.01 * t, -0.2, 0.03 * t);
  s.state.imu.orientation =
      praxis::Quaternion(Eigen::AngleAxisd(0.1 + 0.02 * t, praxis::Vector3(1.0, 2.0, 0.5).normalized()));
  s.state.update_derived();
  s.command = {0.5, -0.25 + 0.1 * t, 0.8};
  s.last_action = {static_cast<float>(0.3 * t), -0.1f, 2.0f};
  s.time = 0.02 * t;
  return s;
}

// The frame of step k, computed here from the definitions: term, values (scaled), in file order.
struct TermValues {
  std::string name;
  std::vector<double> values;
};

std::vector<TermValues> expected_terms(const Scripted& s) {
  const auto& st = s.state;
  // Gravity in the body frame: the world's down vector through the inverse rotation.
  const praxis::Vector3 g = st.imu.orientation.toRotationMatrix().transpose() * praxis::Vector3(0.0, 0.0, -1.0);
  std::vector<TermValues> terms;
  terms.push_back({"base_ang_vel", {0.25 * st.imu.gyro.x(), 0.25 * st.imu.gyro.y(), 0.25 * st.imu.gyro.z()}});
  terms.push_back({"projected_gravity", {g.x(), g.y(), g.z()}});
  terms.push_back({"velocity_command", {2.0 * s.command[0], 2.0 * s.command[1], 0.25 * s.command[2]}});
  // Policy joint i is wire joint k_wire[i]: 4, 0, 2.
  terms.push_back({"joint_pos_rel", {1.0 * (st.q[4] - 0.1), 2.0 * (st.q[0] + 0.2), 3.0 * (st.q[2] - 0.3)}});
  terms.push_back({"joint_vel_rel", {0.05 * st.dq[4], 0.05 * st.dq[0], 0.05 * st.dq[2]}});
  terms.push_back({"last_action", {s.last_action[0], s.last_action[1], s.last_action[2]}});
  const double angle = 2.0 * std::numbers::pi * s.time / 0.8;
  terms.push_back({"phase", {std::sin(angle), 0.5 * std::cos(angle)}});
  return terms;
}

std::vector<float> build(ObservationBuilder<N>& b, const Scripted& s) {
  std::vector<float> out(b.size(), -999.0f);
  const ObservationInputs in{s.command, std::span<const float>(s.last_action), s.time};
  b.write(s.state, in, out);
  return out;
}

void check_equal(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO(what << " element " << i);
    CHECK(static_cast<double>(got[i]) == Approx(want[i]).epsilon(1e-6).margin(1e-7));
  }
}

// The whole vector for frames `frames` (oldest first), in either order, from the definitions.
std::vector<double> expected_history(const std::vector<int>& frames, praxis::policy::HistoryOrder order) {
  std::vector<std::vector<TermValues>> f;
  for (const int k : frames) f.push_back(expected_terms(scripted(k)));
  std::vector<double> out;
  if (order == praxis::policy::HistoryOrder::frame_major) {
    for (const auto& frame : f) {
      for (const auto& t : frame) out.insert(out.end(), t.values.begin(), t.values.end());
    }
  } else {
    for (std::size_t term = 0; term < f.front().size(); ++term) {
      for (const auto& frame : f) out.insert(out.end(), frame[term].values.begin(), frame[term].values.end());
    }
  }
  return out;
}

TEST_CASE("observation: each term of a frame equals its definition with the policy's joint order",
          "[policy][observation]") {
  const auto c = config(1, "term_major");
  ObservationBuilder<N> b(c, k_wire);
  REQUIRE(b.frame_size() == 20);
  REQUIRE(b.size() == 20);
  for (const int k : {0, 3, 11}) {
    const auto s = scripted(k);
    const auto got = build(b, s);
    std::size_t at = 0;
    for (const auto& term : expected_terms(s)) {
      const std::vector<float> part(got.begin() + static_cast<std::ptrdiff_t>(at),
                                    got.begin() + static_cast<std::ptrdiff_t>(at + term.values.size()));
      check_equal(part, term.values, "step " + std::to_string(k) + " " + term.name);
      at += term.values.size();
    }
    CHECK(at == got.size());
  }
}

TEST_CASE("observation: every value is clipped after scaling", "[policy][observation]") {
  const auto c = config(1, "term_major", R"(, "clip": 0.3)");
  ObservationBuilder<N> b(c, k_wire);
  const auto s = scripted(9);
  const auto got = build(b, s);
  std::vector<double> want;
  for (const auto& term : expected_terms(s)) {
    for (const double v : term.values) want.push_back(std::clamp(v, -0.3, 0.3));
  }
  check_equal(got, want, "clipped");
  // The script reaches past the clip on both sides, so the clip was exercised.
  CHECK(std::count(got.begin(), got.end(), 0.3f) > 0);
  CHECK(std::count(got.begin(), got.end(), -0.3f) > 0);
}

TEST_CASE("observation: term_major history holds each term's last frames oldest first", "[policy][observation]") {
  const auto c = config(3, "term_major");
  ObservationBuilder<N> b(c, k_wire);
  REQUIRE(b.size() == 60);
  const auto order = praxis::policy::HistoryOrder::term_major;
  check_equal(build(b, scripted(0)), expected_history({0, 0, 0}, order), "first frame fills the history");
  check_equal(build(b, scripted(1)), expected_history({0, 0, 1}, order), "two frames");
  (void)build(b, scripted(2));
  (void)build(b, scripted(3));
  check_equal(build(b, scripted(4)), expected_history({2, 3, 4}, order), "five frames");
  b.reset();
  check_equal(build(b, scripted(7)), expected_history({7, 7, 7}, order), "after reset");
  check_equal(build(b, scripted(8)), expected_history({7, 7, 8}, order), "after reset, two frames");
}

TEST_CASE("observation: frame_major history holds the last whole frames oldest first", "[policy][observation]") {
  const auto c = config(3, "frame_major");
  ObservationBuilder<N> b(c, k_wire);
  const auto order = praxis::policy::HistoryOrder::frame_major;
  check_equal(build(b, scripted(0)), expected_history({0, 0, 0}, order), "first frame fills the history");
  check_equal(build(b, scripted(1)), expected_history({0, 0, 1}, order), "two frames");
  (void)build(b, scripted(2));
  (void)build(b, scripted(3));
  check_equal(build(b, scripted(4)), expected_history({2, 3, 4}, order), "five frames");
  b.reset();
  check_equal(build(b, scripted(7)), expected_history({7, 7, 7}, order), "after reset");
  // The two orders hold the same numbers, arranged differently.
  CHECK(expected_history({2, 3, 4}, order) != expected_history({2, 3, 4}, praxis::policy::HistoryOrder::term_major));
}

// Isaac Lab keeps a history per term and bounds a term's raw values before its scale.
TEST_CASE("observation: a term's own history length and clip", "[policy][observation]") {
  auto j = nlohmann::json::parse(deploy_json(2, "term_major"));
  j["observation"]["terms"][0]["history_length"] = 4;       // base_ang_vel: its last 4
  j["observation"]["terms"][6]["history_length"] = 1;       // phase: only the newest
  j["observation"]["terms"][3]["clip"] = {-0.05, 0.05};     // joint_pos_rel, raw, before scale [1, 2, 3]
  const auto c = praxis::policy::parse_deploy(j.dump(), "obs/deploy.json");
  ObservationBuilder<N> b(c, k_wire);
  REQUIRE(b.size() == 3 * 4 + 15 * 2 + 2 * 1);
  REQUIRE(c.observation_size() == b.size());
  CHECK(praxis::policy::describe_observation(c) ==
        "base_ang_vel 3 x 4, projected_gravity 3 x 2, velocity_command 3 x 2, joint_pos_rel 3 x 2, "
        "joint_vel_rel 3 x 2, last_action 3 x 2, phase 2 x 1 = 44");
  const std::vector<std::size_t> history{4, 2, 2, 2, 2, 2, 1};
  const std::vector<double> joint_scale{1.0, 2.0, 3.0};
  bool clipped = false;
  std::vector<float> got;
  for (int step = 0; step < 6; ++step) {
    got = build(b, scripted(step));
    std::vector<double> want;
    for (std::size_t term = 0; term < history.size(); ++term) {
      for (int k = step - static_cast<int>(history[term]) + 1; k <= step; ++k) {
        auto values = expected_terms(scripted(std::max(k, 0)))[term].values;  // the first fills the history
        if (term == 3) {
          for (std::size_t i = 0; i < 3; ++i) {
            const double raw = values[i] / joint_scale[i];
            clipped = clipped || std::abs(raw) > 0.05;
            values[i] = joint_scale[i] * std::clamp(raw, -0.05, 0.05);
          }
        }
        want.insert(want.end(), values.begin(), values.end());
      }
    }
    check_equal(got, want, "step " + std::to_string(step));
  }
  CHECK(clipped);  // the script reaches past the term's clip
}

TEST_CASE("observation: the description lists every term and its size", "[policy][observation]") {
  CHECK(praxis::policy::describe_observation(config(1, "term_major")) ==
        "base_ang_vel 3, projected_gravity 3, velocity_command 3, joint_pos_rel 3, joint_vel_rel 3, last_action 3, "
        "phase 2 = 20 per frame");
  CHECK(praxis::policy::describe_observation(config(4, "frame_major")) ==
        "base_ang_vel 3, projected_gravity 3, velocity_command 3, joint_pos_rel 3, joint_vel_rel 3, last_action 3, "
        "phase 2 = 20 per frame x 4 frames = 80");
}

#ifdef PRAXIS_COUNT_ALLOCATIONS
TEST_CASE("observation: building allocates nothing", "[policy][observation]") {
  const auto c = config(5, "term_major");
  ObservationBuilder<N> b(c, k_wire);
  std::vector<float> out(b.size());
  std::vector<Scripted> steps;
  for (int k = 0; k < 50; ++k) steps.push_back(scripted(k));
  const praxis::test::AllocationScope scope;
  for (int round = 0; round < 20; ++round) {
    for (const auto& s : steps) {
      b.write(s.state, ObservationInputs{s.command, std::span<const float>(s.last_action), s.time}, out);
    }
    b.reset();
  }
  CHECK(scope.allocations() == 0);
}
#endif

}  // namespace observation_test
