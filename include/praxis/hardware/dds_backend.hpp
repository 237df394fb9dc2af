#pragma once
// DdsBackend<Vendor, Transport>: one backend for every robot that speaks DDS. A vendor is a model,
// a codec and a topic table (topic_table.hpp); the vendor's backend class adds only what is its own
// (taking control, modes, status), usually by deriving from this one:
//
//   struct MyRobot {
//     using model = MyModel;                         // joint table, poses, gains
//     struct Options { transport::DdsOptions dds; Duration link_timeout; ... };
//     struct Context { explicit Context(const Options&); ... };   // or default-constructible
//     static constexpr JointModeSet joint_modes{JointMode::position};
//     static auto state_topics(const Options&);     // std::tuple of StateTopic / DecodedStateTopic,
//                                                   // the first one primary
//     static auto command_topics(const Options&);   // std::tuple of CommandTopic / EncodedCommandTopic
//   };
//   praxis::DdsBackend<MyRobot> robot(options);
//
// read() takes what arrived on every state topic, decodes it into one assembled RobotState and
// hands that out when the primary topic brought a new sample. write() encodes the command for every
// command topic and sends those whose encoder had something to say — and nothing at all before the
// first valid state arrived, or while the robot has been silent for silence_cutoff() (1 s). Neither blocks or allocates:
// samples reach lock-free mailboxes on Cyclone's thread (sequence topics are decoded into their
// fixed-size value there), and sequence commands point into storage lent once.
// Transport: transport::DdsTransport, or transport::LoopbackTransport in tests (where a decoded topic's
// peer publishes the fixed-size value itself).

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_decoding_subscriber.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"
#include "praxis/transport/loopback.hpp"
#include "praxis/transport/stamped.hpp"

namespace praxis {

// How every DDS backend's acquire() says that nothing usable came: "no valid state on rt/lowstate
// within 500 ms (domain 0, interface "eth0")"; the caller appends what it knows more.
[[nodiscard]] inline std::string no_valid_sample_text(std::string_view what, std::string_view topic, Duration timeout,
                                                      const transport::DdsOptions& dds) {
  return "no valid " + std::string(what) + " on " + std::string(topic) + " within " + std::to_string(to_ms(timeout)) +
         " ms (domain " + std::to_string(dds.domain) + ", interface \"" + dds.interface + "\")";
}

template <class V>
concept DdsVendor =
    requires { typename V::model; typename V::Options; typename V::Context; } && RobotModel<typename V::model> &&
    requires(const typename V::Options& o) {
      { o.dds } -> std::convertible_to<transport::DdsOptions>;
      { o.link_timeout } -> std::convertible_to<Duration>;
      V::state_topics(o);
      V::command_topics(o);
      { V::joint_modes } -> std::convertible_to<JointModeSet>;
    } &&
    (std::is_default_constructible_v<typename V::Context> ||
     std::is_constructible_v<typename V::Context, const typename V::Options&>);

namespace detail {

template <class Transport, class Topic>
struct topic_reader {
  using type = typename Transport::template Subscriber<typename Topic::value_type>;
  static std::unique_ptr<type> make(typename Transport::Context& c, const Topic& t) {
    return std::make_unique<type>(c, t.name, t.descriptor, t.qos);
  }
};
template <class Topic>
  requires HasWireType<Topic>
struct topic_reader<transport::DdsTransport, Topic> {
  using type = transport::DecodingSubscriber<typename Topic::wire_type, typename Topic::value_type, typename Topic::ToValue>;
  static std::unique_ptr<type> make(transport::Participant& c, const Topic& t) {
    return std::make_unique<type>(c, t.name, t.descriptor, t.to_value, t.qos);
  }
};

template <class Transport, class Topic>
struct topic_writer {
  using type = typename Transport::template Publisher<typename Topic::value_type>;
  static std::unique_ptr<type> make(typename Transport::Context& c, Topic& t) {
    return std::make_unique<type>(c, t.name, t.descriptor, t.qos);
  }
};
template <class Topic>
  requires HasWireType<Topic>
struct topic_writer<transport::DdsTransport, Topic> {
  using type = transport::EncodingPublisher<typename Topic::wire_type, typename Topic::value_type,
                                      typename Topic::to_wire_type>;
  static std::unique_ptr<type> make(transport::Participant& c, Topic& t) {
    return std::make_unique<type>(c, t.name, t.descriptor, std::move(t.to_wire), t.qos);
  }
};

template <class Transport, class Topic>
struct StateSlot {
  using Reader = typename topic_reader<Transport, Topic>::type;
  StateSlot(typename Transport::Context& c, Topic t)
      : topic(std::move(t)), reader(topic_reader<Transport, Topic>::make(c, topic)) {}
  Topic topic;
  std::unique_ptr<Reader> reader;
  transport::Stamped<typename Topic::value_type> incoming{};
  std::atomic<std::uint64_t> accepted{0}, rejected{0};
};

template <class Transport, class Topic>
struct CommandSlot {
  using Writer = typename topic_writer<Transport, Topic>::type;
  CommandSlot(typename Transport::Context& c, Topic t)
      : topic(std::move(t)), writer(topic_writer<Transport, Topic>::make(c, topic)) {}
  Topic topic;
  std::unique_ptr<Writer> writer;
  typename Topic::value_type outgoing{};
  std::atomic<std::uint64_t> sent{0}, skipped{0}, failed{0};
};

template <class Transport, template <class, class> class Slot, class Table>
struct slots_of;
template <class Transport, template <class, class> class Slot, class... Topic>
struct slots_of<Transport, Slot, std::tuple<Topic...>> {
  using type = std::tuple<std::unique_ptr<Slot<Transport, Topic>>...>;
};

}  // namespace detail

template <DdsVendor V, class Transport = transport::DdsTransport>
class DdsBackend {
 public:
  using vendor = V;
  using model = typename V::model;
  using Options = typename V::Options;
  using Context = typename V::Context;
  static constexpr std::size_t N = model::joint_count;
  static constexpr JointModeSet joint_modes = V::joint_modes;

