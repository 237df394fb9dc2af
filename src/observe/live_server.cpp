// The live server: Foxglove WebSocket protocol v1 (read-only) and a small HTTP server on one port,
// run by Boost.Beast on a thread of its own. Everything below runs on that thread except
// LiveServer::publish and LiveServer::stats, which meet it through a mutex-guarded queue and atomics.

#include "praxis/observe/live_server.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <fstream>
#include <iterator>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace praxis::observe {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;

constexpr std::string_view k_subprotocol = "foxglove.websocket.v1";
// Message Data (server to client, binary): opcode 0x01, uint32 subscription id, uint64 timestamp in
// nanoseconds, both little endian, then the payload.
constexpr unsigned char k_message_data = 0x01;
constexpr std::size_t k_header_bytes = 1 + 4 + 8;
constexpr auto k_http_timeout = std::chrono::seconds(30);
constexpr auto k_ws_handshake_timeout = std::chrono::seconds(5);

// Boost 1.74's Beast has a string_view of its own.
std::string_view std_view(beast::string_view s) { return {s.data(), s.size()}; }

bool is_uint32(const Json& v) {
  return v.is_number_unsigned() && v.get<std::uint64_t>() <= std::numeric_limits<std::uint32_t>::max();
}

// An op name as it may appear in a reason: short, and only printable ASCII.
std::string shown(std::string_view name) {
  std::string out;
  for (const char c : name.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (name.size() > 40) out += "...";
  return out;
}

template <class T>
bool has_duplicates(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) != values.end();
}

ClientMessage parse_subscribe(const Json& j) {
  const auto list = j.find("subscriptions");
  if (list == j.end() || !list->is_array()) return Refused{"subscribe without a \"subscriptions\" array"};
  Subscribe s;
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> channels;
  for (const auto& e : *list) {
    if (!e.is_object()) return Refused{"subscribe: an entry is not an object"};
    const auto id = e.find("id");
    const auto channel = e.find("channelId");
    if (id == e.end() || channel == e.end()) return Refused{"subscribe: an entry lacks \"id\" or \"channelId\""};
    if (!is_uint32(*id) || !is_uint32(*channel)) {
      return Refused{"subscribe: an id or channelId is not an unsigned 32-bit integer"};
    }
    s.subscriptions.emplace_back(id->get<std::uint32_t>(), channel->get<std::uint32_t>());
    ids.push_back(s.subscriptions.back().first);
    channels.push_back(s.subscriptions.back().second);
  }
  if (has_duplicates(std::move(ids))) return Refused{"subscribe: a subscription id appears twice"};
  // The protocol allows one subscription per channel and client.
  if (has_duplicates(std::move(channels))) return Refused{"subscribe: a channel appears twice"};
  return s;
}

ClientMessage parse_unsubscribe(const Json& j) {
  const auto list = j.find("subscriptionIds");
  if (list == j.end() || !list->is_array()) return Refused{"unsubscribe without a \"subscriptionIds\" array"};
  Unsubscribe u;
  for (const auto& e : *list) {
    if (!is_uint32(e)) return Refused{"unsubscribe: a subscription id is not an unsigned 32-bit integer"};
    u.subscription_ids.push_back(e.get<std::uint32_t>());
  }
  if (has_duplicates(u.subscription_ids)) return Refused{"unsubscribe: a subscription id appears twice"};
  return u;
}

