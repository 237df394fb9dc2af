// The DDS transport in one process (two participants on one domain): the mailbox keeps the newest
// sample with its receive time; RPC matches replies by id, times out, and serves one call at a time;
// errors name the topic, domain or interface.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/rpc.hpp"

namespace dds_transport_test {

using namespace std::chrono_literals;
namespace dds = praxis::dds;
namespace u = praxis::unitree;

namespace {
// Domains 10-99 for these tests, 100-199 for the two-process tests, 200-229 for benchmarks, so
// tests running in parallel never share one.
// Each test its own sub-range, so two of them running at once never share a domain.
std::uint32_t domain(std::uint32_t k) { return 10 + 15 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 15); }
}  // namespace

TEST_CASE("a subscriber's mailbox holds the newest sample and its receive time", "[dds]") {
  const auto d = domain(1);
  dds::Participant a({d, "lo"});
  dds::Participant b({d, "lo"});
  dds::Publisher<unitree_go_msg_dds__WirelessController_> pub(a, "rt/wirelesscontroller",
                                                              &unitree_go_msg_dds__WirelessController__desc);
  dds::Subscriber<unitree_go_msg_dds__WirelessController_> sub(b, "rt/wirelesscontroller",
                                                               &unitree_go_msg_dds__WirelessController__desc);
  const auto deadline = praxis::Clock::now() + 5s;
  while ((pub.matched() == 0 || sub.matched() == 0) && praxis::Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  REQUIRE(pub.matched() == 1);
  for (int k = 1; k <= 5; ++k) {
    unitree_go_msg_dds__WirelessController_ m{};
    m.lx = static_cast<float>(k);
    m.keys = static_cast<std::uint16_t>(k);
    REQUIRE(pub.write(m));
  }
  const auto before = praxis::Clock::now();
  while (sub.received() < 5 && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  praxis::transport::Stamped<unitree_go_msg_dds__WirelessController_> got{};
  REQUIRE(sub.fetch(got));
  CHECK(got.message.lx == 5.0f);  // only the newest is kept
  CHECK(got.message.keys == 5);
  CHECK(got.count == 5);
  CHECK(got.received <= praxis::Clock::now());
  CHECK(got.received >= before - 1s);
  CHECK(!sub.fetch(got));  // nothing new
}

TEST_CASE("RPC: replies are matched by id: calls from two threads take turns", "[dds][rpc]") {
  const auto d = domain(2);
  dds::Participant a({d, "lo"});
  dds::Participant b({d, "lo"});
  dds::RpcServer<u::UnitreeApiTraits> server(b, u::api_request_topic("echo"), u::api_response_topic("echo"));
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
  dds::RpcClient<u::UnitreeApiTraits> client(a, u::api_request_topic("echo"), u::api_response_topic("echo"));
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

TEST_CASE("RPC without a server fails within its timeout, naming the topic", "[dds][rpc]") {
  dds::Participant a({domain(3), "lo"});
  dds::RpcClient<u::UnitreeApiTraits> client(a, u::api_request_topic("nobody"), u::api_response_topic("nobody"));
  const auto t0 = praxis::Clock::now();
  CHECK_THROWS_WITH(client.call({1001, "{}"}, 300ms), Catch::Contains("no RPC server on \"rt/api/nobody/request\""));
  CHECK(praxis::Clock::now() - t0 < 2s);
}

TEST_CASE("a bad network interface is an error naming it", "[dds]") {
  CHECK_THROWS_WITH(dds::Participant({domain(4), "no-such-if0"}),
                    Catch::Contains("on interface \"no-such-if0\""));
}

TEST_CASE("a discovery tag goes into Cyclone's configuration: markup in a name is refused", "[dds]") {
  const auto plain = dds::cyclone_config({1, "lo"}, "");
  const auto tagged = dds::cyclone_config({1, "lo"}, "bench-a");
  CHECK(tagged.find("<Discovery><Tag>bench-a</Tag></Discovery>") != std::string::npos);
  CHECK(tagged.find("<NetworkInterface name=\"lo\"") != std::string::npos);
  CHECK(plain.find("Discovery") == std::string::npos);
  // The suites run with PRAXIS_DDS_TAG set per process (tests/support/catch_main.cpp).
  if (!dds::discovery_tag().empty()) {
    CHECK(dds::cyclone_config({1, "lo"}).find("<Tag>" + dds::discovery_tag() + "</Tag>") != std::string::npos);
  }
  CHECK_THROWS_WITH(dds::cyclone_config({1, ""}, "a</Tag>"),
                    Catch::Contains("discovery tag (PRAXIS_DDS_TAG) \"a</Tag>\"") && Catch::Contains("must not contain"));
  CHECK_THROWS_WITH(dds::cyclone_config({1, "eth0\"/>"}, ""), Catch::Contains("DDS interface"));
}

TEST_CASE("motion switcher replies are parsed: bad JSON is an error", "[dds][rpc]") {
  CHECK(u::mode_name_from(R"({"name":"normal","form":"0"})") == "normal");
  CHECK(u::mode_name_from(R"({"name":""})").empty());
  CHECK(u::mode_name_from("").empty());
  CHECK_THROWS_WITH(u::mode_name_from("not json"), Catch::Contains("expected a JSON object"));
}

TEST_CASE("a motion service that will not go away is a clear error after the timeout", "[dds][rpc]") {
  const auto d = domain(5);
  dds::Participant robot({d, "lo"});
  dds::Participant controller({d, "lo"});
  dds::RpcServer<u::UnitreeApiTraits> switcher(robot, u::api_request_topic(u::motion_switcher::k_service),
                                               u::api_response_topic(u::motion_switcher::k_service));
  std::atomic<bool> stop{false};
  std::atomic<int> releases{0};
  std::thread serve([&] {
    while (!stop) {
      switcher.poll([&](const auto& request, auto& response) {
        response.header.identity = request.header.identity;
        response.header.status.code = 0;
        if (request.header.identity.api_id == u::motion_switcher::k_release_mode) ++releases;
        auto text = std::make_shared<std::string>(R"({"name":"ai","form":"0"})");  // never released
        response.data = text->data();
        return text;
      });
      std::this_thread::sleep_for(1ms);
    }
  });
  CHECK_THROWS_WITH(u::release_motion_control(controller, {.call_timeout = 2s, .overall_timeout = 600ms,
                                                            .retry_interval = 100ms}),
                    Catch::Contains("the robot still runs motion service \"ai\""));
  stop = true;
  serve.join();
  CHECK(releases >= 2);
}

TEST_CASE("a start-up without its state names the writers it saw under another prefix or type name", "[dds]") {
  // What a robot whose topics carry a prefix looks like from a participant expecting bare names.
  const auto d = domain(6);
  dds::Participant robot({d, "lo"});
  dds::Participant praxis({d, "lo"});
  dds::Publisher<unitree_go_msg_dds__WirelessController_> prefixed(
      robot, "gr2/SN7/rt/wirelesscontroller", &unitree_go_msg_dds__WirelessController__desc);
  dds::Publisher<unitree_go_msg_dds__WirelessController_> renamed(
      robot, "rt/wirelesscontroller",
      dds::with_type_name(&unitree_go_msg_dds__WirelessController__desc, "WirelessController"));
  dds::Publisher<unitree_go_msg_dds__WirelessController_> unrelated(robot, "rt/other",
                                                                    &unitree_go_msg_dds__WirelessController__desc);
  const std::string expected_type = unitree_go_msg_dds__WirelessController__desc.m_typename;
  std::string report;
  const auto deadline = praxis::Clock::now() + 5s;
  do {  // discovery takes a moment
    std::this_thread::sleep_for(20ms);
    report = dds::near_misses(dds::discovered_writers(praxis), "rt/wirelesscontroller", expected_type, "set the names");
  } while ((report.find("gr2/SN7") == std::string::npos || report.find("(type WirelessController)") == std::string::npos) &&
           praxis::Clock::now() < deadline);
  CHECK_THAT(report, Catch::Contains("\"gr2/SN7/rt/wirelesscontroller\" (type " + expected_type + ")"));
  CHECK_THAT(report, Catch::Contains("\"rt/wirelesscontroller\" (type WirelessController)"));
  CHECK_THAT(report, Catch::EndsWith(": set the names"));
  CHECK_THAT(report, !Catch::Contains("rt/other"));
  // The right writer alone is no near miss.
  CHECK(dds::near_misses({{"rt/wirelesscontroller", expected_type}}, "rt/wirelesscontroller", expected_type, "x").empty());
}

}  // namespace dds_transport_test
