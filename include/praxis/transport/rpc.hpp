#pragma once
// Request / response over two DDS topics. The client stamps each request with a fresh id and waits
// for the response carrying it; a call has a timeout, and one client makes one call at a time
// (single flight: calls from several threads queue). Not for the control loop: it blocks.
//
// The envelope is a policy (Traits) so vendors with different request types share the logic:
//   typename Traits::Request, Response, Call, Reply
//   static const dds_topic_descriptor_t* request_descriptor(), response_descriptor()
//   static void fill(Request&, const Call&, const Id& id)          (may point into Call's and id's storage)
//   static Id id_of(const Response&)
//   static Reply reply_of(const Response&)                         (copies out of the sample)
// and optionally
//   using Id; static Id make_id(std::int64_t unique)   ids other than a number (Booster: a UUID string)
//   static bool is_final(const Response&)              false: an interim answer, keep waiting
//   static bool expects_response(const Call&)          false: send and return Reply{} at once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include <dds/dds.h>

#include "praxis/core/clock.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::transport {

class RpcError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No server matched, or none answered in time: the service is not there (a simulator runs fewer
// services than a robot), as opposed to a server that answered with an error.
class RpcUnanswered : public RpcError {
 public:
  using RpcError::RpcError;
};

namespace detail {
template <class Traits>
struct rpc_id {
  using type = std::int64_t;
  static type make(std::int64_t unique) { return unique; }
};
template <class Traits>
  requires requires { typename Traits::Id; }
struct rpc_id<Traits> {
  using type = typename Traits::Id;
  static type make(std::int64_t unique) { return Traits::make_id(unique); }
};
}  // namespace detail

template <class Traits>
class RpcClient {
 public:
  using Request = typename Traits::Request;
  using Response = typename Traits::Response;
  using Call = typename Traits::Call;
  using Reply = typename Traits::Reply;
  using Id = typename detail::rpc_id<Traits>::type;

  // `request_type` / `response_type`: the DDS type names to register the envelope under, for peers
  // whose names are not the IDL's (empty: the IDL's).
  RpcClient(const Participant& participant, std::string request_topic, std::string response_topic,
            std::string_view request_type = {}, std::string_view response_type = {})
      : request_topic_(std::move(request_topic)), response_topic_(std::move(response_topic)) {
    dds_qos_t* qos = detail::make_qos(TopicQos{.reliable = true, .depth = 10});
    const auto req_topic =
        detail::create_topic(participant, request_topic_, with_type_name(Traits::request_descriptor(), request_type));
    const auto resp_topic =
        detail::create_topic(participant, response_topic_, with_type_name(Traits::response_descriptor(), response_type));
    writer_ = dds_create_writer(participant.handle(), req_topic, qos, nullptr);
    reader_ = dds_create_reader(participant.handle(), resp_topic, qos, nullptr);
    dds_delete_qos(qos);
    if (writer_ < 0) detail::fail("cannot create the RPC request writer", request_topic_, writer_);
    if (reader_ < 0) detail::fail("cannot create the RPC response reader", response_topic_, reader_);
    condition_ = dds_create_readcondition(reader_, DDS_ANY_STATE);
    waitset_ = dds_create_waitset(participant.handle());
    dds_waitset_attach(waitset_, condition_, 0);
  }
  ~RpcClient() {
    if (waitset_ > 0) dds_delete(waitset_);
    if (condition_ > 0) dds_delete(condition_);
    if (reader_ > 0) dds_delete(reader_);
    if (writer_ > 0) dds_delete(writer_);
  }
  RpcClient(const RpcClient&) = delete;
  RpcClient& operator=(const RpcClient&) = delete;

  // Sends `call` and returns the matching reply; throws RpcError when no server is there or no
  // reply comes within `timeout`.
  Reply call(const Call& call, Duration timeout) {
    std::lock_guard single_flight(mutex_);
    const auto deadline = Clock::now() + timeout;
    // A request written before the server's reader matched would be lost, and so would a response
    // written before our reader matched the server's writer.
    while (matched() == 0 || response_matched() == 0) {
      if (Clock::now() >= deadline) {
        throw RpcUnanswered("no RPC server on \"" + request_topic_ + "\" (nothing matched within " +
                       std::to_string(to_ms(timeout)) +
                       " ms): is the service running, on the same domain and network interface?");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // A reply left over from an earlier call that timed out must not answer this one (an envelope
    // without a correlation id takes any reply as its own).
    discard_pending_responses();
    const Id id = detail::rpc_id<Traits>::make(next_id());
    Request request{};
    Traits::fill(request, call, id);
    const dds_return_t rc = dds_write(writer_, &request);
    if (rc != DDS_RETCODE_OK) detail::fail("cannot send the RPC request", request_topic_, rc);
    if constexpr (requires { Traits::expects_response(call); }) {
      if (!Traits::expects_response(call)) return Reply{};
    }

    for (;;) {
      const auto now = Clock::now();
      if (now >= deadline) {
        throw RpcUnanswered("RPC on \"" + request_topic_ + "\" timed out after " +
                       std::to_string(to_ms(timeout)) +
                       " ms without a response on \"" + response_topic_ + "\"");
      }
      const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now).count();
      dds_waitset_wait(waitset_, nullptr, 0, static_cast<dds_duration_t>(wait));
      Response response{};
      void* samples[1] = {&response};
      dds_sample_info_t info[1];
      while (dds_take(reader_, samples, info, 1, 1) > 0) {
        bool mine = info[0].valid_data && Traits::id_of(response) == id;
        if constexpr (requires { Traits::is_final(response); }) {
          mine = mine && Traits::is_final(response);
        }
        Reply reply{};
        if (mine) reply = Traits::reply_of(response);
        dds_sample_free(&response, Traits::response_descriptor(), DDS_FREE_CONTENTS);
        response = Response{};
        if (mine) return reply;
      }
    }
  }

  [[nodiscard]] std::uint32_t matched() const {
    dds_publication_matched_status_t s{};
    dds_get_publication_matched_status(writer_, &s);
    return s.current_count;
  }
  [[nodiscard]] std::uint32_t response_matched() const {
    dds_subscription_matched_status_t s{};
    dds_get_subscription_matched_status(reader_, &s);
    return s.current_count;
  }

 private:
  // Unique per call and per process run (the vendor's Python client uses a monotonic clock too).
  std::int64_t next_id() {
    const auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
    last_id_ = std::max(last_id_ + 1, static_cast<std::int64_t>(t));
    return last_id_;
  }

  void discard_pending_responses() {
    Response response{};
    void* samples[1] = {&response};
    dds_sample_info_t info[1];
    while (dds_take(reader_, samples, info, 1, 1) > 0) {
      dds_sample_free(&response, Traits::response_descriptor(), DDS_FREE_CONTENTS);
      response = Response{};
    }
  }

  std::string request_topic_, response_topic_;
  dds_entity_t writer_ = 0, reader_ = 0, condition_ = 0, waitset_ = 0;
  std::mutex mutex_;
  std::int64_t last_id_ = 0;
};

// The serving side: poll() answers every pending request with `handler(call) -> Reply`.
template <class Traits>
class RpcServer {
 public:
  using Request = typename Traits::Request;
  using Response = typename Traits::Response;

  // `request_type` / `response_type`: the DDS type names to register the envelope under, for peers
  // whose names are not the IDL's (empty: the IDL's), as RpcClient's.
  RpcServer(const Participant& participant, const std::string& request_topic, const std::string& response_topic,
            std::string_view request_type = {}, std::string_view response_type = {})
      : request_topic_(request_topic) {
    dds_qos_t* qos = detail::make_qos(TopicQos{.reliable = true, .depth = 10});
    const auto req_topic =
        detail::create_topic(participant, request_topic, with_type_name(Traits::request_descriptor(), request_type));
    const auto resp_topic =
        detail::create_topic(participant, response_topic, with_type_name(Traits::response_descriptor(), response_type));
    reader_ = dds_create_reader(participant.handle(), req_topic, qos, nullptr);
    writer_ = dds_create_writer(participant.handle(), resp_topic, qos, nullptr);
    dds_delete_qos(qos);
    if (reader_ < 0) detail::fail("cannot create the RPC request reader", request_topic, reader_);
    if (writer_ < 0) detail::fail("cannot create the RPC response writer", response_topic, writer_);
  }
  ~RpcServer() {
    if (writer_ > 0) dds_delete(writer_);
    if (reader_ > 0) dds_delete(reader_);
  }
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  // Handler: (const Request&, Response&) fills the response (Traits::answer keeps ids consistent).
  template <class Handler>
  int poll(Handler&& handler) {
    int served = 0;
    Request request{};
    void* samples[1] = {&request};
    dds_sample_info_t info[1];
    while (dds_take(reader_, samples, info, 1, 1) > 0) {
      if (info[0].valid_data) {
        Response response{};
        auto storage = handler(request, response);  // keeps strings alive until written
        await_response_readers();
        dds_write(writer_, &response);
        ++served;
        (void)storage;
      }
      dds_sample_free(&request, Traits::request_descriptor(), DDS_FREE_CONTENTS);
      request = Request{};
    }
    return served;
  }

 private:
  // A client's request can arrive before this side has discovered the client's response reader: the
  // client saw both of its endpoints matched, but discovery is not symmetric in time. A response
  // written then goes to no one (volatile durability) and the call times out. Every client has one
  // request writer and one response reader, so until the response writer has matched as many
  // readers as the request reader has writers, wait for discovery (bounded: a client without a
  // response reader must not stall the server).
  void await_response_readers() const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    dds_subscription_matched_status_t requests{};
    dds_publication_matched_status_t responses{};
    while (dds_get_subscription_matched_status(reader_, &requests) == 0 &&
           dds_get_publication_matched_status(writer_, &responses) == 0 &&
           responses.current_count < requests.current_count && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  std::string request_topic_;
  dds_entity_t reader_ = 0, writer_ = 0;
};

}  // namespace praxis::transport
