// The reflected JSON loaders (io/reflect_load.hpp, src/io/reflect.cpp): the input is the text of a
// parameter file, loaded as a user's parameter struct with every field kind the loader supports
// (numbers of each width, bool, string, enums by number and by name, nested structs, arrays of
// structs, Eigen vectors, durations with integer and floating ticks, a time point, optionals), and
// as the runtime's own RuntimeParams (control/runtime_params.hpp). The loaders go through a real
// file, as their users call them.
//
// A bad file must give a ParamError that starts with the file's name and leave the target as it
// was; anything else escaping is a finding. A file that loads must give finite numbers, enum
// values the enum can hold, and (RuntimeParams) options that pass the runtime's own checks.

#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "finding.hpp"
#include "praxis/control/runtime_params.hpp"
#include "praxis/io/reflect_fields.hpp"
#include "praxis/io/reflect_load.hpp"

namespace reflect_fuzz {

enum class Gait : std::int16_t { stand = 0, trot = 1, bound = 2 };  // loads as its integer
enum class Level : unsigned char { low = 1, high = 7 };              // loads by name (EnumNames)
enum Legacy { legacy_off, legacy_on, legacy_auto };                  // a plain enum: by name only
enum Channel : std::uint8_t { channel_a, channel_b };                 // a plain enum with a fixed type

struct Gains {
  BOOST_HANA_DEFINE_STRUCT(Gains,
    (std::array<double, 3>, kp),
    (std::array<float, 3>, kd));
};

struct Limits {  // adapted below rather than defined: both ways of reflecting a struct
  double max_speed = 1.0;
  std::uint16_t max_steps = 10;
};

struct Leg {
  BOOST_HANA_DEFINE_STRUCT(Leg,
    (std::string, name),
    (Gains, gains),
    (std::optional<double>, trim),
    (bool, enabled));
};

struct Params {
  BOOST_HANA_DEFINE_STRUCT(Params,
    (double, speed),
    (float, step_height),
    (int, steps),
    (std::int8_t, offset_steps),
    (std::uint8_t, leg_count),
    (std::int64_t, ticks),
    (std::uint64_t, seed),
    (bool, enabled),
    (std::string, name),
    (Gait, gait),
    (Level, level),
    (Legacy, legacy),
    (Channel, channel),
    (std::array<Leg, 2>, legs),
    (Limits, limits),
    (Eigen::Vector3d, offset),
    (Eigen::Matrix<float, 1, 2>, tilt),
    (std::chrono::milliseconds, timeout),
    (std::chrono::nanoseconds, stale),
    (std::chrono::duration<double>, period),
    (std::chrono::duration<float, std::milli>, blend),
    (std::chrono::steady_clock::time_point, start),
    (std::optional<Gains>, extra_gains),
    (std::optional<std::string>, note));
};

}  // namespace reflect_fuzz

BOOST_HANA_ADAPT_STRUCT(reflect_fuzz::Limits, max_speed, max_steps);

template <>
struct praxis::io::EnumNames<reflect_fuzz::Level> {
  static constexpr std::array<std::pair<reflect_fuzz::Level, std::string_view>, 2> values{
      {{reflect_fuzz::Level::low, "low"}, {reflect_fuzz::Level::high, "high"}}};
};

template <>
struct praxis::io::EnumNames<reflect_fuzz::Legacy> {
  static constexpr std::array<std::pair<reflect_fuzz::Legacy, std::string_view>, 3> values{
      {{reflect_fuzz::legacy_off, "off"}, {reflect_fuzz::legacy_on, "on"}, {reflect_fuzz::legacy_auto, "auto"}}};
};

