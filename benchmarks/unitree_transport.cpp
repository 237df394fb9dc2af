// Unitree over DDS, measured:
//   1. CRC per message: the table form vs the vendor's bitwise definition (target <= 0.1x)
//   2. encode (JointCommand -> LowCmd + CRC) and decode (LowState -> RobotState, CRC checked)
//   3. round trip LowCmd -> praxis-fake-robot -> LowState over loopback, next to a plain Cyclone
//      ping-pong of the same message types (the fake robot in --echo-raw mode), same run
// Prints tables and writes JSON.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

extern char** environ;

namespace {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
using clock_type = std::chrono::steady_clock;

template <class F>
double ns_per_call(F&& f, int n) {
  const auto t0 = clock_type::now();
  for (int i = 0; i < n; ++i) f();
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0).count() / n;
}

pid_t spawn(const std::string& exe, std::vector<std::string> args) {
  args.insert(args.begin(), exe);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    std::fprintf(stderr, "cannot start %s\n", exe.c_str());
    std::exit(1);
  }
  return pid;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "unitree_transport.json";
  const std::string fake = argc > 2 ? argv[2] : PRAXIS_FAKE_ROBOT;

  // ---- 1. CRC ----
  unitree_hg_msg_dds__LowCmd_ cmd{};
  unitree_hg_msg_dds__LowState_ state{};
  std::memset(&cmd, 0x5A, sizeof cmd);
  std::memset(&state, 0x3C, sizeof state);
  std::uint32_t sink = 0;
  std::vector<double> ref_cmd, fast_cmd, ref_state, fast_state;
  for (int r = 0; r < 30; ++r) {
    std::array<std::uint32_t, 250> w1;
    std::memcpy(w1.data(), &cmd, sizeof w1);
    std::array<std::uint32_t, 522> w2;
    std::memcpy(w2.data(), &state, sizeof w2);
    ref_cmd.push_back(ns_per_call([&] { sink += u::crc32_reference(w1); praxis::bench::keep(sink); }, 200));
    fast_cmd.push_back(ns_per_call([&] { sink += u::message_crc(cmd); praxis::bench::keep(sink); }, 2000));
    ref_state.push_back(ns_per_call([&] { sink += u::crc32_reference(w2); praxis::bench::keep(sink); }, 100));
    fast_state.push_back(ns_per_call([&] { sink += u::message_crc(state); praxis::bench::keep(sink); }, 1000));
  }
  const auto rc = praxis::bench::summarize(ref_cmd), fc = praxis::bench::summarize(fast_cmd);
  const auto rs = praxis::bench::summarize(ref_state), fs = praxis::bench::summarize(fast_state);
  praxis::bench::print_table("CRC per message (ns), hg LowCmd 1000 B and hg LowState 2088 B covered",
                             {{"LowCmd, bitwise reference (baseline)", rc}, {"LowCmd, table (praxis)", fc},
                              {"LowState, bitwise reference (baseline)", rs}, {"LowState, table (praxis)", fs}});
  std::printf("\n  ratio table / reference: LowCmd %.3f, LowState %.3f  (target <= 0.1)\n", fc.p50 / rc.p50,
              fs.p50 / rs.p50);

  // ---- 2. codec ----
  praxis::JointCommand<29> jc;
  jc.q.setConstant(0.1);
  jc.kp.setConstant(60);
  praxis::RobotState<29> rsx;
  u::encode_state<u::G1>(rsx, {1, 5, 0}, state);
  std::vector<double> enc, dec;
  for (int r = 0; r < 30; ++r) {
    enc.push_back(ns_per_call([&] { u::encode_command<u::G1>(jc, {0, 5}, cmd); praxis::bench::keep(cmd.crc); }, 2000));
    dec.push_back(ns_per_call([&] { sink += u::decode_state<u::G1>(state, {}, rsx); praxis::bench::keep(sink); }, 2000));
  }
  const auto e = praxis::bench::summarize(enc), d = praxis::bench::summarize(dec);
  praxis::bench::print_table("codec per message (ns), G1", {{"encode JointCommand -> LowCmd + CRC", e},
                                                             {"decode LowState -> RobotState, CRC checked", d}});

  // ---- 3. round trips over loopback ----
  const std::uint32_t full_domain = 200 + static_cast<std::uint32_t>(::getpid() % 14);  // 200-213
  const std::uint32_t raw_domain = full_domain + 15;                                   // 215-228
  const pid_t full = spawn(fake, {"--robot", "g1", "--domain", std::to_string(full_domain), "--interface", "lo", "--echo"});
  const pid_t raw = spawn(fake, {"--robot", "g1", "--domain", std::to_string(raw_domain), "--interface", "lo", "--echo-raw"});
  std::vector<double> rt_full, rt_raw;
  {
    auto options = u::UnitreeBackend<u::G1>::simulator(full_domain);
    options.mode_machine = u::Wire<u::G1>::expected_mode_machine;  // the echo robot speaks only when spoken to
    u::UnitreeBackend<u::G1> backend(options);
    praxis::transport::Participant raw_participant({raw_domain, "lo"});
    praxis::transport::Publisher<unitree_hg_msg_dds__LowCmd_> raw_pub(raw_participant, "rt/lowcmd", u::HgFamily::low_cmd_descriptor());
    praxis::transport::Subscriber<unitree_hg_msg_dds__LowState_> raw_sub(raw_participant, "rt/lowstate",
                                                                   u::HgFamily::low_state_descriptor());
    // The backend sends nothing before the robot sent a valid state, and the echo robot speaks only
    // when spoken to: a raw, valid LowCmd on the same domain starts the conversation.
    praxis::transport::Participant kick_participant({full_domain, "lo"});
    praxis::transport::Publisher<unitree_hg_msg_dds__LowCmd_> kick_pub(kick_participant, "rt/lowcmd",
                                                                 u::HgFamily::low_cmd_descriptor());
    unitree_hg_msg_dds__LowCmd_ kick{};
    u::encode_command<u::G1>(jc, {0, u::Wire<u::G1>::expected_mode_machine}, kick);
    // Both answer only when asked: send until the first answer arrives (discovery), then measure.
    praxis::RobotState<29> s;
    praxis::transport::Stamped<unitree_hg_msg_dds__LowState_> raw_state{};
    const auto discovery_deadline = clock_type::now() + 10s;
    bool full_ok = false, raw_ok = false;
    while ((!full_ok || !raw_ok) && clock_type::now() < discovery_deadline) {
      backend.write(jc, {});
      kick_pub.write(kick);
      raw_pub.write(cmd);
      std::this_thread::sleep_for(20ms);
      full_ok = full_ok || backend.read(s, {});
      raw_ok = raw_ok || raw_sub.fetch(raw_state);
    }
    if (!full_ok || !raw_ok) {
      std::fprintf(stderr, "the echo processes did not answer within 10 s\n");
      ::kill(full, SIGKILL);
      ::kill(raw, SIGKILL);
      return 1;
    }
    std::this_thread::sleep_for(100ms);
    while (backend.read(s, {})) {
    }
    while (raw_sub.fetch(raw_state)) {
    }
    auto round_trip = [&](auto&& send, auto&& received) {
      const auto t0 = clock_type::now();
      send();
      while (!received()) {  // both sides poll every 20 us, so the two paths wait alike
        if (clock_type::now() - t0 > 1s) return -1.0;
        std::this_thread::sleep_for(20us);
      }
      return std::chrono::duration<double, std::nano>(clock_type::now() - t0).count();
    };
    const int batches = praxis::bench::scaled(20, 4);
    for (int batch = 0; batch < batches; ++batch) {
      for (int i = 0; i < 100; ++i) {
        const double t = round_trip([&] { backend.write(jc, {}); }, [&] { return backend.read(s, {}); });
        if (t > 0) rt_full.push_back(t);
      }
      for (int i = 0; i < 100; ++i) {
        const double t = round_trip([&] { raw_pub.write(cmd); }, [&] { return raw_sub.fetch(raw_state); });
        if (t > 0) rt_raw.push_back(t);
      }
    }
  }
  ::kill(full, SIGTERM);
  ::kill(raw, SIGTERM);
  ::waitpid(full, nullptr, 0);
  ::waitpid(raw, nullptr, 0);
  const auto f = praxis::bench::summarize(rt_full), r = praxis::bench::summarize(rt_raw);
  praxis::bench::print_table("round trip over loopback (ns), G1 LowCmd -> LowState, 2000 each, interleaved",
                             {{"praxis: backend -> fake robot (checks, dynamics)", f},
                              {"plain Cyclone ping-pong, same types (baseline)", r}});
  std::printf("\n  ratio praxis / plain Cyclone: p50 %.3f, p99 %.3f\n", f.p50 / r.p50, f.p99 / r.p99);

  praxis::bench::dump_samples("unitree_transport", "round_trip_praxis", rt_full);
  praxis::bench::dump_samples("unitree_transport", "round_trip_plain_cyclone", rt_raw);
  const std::vector<praxis::bench::ReportRow> report{
      {"CRC hg LowCmd, bitwise reference (baseline)", rc, "", std::nullopt},
      {"CRC hg LowCmd, table", fc, "CRC hg LowCmd, bitwise reference (baseline)", std::nullopt},
      {"CRC hg LowState, bitwise reference (baseline)", rs, "", std::nullopt},
      {"CRC hg LowState, table", fs, "CRC hg LowState, bitwise reference (baseline)", std::nullopt},
      {"G1 round trip, plain Cyclone ping-pong (baseline)", r, "", std::nullopt},
      {"G1 round trip via praxis-fake-robot", f, "G1 round trip, plain Cyclone ping-pong (baseline)", std::nullopt}};
  praxis::bench::write_json(json_path, {{"benchmark", "unitree_transport"},
                                        {"report", praxis::bench::report_json(report)},
                                        {"crc_lowcmd_reference", praxis::bench::to_json(rc)},
                                        {"crc_lowcmd_table", praxis::bench::to_json(fc)},
                                        {"crc_lowstate_reference", praxis::bench::to_json(rs)},
                                        {"crc_lowstate_table", praxis::bench::to_json(fs)},
                                        {"crc_ratio_lowcmd", fc.p50 / rc.p50},
                                        {"crc_ratio_lowstate", fs.p50 / rs.p50},
                                        {"encode_g1", praxis::bench::to_json(e)},
                                        {"decode_g1", praxis::bench::to_json(d)},
                                        {"round_trip_praxis", praxis::bench::to_json(f)},
                                        {"round_trip_plain_cyclone", praxis::bench::to_json(r)},
                                        {"round_trip_ratio_p50", f.p50 / r.p50}});
  return 0;
}
