// Request / response over DDS (transport/rpc.hpp), over real Cyclone DDS in one process: replies
// matched by id, interim answers skipped, fire-and-forget calls, the two ways a call goes
// unanswered, a late reply that must not answer the next call, the server's poll, and calls from
// two threads taking turns. The envelope here is a test one on praxis_test::Motor, so every Traits
// hook is exercised; Unitree's is used where the vendor envelope is the point.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <praxis/idl/praxis_test.h>

#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/rpc.hpp"

namespace {
namespace rpc_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;
namespace u = praxis::unitree;

// Domains 10-21 for this file (see dds_test.cpp).
std::uint32_t domain(std::uint32_t k) { return 10 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

constexpr const char* k_request = "praxis_test/rpc/request";
constexpr const char* k_response = "praxis_test/rpc/response";
const transport::TopicQos k_rpc_qos{.reliable = true, .depth = 10};  // what RpcClient and RpcServer use

// The test envelope: the request's position is the argument, the response's temperature the reply,
// id the correlation id, error != 0 an interim answer (in a request: no response wanted).
struct MotorRpc {
  using Request = praxis_test_Motor;
  using Response = praxis_test_Motor;
  struct Call {
    float value = 0;
    bool wait = true;
  };
  using Reply = float;
  using Id = std::uint16_t;
  static Id make_id(std::int64_t unique) { return static_cast<Id>(unique % 60000 + 1); }  // never 0
  static const dds_topic_descriptor_t* request_descriptor() { return &praxis_test_Motor_desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &praxis_test_Motor_desc; }
  static void fill(Request& r, const Call& c, const Id& id) {
    r.id = id;
    r.position = c.value;
    r.error = c.wait ? 0 : 1;
  }
  static Id id_of(const Response& r) { return r.id; }
  static Reply reply_of(const Response& r) { return r.temperature; }
  static bool is_final(const Response& r) { return r.error == 0; }
  static bool expects_response(const Call& c) { return c.wait; }
};

// An envelope without correlation: every reply looks like the caller's own.
struct UncorrelatedRpc {
  using Request = praxis_test_Motor;
  using Response = praxis_test_Motor;
  using Call = float;
  using Reply = float;
  using Id = int;
  static Id make_id(std::int64_t /*unique*/) { return 0; }
  static const dds_topic_descriptor_t* request_descriptor() { return &praxis_test_Motor_desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &praxis_test_Motor_desc; }
  static void fill(Request& r, const Call& c, const Id& /*id*/) { r.position = c; }
  static Id id_of(const Response& /*r*/) { return 0; }
  static Reply reply_of(const Response& r) { return r.temperature; }
};

// Stops and joins a serving thread however the test leaves its scope (a failed REQUIRE throws).
class Serving {
 public:
  template <class F>
  explicit Serving(F body) : thread_([this, body] {
      while (!stop_) {
        body();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }) {}
  ~Serving() {
    stop_ = true;
    thread_.join();
  }
  Serving(const Serving&) = delete;
  Serving& operator=(const Serving&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

template <class Sub>
bool fetch_within(Sub& sub, praxis::transport::Stamped<praxis_test_Motor>& out) {
  const auto deadline = praxis::Clock::now() + 5s;
  while (!sub.fetch(out)) {
    if (praxis::Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// A hand-made server: the raw request reader and response writer, so a test says exactly what is
// answered.
struct RawServer {
  explicit RawServer(const transport::Participant& p)
      : requests(p, k_request, &praxis_test_Motor_desc, k_rpc_qos), responses(p, k_response, &praxis_test_Motor_desc, k_rpc_qos) {}
  // Waits until the client's response reader is matched, so what is written reaches it.
  bool wait_client() const {
    const auto deadline = praxis::Clock::now() + 5s;
    while ((responses.matched() == 0 || requests.matched() == 0) && praxis::Clock::now() < deadline) {
      std::this_thread::sleep_for(2ms);
    }
    return responses.matched() > 0;
  }
  transport::Subscriber<praxis_test_Motor> requests;
  transport::Publisher<praxis_test_Motor> responses;
};

TEST_CASE("rpc: the reply is the final answer carrying the call's id", "[dds][rpc]") {
  const auto d = domain(1);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  RawServer server(b);
  transport::RpcClient<MotorRpc> client(a, k_request, k_response);
  std::atomic<int> answered{0};
  std::thread serve([&] {
    if (!server.wait_client()) return;
    praxis::transport::Stamped<praxis_test_Motor> request{};
    if (!fetch_within(server.requests, request)) return;
    const auto id = request.message.id;
    // Another call's final answer, then this call's interim answer, then its final one.
    server.responses.write(praxis_test_Motor{static_cast<std::uint16_t>(id + 1), 0, 111.0f, 0});
    server.responses.write(praxis_test_Motor{id, 0, 222.0f, 1});
    server.responses.write(praxis_test_Motor{id, 0, 2.0f * request.message.position, 0});
    answered = 1;
  });
  const float reply = client.call({21.0f, true}, 5s);
  serve.join();
  REQUIRE(answered == 1);
  CHECK(reply == 42.0f);
  CHECK(client.matched() == 1);
  CHECK(client.response_matched() == 1);
}

TEST_CASE("rpc: a call that expects no response returns Reply{} without waiting for one", "[dds][rpc]") {
  const auto d = domain(2);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  RawServer server(b);  // never answers
  transport::RpcClient<MotorRpc> client(a, k_request, k_response);
  // Were it waiting for an answer it would throw RpcUnanswered when the timeout ran out.
  CHECK(client.call({1.5f, false}, 3s) == 0.0f);
  praxis::transport::Stamped<praxis_test_Motor> request{};
  REQUIRE(fetch_within(server.requests, request));
  CHECK(request.message.position == 1.5f);
  CHECK(request.message.error == 1);
  CHECK(request.message.id != 0);  // stamped through Traits::make_id
}

TEST_CASE("rpc: a matched server that never answers is RpcUnanswered naming both topics", "[dds][rpc]") {
  const auto d = domain(3);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  RawServer server(b);
  transport::RpcClient<MotorRpc> client(a, k_request, k_response);
  CHECK_THROWS_AS(client.call({1.0f, true}, 300ms), transport::RpcUnanswered);
  CHECK_THROWS_WITH(client.call({1.0f, true}, 300ms),
                    Catch::Contains("RPC on \"praxis_test/rpc/request\" timed out after 300 ms") &&
                        Catch::Contains("without a response on \"praxis_test/rpc/response\""));
  // An RpcUnanswered is an RpcError: callers that do not care which catch one type.
  CHECK_THROWS_AS(client.call({1.0f, true}, 100ms), transport::RpcError);
}

TEST_CASE("rpc: a reply that comes after its call timed out does not answer the next call", "[dds][rpc]") {
  const auto d = domain(4);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::RpcServer<UncorrelatedRpc> server(b, k_request, k_response);
  transport::RpcClient<UncorrelatedRpc> client(a, k_request, k_response);
  const auto echo = [](const praxis_test_Motor& request, praxis_test_Motor& response) {
    response.temperature = request.position;
    return 0;
  };
  CHECK(server.poll(echo) == 0);  // nothing asked yet
  CHECK_THROWS_AS(client.call(1.0f, 300ms), transport::RpcUnanswered);  // the server is not polling
  // Now it answers that first call, late; the answer reaches the client's reader.
  const auto deadline = praxis::Clock::now() + 5s;
  int served = 0;
  while (served == 0 && praxis::Clock::now() < deadline) {
    served = server.poll(echo);
    std::this_thread::sleep_for(1ms);
  }
  REQUIRE(served == 1);
  std::this_thread::sleep_for(200ms);  // delivery on loopback takes well under this
  const Serving serving([&] { server.poll(echo); });
  CHECK(client.call(2.0f, 5s) == 2.0f);  // not the 1.0 left over from the first call
}

TEST_CASE("RPC: replies are matched by id: calls from two threads take turns", "[dds][rpc]") {
  const auto d = domain(5);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::RpcServer<u::UnitreeApiTraits> server(b, u::api_request_topic("echo"), u::api_response_topic("echo"));
  std::atomic<bool> stop{false};
  std::thread serve([&] {
    while (!stop) {
      server.poll([](const auto& request, auto& response) {
        response.header.identity = request.header.identity;
        response.header.status.code = static_cast<std::int32_t>(request.header.identity.api_id);
        auto text = std::make_shared<std::string>(std::string("echo:") + request.parameter);
        response.data = text->data();
        return text;
      });
      std::this_thread::sleep_for(1ms);
    }
  });
  transport::RpcClient<u::UnitreeApiTraits> client(a, u::api_request_topic("echo"), u::api_response_topic("echo"));
  std::vector<std::string> results(2);
  std::thread t1([&] {
    for (int i = 0; i < 10; ++i) {
      const auto r = client.call({7, "one" + std::to_string(i)}, 5s);
      if (r.code == 7 && r.data == "echo:one" + std::to_string(i)) results[0] += "+";
    }
  });
  std::thread t2([&] {
    for (int i = 0; i < 10; ++i) {
      const auto r = client.call({9, "two" + std::to_string(i)}, 5s);
      if (r.code == 9 && r.data == "echo:two" + std::to_string(i)) results[1] += "+";
    }
  });
  t1.join();
  t2.join();
  stop = true;
  serve.join();
  CHECK(results[0] == std::string(10, '+'));
  CHECK(results[1] == std::string(10, '+'));
}

TEST_CASE("RPC without a server fails within its timeout naming the topic", "[dds][rpc]") {
  transport::Participant a({domain(6), "lo"});
  transport::RpcClient<u::UnitreeApiTraits> client(a, u::api_request_topic("nobody"), u::api_response_topic("nobody"));
  const auto t0 = praxis::Clock::now();
  CHECK_THROWS_WITH(client.call({1001, "{}"}, 300ms), Catch::Contains("no RPC server on \"rt/api/nobody/request\""));
  CHECK_THROWS_AS(client.call({1001, "{}"}, 100ms), transport::RpcUnanswered);
  CHECK(praxis::Clock::now() - t0 < 2s);
}

}  // namespace rpc_test
}  // namespace
