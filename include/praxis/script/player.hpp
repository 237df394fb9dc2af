#pragma once
// ScriptPlayer<N>: plays script requests with subsumption priorities, allocation-free.
//
//   - A request is one script or a sequence played back to back, a priority, an optional duration
//     for the whole sequence (every frame scaled by the same factor) and a start time.
//   - The first frame moves from where each joint was when the request was executed; later frames
//     from the previous target. A joint a frame does not name holds its previous target.
//   - Priorities decide per joint: a request takes the joints it uses from requests of lower
//     priority and leaves them the others; between equal priorities the newer request wins.
//   - A finished request keeps holding its last targets until another request takes its joints.

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <limits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_vector.hpp"
#include "praxis/script/script.hpp"

namespace praxis::script {

inline constexpr std::size_t k_max_sequence = 4;

// ExecuteScript: scripts given directly.
template <std::size_t N>
struct ExecuteScript {
  int priority = 0;
  std::array<const Script<N>*, k_max_sequence> scripts{};
  std::size_t count = 0;
  std::optional<Duration> duration;  // total duration of the sequence; unset = as written
  TimePoint start{};                 // not before this time
};

// ExecuteScriptByName: scripts named as in a ScriptLibrary.
struct ExecuteScriptByName {
  int priority = 0;
  std::array<std::string_view, k_max_sequence> names{};
  std::size_t count = 0;
  std::optional<Duration> duration;
  TimePoint start{};
};

// Per-joint output of the player.
template <std::size_t N>
struct JointTargets {
  std::array<double, N> q{}, kp{}, kd{};
  std::bitset<N> owned;  // joints some request controls this cycle
};

template <std::size_t N, std::size_t Capacity = 8>
class ScriptPlayer {
 public:
  // Queues a request; `current` is where the joints are now. Returns false (and changes nothing)
  // when the request names no script, or when every slot holds a request still running.
  bool execute(const ExecuteScript<N>& request, const JointVector<N>& current) {
    if (request.count == 0 || request.count > k_max_sequence) return false;
    Playback* slot = nullptr;
    for (auto& p : slots_) {
      if (!p.used) {
        slot = &p;
        break;
      }
    }
    if (slot == nullptr) slot = evictable();
    if (slot == nullptr) return false;

    Playback p;
    p.used = true;
    p.request = request;
    p.sequence = ++sequence_;
    Duration written{};
    for (std::size_t k = 0; k < request.count; ++k) {
      if (request.scripts[k] == nullptr) return false;
      written += request.scripts[k]->total();
      p.joints |= request.scripts[k]->joints;
    }
    p.scale = (request.duration && written > Duration::zero())
                  ? to_seconds(*request.duration) / to_seconds(written)
                  : 1.0;
    for (std::size_t j = 0; j < N; ++j) p.segment_start[j] = current[static_cast<Eigen::Index>(j)];
    // A joint the sequence owns but the first script does not name is held with the gains of the
    // first frame that names it (as build() back-fills them within one script).
    p.segment_kp.fill(std::numeric_limits<double>::quiet_NaN());
    p.segment_kd.fill(std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < request.count; ++k) {
      for (const auto& frame : request.scripts[k]->frames) {
        for (std::size_t j = 0; j < N; ++j) {
          if (std::isnan(p.segment_kp[j]) && !std::isnan(frame.kp[j])) p.segment_kp[j] = frame.kp[j];
          if (std::isnan(p.segment_kd[j]) && !std::isnan(frame.kd[j])) p.segment_kd[j] = frame.kd[j];
        }
      }
    }
    *slot = p;
    return true;
  }

  // Targets at `now` for the joints some request owns.
  void evaluate(TimePoint now, JointTargets<N>& out) {
    out.owned.reset();
    std::array<const Playback*, N> owner{};
    for (auto& p : slots_) {
      if (!p.used || now < p.request.start) continue;
      advance(p, now);
      for (std::size_t j = 0; j < N; ++j) {
        if (!p.joints.test(j)) continue;
        const Playback* o = owner[j];
        if (o == nullptr || p.request.priority > o->request.priority ||
            (p.request.priority == o->request.priority && p.sequence > o->sequence)) {
          owner[j] = &p;
        }
      }
    }
    for (std::size_t j = 0; j < N; ++j) {
      if (owner[j] == nullptr) continue;
      sample(*owner[j], now, j, out.q[j], out.kp[j], out.kd[j]);
      out.owned.set(j);
    }
    // Requests that no longer own any joint and are done are dropped.
    for (auto& p : slots_) {
      if (!p.used || !p.finished) continue;
      bool owns = false;
      for (std::size_t j = 0; j < N && !owns; ++j) owns = owner[j] == &p;
      if (!owns) p.used = false;
    }
  }

