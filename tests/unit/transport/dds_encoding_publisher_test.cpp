// EncodingPublisher (transport/dds_encoding_publisher.hpp) over real Cyclone DDS in one process: a
// bool encoder's false sends nothing and is counted, a void encoder always sends, the sample is
// zeroed at construction and holds what was last encoded. Sequences and strings:
// dds_sequence_test.cpp.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include <praxis/idl/praxis_test.h>

#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"
#include "../../support/dds_wait.hpp"

namespace {
namespace dds_encoding_publisher_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;

// Domains 60-63 for this file (see dds_test.cpp).
std::uint32_t domain(std::uint32_t k) { return 60 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

const transport::TopicQos k_reliable{.reliable = true, .depth = 32};
constexpr const char* k_topic = "praxis_test/encoded";

// What the control side sends: a joint and its angle in degrees.
struct Setpoint {
  int joint = 0;
  double degrees = 0;
};

// Refuses joints the wire cannot carry (above 16); counts its calls.
struct BoundedEncoder {
  int calls = 0;
  bool operator()(const Setpoint& v, praxis_test_Motor& m) {
    ++calls;
    if (v.joint < 0 || v.joint > 16) return false;
    m.id = static_cast<std::uint16_t>(v.joint);
    m.position = static_cast<float>(v.degrees * 3.14159265358979 / 180.0);
    return true;
  }
};

using praxis::test::wait_matched;

template <class Sub, class V>
bool fetch_within(Sub& sub, praxis::transport::Stamped<V>& out) {
  const auto deadline = praxis::Clock::now() + 5s;
  while (!sub.fetch(out)) {
    if (praxis::Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST_CASE("encoding publisher: a refused value is counted and never sent", "[dds][encoding]") {
  const auto d = domain(1);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  transport::EncodingPublisher<praxis_test_Motor, Setpoint, BoundedEncoder> pub(a, k_topic, &praxis_test_Motor_desc, {},
                                                                          k_reliable);
  transport::Subscriber<praxis_test_Motor> sub(b, k_topic, &praxis_test_Motor_desc, k_reliable);
  CHECK(pub.topic() == k_topic);
  // Zeroed at construction: nothing of an earlier object shows through. Field by field: the padding
  // after `id` is not a value (a memcmp against a local `{}` compared stack garbage under ASan).
  CHECK(pub.sample().id == 0);
  CHECK(pub.sample().position == 0.0f);
  CHECK(pub.sample().temperature == 0.0f);
  CHECK(pub.sample().error == 0);
  wait_matched(pub, sub);

  praxis::transport::Stamped<praxis_test_Motor> got{};
  REQUIRE(pub.write({3, 90.0}));
  REQUIRE(fetch_within(sub, got));
  CHECK(got.message.id == 3);
  CHECK(got.message.position == Approx(3.14159265358979 / 2));
  CHECK(pub.refused() == 0);

  CHECK_FALSE(pub.write({17, 45.0}));
  CHECK_FALSE(pub.write({-1, 45.0}));
  CHECK(pub.refused() == 2);
  // The next accepted value arrives as the next sample: the refused ones were never written.
  REQUIRE(pub.write({5, 180.0}));
  REQUIRE(fetch_within(sub, got));
  CHECK(got.message.id == 5);
  CHECK(got.count == 2);
  CHECK(sub.received() == 2);
  CHECK(pub.refused() == 2);
  CHECK(pub.sample().id == 5);
}

TEST_CASE("encoding publisher: a void encoder sends every value and the sample keeps the last", "[dds][encoding]") {
  const auto d = domain(2);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  auto encode = [](const Setpoint& v, praxis_test_Motor& m) {
    m.id = static_cast<std::uint16_t>(v.joint);
    m.temperature = static_cast<float>(v.degrees);
  };
  transport::EncodingPublisher<praxis_test_Motor, Setpoint, decltype(encode)> pub(a, k_topic, &praxis_test_Motor_desc, encode,
                                                                            k_reliable);
  transport::Subscriber<praxis_test_Motor> sub(b, k_topic, &praxis_test_Motor_desc, k_reliable);
  wait_matched(pub, sub);
  for (int k = 1; k <= 4; ++k) REQUIRE(pub.write({k, 10.0 * k}));
  CHECK(pub.refused() == 0);
  CHECK(pub.sample().id == 4);
  CHECK(pub.sample().temperature == 40.0f);
  praxis::transport::Stamped<praxis_test_Motor> got{};
  const auto deadline = praxis::Clock::now() + 5s;
  while (!(sub.fetch(got) && got.message.id == 4) && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  REQUIRE(got.message.id == 4);
  CHECK(got.count == 4);  // every value was sent
  CHECK(got.message.temperature == 40.0f);
  // Fields the encoder never sets stay as constructed: zero.
  CHECK(got.message.position == 0.0f);
  CHECK(got.message.error == 0);
}

}  // namespace dds_encoding_publisher_test
}  // namespace
