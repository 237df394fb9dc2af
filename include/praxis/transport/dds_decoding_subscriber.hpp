#pragma once
// DecodingSubscriber<T, Value, Decoder>: receives an idlc-generated type of any shape (sequences,
// strings, nested structs) and hands the control side a fixed-size Value.
//
// On Cyclone's listener thread each sample is taken by loan (dds_take with a null sample pointer:
// Cyclone deserialises into a buffer it keeps for this reader), decoded into the back slot of a
// lock-free latest-value mailbox, and the loan is returned. The control side's fetch() copies a
// trivially copyable Value and never allocates, locks or waits. The sample's sequence and string
// contents are Cyclone's (allocated and freed by its deserialiser, on its thread, never on the
// control thread).
//
// The decoder is called as decoder(const T& sample, Value& out) and returns one of
//   void          every sample is accepted
//   bool          false rejects the sample
//   const char*   nullptr accepts; otherwise the reason it was rejected (a string literal)
// `out` holds an older value on entry: the decoder sets every field it wants the control side to
// see. A rejected sample is counted and never reaches the mailbox, whatever the decoder left in
// `out`. Decoders must not throw; one that does rejects the sample.

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <dds/dds.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/stamped.hpp"

namespace praxis::transport {

template <class T, class Value, class Decoder = bool (*)(const T&, Value&)>
class DecodingSubscriber {
  static_assert(std::is_trivially_copyable_v<Value>,
                "praxis::transport::DecodingSubscriber<T, Value, Decoder>: Value must be trivially copyable (fixed-size "
                "arrays, BoundedSequence, BoundedString), so the control side copies it without allocating");
  static_assert(std::is_invocable_v<Decoder&, const T&, Value&>,
                "praxis::transport::DecodingSubscriber<T, Value, Decoder>: the decoder must be callable as "
                "decoder(const T& sample, Value& out)");
  using DecodeResult = std::invoke_result_t<Decoder&, const T&, Value&>;
  static_assert(std::is_void_v<DecodeResult> || std::is_same_v<DecodeResult, bool> ||
                    std::is_convertible_v<DecodeResult, const char*>,
                "praxis::transport::DecodingSubscriber<T, Value, Decoder>: the decoder returns void, bool (false "
                "rejects) or const char* (nullptr accepts, otherwise the reason for rejecting)");

 public:
  DecodingSubscriber(const Participant& participant, std::string_view topic, const dds_topic_descriptor_t* descriptor,
                     Decoder decoder, TopicQos qos = {})
      : topic_name_(topic), decoder_(std::move(decoder)) {
    topic_ = detail::create_topic(participant, topic, descriptor);
    dds_qos_t* q = detail::make_qos(qos);
    dds_listener_t* listener = dds_create_listener(this);
    dds_lset_data_available(listener, &DecodingSubscriber::on_data_available);
    reader_ = dds_create_reader(participant.handle(), topic_, q, listener);
    dds_delete_listener(listener);
    dds_delete_qos(q);
    if (reader_ < 0) detail::fail("cannot create a reader", topic_name_, reader_);
  }
  ~DecodingSubscriber() {
    if (reader_ > 0) dds_delete(reader_);  // waits for a running listener call to end
  }
  DecodingSubscriber(const DecodingSubscriber&) = delete;
  DecodingSubscriber& operator=(const DecodingSubscriber&) = delete;

  // The newest accepted value not fetched yet; false if nothing new arrived. Never blocks or
  // allocates.
  bool fetch(transport::Stamped<Value>& out) {
    if (!mailbox_.fetch()) return false;
    out = mailbox_.value();
    return true;
  }

  // Samples with data taken so far, rejected ones included.
  [[nodiscard]] std::uint64_t received() const { return received_.load(std::memory_order_relaxed); }
  // Samples the decoder rejected (e.g. a sequence longer than the Value's capacity).
  [[nodiscard]] std::uint64_t rejected() const { return rejected_.load(std::memory_order_relaxed); }
  [[nodiscard]] const std::string& topic() const { return topic_name_; }
  [[nodiscard]] std::uint32_t matched() const {
    dds_subscription_matched_status_t s{};
    dds_get_subscription_matched_status(reader_, &s);
    return s.current_count;
  }

