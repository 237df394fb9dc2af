// The topic table a DDS vendor hands to DdsBackend: the four topic kinds' types (the documented
// function-pointer signatures, the wire types only the decoded / encoded kinds have, a table as
// plain data with nothing set by default) and the rules a table's functions are called under: the
// FIRST state topic is the primary one (whichever topic that is), the others merged in; decode gets
// the sample's receive time, the one assembled state and the vendor's Context, and false rejects
// the sample (counted); encode gets write()'s time and the same Context (what a robot reports and
// commands echo), false sends nothing; over real Cyclone DDS a decoded topic's to_value refuses a
// sample with its reason before decode sees it, and an encoded topic's to_wire lends its storage to
// the sample sent. Loopback for the deterministic rules; Cyclone on domains 3-5 (with the suites'
// per-process discovery tag, PRAXIS_DDS_TAG).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include <praxis/idl/praxis_test.h>

#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/transport/dds_sequence.hpp"
#include "praxis/transport/loopback.hpp"

namespace topic_table_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;
using praxis::Clock;
using praxis::JointMode;
using praxis::TimePoint;
using Motor = praxis_test_Motor;

namespace {

struct TwoJoints {
  static constexpr std::string_view name = "ttbot";
  static constexpr std::size_t joint_count = 2;
  static constexpr std::array<praxis::JointSpec, 2> joints{{
      {"neck", -1.0, 1.0, 10, 5},
      {"tail", -1.0, 1.0, 10, 5},
  }};
  static constexpr std::array<double, 2> stand_pose{0.0, 0.0};
  static constexpr std::array<double, 2> rest_pose{0.0, 0.0};
  static constexpr std::array<double, 2> default_kp{10, 10};
  static constexpr std::array<double, 2> default_kd{1, 1};
};
constexpr std::size_t N = TwoJoints::joint_count;

// The vendor's codec state, shared by both directions.
struct Context {
  std::atomic<std::uint32_t> echo{0};  // what the robot reports and every command must echo
  // reader side
  std::uint64_t decoded_neck = 0, decoded_tail = 0;
  TimePoint received{};
  // writer side
  std::uint64_t encoded = 0;
  TimePoint encode_now{};
};

// Motor.id is echoed, Motor.position is the joint's q, Motor.error != 0 makes the sample invalid.
bool decode_neck(const Motor& m, TimePoint received, praxis::RobotState<N>& out, Context& c) {
  if (m.error != 0) return false;
  out.q[0] = m.position;
  c.echo.store(m.id, std::memory_order_relaxed);
  c.received = received;
  ++c.decoded_neck;
  return true;
}
bool decode_tail(const Motor& m, TimePoint, praxis::RobotState<N>& out, Context& c) {
  if (m.error != 0) return false;
  out.q[1] = m.position;
  ++c.decoded_tail;
  return true;
}
// The neck's command: nothing when the command leaves the neck to the robot.
bool encode_neck(const praxis::JointCommand<N>& cmd, TimePoint now, Context& c, Motor& out) {
  if (cmd.mode[0] == JointMode::none) return false;
  out.id = static_cast<std::uint16_t>(c.echo.load(std::memory_order_relaxed));
  out.position = static_cast<float>(cmd.q[0]);
  c.encode_now = now;
  ++c.encoded;
  return true;
}

// Two state topics of one value type; NeckFirst chooses which one the table names first.
template <bool NeckFirst>
struct MotorTopics {
  using model = TwoJoints;
  struct Options {
    transport::DdsOptions dds{};
    praxis::Duration link_timeout = 100ms;
  };
  using Context = topic_table_test::Context;
  static constexpr praxis::JointModeSet joint_modes{JointMode::position};

  static auto state_topics(const Options&) {
    using Topic = praxis::StateTopic<N, Context, Motor>;
    const Topic neck{"ttbot/neck", &praxis_test_Motor_desc, &decode_neck, {}};
    const Topic tail{"ttbot/tail", &praxis_test_Motor_desc, &decode_tail, {}};
    if constexpr (NeckFirst) {
      return std::tuple{neck, tail};
    } else {
      return std::tuple{tail, neck};
    }
  }
  static auto command_topics(const Options&) {
    return std::tuple{praxis::CommandTopic<N, Context, Motor>{"ttbot/neck/cmd", &praxis_test_Motor_desc, &encode_neck, {}}};
  }
};

using Loopback = praxis::transport::LoopbackTransport;
template <bool NeckFirst>
using LoopbackBot = praxis::DdsBackend<MotorTopics<NeckFirst>, Loopback>;

Motor motor(std::uint16_t id, float position, std::uint32_t error = 0) { return Motor{id, position, 0.0f, error}; }

praxis::JointCommand<N> neck_at(double q) {
  praxis::JointCommand<N> c;
  c.mode = {JointMode::position, JointMode::none};
  c.q[0] = q;
  c.kp[0] = 10.0;
  return c;
}

}  // namespace

