// The request that ends control (end_request.hpp): one attempt is ChangeMode then GetMode, a
// confirmation needs the robot's success, and attempts go on until confirmed or the deadline.
// The robot is a scripted RPC channel in this process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "praxis/hardware/booster/end_request.hpp"

namespace {
namespace booster_end_request_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;

// Answers the calls in order from `script` (the last step repeats), recording each call.
class ScriptedLoco final : public b::RpcChannel {
 public:
  using Step = std::function<b::RpcReply(const b::RpcCall&)>;
  b::RpcReply call(const b::RpcCall& call, praxis::Duration timeout) override {
    calls.push_back(call);
    timeouts.push_back(timeout);
    const auto& step = script.at(std::min(next_, script.size() - 1));
    ++next_;
    return step(call);
  }
  [[nodiscard]] const std::string& name() const override { return name_; }
  [[nodiscard]] std::vector<std::int64_t> api_ids() const {
    std::vector<std::int64_t> out;
    for (const auto& c : calls) out.push_back(c.api_id);
    return out;
  }

  std::vector<Step> script;
  std::vector<b::RpcCall> calls;
  std::vector<praxis::Duration> timeouts;

 private:
  std::size_t next_ = 0;
  std::string name_ = "rt/LocoApiTopic";
};

ScriptedLoco::Step status(std::int32_t code) {
  return [code](const b::RpcCall&) { return b::RpcReply{code, "", ""}; };
}
ScriptedLoco::Step mode_is(b::Mode m) {
  return [m](const b::RpcCall&) {
    return b::RpcReply{b::status::k_ok, "{\"mode\":" + std::to_string(static_cast<int>(m)) + "}", ""};
  };
}
ScriptedLoco::Step silence() {
  return [](const b::RpcCall&) -> b::RpcReply { throw b::RpcTimeout("no answer within 400 ms"); };
}

constexpr std::int64_t k_change = b::loco_api::k_change_mode;
constexpr std::int64_t k_get = b::loco_api::k_get_mode;

TEST_CASE("booster end request: ChangeMode answered and GetMode reporting the mode is a confirmation by both") {
  ScriptedLoco channel;
  channel.script = {status(0), mode_is(b::Mode::damping)};
  b::LocoClient loco(channel);
  const auto a = b::attempt_mode(loco, b::Mode::damping, 300ms);
  CHECK(a.result.status == b::Completed::ok);
  CHECK(a.mode_reported);
  CHECK(a.result.message == "ChangeMode answered with success, GetMode reports Damping");
  CHECK(channel.api_ids() == std::vector<std::int64_t>{k_change, k_get});
  CHECK(channel.calls[0].body.find("\"mode\":0") != std::string::npos);
  CHECK(channel.timeouts == std::vector<praxis::Duration>{300ms, 300ms});
}

TEST_CASE("booster end request: a refused or unanswered ChangeMode fails the attempt without asking GetMode") {
  ScriptedLoco channel;
  b::LocoClient loco(channel);
  SECTION("409: the robot's decision, not worth repeating") {
    channel.script = {status(b::status::k_conflict)};
    const auto a = b::attempt_mode(loco, b::Mode::prepare, 100ms);
    CHECK(a.result.status == b::Completed::error);
    CHECK(a.result.code == 409);
    CHECK(a.result.answered);
    CHECK_FALSE(a.result.retryable);
  }
  SECTION("502: the transition failed, worth another attempt") {
    channel.script = {status(b::status::k_transition_failed)};
    const auto a = b::attempt_mode(loco, b::Mode::damping, 100ms);
    CHECK(a.result.status == b::Completed::error);
    CHECK(a.result.code == 502);
    CHECK(a.result.retryable);
  }
  SECTION("no answer: a timeout, counted as status 100, worth another attempt") {
    channel.script = {silence()};
    const auto a = b::attempt_mode(loco, b::Mode::damping, 100ms);
    CHECK(a.result.status == b::Completed::timeout);
    CHECK(a.result.code == b::status::k_timeout);
    CHECK_FALSE(a.result.answered);
    CHECK(a.result.retryable);
    CHECK(a.result.message.find("no answer within 400 ms") != std::string::npos);
  }
  CHECK(channel.api_ids() == std::vector<std::int64_t>{k_change});
}

TEST_CASE("booster end request: a robot without GetMode confirms by its ChangeMode answer alone and says so") {
  ScriptedLoco channel;
  b::LocoClient loco(channel);
  SECTION("GetMode refused as a bad request") { channel.script = {status(0), status(b::status::k_bad_request)}; }
  SECTION("GetMode not answered") { channel.script = {status(0), silence()}; }
  const auto a = b::attempt_mode(loco, b::Mode::damping, 100ms);
  CHECK(a.result.status == b::Completed::ok);
  CHECK_FALSE(a.mode_reported);
  CHECK(a.result.message.rfind("ChangeMode answered with success; the mode itself not reported (GetMode: ", 0) == 0);
}

TEST_CASE("booster end request: GetMode reporting another mode fails the attempt and may be retried") {
  ScriptedLoco channel;
  channel.script = {status(0), mode_is(b::Mode::walking)};
  b::LocoClient loco(channel);
  const auto a = b::attempt_mode(loco, b::Mode::damping, 100ms);
  CHECK(a.result.status == b::Completed::error);
  CHECK(a.result.retryable);
  CHECK_FALSE(a.mode_reported);
  CHECK(a.result.message == "ChangeMode(Damping) answered with success, but GetMode reports Walking");
}

TEST_CASE("booster end request: attempts go on until the robot confirms the mode") {
  ScriptedLoco channel;
  channel.script = {silence(), status(0), mode_is(b::Mode::custom), status(0), mode_is(b::Mode::damping)};
  b::LocoClient loco(channel);
  b::EndRequestParams params;
  params.deadline = 10s;  // far: the third attempt confirms long before
  params.backoff = 1ms;
  const auto r = b::deliver_mode(loco, b::Mode::damping, params);
  CHECK(r.state == b::EndReport::State::confirmed);
  CHECK(r.attempts == 3);
  CHECK(r.mode_reported);
  CHECK(r.mode == b::Mode::damping);
  CHECK(r.deadline == 10s);
  CHECK(channel.api_ids() == std::vector<std::int64_t>{k_change, k_change, k_get, k_change, k_get});
  CHECK(b::describe(r).rfind("Damping confirmed by the robot (ChangeMode answered with success, GetMode reports "
                             "Damping; 3 attempts, ", 0) == 0);
}

TEST_CASE("booster end request: a robot that keeps refusing is given up on at the deadline with the last failure") {
  ScriptedLoco channel;
  channel.script = {status(b::status::k_conflict)};
  b::LocoClient loco(channel);
  b::EndRequestParams params;
  params.deadline = 200ms;
  params.backoff = 40ms;
  const auto start = praxis::Clock::now();
  const auto r = b::deliver_mode(loco, b::Mode::damping, params);
  CHECK(praxis::Clock::now() - start >= 200ms - params.backoff);  // no attempt may start after the deadline
  CHECK(r.state == b::EndReport::State::not_confirmed);
  CHECK(r.code == 409);
  CHECK(r.attempts >= 2);
  CHECK(r.attempts <= 6);  // 200 ms / 40 ms apart, plus the first
  CHECK(channel.calls.size() == r.attempts);  // GetMode never asked after a refusal
  const auto text = b::describe(r);
  CHECK(text.rfind("Damping requested, not confirmed after 200 ms (", 0) == 0);
  CHECK(text.find("409") != std::string::npos);
}

TEST_CASE("booster end request: the report's sentences for no request and a pending one and a confirmed one") {
  b::EndReport r;
  CHECK(b::describe(r) == "no Damping request: praxis did not command the robot's modes in this run");
  r.mode = b::Mode::prepare;
  r.state = b::EndReport::State::pending;
  r.attempts = 1;
  CHECK(b::describe(r) == "Prepare requested, not confirmed yet (1 attempt so far; the release timeout ended the wait)");
  r.state = b::EndReport::State::confirmed;
  r.attempts = 2;
  r.detail = "how";
  r.took = 120ms;
  CHECK(b::describe(r) == "Prepare confirmed by the robot (how; 2 attempts, 120 ms)");
}

TEST_CASE("booster end request: a failure that is neither the robot's status nor a timeout is final") {
  const auto c = b::failure_of(std::make_exception_ptr(std::runtime_error("broken pipe")));
  CHECK(c.status == b::Completed::error);
  CHECK(c.code == -1);
  CHECK_FALSE(c.answered);
  CHECK_FALSE(c.retryable);
  CHECK(c.message == "broken pipe");
  const auto busy = b::failure_of(std::make_exception_ptr(b::TooFrequent("rt/LocoApiTopic", 2000, "ChangeMode", 429, "")));
  CHECK(busy.status == b::Completed::error);
  CHECK(busy.code == 429);
  CHECK(busy.answered);
  CHECK(busy.retryable);
}

}  // namespace booster_end_request_test
}  // namespace
