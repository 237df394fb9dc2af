// praxis-guard for Walker Tienkung robots under joint control (TienkungBackend): speed 0 to every
// joint the controller had in velocity mode until its status shows it stopped, then joint damping.
// The MotorStatus layout is the backend's name ("tienkung", "tienkung-without-error", ...).

#include <stdexcept>
#include <string>

#include "praxis/hardware/tienkung/backend.hpp"
#include "vendors.hpp"

namespace praxis::guard {

namespace {

template <tienkung::StatusLayout L>
int guard_layout(const Request& r, Watch& w) {
  using namespace praxis::tienkung;
  if (r.model == Pro::name) return guard_from_options<TienkungBackend<Pro, L>>(r, w);
  if (r.model == Lite::name) return guard_from_options<TienkungBackend<Lite, L>>(r, w);
  throw std::runtime_error(r.backend + ": no model \"" + r.model + "\"");
}

}  // namespace

int guard_tienkung(const Request& r, Watch& w) {
  using tienkung::StatusLayout;
  if (r.backend == "tienkung") return guard_layout<StatusLayout::with_error>(r, w);
  if (r.backend == "tienkung-without-error") return guard_layout<StatusLayout::without_error>(r, w);
  return guard_layout<StatusLayout::with_voltage>(r, w);
}

}  // namespace praxis::guard
