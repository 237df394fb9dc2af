// The live server (observe/live_server.hpp): the client-message parser, and a real server on a free
// port driven by a Beast WebSocket / HTTP client written here (the Foxglove client itself runs in
// tests/js/foxglove_client_check.mjs).

#include "praxis/observe/live_server.hpp"

#include <ifaddrs.h>
#include <netinet/in.h>
#include <unistd.h>

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "../../support/alloc_counter.hpp"

namespace {
namespace live_server_test {

using namespace praxis::observe;
using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Json = nlohmann::json;

constexpr auto k_wait = 10s;  // only a bound against hanging: every wait ends as soon as its condition holds

template <class T>
const T& as(const ClientMessage& m) {
  INFO((std::holds_alternative<Refused>(m) ? "refused: " + std::get<Refused>(m).reason : std::string("not refused")));
  REQUIRE(std::holds_alternative<T>(m));
  return std::get<T>(m);
}

std::string refusal(std::string_view text) { return as<Refused>(parse_client_message(text)).reason; }

bool wait_until(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + k_wait;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// Runs `ioc` until `done` or the deadline; on the deadline closes `socket`, so the operation ends with
// an error instead of hanging the test.
bool run_until(asio::io_context& ioc, const bool& done, tcp::socket& socket) {
  ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + k_wait;
  while (!done && ioc.run_one_until(deadline) > 0) {
  }
  if (done) return true;
  beast::error_code ignored;
  socket.close(ignored);
  ioc.restart();
  while (!done && ioc.run_one() > 0) {
  }
  return false;
}

struct Frame {
  bool binary = false;
  std::string bytes;
  std::uint8_t opcode() const { return static_cast<std::uint8_t>(bytes.at(0)); }
  template <class T>
  T le(std::size_t at, std::size_t n) const {
    T v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<T>(static_cast<std::uint8_t>(bytes.at(at + i))) << (8 * i);
    return v;
  }
  std::uint32_t subscription() const { return le<std::uint32_t>(1, 4); }
  std::uint64_t timestamp() const { return le<std::uint64_t>(5, 8); }
  std::string payload() const { return bytes.substr(13); }
};

// A WebSocket client of the test's own, one operation at a time, each bounded by k_wait.
class Client {
 public:
  explicit Client(std::uint16_t port, const char* subprotocol = "foxglove.websocket.v1", int receive_buffer = 0) {
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4());
    // A small receive window makes a client that never reads fill up soon.
    if (receive_buffer > 0) socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    ws_.set_option(websocket::stream_base::decorator([subprotocol](websocket::request_type& req) {
      if (subprotocol != nullptr) req.set(http::field::sec_websocket_protocol, subprotocol);
    }));
    bool done = false;
    ws_.async_handshake(response_, "127.0.0.1:" + std::to_string(port), "/", [&](beast::error_code ec) {
      error_ = ec;
      done = true;
    });
    run_until(ioc_, done, socket);
  }

  bool open() const { return !error_ && ws_.is_open(); }
  const websocket::response_type& handshake_response() const { return response_; }
  beast::error_code error() const { return error_; }
  websocket::close_reason close_reason() const { return ws_.reason(); }

  std::optional<Frame> read() {
    beast::flat_buffer buffer;
    bool done = false;
    ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
      error_ = ec;
      done = true;
    });
    if (!run_until(ioc_, done, beast::get_lowest_layer(ws_).socket()) || error_) return std::nullopt;
    return Frame{ws_.got_binary(), beast::buffers_to_string(buffer.data())};
  }

  Json read_json() {
    const auto frame = read();
    REQUIRE(frame);
    REQUIRE_FALSE(frame->binary);
    return Json::parse(frame->bytes);
  }

  // The next message data frame, skipping nothing: anything else fails the test.
  Frame read_message() {
    auto frame = read();
    INFO("read error: " << error_.message());
    REQUIRE(frame);
    REQUIRE(frame->binary);
    REQUIRE(frame->bytes.size() >= 13);
    REQUIRE(frame->opcode() == 0x01);
    return *frame;
  }

