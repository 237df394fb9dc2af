// One port name used with two distinct value types that print alike (local classes of one name in
// two lambdas of one function). The analysis compares type names, so the exact check must catch it.
#include "praxis/graph.hpp"

template <class T>
struct Reading : praxis::port<"reading", T> {};

int main() {
  // Both print as "main()::<lambda()>::Sample" with g++ and alike with clang.
  const auto first = [] {
    struct Sample {
      double v;
    };
    return Sample{};
  }();
  const auto second = [] {
    struct Sample {
      int v;
    };
    return Sample{};
  }();
  using First = std::remove_const_t<decltype(first)>;
  using Second = std::remove_const_t<decltype(second)>;
  struct Writer {
    using outputs = praxis::ports<Reading<First>>;
    void cycle(First&) {}
  };
  struct Reader {
    using inputs = praxis::ports<Reading<Second>>;
    void cycle(const Second&) {}
  };
  praxis::Pipeline<Writer, Reader> pipeline;
  pipeline.cycle();
}

// expect: two different value types with the same printed name
