#include "praxis/hardware/unitree/rpc.hpp"

#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace praxis::unitree {

std::string mode_name_from(const std::string& data) {
  if (data.empty()) return "";
  const auto j = nlohmann::json::parse(data, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw transport::RpcError("motion_switcher CheckMode: expected a JSON object, got \"" + data + "\"");
  }
  const auto it = j.find("name");
  if (it == j.end()) return "";
  if (!it->is_string()) throw transport::RpcError("motion_switcher CheckMode: \"name\" is not a string in \"" + data + "\"");
  return it->get<std::string>();
}

std::vector<std::string> release_motion_control(const transport::Participant& participant, const ReleaseOptions& options) {
  transport::RpcClient<UnitreeApiTraits> client(participant, api_request_topic(motion_switcher::k_service),
                                          api_response_topic(motion_switcher::k_service));
  std::vector<std::string> released;
  const auto deadline = Clock::now() + options.overall_timeout;
  std::string last = "?";
  for (;;) {
    const auto check = client.call({motion_switcher::k_check_mode, "{}"}, options.call_timeout);
    if (check.code != 0) {
      throw transport::RpcError("motion_switcher CheckMode failed with code " + std::to_string(check.code) +
                          (check.data.empty() ? "" : ": " + check.data));
    }
    last = mode_name_from(check.data);
    if (last.empty()) return released;
    if (Clock::now() >= deadline) break;
    const auto release = client.call({motion_switcher::k_release_mode, "{}"}, options.call_timeout);
    if (release.code == 0) released.push_back(last);
    std::this_thread::sleep_for(options.retry_interval);
  }
  throw transport::RpcError("the robot still runs motion service \"" + last + "\" after " +
                      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(options.overall_timeout).count()) +
                      " s of ReleaseMode: release it in the Unitree app or with the remote, then retry");
}

}  // namespace praxis::unitree
