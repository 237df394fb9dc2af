#pragma once
// The live view of a running program: its ports served over the Foxglove WebSocket protocol
// (subprotocol foxglove.websocket.v1), read-only, from a thread of its own. The same port answers
// HTTP with a page of its own (GET /) that plots any numeric field with Debian's Chart.js
// (GET /chart.js). Secure by default: loopback only, a bounded number of clients, and a client that
// sends anything but subscribe/unsubscribe, or that cannot keep up, is disconnected.
//
// Boost.Beast stays in src/observe/live_server.cpp: including this header costs no Beast.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace praxis::observe {

struct LiveChannel {
  std::string topic;        // "/praxis/robot_state"
  std::string schema_name;  // "praxis_msgs/msg/RobotState"
  std::string schema;       // ros2msg text
  std::string encoding = "cdr";
  std::string schema_encoding = "ros2msg";
  // This channel's limit per client; unset: LiveOptions::rate_hz; 0: every message.
  std::optional<double> rate_hz;
};

// Where Debian's libjs-chart.js puts its UMD build (the build's PRAXIS_CHART_JS).
std::filesystem::path default_chart_js();

struct LiveOptions {
  std::string address = "127.0.0.1";  // loopback unless told otherwise
  std::uint16_t port = 8765;          // 0: any free port (tests)
  std::size_t max_clients = 4;
  double rate_hz = 50.0;  // per channel and client, unless the channel says otherwise
  // A client whose unsent data exceeds this is dropped (slow or stuck); also the bound on messages
  // published but not yet handed to the clients by the server's thread.
  std::size_t max_backlog_bytes = 8u << 20;
  std::string name = "praxis";  // serverInfo name
  std::filesystem::path chart_js = default_chart_js();  // served at /chart.js, read at each request
};

struct LiveStats {
  std::size_t clients = 0;             // WebSocket clients connected now
  std::uint64_t accepted = 0;          // WebSocket upgrades accepted so far
  std::uint64_t refused_full = 0;      // upgrades refused because max_clients were connected
  std::uint64_t dropped_slow = 0;      // clients dropped because their backlog exceeded the bound
  std::uint64_t closed_malformed = 0;  // clients closed for a message this server does not accept
  std::uint64_t messages_sent = 0;     // message data frames written to clients
  std::uint64_t bytes_sent = 0;        // their bytes (13-byte header + payload)
  // Published messages discarded before reaching any client because the server's thread was more
  // than max_backlog_bytes behind the publisher.
  std::uint64_t dropped_behind = 0;
  std::size_t subscriptions = 0;       // the clients' subscriptions now
};

class LiveServer {
 public:
  // Binds and starts the thread; throws std::runtime_error naming address:port when it cannot.
  explicit LiveServer(std::vector<LiveChannel> channels, LiveOptions options = {});
  ~LiveServer();  // closes every connection, joins the thread; never throws
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  std::uint16_t port() const;  // the bound port (the chosen one when options.port was 0)

  // Hands one message of channel `channel` (an index into the constructor's list, also the
  // advertised channel id) to the server's thread. Thread-safe; meant for one publishing thread,
  // never the control thread (it copies the payload and may allocate). Never waits for a client;
  // returns at once when no client subscribes to the channel. Throws std::out_of_range for an
  // unknown channel.
  void publish(std::size_t channel, std::uint64_t log_time_ns, std::span<const std::byte> payload);

  LiveStats stats() const;

  struct Impl;  // the server's state, in the .cpp (public only so its session classes can name it)

 private:
  std::unique_ptr<Impl> impl_;
};

// What a client may send, parsed: subscribe or unsubscribe. Anything else is refused with the reason.
struct Subscribe {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> subscriptions;  // (subscription id, channel id)
};
struct Unsubscribe {
  std::vector<std::uint32_t> subscription_ids;
};
struct Refused {
  std::string reason;
};
using ClientMessage = std::variant<Subscribe, Unsubscribe, Refused>;

// The longest client text accepted (also the server's WebSocket message limit).
inline constexpr std::size_t max_client_message_bytes = 64 * 1024;

// A text message of the client, checked for what the protocol and this server allow: JSON, an op this
// server offers, ids that are unsigned 32-bit integers and not repeated within the message. Whether a
// channel exists or an id is in use is the server's business, not the parser's.
ClientMessage parse_client_message(std::string_view text);

// The page served at GET / (HTML and JavaScript, no build step).
std::string_view live_page();

}  // namespace praxis::observe
