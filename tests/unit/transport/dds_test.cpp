// The DDS transport (transport/dds.hpp) over real Cyclone DDS in one process (two participants on
// one domain, on "lo"): the subscriber's mailbox and wake-up, QoS, the configuration praxis hands
// Cyclone, type names, and the near-miss report of a start-up that hears nothing.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <praxis/idl/praxis_test.h>

#include "praxis/core/wakeup.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"
#include "../../support/dds_wait.hpp"

namespace {
namespace dds_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;

// Domains 22-37 for this file, each test its own pair, the process id picks one (the suites' own
// discovery tag keeps processes apart; the pair keeps two runs without one apart too).
std::uint32_t domain(std::uint32_t k) { return 22 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

const transport::TopicQos k_reliable{.reliable = true, .depth = 16};

using praxis::test::wait_matched;
using praxis::test::wait_received;

TEST_CASE("a subscriber's mailbox holds the newest sample and its receive time", "[dds]") {
  const auto d = domain(1);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::Publisher<unitree_go_msg_dds__WirelessController_> pub(a, "rt/wirelesscontroller",
                                                              &unitree_go_msg_dds__WirelessController__desc);
  transport::Subscriber<unitree_go_msg_dds__WirelessController_> sub(b, "rt/wirelesscontroller",
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

TEST_CASE("a subscriber wakes a waiting control thread when a value arrives and only then", "[dds][wakeup]") {
  const auto d = domain(8);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::Publisher<praxis_test_Motor> pub(a, "praxis_test/motor", &praxis_test_Motor_desc, k_reliable);
  transport::Subscriber<praxis_test_Motor> sub(b, "praxis_test/motor", &praxis_test_Motor_desc, k_reliable);
  praxis::Wakeup wakeup;
  sub.set_wakeup(&wakeup);
  wait_matched(pub, sub);
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now() + 300ms));
  std::thread later([&] {
    std::this_thread::sleep_for(50ms);
    pub.write(praxis_test_Motor{7, 1.5f, 40.0f, 0});
  });
  const bool woke = wakeup.wait_until(praxis::Clock::now() + 5s);
  later.join();
  REQUIRE(woke);
  praxis::transport::Stamped<praxis_test_Motor> got{};
  REQUIRE(sub.fetch(got));
  CHECK(got.message.id == 7);
  CHECK(got.message.position == 1.5f);
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now() + 300ms));
}

TEST_CASE("transient-local topics hand the last sample to a late reader and volatile ones do not", "[dds]") {
  const auto d = domain(2);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  const transport::TopicQos kept{.reliable = true, .depth = 1, .transient_local = true};
  const transport::TopicQos plain{.reliable = true, .depth = 1};
  transport::Publisher<praxis_test_Motor> kept_pub(a, "praxis_test/kept", &praxis_test_Motor_desc, kept);
  transport::Publisher<praxis_test_Motor> plain_pub(a, "praxis_test/plain", &praxis_test_Motor_desc, plain);
  REQUIRE(kept_pub.write(praxis_test_Motor{1, 0.5f, 20.0f, 0}));
  REQUIRE(kept_pub.write(praxis_test_Motor{2, 1.5f, 21.0f, 0}));
  REQUIRE(plain_pub.write(praxis_test_Motor{3, 2.5f, 22.0f, 0}));
  // Readers made after the writes.
  transport::Subscriber<praxis_test_Motor> kept_sub(b, "praxis_test/kept", &praxis_test_Motor_desc, kept);
  transport::Subscriber<praxis_test_Motor> plain_sub(b, "praxis_test/plain", &praxis_test_Motor_desc, plain);
  wait_matched(kept_pub, kept_sub);
  wait_matched(plain_pub, plain_sub);
  REQUIRE(wait_received(kept_sub, 1));
  praxis::transport::Stamped<praxis_test_Motor> got{};
  REQUIRE(kept_sub.fetch(got));
  CHECK(got.message.id == 2);  // depth 1: only the last
  CHECK(kept_sub.received() == 1);
  // Matched and given time, the volatile reader still has nothing; then a new write arrives.
  std::this_thread::sleep_for(100ms);
  CHECK(plain_sub.received() == 0);
  REQUIRE(plain_pub.write(praxis_test_Motor{4, 3.5f, 23.0f, 0}));
  REQUIRE(wait_received(plain_sub, 1));
  REQUIRE(plain_sub.fetch(got));
  CHECK(got.message.id == 4);
}

