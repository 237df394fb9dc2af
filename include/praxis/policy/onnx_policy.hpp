#pragma once
// OnnxPolicy<Model>: a trained policy (an ONNX network and its deploy file) as a USER_CTRL, so
// RobotController stands the robot up and hands it over on A like any controller of yours.
//
//   praxis::control::RobotController<Robot, praxis::policy::OnnxPolicy<praxis::unitree::G1>> c(robot);
//   c.load_params("policies/walk/");        // policies/walk/deploy.json (see policy/deploy.hpp)
//
// Every cycle the observation is built from the state (policy/observation.hpp); every
// loop_hz / policy_hz cycles (the first cycle after reset among them) the network runs and its
// action becomes the target default_pose + scale * action on the policy's joints, held until the
// next inference; the other joints hold init_pos. Over blend_in seconds after reset the command
// moves linearly from the pose measured at reset to those targets. It runs in CTRL only: in STAND
// (runs_in_stand = false) it would infer hundreds of times for nothing, since entering CTRL resets it.
//
// Members RobotController reads, in wire order: dt = 1 / loop_hz; init_pos = default_pose on the
// policy's joints, the deploy file's hold pose on the joints it holds and the model's stand_pose
// elsewhere; kp / kd likewise (the model's default gains elsewhere). A policy trained with a rigid
// torso falls when the waist is held soft: the deploy file's "hold" gives those joints the gains
// the policy's authors held them with. Before load() it holds the stand pose with the model's
// gains at 500 Hz.
//
// Joint names are the robot model's; a vendor's spelling with a trailing "_joint"
// ("left_knee_joint") names the same joint.
//
// load() checks everything (the file, joint names against the model, limits, the network's
// operators and weights, its input and output sizes against the deploy file) before it changes
// anything: a refused policy leaves the loaded one in place. A non-finite action goes into
// jpos_des as it is: the command guard turns it into the robot's safe state.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/policy/command_timeline.hpp"
#include "praxis/policy/deploy.hpp"
#include "praxis/policy/network.hpp"
#include "praxis/policy/observation.hpp"

namespace praxis::policy {

template <RobotModel Model>
class OnnxPolicy {
 public:
  static constexpr std::size_t N = Model::joint_count;
  // Not run while STAND holds the pose (control/user_control_motion.hpp): it is reset on CTRL's entry.
  static constexpr bool runs_in_stand = false;
  // The deploy file's target_rate: whether the command guard may slow CTRL's targets.
  [[nodiscard]] bool limits_target_rate() const {
    return !loaded_ || loaded_->config.target_rate == TargetRate::limited;
  }

  // What RobotController reads (USER_CTRL members, control/user_controller.hpp).
  double dt = 0.002;
  std::array<double, N> kp = Model::default_kp;
  std::array<double, N> kd = Model::default_kd;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;

  OnnxPolicy() = default;

  // USER_CTRL: `folder`/deploy.json.
  void load_params(const std::filesystem::path& folder) { load(folder / "deploy.json"); }

  // Loads a deploy file and its network (`policy` instead of the file's "policy" when given).
  // Throws PolicyError naming the file and key; on failure nothing changes.
  void load(const std::filesystem::path& deploy, const std::optional<std::filesystem::path>& policy = std::nullopt) {
    auto next = build(load_deploy(deploy), policy);
    // Everything below is noexcept: the new policy is applied whole.
    dt = 1.0 / next->config.loop_hz;
    kp = next->kp;
    kd = next->kd;
    init_pos = next->default_wire;
    jpos_des = next->default_wire;
    loaded_ = std::move(next);
    counter_ = 0;
    inferences_ = 0;
    blend_start_ = init_pos;
    command_ = {0.0, 0.0, 0.0};
  }

  // Entering STAND or CTRL: an episode starts.
  void reset(const RobotState<N>& state, const Gamepad&) {
    counter_ = 0;
    inferences_ = 0;
    for (std::size_t j = 0; j < N; ++j) blend_start_[j] = state.q[static_cast<Eigen::Index>(j)];
    if (!loaded_) return;
    auto& p = *loaded_;
    std::fill(p.action.begin(), p.action.end(), 0.0f);
    p.log.fill(0.0f);
    p.target = p.default_wire;
    p.net.reset_state();
    p.obs.reset();
  }

