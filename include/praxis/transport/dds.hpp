#pragma once
// Eclipse Cyclone DDS (the C API of Debian's cyclonedds-dev), wrapped for praxis:
//   Participant   one DDS domain participant, with the network interface chosen the way the vendor
//                 SDKs do it (a Cyclone XML configuration naming the interface), merged with the
//                 user's own Cyclone configuration (CYCLONEDDS_URI), whose values win
//   Publisher<T>  writes samples of an idlc-generated C type
//   Subscriber<T> delivers into a lock-free latest-value mailbox with the receive time, from
//                 Cyclone's listener thread, so a control thread reading it never waits; an optional
//                 Wakeup is notified after each new value (state-triggered control)
// T must be a fixed-size (trivially copyable) generated type. Types with sequences or strings:
// dds_decoding_subscriber.hpp and dds_encoding_publisher.hpp; the RPC envelope: rpc.hpp.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <dds/dds.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/transport/stamped.hpp"

namespace praxis::transport {

class DdsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DdsOptions {
  std::uint32_t domain = 0;  // Unitree: 0 on the robot, 1 in their simulator
  std::string interface;     // e.g. "eth0" or "lo"; empty: let Cyclone choose
};

// Cyclone's discovery tag, from this environment variable: participants only see peers with the
// same tag, so two setups on one network (or two test runs on one machine) can share domain ids
// without hearing each other. Unset or empty: no tag, as vendor robots and SDKs have none. An
// environment variable rather than a DdsOptions field so that every participant of a process and
// of the processes it starts (fake robots, simulators) agrees; the test suites set it per process.
inline constexpr const char* k_discovery_tag_env = "PRAXIS_DDS_TAG";

// The value of PRAXIS_DDS_TAG, or empty.
std::string discovery_tag();

// praxis' own Cyclone XML configuration: the interface (what the vendor SDKs generate), plus the
// discovery tag (`tag`, normally discovery_tag()) when there is one; a participant merges the
// user's CYCLONEDDS_URI after it (merged_cyclone_config). Throws DdsError for a tag or interface
// name that cannot be written into XML as it is.
std::string cyclone_config(const DdsOptions& options, const std::string& tag = discovery_tag());

// Cyclone's own configuration variable: a comma-separated list of files (a path, or `file://` and a
// path) and inline XML, later entries overriding earlier ones. Cyclone reads it only for the domains
// it creates by itself; praxis creates its domains with a configuration of its own, which would
// leave the variable unread, so praxis merges it in (merged_cyclone_config).
inline constexpr const char* k_cyclone_uri_env = "CYCLONEDDS_URI";

// One setting praxis makes, as it is in effect after the merge.
struct CycloneSetting {
  std::string value;         // in effect; empty: no discovery tag, or the interface left to Cyclone
  std::string praxis_value;  // what praxis alone sets (DdsOptions::interface, PRAXIS_DDS_TAG)
  std::string user_source;   // the CYCLONEDDS_URI entries that set it, e.g. `file "/etc/dds.xml"`; empty: praxis'
  [[nodiscard]] bool from_user() const { return !user_source.empty(); }
};

// What a participant hands to Cyclone, and what is in effect.
struct CycloneConfig {
  std::string xml;                        // for dds_create_domain: praxis' XML, then CYCLONEDDS_URI's entries
  std::string user_uri;                   // CYCLONEDDS_URI as found; empty: unset
  std::vector<std::string> user_sources;  // its entries: `file "<path>"` or `inline XML`
  CycloneSetting interface;               // a name, `address <ip>`, or several joined by ", "
  CycloneSetting tag;
  // One line for a log: each setting in effect and where it came from.
  [[nodiscard]] std::string describe() const;
};

// praxis' settings (the interface of `options`, the discovery tag `tag`) merged with the user's
// Cyclone configuration `user_uri` (CYCLONEDDS_URI's value; empty: none), the user's values winning
// where both set one. Cyclone itself lets a later entry override an earlier one for single values
// (the tag), but adds up lists: the network interfaces of both would all be used, so praxis leaves
// its interface out when the user's configuration names any for this domain. Every entry of
// `user_uri` is read here, so that a file that cannot be read or is not well-formed XML is a
// DdsError naming CYCLONEDDS_URI and the file rather than an unexplained failure of Cyclone's.
CycloneConfig merged_cyclone_config(const DdsOptions& options, const std::string& tag, std::string_view user_uri);
// The same with PRAXIS_DDS_TAG and CYCLONEDDS_URI from the environment.
CycloneConfig merged_cyclone_config(const DdsOptions& options);

// The descriptor of an idlc-generated type under another DDS type name: for vendors whose literal
// type names are not known for sure (the name must match the peer's for topics to connect). The
// copy lives as long as the process; asking again for the same pair returns the same copy. An
// empty name, or the descriptor's own, returns `descriptor` itself.
const dds_topic_descriptor_t* with_type_name(const dds_topic_descriptor_t* descriptor, std::string_view type_name);


class Participant {
 public:
  // Merges CYCLONEDDS_URI in (merged_cyclone_config). When the variable is set, one line on stderr
  // says which interface and tag are in effect and where each came from, since a value the user's
  // file changed is otherwise invisible in what praxis reports.
  explicit Participant(const DdsOptions& options);
  ~Participant();
  Participant(const Participant&) = delete;
  Participant& operator=(const Participant&) = delete;
  [[nodiscard]] dds_entity_t handle() const { return participant_; }
  [[nodiscard]] const DdsOptions& options() const { return options_; }
  // The configuration this participant asked Cyclone for. When its domain existed in this process
  // already, the domain keeps the configuration it was created with.
  [[nodiscard]] const CycloneConfig& config() const { return config_; }