// Ops of the protocol that a client sends only to a server offering the capability; this one offers none.
bool needs_a_capability(std::string_view op) {
  constexpr std::array<std::string_view, 10> ops{
      "advertise", "unadvertise", "getParameters", "setParameters", "subscribeParameterUpdates",
      "unsubscribeParameterUpdates", "subscribeConnectionGraph", "unsubscribeConnectionGraph", "fetchAsset",
      "subscribeTime"};
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

std::string read_file(const std::filesystem::path& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  if (!ok) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Does the upgrade request offer Foxglove's subprotocol (the header is a comma-separated list)?
bool offers_subprotocol(std::string_view offered) {
  while (!offered.empty()) {
    const auto comma = offered.find(',');
    auto token = offered.substr(0, comma);
    while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.remove_prefix(1);
    while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
    if (token == k_subprotocol) return true;
    if (comma == std::string_view::npos) break;
    offered.remove_prefix(comma + 1);
  }
  return false;
}

using Payload = std::shared_ptr<const std::vector<std::byte>>;

struct Published {
  std::size_t channel;
  std::uint64_t log_time_ns;
  Payload payload;
};

// One WebSocket message waiting to be written: a text (JSON) or a Message Data frame whose payload
// is shared by every client that gets it.
struct Outgoing {
  bool text = false;
  std::string body;
  std::array<unsigned char, k_header_bytes> header{};
  Payload payload;
  std::size_t size() const { return text ? body.size() : k_header_bytes + payload->size(); }
};

Outgoing message_data(std::uint32_t subscription, std::uint64_t log_time_ns, Payload payload) {
  Outgoing o;
  o.header[0] = k_message_data;
  for (int i = 0; i < 4; ++i) o.header[1 + i] = static_cast<unsigned char>(subscription >> (8 * i));
  for (int i = 0; i < 8; ++i) o.header[5 + i] = static_cast<unsigned char>(log_time_ns >> (8 * i));
  o.payload = std::move(payload);
  return o;
}

Outgoing text_message(const Json& j) {
  Outgoing o;
  o.text = true;
  o.body = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  return o;
}

}  // namespace

std::filesystem::path default_chart_js() { return PRAXIS_CHART_JS; }

ClientMessage parse_client_message(std::string_view text) {
  if (text.size() > max_client_message_bytes) {
    return Refused{"longer than " + std::to_string(max_client_message_bytes) + " bytes"};
  }
  const Json j = Json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return Refused{"not JSON"};
  if (!j.is_object()) return Refused{"not a JSON object"};
  const auto op = j.find("op");
  if (op == j.end() || !op->is_string()) return Refused{"no \"op\" string"};
  const auto& name = op->get_ref<const std::string&>();
  if (name == "subscribe") return parse_subscribe(j);
  if (name == "unsubscribe") return parse_unsubscribe(j);
  if (needs_a_capability(name)) return Refused{"op \"" + name + "\" is not offered: this server is read-only"};
  return Refused{"unknown op \"" + shown(name) + "\""};
}

class WsSession;
class HttpSession;

struct LiveServer::Impl {
  Impl(std::vector<LiveChannel> c, LiveOptions o);

  void run();
  void accept();
  void drain();
  void shutdown();
  void remove(WsSession* session);

  std::vector<LiveChannel> channels;
  LiveOptions options;
  std::vector<std::uint64_t> period_ns;  // per channel; 0: every message
  std::string server_info;
  std::string advertise;
  // Subscriptions per channel, written by the server's thread, read by publish() to skip channels
  // nobody watches without copying.
  std::unique_ptr<std::atomic<std::uint32_t>[]> subscribers;

  std::atomic<std::size_t> clients{0};
  std::atomic<std::size_t> subscriptions{0};
  std::atomic<std::uint64_t> accepted{0}, refused_full{0}, dropped_slow{0}, closed_malformed{0};
  std::atomic<std::uint64_t> messages_sent{0}, bytes_sent{0}, dropped_behind{0};

  std::mutex pending_mutex;
  std::deque<Published> pending;  // guarded by pending_mutex
  std::size_t pending_bytes = 0;  // guarded by pending_mutex
  bool drain_posted = false;      // guarded by pending_mutex

  // Server thread only.
  std::vector<std::shared_ptr<WsSession>> sessions;
  std::vector<std::weak_ptr<HttpSession>> http_sessions;

  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  std::uint16_t bound_port = 0;
  std::thread thread;
};

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(LiveServer::Impl& server, beast::tcp_stream&& stream) : server_(server), ws_(std::move(stream)) {}

  void start(http::request<http::string_body> request) {
    auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeouts.handshake_timeout = k_ws_handshake_timeout;
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::sec_websocket_protocol, beast::string_view(k_subprotocol.data(), k_subprotocol.size()));
      res.set(http::field::server, "praxis");
    }));
    ws_.read_message_max(max_client_message_bytes);
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) { self->on_accept(ec); });
  }

  // A published message: one frame per subscription of its channel that the rate limit lets through.
  void deliver(const Published& m) {
    if (closing_ || dead_) return;
    for (auto& s : subs_) {
      if (s.channel != m.channel || !due(s, m.log_time_ns)) continue;
      enqueue(message_data(s.id, m.log_time_ns, m.payload));
      if (dead_) return;
    }
  }

  // Ends the connection at once (no close handshake): shutdown, a stuck client, an error.
  void finish() {
    if (dead_) return;
    dead_ = true;
    for (const auto& s : subs_) server_.subscribers[s.channel].fetch_sub(1, std::memory_order_relaxed);
    server_.subscriptions.fetch_sub(subs_.size(), std::memory_order_relaxed);
    subs_.clear();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).close();
    server_.remove(this);
  }

 private:
  struct Sub {
    std::uint32_t id;
    std::size_t channel;
    std::optional<std::uint64_t> last_sent_ns;
  };

  bool due(Sub& s, std::uint64_t t) {
    const std::uint64_t period = server_.period_ns[s.channel];
    // A log time before the last one sent means a new timeline (a replay started over): send it.
    if (period == 0 || !s.last_sent_ns || t < *s.last_sent_ns || t - *s.last_sent_ns >= period) {
      s.last_sent_ns = t;
      return true;
    }
    return false;
  }

  void on_accept(beast::error_code ec) {
    if (ec) return finish();
    enqueue(Outgoing{true, server_.server_info, {}, {}});
    enqueue(Outgoing{true, server_.advertise, {}, {}});
    read();
  }

  void read() {
    ws_.async_read(in_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (dead_ || closing_) return;
    if (ec == websocket::error::message_too_big) {
      server_.closed_malformed.fetch_add(1, std::memory_order_relaxed);
      return finish();
    }
    if (ec) return finish();
    if (!ws_.got_text()) {
      return refuse("a binary message: this server is read-only and does not offer clientPublish");
    }
    const std::string text = beast::buffers_to_string(in_.data());
    in_.consume(in_.size());
    const auto message = parse_client_message(text);
    if (const auto* r = std::get_if<Refused>(&message)) return refuse(r->reason);
    if (const auto* s = std::get_if<Subscribe>(&message)) {
      if (!subscribe(*s)) return;
    } else if (!unsubscribe(std::get<Unsubscribe>(message))) {
      return;
    }
    read();
  }

  bool subscribe(const Subscribe& s) {
    // Check everything first, so a refused message changes nothing.
    for (const auto& [id, channel] : s.subscriptions) {
      if (channel >= server_.channels.size()) {
        refuse("subscribe: no channel " + std::to_string(channel));
        return false;
      }
      for (const auto& have : subs_) {
        if (have.id == id) {
          refuse("subscribe: subscription id " + std::to_string(id) + " is in use");
          return false;
        }
        if (have.channel == channel) {
          refuse("subscribe: channel " + std::to_string(channel) + " is already subscribed");
          return false;
        }
      }
    }
    for (const auto& [id, channel] : s.subscriptions) {
      subs_.push_back(Sub{id, channel, std::nullopt});
      server_.subscribers[channel].fetch_add(1, std::memory_order_release);
    }
    server_.subscriptions.fetch_add(s.subscriptions.size(), std::memory_order_relaxed);
    return true;
  }

  bool unsubscribe(const Unsubscribe& u) {
    for (const auto id : u.subscription_ids) {
      if (std::none_of(subs_.begin(), subs_.end(), [&](const Sub& s) { return s.id == id; })) {
        refuse("unsubscribe: no subscription " + std::to_string(id));
        return false;
      }
    }
    for (const auto id : u.subscription_ids) {
      const auto it = std::find_if(subs_.begin(), subs_.end(), [&](const Sub& s) { return s.id == id; });
      server_.subscribers[it->channel].fetch_sub(1, std::memory_order_relaxed);
      subs_.erase(it);
    }
    server_.subscriptions.fetch_sub(u.subscription_ids.size(), std::memory_order_relaxed);
    return true;
  }

  // A message this server does not accept: say why (a status message), then close the connection.
  void refuse(const std::string& reason) {
    server_.closed_malformed.fetch_add(1, std::memory_order_relaxed);
    for (const auto& s : subs_) server_.subscribers[s.channel].fetch_sub(1, std::memory_order_relaxed);
    server_.subscriptions.fetch_sub(subs_.size(), std::memory_order_relaxed);
    subs_.clear();
    // Frames already queued go first; the status comes after them, then the close.
    enqueue(text_message(Json{{"op", "status"}, {"level", 2}, {"message", "closing the connection: " + reason}}));
    closing_ = true;
    if (!writing_ && !dead_) close();
  }

  void close() {
    ws_.async_close(websocket::close_reason(websocket::close_code::policy_error, "malformed client message"),
                    [self = shared_from_this()](beast::error_code) { self->finish(); });
  }

  void enqueue(Outgoing o) {
    if (dead_) return;
    backlog_ += o.size();
    if (backlog_ > server_.options.max_backlog_bytes) {
      server_.dropped_slow.fetch_add(1, std::memory_order_relaxed);
      return finish();
    }
    queue_.push_back(std::move(o));
    if (!writing_) write_next();
  }

  void write_next() {
    writing_ = true;
    const auto& o = queue_.front();
    ws_.text(o.text);
    const std::array<asio::const_buffer, 2> buffers =
        o.text ? std::array<asio::const_buffer, 2>{asio::buffer(o.body), asio::const_buffer()}
               : std::array<asio::const_buffer, 2>{asio::buffer(o.header),
                                                   asio::buffer(o.payload->data(), o.payload->size())};
    ws_.async_write(buffers, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    if (dead_) return;
    if (ec) return finish();
    const auto& o = queue_.front();
    backlog_ -= o.size();
    if (!o.text) {
      server_.messages_sent.fetch_add(1, std::memory_order_relaxed);
      server_.bytes_sent.fetch_add(o.size(), std::memory_order_relaxed);
    }
    queue_.pop_front();
    if (!queue_.empty()) return write_next();
    if (closing_) close();
  }

  LiveServer::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer in_;
  std::deque<Outgoing> queue_;  // front: being written
  std::size_t backlog_ = 0;     // bytes of queue_
  std::vector<Sub> subs_;
  bool writing_ = false;
  bool closing_ = false;  // refused: no more reads or frames, close once the queue is written
  bool dead_ = false;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(LiveServer::Impl& server, tcp::socket&& socket) : server_(server), stream_(std::move(socket)) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(64 * 1024);
    stream_.expires_after(k_http_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void close() {
    if (upgraded_) return;  // the stream belongs to a WebSocket session now
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

 private:
  using Response = http::response<http::string_body>;

  void on_read(beast::error_code ec) {
    if (ec) return close();
    auto request = parser_->release();
    if (websocket::is_upgrade(request)) return upgrade(std::move(request));
    respond(answer(request));
  }

  void upgrade(http::request<http::string_body> request) {
    if (!offers_subprotocol(std_view(request[http::field::sec_websocket_protocol]))) {
      auto res = text(http::status::bad_request, request,
                      "This server speaks the Foxglove WebSocket protocol: offer the subprotocol " +
                          std::string(k_subprotocol) + ".\n");
      res.keep_alive(false);
      return respond(std::move(res));
    }
    if (server_.clients.load(std::memory_order_relaxed) >= server_.options.max_clients) {
      server_.refused_full.fetch_add(1, std::memory_order_relaxed);
      auto res = text(http::status::service_unavailable, request,
                      "The live server has " + std::to_string(server_.options.max_clients) +
                          " clients already (LiveOptions::max_clients).\n");
      res.keep_alive(false);
      return respond(std::move(res));
    }
    server_.clients.fetch_add(1, std::memory_order_relaxed);
    server_.accepted.fetch_add(1, std::memory_order_relaxed);
    stream_.expires_never();
    upgraded_ = true;
    auto session = std::make_shared<WsSession>(server_, std::move(stream_));
    server_.sessions.push_back(session);
    session->start(std::move(request));
  }

  Response answer(const http::request<http::string_body>& request) {
    if (request.method() != http::verb::get) {
      auto res = text(http::status::method_not_allowed, request, "Only GET is served here.\n");
      res.set(http::field::allow, "GET");
      return res;
    }
    std::string_view target = std_view(request.target());
    target = target.substr(0, target.find('?'));
    if (target == "/") {
      Response res{http::status::ok, request.version()};
      res.set(http::field::content_type, "text/html; charset=utf-8");
      res.body() = std::string(live_page());
      return finished(std::move(res), request);
    }
    if (target == "/chart.js") {
      bool ok = false;
      auto body = read_file(server_.options.chart_js, ok);
      if (!ok) {
        return text(http::status::not_found, request,
                    "Chart.js is not at " + server_.options.chart_js.string() +
                        " (install Debian's libjs-chart.js, or set LiveOptions::chart_js).\n");
      }
      Response res{http::status::ok, request.version()};
      res.set(http::field::content_type, "application/javascript");
      res.body() = std::move(body);
      return finished(std::move(res), request);
    }
    return text(http::status::not_found, request,
                "Not found. This server has the live page at / and Chart.js at /chart.js.\n");
  }

  static Response text(http::status status, const http::request<http::string_body>& request, std::string body) {
    Response res{status, request.version()};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = std::move(body);
    return finished(std::move(res), request);
  }

  static Response finished(Response res, const http::request<http::string_body>& request) {
    res.set(http::field::server, "praxis");
    res.set(http::field::cache_control, "no-store");
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(request.keep_alive());
    res.prepare_payload();
    return res;
  }

  void respond(Response res) {
    auto owned = std::make_shared<Response>(std::move(res));
    http::async_write(stream_, *owned, [self = shared_from_this(), owned](beast::error_code ec, std::size_t) {
      if (ec || owned->need_eof()) return self->close();
      self->read();
    });
  }

  LiveServer::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool upgraded_ = false;
};

LiveServer::Impl::Impl(std::vector<LiveChannel> c, LiveOptions o) : channels(std::move(c)), options(std::move(o)) {
  const auto check_rate = [](double hz, const std::string& what) {
    if (!std::isfinite(hz) || hz < 0) {
      throw std::invalid_argument("live server: " + what + " must be finite and not negative (0: every message)");
    }
  };
  check_rate(options.rate_hz, "LiveOptions::rate_hz");
  if (channels.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("live server: more channels than 32-bit ids");
  }
  subscribers = std::make_unique<std::atomic<std::uint32_t>[]>(channels.size());
  Json list = Json::array();
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const auto& ch = channels[i];
    const double hz = ch.rate_hz.value_or(options.rate_hz);
    check_rate(hz, "the rate of " + ch.topic);
    period_ns.push_back(hz == 0 ? 0 : static_cast<std::uint64_t>(std::llround(1e9 / hz)));
    list.push_back({{"id", i},
                    {"topic", ch.topic},
                    {"encoding", ch.encoding},
                    {"schemaName", ch.schema_name},
                    {"schema", ch.schema},
                    {"schemaEncoding", ch.schema_encoding}});
  }
  // Read-only: no capability at all (no clientPublish, parameters, services, connectionGraph, time).
  server_info = Json{{"op", "serverInfo"}, {"name", options.name}, {"capabilities", Json::array()}}.dump(
      -1, ' ', false, Json::error_handler_t::replace);
  advertise = Json{{"op", "advertise"}, {"channels", list}}.dump(-1, ' ', false, Json::error_handler_t::replace);

  const std::string where = options.address + ":" + std::to_string(options.port);
  try {
    const tcp::endpoint endpoint(asio::ip::make_address(options.address), options.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(asio::socket_base::max_listen_connections);
    bound_port = acceptor.local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("live server: cannot listen on " + where + ": " + e.code().message());
  }
}

void LiveServer::Impl::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (!ec) {
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto session = std::make_shared<HttpSession>(*this, std::move(socket));
      std::erase_if(http_sessions, [](const auto& w) { return w.expired(); });
      http_sessions.push_back(session);
      session->read();
    }
    accept();
  });
}

