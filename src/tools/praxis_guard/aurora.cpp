// praxis-guard for Fourier robots under joint control through Aurora (AuroraBackend): the measured
// pose held with the gains in force (none are sent), then PdStand, as the run's own end does.

#include <stdexcept>
#include <string>

#include "praxis/hardware/aurora/backend.hpp"
#include "vendors.hpp"

namespace praxis::guard {

int guard_aurora(const Request& r, Watch& w) {
  using namespace praxis::aurora;
  if (r.model == GR1::name) return guard_from_options<AuroraBackend<GR1>>(r, w);
  if (r.model == GR2::name) return guard_from_options<AuroraBackend<GR2>>(r, w);
  if (r.model == GR3::name) return guard_from_options<AuroraBackend<GR3>>(r, w);
  if (r.model == N1::name) return guard_from_options<AuroraBackend<N1>>(r, w);
  throw std::runtime_error("aurora: no model \"" + r.model + "\"");
}

}  // namespace praxis::guard
