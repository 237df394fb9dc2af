// The generic DDS backend with a topic table shaped like the Aurora and Tienkung robots: joint
// states per control group in a message with sequences and strings (the primary topic), a second
// state topic with a fixed-size per-motor health sample, and one command topic per limb each
// carrying only its own joints. In process (loopback) and over real Cyclone DDS against a raw C-API
// peer that knows nothing of praxis.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string_view>
#include <thread>
#include <tuple>

#include <praxis/idl/praxis_test.h>

#include "praxis/core/wakeup.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/transport/dds_sequence.hpp"
#include "praxis/transport/loopback.hpp"

namespace dds_backend_test {

using namespace std::chrono_literals;
namespace transport = praxis::transport;

namespace {

// Four joints in two control groups.
struct GroupBot {
  static constexpr std::string_view name = "groupbot";
  static constexpr std::size_t joint_count = 4;
  static constexpr std::array<praxis::JointSpec, 4> joints{{
      {"left_knee", 0.0, 2.0, 50, 20},
      {"right_knee", 0.0, 2.0, 50, 20},
      {"left_elbow", -2.0, 0.5, 20, 20},
      {"right_elbow", -2.0, 0.5, 20, 20},
  }};
  static constexpr std::array<double, 4> stand_pose{0.4, 0.4, -0.3, -0.3};
  static constexpr std::array<double, 4> rest_pose{1.5, 1.5, 0, 0};
  static constexpr std::array<double, 4> default_kp{80, 80, 20, 20};
  static constexpr std::array<double, 4> default_kd{2, 2, 1, 1};
};
constexpr std::size_t N = GroupBot::joint_count;

struct Group {
  std::string_view name;
  std::size_t first, count;
};
constexpr std::array<Group, 2> k_groups{{{"legs", 0, 2}, {"arms", 2, 2}}};

// The fixed-size values praxis' side sees.
struct GroupsValue {
  struct Entry {
    transport::BoundedString<15> name;
    transport::BoundedSequence<double, 4> position;
  };
  transport::BoundedSequence<Entry, 2> groups;
};

const char* groups_from_wire(const praxis_test_State& s, GroupsValue& out) {
  if (s.groups._length > out.groups.capacity) return "more than 2 groups";
  for (std::uint32_t i = 0; i < s.groups._length; ++i) {
    if (!transport::copy_string(s.groups._buffer[i].name, out.groups[i].name)) return "group name longer than 15";
    if (!transport::copy_sequence(s.groups._buffer[i].position, out.groups[i].position)) return "more than 4 positions";
  }
  out.groups.size = s.groups._length;
  return nullptr;
}

// Lends the sample storage allocated once, with the publisher.
class GroupsToWire {
 public:
  bool operator()(const GroupsValue& v, praxis_test_State& s) {
    bool ok = transport::lend(s.groups, std::span<praxis_test_Group>(groups_), v.groups.size);
    for (std::uint32_t i = 0; ok && i < v.groups.size; ++i) {
      ok = transport::lend_string(groups_[i].name, names_[i], v.groups[i].name.view()) &&
           transport::lend(groups_[i].position, std::span<double>(positions_[i]), v.groups[i].position);
    }
    return ok;
  }

 private:
  std::array<praxis_test_Group, 2> groups_{};
  std::array<std::array<char, 16>, 2> names_{};
  std::array<std::array<double, 4>, 2> positions_{};
};

struct GroupBotTopics {
  using model = GroupBot;
  struct Options {
    transport::DdsOptions dds{};
    praxis::Duration link_timeout = 100ms;
    std::string prefix = "groupbot/";
  };
  struct Context {
    std::uint64_t unknown_groups = 0;  // reader side only
  };
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position};

