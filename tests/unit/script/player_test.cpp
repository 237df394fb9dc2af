// praxis::script::ScriptPlayer (script/player.hpp), the rules script_test.cpp does not pin down:
// requests refused without changing anything; positions at and between frame boundaries (a frame's
// start is the previous target, a joint a frame does not name holds, gains switch at a frame's
// start, a zero-length frame jumps); a duration override scaling a whole sequence by one factor and
// a zero one playing the last targets at once; a sequence evaluated late carrying each script's end
// through; the first frame starting from the pose given at execute(), not at the start time; the
// tie between equal priorities going to the newer request by execution order; a finished request
// holding against a lower one; a full player evicting the finished request of lowest priority,
// then the oldest; finished(), idle() and clear(). Positions are computed by hand from the Go2's
// rest pose, on constructed time points.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/loader.hpp"
#include "praxis/script/player.hpp"

namespace player_test {

using namespace std::chrono_literals;
using Go2 = praxis::unitree::Go2;
using praxis::script::ExecuteScript;
using praxis::script::JointTargets;
using praxis::script::Script;
using praxis::script::ScriptPlayer;

constexpr std::size_t N = Go2::joint_count;
constexpr std::size_t k_fr_hip = 0, k_fr_thigh = 1, k_fr_calf = 2, k_fl_hip = 3;

// Positions near zero are compared with an absolute margin as well (a relative one is zero there).
Approx approx(double v) { return Approx(v).margin(1e-9); }

praxis::TimePoint at(double s) { return praxis::TimePoint{} + praxis::from_seconds(s); }

praxis::JointVector<N> rest() {
  praxis::JointVector<N> q;
  for (std::size_t j = 0; j < N; ++j) q[static_cast<Eigen::Index>(j)] = Go2::rest_pose[j];
  return q;
}
constexpr double k_hip0 = Go2::rest_pose[k_fr_hip];      // 0.0473455
constexpr double k_thigh0 = Go2::rest_pose[k_fr_thigh];  // 1.22187
constexpr double k_calf0 = Go2::rest_pose[k_fr_calf];    // -2.44375

Script<N> script(const std::string& json, const std::string& name = "s") {
  return praxis::script::parse_script<Go2>(json, name);
}

// One frame of `ms` moving `joint` to `position` with gain 30 at full torque (kp 30, kd 1.5).
std::string frame(int ms, const std::string& joint, double position, double gain = 30) {
  return R"({"duration": )" + std::to_string(ms) + R"(, "targets": [{"id": ")" + joint +
         R"(", "position": )" + std::to_string(position) + R"(, "gain": )" + std::to_string(gain) +
         R"(, "torque": 100}]})";
}

ExecuteScript<N> request(std::initializer_list<const Script<N>*> scripts, int priority = 0, double start = 0.0) {
  ExecuteScript<N> r;
  r.priority = priority;
  for (const auto* s : scripts) r.scripts[r.count++] = s;
  r.start = at(start);
  return r;
}

// The target of joint j at time t, checking that some request owns it.
template <std::size_t C>
double q_at(ScriptPlayer<N, C>& player, double t, std::size_t j) {
  JointTargets<N> out;
  player.evaluate(at(t), out);
  CHECK(out.owned.test(j));
  return out.q[j];
}

TEST_CASE("script player: a request without scripts or with a null one is refused and changes nothing",
          "[script][player]") {
  const auto s = script("[" + frame(100, "FR_hip", 0.3) + "]");
  ScriptPlayer<N, 1> player;
  ExecuteScript<N> none;  // count 0
  none.scripts[0] = &s;
  CHECK_FALSE(player.execute(none, rest()));
  auto too_many = request({&s, &s, &s, &s});
  too_many.count = praxis::script::k_max_sequence + 1;
  CHECK_FALSE(player.execute(too_many, rest()));
  auto hole = request({&s});
  hole.count = 2;  // scripts[1] is null
  CHECK_FALSE(player.execute(hole, rest()));
  CHECK(player.idle());

  // With its only slot holding a finished request, a refused request does not evict it.
  REQUIRE(player.execute(request({&s}), rest()));
  JointTargets<N> out;
  player.evaluate(at(1.0), out);
  REQUIRE(out.owned.test(k_fr_hip));
  CHECK_FALSE(player.execute(hole, rest()));
  player.evaluate(at(1.1), out);
  CHECK(out.owned.count() == 1);
  CHECK(out.q[k_fr_hip] == approx(0.3));
  // A full sequence of k_max_sequence scripts is accepted (and evicts the finished one).
  CHECK(player.execute(request({&s, &s, &s, &s}), rest()));
}