// ---- the types ----

namespace {
struct Wire {};
struct Value {
  int x = 0;
};
struct ToWire {
  bool operator()(const Value&, Wire&) { return true; }
};
using S = praxis::StateTopic<N, Context, Value>;
using DS = praxis::DecodedStateTopic<N, Context, Wire, Value>;
using C = praxis::CommandTopic<N, Context, Value>;
using EC = praxis::EncodedCommandTopic<N, Context, Wire, Value, ToWire>;
}  // namespace

TEST_CASE("topic table: the functions have the documented signatures", "[hardware][topic_table]") {
  STATIC_REQUIRE(std::is_same_v<S::value_type, Value>);
  STATIC_REQUIRE(std::is_same_v<S::Decode, bool (*)(const Value&, TimePoint, praxis::RobotState<N>&, Context&)>);
  STATIC_REQUIRE(std::is_same_v<DS::Decode, S::Decode>);
  STATIC_REQUIRE(std::is_same_v<DS::ToValue, const char* (*)(const Wire&, Value&)>);
  STATIC_REQUIRE(std::is_same_v<DS::wire_type, Wire>);
  STATIC_REQUIRE(std::is_same_v<DS::value_type, Value>);
  STATIC_REQUIRE(std::is_same_v<C::value_type, Value>);
  STATIC_REQUIRE(std::is_same_v<C::Encode, bool (*)(const praxis::JointCommand<N>&, TimePoint, Context&, Value&)>);
  STATIC_REQUIRE(std::is_same_v<EC::Encode, C::Encode>);
  STATIC_REQUIRE(std::is_same_v<EC::wire_type, Wire>);
  STATIC_REQUIRE(std::is_same_v<EC::to_wire_type, ToWire>);
  STATIC_REQUIRE(std::is_same_v<decltype(EC::to_wire), ToWire>);
  // A decoded topic is a state topic, an encoded one a command topic (a backend reads their common
  // fields the same way).
  STATIC_REQUIRE(std::is_base_of_v<S, DS>);
  STATIC_REQUIRE(std::is_base_of_v<C, EC>);
}

TEST_CASE("topic table: only the decoded and encoded kinds have a wire type", "[hardware][topic_table]") {
  STATIC_REQUIRE_FALSE(praxis::detail::HasWireType<S>);
  STATIC_REQUIRE(praxis::detail::HasWireType<DS>);
  STATIC_REQUIRE_FALSE(praxis::detail::HasWireType<C>);
  STATIC_REQUIRE(praxis::detail::HasWireType<EC>);
}

TEST_CASE("topic table: a topic is plain data with nothing set by default", "[hardware][topic_table]") {
  const DS state;
  CHECK(state.name.empty());
  CHECK(state.descriptor == nullptr);
  CHECK(state.decode == nullptr);
  CHECK(state.to_value == nullptr);
  CHECK_FALSE(state.qos.reliable.has_value());  // Cyclone's defaults, as the vendor SDKs get
  CHECK_FALSE(state.qos.depth.has_value());
  CHECK_FALSE(state.qos.transient_local);
  const EC command;
  CHECK(command.name.empty());
  CHECK(command.descriptor == nullptr);
  CHECK(command.encode == nullptr);
  CHECK_FALSE(command.qos.reliable.has_value());

  // Made field by field, in the documented order: name, descriptor, function, QoS.
  const praxis::StateTopic<N, Context, Motor> t{"rt/x", &praxis_test_Motor_desc, &decode_neck, {.reliable = true, .depth = 3}};
  CHECK(t.name == "rt/x");
  CHECK(t.descriptor == &praxis_test_Motor_desc);
  CHECK(t.decode == &decode_neck);
  CHECK(t.qos.reliable == true);
  CHECK(t.qos.depth == 3);
  // Copies keep everything (a backend takes its table by value).
  const auto copy = t;
  CHECK(copy.name == "rt/x");
  CHECK(copy.decode == &decode_neck);
}

// ---- the rules, through the generic backend on the loopback transport ----