  void write(const std::string& bytes, bool binary = false) {
    ws_.binary(binary);
    bool done = false;
    ws_.async_write(asio::buffer(bytes), [&](beast::error_code ec, std::size_t) {
      error_ = ec;
      done = true;
    });
    run_until(ioc_, done, beast::get_lowest_layer(ws_).socket());
    REQUIRE_FALSE(error_);
  }

  // serverInfo and advertise, which the server sends first.
  void skip_greeting() {
    REQUIRE(read_json()["op"] == "serverInfo");
    REQUIRE(read_json()["op"] == "advertise");
  }

 private:
  asio::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  websocket::response_type response_;
  beast::error_code error_;
};

struct HttpReply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
};

HttpReply http_get(std::uint16_t port, const std::string& target, http::verb method = http::verb::get) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  bool done = false;
  beast::error_code error;
  http::async_read(stream, buffer, res, [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  run_until(ioc, done, stream.socket());
  REQUIRE_FALSE(error);
  return HttpReply{res.result_int(), std::string(res[http::field::content_type]), res.body()};
}

std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

LiveChannel channel(std::string topic, std::optional<double> rate_hz = std::nullopt) {
  LiveChannel c;
  c.topic = std::move(topic);
  c.schema_name = "praxis_msgs/msg/Sample";
  c.schema = "float64 value\nuint8 mode\n";
  c.rate_hz = rate_hz;
  return c;
}

LiveOptions any_port() {
  LiveOptions o;
  o.port = 0;
  return o;
}

std::string subscribe(std::initializer_list<std::pair<int, int>> subs) {
  Json list = Json::array();
  for (const auto& [id, ch] : subs) list.push_back({{"id", id}, {"channelId", ch}});
  return Json{{"op", "subscribe"}, {"subscriptions", list}}.dump();
}

TEST_CASE("parse_client_message reads subscribe and unsubscribe", "[observe][live]") {
  const auto sm = parse_client_message(
      R"({"op":"subscribe","subscriptions":[{"id":0,"channelId":3},{"id":4294967295,"channelId":0}]})");
  const auto& s = as<Subscribe>(sm);
  REQUIRE(s.subscriptions.size() == 2);
  CHECK(s.subscriptions[0] == std::pair<std::uint32_t, std::uint32_t>{0, 3});
  CHECK(s.subscriptions[1] == std::pair<std::uint32_t, std::uint32_t>{4294967295u, 0});

  const auto um = parse_client_message(R"({"op":"unsubscribe","subscriptionIds":[7,2]})");
  const auto& u = as<Unsubscribe>(um);
  CHECK(u.subscription_ids == std::vector<std::uint32_t>{7, 2});

  // Fields the protocol may add later are ignored; an empty list is a message that changes nothing.
  const auto empty_s = parse_client_message(R"({"subscriptions":[],"op":"subscribe","extra":1})");
  CHECK(as<Subscribe>(empty_s).subscriptions.empty());
  const auto empty_u = parse_client_message(R"({"op":"unsubscribe","subscriptionIds":[]})");
  CHECK(as<Unsubscribe>(empty_u).subscription_ids.empty());
}

TEST_CASE("parse_client_message refuses everything else with the reason", "[observe][live]") {
  CHECK(refusal("") == "not JSON");
  CHECK(refusal("{\"op\":\"subscribe\"") == "not JSON");
  CHECK(refusal("[1,2]") == "not a JSON object");
  CHECK(refusal("{}") == "no \"op\" string");
  CHECK(refusal(R"({"op":1})") == "no \"op\" string");
  CHECK(refusal(R"({"op":"hello"})") == "unknown op \"hello\"");
  CHECK(refusal(std::string(R"({"op":")") + std::string(50, 'x') + "\"}") ==
        "unknown op \"" + std::string(40, 'x') + "...\"");
  // Ops that need a capability this read-only server does not offer.
  for (const char* op : {"advertise", "unadvertise", "getParameters", "setParameters", "subscribeParameterUpdates",
                         "unsubscribeParameterUpdates", "subscribeConnectionGraph", "unsubscribeConnectionGraph",
                         "fetchAsset"}) {
    INFO(op);
    CHECK(refusal(Json{{"op", op}}.dump()) == "op \"" + std::string(op) + "\" is not offered: this server is read-only");
  }
  CHECK(refusal(R"({"op":"subscribe"})") == "subscribe without a \"subscriptions\" array");
  CHECK(refusal(R"({"op":"subscribe","subscriptions":{"id":1}})") == "subscribe without a \"subscriptions\" array");
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[3]})") == "subscribe: an entry is not an object");
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":1}]})") == "subscribe: an entry lacks \"id\" or \"channelId\"");
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"channelId":1}]})") ==
        "subscribe: an entry lacks \"id\" or \"channelId\"");
  const std::string bad_id = "subscribe: an id or channelId is not an unsigned 32-bit integer";
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":-1,"channelId":0}]})") == bad_id);
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":1.5,"channelId":0}]})") == bad_id);
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":"1","channelId":0}]})") == bad_id);
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":4294967296,"channelId":0}]})") == bad_id);
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":0,"channelId":4294967296}]})") == bad_id);
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":1,"channelId":0},{"id":1,"channelId":2}]})") ==
        "subscribe: a subscription id appears twice");
  CHECK(refusal(R"({"op":"subscribe","subscriptions":[{"id":1,"channelId":0},{"id":2,"channelId":0}]})") ==
        "subscribe: a channel appears twice");
  CHECK(refusal(R"({"op":"unsubscribe"})") == "unsubscribe without a \"subscriptionIds\" array");
  CHECK(refusal(R"({"op":"unsubscribe","subscriptionIds":3})") == "unsubscribe without a \"subscriptionIds\" array");
  const std::string bad_unsub = "unsubscribe: a subscription id is not an unsigned 32-bit integer";
  CHECK(refusal(R"({"op":"unsubscribe","subscriptionIds":[-3]})") == bad_unsub);
  CHECK(refusal(R"({"op":"unsubscribe","subscriptionIds":[null]})") == bad_unsub);
  CHECK(refusal(R"({"op":"unsubscribe","subscriptionIds":[4294967296]})") == bad_unsub);
  CHECK(refusal(R"({"op":"unsubscribe","subscriptionIds":[5,5]})") == "unsubscribe: a subscription id appears twice");
  // Longer than the server's WebSocket limit, even if it were valid JSON.
  const std::string padded = R"({"op":"unsubscribe","subscriptionIds":[],"pad":")" +
                             std::string(max_client_message_bytes, ' ') + "\"}";
  CHECK(refusal(padded) == "longer than 65536 bytes");
}

