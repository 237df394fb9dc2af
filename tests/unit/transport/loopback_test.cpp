// The loopback transport (transport/loopback.hpp): topics matched by name and type, the newest
// message with its count and receive time, the wake-up after each write, and the DDS-shaped
// constructors that let a backend take either transport.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <type_traits>

#include "praxis/core/clock.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/transport/loopback.hpp"

namespace {
namespace loopback_test {

using namespace std::chrono_literals;
using praxis::transport::LoopbackBus;
using praxis::transport::LoopbackPublisher;
using praxis::transport::LoopbackSubscriber;
using praxis::transport::Stamped;

struct Pose {
  double x = 0;
  double y = 0;
};
struct Other {
  int code = 0;
};

TEST_CASE("loopback: a subscriber gets the newest message with its count and receive time", "[transport][loopback]") {
  LoopbackBus bus;
  LoopbackPublisher<Pose> pub(bus, "pose");
  LoopbackSubscriber<Pose> sub(bus, "pose");
  Stamped<Pose> got{};
  CHECK_FALSE(sub.fetch(got));  // nothing written yet
  const auto before = praxis::Clock::now();
  for (int k = 1; k <= 3; ++k) CHECK(pub.write({1.0 * k, -1.0 * k}));
  REQUIRE(sub.fetch(got));
  CHECK(got.message.x == 3.0);  // only the newest is kept
  CHECK(got.message.y == -3.0);
  CHECK(got.count == 3);
  CHECK(got.received >= before);
  CHECK(got.received <= praxis::Clock::now());
  CHECK_FALSE(sub.fetch(got));  // nothing new
  CHECK(got.message.x == 3.0);  // and a failed fetch leaves `out` as it was
  pub.write({4.0, 0.0});
  REQUIRE(sub.fetch(got));
  CHECK(got.count == 4);
}

TEST_CASE("loopback: topics are matched by name and by type", "[transport][loopback]") {
  LoopbackBus bus;
  LoopbackPublisher<Pose> pose(bus, "a");
  LoopbackSubscriber<Pose> same(bus, "a");
  LoopbackSubscriber<Pose> other_name(bus, "b");
  LoopbackSubscriber<Other> other_type(bus, "a");
  pose.write({1.0, 2.0});
  Stamped<Pose> p{};
  Stamped<Other> o{};
  CHECK(same.fetch(p));
  CHECK_FALSE(other_name.fetch(p));
  CHECK_FALSE(other_type.fetch(o));
  CHECK(&bus.channel<Pose>("a") == &bus.channel<Pose>("a"));
  CHECK(static_cast<const void*>(&bus.channel<Pose>("a")) != static_cast<const void*>(&bus.channel<Other>("a")));
  CHECK(&bus.channel<Pose>("a") != &bus.channel<Pose>("b"));
  // Two buses share nothing.
  LoopbackBus elsewhere;
  CHECK(&elsewhere.channel<Pose>("a") != &bus.channel<Pose>("a"));
}

TEST_CASE("loopback: a subscriber made after the write still gets the newest message", "[transport][loopback]") {
  LoopbackBus bus;
  LoopbackPublisher<Pose> pub(bus, "pose");
  pub.write({5.0, 6.0});
  LoopbackSubscriber<Pose> late(bus, "pose");
  Stamped<Pose> got{};
  REQUIRE(late.fetch(got));
  CHECK(got.message.x == 5.0);
}

TEST_CASE("loopback: the wake-up is notified after each write and can be removed", "[transport][loopback]") {
  LoopbackBus bus;
  LoopbackPublisher<Pose> pub(bus, "pose");
  LoopbackSubscriber<Pose> sub(bus, "pose");
  praxis::Wakeup wakeup;
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now()));
  sub.set_wakeup(&wakeup);
  pub.write({1.0, 0.0});
  REQUIRE(wakeup.wait_until(praxis::Clock::now() + 1s));
  Stamped<Pose> got{};
  CHECK(sub.fetch(got));  // the value is there when the wake-up arrives
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now()));  // one notification per write
  sub.set_wakeup(nullptr);
  pub.write({2.0, 0.0});
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now() + 50ms));
  CHECK(sub.fetch(got));
  CHECK(got.message.x == 2.0);
}

TEST_CASE("loopback: the DDS-shaped constructors ignore descriptor and QoS", "[transport][loopback]") {
  struct Qos {
    bool reliable = true;
  };
  using Transport = praxis::transport::LoopbackTransport;
  STATIC_REQUIRE(std::is_same_v<Transport::Context, LoopbackBus>);
  STATIC_REQUIRE(std::is_same_v<Transport::Publisher<Pose>, LoopbackPublisher<Pose>>);
  STATIC_REQUIRE(std::is_same_v<Transport::Subscriber<Pose>, LoopbackSubscriber<Pose>>);
  LoopbackBus bus;
  const int descriptor = 0;
  Transport::Publisher<Pose> pub(bus, "pose", &descriptor, Qos{});
  Transport::Subscriber<Pose> sub(bus, "pose", &descriptor, Qos{});
  pub.write({7.0, 8.0});
  Stamped<Pose> got{};
  REQUIRE(sub.fetch(got));
  CHECK(got.message.y == 8.0);
}

}  // namespace loopback_test
}  // namespace