TEST_CASE("topic table: the first state topic is the primary one and the others are merged in",
          "[hardware][topic_table]") {
  praxis::transport::LoopbackBus bus;
  praxis::transport::LoopbackPublisher<Motor> neck(bus, "ttbot/neck");
  praxis::transport::LoopbackPublisher<Motor> tail(bus, "ttbot/tail");
  praxis::RobotState<N> state{};
  const auto now = Clock::now();

  SECTION("the neck first") {
    LoopbackBot<true> robot(bus, {});
    tail.write(motor(1, 0.5f));
    CHECK_FALSE(robot.read(state, now));  // decoded, but not a new state
    CHECK(robot.codec_context().decoded_tail == 1);
    CHECK_FALSE(robot.have_state());
    neck.write(motor(1, -0.25f));
    REQUIRE(robot.read(state, now));
    CHECK(state.q[0] == -0.25);
    CHECK(state.q[1] == 0.5);  // merged from the earlier tail sample
    CHECK(robot.states_accepted<0>() == 1);  // table order: the neck
    CHECK(robot.states_accepted<1>() == 1);
  }
  SECTION("the tail first") {
    LoopbackBot<false> robot(bus, {});
    neck.write(motor(1, -0.25f));
    CHECK_FALSE(robot.read(state, now));
    CHECK(robot.codec_context().decoded_neck == 1);
    tail.write(motor(1, 0.5f));
    REQUIRE(robot.read(state, now));
    CHECK(state.q[0] == -0.25);
    CHECK(state.q[1] == 0.5);
    neck.write(motor(1, 0.75f));
    CHECK_FALSE(robot.read(state, now));  // the neck is not primary here
    tail.write(motor(1, 0.125f));
    REQUIRE(robot.read(state, now));
    CHECK(state.q[0] == 0.75);
    CHECK(state.q[1] == 0.125);
  }
}

TEST_CASE("topic table: decode gets the receive time and the backend's one context and false rejects the sample",
          "[hardware][topic_table]") {
  praxis::transport::LoopbackBus bus;
  praxis::transport::LoopbackPublisher<Motor> neck(bus, "ttbot/neck");
  LoopbackBot<true> robot(bus, {});
  praxis::RobotState<N> state{};

  const auto before = Clock::now();
  neck.write(motor(9, 0.5f));
  const auto after = Clock::now();
  std::this_thread::sleep_for(2ms);
  const auto read_at = Clock::now();
  REQUIRE(robot.read(state, read_at));
  const auto& c = robot.codec_context();
  CHECK(c.decoded_neck == 1);
  CHECK(c.received >= before);  // when the sample arrived, not when read() ran
  CHECK(c.received <= after);
  CHECK(c.received < read_at);
  CHECK(c.echo.load() == 9);

  // A sample the decoder rejects is counted, and does not make a new state.
  neck.write(motor(10, 0.9f, 1));
  CHECK_FALSE(robot.read(state, Clock::now()));
  CHECK(robot.states_rejected<0>() == 1);
  CHECK(robot.states_accepted<0>() == 1);
  CHECK(c.echo.load() == 9);
  CHECK(state.q[0] == 0.5);
  praxis::LinkHealth link;
  robot.read_link(link);
  CHECK(link.states_received == 1);
  CHECK(link.states_rejected == 1);
}

TEST_CASE("topic table: encode gets write's time and the context decode filled and false sends nothing",
          "[hardware][topic_table]") {
  praxis::transport::LoopbackBus bus;
  praxis::transport::LoopbackPublisher<Motor> neck(bus, "ttbot/neck");
  praxis::transport::LoopbackSubscriber<Motor> neck_cmd(bus, "ttbot/neck/cmd");
  LoopbackBot<true> robot(bus, {});
  praxis::RobotState<N> state{};
  neck.write(motor(4242, 0.0f));
  REQUIRE(robot.read(state, Clock::now()));

  const TimePoint when = TimePoint{} + 12345ms;  // write()'s time, whatever the clock says
  robot.write(neck_at(0.5), when);
  praxis::transport::Stamped<Motor> got{};
  REQUIRE(neck_cmd.fetch(got));
  CHECK(got.message.id == 4242);  // echoed through the shared context
  CHECK(got.message.position == 0.5f);
  CHECK(robot.codec_context().encode_now == when);
  CHECK(robot.commands_sent<0>() == 1);

  // The encoder has nothing to say: nothing is sent, and that is counted as skipped.
  praxis::JointCommand<N> tail_only;
  tail_only.mode = {JointMode::none, JointMode::position};
  robot.write(tail_only, when + 1s);
  CHECK_FALSE(neck_cmd.fetch(got));
  CHECK(robot.commands_skipped<0>() == 1);
  CHECK(robot.commands_sent<0>() == 1);
  CHECK(robot.codec_context().encode_now == when);  // the refused call left no mark either

  neck.write(motor(7, 0.0f));
  REQUIRE(robot.read(state, Clock::now()));
  robot.write(neck_at(-0.5), when + 2s);
  REQUIRE(neck_cmd.fetch(got));
  CHECK(got.message.id == 7);
  CHECK(got.message.position == -0.5f);
}