TEST_CASE("LiveServer binds loopback by default and names the address it cannot bind", "[observe][live]") {
  CHECK(LiveOptions{}.address == "127.0.0.1");
  CHECK(LiveOptions{}.port == 8765);
  LiveServer server({channel("/a")}, any_port());
  REQUIRE(server.port() != 0);
  Client loopback(server.port());
  CHECK(loopback.open());

  // Not reachable through this machine's other addresses.
  ifaddrs* list = nullptr;
  REQUIRE(getifaddrs(&list) == 0);
  int tried = 0;
  for (auto* a = list; a != nullptr; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET) continue;
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    const asio::ip::address_v4 address(ntohl(in->sin_addr.s_addr));
    if (address.is_loopback()) continue;
    asio::io_context ioc;
    tcp::socket socket(ioc);
    beast::error_code ec;
    socket.connect(tcp::endpoint(address, server.port()), ec);
    INFO(address.to_string());
    CHECK(ec == asio::error::connection_refused);
    ++tried;
  }
  freeifaddrs(list);
  if (tried == 0) WARN("no non-loopback IPv4 address here: only the default was checked");

  LiveOptions same = any_port();
  same.port = server.port();
  try {
    LiveServer second({channel("/a")}, same);
    FAIL("a second server bound the same port");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("127.0.0.1:" + std::to_string(server.port())));
  }
  LiveOptions nonsense = any_port();
  nonsense.address = "not-an-address";
  CHECK_THROWS_WITH(LiveServer({channel("/a")}, nonsense), Catch::Contains("not-an-address:0"));
}