TEST_CASE("script player: each frame starts at the previous target and an unnamed joint holds",
          "[script][player]") {
  // FR_hip: 0.4 in 1 s, -0.2 in 0.5 s, not named for 1 s, 0.6 in 0.25 s with gain 40.
  // FR_thigh: first named in the third frame, 2.0 in its 1 s with gain 20 at half torque (kp 10).
  const auto s = script(R"([)" + frame(1000, "FR_hip", 0.4) + "," + frame(500, "FR_hip", -0.2) + R"(,
      {"duration": 1000, "targets": [{"id": "FR_thigh", "position": 2.0, "gain": 20, "torque": 50}]},)" +
                        frame(250, "FR_hip", 0.6, 40) + "]");
  ScriptPlayer<N> player;
  REQUIRE(player.execute(request({&s}), rest()));
  JointTargets<N> out;

  player.evaluate(at(0.0), out);
  CHECK(out.owned.count() == 2);
  CHECK(out.owned.test(k_fr_hip));
  CHECK(out.owned.test(k_fr_thigh));
  CHECK(out.q[k_fr_hip] == approx(k_hip0));
  CHECK(out.q[k_fr_thigh] == approx(k_thigh0));
  CHECK(out.kp[k_fr_hip] == approx(30));
  CHECK(out.kd[k_fr_hip] == approx(1.5));
  CHECK(out.kp[k_fr_thigh] == approx(10));  // not yet targeted: held stiff with its first gains
  CHECK(out.kd[k_fr_thigh] == approx(0.5));

  CHECK(q_at(player, 0.25, k_fr_hip) == approx(k_hip0 + 0.25 * (0.4 - k_hip0)));
  CHECK(q_at(player, 1.0, k_fr_hip) == approx(0.4));  // the boundary: frame 1 at alpha 0
  CHECK(q_at(player, 1.25, k_fr_hip) == approx(0.1));
  CHECK(q_at(player, 1.5, k_fr_hip) == approx(-0.2));
  CHECK(q_at(player, 1.5, k_fr_thigh) == approx(k_thigh0));
  CHECK(q_at(player, 2.0, k_fr_hip) == approx(-0.2));  // frame 2 does not name it: holds
  CHECK(q_at(player, 2.0, k_fr_thigh) == approx(k_thigh0 + 0.5 * (2.0 - k_thigh0)));
  CHECK(q_at(player, 2.5, k_fr_hip) == approx(-0.2));
  CHECK(q_at(player, 2.5, k_fr_thigh) == approx(2.0));

  // Gains switch to the frame's at its start; they are not interpolated.
  player.evaluate(at(2.49), out);
  CHECK(out.kp[k_fr_hip] == approx(30));
  player.evaluate(at(2.5), out);
  CHECK(out.kp[k_fr_hip] == approx(40));
  CHECK(out.kd[k_fr_hip] == approx(2.0));
  CHECK(out.kp[k_fr_thigh] == approx(10));  // carried from frame 2

  CHECK(q_at(player, 2.625, k_fr_hip) == approx(-0.2 + 0.5 * (0.6 + 0.2)));
  CHECK(q_at(player, 2.75, k_fr_hip) == approx(0.6));
  CHECK(q_at(player, 10.0, k_fr_hip) == approx(0.6));
  CHECK(q_at(player, 10.0, k_fr_thigh) == approx(2.0));
  CHECK_FALSE(player.finished(at(2.749)));
  CHECK(player.finished(at(2.75)));
}