void LiveServer::Impl::run() {
  for (;;) {
    try {
      ioc.run();
      return;
    } catch (const std::exception&) {
      // A handler threw (out of memory, say): that connection is lost, the server carries on.
    }
  }
}

void LiveServer::Impl::drain() {
  std::deque<Published> batch;
  {
    const std::lock_guard lock(pending_mutex);
    batch.swap(pending);
    pending_bytes = 0;
    drain_posted = false;
  }
  for (const auto& m : batch) {
    // deliver() may drop a session, which removes it from `sessions`: walk a copy.
    const auto now = sessions;
    for (const auto& s : now) s->deliver(m);
  }
}

void LiveServer::Impl::remove(WsSession* session) {
  const auto it = std::find_if(sessions.begin(), sessions.end(), [&](const auto& s) { return s.get() == session; });
  if (it == sessions.end()) return;
  sessions.erase(it);
  clients.fetch_sub(1, std::memory_order_relaxed);
}

void LiveServer::Impl::shutdown() {
  beast::error_code ignored;
  acceptor.close(ignored);
  const auto now = sessions;
  for (const auto& s : now) s->finish();
  for (const auto& w : http_sessions) {
    if (const auto s = w.lock()) s->close();
  }
  ioc.stop();
}

LiveServer::LiveServer(std::vector<LiveChannel> channels, LiveOptions options)
    : impl_(std::make_unique<Impl>(std::move(channels), std::move(options))) {
  impl_->accept();
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

LiveServer::~LiveServer() {
  try {
    asio::post(impl_->ioc, [impl = impl_.get()] { impl->shutdown(); });
  } catch (...) {
    impl_->ioc.stop();  // no memory for the orderly way: stop the thread; the sockets close with impl_
  }
  if (impl_->thread.joinable()) impl_->thread.join();
  // Sessions hold sockets of the io_context: they go before it does.
  impl_->sessions.clear();
  impl_->http_sessions.clear();
}

std::uint16_t LiveServer::port() const { return impl_->bound_port; }

void LiveServer::publish(std::size_t channel, std::uint64_t log_time_ns, std::span<const std::byte> payload) {
  if (channel >= impl_->channels.size()) {
    throw std::out_of_range("live server: publish on channel " + std::to_string(channel) + " of " +
                            std::to_string(impl_->channels.size()));
  }
  if (impl_->subscribers[channel].load(std::memory_order_acquire) == 0) return;
  auto copy = std::make_shared<const std::vector<std::byte>>(payload.begin(), payload.end());
  bool post = false;
  {
    const std::lock_guard lock(impl_->pending_mutex);
    impl_->pending.push_back(Published{channel, log_time_ns, std::move(copy)});
    impl_->pending_bytes += k_header_bytes + payload.size();
    // The server's thread is that far behind: the oldest go, the newest are what clients want.
    while (impl_->pending_bytes > impl_->options.max_backlog_bytes && impl_->pending.size() > 1) {
      impl_->pending_bytes -= k_header_bytes + impl_->pending.front().payload->size();
      impl_->pending.pop_front();
      impl_->dropped_behind.fetch_add(1, std::memory_order_relaxed);
    }
    post = !impl_->drain_posted;
    impl_->drain_posted = true;
  }
  if (post) asio::post(impl_->ioc, [impl = impl_.get()] { impl->drain(); });
}

LiveStats LiveServer::stats() const {
  const auto& i = *impl_;
  constexpr auto r = std::memory_order_relaxed;
  LiveStats s;
  s.clients = i.clients.load(r);
  s.accepted = i.accepted.load(r);
  s.refused_full = i.refused_full.load(r);
  s.dropped_slow = i.dropped_slow.load(r);
  s.closed_malformed = i.closed_malformed.load(r);
  s.messages_sent = i.messages_sent.load(r);
  s.bytes_sent = i.bytes_sent.load(r);
  s.dropped_behind = i.dropped_behind.load(r);
  s.subscriptions = i.subscriptions.load(r);
  return s;
}

}  // namespace praxis::observe
