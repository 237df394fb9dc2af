// praxis-guard for Walker Tienkung robots: under joint control (TienkungBackend), speed 0 to every
// joint the controller had in velocity mode until its status shows it stopped, then joint damping;
// walking under its own controller (WalkingBackend), a zero velocity and stand. The MotorStatus
// layout is in the backend's name ("tienkung", "tienkung-walking-without-error", ...).

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "praxis/hardware/tienkung/backend.hpp"
#include "praxis/hardware/tienkung/walking_backend.hpp"
#include "praxis/hardware/tienkung/walking_params.hpp"
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

template <class Backend>
int guard_walking_model(const Request& r, Watch& w) {
  tienkung::WalkingParams p;
  io::load_struct_into(p, nlohmann::json::parse(r.options), "--options");
  Backend backend(p.backend, p.walking, p.hric);
  return watch_and_guard(backend, w);
}

template <tienkung::StatusLayout L>
int guard_walking(const Request& r, Watch& w) {
  using namespace praxis::tienkung;
  if (r.model == Pro::name) return guard_walking_model<WalkingBackend<Pro, L>>(r, w);
  if (r.model == Lite::name) return guard_walking_model<WalkingBackend<Lite, L>>(r, w);
  throw std::runtime_error(r.backend + ": no model \"" + r.model + "\"");
}

}  // namespace

int guard_tienkung(const Request& r, Watch& w) {
  using tienkung::StatusLayout;
  if (r.backend == "tienkung-walking") return guard_walking<StatusLayout::with_error>(r, w);
  if (r.backend == "tienkung-walking-without-error") return guard_walking<StatusLayout::without_error>(r, w);
  if (r.backend == "tienkung-walking-with-voltage") return guard_walking<StatusLayout::with_voltage>(r, w);
  if (r.backend == "tienkung") return guard_layout<StatusLayout::with_error>(r, w);
  if (r.backend == "tienkung-without-error") return guard_layout<StatusLayout::without_error>(r, w);
  if (r.backend == "tienkung-with-voltage") return guard_layout<StatusLayout::with_voltage>(r, w);
  throw std::runtime_error("no backend \"" + r.backend + "\"");
}

}  // namespace praxis::guard