  // True when no request is waiting or running (finished ones may still hold their pose).
  [[nodiscard]] bool finished(TimePoint now) const {
    for (const auto& p : slots_) {
      if (p.used && (now < p.request.start || now - p.request.start < total(p))) return false;
    }
    return true;
  }
  [[nodiscard]] bool idle() const {
    return std::none_of(slots_.begin(), slots_.end(), [](const Playback& p) { return p.used; });
  }
  void clear() {
    for (auto& p : slots_) p.used = false;
  }

 private:
  struct Playback {
    bool used = false;
    bool finished = false;
    ExecuteScript<N> request{};
    std::uint64_t sequence = 0;
    double scale = 1.0;
    std::bitset<N> joints;
    std::size_t segment = 0;             // which script of the sequence
    Duration segment_offset{};           // scaled time at which it began
    std::array<double, N> segment_start{};  // joint positions at its beginning
    // The gains a joint this script does not name is held with: the last ones an earlier script
    // of the sequence gave it, else the first a later one will (NaN: none ever, sent as 0).
    std::array<double, N> segment_kp{}, segment_kd{};
  };

  Duration scaled(Duration d, const Playback& p) const {
    return std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::nano>(
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()) * p.scale));
  }
  Duration total(const Playback& p) const {
    Duration d{};
    for (std::size_t k = 0; k < p.request.count; ++k) d += scaled(p.request.scripts[k]->total(), p);
    return d;
  }

  // Moves to the script of the sequence that `now` falls in, carrying end positions forward.
  void advance(Playback& p, TimePoint now) {
    const Duration t = now - p.request.start;
    while (p.segment + 1 < p.request.count) {
      const auto& s = *p.request.scripts[p.segment];
      const Duration end = p.segment_offset + scaled(s.total(), p);
      if (t < end) break;
      const auto& last = s.frames.back();
      for (std::size_t j = 0; j < N; ++j) {
        if (!std::isnan(last.position[j])) p.segment_start[j] = last.position[j];
        if (!std::isnan(last.kp[j])) p.segment_kp[j] = last.kp[j];
        if (!std::isnan(last.kd[j])) p.segment_kd[j] = last.kd[j];
      }
      p.segment_offset = end;
      ++p.segment;
    }
    p.finished = t >= total(p);
  }

  void sample(const Playback& p, TimePoint now, std::size_t j, double& q, double& kp, double& kd) const {
    const auto& s = *p.request.scripts[p.segment];
    const Duration t = std::max(Duration::zero(), (now - p.request.start) - p.segment_offset);
    const double start = p.segment_start[j];
    Duration frame_begin{};
    for (std::size_t f = 0; f < s.frames.size(); ++f) {
      const auto& frame = s.frames[f];
      const Duration length = scaled(frame.duration, p);
      const bool last = f + 1 == s.frames.size();
      if (t < frame_begin + length || last) {
        const double from = f == 0 || std::isnan(s.frames[f - 1].position[j]) ? start : s.frames[f - 1].position[j];
        const double to = std::isnan(frame.position[j]) ? from : frame.position[j];
        const double alpha =
            length <= Duration::zero() ? 1.0 : std::clamp(to_seconds(t - frame_begin) / to_seconds(length), 0.0, 1.0);
        q = from + alpha * (to - from);
        const double held_kp = std::isnan(p.segment_kp[j]) ? 0.0 : p.segment_kp[j];
        const double held_kd = std::isnan(p.segment_kd[j]) ? 0.0 : p.segment_kd[j];
        kp = std::isnan(frame.kp[j]) ? held_kp : frame.kp[j];
        kd = std::isnan(frame.kd[j]) ? held_kd : frame.kd[j];
        return;
      }
      frame_begin += length;
    }
  }

  // A finished request, the lowest priority and oldest first.
  Playback* evictable() {
    Playback* best = nullptr;
    for (auto& p : slots_) {
      if (!p.finished) continue;
      if (best == nullptr || p.request.priority < best->request.priority ||
          (p.request.priority == best->request.priority && p.sequence < best->sequence)) {
        best = &p;
      }
    }
    return best;
  }

  std::array<Playback, Capacity> slots_{};
  std::uint64_t sequence_ = 0;
};

}  // namespace praxis::script
