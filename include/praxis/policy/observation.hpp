#pragma once
// The observation a policy reads, built from the robot's state in the deploy file's terms.
//
// A frame is the terms in the file's order. Each raw value is bounded by its term's own clip (if
// any), multiplied by its scale, then clipped to [-clip, clip] of the observation; joint terms are
// in the policy's joint order (wire[i] is the robot's index of the policy's joint i). Each term keeps
// its last H values (H: its history_length), oldest first:
//   term_major   for each term, its last H values (Isaac Lab's CircularBuffer flattening); terms
//                may keep histories of different lengths
//   frame_major  the last H whole frames one after another (legged_gym's stacking); every term's H
//                is the same (the deploy file is refused otherwise)
// After reset() the next frame fills every history, so the policy never sees zeros it was not
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
  const bool one_history = std::all_of(config.terms.begin(), config.terms.end(), [&](const ObsTermConfig& t) {
    return t.history_length == config.history_length;
  });
  std::string out;
  for (const auto& t : config.terms) {
    if (!out.empty()) out += ", ";
    out += std::string(term_name(t.term)) + " " + std::to_string(term_size(t.term, config.joint_count()));
    if (!one_history) out += " x " + std::to_string(t.history_length);
  }
  if (!one_history) return out + " = " + std::to_string(config.observation_size());
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
  // The phase's clock: seconds since the policy took over, at the end of the policy step being
  // computed (one policy period at the first inference, as the authors' deploy loops count it).
  double time = 0.0;
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
        order_(config.history_order) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::size_t offset = 0;
    std::size_t ring = 0;
    for (const auto& t : config.terms) {
      const std::size_t size = term_size(t.term, wire_.size());
      const auto bounds = t.clip.value_or(std::array<double, 2>{-inf, inf});
      terms_.push_back(Term{t.term, offset, size, t.period, t.history_length, ring, bounds[0], bounds[1]});
      scale_.insert(scale_.end(), t.scale.begin(), t.scale.end());
      offset += size;
      ring += size * t.history_length;
    }
    frame_ = offset;
    history_ = config.history_length;
    ring_.assign(ring, 0.0f);
    newest_.assign(terms_.size(), 0);
  }

  [[nodiscard]] std::size_t frame_size() const { return frame_; }
  [[nodiscard]] std::size_t size() const { return ring_.size(); }
  [[nodiscard]] std::size_t history_length() const { return history_; }

  // Forgets the history: the next frame fills it.
  void reset() noexcept { filled_ = false; }

  // Builds this cycle's frame and writes the whole observation (size() values) into `out`.
  void write(const RobotState<N>& state, const ObservationInputs& in, std::span<float> out) noexcept {
    for (std::size_t k = 0; k < terms_.size(); ++k) {
      const Term& t = terms_[k];
      float* block = ring_.data() + t.ring;
      if (filled_) {
        newest_[k] = (newest_[k] + 1) % t.history;
        write_term(t, state, in, block + newest_[k] * t.size);
      } else {
        // The first value stands for every earlier one.
        write_term(t, state, in, block);
        for (std::size_t h = 1; h < t.history; ++h) std::copy_n(block, t.size, block + h * t.size);
        newest_[k] = t.history - 1;
      }
    }
    filled_ = true;
    std::size_t at = 0;
    if (order_ == HistoryOrder::frame_major) {
      for (std::size_t h = 0; h < history_; ++h) {
        for (std::size_t k = 0; k < terms_.size(); ++k) at = copy_value(k, h, out, at);
      }
    } else {
      for (std::size_t k = 0; k < terms_.size(); ++k) {
        for (std::size_t h = 0; h < terms_[k].history; ++h) at = copy_value(k, h, out, at);
      }
    }
  }

 private:
  struct Term {
    ObsTerm kind;
    std::size_t offset;   // in the frame (and in scale_)
    std::size_t size;
    double period;
    std::size_t history;  // values kept
    std::size_t ring;     // where its history starts in ring_
    double lo, hi;        // the term's own clip, before the scale
  };

  // Term k's h-th value counted from its oldest, copied to out[at...]; returns the next position.
  std::size_t copy_value(std::size_t k, std::size_t h, std::span<float> out, std::size_t at) const noexcept {
    const Term& t = terms_[k];
    const std::size_t slot = (newest_[k] + 1 + h) % t.history;
    std::copy_n(ring_.data() + t.ring + slot * t.size, t.size, out.data() + at);
    return at + t.size;
  }

  void write_term(const Term& t, const RobotState<N>& s, const ObservationInputs& in, float* out) const noexcept {
    const double* scale = scale_.data() + t.offset;
    auto put = [&](std::size_t i, double raw) {
      const double v = std::clamp(std::clamp(raw, t.lo, t.hi) * scale[i], -clip_, clip_);
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
  std::size_t history_ = 1;  // frame_major's frames
  HistoryOrder order_ = HistoryOrder::term_major;
  std::size_t frame_ = 0;
  std::vector<float> ring_;            // each term's last `history` values, one block per term
  std::vector<std::size_t> newest_;    // per term: its newest value's slot in its block
  bool filled_ = false;
};

}  // namespace praxis::policy
