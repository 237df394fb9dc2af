#include "praxis/graph.hpp"

struct A : praxis::port<"a", int> {};
struct B : praxis::port<"b", int> {};
struct C : praxis::port<"c", int> {};

struct Source {
  using outputs = praxis::ports<A, B>;
  void cycle(int&, int&) {}
};
struct Reader {
  using inputs = praxis::ports<A, B>;  // declared two inputs, but the view lists one
  using outputs = praxis::ports<C>;
  void cycle(praxis::in<A> in, praxis::out<C> out) { out.get<C>() = in.get<A>(); }
};

praxis::Pipeline<Source, Reader> pipeline;

// expect: named_cycle_disagrees_with_declared_ports<Reader
