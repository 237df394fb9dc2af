#include "praxis/graph.hpp"

struct A : praxis::port<"a", int> {};
struct B : praxis::port<"b", int> {};
struct C : praxis::port<"c", int> {};

struct Source {
  using outputs = praxis::ports<A, B>;
  void cycle(int&, int&) {}
};
struct Reader {
  void cycle(praxis::in<A> in, praxis::out<C> out) { out.get<C>() = in.get<B>(); }  // B is not listed
};

praxis::Pipeline<Source, Reader> pipeline;

// expect: get_of_a_port_the_list_does_not_name<B
