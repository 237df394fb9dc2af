#pragma once
// A walking Tienkung's settings by field name (docs/backends/tienkung.md, "Walking by itself"): the
// backend's options (options_params.hpp), the handler's (walking.hpp) and the motion controller's
// wire (hric.hpp), from a parameters file (praxis::io::load_struct_into) or command-line settings
// (praxis::io::apply_settings, praxis_motion_demo --set KEY=VALUE):
//
//   backend.dds.domain=0   walking.console=remote_steers   hric.wire=cyclonedds
//   hric.names.status=rt/hric/motion/status   walking.max_vx=0.3

#include <array>
#include <string_view>
#include <utility>

#include <boost/hana/adapt_struct.hpp>

#include "praxis/hardware/tienkung/hric.hpp"
#include "praxis/hardware/tienkung/options_params.hpp"
#include "praxis/hardware/tienkung/topics.hpp"
#include "praxis/hardware/tienkung/walking.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/transport/dds_params.hpp"

namespace praxis::tienkung {

// Everything a WalkingBackend is made with: WalkingBackend<M>(p.backend, p.walking, p.hric).
struct WalkingParams {
  BackendOptions backend{};
  WalkingOptions walking{};
  HricOptions hric{};
};

}  // namespace praxis::tienkung

template <>
struct praxis::io::EnumNames<praxis::tienkung::ServiceWire> {
  static constexpr std::array<std::pair<praxis::tienkung::ServiceWire, std::string_view>, 2> values{
      {{praxis::tienkung::ServiceWire::fastrtps, "fastrtps"}, {praxis::tienkung::ServiceWire::cyclonedds, "cyclonedds"}}};
};
template <>
struct praxis::io::EnumNames<praxis::tienkung::ConsoleMeaning> {
  static constexpr std::array<std::pair<praxis::tienkung::ConsoleMeaning, std::string_view>, 3> values{
      {{praxis::tienkung::ConsoleMeaning::program_steers, "program_steers"},
       {praxis::tienkung::ConsoleMeaning::remote_steers, "remote_steers"},
       {praxis::tienkung::ConsoleMeaning::ignore, "ignore"}}};
};

BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::HricNames, service_request, service_reply, status, cmd_vel, request_type,
                        reply_type, status_type, cmd_vel_type);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::HricOptions, names, wire, status_qos, cmd_vel_qos);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::WalkingOptions, call_timeout, velocity_period, retry_backoff, max_attempts,
                        sample_timeout, transition_timeout, swing_arms, console, max_vx, max_vy, max_wz);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::WalkingParams, backend, walking, hric);
