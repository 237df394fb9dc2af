#pragma once
// Waiting on real Cyclone DDS in tests: until a writer and a reader have matched, or a subscriber has
// received n samples. Bounded at 5 s so a lost sample fails the test instead of hanging it.

#include <chrono>
#include <cstdint>
#include <thread>

#include <catch2/catch.hpp>

#include "praxis/core/clock.hpp"

namespace praxis::test {

template <class A, class B>
void wait_matched(const A& a, const B& b) {
  using namespace std::chrono_literals;
  const auto deadline = praxis::Clock::now() + 5s;
  while ((a.matched() == 0 || b.matched() == 0) && praxis::Clock::now() < deadline) std::this_thread::sleep_for(5ms);
  REQUIRE(a.matched() == 1);
  REQUIRE(b.matched() == 1);
}

template <class Sub>
bool wait_received(const Sub& sub, std::uint64_t n) {
  using namespace std::chrono_literals;
  const auto deadline = praxis::Clock::now() + 5s;
  while (sub.received() < n && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  return sub.received() >= n;
}

}  // namespace praxis::test