TEST_CASE("script player: a zero-length frame jumps to its target", "[script][player]") {
  const auto s = script("[" + frame(0, "FR_hip", 0.3) + "," + frame(1000, "FR_hip", -0.3) + "]");
  ScriptPlayer<N> player;
  REQUIRE(player.execute(request({&s}), rest()));
  CHECK(q_at(player, 0.0, k_fr_hip) == approx(0.3));
  CHECK(q_at(player, 0.5, k_fr_hip) == approx(0.0));

  // A script of one zero-length frame: the target at once, and finished at its start.
  const auto instant = script("[" + frame(0, "FR_calf", -1.0) + "]");
  ScriptPlayer<N> other;
  REQUIRE(other.execute(request({&instant}, 0, 1.0), rest()));
  CHECK_FALSE(other.finished(at(0.5)));  // still waiting for its start
  CHECK(other.finished(at(1.0)));
  CHECK(q_at(other, 1.0, k_fr_calf) == approx(-1.0));
}

TEST_CASE("script player: a duration override scales every frame of a sequence by one factor",
          "[script][player]") {
  // Written: a 1 s, b 1 s + 2 s = 4 s. Played in 2 s: a ends at 0.5 s, b's frames at 1 s and 2 s.
  const auto a = script("[" + frame(1000, "FR_calf", -2.0) + "]", "a");
  const auto b = script("[" + frame(1000, "FR_calf", -1.0) + "," + frame(2000, "FR_calf", -1.6) + "]", "b");
  ScriptPlayer<N> player;
  auto r = request({&a, &b});
  r.duration = 2s;
  REQUIRE(player.execute(r, rest()));
  CHECK(q_at(player, 0.25, k_fr_calf) == approx(k_calf0 + 0.5 * (-2.0 - k_calf0)));
  CHECK(q_at(player, 0.5, k_fr_calf) == approx(-2.0));
  CHECK(q_at(player, 0.75, k_fr_calf) == approx(-1.5));
  CHECK(q_at(player, 1.0, k_fr_calf) == approx(-1.0));
  CHECK(q_at(player, 1.5, k_fr_calf) == approx(-1.3));
  CHECK_FALSE(player.finished(at(1.999)));
  CHECK(player.finished(at(2.0)));

  // A zero duration: the last targets at once.
  ScriptPlayer<N> now;
  r.duration = 0s;
  REQUIRE(now.execute(r, rest()));
  CHECK(now.finished(at(0.0)));
  CHECK(q_at(now, 0.0, k_fr_calf) == approx(-1.6));
}

TEST_CASE("script player: a sequence first evaluated late starts its script from the ends before it",
          "[script][player]") {
  // a: FR_hip to 0.2. b: FR_thigh to 2.0 (FR_hip not named). c: FR_hip to -0.2, FR_thigh to 1.0.
  const auto a = script("[" + frame(1000, "FR_hip", 0.2) + "]", "a");
  const auto b = script("[" + frame(1000, "FR_thigh", 2.0) + "]", "b");
  const auto c = script(R"([{"duration": 1000, "targets": [{"id": "FR_hip", "position": -0.2, "gain": 30, "torque": 100},
      {"id": "FR_thigh", "position": 1.0, "gain": 30, "torque": 100}]}])", "c");
  const double hip_expected = 0.2 + 0.5 * (-0.2 - 0.2);
  const double thigh_expected = 2.0 + 0.5 * (1.0 - 2.0);

  ScriptPlayer<N> late;
  REQUIRE(late.execute(request({&a, &b, &c}), rest()));
  JointTargets<N> out;
  late.evaluate(at(2.5), out);  // the first evaluation, in c: a and b are passed over at once
  CHECK(out.q[k_fr_hip] == approx(hip_expected));
  CHECK(out.q[k_fr_thigh] == approx(thigh_expected));

  ScriptPlayer<N> stepped;
  REQUIRE(stepped.execute(request({&a, &b, &c}), rest()));
  for (int k = 0; k <= 25; ++k) stepped.evaluate(at(0.1 * k), out);
  CHECK(out.q[k_fr_hip] == approx(hip_expected));
  CHECK(out.q[k_fr_thigh] == approx(thigh_expected));
  // In b, FR_hip holds a's end and FR_thigh moves from where it was at execute().
  CHECK(q_at(stepped, 2.9, k_fr_hip) == approx(-0.2 + 0.1 * 0.4));
  ScriptPlayer<N> mid;
  REQUIRE(mid.execute(request({&a, &b, &c}), rest()));
  CHECK(q_at(mid, 0.5, k_fr_thigh) == approx(k_thigh0));  // owned from the start, held until b moves it
  CHECK(q_at(mid, 1.5, k_fr_hip) == approx(0.2));
  CHECK(q_at(mid, 1.5, k_fr_thigh) == approx(k_thigh0 + 0.5 * (2.0 - k_thigh0)));
}

