// praxis-guard for Fourier robots through Aurora (AuroraBackend): under joint control, the measured
// pose held with the gains in force (none are sent), then PdStand, as the run's own end does;
// walking by itself ("aurora-walking"), a zero velocity, then PdStand and the joystick's velocity
// source back.

#include <stdexcept>
#include <string>

#include "praxis/hardware/aurora/backend.hpp"
#include "vendors.hpp"

namespace praxis::guard {

namespace {

template <aurora::Access A>
int guard_access(const Request& r, Watch& w) {
  using namespace praxis::aurora;
  if (r.model == GR1::name) return guard_from_options<AuroraBackend<GR1, A>>(r, w);
  if (r.model == GR2::name) return guard_from_options<AuroraBackend<GR2, A>>(r, w);
  if (r.model == GR3::name) return guard_from_options<AuroraBackend<GR3, A>>(r, w);
  if (r.model == N1::name) return guard_from_options<AuroraBackend<N1, A>>(r, w);
  throw std::runtime_error(r.backend + ": no model \"" + r.model + "\"");
}

}  // namespace

int guard_aurora(const Request& r, Watch& w) {
  if (r.backend == "aurora-walking") return guard_access<aurora::Access::locomotion>(r, w);
  return guard_access<aurora::Access::joints>(r, w);
}

}  // namespace praxis::guard