TEST_CASE("LiveServer refuses a negative or non-finite rate", "[observe][live]") {
  LiveOptions o = any_port();
  o.rate_hz = -1;
  CHECK_THROWS_AS(LiveServer({channel("/a")}, o), std::invalid_argument);
  CHECK_THROWS_AS(LiveServer({channel("/a", std::numeric_limits<double>::infinity())}, any_port()),
                  std::invalid_argument);
}

TEST_CASE("LiveServer greets a client with serverInfo and advertises every channel", "[observe][live]") {
  LiveChannel a = channel("/praxis/robot_state");
  a.schema_name = "praxis_msgs/msg/RobotState";
  a.schema = "float64[3] gyro\npraxis_msgs/Imu imu\n" + std::string(80, '=') + "\nMSG: praxis_msgs/Imu\nbool ok\n";
  LiveOptions o = any_port();
  o.name = "robot-7";
  LiveServer server({a, channel("/motion_command")}, o);
  Client client(server.port());
  REQUIRE(client.open());
  CHECK(client.handshake_response()[http::field::sec_websocket_protocol] == "foxglove.websocket.v1");

  const auto info = client.read_json();
  CHECK(info["op"] == "serverInfo");
  CHECK(info["name"] == "robot-7");
  CHECK(info["capabilities"] == Json::array());  // read-only: no clientPublish, parameters, services...

  const auto ad = client.read_json();
  CHECK(ad["op"] == "advertise");
  REQUIRE(ad["channels"].size() == 2);
  const auto& c0 = ad["channels"][0];
  CHECK(c0["id"] == 0);
  CHECK(c0["topic"] == "/praxis/robot_state");
  CHECK(c0["encoding"] == "cdr");
  CHECK(c0["schemaName"] == "praxis_msgs/msg/RobotState");
  CHECK(c0["schema"] == a.schema);
  CHECK(c0["schemaEncoding"] == "ros2msg");
  CHECK(ad["channels"][1]["id"] == 1);
  CHECK(ad["channels"][1]["topic"] == "/motion_command");
  CHECK(server.stats().accepted == 1);
  CHECK(server.stats().clients == 1);
}

TEST_CASE("LiveServer sends each subscribed message as a binary frame with its ids and time", "[observe][live]") {
  LiveServer server({channel("/a", 0.0), channel("/b", 0.0)}, any_port());
  Client client(server.port());
  client.skip_greeting();
  client.write(subscribe({{17, 1}, {4, 0}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 2; }));

  const std::string first = std::string("\x00\x01\x00\x00payload one\xff", 16);
  const std::string second = "b";
  server.publish(1, 1'700'000'000'123'456'789ull, bytes_of(first));
  server.publish(0, 42, bytes_of(second));
  server.publish(0, 43, {});

  const auto f1 = client.read_message();
  CHECK(f1.subscription() == 17);
  CHECK(f1.timestamp() == 1'700'000'000'123'456'789ull);
  CHECK(f1.payload() == first);
  const auto f2 = client.read_message();
  CHECK(f2.subscription() == 4);
  CHECK(f2.timestamp() == 42);
  CHECK(f2.payload() == second);
  const auto f3 = client.read_message();
  CHECK(f3.timestamp() == 43);
  CHECK(f3.payload().empty());
  REQUIRE(wait_until([&] { return server.stats().messages_sent == 3; }));
  CHECK(server.stats().bytes_sent == 3 * 13 + first.size() + second.size());
}

