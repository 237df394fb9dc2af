// The fake Booster robot's loco and light services as plain objects: the mode rules and their 409s,
// bad bodies and unknown ids as 400s, the record of calls and mode entries, and the fault options
// (slow, withheld and too-frequent answers). Last, LocoClient against LocoService in-process.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../../../../examples/fake_booster/light_service.hpp"
#include "../../../../examples/fake_booster/loco_service.hpp"
#include "praxis/hardware/booster/rpc.hpp"

namespace booster_loco_service_test {

using namespace std::chrono_literals;
namespace b = praxis::booster;
namespace fb = praxis::fake_booster;
using b::Mode;
using nlohmann::json;

namespace {

const praxis::TimePoint t0{};

std::string mode_body(Mode m) { return json{{"mode", static_cast<int>(m)}}.dump(); }

struct Robot {
  fb::LocoService service;
  praxis::TimePoint now = t0;

  std::int32_t call(std::int64_t api, const std::string& body = "") {
    now += 100ms;
    return service.handle(now, api, body).status;
  }
  std::int32_t change_mode(Mode m) { return call(b::loco_api::k_change_mode, mode_body(m)); }
};

// A channel that hands calls straight to a service, as a DDS channel with the fake robot would.
template <class Service>
class InProcessChannel final : public b::RpcChannel {
 public:
  explicit InProcessChannel(Service& s, std::string name) : service_(&s), name_(std::move(name)) {}
  b::RpcReply call(const b::RpcCall& call, praxis::Duration) override {
    auto a = service_->handle(praxis::Clock::now(), call.api_id, call.body);
    return {a.status, a.body, ""};
  }
  [[nodiscard]] const std::string& name() const override { return name_; }