  static bool decode_groups(const GroupsValue& v, praxis::TimePoint, praxis::RobotState<N>& out, Context& c) {
    for (const auto& g : v.groups.view()) {
      const auto* group = std::find_if(k_groups.begin(), k_groups.end(),
                                       [&](const Group& k) { return k.name == g.name.view(); });
      if (group == k_groups.end() || g.position.size != group->count) {
        ++c.unknown_groups;
        return false;  // nothing of this sample is applied
      }
    }
    for (const auto& g : v.groups.view()) {
      const auto* group = std::find_if(k_groups.begin(), k_groups.end(),
                                       [&](const Group& k) { return k.name == g.name.view(); });
      for (std::size_t k = 0; k < group->count; ++k) out.q[static_cast<Eigen::Index>(group->first + k)] = g.position[k];
    }
    return true;
  }
  static bool decode_motor(const praxis_test_Motor& m, praxis::TimePoint, praxis::RobotState<N>& out, Context&) {
    if (m.id >= N) return false;
    auto& h = out.health[m.id];
    h.temperature = m.temperature;
    h.faults = m.error != 0 ? praxis::k_joint_driver_error : praxis::k_joint_ok;
    h.error_code = m.error;
    return true;
  }
  template <std::size_t G>
  static bool encode_group(const praxis::JointCommand<N>& c, praxis::TimePoint, Context&, GroupsValue& out) {
    constexpr Group group = k_groups[G];
    bool covered = false;
    for (std::size_t k = 0; k < group.count; ++k) covered = covered || c.mode[group.first + k] != praxis::JointMode::none;
    if (!covered) return false;
    out.groups.size = 1;
    out.groups[0].name.assign(group.name);
    out.groups[0].position.size = static_cast<std::uint32_t>(group.count);
    for (std::size_t k = 0; k < group.count; ++k) {
      out.groups[0].position[k] = c.q[static_cast<Eigen::Index>(group.first + k)];
    }
    return true;
  }

  static auto state_topics(const Options& o) {
    praxis::DecodedStateTopic<N, Context, praxis_test_State, GroupsValue> joints;
    joints.name = o.prefix + "joint_state";
    joints.descriptor = &praxis_test_State_desc;
    joints.decode = &decode_groups;
    joints.to_value = &groups_from_wire;
    joints.qos = {.reliable = true, .depth = 16};
    return std::tuple{joints, praxis::StateTopic<N, Context, praxis_test_Motor>{
                                  o.prefix + "motor_health", &praxis_test_Motor_desc, &decode_motor, {.reliable = true, .depth = 16}}};
  }
  static auto command_topics(const Options& o) {
    using Topic = praxis::EncodedCommandTopic<N, Context, praxis_test_State, GroupsValue, GroupsToWire>;
    Topic legs, arms;
    legs.name = o.prefix + "legs/cmd";
    arms.name = o.prefix + "arms/cmd";
    legs.descriptor = arms.descriptor = &praxis_test_State_desc;
    legs.encode = &encode_group<0>;
    arms.encode = &encode_group<1>;
    legs.qos = arms.qos = {.reliable = true, .depth = 16};
    return std::tuple{std::move(legs), std::move(arms)};
  }
};

using Loopback = praxis::transport::LoopbackTransport;
using LoopbackBot = praxis::DdsBackend<GroupBotTopics, Loopback>;
using DdsBot = praxis::DdsBackend<GroupBotTopics>;
static_assert(praxis::Backend<LoopbackBot>);
static_assert(praxis::Backend<DdsBot>);
static_assert(praxis::WakesOnState<DdsBot>);

GroupsValue groups(std::initializer_list<std::pair<std::string_view, std::array<double, 2>>> list) {
  GroupsValue v;
  for (const auto& [name, q] : list) {
    auto& g = v.groups[v.groups.size++];
    g.name.assign(name);
    g.position.assign(q);
  }
  return v;
}

praxis::JointCommand<N> command_on(std::initializer_list<std::size_t> joints, double q) {
  praxis::JointCommand<N> c;
  c.mode.fill(praxis::JointMode::none);
  for (const auto j : joints) {
    c.mode[j] = praxis::JointMode::position;
    c.q[static_cast<Eigen::Index>(j)] = q + static_cast<double>(j);
    c.kp[static_cast<Eigen::Index>(j)] = 10;
  }
  return c;
}

}  // namespace

TEST_CASE("generic DDS backend: state topics assemble one state: only the primary one makes it new",
          "[hardware][dds_backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackBot robot(bus, GroupBotTopics::Options{});
  praxis::transport::LoopbackPublisher<GroupsValue> joints(bus, "groupbot/joint_state");
  praxis::transport::LoopbackPublisher<praxis_test_Motor> health(bus, "groupbot/motor_health");
  praxis::RobotState<N> state{};
  const auto now = praxis::Clock::now();

  health.write(praxis_test_Motor{3, 0.0f, 71.5f, 33072});
  CHECK_FALSE(robot.read(state, now));  // a secondary topic alone is not a new state
  CHECK(robot.states_accepted<1>() == 1);

  joints.write(groups({{"legs", {0.5, 0.6}}}));
  REQUIRE(robot.read(state, now));
  CHECK(state.q[0] == 0.5);
  CHECK(state.q[1] == 0.6);
  CHECK(state.health[3].temperature == Approx(71.5));  // merged from the earlier health sample
  CHECK(state.health[3].error_code == 33072);
  CHECK_FALSE(state.health[3].ok());
  CHECK_FALSE(robot.read(state, now));  // nothing new

  joints.write(groups({{"arms", {-0.1, -0.2}}}));
  REQUIRE(robot.read(state, now));
  CHECK(state.q[0] == 0.5);  // the legs keep what they had
  CHECK(state.q[2] == -0.1);
  CHECK(state.q[3] == -0.2);

  // A sample naming a group the robot does not have is rejected whole and counted.
  joints.write(groups({{"legs", {1.0, 1.0}}, {"tail", {9, 9}}}));
  CHECK_FALSE(robot.read(state, now));
  CHECK(state.q[0] == 0.5);
  CHECK(robot.states_rejected<0>() == 1);
  CHECK(robot.codec_context().unknown_groups == 1);
  praxis::LinkHealth link;
  robot.read_link(link);
  CHECK(link.states_received == 3);
  CHECK(link.states_rejected == 1);
  CHECK(link.connected);
}

