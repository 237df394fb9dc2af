// Booster's RPC over real Cyclone DDS in one process: a client participant and a robot participant
// on one of the domains 94-96, the fake robot's services behind transport::RpcServer on a thread. Each
// test uses its own channel names, so tests sharing a domain in parallel never answer each other.

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../../../examples/fake_booster/light_service.hpp"
#include "../../../../examples/fake_booster/loco_service.hpp"
#include "../../../../examples/fake_booster/serve.hpp"
#include "praxis/hardware/booster/rpc.hpp"

namespace booster_rpc_dds_test {

using namespace std::chrono_literals;
namespace b = praxis::booster;
namespace transport = praxis::transport;
namespace fb = praxis::fake_booster;
using b::Mode;

namespace {

// A service answering on `channel` from its own thread until destroyed. Read the service only
// after stop().
template <class Service>
class ServiceThread {
 public:
  ServiceThread(const transport::Participant& robot, const std::string& channel, Service& service)
      : server_(robot, b::request_topic(channel), b::response_topic(channel)), thread_([this, &service] {
          while (!stop_) {
            server_.poll([&](const auto& request, auto& response) { return fb::serve(service, request, response); });
            std::this_thread::sleep_for(1ms);
          }
        }) {}
  ~ServiceThread() { stop(); }
  ServiceThread(const ServiceThread&) = delete;
  ServiceThread& operator=(const ServiceThread&) = delete;
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  transport::RpcServer<b::BoosterRpcTraits> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

double elapsed_s(praxis::TimePoint since) { return praxis::to_seconds(praxis::Clock::now() - since); }

}  // namespace

TEST_CASE("Booster RPC over DDS: modes change, Move is accepted, a kick in Prepare is a Conflict", "[booster][dds][rpc]") {
  transport::Participant controller({94, "lo"});
  transport::Participant robot({94, "lo"});
  fb::LocoService service;
  ServiceThread server(robot, "rt/LocoApiTopic", service);
  b::DdsRpcChannel channel(controller, b::TopicNames{}.loco_channel);
  REQUIRE(channel.wait_for_server(5s));
  b::LocoClient loco(channel, 2s);

  loco.change_mode(Mode::prepare);
  loco.change_mode(Mode::soccer);
  CHECK(loco.get_mode() == Mode::soccer);
  loco.move(0.4, 0.0, -0.2);
  loco.change_mode(Mode::prepare);
  try {
    loco.visual_kick(true);
    FAIL("VisualKick in Prepare was accepted");
  } catch (const b::Conflict& e) {
    CHECK(e.status() == 409);
    CHECK(e.api_id() == b::loco_api::k_visual_kick);
    CHECK_THAT(std::string(e.what()), Catch::Contains("rt/LocoApiTopic: VisualKick (2038) failed with status 409") &&
                                          Catch::Contains("VisualKick needs Soccer; the robot is in Prepare"));
  }
  CHECK_THROWS_AS(loco.change_mode(static_cast<Mode>(9)), b::BadRequest);

  // Move without waiting: the next call on the same writer arrives after it.
  b::LocoClient walker(channel, b::LocoClientOptions{.default_timeout = 2s, .move_fire_and_forget = true});
  loco.change_mode(Mode::walking);
  walker.move(0.25, 0.05, 0.0);
  CHECK(loco.get_mode() == Mode::walking);

  server.stop();
  const auto calls = service.calls();
  REQUIRE(calls.size() == 10);
  CHECK(calls[3].api_id == b::loco_api::k_move);
  CHECK(calls[3].status == 0);
  CHECK(calls[5].status == 409);
  CHECK(calls[6].status == 400);
  CHECK(calls[8].api_id == b::loco_api::k_move);
  CHECK(calls[8].status == 0);
  CHECK(service.velocity().vx == 0.25);
  CHECK(service.mode() == Mode::walking);
  CHECK(service.entered(Mode::soccer).has_value());
}

TEST_CASE("Booster RPC over DDS: no answer is an RpcTimeout within the call's timeout", "[booster][dds][rpc]") {
  transport::Participant controller({95, "lo"});
  transport::Participant robot({95, "lo"});
  fb::LocoServiceOptions options;
  options.never_answer.insert(b::loco_api::k_move);
  options.answer_after[b::loco_api::k_get_status] = 400ms;
  fb::LocoService service(options);
  ServiceThread server(robot, "rt/TimeoutTestLocoApiTopic", service);
  b::DdsRpcChannel channel(controller, "rt/TimeoutTestLocoApiTopic");
  b::LocoClient loco(channel, 2s);
  loco.change_mode(Mode::prepare);  // matched and answering
  loco.change_mode(Mode::walking);

  auto t = praxis::Clock::now();
  try {
    loco.move(0.1, 0, 0, 100ms);
    FAIL("Move was answered");
  } catch (const b::RpcTimeout& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("rt/TimeoutTestLocoApiTopic: Move (2001)") &&
                                          Catch::Contains("timed out after 100 ms"));
  }
  CHECK(elapsed_s(t) >= 0.1);
  CHECK(elapsed_s(t) < 1.0);

  // A late answer is a timeout too; it arrives during the next call, which ignores its uuid.
  t = praxis::Clock::now();
  CHECK_THROWS_AS(loco.call(b::loco_api::k_get_status, "", 100ms), b::RpcTimeout);
  CHECK(elapsed_s(t) < 1.0);
  CHECK(loco.get_mode() == Mode::walking);

