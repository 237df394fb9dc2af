// previous<P>: last cycle's value, the port default in the first cycle, no ordering edge.

#include <catch2/catch.hpp>

#include <vector>

#include "praxis/graph.hpp"

namespace previous_test {

namespace {

struct Count : praxis::port<"count", int> {
  static int default_value() { return 100; }
};
struct Seen : praxis::port<"seen", int> {};
struct SeenLate : praxis::port<"seen_late", int> {};

// Writes count = last count + 1, reading its own output from the previous cycle.
struct Counter {
  using inputs = praxis::ports<praxis::previous<Count>>;
  using outputs = praxis::ports<Count>;
  void cycle(const int& last, int& count) { count = last + 1; }
};
// Declared (and therefore run) before Counter: it must still see last cycle's count.
struct EarlyReader {
  using inputs = praxis::ports<praxis::previous<Count>>;
  using outputs = praxis::ports<Seen>;
  void cycle(const int& last, int& seen) { seen = last; }
};
// Runs after Counter (it also reads the current count), and must see last cycle's count too.
struct LateReader {
  using inputs = praxis::ports<Count, praxis::previous<Count>>;
  using outputs = praxis::ports<SeenLate>;
  std::vector<int> current_seen;
  void cycle(const int& now, const int& last, int& seen) {
    seen = last;
    current_seen.push_back(now);
  }
};

}  // namespace

TEST_CASE("previous<> reads last cycle's value wherever the reader runs", "[graph][previous]") {
  praxis::Pipeline<EarlyReader, Counter, LateReader> p;
  using P = decltype(p);
  CHECK(P::node_names[0] == "EarlyReader");  // no edge from Counter: declaration order holds
  CHECK(P::node_names[1] == "Counter");
  CHECK(P::node_names[2] == "LateReader");

  CHECK(p.get<Count>() == 100);  // the port's default before any cycle

  p.cycle();  // first cycle: previous sees the default
  CHECK(p.get<Count>() == 101);
  CHECK(p.get<Seen>() == 100);
  CHECK(p.get<SeenLate>() == 100);

  p.cycle();
  CHECK(p.get<Count>() == 102);
  CHECK(p.get<Seen>() == 101);
  CHECK(p.get<SeenLate>() == 101);

  for (int i = 0; i < 10; ++i) p.cycle();
  CHECK(p.get<Count>() == 112);
  CHECK(p.get<Seen>() == 111);
  CHECK(p.get<SeenLate>() == 111);
  CHECK(p.node<LateReader>().current_seen.front() == 101);
  CHECK(p.node<LateReader>().current_seen.back() == 112);
}

TEST_CASE("reset restores port defaults and node state", "[graph][previous]") {
  struct Acc {
    using inputs = praxis::ports<praxis::previous<Count>>;
    using outputs = praxis::ports<Count>;
    int resets = 0;
    void cycle(const int& last, int& count) { count = last + 2; }
    void reset() { ++resets; }
  };
  praxis::Pipeline<Acc> p;
  p.cycle();
  p.cycle();
  CHECK(p.get<Count>() == 104);
  p.reset();
  CHECK(p.get<Count>() == 100);
  CHECK(p.node<Acc>().resets == 1);
  p.cycle();
  CHECK(p.get<Count>() == 102);
}

}  // namespace previous_test