TEST_CASE("LiveServer limits each channel's rate per client", "[observe][live]") {
  // /default at LiveOptions::rate_hz (50 Hz: 20 ms), /fast at 100 Hz (10 ms), /all every message,
  // /marker every message: published last, so its arrival says every earlier frame has arrived.
  LiveServer server({channel("/default"), channel("/fast", 100.0), channel("/all", 0.0), channel("/marker", 0.0)},
                    any_port());
  Client client(server.port());
  client.skip_greeting();
  client.write(subscribe({{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 4; }));

  // 1000 messages per channel, log times 1 ms apart from t0. A message goes out when it is at least
  // one period after the last one sent, so at 20 ms: t0, t0+20, ..., t0+980 ms = 50; at 10 ms: 100.
  const std::uint64_t t0 = 5'000'000'000;
  const auto payload = bytes_of("12345678");
  for (std::uint64_t i = 0; i < 1000; ++i) {
    for (std::size_t ch = 0; ch < 3; ++ch) server.publish(ch, t0 + i * 1'000'000, payload);
  }
  server.publish(3, 1, payload);

  std::array<std::vector<std::uint64_t>, 3> times;
  for (;;) {
    const auto f = client.read_message();
    if (f.subscription() == 3) break;
    REQUIRE(f.subscription() < 3);
    times[f.subscription()].push_back(f.timestamp());
  }
  CHECK(times[0].size() == 50);
  CHECK(times[1].size() == 100);
  CHECK(times[2].size() == 1000);
  std::vector<std::uint64_t> gaps;
  for (std::size_t i = 1; i < times[0].size(); ++i) gaps.push_back(times[0][i] - times[0][i - 1]);
  CHECK(gaps == std::vector<std::uint64_t>(49, 20'000'000));
  CHECK(times[0].front() == t0);
  CHECK(times[1].back() == t0 + 990'000'000);
  CHECK(server.stats().dropped_behind == 0);

  // A log time before the last one sent starts a new timeline (a replay from the start): sent.
  server.publish(0, t0, payload);
  server.publish(3, 2, payload);
  const auto again = client.read_message();
  CHECK(again.subscription() == 0);
  CHECK(again.timestamp() == t0);
}

TEST_CASE("LiveServer stops sending a channel after unsubscribe", "[observe][live]") {
  LiveServer server({channel("/a", 0.0), channel("/b", 0.0)}, any_port());
  Client client(server.port());
  client.skip_greeting();
  client.write(subscribe({{5, 0}, {6, 1}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 2; }));
  server.publish(0, 1, bytes_of("a"));
  CHECK(client.read_message().subscription() == 5);

  client.write(R"({"op":"unsubscribe","subscriptionIds":[5]})");
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 1; }));
  server.publish(0, 2, bytes_of("a"));
  server.publish(1, 3, bytes_of("b"));
  const auto f = client.read_message();  // /a's message is not sent: /b's comes first
  CHECK(f.subscription() == 6);
  CHECK(f.timestamp() == 3);

  // The channel can be subscribed again, under a new id.
  client.write(subscribe({{9, 0}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 2; }));
  server.publish(0, 4, bytes_of("a"));
  CHECK(client.read_message().subscription() == 9);
}

