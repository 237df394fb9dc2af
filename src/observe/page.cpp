#include "praxis/observe/live_server.hpp"

namespace praxis::observe {

std::string_view live_page() { return "<!doctype html><title>praxis live</title>"; }

}  // namespace praxis::observe
