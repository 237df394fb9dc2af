// Graph overhead: a 32-node pipeline sorted at compile time versus the same node calls written by
// hand in one function, measured in the same process. Target: ratio <= 1.05.

#include <array>
#include <cstdio>
#include <string>
#include <string_view>

#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/graph.hpp"

namespace {

inline constexpr std::size_t k_stages = 32;
inline constexpr auto k_names = [] {
  std::array<std::array<char, 4>, k_stages> names{};
  for (std::size_t i = 0; i < k_stages; ++i) {
    names[i][0] = 'w';
    names[i][1] = static_cast<char>('0' + i / 10);
    names[i][2] = static_cast<char>('0' + i % 10);
  }
  return names;
}();

template <std::size_t I>
struct W {
  using type = double;
  static constexpr std::string_view name{k_names[I].data()};
};

// Stage I reads stages I-1 and I/2 and keeps a little state of its own.
template <std::size_t I>
struct Stage {
  using inputs = praxis::ports<W<I - 1>, W<I / 2>>;
  using outputs = praxis::ports<W<I>>;
  double acc = 0.0;
  void cycle(const double& a, const double& b, double& out) {
    out = 0.5 * a + 0.25 * b + acc;
    acc = acc * 0.999 + 1e-3 * static_cast<double>(I);
  }
};
template <>
struct Stage<0> {
  using outputs = praxis::ports<W<0>>;
  double counter = 0.0;
  void cycle(double& out) { out = (counter += 1.0) * 1e-6; }
};

// Listed last-to-first so the sort has real work to do.
template <class Seq>
struct reversed;
template <std::size_t... I>
struct reversed<std::index_sequence<I...>> {
  using type = praxis::Pipeline<Stage<k_stages - 1 - I>...>;
};
using Graph = reversed<std::make_index_sequence<k_stages>>::type;

// The baseline: the same nodes, the same calls, in the same order, typed out by hand.
struct HandWritten {
  Stage<0> s0; Stage<1> s1; Stage<2> s2; Stage<3> s3; Stage<4> s4; Stage<5> s5; Stage<6> s6;
  Stage<7> s7; Stage<8> s8; Stage<9> s9; Stage<10> s10; Stage<11> s11; Stage<12> s12;
  Stage<13> s13; Stage<14> s14; Stage<15> s15; Stage<16> s16; Stage<17> s17; Stage<18> s18;
  Stage<19> s19; Stage<20> s20; Stage<21> s21; Stage<22> s22; Stage<23> s23; Stage<24> s24;
  Stage<25> s25; Stage<26> s26; Stage<27> s27; Stage<28> s28; Stage<29> s29; Stage<30> s30;
  Stage<31> s31;
  std::array<double, k_stages> w{};

  void cycle() {
    s0.cycle(w[0]);
    s1.cycle(w[0], w[0], w[1]);
    s2.cycle(w[1], w[1], w[2]);
    s3.cycle(w[2], w[1], w[3]);
    s4.cycle(w[3], w[2], w[4]);
    s5.cycle(w[4], w[2], w[5]);
    s6.cycle(w[5], w[3], w[6]);
    s7.cycle(w[6], w[3], w[7]);
    s8.cycle(w[7], w[4], w[8]);
    s9.cycle(w[8], w[4], w[9]);
    s10.cycle(w[9], w[5], w[10]);
    s11.cycle(w[10], w[5], w[11]);
    s12.cycle(w[11], w[6], w[12]);
    s13.cycle(w[12], w[6], w[13]);
    s14.cycle(w[13], w[7], w[14]);
    s15.cycle(w[14], w[7], w[15]);
    s16.cycle(w[15], w[8], w[16]);
    s17.cycle(w[16], w[8], w[17]);
    s18.cycle(w[17], w[9], w[18]);
    s19.cycle(w[18], w[9], w[19]);
    s20.cycle(w[19], w[10], w[20]);
    s21.cycle(w[20], w[10], w[21]);
    s22.cycle(w[21], w[11], w[22]);
    s23.cycle(w[22], w[11], w[23]);
    s24.cycle(w[23], w[12], w[24]);
    s25.cycle(w[24], w[12], w[25]);
    s26.cycle(w[25], w[13], w[26]);
    s27.cycle(w[26], w[13], w[27]);
    s28.cycle(w[27], w[14], w[28]);
    s29.cycle(w[28], w[14], w[29]);
    s30.cycle(w[29], w[15], w[30]);
    s31.cycle(w[30], w[15], w[31]);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "graph_overhead.json";
  Graph graph;
  HandWritten hand;

  // Same results first: a benchmark of two programs that compute different things means nothing.
  for (int i = 0; i < 1000; ++i) {
    graph.cycle();
    hand.cycle();
  }
  if (graph.get<W<31>>() != hand.w[31]) {
    std::fprintf(stderr, "graph and hand-written variants disagree: %.17g vs %.17g\n",
                 graph.get<W<31>>(), hand.w[31]);
    return 1;
  }

  const auto [g, h] = praxis::bench::interleaved(
      [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) graph.cycle();
        praxis::bench::keep(graph.get<W<31>>());
      },
      [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) hand.cycle();
        praxis::bench::keep(hand.w[31]);
      },
      /*batches=*/praxis::bench::scaled<std::size_t>(400, 40), /*per_batch=*/2000);

  const auto gd = praxis::bench::summarize(g);
  const auto hd = praxis::bench::summarize(h);
  praxis::bench::print_table("graph overhead: 32 nodes, ns per cycle (median of 400 batches of 2000 cycles)",
                             {{"praxis::Pipeline (sorted at compile time)", gd},
                              {"hand-written calls (baseline)", hd}});
  const double ratio = gd.p50 / hd.p50;
  std::printf("\n  ratio pipeline / hand-written (p50): %.3f  (target <= 1.05)\n", ratio);

  const std::vector<praxis::bench::ReportRow> report{
      {"32-node hand-written calls (baseline)", hd, "", std::nullopt},
      {"32-node praxis::Pipeline cycle", gd, "32-node hand-written calls (baseline)", std::nullopt}};
  praxis::bench::write_json(json_path, {{"benchmark", "graph_overhead"},
                                        {"report", praxis::bench::report_json(report)},
                                        {"nodes", k_stages},
                                        {"pipeline", praxis::bench::to_json(gd)},
                                        {"hand_written", praxis::bench::to_json(hd)},
                                        {"ratio_p50", ratio},
                                        {"target_ratio", 1.05}});
  return 0;
}