TEST_CASE("LiveServer closes a client that sends what it does not accept and lives on", "[observe][live]") {
  LiveServer server({channel("/a", 0.0), channel("/b", 0.0)}, any_port());
  const auto closes = [&](const std::string& message, bool binary, const std::string& reason) {
    const auto before = server.stats().closed_malformed;
    Client client(server.port());
    client.skip_greeting();
    client.write(subscribe({{1, 0}}));
    client.write(message, binary);
    // The server says why in a status message, then closes with "policy error".
    const auto status = client.read_json();
    CHECK(status["op"] == "status");
    CHECK(status["level"] == 2);
    CHECK(status["message"] == "closing the connection: " + reason);
    CHECK_FALSE(client.read());
    CHECK(client.error() == websocket::error::closed);
    CHECK(client.close_reason().code == websocket::close_code::policy_error);
    REQUIRE(wait_until([&] { return server.stats().clients == 0; }));
    CHECK(server.stats().closed_malformed == before + 1);
    CHECK(server.stats().subscriptions == 0);
  };
  SECTION("not JSON") { closes("hello", false, "not JSON"); }
  SECTION("an unknown op") { closes(R"({"op":"dance"})", false, "unknown op \"dance\""); }
  SECTION("a binary frame (clientPublish is not offered)") {
    closes(std::string("\x01\x00\x00\x00\x00", 5), true,
           "a binary message: this server is read-only and does not offer clientPublish");
  }
  SECTION("a channel that does not exist") { closes(subscribe({{2, 7}}), false, "subscribe: no channel 7"); }
  SECTION("a subscription id in use") { closes(subscribe({{1, 1}}), false, "subscribe: subscription id 1 is in use"); }
  SECTION("a second subscription of a channel") {
    closes(subscribe({{2, 0}}), false, "subscribe: channel 0 is already subscribed");
  }
  SECTION("unsubscribing an unknown id") {
    closes(R"({"op":"unsubscribe","subscriptionIds":[1,8]})", false, "unsubscribe: no subscription 8");
  }
  // The server lives on: the next client is served.
  Client next(server.port());
  next.skip_greeting();
  next.write(subscribe({{3, 1}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 1; }));
  server.publish(1, 77, bytes_of("x"));
  CHECK(next.read_message().timestamp() == 77);
}

TEST_CASE("LiveServer closes a client whose message is over the size limit", "[observe][live]") {
  LiveServer server({channel("/a")}, any_port());
  Client client(server.port());
  client.skip_greeting();
  client.write(std::string(max_client_message_bytes + 1, ' '));
  CHECK_FALSE(client.read());
  CHECK(client.error() == websocket::error::closed);
  CHECK(client.close_reason().code == websocket::close_code::too_big);
  REQUIRE(wait_until([&] { return server.stats().clients == 0; }));
  CHECK(server.stats().closed_malformed == 1);
}

TEST_CASE("LiveServer takes Foxglove's subprotocol from a list of offers", "[observe][live]") {
  LiveServer server({channel("/a")}, any_port());
  Client client(server.port(), "json, foxglove.websocket.v1 ,other");
  REQUIRE(client.open());
  CHECK(client.handshake_response()[http::field::sec_websocket_protocol] == "foxglove.websocket.v1");
  Client wrong(server.port(), "foxglove.websocket.v2, xfoxglove.websocket.v1");
  CHECK_FALSE(wrong.open());
  CHECK(wrong.handshake_response().result() == http::status::bad_request);
}

TEST_CASE("LiveServer refuses the client after max_clients and counts it", "[observe][live]") {
  LiveOptions o = any_port();
  o.max_clients = 2;
  LiveServer server({channel("/a")}, o);
  std::optional<Client> first(std::in_place, server.port());
  Client second(server.port());
  REQUIRE(first->open());
  REQUIRE(second.open());
  Client third(server.port());
  CHECK_FALSE(third.open());
  CHECK(third.handshake_response().result() == http::status::service_unavailable);
  CHECK(server.stats().refused_full == 1);
  CHECK(server.stats().accepted == 2);

  // A place frees when a client leaves.
  first.reset();
  REQUIRE(wait_until([&] { return server.stats().clients == 1; }));
  Client fourth(server.port());
  CHECK(fourth.open());
  CHECK(server.stats().refused_full == 1);
}

