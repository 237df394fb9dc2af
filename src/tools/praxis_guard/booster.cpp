// praxis-guard for Booster robots: joint access (Custom), robot modes and the arms lent while the
// robot walks (upper body). The interface file's
// settings (InterfaceParams: call intervals and timeouts) are not handed on: the guard uses their
// defaults.

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "praxis/hardware/booster/backend.hpp"
#include "praxis/hardware/booster/options_params.hpp"
#include "vendors.hpp"

namespace praxis::guard {

namespace {

template <booster::Access A>
int guard_access(const Request& r, Watch& w) {
  using namespace praxis::booster;
  if (r.model == T1::name) return guard_from_options<BoosterBackend<T1, A>>(r, w);
  if (r.model == T1Arms7::name) return guard_from_options<BoosterBackend<T1Arms7, A>>(r, w);
  if (r.model == K1::name) return guard_from_options<BoosterBackend<K1, A>>(r, w);
  throw std::runtime_error("booster: no model \"" + r.model + "\"");
}

}  // namespace

int guard_booster(const Request& r, Watch& w) {
  if (r.backend == "booster-joints") return guard_access<booster::Access::joints>(r, w);
  if (r.backend == "booster-upper-body") return guard_access<booster::Access::upper_body>(r, w);
  return guard_access<booster::Access::robot_modes>(r, w);
}

}  // namespace praxis::guard
