// praxis-guard for Unitree robots: under low-level control (UnitreeBackend), walking by themselves
// (SportBackend) and with their arms lent over rt/arm_sdk (ArmSdkBackend).

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "praxis/hardware/unitree/arm_sdk.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/options_params.hpp"
#include "praxis/hardware/unitree/sport_backend.hpp"
#include "vendors.hpp"

namespace praxis::guard {

namespace {

template <class Backend>
int guard_sport(const Request& r, Watch& w) {
  const auto json = nlohmann::json::parse(r.options);
  unitree::BackendOptions options;
  unitree::SportOptions sport;
  io::load_struct_into(options, json.at("backend"), "--options", "backend");
  io::load_struct_into(sport, json.at("sport"), "--options", "sport");
  Backend backend(options, sport);
  return watch_and_guard(backend, w);
}

}  // namespace

int guard_unitree(const Request& r, Watch& w) {
  using namespace praxis::unitree;
  if (r.backend == "unitree-sport") {
    if (r.model == Go2::name) return guard_sport<SportBackend<Go2>>(r, w);
    if (r.model == G1::name) return guard_sport<SportBackend<G1>>(r, w);
    if (r.model == G1_23::name) return guard_sport<SportBackend<G1_23>>(r, w);
    if (r.model == H1_2::name) return guard_sport<SportBackend<H1_2>>(r, w);
    throw std::runtime_error("unitree-sport: no model \"" + r.model + "\"");
  }
  if (r.backend == "unitree-arm-sdk") {
    if (r.model == G1::name) return guard_from_options<ArmSdkBackend<G1>>(r, w);
    if (r.model == G1_23::name) return guard_from_options<ArmSdkBackend<G1_23>>(r, w);
    if (r.model == H1_2::name) return guard_from_options<ArmSdkBackend<H1_2>>(r, w);
    throw std::runtime_error("unitree-arm-sdk: no model \"" + r.model + "\"");
  }
  if (r.model == Go2::name) return guard_from_options<UnitreeBackend<Go2>>(r, w);
  if (r.model == G1::name) return guard_from_options<UnitreeBackend<G1>>(r, w);
  if (r.model == G1_23::name) return guard_from_options<UnitreeBackend<G1_23>>(r, w);
  if (r.model == H1_2::name) return guard_from_options<UnitreeBackend<H1_2>>(r, w);
  throw std::runtime_error("unitree: no model \"" + r.model + "\"");
}

}  // namespace praxis::guard
