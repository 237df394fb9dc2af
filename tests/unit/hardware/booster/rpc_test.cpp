// Booster's RPC envelope without a network: UUIDs, header JSON both ways, what a response header
// means, each status as its typed error and message, and the JSON bodies LocoClient / LightClient
// send (through a channel that records calls and answers what the test scripts).

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <regex>
#include <set>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/hardware/booster/rpc.hpp"

namespace booster_rpc_test {

using namespace std::chrono_literals;
namespace b = praxis::booster;
using nlohmann::json;

namespace {

// Records each call and answers with the scripted reply (or throws the scripted error).
class ScriptedChannel final : public b::RpcChannel {
 public:
  explicit ScriptedChannel(std::string name = "rt/LocoApiTopic") : name_(std::move(name)) {}
  b::RpcReply call(const b::RpcCall& call, praxis::Duration timeout) override {
    calls.push_back(call);
    timeouts.push_back(timeout);
    if (fail) fail();
    return reply;
  }
  [[nodiscard]] const std::string& name() const override { return name_; }

  b::RpcReply reply{};
  std::function<void()> fail;
  std::vector<b::RpcCall> calls;
  std::vector<praxis::Duration> timeouts;

 private:
  std::string name_;
};

b::RpcReply answer(std::int32_t status, std::string body = "") { return {status, std::move(body), ""}; }

}  // namespace

TEST_CASE("UUIDs are version-4 strings in 8-4-4-4-12 lowercase hex form", "[booster][rpc]") {
  const std::regex form("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  for (const std::int64_t unique : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{1'700'000'000'123'456'789}}) {
    const auto id = b::make_uuid(unique);
    INFO(id);
    CHECK(id.size() == 36);
    CHECK(std::regex_match(id, form));
  }
  CHECK(b::BoosterRpcTraits::make_id(5).size() == 36);
}

TEST_CASE("UUIDs never repeat, even for the same unique number from two threads", "[booster][rpc]") {
  std::vector<std::string> a, c;
  std::thread t1([&] {
    for (int i = 0; i < 20000; ++i) a.push_back(b::make_uuid(7));
  });
  std::thread t2([&] {
    for (int i = 0; i < 20000; ++i) c.push_back(b::make_uuid(7));
  });
  t1.join();
  t2.join();
  std::set<std::string> all(a.begin(), a.end());
  all.insert(c.begin(), c.end());
  CHECK(all.size() == 40000);
}

TEST_CASE("request headers carry api_id and expect_response, and parse back", "[booster][rpc]") {
  CHECK(json::parse(b::request_header(2000, true)) == json{{"api_id", 2000}, {"expect_response", true}});
  CHECK(json::parse(b::request_header(2001, false)) == json{{"api_id", 2001}, {"expect_response", false}});

  const auto h = b::parse_request_header(b::request_header(2038, false));
  CHECK(h.api_id == 2038);
  CHECK(!h.expect_response);
  // Clients older than fw 1.6 send no expect_response: it means true.
  CHECK(b::parse_request_header(R"({"api_id": 2017})").expect_response);

  CHECK_THROWS_WITH(b::parse_request_header("api 2000"), Catch::Contains("expected a JSON object") && Catch::Contains("api 2000"));
  CHECK_THROWS_WITH(b::parse_request_header(R"({"id": 2000})"), Catch::Contains("missing \"api_id\""));
  CHECK_THROWS_WITH(b::parse_request_header(R"({"api_id": "2000"})"), Catch::Contains("\"api_id\" must be an integer"));
  CHECK_THROWS_WITH(b::parse_request_header(R"({"api_id": 2000, "expect_response": 1})"),
                    Catch::Contains("\"expect_response\" must be true or false"));
}

TEST_CASE("response headers: status both ways, a missing status is 0, non-JSON is an error", "[booster][rpc]") {
  CHECK(json::parse(b::response_header(409)) == json{{"status", 409}});
  CHECK(b::parse_response_status(b::response_header(409)) == 409);
  CHECK(b::parse_response_status(b::response_header(-1)) == -1);
  CHECK(b::parse_response_status("{}") == 0);
  CHECK(b::parse_response_status(R"({"other": 3})") == 0);

  std::string error;
  CHECK(!b::parse_response_status("status=0", &error));
  CHECK_THAT(error, Catch::Contains("expected a JSON object") && Catch::Contains("status=0"));
  CHECK(!b::parse_response_status(R"({"status": "ok"})", &error));
  CHECK_THAT(error, Catch::Contains("\"status\" must be a 32-bit integer"));
  CHECK(!b::parse_response_status(R"({"status": 1e12})", &error));
  CHECK(!b::parse_response_status(R"({"status": 99999999999})", &error));
}

TEST_CASE("the envelope: fill, uuid, reply, interim answers, fire-and-forget", "[booster][rpc]") {
  using T = b::BoosterRpcTraits;
  const b::RpcCall call{2001, R"({"vx":0.5})", false};
  const std::string id = b::make_uuid(1);
  T::Request request{};
  T::fill(request, call, id);
  CHECK(std::string(request.uuid) == id);
  CHECK(json::parse(request.header) == json{{"api_id", 2001}, {"expect_response", false}});
  CHECK(std::string(request.body) == call.body);
  CHECK(!T::expects_response(call));
  CHECK(T::expects_response(b::RpcCall{2000, "{}"}));

  char uuid[] = "abc";
  char ok_header[] = R"({"status":0})";
  char interim[] = R"({"status":-1})";
  char no_status[] = R"({})";
  char garbage[] = "<html>";
  char body[] = R"({"mode":1})";
  T::Response r{uuid, ok_header, body};
  CHECK(T::id_of(r) == "abc");
  CHECK(T::is_final(r));
  auto reply = T::reply_of(r);
  CHECK(reply.status == 0);
  CHECK(reply.body == body);
  CHECK(reply.header_error.empty());

  r.header = interim;
  CHECK(!T::is_final(r));
  r.header = no_status;
  CHECK(T::is_final(r));
  CHECK(T::reply_of(r).status == 0);
  r.header = garbage;
  CHECK(T::is_final(r));  // waiting would not make it readable
  reply = T::reply_of(r);
  CHECK(reply.status == -1);
  CHECK_THAT(reply.header_error, Catch::Contains("<html>"));
  r.header = nullptr;
  r.body = nullptr;
  r.uuid = nullptr;
  CHECK(T::id_of(r).empty());
  CHECK(T::reply_of(r).body.empty());
}

TEST_CASE("each status is its own error type, naming channel, API, status, meaning and body", "[booster][rpc]") {
  struct Case {
    std::int32_t status;
    const char* meaning;
    std::function<bool(const b::RpcStatusError&)> is_type;
  };
  const std::vector<Case> cases{
      {100, "timeout", [](const auto& e) { return dynamic_cast<const b::ServerTimeout*>(&e) != nullptr; }},
      {400, "bad request", [](const auto& e) { return dynamic_cast<const b::BadRequest*>(&e) != nullptr; }},
      {409, "conflicts with the robot's current state", [](const auto& e) { return dynamic_cast<const b::Conflict*>(&e) != nullptr; }},
      {429, "request too frequent", [](const auto& e) { return dynamic_cast<const b::TooFrequent*>(&e) != nullptr; }},
      {500, "internal server error", [](const auto& e) { return dynamic_cast<const b::InternalError*>(&e) != nullptr; }},
      {501, "server refused", [](const auto& e) { return dynamic_cast<const b::Refused*>(&e) != nullptr; }},
      {502, "state machine transition failed", [](const auto& e) { return dynamic_cast<const b::TransitionFailed*>(&e) != nullptr; }},
      {777, "unknown status", [](const auto& e) { return dynamic_cast<const b::UnknownStatus*>(&e) != nullptr; }},
  };
  ScriptedChannel channel;
  b::LocoClient loco(channel);
  for (const auto& c : cases) {
    INFO("status " << c.status);
    channel.reply = answer(c.status, R"({"message":"nope"})");
    try {
      loco.change_mode(b::Mode::soccer);
      FAIL("no exception");
    } catch (const b::RpcStatusError& e) {
      CHECK(c.is_type(e));
      CHECK(e.status() == c.status);
      CHECK(e.api_id() == 2000);
      CHECK(e.body() == R"({"message":"nope"})");
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains("rt/LocoApiTopic") && Catch::Contains("ChangeMode (2000)") &&
                           Catch::Contains("status " + std::to_string(c.status)) && Catch::Contains(c.meaning) &&
                           Catch::Contains(R"({"message":"nope"})"));
    }
  }
  // Not one of ours: no name, only the id; an empty body is said to be empty.
  CHECK_THROWS_WITH(b::throw_for_status("rt/LocoApiTopic", 2046, b::loco_api_name(2046), 400, ""),
                    Catch::Contains("API 2046 failed with status 400 (bad request), empty reply body"));
  CHECK_THROWS_AS(b::throw_for_status("c", 1, "", 409, ""), b::Conflict);
  CHECK_THROWS_AS(b::throw_for_status("c", 1, "", 502, ""), praxis::transport::RpcError);
}