  // For a log line or an error, off the control thread: empty when nothing was rejected, otherwise
  // e.g. `topic "aurora/state": 3 of 120 samples rejected (last: values longer than 64)`.
  [[nodiscard]] std::string rejection_report() const {
    const auto n = rejected();
    if (n == 0) return {};
    const char* reason = last_reason_.load(std::memory_order_acquire);
    return "topic \"" + topic_name_ + "\": " + std::to_string(n) + " of " + std::to_string(received()) +
           " samples rejected (last: " + (reason != nullptr ? reason : "rejected by the decoder") + ")";
  }

  // `wakeup` (or nobody, with nullptr) is notified after each new value reaches the mailbox, from
  // Cyclone's listener thread. It must outlive this subscriber or be replaced before it dies.
  void set_wakeup(Wakeup* wakeup) { wakeup_.store(wakeup, std::memory_order_release); }

 private:
  static constexpr std::uint32_t k_batch = 8;

  // nullptr: accepted; otherwise why not.
  const char* decode(const T& sample, Value& out) noexcept {
    try {
      if constexpr (std::is_void_v<DecodeResult>) {
        decoder_(sample, out);
        return nullptr;
      } else if constexpr (std::is_same_v<DecodeResult, bool>) {
        return decoder_(sample, out) ? nullptr : "rejected by the decoder";
      } else {
        return static_cast<const char*>(decoder_(sample, out));
      }
    } catch (...) {
      return "the decoder threw";
    }
  }

  // Cyclone calls this on its receive thread, one call at a time per reader.
  static void on_data_available(dds_entity_t reader, void* arg) {
    auto* self = static_cast<DecodingSubscriber*>(arg);
    bool published = false;
    for (;;) {
      void* samples[k_batch] = {};  // a null first pointer asks Cyclone for its loan
      dds_sample_info_t info[k_batch];
      const dds_return_t n = dds_take(reader, samples, info, k_batch, k_batch);
      if (n <= 0) break;  // with nothing taken Cyclone has already returned the loan
      for (dds_return_t i = 0; i < n; ++i) {
        if (!info[i].valid_data) continue;  // e.g. a writer that went away
        const auto count = self->received_.fetch_add(1, std::memory_order_relaxed) + 1;
        auto& slot = self->mailbox_.back();
        if (const char* why = self->decode(*static_cast<const T*>(samples[i]), slot.message)) {
          self->last_reason_.store(why, std::memory_order_release);
          self->rejected_.fetch_add(1, std::memory_order_relaxed);
          continue;
        }
        slot.received = Clock::now();
        slot.count = count;
        self->mailbox_.publish();
        published = true;
      }
      dds_return_loan(reader, samples, n);
    }
    if (!published) return;
    if (Wakeup* w = self->wakeup_.load(std::memory_order_acquire)) w->notify();
  }

  std::string topic_name_;
  Decoder decoder_;
  dds_entity_t topic_ = 0;
  dds_entity_t reader_ = 0;
  LatestValue<transport::Stamped<Value>> mailbox_;
  std::atomic<std::uint64_t> received_{0};
  std::atomic<std::uint64_t> rejected_{0};
  std::atomic<const char*> last_reason_{nullptr};
  std::atomic<Wakeup*> wakeup_{nullptr};
};

// With a plain function as decoder, T and Value follow from its signature:
//   DecodingSubscriber states(participant, "topic", &Type_desc, &decode_state);
template <class T, class Value, class R>
DecodingSubscriber(const Participant&, std::string_view, const dds_topic_descriptor_t*, R (*)(const T&, Value&),
                   TopicQos = {}) -> DecodingSubscriber<T, Value, R (*)(const T&, Value&)>;

}  // namespace praxis::transport