namespace {

constexpr const char* k_target = "reflect_load";
using reflect_fuzz::Params;

reflect_fuzz::Params defaults() {
  Params p{};
  p.speed = 0.5;
  p.step_height = 0.05f;
  p.steps = 3;
  p.leg_count = 2;
  p.name = "default";
  p.gait = reflect_fuzz::Gait::trot;
  p.level = reflect_fuzz::Level::low;
  p.legs[0].name = "left";
  p.legs[1].name = "right";
  p.offset.setZero();
  p.tilt.setZero();
  p.timeout = std::chrono::milliseconds(100);
  p.period = std::chrono::duration<double>(0.002);
  return p;
}

// Every value of a Params as columns (bit patterns: an empty optional's NaN equals itself), and its
// strings, which the columns leave out.
struct Snapshot {
  std::vector<std::uint64_t> bits;
  std::vector<std::string> texts;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const Params& p) {
  Snapshot s;
  praxis::io::for_each_field_value(p, [&](double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    s.bits.push_back(b);
  });
  s.texts = {p.name, p.legs[0].name, p.legs[1].name, p.note.value_or("(none)")};
  return s;
}

bool finite(const Params& p) {
  bool ok = std::isfinite(p.speed) && std::isfinite(p.step_height) && p.offset.allFinite() && p.tilt.allFinite() &&
            std::isfinite(p.period.count()) && std::isfinite(p.blend.count()) && std::isfinite(p.limits.max_speed);
  for (const auto& leg : p.legs) {
    for (double k : leg.gains.kp) ok = ok && std::isfinite(k);
    for (float k : leg.gains.kd) ok = ok && std::isfinite(k);
    ok = ok && (!leg.trim || std::isfinite(*leg.trim));
  }
  return ok;
}

class TempFile {
 public:
  TempFile()
      : path_(std::filesystem::temp_directory_path() / ("praxis_reflect_fuzz_" + std::to_string(::getpid()) + ".json")) {}
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::filesystem::path& write(const std::uint8_t* data, std::size_t size) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                   static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::filesystem::path path_;
};

void require_named(const praxis::io::ParamError& e, const std::filesystem::path& file) {
  const std::string name = file.string();
  praxis::fuzz::require(std::string_view(e.what()).substr(0, name.size()) == name, k_target,
                        "a ParamError does not start with the file's name");
}

void user_params(const std::filesystem::path& file) {
  Params p = defaults();
  const Snapshot before = snapshot(p);
  try {
    praxis::io::load_struct_into(p, file);
  } catch (const praxis::io::ParamError& e) {
    require_named(e, file);
    praxis::fuzz::require(snapshot(p) == before, k_target, "a file that failed to load changed the struct");
    return;
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  praxis::fuzz::require(finite(p), k_target, "a loaded number is not finite");
  const auto level = static_cast<unsigned>(p.level);
  praxis::fuzz::require(level == 1 || level == 7, k_target, "a named enum holds a value without a name");
  (void)snapshot(p);  // reads every value back, as a recorder would (UBSan checks each load)
}

void runtime_params(const std::filesystem::path& file) {
  praxis::control::RuntimeOptions options;
  const auto before = options;
  try {
    praxis::control::load_runtime_params(file, options);
  } catch (const praxis::io::ParamError& e) {
    require_named(e, file);
    praxis::fuzz::require(options.damping_kd == before.damping_kd && options.collector.max_kp == before.collector.max_kp &&
                              options.safety.stale_timeout == before.safety.stale_timeout &&
                              options.fall.rest_time == before.fall.rest_time,
                          k_target, "runtime parameters that failed to load changed the options");
    return;
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  praxis::fuzz::require(options.damping_kd >= 0.0 && options.collector.max_kp >= 0.0 && options.collector.max_kd >= 0.0 &&
                            options.collector.max_target_rate > 0.0 &&
                            options.safety.stale_timeout > praxis::Duration::zero(),
                        k_target, "loaded runtime parameters break the runtime's own rules");
  praxis::fuzz::require(std::isfinite(options.damping_kd) && std::isfinite(options.collector.max_kp) &&
                            std::isfinite(options.collector.max_kd) && std::isfinite(options.collector.max_target_rate) &&
                            std::isfinite(options.safety.tilt_threshold) && std::isfinite(options.fall.falling_tilt) &&
                            std::isfinite(options.fall.rest_rate),
                        k_target, "a loaded runtime parameter is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const TempFile temp;
  const auto& file = temp.write(data, size);
  user_params(file);
  runtime_params(file);
  return 0;
}