  void get_input(const RobotState<N>& state, const Gamepad& pad) {
    if (!loaded_) return;
    auto& p = *loaded_;
    if (!timeline_.empty()) {
      const auto c = timeline_.at(static_cast<double>(counter_) * dt);  // since reset, on the cycle's clock
      set_velocity_command(c[0], c[1], c[2]);
    } else if (p.config.command_source == CommandSource::gamepad) {
      const std::array<double, 3> stick{static_cast<double>(pad.ly), -static_cast<double>(pad.lx),
                                        -static_cast<double>(pad.rx)};
      const auto& c = p.config;
      for (std::size_t i = 0; i < 3; ++i) {
        const double v = c.sticks == StickMapping::scaled ? stick[i] * c.command_max[i] : stick[i];
        command_[i] = std::clamp(v, c.command_min[i], c.command_max[i]);
      }
    }
    if (counter_ % p.config.decimation != 0) return;
    const double phase_time = static_cast<double>(counter_ + p.config.decimation) * dt;
    const ObservationInputs in{command_, std::span<const float>(p.action), phase_time};
    p.obs.write(state, in, p.net.input(p.obs_input));
  }

  void calculate() {
    if (!loaded_) {
      jpos_des = init_pos;
      return;
    }
    auto& p = *loaded_;
    if (counter_ % p.config.decimation == 0) infer(p);
    const double blend = p.config.blend_in;
    const double alpha = blend > 0.0 ? std::min(1.0, static_cast<double>(counter_) * dt / blend) : 1.0;
    if (alpha >= 1.0) {
      jpos_des = p.target;
    } else {
      for (std::size_t j = 0; j < N; ++j) jpos_des[j] = blend_start_[j] + alpha * (p.target[j] - blend_start_[j]);
    }
    ++counter_;
  }

  // The last raw actions (after clip, before scale) in wire order; 0 on joints the policy does
  // not drive.
  [[nodiscard]] std::array<float, N> log() const { return loaded_ ? loaded_->log : std::array<float, N>{}; }

  // The command for a policy whose deploy file says "source": "behaviour" (with the gamepad
  // source, the sticks overwrite it every cycle). Limited to the file's [min, max] when it gives one.
  void set_velocity_command(double vx, double vy, double wz) {
    const auto max = loaded_ ? loaded_->config.command_max
                             : std::array<double, 3>{k_unlimited, k_unlimited, k_unlimited};
    const auto min = loaded_ ? loaded_->config.command_min
                             : std::array<double, 3>{-k_unlimited, -k_unlimited, -k_unlimited};
    command_ = {std::clamp(vx, min[0], max[0]), std::clamp(vy, min[1], max[1]), std::clamp(wz, min[2], max[2])};
  }

  // The command over time, in place of the deploy file's source (the sticks or the behaviour),
  // evaluated every cycle at the time since reset and limited to the file's min and max; an empty
  // timeline gives the command back to the source. Before the run, from the owner's thread.
  void set_command_timeline(CommandTimeline timeline) { timeline_ = std::move(timeline); }

  // ---- inspection ----
  [[nodiscard]] bool loaded() const { return loaded_ != nullptr; }
  // The deploy file in use; nullptr before load().
  [[nodiscard]] const DeployConfig* config() const { return loaded_ ? &loaded_->config : nullptr; }
  [[nodiscard]] std::size_t decimation() const { return loaded_ ? loaded_->config.decimation : 1; }
  [[nodiscard]] const std::array<double, 3>& velocity_command() const { return command_; }
  // The last raw actions in the policy's order (empty before load()).
  [[nodiscard]] std::span<const float> last_action() const {
    return loaded_ ? std::span<const float>(loaded_->action) : std::span<const float>();
  }
  // The robot's index of each of the policy's joints.
  [[nodiscard]] std::span<const std::size_t> wire_indices() const {
    return loaded_ ? std::span<const std::size_t>(loaded_->wire) : std::span<const std::size_t>();
  }
  // Network runs since the last reset.
  [[nodiscard]] std::size_t inferences() const { return inferences_; }

 private:
  static constexpr double k_unlimited = std::numeric_limits<double>::infinity();

  struct Loaded {
    explicit Loaded(Network network) : net(std::move(network)) {}
    DeployConfig config;
    Network net;
    std::size_t obs_input = 0;
    std::size_t action_output = 0;
    std::vector<std::size_t> wire;  // policy index -> wire index
    ObservationBuilder<N> obs;
    std::vector<float> action;  // the last raw action, policy order
    std::array<double, N> default_wire{};
    std::array<double, N> kp{};
    std::array<double, N> kd{};
    std::array<double, N> target{};  // wire order, held between inferences
    std::array<float, N> log{};
  };

