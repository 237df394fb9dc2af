#pragma once
// Booster's JSON RPC: a call is an API id with a JSON body, sent on rt/<channel>Req as
// booster_msgs RpcReqMsg {uuid, header, body}; the answer comes back on rt/<channel>Resp with the
// same uuid and a header {"status": N}. This header gives
//   RpcCall / RpcReply            one call and its final answer
//   BoosterRpcTraits              the envelope for transport::RpcClient / transport::RpcServer
//   RpcStatusError and subclasses a non-zero status as a typed error; RpcTimeout: no final answer
//   RpcChannel / DdsRpcChannel    where calls go (an interface, so tests and other transports plug in)
//   LocoClient / LightClient      the loco and light services' APIs as functions
// All of it blocks: it belongs to an I/O worker, never to the control cycle. JSON is handled in
// src/hardware/booster/rpc.cpp so users of this header do not compile nlohmann_json.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <praxis/idl/booster_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::booster {

struct RpcCall {
  std::int64_t api_id = 0;
  std::string body;              // JSON text; "" for APIs without parameters
  bool expect_response = true;   // false: fire-and-forget, the server sends nothing back
};

struct RpcReply {
  std::int32_t status = status::k_ok;
  std::string body;
  // Non-empty when the response header could not be read (why). The envelope cannot throw while
  // it holds a DDS sample, so the channel turns this into a BadReply.
  std::string header_error;
};

// ---- errors ------------------------------------------------------------------------------------

// The server answered with a non-zero status.
class RpcStatusError : public transport::RpcError {
 public:
  RpcStatusError(std::string_view channel, std::int64_t api_id, std::string_view api_name, std::int32_t status,
                 std::string_view body);
  [[nodiscard]] std::int32_t status() const { return status_; }
  [[nodiscard]] std::int64_t api_id() const { return api_id_; }
  [[nodiscard]] const std::string& body() const { return body_; }

 private:
  std::int32_t status_;
  std::int64_t api_id_;
  std::string body_;
};

class ServerTimeout : public RpcStatusError {  // 100: the robot itself timed out
 public:
  using RpcStatusError::RpcStatusError;
};
class BadRequest : public RpcStatusError {  // 400
 public:
  using RpcStatusError::RpcStatusError;
};
class Conflict : public RpcStatusError {  // 409: not allowed in the robot's current mode
 public:
  using RpcStatusError::RpcStatusError;
};
class TooFrequent : public RpcStatusError {  // 429
 public:
  using RpcStatusError::RpcStatusError;
};
class InternalError : public RpcStatusError {  // 500
 public:
  using RpcStatusError::RpcStatusError;
};
class Refused : public RpcStatusError {  // 501
 public:
  using RpcStatusError::RpcStatusError;
};
class TransitionFailed : public RpcStatusError {  // 502: the robot's state machine did not switch
 public:
  using RpcStatusError::RpcStatusError;
};
class UnknownStatus : public RpcStatusError {  // a code the SDK's rpc/error.hpp does not list
 public:
  using RpcStatusError::RpcStatusError;
};

// No final answer within the call's timeout (or no server matched in that time).
class RpcTimeout : public transport::RpcUnanswered {
 public:
  using transport::RpcUnanswered::RpcUnanswered;
};

// An answer the client cannot read: a header that is not JSON, or a body without the expected key.
class BadReply : public transport::RpcError {
 public:
  using transport::RpcError::RpcError;
};

// Throws the RpcStatusError subclass for `status` (which must not be 0 or -1).
[[noreturn]] void throw_for_status(std::string_view channel, std::int64_t api_id, std::string_view api_name,
                                   std::int32_t status, std::string_view body);

// Names of the API ids praxis uses ("ChangeMode"), or "" for others.
[[nodiscard]] std::string_view loco_api_name(std::int64_t api_id);
[[nodiscard]] std::string_view light_api_name(std::int64_t api_id);

// ---- the envelope ------------------------------------------------------------------------------