 private:
  using StateTable = std::remove_cvref_t<decltype(V::state_topics(std::declval<const Options&>()))>;
  using CommandTable = std::remove_cvref_t<decltype(V::command_topics(std::declval<const Options&>()))>;
  static_assert(std::tuple_size_v<StateTable> >= 1,
                "praxis::DdsBackend: the vendor's state_topics() names no topic; the first one is the primary "
                "state topic (its samples make a new state)");
  static constexpr std::size_t k_state_topics = std::tuple_size_v<StateTable>;
  static constexpr std::size_t k_command_topics = std::tuple_size_v<CommandTable>;

 public:
  // On a DDS participant of its own, made from options.dds.
  explicit DdsBackend(Options options)
    requires std::is_same_v<Transport, transport::DdsTransport>
      : options_(std::move(options)),
        owned_transport_(std::make_unique<transport::Participant>(options_.dds)),
        transport_(owned_transport_.get()),
        context_(make_context(options_)) {
    make_slots();
  }
  // On a participant (or loopback bus) owned elsewhere.
  DdsBackend(typename Transport::Context& transport, Options options)
      : options_(std::move(options)), transport_(&transport), context_(make_context(options_)) {
    make_slots();
  }
  DdsBackend(const DdsBackend&) = delete;
  DdsBackend& operator=(const DdsBackend&) = delete;

  // ---- Backend ----

  bool read(RobotState<N>& out, TimePoint) {
    bool fresh = std::exchange(pending_, false);
    [&]<std::size_t... I>(std::index_sequence<I...>) { (take_state<I>(fresh), ...); }
    (std::make_index_sequence<k_state_topics>{});
    if (!fresh) return false;
    // Judged once every topic's latest sample is in: a check across topics made while decoding the
    // primary one would see the others' samples of the previous read (topic_table.hpp).
    if constexpr (requires { V::complete_state(assembled_.stamp, assembled_, context_); }) {
      V::complete_state(assembled_.stamp, assembled_, context_);
    }
    out = assembled_;
    return true;
  }

