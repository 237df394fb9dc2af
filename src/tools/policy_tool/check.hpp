#pragma once
// `praxis-policy check`: every load-time check of a deploy file and its network, without a robot —
// OnnxPolicy<Model>::load for the robot named by --robot or by the file's "robot" key — and a
// one-paragraph summary of what the policy will do.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/policy/deploy.hpp"

namespace praxis::policy_tool {

// Throws policy::PolicyError (the load's refusal) or UsageError (no robot known, an unknown one).
[[nodiscard]] std::string check_deploy(const std::filesystem::path& deploy, const std::string& robot,
                                       const std::optional<std::filesystem::path>& policy);

// Runs praxis' network on each sample's inputs ({"inputs": {name: values}, "outputs": {name:
// values}}), the recurrent pairs carried from zero, and returns the largest difference of an output
// relative to its scale (max(1, max |expected|)). Throws PolicyError naming `reference`, the step
// and the output when one exceeds `tolerance`.
[[nodiscard]] double compare_network(const std::filesystem::path& onnx, const nlohmann::ordered_json& samples,
                                     const std::vector<policy::RecurrentPair>& carry, const std::string& reference,
                                     double tolerance = 1e-4);

}  // namespace praxis::policy_tool