// Header JSON both ways; servers use the parse side, clients the other.
[[nodiscard]] std::string request_header(std::int64_t api_id, bool expect_response);
struct RequestHeader {
  std::int64_t api_id = 0;
  bool expect_response = true;  // a missing key means true (SDK before fw 1.6)
};
// Throws transport::RpcError naming the field and what was expected.
[[nodiscard]] RequestHeader parse_request_header(std::string_view header);
[[nodiscard]] std::string response_header(std::int32_t status);
// The status of a response header; a missing "status" is 0. Empty optional with `error` set when
// the header is not a JSON object or the status is not an integer.
[[nodiscard]] std::optional<std::int32_t> parse_response_status(std::string_view header, std::string* error = nullptr);

// A fresh RFC 4122 version-4 UUID in its 8-4-4-4-12 lowercase form. The first half is random per
// process (two processes never collide); the second carries a process-wide sequence number (two
// clients in one process never collide) beside bits of `unique`.
[[nodiscard]] std::string make_uuid(std::int64_t unique);

struct BoosterRpcTraits {
  using Request = booster_msgs_msg_dds__RpcReqMsg_;
  using Response = booster_msgs_msg_dds__RpcRespMsg_;
  using Call = RpcCall;
  using Reply = RpcReply;
  using Id = std::string;

  static const dds_topic_descriptor_t* request_descriptor() { return &booster_msgs_msg_dds__RpcReqMsg__desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &booster_msgs_msg_dds__RpcRespMsg__desc; }
  static Id make_id(std::int64_t unique) { return make_uuid(unique); }
  // The header text lives in thread-local storage: RpcClient writes the request on this thread
  // before it fills another one.
  static void fill(Request& r, const Call& c, const Id& id);
  static Id id_of(const Response& r) { return r.uuid != nullptr ? std::string(r.uuid) : std::string(); }
  static Reply reply_of(const Response& r);
  static bool is_final(const Response& r);
  static bool expects_response(const Call& c) { return c.expect_response; }
};

// ---- channels ----------------------------------------------------------------------------------

// Where calls go. Implementations are thread-safe and make one call at a time.
class RpcChannel {
 public:
  virtual ~RpcChannel() = default;
  // The final reply, whatever its status; throws RpcTimeout when none comes within `timeout` and
  // BadReply when the reply cannot be read. A fire-and-forget call returns status 0 at once.
  virtual RpcReply call(const RpcCall& call, Duration timeout) = 0;
  // The channel's name for messages, e.g. "rt/LocoApiTopic".
  [[nodiscard]] virtual const std::string& name() const = 0;
  // Waits until a server can answer; false when none could within `timeout`. A channel with nobody
  // to discover (in-process, a test's) is ready at once.
  virtual bool wait_for_server(Duration) { return true; }
};

// QoS is transport::RpcClient's: reliable, keep-last 10, volatile on both topics. A third-party client
// asks for transient-local responses, but such a reader does not match a volatile server writer.
class DdsRpcChannel final : public RpcChannel {
 public:
  // `channel` without the Req/Resp suffix, e.g. TopicNames{}.loco_channel; the envelope's DDS type
  // names (empty: the IDL's, booster_msgs::msg::dds_::RpcReqMsg_ / RpcRespMsg_).
  DdsRpcChannel(const transport::Participant& participant, std::string channel, std::string_view request_type = {},
                std::string_view response_type = {});
  RpcReply call(const RpcCall& call, Duration timeout) override;
  [[nodiscard]] const std::string& name() const override { return channel_; }
  // Waits until a server's request reader and response writer matched (the SDK's WaitForService
  // waits 5 s); false when they did not within `timeout`.
  bool wait_for_server(Duration timeout) override;

 private:
  std::string channel_;
  transport::RpcClient<BoosterRpcTraits> client_;
};

// ---- the services' clients ---------------------------------------------------------------------