TEST_CASE("generic DDS backend: each command topic sends only its own slice of a command", "[hardware][dds_backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackBot robot(bus, GroupBotTopics::Options{});
  praxis::transport::LoopbackSubscriber<GroupsValue> legs(bus, "groupbot/legs/cmd");
  praxis::transport::LoopbackSubscriber<GroupsValue> arms(bus, "groupbot/arms/cmd");
  praxis::transport::LoopbackPublisher<GroupsValue> joints(bus, "groupbot/joint_state");
  praxis::transport::Stamped<GroupsValue> got{};
  const auto now = praxis::Clock::now();

  // Before the robot sent one valid state nothing at all is sent.
  robot.write(command_on({0, 1, 2, 3}, 0.25), now);
  CHECK_FALSE(legs.fetch(got));
  CHECK_FALSE(arms.fetch(got));
  CHECK(robot.commands_before_state() == 1);
  joints.write(groups({{"tail", {1, 1}}}));  // an invalid state does not count
  praxis::RobotState<N> state{};
  CHECK_FALSE(robot.read(state, now));
  robot.write(command_on({0, 1, 2, 3}, 0.25), now);
  CHECK(robot.commands_before_state() == 2);
  CHECK_FALSE(robot.have_state());
  joints.write(groups({{"legs", {0.3, 0.3}}}));
  REQUIRE(robot.read(state, now));
  CHECK(robot.have_state());

  robot.write(command_on({2, 3}, 0.25), now);  // an upper-body command
  CHECK_FALSE(legs.fetch(got));
  REQUIRE(arms.fetch(got));
  REQUIRE(got.message.groups.size == 1);
  CHECK(got.message.groups[0].name.view() == "arms");
  CHECK(got.message.groups[0].position[0] == 2.25);
  CHECK(got.message.groups[0].position[1] == 3.25);
  CHECK(robot.commands_skipped<0>() == 1);
  CHECK(robot.commands_sent<1>() == 1);
  CHECK_FALSE(legs.fetch(got));  // the commands before the state were dropped, not queued

  robot.write(command_on({1}, 0.0), now);  // one leg joint: the legs topic, the arms untouched
  REQUIRE(legs.fetch(got));
  CHECK(got.message.groups[0].name.view() == "legs");
  CHECK(got.message.groups[0].position[1] == 1.0);
  CHECK_FALSE(arms.fetch(got));

  robot.write(command_on({}, 0.0), now);  // covers nothing: nothing at all is sent
  CHECK_FALSE(legs.fetch(got));
  CHECK_FALSE(arms.fetch(got));
  praxis::LinkHealth link;
  robot.read_link(link);
  CHECK(link.commands_sent == 2);
}