  // Nobody on a channel: also RpcTimeout, naming the request topic.
  b::DdsRpcChannel nobody(controller, "rt/NobodyLocoApiTopic");
  b::LocoClient lonely(nobody);
  t = praxis::Clock::now();
  CHECK_THROWS_WITH(lonely.change_mode(Mode::prepare, 100ms),
                    Catch::Contains("ChangeMode (2000)") && Catch::Contains("no RPC server on \"rt/NobodyLocoApiTopicReq\""));
  CHECK(elapsed_s(t) < 1.0);

  server.stop();
  const auto calls = service.calls();
  REQUIRE(calls.size() == 5);
  CHECK(!calls[2].answered);
  CHECK(calls[3].api_id == b::loco_api::k_get_status);
}

TEST_CASE("Booster RPC over DDS: interim answers and other uuids are skipped for the final answer", "[booster][dds][rpc]") {
  transport::Participant controller({96, "lo"});
  transport::Participant robot({96, "lo"});
  const std::string channel_name = "rt/InterimTestLocoApiTopic";
  transport::RpcServer<b::BoosterRpcTraits> server(robot, b::request_topic(channel_name), b::response_topic(channel_name));
  // A second writer on the response topic for the answers RpcServer would not send.
  transport::Publisher<booster_msgs_msg_dds__RpcRespMsg_> extra(robot, b::response_topic(channel_name),
                                                          &booster_msgs_msg_dds__RpcRespMsg__desc,
                                                          transport::TopicQos{.reliable = true, .depth = 10});
  std::atomic<bool> stop{false};
  std::atomic<int> served{0};
  std::thread serve([&] {
    while (!stop) {
      server.poll([&](const booster_msgs_msg_dds__RpcReqMsg_& request, booster_msgs_msg_dds__RpcRespMsg_& response) {
        const auto deadline = praxis::Clock::now() + 5s;
        while (extra.matched() == 0 && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
        std::string other_uuid = "00000000-0000-4000-8000-000000000000";
        std::string ok = b::response_header(0), pending = b::response_header(-1);
        std::string wrong_body = R"({"mode":2})", progress = R"({"progress":0.5})";
        extra.write({other_uuid.data(), ok.data(), wrong_body.data()});
        extra.write({request.uuid, pending.data(), progress.data()});
        // The final answer leaves from another writer: give the two above time to arrive first.
        std::this_thread::sleep_for(100ms);
        auto storage = std::make_unique<fb::ResponseStorage>(fb::ResponseStorage{request.uuid, ok, R"({"mode":3})"});
        response.uuid = storage->uuid.data();
        response.header = storage->header.data();
        response.body = storage->body.data();
        ++served;
        return storage;
      });
      std::this_thread::sleep_for(1ms);
    }
  });
  b::DdsRpcChannel channel(controller, channel_name);
  b::LocoClient loco(channel, 3s);
  CHECK(loco.get_mode() == Mode::custom);
  CHECK(loco.get_mode() == Mode::custom);
  stop = true;
  serve.join();
  CHECK(served == 2);
}

TEST_CASE("Booster RPC over DDS: calls from two threads and two clients are all answered", "[booster][dds][rpc]") {
  transport::Participant controller({94, "lo"});
  transport::Participant robot({94, "lo"});
  fb::LocoService service;
  ServiceThread server(robot, "rt/ConcurrentLocoApiTopic", service);
  b::DdsRpcChannel shared(controller, "rt/ConcurrentLocoApiTopic");
  b::DdsRpcChannel second(controller, "rt/ConcurrentLocoApiTopic");  // sees the others' answers too
  b::LocoClient loco(shared, 3s);
  b::LocoClient other(second, 3s);
  loco.change_mode(Mode::prepare);
  loco.change_mode(Mode::walking);

  constexpr int k_calls = 15;
  std::atomic<int> modes{0}, moves{0}, heads{0};
  std::thread a([&] {
    for (int i = 0; i < k_calls; ++i) modes += loco.get_mode() == Mode::walking ? 1 : 0;
  });
  std::thread c([&] {
    for (int i = 0; i < k_calls; ++i) {
      loco.move(0.01 * i, 0, 0);
      ++moves;
    }
  });
  std::thread d([&] {
    for (int i = 0; i < k_calls; ++i) {
      other.rotate_head(0.01 * i, 0);
      ++heads;
    }
  });
  a.join();
  c.join();
  d.join();
  CHECK(modes == k_calls);
  CHECK(moves == k_calls);
  CHECK(heads == k_calls);
  server.stop();
  const auto calls = service.calls();
  CHECK(calls.size() == 2 + 3 * k_calls);
  for (const auto& call : calls) CHECK(call.status == 0);
}

TEST_CASE("Booster RPC over DDS: LightClient's colour reaches the light service", "[booster][dds][rpc]") {
  transport::Participant controller({95, "lo"});
  transport::Participant robot({95, "lo"});
  fb::LightService service;
  const std::string channel_name = b::TopicNames{}.light_channel;
  ServiceThread server(robot, channel_name, service);
  b::DdsRpcChannel channel(controller, channel_name);
  b::LightClient light(channel, 3s);
  light.set_color(0, 200, 40);
  light.set_color(1, 2, 3, 2s);
  light.stop();
  server.stop();
  const auto calls = service.calls();
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].api_id == b::light_api::k_set_led_light_color);
  CHECK(nlohmann::json::parse(calls[0].body) == nlohmann::json{{"r", 0}, {"g", 200}, {"b", 40}});
  CHECK(calls[0].status == 0);
  CHECK(nlohmann::json::parse(calls[1].body) == nlohmann::json{{"r", 1}, {"g", 2}, {"b", 3}});
  CHECK(calls[2].api_id == b::light_api::k_stop_led_light_control);
  CHECK(!service.color());
}

}  // namespace booster_rpc_dds_test
