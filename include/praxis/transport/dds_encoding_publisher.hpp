#pragma once
// EncodingPublisher<T, Value, Encoder>: sends an idlc-generated type with sequences and strings
// from a fixed-size Value, without allocating in praxis code.
//
// The publisher owns one sample of T (zeroed at construction) and the encoder. The encoder, called
// as encoder(const Value& value, T& sample) and returning void or bool (false: do not send), fills
// the sample; its sequences and strings point at storage the encoder owns, allocated once when the
// encoder was made (see lend / lend_string in dds_sequence.hpp: _release = false, so Cyclone never
// frees it). write() therefore touches no heap on praxis' side; what Cyclone's serialiser does
// inside dds_write is Cyclone's (measured in tests/unit/transport/dds_sequence_test.cpp and noted in
// docs/transport.md). One thread writes at a time: the sample and the storage are shared by calls.

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <dds/dds.h>

#include "praxis/transport/dds.hpp"

namespace praxis::transport {

template <class T, class Value, class Encoder>
class EncodingPublisher {
  static_assert(std::is_invocable_v<Encoder&, const Value&, T&>,
                "praxis::transport::EncodingPublisher<T, Value, Encoder>: the encoder must be callable as "
                "encoder(const Value& value, T& sample)");
  using EncodeResult = std::invoke_result_t<Encoder&, const Value&, T&>;
  static_assert(std::is_void_v<EncodeResult> || std::is_same_v<EncodeResult, bool>,
                "praxis::transport::EncodingPublisher<T, Value, Encoder>: the encoder returns void or bool (false: the "
                "value does not fit the sample's storage, nothing is sent)");
  static_assert(std::is_trivially_copyable_v<T>, "praxis::transport::EncodingPublisher: T must be an idlc-generated C type");

 public:
  EncodingPublisher(const Participant& participant, std::string_view topic, const dds_topic_descriptor_t* descriptor,
                    Encoder encoder = {}, TopicQos qos = {})
      : topic_name_(topic), encoder_(std::move(encoder)) {
    topic_ = detail::create_topic(participant, topic, descriptor);
    dds_qos_t* q = detail::make_qos(qos);
    writer_ = dds_create_writer(participant.handle(), topic_, q, nullptr);
    dds_delete_qos(q);
    if (writer_ < 0) detail::fail("cannot create a writer", topic_name_, writer_);
  }
  ~EncodingPublisher() {
    if (writer_ > 0) dds_delete(writer_);
  }
  EncodingPublisher(const EncodingPublisher&) = delete;
  EncodingPublisher& operator=(const EncodingPublisher&) = delete;

  // Encodes `value` and writes it; false when the encoder refused it or Cyclone did not accept it.
  bool write(const Value& value) {
    if constexpr (std::is_same_v<EncodeResult, bool>) {
      if (!encoder_(value, sample_)) {
        ++refused_;
        return false;
      }
    } else {
      encoder_(value, sample_);
    }
    return dds_write(writer_, &sample_) == DDS_RETCODE_OK;
  }

  // Values the encoder refused (they did not fit its storage).
  [[nodiscard]] std::uint64_t refused() const { return refused_; }
  [[nodiscard]] const std::string& topic() const { return topic_name_; }
  [[nodiscard]] std::uint32_t matched() const {
    dds_publication_matched_status_t s{};
    dds_get_publication_matched_status(writer_, &s);
    return s.current_count;
  }
  // The last sample written (its pointers lead into the encoder's storage); for tests.
  [[nodiscard]] const T& sample() const { return sample_; }

 private:
  std::string topic_name_;
  Encoder encoder_;
  T sample_{};
  std::uint64_t refused_ = 0;
  dds_entity_t topic_ = 0;
  dds_entity_t writer_ = 0;
};

}  // namespace praxis::transport