// A robot silent for the cutoff (1 s) gets nothing, and after it is heard again nothing until read()
// judged one of its new states; a control thread that reads nothing while the robot speaks (a stall:
// the send thread's damping) still reaches it. Margins: 1.3 s of silence, 0.4 s of speech.
TEST_CASE("generic DDS backend: nothing to a robot silent for the cutoff, nor to one back before a state of it was "
          "judged", "[hardware][dds_backend][restart]") {
  praxis::transport::LoopbackBus bus;
  LoopbackBot robot(bus, GroupBotTopics::Options{});
  static_assert(LoopbackBot::k_silence_cutoff == 1s);
  CHECK(robot.silence_cutoff() == 1s);
  praxis::transport::LoopbackSubscriber<GroupsValue> legs(bus, "groupbot/legs/cmd");
  praxis::transport::LoopbackPublisher<GroupsValue> joints(bus, "groupbot/joint_state");
  praxis::transport::Stamped<GroupsValue> got{};
  praxis::RobotState<N> state{};
  const auto legs_command = [&] {
    robot.write(command_on({0, 1}, 0.1), praxis::Clock::now());
    return legs.fetch(got);
  };
  joints.write(groups({{"legs", {0.3, 0.3}}}));
  REQUIRE(robot.read(state, praxis::Clock::now()));
  CHECK(legs_command());

  // The robot speaks, the reader stalls (reads nothing): commands still go out.
  std::this_thread::sleep_for(600ms);
  joints.write(groups({{"legs", {0.3, 0.3}}}));
  std::this_thread::sleep_for(600ms);
  CHECK(legs_command());
  CHECK(robot.commands_while_silent() == 0);
  REQUIRE(robot.read(state, praxis::Clock::now()));

  std::this_thread::sleep_for(1300ms);  // silent
  CHECK_FALSE(legs_command());
  CHECK(robot.commands_while_silent() == 1);
  joints.write(groups({{"tail", {1, 1}}}));  // heard, but nothing valid
  CHECK_FALSE(robot.read(state, praxis::Clock::now()));
  CHECK_FALSE(legs_command());
  joints.write(groups({{"legs", {0.5, 0.5}}}));  // valid, not judged yet
  CHECK_FALSE(legs_command());
  CHECK(robot.commands_while_silent() == 3);
  REQUIRE(robot.read(state, praxis::Clock::now()));
  CHECK(legs_command());
  CHECK(robot.commands_while_silent() == 3);
}

TEST_CASE("generic DDS backend: only the primary state topic wakes a state-triggered loop", "[hardware][dds_backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackBot robot(bus, GroupBotTopics::Options{});
  praxis::transport::LoopbackPublisher<GroupsValue> joints(bus, "groupbot/joint_state");
  praxis::transport::LoopbackPublisher<praxis_test_Motor> health(bus, "groupbot/motor_health");
  praxis::Wakeup wakeup;
  robot.set_wakeup(&wakeup);
  health.write(praxis_test_Motor{0, 0.0f, 40.0f, 0});
  CHECK_FALSE(wakeup.wait_until(praxis::Clock::now()));
  joints.write(groups({{"legs", {0.1, 0.2}}}));
  CHECK(wakeup.wait_until(praxis::Clock::now() + 1s));
  robot.set_wakeup(nullptr);
}

