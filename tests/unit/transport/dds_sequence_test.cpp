// DDS samples that are not plain structs, over real Cyclone DDS on loopback: sequences of doubles,
// strings and sequences of structs (the shapes of Aurora's and Tienkung's messages) decoded into
// fixed-size values on receive and encoded from them on send; over-long sequences rejected and
// counted; the control side's fetch does not allocate; the decoding subscriber wakes a waiting
// control thread (the plain subscriber's: dds_test.cpp).

#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <praxis/idl/praxis_test.h>

#include "../../support/alloc_counter.hpp"
#include "malloc_counter.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_decoding_subscriber.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"
#include "praxis/transport/dds_sequence.hpp"
#include "../../support/dds_wait.hpp"

namespace dds_sequence_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;

namespace {

// Domains 190-199 (free between the two-process tests' 100-189 and the benchmarks' 200-229; Cyclone's
// default port mapping allows no domain above 232): each test its own pair, the process id picks one.
std::uint32_t domain(std::uint32_t k) { return 190 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

// ---- the fixed-size values the control side sees ----
struct MotorValue {
  std::uint16_t id = 0;
  float position = 0, temperature = 0;
  std::uint32_t error = 0;
};
struct GroupValue {
  transport::BoundedString<16> name;
  transport::BoundedSequence<double, 8> position;
};
struct StateValue {
  std::uint64_t stamp = 0;
  transport::BoundedString<32> frame_id;
  transport::BoundedSequence<double, 16> values;
  transport::BoundedSequence<MotorValue, 32> motors;
  transport::BoundedSequence<GroupValue, 4> groups;
};
static_assert(std::is_trivially_copyable_v<StateValue>);

const char* decode_state(const praxis_test_State& s, StateValue& out) {
  out.stamp = s.stamp;
  if (!transport::copy_string(s.frame_id, out.frame_id)) return "frame_id longer than 32 characters";
  if (!transport::copy_sequence(s.values, out.values)) return "values longer than 16";
  const bool motors_fit = transport::copy_sequence(s.motors, out.motors, [](const praxis_test_Motor& m, MotorValue& v) {
    v = {m.id, m.position, m.temperature, m.error};
  });
  if (!motors_fit) return "more than 32 motors";
  if (s.groups._length > out.groups.capacity) return "more than 4 groups";
  for (std::uint32_t i = 0; i < s.groups._length; ++i) {
    if (!transport::copy_string(s.groups._buffer[i].name, out.groups[i].name)) return "group name longer than 16";
    if (!transport::copy_sequence(s.groups._buffer[i].position, out.groups[i].position)) return "group position longer than 8";
  }
  out.groups.size = s.groups._length;
  return nullptr;
}

// Owns every buffer the sample points at, allocated with the publisher.
class StateEncoder {
 public:
  bool operator()(const StateValue& v, praxis_test_State& s) {
    s.stamp = v.stamp;
    bool ok = transport::lend_string(s.frame_id, frame_id_, v.frame_id.view());
    ok = ok && transport::lend(s.values, std::span<double>(values_), v.values);
    ok = ok && transport::lend(s.motors, std::span<praxis_test_Motor>(motors_), v.motors.size);
    for (std::uint32_t i = 0; ok && i < v.motors.size; ++i) {
      const auto& m = v.motors[i];
      motors_[i] = {m.id, m.position, m.temperature, m.error};
    }
    ok = ok && transport::lend(s.groups, std::span<praxis_test_Group>(groups_), v.groups.size);
    for (std::uint32_t i = 0; ok && i < v.groups.size; ++i) {
      ok = transport::lend_string(groups_[i].name, group_names_[i], v.groups[i].name.view()) &&
           transport::lend(groups_[i].position, std::span<double>(group_positions_[i]), v.groups[i].position);
    }
    return ok;
  }

 private:
  std::array<char, 33> frame_id_{};
  std::array<double, 16> values_{};
  std::array<praxis_test_Motor, 32> motors_{};
  std::array<praxis_test_Group, 4> groups_{};
  std::array<std::array<char, 17>, 4> group_names_{};
  std::array<std::array<double, 8>, 4> group_positions_{};
};

using StateSubscriber = transport::DecodingSubscriber<praxis_test_State, StateValue, const char* (*)(const praxis_test_State&, StateValue&)>;
using StatePublisher = transport::EncodingPublisher<praxis_test_State, StateValue, StateEncoder>;

constexpr const char* k_topic = "praxis_test/state";
const transport::TopicQos k_reliable{.reliable = true, .depth = 16};

using praxis::test::wait_matched;
using praxis::test::wait_received;

StateValue example_state() {
  StateValue v;
  v.stamp = 123456789;
  v.frame_id.assign("base_link");
  v.values.assign(std::array<double, 3>{0.25, -1.5, 3.0});
  for (std::uint16_t i = 0; i < 5; ++i) {
    v.motors.items[i] = {static_cast<std::uint16_t>(10 + i), 0.1f * i, 30.0f + i, i == 3 ? 33072u : 0u};
  }
  v.motors.size = 5;
  v.groups.size = 2;
  v.groups[0].name.assign("left_leg");
  v.groups[0].position.assign(std::array<double, 6>{1, 2, 3, 4, 5, 6});
  v.groups[1].name.assign("head");
  v.groups[1].position.assign(std::array<double, 2>{-0.5, 0.5});
  return v;
}

}  // namespace

TEST_CASE("bounded values: copy and lend reject what does not fit and leave the target unchanged", "[dds][sequence]") {
  std::array<double, 5> data{1, 2, 3, 4, 5};
  dds_sequence_double seq{5, 5, data.data(), false};
  transport::BoundedSequence<double, 4> small;
  small.assign(std::array<double, 2>{7, 8});
  CHECK_FALSE(transport::copy_sequence(seq, small));
  CHECK(small.size == 2);
  CHECK(small[0] == 7);
  transport::BoundedSequence<double, 5> fits;
  REQUIRE(transport::copy_sequence(seq, fits));
  CHECK(fits.size == 5);
  CHECK(fits[4] == 5);

  std::array<double, 3> storage{};
  dds_sequence_double out{};
  CHECK_FALSE(transport::lend(out, std::span<double>(storage), fits));
  CHECK(out._buffer == nullptr);
  REQUIRE(transport::lend(out, std::span<double>(storage), small));
  CHECK(out._buffer == storage.data());
  CHECK(out._length == 2);
  CHECK(out._maximum == 3);
  CHECK_FALSE(out._release);
  CHECK(storage[1] == 8);

  transport::BoundedString<4> name;
  CHECK(transport::copy_string(nullptr, name));
  CHECK(name.view().empty());
  CHECK_FALSE(transport::copy_string("too long", name));
  REQUIRE(transport::copy_string("head", name));
  CHECK(std::strcmp(name.c_str(), "head") == 0);
  std::array<char, 4> chars{};
  char* field = nullptr;
  CHECK_FALSE(transport::lend_string(field, chars, "head"));  // no room for the NUL
  CHECK(field == nullptr);
  REQUIRE(transport::lend_string(field, chars, "arm"));
  CHECK(std::strcmp(field, "arm") == 0);
}

TEST_CASE("sequences, strings and sequences of structs round-trip over Cyclone DDS", "[dds][sequence]") {
  const auto d = domain(1);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  StatePublisher pub(a, k_topic, &praxis_test_State_desc, {}, k_reliable);
  StateSubscriber sub(b, k_topic, &praxis_test_State_desc, &decode_state, k_reliable);
  wait_matched(pub, sub);

  const StateValue sent = example_state();
  REQUIRE(pub.write(sent));
  CHECK_FALSE(pub.sample().values._release);  // Cyclone must not free praxis' storage
  REQUIRE(wait_received(sub, 1));
  praxis::transport::Stamped<StateValue> got{};
  REQUIRE(sub.fetch(got));
  const StateValue& v = got.message;
  CHECK(got.count == 1);
  CHECK(v.stamp == 123456789);
  CHECK(v.frame_id.view() == "base_link");
  REQUIRE(v.values.size == 3);
  CHECK(v.values[0] == 0.25);
  CHECK(v.values[1] == -1.5);
  CHECK(v.values[2] == 3.0);
  REQUIRE(v.motors.size == 5);
  for (std::uint16_t i = 0; i < 5; ++i) {
    CHECK(v.motors[i].id == 10 + i);
    CHECK(v.motors[i].position == 0.1f * i);
    CHECK(v.motors[i].temperature == 30.0f + i);
  }
  CHECK(v.motors[3].error == 33072u);
  REQUIRE(v.groups.size == 2);
  CHECK(v.groups[0].name.view() == "left_leg");
  REQUIRE(v.groups[0].position.size == 6);
  CHECK(v.groups[0].position[5] == 6.0);
  CHECK(v.groups[1].name.view() == "head");
  REQUIRE(v.groups[1].position.size == 2);
  CHECK(v.groups[1].position[0] == -0.5);

  // Empty sequences and strings too, after full ones (the storage is reused, the lengths shrink).
  REQUIRE(pub.write(StateValue{}));
  REQUIRE(wait_received(sub, 2));
  REQUIRE(sub.fetch(got));
  CHECK(got.message.frame_id.view().empty());
  CHECK(got.message.values.size == 0);
  CHECK(got.message.motors.size == 0);
  CHECK(got.message.groups.size == 0);
  CHECK(sub.rejected() == 0);
  CHECK(sub.rejection_report().empty());
}

TEST_CASE("a sequence longer than the value's capacity is rejected, counted and named with its topic",
          "[dds][sequence]") {
  const auto d = domain(2);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  // A writer not bound by praxis' capacities: the plain publisher, with storage the test owns.
  transport::Publisher<praxis_test_State> raw(a, k_topic, &praxis_test_State_desc, k_reliable);
  StateSubscriber sub(b, k_topic, &praxis_test_State_desc, &decode_state, k_reliable);
  wait_matched(raw, sub);

  std::vector<double> values(17, 0.5);
  char frame[] = "odom";
  praxis_test_State s{};
  s.frame_id = frame;
  auto send = [&](std::uint64_t stamp, std::uint32_t n) {
    s.stamp = stamp;
    s.values = {static_cast<std::uint32_t>(values.size()), n, values.data(), false};
    REQUIRE(raw.write(s));
  };
  praxis::transport::Stamped<StateValue> got{};
  send(1, 16);  // exactly the capacity
  REQUIRE(wait_received(sub, 1));
  REQUIRE(sub.fetch(got));
  CHECK(got.message.values.size == 16);

  send(2, 17);
  REQUIRE(wait_received(sub, 2));
  CHECK_FALSE(sub.fetch(got));  // the rejected sample never reaches the mailbox
  CHECK(sub.rejected() == 1);
  CHECK(sub.rejection_report() ==
        "topic \"praxis_test/state\": 1 of 2 samples rejected (last: values longer than 16)");

  send(3, 2);
  REQUIRE(wait_received(sub, 3));
  REQUIRE(sub.fetch(got));
  CHECK(got.message.stamp == 3);
  CHECK(got.message.values.size == 2);
  CHECK(got.count == 3);
  CHECK(sub.rejected() == 1);
}

TEST_CASE("fetching decoded values allocates nothing: encoding allocates nothing in praxis", "[dds][sequence][alloc]") {
  const auto d = domain(3);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  StatePublisher pub(a, k_topic, &praxis_test_State_desc, {}, k_reliable);
  StateSubscriber sub(b, k_topic, &praxis_test_State_desc, &decode_state, k_reliable);
  wait_matched(pub, sub);

  constexpr int k_samples = 2000;
  std::atomic<bool> writing{true};
  std::uint64_t writer_news = 0, writer_mallocs = 0;
  std::thread writer([&] {
    StateValue v = example_state();
    for (int i = 0; i < 50; ++i) pub.write(v);  // Cyclone's first writes set up its buffers
    const auto news0 = praxis::test::thread_allocation_count();
    const auto mallocs0 = praxis::test::thread_malloc_count();
    for (int i = 0; i < k_samples; ++i) {
      v.stamp = static_cast<std::uint64_t>(i);
      v.values[0] = i;
      pub.write(v);
      if (i % 16 == 0) std::this_thread::sleep_for(100us);
    }
    writer_news = praxis::test::thread_allocation_count() - news0;
    writer_mallocs = praxis::test::thread_malloc_count() - mallocs0;
    writing = false;
  });

  praxis::transport::Stamped<StateValue> got{};
  std::uint64_t fetches = 0, fresh = 0, news = 0, mallocs = 0;
  {
    const auto news0 = praxis::test::thread_allocation_count();
    const auto mallocs0 = praxis::test::thread_malloc_count();
    while (writing.load() || fetches < 100000) {
      if (sub.fetch(got)) ++fresh;
      ++fetches;
    }
    news = praxis::test::thread_allocation_count() - news0;
    mallocs = praxis::test::thread_malloc_count() - mallocs0;
  }
  writer.join();
  INFO("fetches " << fetches << ", new values " << fresh);
  CHECK(fresh > 10);
  CHECK(got.message.values.size == 3);
  CHECK(news == 0);
  if (praxis::test::malloc_counting_available()) CHECK(mallocs == 0);
  // The encoder and praxis' write path: no operator new. What Cyclone's serialiser mallocs is its
  // own business; the figure is reported, not asserted (docs/transport.md records it).
  CHECK(writer_news == 0);
  if (praxis::test::malloc_counting_available()) {
    WARN("Cyclone DDS dds_write of a sample with sequences and strings: " << writer_mallocs << " C heap allocations in "
                                                                          << k_samples << " writes");
  }
}

TEST_CASE("Cyclone's loaned take: what its deserialiser allocates for a sample with sequences", "[dds][sequence][alloc]") {
  if (!praxis::test::malloc_counting_available()) return;  // sanitizer builds replace malloc
  const auto d = domain(4);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});
  StatePublisher pub(a, k_topic, &praxis_test_State_desc, {}, {.reliable = true, .depth = 1000});
  const auto topic = transport::detail::create_topic(b, k_topic, &praxis_test_State_desc);
  dds_qos_t* qos = transport::detail::make_qos({.reliable = true, .depth = 1000});
  const dds_entity_t reader = dds_create_reader(b.handle(), topic, qos, nullptr);
  dds_delete_qos(qos);
  REQUIRE(reader > 0);
  const auto deadline = praxis::Clock::now() + 5s;
  while (pub.matched() == 0 && praxis::Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  REQUIRE(pub.matched() == 1);

  constexpr int k_samples = 200;
  const StateValue v = example_state();
  for (int i = 0; i < 20; ++i) REQUIRE(pub.write(v));  // Cyclone's first writes set up its buffers
  std::this_thread::sleep_for(100ms);
  for (;;) {  // start from an empty reader
    void* samples[1] = {nullptr};
    dds_sample_info_t info[1];
    const dds_return_t n = dds_take(reader, samples, info, 1, 1);
    if (n <= 0) break;
    dds_return_loan(reader, samples, n);
  }
  const auto write_mallocs0 = praxis::test::thread_malloc_count();
  for (int i = 0; i < k_samples; ++i) REQUIRE(pub.write(v));
  const auto write_mallocs = praxis::test::thread_malloc_count() - write_mallocs0;
  WARN("Cyclone DDS dds_write of a sample with sequences and strings, one local reader without a listener: "
       << write_mallocs << " C heap allocations in " << k_samples << " writes");
  std::this_thread::sleep_for(200ms);
  int taken = 0;
  const auto mallocs0 = praxis::test::thread_malloc_count();
  for (;;) {
    void* samples[1] = {nullptr};
    dds_sample_info_t info[1];
    const dds_return_t n = dds_take(reader, samples, info, 1, 1);
    if (n <= 0) break;
    const auto* s = static_cast<const praxis_test_State*>(samples[0]);
    if (info[0].valid_data && s->values._length == 3 && s->motors._length == 5) ++taken;
    dds_return_loan(reader, samples, n);
  }
  const auto mallocs = praxis::test::thread_malloc_count() - mallocs0;
  dds_delete(reader);
  REQUIRE(taken == k_samples);
  // Each sample has 6 heap parts (frame_id, values, motors, groups, 2 group names, 2 group position
  // sequences); the deserialiser allocates them per sample into the loan, and frees them when the
  // loan comes back. This runs on Cyclone's listener thread in DecodingSubscriber, never on the
  // control thread.
  WARN("Cyclone DDS loaned take of a sample with sequences and strings: " << mallocs << " C heap allocations in "
                                                                         << taken << " takes");
  CHECK(mallocs > 0);  // if this ever fails, Cyclone stopped allocating and docs/transport.md can say so
}

TEST_CASE("the decoding subscriber wakes a waiting control thread when a value arrives, and only then", "[dds][wakeup]") {
  const auto d = domain(5);
  transport::Participant a({d, "lo"});
  transport::Participant b({d, "lo"});

  StatePublisher pub(a, k_topic, &praxis_test_State_desc, {}, k_reliable);
  transport::DecodingSubscriber sub(b, k_topic, &praxis_test_State_desc, &decode_state, k_reliable);  // T, Value deduced
  static_assert(std::is_same_v<decltype(sub), StateSubscriber>);
  praxis::Wakeup wakeup;
  sub.set_wakeup(&wakeup);
  wait_matched(pub, sub);
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now() + 300ms));  // nothing sent
  std::thread later([&] {
    std::this_thread::sleep_for(50ms);
    pub.write(example_state());
  });
  const bool woke = wakeup.wait_until(praxis::Clock::now() + 5s);
  later.join();
  REQUIRE(woke);
  praxis::transport::Stamped<StateValue> got{};
  CHECK(sub.fetch(got));  // the value is there when the wake-up arrives
  CHECK(got.message.frame_id.view() == "base_link");
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now() + 300ms));
}

}  // namespace dds_sequence_test