TEST_CASE("LocoClient sends each API's id and JSON body with exactly the vendor's keys", "[booster][rpc]") {
  ScriptedChannel channel;
  b::LocoClient loco(channel, 250ms);
  loco.change_mode(b::Mode::soccer);
  loco.move(0.5, -0.25, 1.0);
  loco.rotate_head(0.1, -0.3);
  loco.get_up();
  loco.get_up(1);
  loco.lie_down();
  loco.visual_kick(true);
  loco.visual_kick(false, 0);
  REQUIRE(channel.calls.size() == 8);
  const auto body = [&](std::size_t i) { return json::parse(channel.calls[i].body); };
  CHECK(channel.calls[0].api_id == 2000);
  CHECK(body(0) == json{{"mode", 4}});
  CHECK(channel.calls[1].api_id == 2001);
  CHECK(body(1) == json{{"vx", 0.5}, {"vy", -0.25}, {"vyaw", 1.0}});
  CHECK(channel.calls[1].expect_response);  // waits for the answer unless told otherwise
  CHECK(channel.calls[2].api_id == 2004);
  CHECK(body(2) == json{{"pitch", 0.1}, {"yaw", -0.3}});
  CHECK(channel.calls[3].api_id == 2008);
  CHECK(body(3) == json{{"version", 0}});
  CHECK(body(4) == json{{"version", 1}});
  CHECK(channel.calls[5].api_id == 2007);
  CHECK(channel.calls[5].body.empty());
  CHECK(channel.calls[6].api_id == 2038);
  CHECK(body(6) == json{{"start", true}, {"version", 1}});
  CHECK(body(7) == json{{"start", false}, {"version", 0}});
  for (const auto& t : channel.timeouts) CHECK(t == praxis::Duration(250ms));

  loco.change_mode(b::Mode::damping, 3s);
  CHECK(channel.timeouts.back() == praxis::Duration(3s));
}

