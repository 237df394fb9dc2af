// DecodingSubscriber (transport/dds_decoding_subscriber.hpp) over real Cyclone DDS in one process:
// the three decoder forms (void, bool, const char*), a throwing decoder, what is counted and what
// reaches the mailbox, the rejection report, bursts longer than one loaned take, and the deduction
// from a plain function. Sequences and strings: dds_sequence_test.cpp.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include <praxis/idl/praxis_test.h>

#include "praxis/core/wakeup.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_decoding_subscriber.hpp"
#include "../../support/dds_wait.hpp"

namespace {
namespace dds_decoding_subscriber_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;

// Domains 50-55 for this file (see dds_test.cpp).
std::uint32_t domain(std::uint32_t k) { return 50 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

const transport::TopicQos k_reliable{.reliable = true, .depth = 32};
constexpr const char* k_topic = "praxis_test/decoded";

// What the control side sees of a motor.
struct Reading {
  std::uint16_t id = 0;
  float position = 0;
};

using praxis::test::wait_matched;
using praxis::test::wait_received;

// received() counts a sample before it is decoded: wait for the outcome itself.
template <class Sub, class V>
bool fetch_within(Sub& sub, praxis::transport::Stamped<V>& out) {
  const auto deadline = praxis::Clock::now() + 5s;
  while (!sub.fetch(out)) {
    if (praxis::Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

template <class Sub>
bool wait_rejected(const Sub& sub, std::uint64_t n) {
  const auto deadline = praxis::Clock::now() + 5s;
  while (sub.rejected() < n && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  return sub.rejected() >= n;
}

praxis_test_Motor motor(std::uint16_t id, float position, std::uint32_t error = 0) {
  return praxis_test_Motor{id, position, 30.0f, error};
}

// Rejects motors reporting an error, with a reason.
const char* decode_with_reason(const praxis_test_Motor& m, Reading& out) {
  if (m.error != 0) return "motor reports an error";
  out = {m.id, m.position};
  return nullptr;
}

TEST_CASE("decoding subscriber: a reason-returning decoder rejects with its reason and counts both", "[dds][decoding]") {
  const auto d = domain(1);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::Publisher<praxis_test_Motor> pub(a, k_topic, &praxis_test_Motor_desc, k_reliable);
  transport::DecodingSubscriber sub(b, k_topic, &praxis_test_Motor_desc, &decode_with_reason, k_reliable);
  STATIC_REQUIRE(std::is_same_v<decltype(sub), transport::DecodingSubscriber<praxis_test_Motor, Reading,
                                                                       const char* (*)(const praxis_test_Motor&, Reading&)>>);
  CHECK(sub.topic() == k_topic);
  wait_matched(pub, sub);
  CHECK(sub.rejection_report().empty());

  praxis::transport::Stamped<Reading> got{};
  REQUIRE(pub.write(motor(1, 0.5f)));
  REQUIRE(fetch_within(sub, got));
  CHECK(got.message.id == 1);
  CHECK(got.count == 1);

  REQUIRE(pub.write(motor(2, 1.5f, 7)));
  REQUIRE(wait_rejected(sub, 1));
  CHECK_FALSE(sub.fetch(got));  // the rejected sample never reaches the mailbox
  CHECK(got.message.id == 1);
  CHECK(sub.received() == 2);
  CHECK(sub.rejected() == 1);
  CHECK(sub.rejection_report() ==
        "topic \"praxis_test/decoded\": 1 of 2 samples rejected (last: motor reports an error)");

  REQUIRE(pub.write(motor(3, 2.5f)));
  REQUIRE(fetch_within(sub, got));
  CHECK(got.message.id == 3);
  CHECK(got.message.position == 2.5f);
  CHECK(got.count == 3);  // the count is of samples received, the rejected one included
  CHECK(sub.rejected() == 1);
}

TEST_CASE("decoding subscriber: a bool decoder rejects on false and a throwing one rejects too", "[dds][decoding]") {
  const auto d = domain(2);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::Publisher<praxis_test_Motor> pub(a, k_topic, &praxis_test_Motor_desc, k_reliable);
  // Accepts even ids, throws on id 99.
  auto decoder = [](const praxis_test_Motor& m, Reading& out) -> bool {
    if (m.id == 99) throw std::runtime_error("bad motor");
    if (m.id % 2 != 0) return false;
    out = {m.id, m.position};
    return true;
  };
  transport::DecodingSubscriber<praxis_test_Motor, Reading, decltype(decoder)> sub(b, k_topic, &praxis_test_Motor_desc,
                                                                              decoder, k_reliable);
  wait_matched(pub, sub);
  praxis::transport::Stamped<Reading> got{};

  REQUIRE(pub.write(motor(3, 1.0f)));
  REQUIRE(wait_rejected(sub, 1));
  CHECK_FALSE(sub.fetch(got));
  CHECK(sub.rejection_report() == "topic \"praxis_test/decoded\": 1 of 1 samples rejected (last: rejected by the decoder)");

  REQUIRE(pub.write(motor(99, 1.0f)));
  REQUIRE(wait_rejected(sub, 2));
  CHECK_FALSE(sub.fetch(got));
  CHECK(sub.rejected() == 2);
  CHECK_THAT(sub.rejection_report(), Catch::EndsWith("2 of 2 samples rejected (last: the decoder threw)"));

  REQUIRE(pub.write(motor(4, 2.0f)));
  REQUIRE(fetch_within(sub, got));
  CHECK(got.message.id == 4);
  CHECK(sub.rejected() == 2);
}

TEST_CASE("decoding subscriber: a void decoder accepts every sample and a burst keeps the newest",
          "[dds][decoding]") {
  const auto d = domain(3);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::Publisher<praxis_test_Motor> pub(a, k_topic, &praxis_test_Motor_desc, k_reliable);
  struct Copy {
    int* calls;
    void operator()(const praxis_test_Motor& m, Reading& out) const {
      ++*calls;
      out = {m.id, m.position};
    }
  };
  int calls = 0;
  transport::DecodingSubscriber<praxis_test_Motor, Reading, Copy> sub(b, k_topic, &praxis_test_Motor_desc, Copy{&calls},
                                                                k_reliable);
  praxis::Wakeup wakeup;
  sub.set_wakeup(&wakeup);
  wait_matched(pub, sub);
  // More samples than one loaned take holds (8), written at once: all are decoded, the newest kept.
  constexpr std::uint16_t k_burst = 20;
  for (std::uint16_t k = 1; k <= k_burst; ++k) REQUIRE(pub.write(motor(k, 0.25f * k)));
  REQUIRE(wait_received(sub, k_burst));
  CHECK(wakeup.wait_until(praxis::Clock::now() + 5s));
  // The listener may still be decoding the last of them when received() counts it.
  praxis::transport::Stamped<Reading> got{};
  const auto deadline = praxis::Clock::now() + 5s;
  while (!(sub.fetch(got) && got.message.id == k_burst) && praxis::Clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  REQUIRE(got.message.id == k_burst);
  CHECK(got.count == k_burst);
  CHECK(calls == k_burst);  // every decode happened before the newest value was published
  CHECK(sub.rejected() == 0);
  CHECK(sub.rejection_report().empty());
  CHECK_FALSE(sub.fetch(got));
}

}  // namespace dds_decoding_subscriber_test
}  // namespace