namespace {
// Domains 86-89 (free between the transport tests' 10-84 and the two-process tests' 100-189): each
// test its own pair, the process id picks one.
std::uint32_t domain(std::uint32_t k) { return 86 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

// A robot written against the Cyclone C API directly: the types' descriptors, dds_write of samples
// whose sequences point at its own arrays, loaned takes. It shares no code with praxis' transport.
class RawPeer {
 public:
  explicit RawPeer(std::uint32_t domain) {
    participant_ = dds_create_participant(domain, nullptr, nullptr);
    REQUIRE(participant_ > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 16);
    const auto topic = [&](const char* name, const dds_topic_descriptor_t* d) {
      const dds_entity_t t = dds_create_topic(participant_, d, name, nullptr, nullptr);
      REQUIRE(t > 0);
      return t;
    };
    joints_ = dds_create_writer(participant_, topic("groupbot/joint_state", &praxis_test_State_desc), qos, nullptr);
    health_ = dds_create_writer(participant_, topic("groupbot/motor_health", &praxis_test_Motor_desc), qos, nullptr);
    legs_ = dds_create_reader(participant_, topic("groupbot/legs/cmd", &praxis_test_State_desc), qos, nullptr);
    arms_ = dds_create_reader(participant_, topic("groupbot/arms/cmd", &praxis_test_State_desc), qos, nullptr);
    dds_delete_qos(qos);
    REQUIRE((joints_ > 0 && health_ > 0 && legs_ > 0 && arms_ > 0));
  }
  ~RawPeer() { dds_delete(participant_); }
  RawPeer(const RawPeer&) = delete;
  RawPeer& operator=(const RawPeer&) = delete;

  void wait_matched() {
    const auto deadline = praxis::Clock::now() + 5s;
    const auto matched = [](dds_entity_t e, bool writer) {
      if (writer) {
        dds_publication_matched_status_t s{};
        dds_get_publication_matched_status(e, &s);
        return s.current_count;
      }
      dds_subscription_matched_status_t s{};
      dds_get_subscription_matched_status(e, &s);
      return s.current_count;
    };
    while (praxis::Clock::now() < deadline && (matched(joints_, true) == 0 || matched(health_, true) == 0 ||
                                               matched(legs_, false) == 0 || matched(arms_, false) == 0)) {
      std::this_thread::sleep_for(5ms);
    }
    REQUIRE(matched(joints_, true) == 1);
    REQUIRE(matched(legs_, false) == 1);
    REQUIRE(matched(arms_, false) == 1);
  }

  void send_joints(const char* group, std::array<double, 2> q) {
    std::array<char, 16> name{};
    std::strncpy(name.data(), group, name.size() - 1);
    praxis_test_Group g{};
    g.name = name.data();
    g.position = {2, 2, q.data(), false};
    std::array<char, 1> frame{};
    praxis_test_State s{};
    s.frame_id = frame.data();
    s.groups = {1, 1, &g, false};
    REQUIRE(dds_write(joints_, &s) == DDS_RETCODE_OK);
  }
  void send_health(praxis_test_Motor m) { REQUIRE(dds_write(health_, &m) == DDS_RETCODE_OK); }

  // The newest command on a limb topic within `timeout`: group name and positions.
  bool take(bool legs, std::string& group, std::array<double, 2>& q, praxis::Duration timeout = 2s) {
    const auto deadline = praxis::Clock::now() + timeout;
    while (praxis::Clock::now() < deadline) {
      void* samples[1] = {nullptr};
      dds_sample_info_t info[1];
      const dds_return_t n = dds_take(legs ? legs_ : arms_, samples, info, 1, 1);
      if (n > 0) {
        const auto* s = static_cast<const praxis_test_State*>(samples[0]);
        const bool ok = info[0].valid_data && s->groups._length == 1 && s->groups._buffer[0].position._length == 2;
        if (ok) {
          group = s->groups._buffer[0].name;
          q = {s->groups._buffer[0].position._buffer[0], s->groups._buffer[0].position._buffer[1]};
        }
        dds_return_loan(legs ? legs_ : arms_, samples, n);
        if (ok) return true;
      }
      std::this_thread::sleep_for(1ms);
    }
    return false;
  }

 private:
  dds_entity_t participant_ = 0, joints_ = 0, health_ = 0, legs_ = 0, arms_ = 0;
};

template <class F>
bool eventually(F&& f, praxis::Duration timeout = 3s) {
  const auto deadline = praxis::Clock::now() + timeout;
  while (praxis::Clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}
}  // namespace

TEST_CASE("generic DDS backend over Cyclone: sequence states in, per-limb sequence commands out, against a raw peer",
          "[hardware][dds_backend][dds]") {
  GroupBotTopics::Options options;
  options.dds = {domain(1), "lo"};
  DdsBot robot(options);
  RawPeer peer(domain(1));
  peer.wait_matched();
  praxis::RobotState<N> state{};

  peer.send_health({2, 0.0f, 55.0f, 0});
  // Start-up waits for a valid state: a rejected one does not end the wait.
  peer.send_joints("tail", {1, 2});
  CHECK_FALSE(robot.wait_for_state(200ms).ok);
  peer.send_joints("legs", {0.7, 0.8});
  const auto wait = robot.wait_for_state(3s);
  REQUIRE(wait.ok);
  REQUIRE(robot.read(state, praxis::Clock::now()));  // the state start-up found is handed out
  CHECK(state.q[0] == 0.7);
  CHECK(state.q[1] == 0.8);
  REQUIRE(eventually([&] {
    robot.read(state, praxis::Clock::now());
    return robot.states_accepted<1>() == 1;
  }));
  CHECK(state.health[2].temperature == Approx(55.0));
  CHECK(state.health[2].ok());

  CHECK(robot.states_rejected<0>() == 1);  // the one during start-up
  peer.send_joints("tail", {1, 2});  // not a group of this robot: rejected whole
  REQUIRE(eventually([&] {
    robot.read(state, praxis::Clock::now());
    return robot.states_rejected<0>() == 2;
  }));
  CHECK(state.q[0] == 0.7);

  robot.write(command_on({2, 3}, 0.5), praxis::Clock::now());
  std::string group;
  std::array<double, 2> q{};
  REQUIRE(peer.take(false, group, q));
  CHECK(group == "arms");
  CHECK(q[0] == 2.5);
  CHECK(q[1] == 3.5);
  CHECK_FALSE(peer.take(true, group, q, 100ms));  // nothing for the legs

  robot.write(command_on({0, 1, 2, 3}, 0.0), praxis::Clock::now());
  REQUIRE(peer.take(true, group, q));
  CHECK(group == "legs");
  CHECK(q[1] == 1.0);
  REQUIRE(peer.take(false, group, q));
  CHECK(q[0] == 2.0);
  praxis::LinkHealth link;
  robot.read_link(link);
  CHECK(link.commands_sent == 3);
  CHECK(link.send_errors == 0);
}

}  // namespace dds_backend_test