TEST_CASE("LiveServer drops a client that never reads and publish keeps returning", "[observe][live]") {
  LiveOptions o = any_port();
  o.max_backlog_bytes = 1 << 20;
  LiveServer server({channel("/big", 0.0), channel("/small", 0.0)}, o);
  Client stuck(server.port(), "foxglove.websocket.v1", 8192);
  stuck.skip_greeting();
  stuck.write(subscribe({{0, 0}}));
  Client reader(server.port());
  reader.skip_greeting();
  reader.write(subscribe({{1, 1}}));
  REQUIRE(wait_until([&] { return server.stats().subscriptions == 2; }));

  // The stuck client's kernel buffers (a small receive window) take little, then its backlog passes
  // 1 MiB, about 16 messages: the server drops it. Publish goes on regardless; bounded (128 MB at
  // most) so a server that never drops fails instead of hanging. The short pauses let the server's
  // thread run on a busy machine, so the publisher does not only outrun it (dropped_behind).
  const std::vector<std::byte> big(64 * 1024, std::byte{0x5a});
  const auto small = bytes_of("small");
  std::uint64_t t = 1;
  auto slowest = std::chrono::steady_clock::duration::zero();
  for (; t < 2'000 && server.stats().dropped_slow == 0; ++t) {
    if (t % 16 == 0) std::this_thread::sleep_for(1ms);
    const auto start = std::chrono::steady_clock::now();
    server.publish(0, t, big);
    server.publish(1, t, small);
    slowest = std::max(slowest, std::chrono::steady_clock::now() - start);
  }
  CHECK(server.stats().dropped_slow == 1);
  // A loose bound: a publish that waited on the stuck client would wait until the end of the test.
  CHECK(slowest < 1s);
  REQUIRE(wait_until([&] { return server.stats().clients == 1; }));

  // The other client was served throughout, up to the last message.
  server.publish(1, 1'000'000, small);
  std::size_t received = 0;
  for (;;) {
    const auto f = reader.read_message();
    CHECK(f.payload() == "small");
    if (f.timestamp() == 1'000'000) break;
    ++received;
  }
  CHECK(received > 0);
  CHECK(received + server.stats().dropped_behind >= t - 1);
}

TEST_CASE("LiveServer publish copies nothing while no client subscribes", "[observe][live]") {
  LiveServer server({channel("/a")}, any_port());
  const auto payload = bytes_of("some bytes of a message");
  const auto before = praxis::test::thread_allocation_count();
  for (std::uint64_t t = 0; t < 100; ++t) server.publish(0, t, payload);
  CHECK(praxis::test::thread_allocation_count() == before);
  CHECK_THROWS_AS(server.publish(1, 0, payload), std::out_of_range);
}

TEST_CASE("LiveServer answers HTTP on the same port", "[observe][live]") {
  const auto dir = std::filesystem::temp_directory_path() / ("praxis_live_http_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto chart = dir / "chart.js";
  std::ofstream(chart) << "window.Chart = function () {};\n";
  LiveOptions o = any_port();
  o.chart_js = chart;
  LiveServer server({channel("/a")}, o);

  const auto page = http_get(server.port(), "/");
  CHECK(page.status == 200);
  CHECK(page.content_type == "text/html; charset=utf-8");
  CHECK(page.body == live_page());

  const auto js = http_get(server.port(), "/chart.js");
  CHECK(js.status == 200);
  CHECK(js.content_type == "application/javascript");
  CHECK(js.body == "window.Chart = function () {};\n");

  const auto other = http_get(server.port(), "/etc/passwd");
  CHECK(other.status == 404);
  CHECK_THAT(other.body, Catch::Contains("/chart.js"));
  CHECK(http_get(server.port(), "/?channel=/a").status == 200);  // the page's own query: still the page
  CHECK(http_get(server.port(), "/", http::verb::post).status == 405);

  // The file is read at each request: gone, it is a 404 that says where it was looked for.
  std::filesystem::remove_all(dir);
  const auto missing = http_get(server.port(), "/chart.js");
  CHECK(missing.status == 404);
  CHECK_THAT(missing.body, Catch::Contains(chart.string()) && Catch::Contains("libjs-chart.js"));

  // An upgrade without Foxglove's subprotocol is not a client.
  Client plain(server.port(), nullptr);
  CHECK_FALSE(plain.open());
  CHECK(plain.handshake_response().result() == http::status::bad_request);
  CHECK(server.stats().accepted == 0);
}

}  // namespace live_server_test
}  // namespace