// ---- over real Cyclone DDS: a decoded and an encoded topic ----

namespace {

std::uint32_t domain() { return 3 + static_cast<std::uint32_t>(::getpid() % 3); }

// The fixed-size value both topics carry.
struct Pair {
  std::array<double, 2> v{};
};

// Exactly two values, else refused with the reason.
const char* pair_from_wire(const praxis_test_State& s, Pair& out) {
  if (s.values._length != 2) return "values not 2 long";
  out.v = {s.values._buffer[0], s.values._buffer[1]};
  return nullptr;
}

// Lends storage allocated once (with the table) to each sample sent.
class PairToWire {
 public:
  bool operator()(const Pair& p, praxis_test_State& s) {
    ++calls;
    values_ = p.v;
    s.frame_id = frame_.data();
    return transport::lend(s.values, std::span<double>(values_), values_.size());
  }
  int calls = 0;

 private:
  std::array<double, 2> values_{};
  std::array<char, 8> frame_{"tt"};
};

struct WireContext {
  std::uint64_t decoded = 0;
  std::uint64_t encoded = 0;
};

bool decode_pair(const Pair& p, TimePoint, praxis::RobotState<N>& out, WireContext& c) {
  out.q[0] = p.v[0];
  out.q[1] = p.v[1];
  ++c.decoded;
  return true;
}
bool encode_pair(const praxis::JointCommand<N>& cmd, TimePoint, WireContext& c, Pair& out) {
  out.v = {cmd.q[0], cmd.q[1]};
  ++c.encoded;
  return true;
}

struct WireTopics {
  using model = TwoJoints;
  struct Options {
    transport::DdsOptions dds{};
    praxis::Duration link_timeout = 100ms;
  };
  using Context = WireContext;
  static constexpr praxis::JointModeSet joint_modes{JointMode::position};

  static auto state_topics(const Options&) {
    praxis::DecodedStateTopic<N, WireContext, praxis_test_State, Pair> state;
    state.name = "tt/state";
    state.descriptor = &praxis_test_State_desc;
    state.decode = &decode_pair;
    state.to_value = &pair_from_wire;
    state.qos = {.reliable = true, .depth = 16};
    return std::tuple{state};
  }
  static auto command_topics(const Options&) {
    praxis::EncodedCommandTopic<N, WireContext, praxis_test_State, Pair, PairToWire> cmd;
    cmd.name = "tt/cmd";
    cmd.descriptor = &praxis_test_State_desc;
    cmd.encode = &encode_pair;
    cmd.qos = {.reliable = true, .depth = 16};
    return std::tuple{std::move(cmd)};
  }
};
using WireBot = praxis::DdsBackend<WireTopics>;

// The robot's side, on the Cyclone C API alone.
class Peer {
 public:
  explicit Peer(std::uint32_t domain) {
    participant_ = dds_create_participant(domain, nullptr, nullptr);
    REQUIRE(participant_ > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 16);
    const dds_entity_t state = dds_create_topic(participant_, &praxis_test_State_desc, "tt/state", nullptr, nullptr);
    const dds_entity_t cmd = dds_create_topic(participant_, &praxis_test_State_desc, "tt/cmd", nullptr, nullptr);
    REQUIRE((state > 0 && cmd > 0));
    writer_ = dds_create_writer(participant_, state, qos, nullptr);
    reader_ = dds_create_reader(participant_, cmd, qos, nullptr);
    dds_delete_qos(qos);
    REQUIRE((writer_ > 0 && reader_ > 0));
  }
  ~Peer() { dds_delete(participant_); }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  bool matched(praxis::Duration timeout = 10s) const {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      dds_publication_matched_status_t w{};
      dds_subscription_matched_status_t r{};
      dds_get_publication_matched_status(writer_, &w);
      dds_get_subscription_matched_status(reader_, &r);
      if (w.current_count > 0 && r.current_count > 0) return true;
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(5ms);
    }
  }