 private:
  DdsOptions options_;
  CycloneConfig config_;
  dds_entity_t domain_ = 0;
  dds_entity_t participant_ = 0;
};

// Unset fields keep Cyclone's defaults (what the vendor SDKs that pass no QoS get).
struct TopicQos {
  std::optional<bool> reliable;
  std::optional<std::int32_t> depth;  // keep last <depth>
  bool transient_local = false;
};

namespace detail {
dds_entity_t create_topic(const Participant& p, std::string_view name, const dds_topic_descriptor_t* descriptor);
dds_qos_t* make_qos(const TopicQos& q);
[[noreturn]] void fail(std::string_view what, std::string_view topic, dds_return_t rc);
}  // namespace detail

template <class T>
class Publisher {
  static_assert(std::is_trivially_copyable_v<T>, "praxis::transport::Publisher<T>: T must be a fixed-size generated type");

 public:
  Publisher(const Participant& participant, std::string_view topic, const dds_topic_descriptor_t* descriptor,
            TopicQos qos = {})
      : topic_name_(topic) {
    topic_ = detail::create_topic(participant, topic, descriptor);
    dds_qos_t* q = detail::make_qos(qos);
    writer_ = dds_create_writer(participant.handle(), topic_, q, nullptr);
    dds_delete_qos(q);
    if (writer_ < 0) detail::fail("cannot create a writer", topic_name_, writer_);
  }
  ~Publisher() {
    if (writer_ > 0) dds_delete(writer_);
  }
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  bool write(const T& sample) { return dds_write(writer_, &sample) == DDS_RETCODE_OK; }

  // Readers currently matched (same topic, type and compatible QoS).
  [[nodiscard]] std::uint32_t matched() const {
    dds_publication_matched_status_t s{};
    dds_get_publication_matched_status(writer_, &s);
    return s.current_count;
  }

 private:
  std::string topic_name_;
  dds_entity_t topic_ = 0;
  dds_entity_t writer_ = 0;
};

template <class T>
class Subscriber {
  static_assert(std::is_trivially_copyable_v<T>, "praxis::transport::Subscriber<T>: T must be a fixed-size generated type");