TEST_CASE("script player: a joint only an earlier script of a sequence targets stays stiff in the later ones",
          "[script][player]") {
  // The header: "A joint a frame does not name holds its previous target" and "A finished request
  // keeps holding its last targets". In a sequence [a, b] where only a targets FR_hip, the request
  // owns FR_hip throughout (taking it from lower-priority requests) and b holds it at a's end, but
  // with b's gains for FR_hip, which b never set (NaN, sent as 0): the held joint goes limp.
  const auto a = script("[" + frame(1000, "FR_hip", 0.2) + "]", "a");
  const auto b = script("[" + frame(1000, "FR_thigh", 2.0) + "]", "b");
  ScriptPlayer<N> player;
  REQUIRE(player.execute(request({&a, &b}), rest()));
  JointTargets<N> out;
  player.evaluate(at(0.5), out);
  CHECK(out.kp[k_fr_hip] == approx(30));
  CHECK(out.kp[k_fr_thigh] > 0.0);  // owned in a, held where it was: stiff, not limp
  player.evaluate(at(1.5), out);
  REQUIRE(out.owned.test(k_fr_hip));
  CHECK(out.q[k_fr_hip] == approx(0.2));
  CHECK(out.kp[k_fr_hip] == approx(30));  // a's last gains
  CHECK(out.kd[k_fr_hip] == approx(1.5));
  player.evaluate(at(5.0), out);  // finished: still holding a's end, stiff
  CHECK(out.q[k_fr_hip] == approx(0.2));
  CHECK(out.kp[k_fr_hip] == approx(30));
}

TEST_CASE("script player: the first frame starts from the pose given to execute not the pose at the start time",
          "[script][player]") {
  const auto hold = script("[" + frame(10000, "FR_hip", 0.8) + "]", "hold");
  const auto move = script("[" + frame(1000, "FR_hip", -0.4) + "]", "move");
  ScriptPlayer<N> player;
  REQUIRE(player.execute(request({&hold}, 0), rest()));
  auto other_pose = rest();
  other_pose[0] = 0.5;
  REQUIRE(player.execute(request({&move}, 5, 1.0), other_pose));  // higher, from t = 1 s
  CHECK(q_at(player, 0.5, k_fr_hip) == approx(k_hip0 + 0.05 * (0.8 - k_hip0)));  // the low one until then
  CHECK(q_at(player, 1.0, k_fr_hip) == approx(0.5));  // jumps to the pose given at execute()
  CHECK(q_at(player, 1.5, k_fr_hip) == approx(0.5 + 0.5 * (-0.4 - 0.5)));
}

TEST_CASE("script player: equal priorities go to the later execute not the later start", "[script][player]") {
  const auto up = script("[" + frame(1000, "FR_hip", 0.5) + "]", "up");
  const auto down = script("[" + frame(1000, "FR_hip", -0.5) + "]", "down");
  ScriptPlayer<N> player;
  REQUIRE(player.execute(request({&up}, 2, 1.0), rest()));    // older, starts later
  REQUIRE(player.execute(request({&down}, 2, 0.0), rest()));  // newer, starts first
  CHECK(q_at(player, 0.5, k_fr_hip) == approx(k_hip0 + 0.5 * (-0.5 - k_hip0)));
  CHECK(q_at(player, 1.5, k_fr_hip) == approx(-0.5));  // both running: the newer still wins
}

