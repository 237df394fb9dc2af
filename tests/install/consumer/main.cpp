// A robot team's first praxis program, built against an installed praxis.
#include <iostream>

#include <praxis/graph.hpp>

struct Value : praxis::port<"value", int> {};
struct Doubled : praxis::port<"doubled", int> {};

struct Source {
  using outputs = praxis::ports<Value>;
  void cycle(int& v) { v = 21; }
};
struct Doubler {
  using inputs = praxis::ports<Value>;
  using outputs = praxis::ports<Doubled>;
  void cycle(const int& v, int& d) { d = 2 * v; }
};

int main() {
  praxis::Pipeline<Doubler, Source> pipeline;
  pipeline.cycle();
  using P = decltype(pipeline);
  std::cout << P::node_names[0] << " -> " << P::node_names[1] << ": " << pipeline.get<Doubled>()
            << '\n';
  // The non-template part of the library links too.
  std::cout << praxis::to_dot(praxis::describe<P>()).size() << " bytes of DOT\n";
  return pipeline.get<Doubled>() == 42 ? 0 : 1;
}
