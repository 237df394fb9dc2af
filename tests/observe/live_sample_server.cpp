// A live server with a few channels of real ros2msg schemas and CDR payloads whose values change,
// for the clients nobody here wrote (tests/js: Foxglove's ws-protocol client, the page in Chromium).
//   live_sample_server [--port N] [--port-file PATH] [--seconds S]
// Publishes at 200 Hz until SIGTERM / SIGINT or S seconds (default 120); writes the bound port to
// PATH once it listens. The CDR is written by hand here, so the clients check the server's framing
// against an encoding that does not come from the code under test.

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "praxis/observe/live_server.hpp"

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

// ROS 2 CDR, little endian: a 4-byte encapsulation header, then each primitive aligned to its size
// counted from the first byte after the header.
class Cdr {
 public:
  Cdr() { bytes_ = {std::byte{0x00}, std::byte{0x01}, std::byte{0x00}, std::byte{0x00}}; }
  template <class T>
  Cdr& put(T value) {
    while ((bytes_.size() - 4) % sizeof(T) != 0) bytes_.push_back(std::byte{0});
    const auto at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
    return *this;
  }
  Cdr& text(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size() + 1));
    for (const char c : s) bytes_.push_back(static_cast<std::byte>(c));
    bytes_.push_back(std::byte{0});
    return *this;
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

const std::string k_imu_schema =
    "float64[3] gyro\n"
    "float64[3] accel\n"
    "float32 temperature\n";

void put_imu(Cdr& c, double t) {
  for (int i = 0; i < 3; ++i) c.put(std::sin(2.0 * t + i));  // gyro: rad/s
  c.put(0.3 * std::cos(t)).put(0.0).put(9.81);               // accel: m/s^2
  c.put(static_cast<float>(40.0 + std::sin(0.1 * t)));      // temperature
}

}  // namespace

int main(int argc, char** argv) {
  praxis::observe::LiveOptions options;
  options.port = 0;
  options.name = "praxis-sample";
  std::string port_file;
  double seconds = 120;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--port") options.port = static_cast<std::uint16_t>(std::atoi(argv[i + 1]));
    else if (key == "--port-file") port_file = argv[i + 1];
    else if (key == "--seconds") seconds = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }

  std::vector<praxis::observe::LiveChannel> channels(3);
  channels[0].topic = "/praxis/imu";
  channels[0].schema_name = "praxis_msgs/msg/Imu";
  channels[0].schema = k_imu_schema;
  channels[1].topic = "/praxis/sample_state";
  channels[1].schema_name = "praxis_msgs/msg/SampleState";
  channels[1].schema = "uint64 tick\n"
                       "uint8 mode\n"
                       "bool enabled\n"
                       "int16 temperature\n"
                       "praxis_msgs/Imu imu\n"
                       "float32[2] foot_force\n"
                       "string label\n"
                       "int32 error_code\n" +
                       std::string(80, '=') + "\nMSG: praxis_msgs/Imu\n" + k_imu_schema;
  channels[2].topic = "/praxis/phase";
  channels[2].schema_name = "praxis_msgs/msg/Phase";
  channels[2].schema = "float64 phase\nuint32 count\n";
  channels[2].rate_hz = 0.0;  // every message

  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  praxis::observe::LiveServer server(channels, options);
  std::printf("live_sample_server: listening on %s:%u\n", options.address.c_str(), server.port());
  std::fflush(stdout);
  if (!port_file.empty()) {
    // Written whole under another name, then renamed: a reader never sees half a number.
    const std::string partial = port_file + ".partial";
    std::ofstream(partial) << server.port() << "\n";
    std::rename(partial.c_str(), port_file.c_str());
  }

  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  for (std::uint64_t tick = 0; !g_stop; ++tick) {
    next += std::chrono::milliseconds(5);
    std::this_thread::sleep_until(next);
    if (std::chrono::steady_clock::now() - start > std::chrono::duration<double>(seconds)) break;
    const double t = 0.005 * static_cast<double>(tick);
    const auto now = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());

    Cdr imu;
    put_imu(imu, t);
    server.publish(0, now, imu.bytes());

    Cdr state;
    state.put(tick).put(static_cast<std::uint8_t>(tick / 200 % 4)).put(static_cast<std::uint8_t>(tick / 400 % 2));
    state.put(static_cast<std::int16_t>(-20 + static_cast<int>(tick % 50)));
    put_imu(state, t);
    state.put(static_cast<float>(200 + 100 * std::sin(3 * t))).put(static_cast<float>(200 - 100 * std::sin(3 * t)));
    state.text(tick / 400 % 2 ? "walking" : "standing");
    state.put(static_cast<std::int32_t>(-1));
    server.publish(1, now, state.bytes());

    Cdr phase;
    phase.put(std::fmod(t, 1.0)).put(static_cast<std::uint32_t>(tick));
    server.publish(2, now, phase.bytes());
  }
  const auto s = server.stats();
  std::printf("live_sample_server: accepted %llu, sent %llu messages, %llu dropped slow, %llu closed malformed\n",
              static_cast<unsigned long long>(s.accepted), static_cast<unsigned long long>(s.messages_sent),
              static_cast<unsigned long long>(s.dropped_slow), static_cast<unsigned long long>(s.closed_malformed));
  return 0;
}
