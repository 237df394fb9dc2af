// Compile-time probe for io/reflect*.hpp (benchmarks/reflect_compile_time.sh builds it three ways).
// One 20-member parameter struct, used the way a node uses its parameters and a logger its port:
//   (none)                      plain struct, members read by hand: the baseline
//   -DPRAXIS_PROBE_FIELDS       Hana struct + reflect_fields.hpp: column names and the value visit
//   -DPRAXIS_PROBE_REFLECT      Hana struct + reflect.hpp: also load_struct and CsvRecorder

#include <array>
#include <cstdio>
#include <string>

#if defined(PRAXIS_PROBE_REFLECT)
#include "praxis/io/reflect.hpp"
#elif defined(PRAXIS_PROBE_FIELDS)
#include "praxis/io/reflect_fields.hpp"
#endif

#if defined(PRAXIS_PROBE_REFLECT) || defined(PRAXIS_PROBE_FIELDS)
struct Gains {
  BOOST_HANA_DEFINE_STRUCT(Gains, (double, kp), (double, kd), (double, ki));
};
struct Probe {
  BOOST_HANA_DEFINE_STRUCT(Probe,
    (double, speed), (double, turn_rate), (double, step_height), (double, step_length),
    (double, body_height), (double, pitch), (double, roll), (double, yaw), (double, swing_time),
    (double, stance_time), (double, foot_spread), (double, com_offset), (int, steps),
    (int, warmup_cycles), (int, filter_order), (bool, enabled), (bool, use_imu),
    (std::array<double, 3>, offset), (std::array<double, 3>, scale), (Gains, gains));
};
#else
struct Gains {
  double kp, kd, ki;
};
struct Probe {
  double speed, turn_rate, step_height, step_length, body_height, pitch, roll, yaw, swing_time,
      stance_time, foot_spread, com_offset;
  int steps, warmup_cycles, filter_order;
  bool enabled, use_imu;
  std::array<double, 3> offset, scale;
  Gains gains;
};
#endif

int main(int argc, char** argv) {
  Probe p{};
  double sum = 0;
#if defined(PRAXIS_PROBE_REFLECT)
  if (argc > 1) p = praxis::io::load_struct<Probe>(argv[1]);
  if (argc > 2) praxis::io::CsvRecorder<Probe>(argv[2]).record(p);
#else
  (void)argv;
  p.speed = argc;
#endif
#if defined(PRAXIS_PROBE_REFLECT) || defined(PRAXIS_PROBE_FIELDS)
  for (const auto& name : praxis::io::field_names<Probe>()) std::puts(name.c_str());
  praxis::io::for_each_field_value(p, [&](double v) { sum += v; });
#else
  // What a logger writes by hand without reflection.
  for (const char* name : {"speed", "turn_rate", "step_height", "step_length", "body_height", "pitch", "roll",
                           "yaw", "swing_time", "stance_time", "foot_spread", "com_offset", "steps",
                           "warmup_cycles", "filter_order", "enabled", "use_imu", "offset[0]", "offset[1]",
                           "offset[2]", "scale[0]", "scale[1]", "scale[2]", "gains.kp", "gains.kd", "gains.ki"}) {
    std::puts(name);
  }
  sum = p.speed + p.turn_rate + p.step_height + p.step_length + p.body_height + p.pitch + p.roll + p.yaw +
        p.swing_time + p.stance_time + p.foot_spread + p.com_offset + p.steps + p.warmup_cycles +
        p.filter_order + p.enabled + p.use_imu + p.offset[0] + p.offset[1] + p.offset[2] + p.scale[0] +
        p.scale[1] + p.scale[2] + p.gains.kp + p.gains.kd + p.gains.ki;
#endif
  return sum > 1e300 ? 1 : 0;
}