TEST_CASE("LocoClient: fire-and-forget Move, GetMode's reply, refused inputs, timeouts named", "[booster][rpc]") {
  ScriptedChannel channel;
  b::LocoClient forget(channel, b::LocoClientOptions{.default_timeout = 100ms, .move_fire_and_forget = true});
  forget.move(0.1, 0, 0);
  CHECK(!channel.calls.back().expect_response);
  forget.change_mode(b::Mode::walking);
  CHECK(channel.calls.back().expect_response);  // only Move is sent without waiting

  b::LocoClient loco(channel);
  channel.reply = answer(0, R"({"mode":4})");
  CHECK(loco.get_mode() == b::Mode::soccer);
  CHECK(channel.calls.back().api_id == 2017);
  channel.reply = answer(0, R"({"mode":9})");
  CHECK_THROWS_AS(loco.get_mode(), b::BadReply);
  CHECK_THROWS_WITH(loco.get_mode(), Catch::Contains("GetMode (2017)") && Catch::Contains("not a RobotMode"));
  channel.reply = answer(0, "");
  CHECK_THROWS_WITH(loco.get_mode(), Catch::Contains("rt/LocoApiTopic") && Catch::Contains("expected a reply body like {\"mode\": 1}"));

  const auto before = channel.calls.size();
  CHECK_THROWS_AS(loco.move(std::nan(""), 0, 0), std::invalid_argument);
  CHECK_THROWS_WITH(loco.rotate_head(0, INFINITY), Catch::Contains("yaw must be finite"));
  CHECK(channel.calls.size() == before);  // nothing was sent

  channel.reply = answer(0, R"({"x":1})");
  CHECK(loco.call(2046, "") == R"({"x":1})");

  channel.fail = [] { throw b::RpcTimeout("RPC on \"rt/LocoApiTopicReq\" timed out after 100 ms"); };
  try {
    loco.lie_down();
    FAIL("no exception");
  } catch (const b::RpcTimeout& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("rt/LocoApiTopic: LieDown (2007): RPC on") && Catch::Contains("100 ms"));
  }
  CHECK_THROWS_AS(loco.lie_down(), praxis::transport::RpcUnanswered);
}