  void infer(Loaded& p) noexcept {
    p.net.run();
    ++inferences_;
    const auto out = p.net.output(p.action_output);
    const auto& c = p.config;
    for (std::size_t i = 0; i < p.action.size(); ++i) {
      float a = out[i];
      if (c.action_clip) {
        const auto clip = static_cast<float>(*c.action_clip);
        a = std::clamp(a, -clip, clip);  // NaN stays NaN for the guard to see
      }
      p.action[i] = a;
      p.log[p.wire[i]] = a;
      p.target[p.wire[i]] = c.default_pose[i] + c.action_scale[i] * static_cast<double>(a);
    }
  }

  [[noreturn]] static void fail(const DeployConfig& c, const std::string& key, const std::string& expected,
                                const std::string& found) {
    throw PolicyError(c.file.string() + ": key \"" + key + "\": expected " + expected + ", found " + found);
  }

  // A pose the deploy file gives for a joint, within the joint's limits.
  static void check_pose(const DeployConfig& c, const std::string& key, std::size_t joint, double q) {
    const auto& spec = Model::joints[joint];
    if (!(q >= spec.lower && q <= spec.upper)) {
      fail(c, key,
           std::string(spec.name) + "'s position within its limits [" + std::to_string(spec.lower) + ", " +
               std::to_string(spec.upper) + "] rad",
           std::to_string(q));
    }
  }

  static std::string robot_joint_names() {
    std::string out;
    for (const auto& j : Model::joints) {
      if (!out.empty()) out += ", ";
      out += j.name;
    }
    return out;
  }

  static std::string tensor_names(const std::vector<TensorInfo>& tensors) {
    std::string out;
    for (const auto& t : tensors) {
      if (!out.empty()) out += ", ";
      out += "\"" + t.name + "\"";
    }
    return out;
  }

  static std::string shape_text(const TensorInfo& t) {
    std::string out = "[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(t.shape[i]);
    return out + "]";
  }

  // A name the deploy file gives for a network tensor: found, or a message naming the file's key.
  template <class Find>
  static std::size_t tensor_at(const DeployConfig& c, const std::string& key, Find&& find) {
    try {
      return find();
    } catch (const PolicyError& e) {
      throw PolicyError(c.file.string() + ": key \"" + key + "\": " + e.what());
    }
  }

  // The one tensor of `tensors` that is not recurrent, when the file does not name it.
  static std::size_t only_other(const DeployConfig& c, const std::string& key, const std::vector<TensorInfo>& tensors,
                                const std::vector<bool>& recurrent, const std::string& what, const std::string& kind) {
    std::vector<std::size_t> others;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      if (!recurrent[i]) others.push_back(i);
    }
    if (others.size() != 1) {
      fail(c, key,
           "the " + what + "'s name (the model has " + std::to_string(others.size()) + " " + kind +
               " besides the recurrent ones; all of them: " + tensor_names(tensors) + ")",
           "no such key");
    }
    return others.front();
  }

