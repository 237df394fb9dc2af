#pragma once
// One wording for "found ..." in the load errors of every JSON file praxis reads (parameter files,
// reflected settings, Booster's interface file, policy deploy files): the value's kind, and the value
// itself when it is short, e.g. `found a string ("fast")`, `found 1.5`, `found an array of 3`.
// Defined in src/io/reflect.cpp; json.hpp itself is compiled only in src/.

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace praxis::io::detail {

[[nodiscard]] std::string describe_json(const nlohmann::json& value);

}  // namespace praxis::io::detail
