// Unitree's motion switcher over the DDS RPC in one process (two participants on one domain): its
// replies parsed, and a motion service that will not go away named after the timeout. The DDS
// transport and the RPC themselves: tests/unit/transport/dds_test.cpp and rpc_test.cpp.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/rpc.hpp"

namespace dds_transport_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;
namespace u = praxis::unitree;

namespace {
// Domains 70-84 here (tests/unit/transport's own tests use 10-37 and 50-63), 100-199 for the
// two-process tests, 200-229 for benchmarks, so tests running in parallel never share one.
std::uint32_t domain(std::uint32_t k) { return 10 + 15 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 15); }
}  // namespace

TEST_CASE("motion switcher replies are parsed: bad JSON is an error", "[dds][rpc]") {
  CHECK(u::mode_name_from(R"({"name":"normal","form":"0"})") == "normal");
  CHECK(u::mode_name_from(R"({"name":""})").empty());
  CHECK(u::mode_name_from("").empty());
  CHECK_THROWS_WITH(u::mode_name_from("not json"), Catch::Contains("expected a JSON object"));
}

TEST_CASE("a motion service that will not go away is a clear error after the timeout", "[dds][rpc]") {
  const auto d = domain(5);
  transport::Participant robot({d, "lo"});
  transport::Participant controller({d, "lo"});
  transport::RpcServer<u::UnitreeApiTraits> switcher(robot, u::api_request_topic(u::motion_switcher::k_service),
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

}  // namespace dds_transport_test