  static std::unique_ptr<Loaded> build(DeployConfig config, const std::optional<std::filesystem::path>& policy) {
    const std::size_t n = config.joint_count();
    // The robot's joints.
    // Which entry of the file names each robot joint: "/joint_names/3", "/hold/joint_names/0".
    std::array<std::string, N> named_by{};
    const auto resolve = [&](const std::string& list, const std::vector<std::string>& names, std::size_t i) {
      const std::string key = list + "/" + std::to_string(i);
      const std::size_t j = joint_index_or_vendor<Model>(names[i]);
      if (j == N) {
        fail(config, key,
             "a joint of the robot model " + std::string(Model::name) + " (" + robot_joint_names() +
                 "; a trailing \"_joint\" is allowed)",
             "\"" + names[i] + "\"");
      }
      if (!named_by[j].empty()) {
        fail(config, key, "each robot joint named once", "\"" + names[i] + "\", also " + named_by[j]);
      }
      named_by[j] = key;
      return j;
    };
    std::vector<std::size_t> wire(n);
    for (std::size_t i = 0; i < n; ++i) {
      wire[i] = resolve("/joint_names", config.joint_names, i);
      check_pose(config, "/default_pose/" + std::to_string(i), wire[i], config.default_pose[i]);
    }
    const auto& hold = config.hold;
    std::vector<std::size_t> held(hold.joint_names.size());
    for (std::size_t i = 0; i < held.size(); ++i) {
      held[i] = resolve("/hold/joint_names", hold.joint_names, i);
      check_pose(config, "/hold/pose/" + std::to_string(i), held[i], hold.pose[i]);
    }
    // RobotController takes dt in (0, 1] seconds.
    if (config.loop_hz < 1.0) fail(config, "/loop_hz", "at least 1 Hz (USER_CTRL dt = 1 / loop_hz <= 1 s)", std::to_string(config.loop_hz) + " Hz");

    // The network.
    const std::filesystem::path file = policy ? *policy : config.policy;
    if (file.empty()) {
      fail(config, "/policy", "the policy's ONNX file (relative to the deploy file), or one passed to load()", "no such key");
    }
    auto p = std::make_unique<Loaded>(Network::load(file));
    auto& net = p->net;
    const std::string model = file.string();

    std::vector<bool> recurrent_in(net.inputs().size(), false);
    std::vector<bool> recurrent_out(net.outputs().size(), false);
    for (std::size_t k = 0; k < config.recurrent.size(); ++k) {
      const std::string at = "/recurrent/" + std::to_string(k);
      const auto& pair = config.recurrent[k];
      const std::size_t in = tensor_at(config, at + "/input", [&] { return net.input_index(pair.input); });
      const std::size_t out = tensor_at(config, at + "/output", [&] { return net.output_index(pair.output); });
      tensor_at(config, at, [&] {
        net.carry(out, in);
        return std::size_t{0};
      });
      recurrent_in[in] = true;
      recurrent_out[out] = true;
    }
    p->obs_input = config.input.empty()
                       ? only_other(config, "/input", net.inputs(), recurrent_in, "observation input", "inputs")
                       : tensor_at(config, "/input", [&] { return net.input_index(config.input); });
    p->action_output = config.output.empty()
                           ? only_other(config, "/output", net.outputs(), recurrent_out, "action output", "outputs")
                           : tensor_at(config, "/output", [&] { return net.output_index(config.output); });
    if (recurrent_in[p->obs_input]) {
      fail(config, "/input", "the observation input, not a recurrent state", "\"" + config.input + "\"");
    }
    if (recurrent_out[p->action_output]) {
      fail(config, "/output", "the action output, not a recurrent state", "\"" + config.output + "\"");
    }
    for (std::size_t i = 0; i < net.inputs().size(); ++i) {
      if (i != p->obs_input && !recurrent_in[i]) {
        throw PolicyError(config.file.string() + ": the model " + model + " has the input \"" + net.inputs()[i].name +
                          "\", which is neither the observation (\"" + net.inputs()[p->obs_input].name +
                          "\") nor a recurrent state (key \"/recurrent\"): nothing would feed it");
      }
    }
    const auto& obs_tensor = net.inputs()[p->obs_input];
    if (obs_tensor.size() != config.observation_size()) {
      throw PolicyError(config.file.string() + ": key \"/observation/terms\": the observation has " +
                        std::to_string(config.observation_size()) + " values (" + describe_observation(config) +
                        ") but the model " + model + " takes " + std::to_string(obs_tensor.size()) + " in its input \"" +
                        obs_tensor.name + "\" " + shape_text(obs_tensor));
    }
    const auto& action_tensor = net.outputs()[p->action_output];
    if (action_tensor.size() != n) {
      throw PolicyError(config.file.string() + ": key \"/joint_names\": the policy drives " + std::to_string(n) +
                        " joints but the model " + model + " gives " + std::to_string(action_tensor.size()) +
                        " actions in its output \"" + action_tensor.name + "\" " + shape_text(action_tensor));
    }

    p->default_wire = Model::stand_pose;
    p->kp = Model::default_kp;
    p->kd = Model::default_kd;
    for (std::size_t i = 0; i < held.size(); ++i) {
      p->default_wire[held[i]] = hold.pose[i];
      p->kp[held[i]] = hold.kp[i];
      p->kd[held[i]] = hold.kd[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      p->default_wire[wire[i]] = config.default_pose[i];
      p->kp[wire[i]] = config.kp[i];
      p->kd[wire[i]] = config.kd[i];
    }
    p->target = p->default_wire;
    p->obs = ObservationBuilder<N>(config, wire);
    p->action.assign(n, 0.0f);
    p->wire = std::move(wire);
    p->config = std::move(config);
    return p;
  }

  std::unique_ptr<Loaded> loaded_;
  std::size_t counter_ = 0;    // cycles since reset
  std::size_t inferences_ = 0;
  std::array<double, N> blend_start_ = Model::stand_pose;
  std::array<double, 3> command_{0.0, 0.0, 0.0};
  CommandTimeline timeline_;  // empty: the deploy file's source
};

}  // namespace praxis::policy
