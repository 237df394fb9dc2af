// A praxis DDS participant in a process of its own, for cyclone_uri_test.cpp: the test starts it
// with CYCLONEDDS_URI set (or not) in its environment, which a test process cannot change for
// itself without affecting everything else running in it. PRAXIS_DDS_TAG is inherited.
//
//   cyclone_uri_peer <domain> <interface|-> describe          prints "config: " and Participant::config().describe()
//   cyclone_uri_peer <domain> <interface|-> write <seconds>   writes a sample every 20 ms for that long
//   cyclone_uri_peer <domain> <interface|-> read <seconds>    exits 0 once a sample arrived, 3 if none did in time
//
// A DdsError exits 2 with its message on stderr; wrong arguments exit 64.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "praxis/idl/std_msgs.h"
#include "praxis/transport/dds.hpp"

namespace {

namespace transport = praxis::transport;
using Sample = builtin_interfaces_msg_dds__Time_;
constexpr const char* k_topic = "praxis_test/cyclone_uri";

int write(const transport::Participant& participant, std::chrono::seconds duration) {
  transport::Publisher<Sample> publisher(participant, k_topic, &builtin_interfaces_msg_dds__Time__desc);
  const auto end = std::chrono::steady_clock::now() + duration;
  Sample sample{};
  while (std::chrono::steady_clock::now() < end) {
    ++sample.nanosec;
    publisher.write(sample);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

int read(const transport::Participant& participant, std::chrono::seconds timeout) {
  transport::Subscriber<Sample> subscriber(participant, k_topic, &builtin_interfaces_msg_dds__Time__desc);
  const auto end = std::chrono::steady_clock::now() + timeout;
  praxis::transport::Stamped<Sample> got{};
  while (std::chrono::steady_clock::now() < end) {
    if (subscriber.fetch(got)) {
      std::printf("received\n");
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "cyclone_uri_peer: no sample on \"%s\" within %lld s\n", k_topic,
               static_cast<long long>(timeout.count()));
  return 3;
}

}  // namespace

int main(int argc, char* argv[]) {
  const std::string mode = argc > 3 ? argv[3] : "";
  if (argc < 4 || (mode != "describe" && argc < 5)) {
    std::fprintf(stderr, "usage: %s <domain> <interface|-> describe | write <seconds> | read <seconds>\n", argv[0]);
    return 64;
  }
  const std::string interface = argv[2];
  const transport::DdsOptions options{static_cast<std::uint32_t>(std::strtoul(argv[1], nullptr, 10)),
                                interface == "-" ? std::string() : interface};
  try {
    const transport::Participant participant(options);
    if (mode == "describe") {
      std::printf("config: %s\n", participant.config().describe().c_str());
      return 0;
    }
    const std::chrono::seconds seconds(std::strtol(argv[4], nullptr, 10));
    if (mode == "write") return write(participant, seconds);
    if (mode == "read") return read(participant, seconds);
    std::fprintf(stderr, "%s: unknown mode \"%s\" (expected describe, write or read)\n", argv[0], mode.c_str());
    return 64;
  } catch (const transport::DdsError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