TEST_CASE("a reliable reader does not match a best-effort writer", "[dds]") {
  const auto d = domain(3);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::TopicQos best_effort_qos;
  best_effort_qos.reliable = false;
  transport::TopicQos reliable_qos;
  reliable_qos.reliable = true;
  transport::Publisher<praxis_test_Motor> best_effort(a, "praxis_test/qos", &praxis_test_Motor_desc, best_effort_qos);
  transport::Subscriber<praxis_test_Motor> reliable(b, "praxis_test/qos", &praxis_test_Motor_desc, reliable_qos);
  transport::Subscriber<praxis_test_Motor> any(b, "praxis_test/qos", &praxis_test_Motor_desc, best_effort_qos);
  const auto deadline = praxis::Clock::now() + 5s;
  while (best_effort.matched() < 1 && praxis::Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  std::this_thread::sleep_for(100ms);  // time for a wrong match to show up as well
  CHECK(best_effort.matched() == 1);
  CHECK(any.matched() == 1);
  CHECK(reliable.matched() == 0);
}

TEST_CASE("a bad network interface is an error naming it", "[dds]") {
  CHECK_THROWS_WITH(transport::Participant({domain(4), "no-such-if0"}), Catch::Contains("on interface \"no-such-if0\""));
  CHECK_THROWS_AS(transport::Participant({domain(4), "no-such-if0"}), transport::DdsError);
}

TEST_CASE("a participant keeps its options and the configuration it asked for", "[dds]") {
  transport::Participant p({domain(5), "lo"});
  CHECK(p.handle() > 0);
  CHECK(p.options().domain == domain(5));
  CHECK(p.options().interface == "lo");
  CHECK(p.config().interface.praxis_value == "lo");
  CHECK(p.config().tag.praxis_value == transport::discovery_tag());
  CHECK(p.config().xml.find("<NetworkInterface name=\"lo\"") != std::string::npos);
}

TEST_CASE("a discovery tag goes into Cyclone's configuration: markup in a name is refused", "[dds]") {
  const auto plain = transport::cyclone_config({1, "lo"}, "");
  const auto tagged = transport::cyclone_config({1, "lo"}, "bench-a");
  CHECK(tagged.find("<Discovery><Tag>bench-a</Tag></Discovery>") != std::string::npos);
  CHECK(tagged.find("<NetworkInterface name=\"lo\"") != std::string::npos);
  CHECK(plain.find("Discovery") == std::string::npos);
  // The suites run with PRAXIS_DDS_TAG set per process (tests/support/catch_main.cpp).
  if (!transport::discovery_tag().empty()) {
    CHECK(transport::cyclone_config({1, "lo"}).find("<Tag>" + transport::discovery_tag() + "</Tag>") != std::string::npos);
  }
  CHECK_THROWS_WITH(transport::cyclone_config({1, ""}, "a</Tag>"),
                    Catch::Contains("discovery tag (PRAXIS_DDS_TAG) \"a</Tag>\"") && Catch::Contains("must not contain"));
  CHECK_THROWS_WITH(transport::cyclone_config({1, "eth0\"/>"}, ""), Catch::Contains("DDS interface"));
  // No interface: Cyclone chooses (autodetermine), and praxis names none.
  const auto any = transport::cyclone_config({1, ""}, "");
  CHECK(any.find("<NetworkInterface autodetermine=\"true\"") != std::string::npos);
  CHECK(any.find("name=") == std::string::npos);
}

TEST_CASE("with_type_name renames a descriptor once per pair and leaves the original alone", "[dds]") {
  const dds_topic_descriptor_t* original = &praxis_test_Motor_desc;
  const std::string own = original->m_typename;
  CHECK(transport::with_type_name(original, "") == original);
  CHECK(transport::with_type_name(original, own) == original);
  const auto* renamed = transport::with_type_name(original, "vendor::Motor");
  REQUIRE(renamed != original);
  CHECK(std::string(renamed->m_typename) == "vendor::Motor");
  CHECK(std::string(original->m_typename) == own);
  CHECK(renamed->m_size == original->m_size);
  CHECK(renamed->m_ops == original->m_ops);
  CHECK(transport::with_type_name(original, "vendor::Motor") == renamed);  // asked again: the same copy
  const auto* other = transport::with_type_name(original, "vendor::Motor2");
  CHECK(other != renamed);
  CHECK(std::string(renamed->m_typename) == "vendor::Motor");  // a later copy moves no earlier one
  // The same name for another descriptor is another copy.
  const auto* group = transport::with_type_name(&praxis_test_Group_desc, "vendor::Motor");
  CHECK(group != renamed);
  CHECK(group->m_size == praxis_test_Group_desc.m_size);
}

TEST_CASE("near misses name writers of the same topic with another type and of the same last element elsewhere",
          "[dds]") {
  const std::vector<transport::DiscoveredWriter> writers{
      {"rt/lowstate", "unitree_hg::LowState_"},        // the right one: no near miss
      {"rt/lowstate", "LowState"},                      // same topic, other type
      {"gr2/SN7/lowstate", "unitree_hg::LowState_"},    // same last element, other prefix
      {"gr2/SN7/lowstate", "unitree_hg::LowState_"},    // seen twice, named once
      {"rt/lowcmd", "unitree_hg::LowState_"},           // unrelated
      {"rt/lowstate_extra", "unitree_hg::LowState_"}};  // a longer name is not the same element
  const auto report = transport::near_misses(writers, "rt/lowstate", "unitree_hg::LowState_", "set --prefix");
  CHECK(report ==
        "writers seen for another name or type: \"rt/lowstate\" (type LowState), \"gr2/SN7/lowstate\" (type "
        "unitree_hg::LowState_); expected \"rt/lowstate\" (type unitree_hg::LowState_): set --prefix");
  // Without a fix, no trailing colon.
  CHECK_THAT(transport::near_misses(writers, "rt/lowstate", "unitree_hg::LowState_", ""),
             Catch::EndsWith("expected \"rt/lowstate\" (type unitree_hg::LowState_)"));
  // A bare topic name matches a prefixed one by its last element.
  CHECK_THAT(transport::near_misses(writers, "lowstate", "unitree_hg::LowState_", ""),
             Catch::Contains("\"gr2/SN7/lowstate\"") && Catch::Contains("\"rt/lowstate\" (type LowState)"));
  CHECK(transport::near_misses({}, "rt/lowstate", "T", "fix").empty());
  CHECK(transport::near_misses({{"rt/lowstate", "T"}}, "rt/lowstate", "T", "fix").empty());
}

TEST_CASE("a start-up without its state names the writers it saw under another prefix or type name", "[dds]") {
  // What a robot whose topics carry a prefix looks like from a participant expecting bare names.
  const auto d = domain(6);
  transport::Participant robot({d, "lo"});
  transport::Participant praxis({d, "lo"});
  transport::Publisher<unitree_go_msg_dds__WirelessController_> prefixed(
      robot, "gr2/SN7/rt/wirelesscontroller", &unitree_go_msg_dds__WirelessController__desc);
  transport::Publisher<unitree_go_msg_dds__WirelessController_> renamed(
      robot, "rt/wirelesscontroller",
      transport::with_type_name(&unitree_go_msg_dds__WirelessController__desc, "WirelessController"));
  transport::Publisher<unitree_go_msg_dds__WirelessController_> unrelated(robot, "rt/other",
                                                                    &unitree_go_msg_dds__WirelessController__desc);
  const std::string expected_type = unitree_go_msg_dds__WirelessController__desc.m_typename;
  std::string report;
  const auto deadline = praxis::Clock::now() + 5s;
  do {  // discovery takes a moment
    std::this_thread::sleep_for(20ms);
    report = transport::near_misses(transport::discovered_writers(praxis), "rt/wirelesscontroller", expected_type, "set the names");
  } while ((report.find("gr2/SN7") == std::string::npos || report.find("(type WirelessController)") == std::string::npos) &&
           praxis::Clock::now() < deadline);
  CHECK_THAT(report, Catch::Contains("\"gr2/SN7/rt/wirelesscontroller\" (type " + expected_type + ")"));
  CHECK_THAT(report, Catch::Contains("\"rt/wirelesscontroller\" (type WirelessController)"));
  CHECK_THAT(report, Catch::EndsWith(": set the names"));
  CHECK_THAT(report, !Catch::Contains("rt/other"));
  // The right writer alone is no near miss.
  CHECK(transport::near_misses({{"rt/wirelesscontroller", expected_type}}, "rt/wirelesscontroller", expected_type, "x").empty());
}

TEST_CASE("discovered writers include this participant's own with topic and type", "[dds]") {
  transport::Participant p({domain(7), "lo"});
  transport::Publisher<praxis_test_Motor> pub(p, "praxis_test/own", &praxis_test_Motor_desc);
  const auto writers = transport::discovered_writers(p);
  bool found = false;
  for (const auto& w : writers) found = found || (w.topic == "praxis_test/own" && w.type == praxis_test_Motor_desc.m_typename);
  CHECK(found);
}

TEST_CASE("DdsTransport names the DDS participant publisher and subscriber", "[dds]") {
  STATIC_REQUIRE(std::is_same_v<transport::DdsTransport::Context, transport::Participant>);
  STATIC_REQUIRE(std::is_same_v<transport::DdsTransport::Publisher<praxis_test_Motor>, transport::Publisher<praxis_test_Motor>>);
  STATIC_REQUIRE(std::is_same_v<transport::DdsTransport::Subscriber<praxis_test_Motor>, transport::Subscriber<praxis_test_Motor>>);
}

}  // namespace dds_test
}  // namespace