  void write(const JointCommand<N>& command, TimePoint now) {
    // Nothing is sent before the robot sent one valid state: a command computed without one is a
    // guess (even damping holds positions nobody measured), and some robots reject it anyway.
    if (!have_state_.load(std::memory_order_acquire)) {
      commands_before_state_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    if (!robot_heard()) {
      commands_while_silent_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    [&]<std::size_t... I>(std::index_sequence<I...>) { (send_command<I>(command, now), ...); }
    (std::make_index_sequence<k_command_topics>{});
  }

  // State-triggered control: notified after each new sample of the primary state topic.
  void set_wakeup(Wakeup* wakeup) { std::get<0>(states_)->reader->set_wakeup(wakeup); }

  // ---- health ----

  // Link health as RobotStatus reports it: states accepted and rejected over all state topics,
  // command messages sent and failed, and whether the primary topic spoke within link_timeout.
  void read_link(LinkHealth& out) const {
    out = {};
    for_each_state([&](const auto& s) {
      out.states_received += s.accepted.load(std::memory_order_relaxed);
      out.states_rejected += s.rejected.load(std::memory_order_relaxed);
    });
    for_each_command([&](const auto& c) {
      out.commands_sent += c.sent.load(std::memory_order_relaxed);
      out.send_errors += c.failed.load(std::memory_order_relaxed);
    });
    const auto last = last_state_ns_.load(std::memory_order_relaxed);
    out.connected = last != 0 && Clock::now().time_since_epoch() - Duration(last) <= options_.link_timeout;
  }

  // What waiting for the first state found.
  struct StateWait {
    bool ok = false;            // a valid state arrived
    std::uint64_t invalid = 0;  // samples rejected while waiting (CRC, decode, non-finite values)
  };

  // Waits until the primary state topic delivered a VALID sample (one its decoder accepted) or
  // `timeout` passed; for start-up (a backend's acquire()), before the loop reads. The state it
  // found is what the next read() hands out.
  StateWait wait_for_state(Duration timeout) {
    const auto deadline = Clock::now() + timeout;
    const auto rejected_before = states_rejected<0>();
    RobotState<N> scratch{};
    for (;;) {
      if (read(scratch, Clock::now())) {
        pending_ = true;
        return {true, states_rejected<0>() - rejected_before};
      }
      if (Clock::now() >= deadline) return {false, states_rejected<0>() - rejected_before};
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  // For a start-up that found no state: writers on the network whose topic resembles the primary
  // state topic's (another type name, another prefix), and `fix`, the options that set those names;
  // empty when none was seen (or the transport is not DDS). Not for the cycle: it allocates.
  [[nodiscard]] std::string state_near_misses(std::string_view fix) const {
    if constexpr (std::is_same_v<Transport, transport::DdsTransport>) {
      const auto& topic = std::get<0>(states_)->topic;
      const std::string type = topic.descriptor != nullptr ? topic.descriptor->m_typename : "";
      return transport::near_misses(transport::discovered_writers(*transport_), topic.name, type, fix);
    } else {
      (void)fix;
      return {};
    }
  }

  // Whether a valid state arrived (commands are sent only after one), and commands not sent before.
  [[nodiscard]] bool have_state() const { return have_state_.load(std::memory_order_acquire); }
  [[nodiscard]] std::uint64_t commands_before_state() const {
    return commands_before_state_.load(std::memory_order_relaxed);
  }
  // Commands not sent because the robot had been silent longer than silence_cutoff().
  [[nodiscard]] std::uint64_t commands_while_silent() const {
    return commands_while_silent_.load(std::memory_order_relaxed);
  }
  // How long the primary state topic may be silent before write() sends nothing: the vendor's
  // Options::silence_cutoff where it has one, else k_silence_cutoff. A robot boots in seconds, far
  // longer than either.
  static constexpr Duration k_silence_cutoff = std::chrono::seconds(1);
  [[nodiscard]] Duration silence_cutoff() const {
    if constexpr (requires { { options_.silence_cutoff } -> std::convertible_to<Duration>; }) {
      return options_.silence_cutoff;
    } else {
      return k_silence_cutoff;
    }
  }

  // ---- per topic, in table order ----
  template <std::size_t I>
  [[nodiscard]] std::uint64_t states_accepted() const {
    return std::get<I>(states_)->accepted.load(std::memory_order_relaxed);
  }
  template <std::size_t I>
  [[nodiscard]] std::uint64_t states_rejected() const {
    return std::get<I>(states_)->rejected.load(std::memory_order_relaxed);
  }
  template <std::size_t I>
  [[nodiscard]] std::uint64_t commands_sent() const {
    return std::get<I>(commands_)->sent.load(std::memory_order_relaxed);
  }
  // Commands the topic's encoder declined (not its joints, or the robot not ready for it).
  template <std::size_t I>
  [[nodiscard]] std::uint64_t commands_skipped() const {
    return std::get<I>(commands_)->skipped.load(std::memory_order_relaxed);
  }
  template <std::size_t I>
  [[nodiscard]] const auto& state_reader() const {
    return *std::get<I>(states_)->reader;
  }
  template <std::size_t I>
  [[nodiscard]] const auto& command_writer() const {
    return *std::get<I>(commands_)->writer;
  }

  [[nodiscard]] Context& codec_context() { return context_; }
  [[nodiscard]] const Context& codec_context() const { return context_; }
  [[nodiscard]] const Options& options() const { return options_; }
  [[nodiscard]] typename Transport::Context& context() const { return *transport_; }

 private:
  static Context make_context(const Options& o) {
    if constexpr (std::is_constructible_v<Context, const Options&>) {
      return Context(o);
    } else {
      return Context{};
    }
  }

  void make_slots() {
    auto states = V::state_topics(options_);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(states_) = std::make_unique<typename std::tuple_element_t<I, StateSlots>::element_type>(
            *transport_, std::move(std::get<I>(states)))),
       ...);
    }
    (std::make_index_sequence<k_state_topics>{});
    auto commands = V::command_topics(options_);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(commands_) = std::make_unique<typename std::tuple_element_t<I, CommandSlots>::element_type>(
            *transport_, std::move(std::get<I>(commands)))),
       ...);
    }
    (std::make_index_sequence<k_command_topics>{});
  }

  // Whether write() may send: nothing to a robot from which no sample arrived (judged or not: a
  // stalled control thread that reads nothing must still reach a live robot) for silence_cutoff().
  // A robot that restarts hears praxis before praxis hears it: after such a silence nothing is sent
  // until read() has judged one of its new states (a Unitree's tick going back says it restarted).
  // The safe state's first frames still go out: the runtime sees the state stale long before this.
  // write() runs on one thread at a time (the control thread, or the runtime's send thread).
  bool robot_heard() {
    const auto now = Clock::now();
    const auto arrived = std::get<0>(states_)->reader->received();
    if (arrived != heard_count_) {
      heard_count_ = arrived;
      heard_at_ = now;
    }
    if (now - heard_at_ > silence_cutoff()) {
      silent_ = true;
      judged_before_return_ = std::get<0>(states_)->accepted.load(std::memory_order_acquire);
      return false;
    }
    // acquire: what the decoder stored while judging it (a restart) is seen by the encoders.
    if (silent_ && std::get<0>(states_)->accepted.load(std::memory_order_acquire) > judged_before_return_) {
      silent_ = false;
    }
    return !silent_;
  }

  template <std::size_t I>
  void take_state(bool& fresh) {
    auto& slot = *std::get<I>(states_);
    if (!slot.reader->fetch(slot.incoming)) return;
    if (!slot.topic.decode(slot.incoming.message, slot.incoming.received, assembled_, context_)) {
      slot.rejected.fetch_add(1, std::memory_order_relaxed);  // dropped, never used
      return;
    }
    slot.accepted.fetch_add(1, std::memory_order_release);  // after the decoder's judgement (robot_heard)
    if constexpr (I == 0) {
      have_state_.store(true, std::memory_order_release);
      assembled_.stamp = slot.incoming.received;
      last_state_ns_.store(slot.incoming.received.time_since_epoch().count(), std::memory_order_relaxed);
      fresh = true;
    }
  }

  template <std::size_t I>
  void send_command(const JointCommand<N>& command, TimePoint now) {
    auto& slot = *std::get<I>(commands_);
    if (!slot.topic.encode(command, now, context_, slot.outgoing)) {
      slot.skipped.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    if (slot.writer->write(slot.outgoing)) {
      slot.sent.fetch_add(1, std::memory_order_relaxed);
    } else {
      slot.failed.fetch_add(1, std::memory_order_relaxed);
    }
  }

  template <class F>
  void for_each_state(F&& f) const {
    std::apply([&](const auto&... s) { (f(*s), ...); }, states_);
  }
  template <class F>
  void for_each_command(F&& f) const {
    std::apply([&](const auto&... c) { (f(*c), ...); }, commands_);
  }

  using StateSlots = typename detail::slots_of<Transport, detail::StateSlot, StateTable>::type;
  using CommandSlots = typename detail::slots_of<Transport, detail::CommandSlot, CommandTable>::type;

  Options options_;
  std::unique_ptr<typename Transport::Context> owned_transport_;
  typename Transport::Context* transport_;
  Context context_;
  StateSlots states_;
  CommandSlots commands_;
  RobotState<N> assembled_{};  // reader side: what every state topic said last
  bool pending_ = false;        // reader side: wait_for_state() found a state read() has not handed out
  std::atomic<Duration::rep> last_state_ns_{0};
  std::atomic<bool> have_state_{false};
  std::atomic<std::uint64_t> commands_before_state_{0};
  std::atomic<std::uint64_t> commands_while_silent_{0};
  // write()'s side (robot_heard): the primary topic's arrivals last seen, and when.
  std::uint64_t heard_count_ = 0;
  TimePoint heard_at_ = Clock::now();
  bool silent_ = false;
  std::uint64_t judged_before_return_ = 0;
};

}  // namespace praxis