// A robot slower to answer than the caller's timeout would never be heard (every call unanswered,
// every GetMode too). So the client follows the robot's measured reply time: a call waits at least
// what was asked, and at least `reply_margin` times the slowest of the last 8 answers, never beyond
// `timeout_ceiling` (the SDK's own per-call default). The first answer comes from acquire()'s
// GetMode, which waits lifecycle_rpc_timeout (1 s). Unanswered calls teach nothing: one API that
// hangs (a Move the robot never answers) must not lengthen every call behind it on the single-flight
// channel. Off (`adaptive_timeout` false): each call waits exactly what it was given.
struct LocoClientOptions {
  Duration default_timeout = std::chrono::milliseconds(1000);  // the SDK's SendApiRequest default
  bool adaptive_timeout = true;
  double reply_margin = 3.0;
  Duration timeout_ceiling = std::chrono::milliseconds(1000);
  // The SDK sends Move fire-and-forget (at walking rates an answer per command is only latency);
  // off by default so a refused Move is reported.
  bool move_fire_and_forget = false;
};

// The loco service (TopicNames::loco_channel). Every call throws the typed error of a non-zero
// status, RpcTimeout without an answer; `timeout` overrides the default for one call.
class LocoClient {
 public:
  explicit LocoClient(RpcChannel& channel, Duration default_timeout = std::chrono::milliseconds(1000));
  LocoClient(RpcChannel& channel, const LocoClientOptions& options);

  void change_mode(Mode mode, std::optional<Duration> timeout = {});
  // m/s, m/s, rad/s; non-finite values are refused here (std::invalid_argument).
  void move(double vx, double vy, double vyaw, std::optional<Duration> timeout = {});
  void rotate_head(double pitch, double yaw, std::optional<Duration> timeout = {});  // rad
  void get_up(int version = 0, std::optional<Duration> timeout = {});                // 0 V1, 1 V2
  void lie_down(std::optional<Duration> timeout = {});
  void visual_kick(bool start, int version = 1, std::optional<Duration> timeout = {});  // 0 V1, 1 V2
  // Arms commanded by rt/joint_ctrl's weight while the robot walks (start), or given back (stop).
  void upper_body_custom_control(bool start, std::optional<Duration> timeout = {});
  [[nodiscard]] Mode get_mode(std::optional<Duration> timeout = {});
  // Any other loco API: its reply body on success.
  std::string call(std::int64_t api_id, std::string body, std::optional<Duration> timeout = {});

  [[nodiscard]] const LocoClientOptions& options() const { return options_; }
  // A gate every call checks right before it leaves (praxis-guard: once it has the robot, a call a
  // woken controller's thread had begun is not sent; it fails as unanswered). Set before any call.
  void set_gate(std::function<bool()> closed) { closed_ = std::move(closed); }
  // What a call asked to wait `asked` waits now (adaptive_timeout; thread-safe).
  [[nodiscard]] Duration effective_timeout(Duration asked) const;
  // The slowest reply among the last answered calls (zero before the first).
  [[nodiscard]] Duration slowest_reply() const;

 private:
  std::string invoke(const RpcCall& call, std::optional<Duration> timeout);
  void answered_after(Duration took);

  RpcChannel* channel_;
  LocoClientOptions options_;
  std::function<bool()> closed_;
  // The last answers' reply times (ns), a ring.
  static constexpr std::size_t k_replies = 8;
  std::array<std::atomic<std::int64_t>, k_replies> replies_ns_{};
  std::atomic<std::size_t> next_reply_{0};
};

// The light service (TopicNames::light_channel): the colour of the robot's LEDs.
class LightClient {
 public:
  explicit LightClient(RpcChannel& channel, Duration default_timeout = std::chrono::milliseconds(1000));
  void set_color(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::optional<Duration> timeout = {});
  void stop(std::optional<Duration> timeout = {});  // hands the LEDs back to the robot

 private:
  RpcChannel* channel_;
  Duration default_timeout_;
};

}  // namespace praxis::booster