 private:
  Service* service_;
  std::string name_;
};

}  // namespace

TEST_CASE("loco service: starts in Damping: gaits only from Prepare or another gait", "[booster][fake]") {
  Robot r;
  CHECK(r.service.mode() == Mode::damping);
  for (const Mode m : {Mode::walking, Mode::soccer, Mode::custom}) {
    INFO(b::to_string(m));
    CHECK(r.change_mode(m) == 409);
    CHECK(r.service.mode() == Mode::damping);
  }
  CHECK(r.change_mode(Mode::prepare) == 0);
  CHECK(r.change_mode(Mode::walking) == 0);
  CHECK(r.change_mode(Mode::soccer) == 0);
  CHECK(r.change_mode(Mode::custom) == 0);
  CHECK(r.change_mode(Mode::walking) == 0);
  CHECK(r.service.mode() == Mode::walking);
  CHECK(r.change_mode(Mode::damping) == 0);  // from anywhere
  CHECK(r.change_mode(Mode::soccer) == 409);
  CHECK(r.change_mode(Mode::prepare) == 0);
  CHECK(r.change_mode(Mode::damping) == 0);
  CHECK(r.service.mode() == Mode::damping);
}

TEST_CASE("loco service: bad mode values, bad bodies and unknown ids are 400 with the reason", "[booster][fake]") {
  fb::LocoService s;
  const auto answer = [&](std::int64_t api, std::string body) { return s.handle(t0, api, body); };
  auto a = answer(b::loco_api::k_change_mode, R"({"mode": 7})");
  CHECK(a.status == 400);
  CHECK_THAT(a.body, Catch::Contains("7 is not a RobotMode"));
  CHECK(answer(b::loco_api::k_change_mode, R"({"mode": -1})").status == 400);  // Unknown is not a target
  a = answer(b::loco_api::k_change_mode, "{mode: 1}");
  CHECK(a.status == 400);
  CHECK_THAT(a.body, Catch::Contains("ChangeMode: the body must be a JSON object"));
  a = answer(b::loco_api::k_change_mode, R"({"mod": 1})");
  CHECK(a.status == 400);
  CHECK_THAT(a.body, Catch::Contains("missing key \\\"mode\\\""));
  a = answer(b::loco_api::k_change_mode, R"({"mode": "prepare"})");
  CHECK_THAT(a.body, Catch::Contains("\\\"mode\\\" must be an integer"));
  a = answer(b::loco_api::k_move, R"({"vx": 0.1, "vy": 0})");
  CHECK(a.status == 400);  // a missing key is 400 even where the mode would also refuse
  CHECK_THAT(a.body, Catch::Contains("Move: missing key \\\"vyaw\\\""));
  CHECK(answer(b::loco_api::k_visual_kick, R"({"start": 1})").status == 400);
  a = answer(2046, "");
  CHECK(a.status == 400);
  CHECK_THAT(a.body, Catch::Contains("no API 2046"));
  CHECK(s.mode() == Mode::damping);
}

TEST_CASE("loco service: each API only in its modes, 409 naming what it needs", "[booster][fake]") {
  Robot r;
  const std::string move = R"({"vx":0.3,"vy":0,"vyaw":0.1})";
  const std::string head = R"({"pitch":0.2,"yaw":-0.4})";
  const std::string kick = R"({"start":true,"version":1})";
  // Damping: only mode changes and queries.
  CHECK(r.call(b::loco_api::k_move, move) == 409);
  CHECK(r.call(b::loco_api::k_rotate_head, head) == 409);
  CHECK(r.call(b::loco_api::k_get_up, R"({"version":0})") == 409);
  CHECK(r.call(b::loco_api::k_lie_down) == 409);
  CHECK(r.call(b::loco_api::k_visual_kick, kick) == 409);
  const auto refused = r.service.handle(r.now, b::loco_api::k_move, move);
  CHECK_THAT(refused.body, Catch::Contains("Move needs Walking or Soccer; the robot is in Damping"));

  CHECK(r.change_mode(Mode::prepare) == 0);
  CHECK(r.call(b::loco_api::k_move, move) == 409);
  CHECK(r.call(b::loco_api::k_rotate_head, head) == 409);
  CHECK(r.call(b::loco_api::k_get_up, R"({"version":0})") == 0);
  CHECK(r.call(b::loco_api::k_get_up, "") == 0);  // older clients send no version
  CHECK(r.call(b::loco_api::k_visual_kick, kick) == 409);

  CHECK(r.change_mode(Mode::walking) == 0);
  CHECK(r.call(b::loco_api::k_move, move) == 0);
  CHECK(r.service.velocity().vx == 0.3);
  CHECK(r.service.velocity().vyaw == 0.1);
  CHECK(r.call(b::loco_api::k_rotate_head, head) == 0);
  CHECK(r.service.head_yaw() == -0.4);
  CHECK(r.call(b::loco_api::k_get_up, "{}") == 409);
  CHECK(r.call(b::loco_api::k_visual_kick, kick) == 409);

  CHECK(r.change_mode(Mode::custom) == 0);
  CHECK(r.service.velocity().vx == 0.0);  // leaving the gait stops the walk
  CHECK(r.call(b::loco_api::k_move, move) == 409);
  CHECK(r.call(b::loco_api::k_rotate_head, head) == 0);
  CHECK(r.call(b::loco_api::k_lie_down) == 409);

  CHECK(r.change_mode(Mode::soccer) == 0);
  CHECK(!r.service.visual_kick_active());
  CHECK(r.call(b::loco_api::k_visual_kick, kick) == 0);
  CHECK(r.service.visual_kick_active());
  CHECK(r.call(b::loco_api::k_visual_kick, R"({"start":false})") == 0);  // version may be left out
  CHECK(!r.service.visual_kick_active());
  CHECK(r.call(b::loco_api::k_visual_kick, kick) == 0);
  CHECK(r.change_mode(Mode::walking) == 0);
  CHECK(!r.service.visual_kick_active());  // the kick ends with Soccer

  CHECK(r.call(b::loco_api::k_lie_down) == 0);
  CHECK(r.service.lying_down());
  CHECK(r.service.mode() == Mode::prepare);
  CHECK(r.call(b::loco_api::k_get_up, R"({"version":1})") == 0);
  CHECK(!r.service.lying_down());
}

TEST_CASE("loco service: GetMode and GetStatus report the mode", "[booster][fake]") {
  Robot r;
  auto a = r.service.handle(t0, b::loco_api::k_get_mode, "");
  CHECK(a.status == 0);
  CHECK(json::parse(a.body) == json{{"mode", 0}});
  r.change_mode(Mode::prepare);
  r.change_mode(Mode::soccer);
  a = r.service.handle(t0, b::loco_api::k_get_mode, "{}");
  CHECK(json::parse(a.body) == json{{"mode", 4}});
  a = r.service.handle(t0, b::loco_api::k_get_status, "");
  CHECK(a.status == 0);
  const auto status = json::parse(a.body);
  CHECK(status["current_mode"] == 4);
  CHECK(status["current_body_control"] == 5);  // SoccerGait
  CHECK(status["current_actions"].is_array());
}

TEST_CASE("loco service: every call recorded with time, id, body and status: mode entry times", "[booster][fake]") {
  Robot r;
  r.change_mode(Mode::walking);  // 409 at t0 + 100 ms
  r.change_mode(Mode::prepare);  // t0 + 200 ms
  r.change_mode(Mode::prepare);  // again: no new entry
  r.change_mode(Mode::soccer);   // t0 + 400 ms
  const auto calls = r.service.calls();
  REQUIRE(calls.size() == 4);
  CHECK(calls[0].at == t0 + 100ms);
  CHECK(calls[0].api_id == 2000);
  CHECK(calls[0].body == mode_body(Mode::walking));
  CHECK(calls[0].status == 409);
  CHECK(calls[0].answered);
  CHECK(calls[1].status == 0);
  CHECK(calls[3].at == t0 + 400ms);

  const auto& entries = r.service.mode_entries();
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].mode == Mode::damping);
  CHECK(entries[0].at == t0);
  CHECK(entries[1].mode == Mode::prepare);
  CHECK(entries[1].at == t0 + 200ms);
  CHECK(entries[2].mode == Mode::soccer);
  CHECK(r.service.entered(Mode::soccer) == t0 + 400ms);
  CHECK(!r.service.entered(Mode::walking));
}

