#pragma once
// Which backends praxis-guard speaks for: one function per vendor (its own file, as each compiles
// every model's backend), chosen by --backend; each finds the model by name and throws for one it
// does not know.

#include <stdexcept>
#include <string>

#include "guard_loop.hpp"

namespace praxis::guard {

struct Request {
  std::string backend;  // the backend's guard_backend
  std::string model;    // Model::name
  std::string options;  // the backend's options as JSON (io/reflect_save.hpp)
};

int guard_unitree(const Request& r, Watch& w);
int guard_booster(const Request& r, Watch& w);

inline int guard_vendor(const Request& r, Watch& w) {
  if (r.backend == "unitree" || r.backend == "unitree-sport") return guard_unitree(r, w);
  if (r.backend == "booster-joints" || r.backend == "booster-modes") return guard_booster(r, w);
  throw std::runtime_error("no backend \"" + r.backend + "\" (known: unitree, unitree-sport, booster-joints, booster-modes)");
}

}  // namespace praxis::guard
