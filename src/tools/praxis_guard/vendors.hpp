#pragma once
// Which backends praxis-guard speaks for: one function per vendor (its own file, as each compiles
// every model's backend), chosen by --backend; each finds the model by name and throws for one it
// does not know.

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "guard_loop.hpp"
#include "praxis/io/reflect_load.hpp"

namespace praxis::guard {

struct Request {
  std::string backend;  // the backend's guard_backend
  std::string model;    // Model::name
  std::string options;  // the backend's options as JSON (io/reflect_save.hpp)
};

// The backend built from the options the controller handed on (its Options by field name), then
// watched and guarded.
template <class Backend>
int guard_from_options(const Request& r, Watch& w) {
  typename Backend::Options options;
  io::load_struct_into(options, nlohmann::json::parse(r.options), "--options");
  Backend backend(options);
  return watch_and_guard(backend, w);
}

int guard_unitree(const Request& r, Watch& w);
int guard_booster(const Request& r, Watch& w);
int guard_tienkung(const Request& r, Watch& w);
int guard_aurora(const Request& r, Watch& w);

inline int guard_vendor(const Request& r, Watch& w) {
  if (r.backend == "unitree" || r.backend == "unitree-sport" || r.backend == "unitree-arm-sdk") return guard_unitree(r, w);
  if (r.backend == "booster-joints" || r.backend == "booster-modes" || r.backend == "booster-upper-body") {
    return guard_booster(r, w);
  }
  if (r.backend.starts_with("tienkung")) return guard_tienkung(r, w);
  if (r.backend == "aurora" || r.backend == "aurora-walking") return guard_aurora(r, w);
  throw std::runtime_error("no backend \"" + r.backend +
                           "\" (known: unitree, unitree-sport, unitree-arm-sdk, booster-joints, booster-modes, "
                           "booster-upper-body, tienkung[-without-error|-with-voltage], "
                           "tienkung-walking[-without-error|-with-voltage], aurora, aurora-walking)");
}

}  // namespace praxis::guard