  void send(std::span<double> values) {
    std::array<char, 1> frame{};
    praxis_test_State s{};
    s.frame_id = frame.data();
    s.values = {static_cast<std::uint32_t>(values.size()), static_cast<std::uint32_t>(values.size()), values.data(),
                false};
    REQUIRE(dds_write(writer_, &s) == DDS_RETCODE_OK);
  }

  // The next command within `timeout`: its values and frame id.
  bool take(std::array<double, 2>& values, std::string& frame, praxis::Duration timeout = 5s) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      void* samples[1] = {nullptr};
      dds_sample_info_t info[1];
      const dds_return_t n = dds_take(reader_, samples, info, 1, 1);
      if (n > 0) {
        const auto* s = static_cast<const praxis_test_State*>(samples[0]);
        const bool ok = info[0].valid_data && s->values._length == 2;
        if (ok) {
          values = {s->values._buffer[0], s->values._buffer[1]};
          frame = s->frame_id != nullptr ? s->frame_id : "";
        }
        dds_return_loan(reader_, samples, n);
        if (ok) return true;
      }
      std::this_thread::sleep_for(1ms);
    }
    return false;
  }

 private:
  dds_entity_t participant_ = 0, writer_ = 0, reader_ = 0;
};

template <class F>
bool eventually(F&& f, praxis::Duration timeout = 10s) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return f();
}

}  // namespace

TEST_CASE("topic table over Cyclone: to_value refuses a sample with its reason and decode never sees it",
          "[hardware][topic_table][dds]") {
  WireTopics::Options options;
  options.dds = {domain(), "lo"};
  WireBot robot(options);  // first: the domain gets praxis' configuration (interface, discovery tag)
  Peer peer(domain());
  REQUIRE(peer.matched());
  praxis::RobotState<N> state{};

  std::array<double, 3> three{1.0, 2.0, 3.0};
  peer.send(three);
  REQUIRE(eventually([&] { return robot.state_reader<0>().rejected() == 1; }));
  CHECK_FALSE(robot.read(state, Clock::now()));
  CHECK(robot.codec_context().decoded == 0);  // refused on Cyclone's thread, before decode
  CHECK(robot.states_rejected<0>() == 0);      // decode did not reject it: it never got it
  CHECK_THAT(robot.state_reader<0>().rejection_report(),
             Catch::Contains("tt/state") && Catch::Contains("values not 2 long"));

  std::array<double, 2> two{0.25, -0.75};
  peer.send(two);
  REQUIRE(eventually([&] { return robot.read(state, Clock::now()); }));
  CHECK(state.q[0] == 0.25);
  CHECK(state.q[1] == -0.75);
  CHECK(robot.codec_context().decoded == 1);
  CHECK(robot.state_reader<0>().rejected() == 1);
}

TEST_CASE("topic table over Cyclone: an encoded command topic sends its value on storage lent to the sample",
          "[hardware][topic_table][dds]") {
  WireTopics::Options options;
  options.dds = {domain(), "lo"};
  WireBot robot(options);
  Peer peer(domain());
  REQUIRE(peer.matched());
  praxis::RobotState<N> state{};
  std::array<double, 2> two{0.0, 0.0};
  peer.send(two);  // commands are sent only after a valid state
  REQUIRE(eventually([&] { return robot.read(state, Clock::now()); }));

  praxis::JointCommand<N> cmd;
  cmd.q << 1.5, -2.5;
  robot.write(cmd, Clock::now());
  std::array<double, 2> got{};
  std::string frame;
  REQUIRE(peer.take(got, frame));
  CHECK(got == std::array<double, 2>{1.5, -2.5});
  CHECK(frame == "tt");
  CHECK(robot.codec_context().encoded == 1);
  CHECK(robot.commands_sent<0>() == 1);
  // The sample's sequence points into the encoder's own storage, never released by Cyclone.
  const auto& sample = robot.command_writer<0>().sample();
  CHECK_FALSE(sample.values._release);
  CHECK(sample.values._length == 2);
  CHECK(sample.values._buffer[1] == -2.5);
  const double* const lent = sample.values._buffer;

  cmd.q << 0.125, 0.5;  // the same storage carries the next value
  robot.write(cmd, Clock::now());
  REQUIRE(peer.take(got, frame));
  CHECK(got == std::array<double, 2>{0.125, 0.5});
  CHECK(robot.command_writer<0>().sample().values._buffer == lent);
}

}  // namespace topic_table_test
