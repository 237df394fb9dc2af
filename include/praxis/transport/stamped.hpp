#pragma once
// A received message with the time it arrived.

#include <cstdint>

#include "praxis/core/clock.hpp"

namespace praxis::transport {

template <class T>
struct Stamped {
  T message{};
  TimePoint received{};
  std::uint64_t count = 0;  // how many messages the subscriber had received, this one included
};

}  // namespace praxis::transport
