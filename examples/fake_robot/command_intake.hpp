#pragma once
// The fake robot's rt/lowcmd reader. Unlike praxis::transport::Subscriber (a latest-value mailbox, right
// for a controller), it keeps every frame: a controller that sends faster than the robot's 500 Hz
// tick, or sends a bad frame between two good ones, must have each of its frames checked and
// counted, not just the one that happened to be newest when the tick came.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <dds/dds.h>

#include <nlohmann/json.hpp>

#include <praxis/hardware/unitree/robot_codec.hpp>
#include <praxis/transport/dds.hpp>

namespace fake_robot {

// A frame failing several checks counts under each of its reasons, so the reasons can add up to
// more than received - checked.
struct IntakeCounts {
  std::uint64_t received = 0;
  std::uint64_t checked = 0;  // passed every check
  std::uint64_t applied = 0;  // the newest checked frame of a tick, written to the motors
  std::uint64_t held_by_motion_service = 0;  // ticks whose newest checked frame a motion service overrode
  std::uint64_t crc = 0;
  std::uint64_t header = 0;
  std::uint64_t motor_mode = 0;
  std::uint64_t mode_machine = 0;
  std::uint64_t non_finite = 0;       // a NaN or infinity in a joint slot (robot_codec.hpp)
  std::uint64_t mode_pr_ab = 0;       // hg mode_pr 1: the parallel-ankle mapping is not known here
  std::uint64_t mode_pr_unknown = 0;  // hg mode_pr other than 0 (PR) and 1 (AB)
};

inline nlohmann::json to_json(const IntakeCounts& n) {
  return {{"frames_received", n.received},
          {"frames_checked", n.checked},
          {"frames_rejected_total", n.received - n.checked},
          {"frames_rejected",
           {{"crc", n.crc},
            {"header", n.header},
            {"motor_mode", n.motor_mode},
            {"mode_machine", n.mode_machine},
            {"non_finite", n.non_finite},
            {"mode_pr_ab", n.mode_pr_ab},
            {"mode_pr_unknown", n.mode_pr_unknown}}},
          {"frames_applied", n.applied},
          {"ticks_held_by_motion_service", n.held_by_motion_service}};
}

struct IntakeOptions {
  std::string topic = "rt/lowcmd";
  bool check_crc = true;          // Unitree's simulators do not check it
  std::uint8_t mode_machine = 0;  // hg: what this robot reports, so what commands must echo
};

template <praxis::unitree::UnitreeModel M>
class CommandIntake {
 public:
  using Family = typename praxis::unitree::Wire<M>::Family;
  using LowCmd = typename Family::LowCmd;
  static constexpr std::size_t N = M::joint_count;

  CommandIntake(const praxis::transport::Participant& participant, IntakeOptions options) : options_(std::move(options)) {
    topic_ = dds_create_topic(participant.handle(), Family::low_cmd_descriptor(), options_.topic.c_str(), nullptr,
                              nullptr);
    if (topic_ < 0) praxis::transport::detail::fail("cannot create the topic", options_.topic, topic_);
    // Reliable and keep-all: a burst from a reliable writer (Cyclone's default, which the vendor
    // SDKs get) arrives whole however late the next tick takes it.
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_MSECS(100));
    dds_qset_history(qos, DDS_HISTORY_KEEP_ALL, 0);
    reader_ = dds_create_reader(participant.handle(), topic_, qos, nullptr);
    dds_delete_qos(qos);
    if (reader_ < 0) praxis::transport::detail::fail("cannot create a reader", options_.topic, reader_);
  }
  ~CommandIntake() {
    if (reader_ > 0) dds_delete(reader_);
    if (topic_ > 0) dds_delete(topic_);
  }
  CommandIntake(const CommandIntake&) = delete;
  CommandIntake& operator=(const CommandIntake&) = delete;

  // Takes every frame received since the last call and checks each; `newest` gets the newest frame
  // that passed. Returns whether one did.
  bool drain(praxis::JointCommand<N>& newest) {
    bool any = false;
    for (;;) {
      // Zeroed before each take: Cyclone writes only the members, and the CRC covers the padding.
      std::memset(&sample_, 0, sizeof sample_);
      void* samples[1] = {&sample_};
      dds_sample_info_t info[1];
      if (dds_take(reader_, samples, info, 1, 1) <= 0) break;
      if (!info[0].valid_data) continue;  // a writer that went away
      ++counts_.received;
      if (check(sample_, scratch_)) {
        ++counts_.checked;
        newest = scratch_;
        newest_frame_ = sample_;
        any = true;
      }
    }
    return any;
  }

  // The benchmark baseline's path: takes every frame, counts it as received, checks nothing.
  bool drain_unchecked() {
    bool any = false;
    void* samples[1] = {&sample_};
    dds_sample_info_t info[1];
    while (dds_take(reader_, samples, info, 1, 1) > 0) {
      if (!info[0].valid_data) continue;
      ++counts_.received;
      any = true;
    }
    return any;
  }

  void count_applied() { ++counts_.applied; }
  void count_held() { ++counts_.held_by_motion_service; }
  [[nodiscard]] const IntakeCounts& counts() const { return counts_; }
  // The newest frame that passed, as received (for slots that are not joints: the arm SDK weight).
  [[nodiscard]] const LowCmd& newest_frame() const { return newest_frame_; }

 private:
  bool check(const LowCmd& frame, praxis::JointCommand<N>& cmd) {
    const auto c = praxis::unitree::decode_command<M>(frame, options_.mode_machine, cmd);
    const bool crc_ok = c.crc_ok || !options_.check_crc;
    bool pr_ok = true;
    if constexpr (std::is_same_v<Family, praxis::unitree::HgFamily>) {
      // In AB mode the ankle (and G1 waist) slots are motor targets, not joint angles; applying
      // them as pitch/roll would move the joints somewhere the controller never asked for.
      if (frame.mode_pr == 1) {
        ++counts_.mode_pr_ab;
        pr_ok = false;
      } else if (frame.mode_pr != 0) {
        ++counts_.mode_pr_unknown;
        pr_ok = false;
      }
    }
    counts_.crc += !crc_ok;
    counts_.header += !c.header_ok;
    counts_.motor_mode += !c.mode_ok;
    counts_.mode_machine += !c.mode_machine_ok;
    counts_.non_finite += !c.finite_ok;
    return crc_ok && c.header_ok && c.mode_ok && c.mode_machine_ok && c.finite_ok && pr_ok;
  }

  IntakeOptions options_;
  dds_entity_t topic_ = 0;
  dds_entity_t reader_ = 0;
  LowCmd sample_{};
  LowCmd newest_frame_{};
  praxis::JointCommand<N> scratch_;
  IntakeCounts counts_;
};

}  // namespace fake_robot
