#pragma once
// The observation a policy reads, built from the robot's state in the deploy file's terms.
//
// A frame is the terms in the file's order, each value multiplied by its scale and then clipped to
// [-clip, clip]; joint terms are in the policy's joint order (wire[i] is the robot's index of the
// policy's joint i). With history_length H the vector holds the last H frames, oldest first:
//   term_major   for each term, its last H values (Isaac Lab's CircularBuffer flattening)
//   frame_major  the last H whole frames one after another (legged_gym's stacking)
// After reset() the next frame fills the whole history, so the policy never sees zeros it was not
// trained on. Everything is sized at construction: write() does not allocate.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "praxis/core/robot_state.hpp"
#include "praxis/policy/deploy.hpp"

namespace praxis::policy {

// "base_ang_vel 3, projected_gravity 3, joint_pos_rel 12, ... = 45 per frame", then " x 3 frames =
// 135" with history: what the observation is made of, for messages.
[[nodiscard]] inline std::string describe_observation(const DeployConfig& config) {
  std::string out;
  for (const auto& t : config.terms) {
    if (!out.empty()) out += ", ";
    out += std::string(term_name(t.term)) + " " + std::to_string(term_size(t.term, config.joint_count()));
  }
  out += " = " + std::to_string(config.frame_size()) + " per frame";
  if (config.history_length > 1) {
    out += " x " + std::to_string(config.history_length) + " frames = " + std::to_string(config.observation_size());
  }
  return out;
}

// What a frame is built from besides the robot's state.
struct ObservationInputs {
  std::array<double, 3> command{};     // vx, vy, wz
  std::span<const float> last_action;  // policy order, one per policy joint
  double time = 0.0;                   // seconds since the policy took over (the phase's clock)
};

template <std::size_t N>
class ObservationBuilder {
 public:
  ObservationBuilder() = default;

  // `wire` maps the policy's joint i to the robot's joint wire[i] (each < N, checked by the caller
  // against the robot model).
  ObservationBuilder(const DeployConfig& config, std::span<const std::size_t> wire)
      : wire_(wire.begin(), wire.end()),
        default_pose_(config.default_pose),
        clip_(config.observation_clip.value_or(std::numeric_limits<double>::infinity())),
        history_(config.history_length),
        order_(config.history_order) {
    std::size_t offset = 0;
    for (const auto& t : config.terms) {
      const std::size_t size = term_size(t.term, wire_.size());
      terms_.push_back(Term{t.term, offset, size, t.period});
      scale_.insert(scale_.end(), t.scale.begin(), t.scale.end());
      offset += size;
    }
    frame_ = offset;
    ring_.assign(frame_ * history_, 0.0f);
  }

  [[nodiscard]] std::size_t frame_size() const { return frame_; }
  [[nodiscard]] std::size_t size() const { return frame_ * history_; }
  [[nodiscard]] std::size_t history_length() const { return history_; }

  // Forgets the history: the next frame fills it.
  void reset() noexcept { filled_ = false; }

  // Builds this cycle's frame and writes the whole observation (size() values) into `out`.
  void write(const RobotState<N>& state, const ObservationInputs& in, std::span<float> out) noexcept {
    std::size_t slot = 0;
    if (filled_) {
      newest_ = (newest_ + 1) % history_;
      slot = newest_;
    }
    float* frame = ring_.data() + slot * frame_;
    for (const auto& t : terms_) write_term(t, state, in, frame + t.offset);
    if (!filled_) {
      // The first frame stands for every earlier one.
      for (std::size_t h = 1; h < history_; ++h) std::copy_n(frame, frame_, ring_.data() + h * frame_);
      newest_ = history_ - 1;
      filled_ = true;
    }
    const std::size_t oldest = (newest_ + 1) % history_;
    std::size_t at = 0;
    if (order_ == HistoryOrder::frame_major) {
      for (std::size_t k = 0; k < history_; ++k) {
        const float* f = ring_.data() + ((oldest + k) % history_) * frame_;
        std::copy_n(f, frame_, out.data() + at);
        at += frame_;
      }
    } else {
      for (const auto& t : terms_) {
        for (std::size_t k = 0; k < history_; ++k) {
          const float* f = ring_.data() + ((oldest + k) % history_) * frame_ + t.offset;
          std::copy_n(f, t.size, out.data() + at);
          at += t.size;
        }
      }
    }
  }

 private:
  struct Term {
    ObsTerm kind;
    std::size_t offset;  // in the frame (and in scale_)
    std::size_t size;
    double period;
  };

  void write_term(const Term& t, const RobotState<N>& s, const ObservationInputs& in, float* out) const noexcept {
    const double* scale = scale_.data() + t.offset;
    auto put = [&](std::size_t i, double raw) {
      const double v = std::clamp(raw * scale[i], -clip_, clip_);
      out[i] = static_cast<float>(v);
    };
    switch (t.kind) {
      case ObsTerm::base_ang_vel:
        for (std::size_t i = 0; i < 3; ++i) put(i, s.imu.gyro[static_cast<Eigen::Index>(i)]);
        break;
      case ObsTerm::projected_gravity:
        for (std::size_t i = 0; i < 3; ++i) put(i, s.projected_gravity[static_cast<Eigen::Index>(i)]);
        break;
      case ObsTerm::velocity_command:
        for (std::size_t i = 0; i < 3; ++i) put(i, in.command[i]);
        break;
      case ObsTerm::joint_pos_rel:
        for (std::size_t i = 0; i < t.size; ++i) put(i, s.q[static_cast<Eigen::Index>(wire_[i])] - default_pose_[i]);
        break;
      case ObsTerm::joint_vel_rel:
        for (std::size_t i = 0; i < t.size; ++i) put(i, s.dq[static_cast<Eigen::Index>(wire_[i])]);
        break;
      case ObsTerm::last_action:
        for (std::size_t i = 0; i < t.size; ++i) put(i, static_cast<double>(in.last_action[i]));
        break;
      case ObsTerm::phase: {
        const double angle = 2.0 * std::numbers::pi * in.time / t.period;
        put(0, std::sin(angle));
        put(1, std::cos(angle));
        break;
      }
    }
  }

  std::vector<Term> terms_;
  std::vector<double> scale_;  // one per frame element
  std::vector<std::size_t> wire_;
  std::vector<double> default_pose_;
  double clip_ = std::numeric_limits<double>::infinity();
  std::size_t history_ = 1;
  HistoryOrder order_ = HistoryOrder::term_major;
  std::size_t frame_ = 0;
  std::vector<float> ring_;  // history_ frames; newest_ is the latest
  std::size_t newest_ = 0;
  bool filled_ = false;
};

}  // namespace praxis::policy
