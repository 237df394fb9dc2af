// Pipelines (graph/pipeline.hpp): the constexpr topological sort (orders, ties, large graphs and
// the values that flow), previous<> (last cycle's value, the port default in the first cycle, no
// ordering edge), reset, node access, the compile-time names, and cycles that allocate nothing.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../support/alloc_counter.hpp"
#include "praxis/graph.hpp"
#include "test_ports.hpp"

namespace {
namespace pipeline_test {

// ---- the sort ----

struct Raw : praxis::port<"raw", double> {};
struct Filtered : praxis::port<"filtered", double> {};
struct Scaled : praxis::port<"scaled", double> {};
struct Offset : praxis::port<"offset", double> {};
struct Result : praxis::port<"result", double> {};

struct Source {
  using outputs = praxis::ports<Raw>;
  double next = 1.0;
  void cycle(double& raw) { raw = next; }
};
struct Filter {
  using inputs = praxis::ports<Raw>;
  using outputs = praxis::ports<Filtered>;
  void cycle(const double& raw, double& filtered) { filtered = raw * 10.0; }
};
struct Scale {
  using inputs = praxis::ports<Filtered>;
  using outputs = praxis::ports<Scaled>;
  void cycle(const double& f, double& s) { s = f * 2.0; }
};
struct Shift {
  using inputs = praxis::ports<Filtered>;
  using outputs = praxis::ports<Offset>;
  void cycle(const double& f, double& o) { o = f + 3.0; }
};
struct Join {
  using inputs = praxis::ports<Scaled, Offset>;
  using outputs = praxis::ports<Result>;
  void cycle(const double& s, const double& o, double& r) { r = s - o; }
};

template <class P>
std::vector<std::string_view> names_of() {
  return {P::node_names.begin(), P::node_names.end()};
}

TEST_CASE("a chain declared backwards runs producer first", "[graph][sort]") {
  praxis::Pipeline<Scale, Filter, Source> p;
  CHECK(names_of<decltype(p)>() == std::vector<std::string_view>{"Source", "Filter", "Scale"});
  p.node<Source>().next = 4.0;
  p.cycle();
  CHECK(p.get<Scaled>() == 80.0);
}

TEST_CASE("a diamond keeps declaration order between independent branches", "[graph][sort]") {
  using A = praxis::Pipeline<Join, Shift, Scale, Filter, Source>;
  CHECK(names_of<A>() ==
        std::vector<std::string_view>{"Source", "Filter", "Shift", "Scale", "Join"});
  using B = praxis::Pipeline<Join, Scale, Shift, Filter, Source>;
  CHECK(names_of<B>() ==
        std::vector<std::string_view>{"Source", "Filter", "Scale", "Shift", "Join"});

  A p;
  p.node<Source>().next = 0.5;
  p.cycle();
  CHECK(p.get<Filtered>() == 5.0);
  CHECK(p.get<Result>() == 10.0 - 8.0);
}

TEST_CASE("already sorted declarations are left as declared", "[graph][sort]") {
  using P = praxis::Pipeline<Source, Filter, Shift, Scale, Join>;
  CHECK(names_of<P>() ==
        std::vector<std::string_view>{"Source", "Filter", "Shift", "Scale", "Join"});
  static_assert(P::position_of<Source>() == 0);
  static_assert(P::position_of<Join>() == 4);
}

TEST_CASE("port names are listed once each in the order their producers run",
          "[graph][introspection]") {
  using P = praxis::Pipeline<Join, Shift, Scale, Filter, Source>;
  CHECK(std::vector<std::string_view>(P::port_names.begin(), P::port_names.end()) ==
        std::vector<std::string_view>{"raw", "filtered", "offset", "scaled", "result"});
}

// ---- a generated graph of 61 nodes, declared in scrambled order ----

inline constexpr std::size_t k_gen_nodes = 61;
constexpr std::size_t dep_a(std::size_t i) { return (i * 7 + 3) % i; }
constexpr std::size_t dep_b(std::size_t i) { return (i * 13 + 5) % (i - 1); }
constexpr std::size_t declared_node(std::size_t k) { return (k * 37) % k_gen_nodes; }

template <std::size_t I>
struct Gen {
  using inputs = praxis::ports<graph_test::Wire<dep_a(I)>, graph_test::Wire<dep_b(I)>>;
  using outputs = praxis::ports<graph_test::Wire<I>>;
  void cycle(const long& a, const long& b, long& out) { out = (a + 2 * b + static_cast<long>(I)) % 1000003; }
};
template <>
struct Gen<0> {
  using outputs = praxis::ports<graph_test::Wire<0>>;
  long seed = 5;
  void cycle(long& out) { out = seed; }
};
template <>
struct Gen<1> {
  using inputs = praxis::ports<graph_test::Wire<0>>;
  using outputs = praxis::ports<graph_test::Wire<1>>;
  void cycle(const long& a, long& out) { out = a * 3; }
};

template <class Seq>
struct scrambled;
template <std::size_t... K>
struct scrambled<std::index_sequence<K...>> {
  using type = praxis::Pipeline<Gen<declared_node(K)>...>;
};
using Generated = scrambled<std::make_index_sequence<k_gen_nodes>>::type;

std::vector<std::size_t> deps_of(std::size_t i) {
  if (i == 0) return {};
  if (i == 1) return {0};
  return {dep_a(i), dep_b(i)};
}

TEST_CASE("a 61-node graph sorts into the smallest valid order by declaration", "[graph][sort]") {
  // Reference: repeatedly take the first-declared node whose producers have all run.
  std::vector<std::size_t> expected;
  std::vector<bool> done(k_gen_nodes, false);
  while (expected.size() < k_gen_nodes) {
    for (std::size_t k = 0; k < k_gen_nodes; ++k) {
      const auto i = declared_node(k);
      if (done[i]) continue;
      const auto deps = deps_of(i);
      if (std::all_of(deps.begin(), deps.end(), [&](std::size_t d) { return done[d]; })) {
        done[i] = true;
        expected.push_back(i);
        break;
      }
    }
  }
  const auto g = praxis::describe<Generated>();
  REQUIRE(g.nodes.size() == k_gen_nodes);
  for (std::size_t k = 0; k < k_gen_nodes; ++k) {
    INFO("position " << k);
    // Node names are template spellings; identify each node by the wire it produces.
    const auto& produced = std::find_if(g.ports.begin(), g.ports.end(), [&](const auto& row) {
      return row.producer && *row.producer == k;
    });
    REQUIRE(produced != g.ports.end());
    CHECK(produced->name == graph_test::k_wire_names[expected[k]].data());
  }
}

TEST_CASE("a 61-node graph computes what a reference evaluation computes", "[graph][sort]") {
  Generated p;
  p.node<Gen<0>>().seed = 11;
  p.cycle();
  std::vector<long> ref(k_gen_nodes);
  ref[0] = 11;
  ref[1] = 33;
  for (std::size_t i = 2; i < k_gen_nodes; ++i) {
    ref[i] = (ref[dep_a(i)] + 2 * ref[dep_b(i)] + static_cast<long>(i)) % 1000003;
  }
  CHECK(p.get<graph_test::Wire<60>>() == ref[60]);
  CHECK(p.get<graph_test::Wire<59>>() == ref[59]);
  CHECK(p.get<graph_test::Wire<30>>() == ref[30]);
}

struct Sink {
  using inputs = praxis::ports<Result>;
  std::vector<double>* out;  // a node may hold references to the outside world
  void cycle(const double& r) { out->push_back(r); }
};

TEST_CASE("pipelines can be built from node instances", "[graph][sort]") {
  std::vector<double> seen;
  Source source;
  source.next = 2.0;
  auto p = praxis::make_pipeline(Sink{&seen}, Join{}, Shift{}, Scale{}, Filter{}, source);
  p.cycle();
  p.node<Source>().next = 3.0;
  p.cycle();
  CHECK(seen == std::vector<double>{40.0 - 23.0, 60.0 - 33.0});
  CHECK(decltype(p)::node_names.back() == "Sink");
}

// Two distinct node types that print alike (both "make_source()::<lambda()>::Node" with g++,
// "Node" with clang): node identity is the type, not its printed name or an address.
auto make_source() {
  const auto first = [] {
    struct Node {
      using outputs [[maybe_unused]] = praxis::ports<Raw>;
      void cycle(double& raw) { raw = 4.0; }
    };
    return Node{};
  }();
  const auto second = [] {
    struct Node {
      using inputs [[maybe_unused]] = praxis::ports<Raw>;
      using outputs [[maybe_unused]] = praxis::ports<Filtered>;
      void cycle(const double& raw, double& filtered) { filtered = raw + 1.0; }
    };
    return Node{};
  }();
  return std::pair{first, second};
}
using AlikeFirst = decltype(make_source().first);
using AlikeSecond = decltype(make_source().second);

TEST_CASE("distinct node types that print alike are not taken for one node listed twice",
          "[graph][sort]") {
  static_assert(!std::is_same_v<AlikeFirst, AlikeSecond>);
  static_assert(praxis::detail::type_name_v<AlikeFirst> == praxis::detail::type_name_v<AlikeSecond>);
  const auto [first, second] = make_source();
  auto p = praxis::make_pipeline(second, first);
  p.cycle();
  CHECK(p.get<Filtered>() == 5.0);
  CHECK(decltype(p)::position_of<AlikeFirst>() == 0);
  CHECK(decltype(p)::position_of<AlikeSecond>() == 1);
}

// ---- previous<> ----

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

// ---- ports by name, reset, node access and names ----

// A reader may declare the producer's port with its own struct: the name is the port.
struct RawAsRead : praxis::port<"raw", double> {};
struct Doubler {
  using inputs = praxis::ports<RawAsRead>;
  using outputs = praxis::ports<Scaled>;
  void cycle(const double& raw, double& scaled) { scaled = 2.0 * raw; }
};

TEST_CASE("two port structs with one name are one port", "[graph][pipeline]") {
  praxis::Pipeline<Doubler, Source> p;
  using P = decltype(p);
  STATIC_REQUIRE(P::port_count == 2);
  CHECK(P::node_names[0] == "Source");  // the shared name is the edge that orders them
  p.node<Source>().next = 1.5;
  p.cycle();
  CHECK(p.get<Scaled>() == 3.0);
  // Either struct reads the one storage.
  CHECK(p.get<Raw>() == 1.5);
  CHECK(p.get<RawAsRead>() == 1.5);
}

struct Ticks : praxis::port<"ticks", int> {};
struct Ticker {
  using outputs = praxis::ports<Ticks>;
  int cycles = 0;
  int resets = 0;
  void cycle(int& ticks) { ticks = ++cycles; }
  void reset() {
    ++resets;
    cycles = 0;
  }
};
// No reset(): its members are left as they are by the pipeline's reset.
struct TickLog {
  using inputs = praxis::ports<Ticks>;
  std::vector<int> seen;
  void cycle(const int& ticks) { seen.push_back(ticks); }
};

TEST_CASE("reset calls reset on the nodes that have one and leaves the others' state", "[graph][pipeline]") {
  praxis::Pipeline<TickLog, Ticker> p;
  p.cycle();
  p.cycle();
  CHECK(p.get<Ticks>() == 2);
  p.reset();
  CHECK(p.get<Ticks>() == 0);  // value-initialised: Ticks has no default_value()
  CHECK(p.node<Ticker>().resets == 1);
  CHECK(p.node<Ticker>().cycles == 0);
  CHECK(p.node<TickLog>().seen == std::vector<int>{1, 2});
  p.cycle();
  CHECK(p.node<TickLog>().seen == std::vector<int>{1, 2, 1});
  p.reset();
  CHECK(p.node<Ticker>().resets == 2);
}

TEST_CASE("node instances keep their state and are reachable through const access", "[graph][pipeline]") {
  Source source;
  source.next = 6.0;
  const auto p = [&] {
    auto pipeline = praxis::make_pipeline(Filter{}, source);
    pipeline.cycle();
    return pipeline;
  }();
  const auto& const_source = p.node<Source>();
  CHECK(const_source.next == 6.0);
  CHECK(p.get<Filtered>() == 60.0);
  STATIC_REQUIRE(std::is_same_v<decltype(p.node<Source>()), const Source&>);
}

TEST_CASE("declared names keep the declared order and node names the execution order", "[graph][pipeline]") {
  using P = praxis::Pipeline<Scale, Filter, Source>;
  STATIC_REQUIRE(P::node_count == 3);
  STATIC_REQUIRE(P::valid);
  STATIC_REQUIRE(P::declared_node_names[0] == "Scale");
  STATIC_REQUIRE(P::declared_node_names[2] == "Source");
  STATIC_REQUIRE(P::node_names[0] == "Source");
  STATIC_REQUIRE(P::node_names[2] == "Scale");
  STATIC_REQUIRE(P::position_of<Scale>() == 2);
  STATIC_REQUIRE(P::position_of<Filter>() == 1);
  for (std::size_t k = 0; k < P::node_count; ++k) {
    CHECK(P::node_names[k] == P::declared_node_names[2 - k]);
  }
}

// ---- the cycle of a non-trivial pipeline performs no heap allocation ----

namespace alloc {

inline constexpr std::size_t k_joints = 12;
using Joints = std::array<double, k_joints>;

struct Time : praxis::port<"time", double> {};
struct Measured : praxis::port<"measured", Joints> {};
struct Target : praxis::port<"target", Joints> {};
struct Torque : praxis::port<"torque", Joints> {};
struct Velocity : praxis::port<"velocity", Joints> {};

struct Clock {
  using outputs = praxis::ports<Time>;
  double t = 0;
  void cycle(double& time) { time = (t += 0.002); }
};
struct Trajectory {
  using inputs = praxis::ports<Time>;
  using outputs = praxis::ports<Target>;
  void cycle(const double& t, Joints& target) {
    for (std::size_t j = 0; j < k_joints; ++j) target[j] = 0.3 * std::sin(t + static_cast<double>(j));
  }
};
// A joint simulated by integrating the torque of the previous cycle.
struct Plant {
  using inputs = praxis::ports<praxis::previous<Torque>, praxis::previous<Velocity>>;
  using outputs = praxis::ports<Measured, Velocity>;
  Joints q{};
  void cycle(const Joints& tau, const Joints& dq_last, Joints& measured, Joints& dq) {
    for (std::size_t j = 0; j < k_joints; ++j) {
      dq[j] = dq_last[j] + 0.002 * (tau[j] - 0.5 * dq_last[j]);
      q[j] += 0.002 * dq[j];
    }
    measured = q;
  }
};
struct Pd {
  using inputs = praxis::ports<Target, Measured, Velocity>;
  using outputs = praxis::ports<Torque>;
  void cycle(const Joints& target, const Joints& q, const Joints& dq, Joints& tau) {
    for (std::size_t j = 0; j < k_joints; ++j) tau[j] = 40.0 * (target[j] - q[j]) - 1.0 * dq[j];
  }
};

}  // namespace alloc

TEMPLATE_TEST_CASE("100000 cycles allocate nothing", "[graph][realtime]",
                   (praxis::Pipeline<alloc::Pd, alloc::Plant, alloc::Trajectory, alloc::Clock>),
                   (praxis::TimedPipeline<alloc::Pd, alloc::Plant, alloc::Trajectory,
                                          alloc::Clock>)) {
  TestType pipeline;
  pipeline.cycle();  // anything lazy happens here, outside the measured loop
  praxis::test::AllocationScope scope;
  for (int i = 0; i < 100'000; ++i) pipeline.cycle();
  CHECK(scope.allocations() == 0);
  // The loop did real work: the simulated joints follow the trajectory.
  const auto& target = pipeline.template get<alloc::Target>();
  const auto& q = pipeline.template get<alloc::Measured>();
  CHECK(std::abs(q[3] - target[3]) < 0.1);
  CHECK(std::abs(q[3]) > 1e-3);
}

TEST_CASE("the allocation counter sees allocations", "[graph][realtime]") {
  praxis::test::AllocationScope scope;
  // Called directly: new-expressions may legally be optimised away, these calls may not.
  void* p = ::operator new(24);
  ::operator delete(p);
  void* q = ::operator new(64, std::align_val_t{64});
  ::operator delete(q, std::align_val_t{64});
  CHECK(scope.allocations() == 2);
}

// previous<P> copy-assigns P's value once per cycle. For a port whose value owns memory (here a
// std::vector that grows by one element per cycle) that copy allocates whenever the value outgrows
// what the copy already holds; a default_value() that reserves the largest size keeps it free.
namespace alloc {

inline constexpr std::size_t k_max_samples = 64;

struct GrowingLog : praxis::port<"growing_log", std::vector<int>> {};
struct ReservedLog : praxis::port<"reserved_log", std::vector<int>> {
  static std::vector<int> default_value() {
    std::vector<int> v;
    v.reserve(k_max_samples);
    return v;
  }
};

template <class Log>
struct Appender {
  using inputs = praxis::ports<praxis::previous<Log>>;
  using outputs = praxis::ports<Log>;
  void cycle(const std::vector<int>& last, std::vector<int>& log) {
    // The current value gets its full capacity once, so from then on the previous<> copy is the
    // only thing in the cycle that may allocate.
    if (log.capacity() < k_max_samples) log.reserve(k_max_samples);
    if (log.size() < k_max_samples) log.push_back(static_cast<int>(last.size()));
  }
};

}  // namespace alloc

TEST_CASE("previous<> of a growing vector allocates only beyond the reserved default",
          "[graph][realtime][previous]") {
  SECTION("value-initialised default: the copy allocates as the vector grows") {
    praxis::Pipeline<alloc::Appender<alloc::GrowingLog>> pipeline;
    pipeline.cycle();  // the current value reserves here
    praxis::test::AllocationScope scope;
    for (std::size_t i = 1; i < alloc::k_max_samples; ++i) pipeline.cycle();
    CHECK(scope.allocations() > 0);
    CHECK(pipeline.get<alloc::GrowingLog>().size() == alloc::k_max_samples);
  }
  SECTION("default_value() reserves the largest size: no allocation at all") {
    praxis::Pipeline<alloc::Appender<alloc::ReservedLog>> pipeline;
    praxis::test::AllocationScope scope;
    for (std::size_t i = 0; i < 2 * alloc::k_max_samples; ++i) pipeline.cycle();
    CHECK(scope.allocations() == 0);
    const auto& log = pipeline.get<alloc::ReservedLog>();
    REQUIRE(log.size() == alloc::k_max_samples);
    CHECK(log[10] == 10);  // each cycle saw last cycle's size through previous<>
  }
}

}  // namespace pipeline_test
}  // namespace