 public:
  Subscriber(const Participant& participant, std::string_view topic, const dds_topic_descriptor_t* descriptor,
             TopicQos qos = {})
      : topic_name_(topic) {
    topic_ = detail::create_topic(participant, topic, descriptor);
    dds_qos_t* q = detail::make_qos(qos);
    dds_listener_t* listener = dds_create_listener(this);
    dds_lset_data_available(listener, &Subscriber::on_data_available);
    reader_ = dds_create_reader(participant.handle(), topic_, q, listener);
    dds_delete_listener(listener);
    dds_delete_qos(q);
    if (reader_ < 0) detail::fail("cannot create a reader", topic_name_, reader_);
  }
  ~Subscriber() {
    if (reader_ > 0) dds_delete(reader_);  // waits for a running listener call to end
  }
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  // The newest message not fetched yet; false if nothing new arrived. Never blocks.
  bool fetch(transport::Stamped<T>& out) {
    if (!mailbox_.fetch()) return false;
    std::memcpy(&out, &mailbox_.value(), sizeof out);  // bytes, padding included (see on_data_available)
    return true;
  }
  [[nodiscard]] std::uint64_t received() const { return received_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint32_t matched() const {
    dds_subscription_matched_status_t s{};
    dds_get_subscription_matched_status(reader_, &s);
    return s.current_count;
  }

  // `wakeup` (or nobody, with nullptr) is notified after each new value reaches the mailbox, from
  // Cyclone's listener thread. It must outlive this subscriber or be replaced before it dies.
  void set_wakeup(Wakeup* wakeup) { wakeup_.store(wakeup, std::memory_order_release); }

 private:
  // Cyclone calls this on its receive thread, one call at a time per reader.
  //
  // The sample memory is zeroed before each take and copied as bytes afterwards: Cyclone writes only
  // the members, so the padding stays zero, which checksums over the C struct image (Unitree's CRC)
  // depend on; a member-wise struct copy would be free to leave padding undefined.
  static void on_data_available(dds_entity_t reader, void* arg) {
    auto* self = static_cast<Subscriber*>(arg);
    auto& slot = self->mailbox_.back();
    T sample;
    void* samples[1] = {&sample};
    dds_sample_info_t info[1];
    bool got = false;
    for (;;) {
      std::memset(&sample, 0, sizeof sample);
      if (dds_take(reader, samples, info, 1, 1) <= 0) break;
      if (!info[0].valid_data) continue;  // e.g. a writer that went away
      std::memcpy(&slot.message, &sample, sizeof sample);
      got = true;
      self->received_.fetch_add(1, std::memory_order_relaxed);
    }
    if (!got) return;
    slot.received = Clock::now();
    slot.count = self->received_.load(std::memory_order_relaxed);
    self->mailbox_.publish();
    if (Wakeup* w = self->wakeup_.load(std::memory_order_acquire)) w->notify();
  }

  std::string topic_name_;
  dds_entity_t topic_ = 0;
  dds_entity_t reader_ = 0;
  LatestValue<transport::Stamped<T>> mailbox_;
  std::atomic<std::uint64_t> received_{0};
  std::atomic<Wakeup*> wakeup_{nullptr};
};

// A writer this participant has discovered (Cyclone's DCPSPublication built-in topic).
struct DiscoveredWriter {
  std::string topic;
  std::string type;
};
// Every writer discovered so far, local ones included. For start-up diagnostics, not for the cycle.
std::vector<DiscoveredWriter> discovered_writers(const Participant& participant);

// Why nothing arrives on `topic` when something like it is on the network: writers of the same
// topic with another type name, and writers of a topic with the same last path element under
// another prefix ("gr2/SN7/aurora_state" for "aurora_state", "rt/lowstate" for "lowstate"), each
// named with its type; `fix` (the options that set names) is appended. Empty when none was seen.
std::string near_misses(const std::vector<DiscoveredWriter>& writers, std::string_view topic, std::string_view type,
                        std::string_view fix);

// The transport policy form: what a backend templated on its transport needs.
struct DdsTransport {
  using Context = Participant;
  template <class T>
  using Publisher = transport::Publisher<T>;
  template <class T>
  using Subscriber = transport::Subscriber<T>;
};

}  // namespace praxis::transport