TEST_CASE("script player: a finished request holds its joints against a lower one and idles only when empty",
          "[script][player]") {
  const auto high = script("[" + frame(100, "FR_hip", 0.3) + "]", "high");
  const auto low = script(R"([{"duration": 1000, "targets": [{"id": "FR_hip", "position": -0.3, "gain": 30, "torque": 100},
      {"id": "FL_hip", "position": 0.4, "gain": 30, "torque": 100}]}])", "low");
  ScriptPlayer<N> player;
  CHECK(player.idle());
  CHECK(player.finished(at(0.0)));
  REQUIRE(player.execute(request({&high}, 5), rest()));
  CHECK_FALSE(player.idle());
  JointTargets<N> out;
  player.evaluate(at(0.5), out);
  CHECK(player.finished(at(0.5)));
  CHECK_FALSE(player.idle());  // finished, but holding
  REQUIRE(player.execute(request({&low}, 1, 0.5), rest()));
  CHECK_FALSE(player.finished(at(1.0)));
  player.evaluate(at(2.0), out);
  CHECK(out.q[k_fr_hip] == approx(0.3));  // the finished higher one still holds
  CHECK(out.q[k_fl_hip] == approx(0.4));  // the lower one has the joint nobody else uses
  CHECK(out.owned.count() == 2);
  CHECK(player.finished(at(2.0)));

  player.clear();
  CHECK(player.idle());
  player.evaluate(at(2.1), out);
  CHECK(out.owned.none());
}

TEST_CASE("script player: a finished request that owns no joint is dropped", "[script][player]") {
  const auto empty = script(R"([{"duration": 100, "targets": []}])", "pause");
  ScriptPlayer<N, 1> player;
  REQUIRE(player.execute(request({&empty}), rest()));
  JointTargets<N> out;
  player.evaluate(at(0.05), out);
  CHECK(out.owned.none());
  CHECK_FALSE(player.idle());  // still running
  CHECK_FALSE(player.finished(at(0.05)));
  player.evaluate(at(0.1), out);
  CHECK(player.idle());
}

TEST_CASE("script player: a full player evicts the finished request of lowest priority then the oldest",
          "[script][player]") {
  const auto hip = script("[" + frame(100, "FR_hip", 0.1) + "]", "hip");
  const auto thigh = script("[" + frame(100, "FR_thigh", 1.5) + "]", "thigh");
  const auto calf = script("[" + frame(100, "FR_calf", -1.5) + "]", "calf");
  const auto long_calf = script("[" + frame(10000, "FR_calf", -1.5) + "]", "long_calf");
  JointTargets<N> out;
  {
    ScriptPlayer<N, 2> player;
    REQUIRE(player.execute(request({&hip}, 3), rest()));
    REQUIRE(player.execute(request({&thigh}, 1), rest()));
    player.evaluate(at(1.0), out);
    REQUIRE(out.owned.count() == 2);  // both finished, both holding
    REQUIRE(player.execute(request({&calf}, 7, 1.0), rest()));  // replaces the priority-1 one
    player.evaluate(at(2.0), out);
    CHECK(out.owned.test(k_fr_hip));
    CHECK_FALSE(out.owned.test(k_fr_thigh));
    CHECK(out.owned.test(k_fr_calf));
  }
  {
    ScriptPlayer<N, 2> player;
    REQUIRE(player.execute(request({&hip}, 1), rest()));    // older
    REQUIRE(player.execute(request({&thigh}, 1), rest()));  // newer, same priority
    player.evaluate(at(1.0), out);
    REQUIRE(player.execute(request({&long_calf}, 0, 1.0), rest()));  // replaces the older one
    player.evaluate(at(2.0), out);
    CHECK_FALSE(out.owned.test(k_fr_hip));
    CHECK(out.owned.test(k_fr_thigh));
    CHECK(out.owned.test(k_fr_calf));
    // Now one slot runs and one is finished: the next request replaces the finished one, and then
    // with both running a third is refused.
    REQUIRE(player.execute(request({&long_calf}, 0, 2.0), rest()));
    CHECK_FALSE(player.execute(request({&hip}, 9, 2.0), rest()));
    player.evaluate(at(3.0), out);
    CHECK_FALSE(out.owned.test(k_fr_thigh));
    CHECK(out.q[k_fr_calf] == approx(k_calf0 + 0.1 * (-1.5 - k_calf0)));  // the newer of equals
  }
  // Until an evaluation has seen it finish, a request counts as running.
  {
    ScriptPlayer<N, 1> player;
    REQUIRE(player.execute(request({&hip}), rest()));
    CHECK_FALSE(player.execute(request({&thigh}), rest()));
    player.evaluate(at(1.0), out);
    CHECK(player.execute(request({&thigh}), rest()));
  }
}

}  // namespace player_test
