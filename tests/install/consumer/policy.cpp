// The installed praxis::policy: a robot team's OnnxPolicy links against Debian's libonnx through
// praxis' package, and a deploy file with a mistake is refused by name before anything runs.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <praxis/hardware/unitree/g1.hpp>
#include <praxis/policy/onnx_policy.hpp>

int main() {
  const auto file = std::filesystem::temp_directory_path() / "praxis_consumer_deploy.json";
  std::ofstream(file) << R"({"loop_hz": 500, "policy_hz": 30})";
  praxis::policy::OnnxPolicy<praxis::unitree::G1> policy;
  try {
    policy.load(file);
  } catch (const praxis::policy::PolicyError& e) {
    std::printf("refused: %s\n", e.what());
    std::filesystem::remove(file);
    return policy.loaded() ? 1 : 0;
  }
  std::printf("a deploy file without joints was accepted\n");
  return 1;
}