TEST_CASE("LightClient sends SetLEDLightColor {r,g,b} and StopLEDLightControl on its channel", "[booster][rpc]") {
  ScriptedChannel channel("rt/LightControlApiTopic");
  b::LightClient light(channel, 300ms);
  light.set_color(255, 0, 17);
  light.stop(2s);
  REQUIRE(channel.calls.size() == 2);
  CHECK(channel.calls[0].api_id == 2000);
  CHECK(json::parse(channel.calls[0].body) == json{{"r", 255}, {"g", 0}, {"b", 17}});
  CHECK(channel.timeouts[0] == praxis::Duration(300ms));
  CHECK(channel.calls[1].api_id == 2001);
  CHECK(channel.calls[1].body.empty());
  CHECK(channel.timeouts[1] == praxis::Duration(2s));
  channel.reply = answer(400, "bad colour");
  CHECK_THROWS_WITH(light.set_color(1, 2, 3), Catch::Contains("rt/LightControlApiTopic: SetLEDLightColor (2000) failed with status 400"));
}


namespace {
// A robot that answers every call `delay` after it, and not at all to a caller who waits less: the
// caller's wait is what the channel is given.
class SlowChannel final : public b::RpcChannel {
 public:
  explicit SlowChannel(praxis::Duration delay) : delay_(delay) {}
  b::RpcReply call(const b::RpcCall&, praxis::Duration timeout) override {
    waits.push_back(timeout);
    if (never_answers || timeout < delay_) {
      std::this_thread::sleep_for(std::min(timeout, delay_));
      throw b::RpcTimeout("timed out after " + std::to_string(praxis::to_ms(timeout)) + " ms");
    }
    std::this_thread::sleep_for(delay_);
    return {0, R"({"mode":1})", ""};
  }
  [[nodiscard]] const std::string& name() const override { return name_; }
  std::vector<praxis::Duration> waits;
  bool never_answers = false;

 private:
  praxis::Duration delay_;
  std::string name_ = "rt/LocoApiTopic";
};
}  // namespace

TEST_CASE("LocoClient follows a robot slower than the timeout: each call waits a margin over the slowest recent "
          "reply, never past the ceiling, and unanswered calls teach nothing", "[booster][rpc][timeout]") {
  SlowChannel robot(30ms);
  b::LocoClient loco(robot, b::LocoClientOptions{.default_timeout = 20ms, .timeout_ceiling = 500ms});
  CHECK(loco.effective_timeout(20ms) == 20ms);  // nothing learned yet
  CHECK_THROWS_AS(loco.get_mode(), b::RpcTimeout);
  CHECK(loco.effective_timeout(20ms) == 20ms);  // an unanswered call says nothing of the robot
  CHECK(loco.get_mode(1s) == b::Mode::prepare);  // acquire()'s GetMode waits long: heard
  CHECK(loco.slowest_reply() >= 30ms);
  // Three times the slowest reply from now on (at least 90 ms; more when this machine was slow).
  CHECK(loco.effective_timeout(20ms) >= 90ms);
  CHECK(loco.effective_timeout(20ms) <= 500ms);
  CHECK(loco.effective_timeout(2s) == 2s);  // a caller who asks for more gets it
  for (int k = 0; k < 3; ++k) CHECK_NOTHROW(loco.change_mode(b::Mode::soccer));  // asked 20 ms, waited more
  REQUIRE(robot.waits.size() == 5);
  CHECK(robot.waits[4] >= 90ms);

  // The ceiling holds against a very slow answer.
  SlowChannel slower(300ms);
  b::LocoClient capped(slower, b::LocoClientOptions{.default_timeout = 20ms, .timeout_ceiling = 400ms});
  CHECK(capped.get_mode(1s) == b::Mode::prepare);
  CHECK(capped.effective_timeout(20ms) == 400ms);

  // Off: each call waits what it was given.
  b::LocoClient fixed(robot, b::LocoClientOptions{.default_timeout = 20ms, .adaptive_timeout = false});
  CHECK(fixed.get_mode(1s) == b::Mode::prepare);
  CHECK_THROWS_AS(fixed.get_mode(), b::RpcTimeout);
  CHECK(fixed.effective_timeout(20ms) == 20ms);
}

}  // namespace booster_rpc_test