TEST_CASE("loco service faults: delayed and withheld answers, 429 when called too often", "[booster][fake]") {
  fb::LocoServiceOptions options;
  options.answer_after[b::loco_api::k_get_mode] = 300ms;
  options.never_answer.insert(b::loco_api::k_change_mode);
  fb::LocoService s(options);
  auto a = s.handle(t0, b::loco_api::k_get_mode, "");
  CHECK(a.delay == praxis::Duration(300ms));
  CHECK(!a.never);
  a = s.handle(t0, b::loco_api::k_change_mode, mode_body(Mode::prepare));
  CHECK(a.never);
  CHECK(s.mode() == Mode::prepare);  // the robot acted; only the answer is lost
  CHECK(!s.calls().back().answered);

  fb::LocoService limited(fb::LocoServiceOptions{.min_interval = 200ms});
  CHECK(limited.handle(t0, b::loco_api::k_get_mode, "").status == 0);
  a = limited.handle(t0 + 50ms, b::loco_api::k_get_mode, "");
  CHECK(a.status == 429);
  CHECK_THAT(a.body, Catch::Contains("again after 50 ms") && Catch::Contains("minimum interval is 200 ms"));
  CHECK(limited.handle(t0 + 60ms, b::loco_api::k_get_status, "").status == 0);  // per API
  CHECK(limited.handle(t0 + 210ms, b::loco_api::k_get_mode, "").status == 0);   // counted from the last accepted
  CHECK(limited.handle(t0 + 300ms, b::loco_api::k_get_mode, "").status == 429);
  CHECK(limited.calls().back().status == 429);

  fb::LocoService unlimited;  // off by default
  CHECK(unlimited.handle(t0, b::loco_api::k_get_mode, "").status == 0);
  CHECK(unlimited.handle(t0, b::loco_api::k_get_mode, "").status == 0);
}

TEST_CASE("light service: colour set and handed back, bad channels are 400, calls recorded", "[booster][fake]") {
  fb::LightService s;
  CHECK(!s.color());
  CHECK(s.handle(t0, 2000, R"({"r":255,"g":128,"b":0})").status == 0);
  REQUIRE(s.color());
  CHECK(*s.color() == fb::Color{255, 128, 0});
  auto a = s.handle(t0 + 1s, 2000, R"({"r":256,"g":0,"b":0})");
  CHECK(a.status == 400);
  CHECK_THAT(a.body, Catch::Contains("\\\"r\\\" must be 0..255, got 256"));
  CHECK(s.handle(t0, 2000, R"({"r":1,"g":2})").status == 400);
  CHECK(*s.color() == fb::Color{255, 128, 0});  // unchanged by the bad calls
  CHECK(s.handle(t0 + 2s, 2001, "").status == 0);
  CHECK(!s.color());
  CHECK(s.handle(t0, 2002, "{}").status == 400);
  const auto calls = s.calls();
  REQUIRE(calls.size() == 5);
  CHECK(calls[1].at == t0 + 1s);
  CHECK(calls[1].status == 400);
  CHECK(calls[3].api_id == 2001);
}

TEST_CASE("LocoClient against LocoService in one process: typed errors from the mode rules", "[booster][fake]") {
  fb::LocoService service;
  InProcessChannel<fb::LocoService> channel(service, "in-process loco");
  b::LocoClient loco(channel);
  CHECK(loco.get_mode() == Mode::damping);
  CHECK_THROWS_AS(loco.change_mode(Mode::walking), b::Conflict);
  loco.change_mode(Mode::prepare);
  loco.get_up(1);
  loco.change_mode(Mode::soccer);
  loco.visual_kick(true);
  CHECK(service.visual_kick_active());
  CHECK(service.visual_kick_version() == 1);
  loco.move(0.2, 0.1, -0.3);
  CHECK(service.velocity().vy == 0.1);
  loco.rotate_head(0.3, 0.2);
  CHECK(loco.get_mode() == Mode::soccer);
  CHECK_THROWS_AS(loco.get_up(), b::Conflict);
  CHECK_THROWS_WITH(loco.get_up(), Catch::Contains("in-process loco: GetUp (2008) failed with status 409") &&
                                       Catch::Contains("GetUp needs Prepare; the robot is in Soccer"));
  CHECK_THROWS_AS(loco.call(2046, ""), b::BadRequest);

  fb::LightService lights;
  InProcessChannel<fb::LightService> light_channel(lights, "in-process light");
  b::LightClient light(light_channel);
  light.set_color(10, 20, 30);
  CHECK(*lights.color() == fb::Color{10, 20, 30});
  light.stop();
  CHECK(!lights.color());
}

}  // namespace booster_loco_service_test
