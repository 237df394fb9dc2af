#pragma once
// ArmZeroing: Tienkung's arm zeroing (rt/arm/cmd_set_zero, std_msgs/String whose data is the motor
// id as decimal text, e.g. "12"). The robot takes the motor's CURRENT position as its new zero: a
// wrong call silently shifts every later position of that joint, and the remote's return-to-zero
// (button D) then drives the joint to wherever it was. Source: the vendor's arm interface manual
// (8.7.2 item 5); docs/backends/tienkung.md, "Wire facts and their sources".
//
// So it is never reachable from the control cycle, and never while one runs:
//   - it is a separate object; making one claims the backend, and fails (std::logic_error) while
//     the backend is in control (acquire() succeeded, release() not yet called); while it exists
//     the backend's acquire() fails, naming it, and the backend's write() sends nothing. It must
//     not outlive the backend;
//   - set_zero() refuses while the backend wrote a command within zeroing_quiet_period (a loop
//     driving write() without the lifecycle), refuses motors that are not the model's arm motors,
//     and wants a confirmation text naming the motor: confirmation(id), e.g. "zero arm motor 12";
//   - it blocks (waits up to zeroing_match_timeout for the body service to subscribe) and
//     allocates: a tool for a bench procedure, not for a loop.
//
//   praxis::tienkung::ArmZeroing zeroing(robot);     // robot not in control
//   auto r = zeroing.set_zero(12, "zero arm motor 12");
//   if (!r.ok) std::cerr << r.message << '\n';

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>

#include <praxis/idl/std_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/tienkung/backend.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"
#include "praxis/transport/dds_sequence.hpp"
#include "praxis/transport/loopback.hpp"

namespace praxis::tienkung {

using StringWire = std_msgs_msg_dds__String_;

// The fixed-size value of one zeroing request (motor ids have at most two digits).
struct ZeroRequest {
  transport::BoundedString<7> data;
};

class ZeroRequestToWire {
 public:
  bool operator()(const ZeroRequest& v, StringWire& out) {
    return transport::lend_string(out.data, std::span<char>(text_), v.data.view());
  }

 private:
  std::array<char, 8> text_{};
};

struct ZeroingResult {
  bool ok = false;
  std::string message;  // what was sent, or why nothing was
};

namespace detail {
template <class Transport>
struct ZeroPublisher {
  using type = transport::LoopbackPublisher<ZeroRequest>;
  static std::unique_ptr<type> make(typename Transport::Context& c, const std::string& topic, const std::string&,
                                    const transport::TopicQos&) {
    return std::make_unique<type>(c, topic);
  }
  static bool matched(const type&) { return true; }  // in process: the bus delivers to any reader
};
template <>
struct ZeroPublisher<transport::DdsTransport> {
  using type = transport::EncodingPublisher<StringWire, ZeroRequest, ZeroRequestToWire>;
  static std::unique_ptr<type> make(transport::Participant& c, const std::string& topic, const std::string& type_name,
                                    const transport::TopicQos& qos) {
    return std::make_unique<type>(c, topic, transport::with_type_name(&std_msgs_msg_dds__String__desc, type_name),
                                  ZeroRequestToWire{}, qos);
  }
  static bool matched(const type& p) { return p.matched() > 0; }
};
}  // namespace detail

template <TienkungModel M, class Transport = transport::DdsTransport>
class ArmZeroing {
  using Publisher = detail::ZeroPublisher<Transport>;

 public:
  // Claims the backend; throws std::logic_error naming the reason when it is in control (or another
  // ArmZeroing has it).
  template <StatusLayout Layout>
  explicit ArmZeroing(TienkungBackend<M, Layout, Transport>& backend)
      : holder_(&backend.holder_), last_write_ns_(&backend.last_write_ns_), options_(backend.options()) {
    auto expected = detail::Holder::nobody;
    if (!holder_->compare_exchange_strong(expected, detail::Holder::zeroing)) {
      throw std::logic_error(
          std::string("praxis::tienkung::ArmZeroing: refused, ") +
          (expected == detail::Holder::control
               ? "the backend is in control (a run is active); release() it before zeroing arm motors"
               : "another ArmZeroing session holds the backend"));
    }
    try {
      publisher_ = Publisher::make(backend.context(), options_.topics.set_zero, options_.types.string,
                                   options_.command_qos);
    } catch (...) {
      holder_->store(detail::Holder::nobody);
      throw;
    }
  }
  ~ArmZeroing() {
    publisher_.reset();
    holder_->store(detail::Holder::nobody);
  }
  ArmZeroing(const ArmZeroing&) = delete;
  ArmZeroing& operator=(const ArmZeroing&) = delete;

  // The confirmation set_zero() wants for `motor_id`.
  [[nodiscard]] static std::string confirmation(std::uint16_t motor_id) {
    return "zero arm motor " + std::to_string(motor_id);
  }

  // Sets the current position of arm motor `motor_id` as its zero. Nothing is sent unless every
  // guard passes; the result says which one did not.
  ZeroingResult set_zero(std::uint16_t motor_id, std::string_view confirmation_text) {
    const std::size_t j = joint_of_motor<M>(motor_id);
    const LimbSpec* arm = find_limb<M>(Limb::arm);
    if (arm == nullptr || j < arm->first || j >= arm->first + arm->count) {
      return {false, "motor " + std::to_string(motor_id) + " is not an arm motor of " + std::string(M::name) +
                         " (its arm motors: " + arm_motors() + "); nothing sent on " + options_.topics.set_zero};
    }
    if (confirmation_text != confirmation(motor_id)) {
      return {false, "confirmation \"" + std::string(confirmation_text) + "\" does not match \"" +
                         confirmation(motor_id) + "\"; nothing sent on " + options_.topics.set_zero};
    }
    const auto last = last_write_ns_->load(std::memory_order_relaxed);
    if (last != 0 && Clock::now().time_since_epoch() - Duration(last) < options_.zeroing_quiet_period) {
      return {false, "the backend wrote a joint command less than " +
                         std::to_string(to_ms(options_.zeroing_quiet_period)) +
                         " ms ago (a control loop is running); nothing sent on " + options_.topics.set_zero};
    }
    const auto deadline = Clock::now() + options_.zeroing_match_timeout;
    while (!Publisher::matched(*publisher_) && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!Publisher::matched(*publisher_)) {
      return {false, "nobody subscribes " + options_.topics.set_zero + " (type " + options_.types.string +
                         "): is the body service running? nothing sent"};
    }
    ZeroRequest request;
    request.data.assign(std::to_string(motor_id));
    if (!publisher_->write(request)) {
      return {false, "DDS refused the write on " + options_.topics.set_zero};
    }
    return {true, "sent \"" + std::to_string(motor_id) + "\" on " + options_.topics.set_zero};
  }

 private:
  static std::string arm_motors() {
    std::string out;
    const LimbSpec* arm = find_limb<M>(Limb::arm);
    if (arm == nullptr) return "none";
    for (std::size_t j = arm->first; j < arm->first + arm->count; ++j) {
      out += (out.empty() ? "" : " ") + std::to_string(M::motor_ids[j]);
    }
    return out;
  }

  std::atomic<detail::Holder>* holder_;
  const std::atomic<Duration::rep>* last_write_ns_;
  BackendOptions options_;
  std::unique_ptr<typename Publisher::type> publisher_;
};

}  // namespace praxis::tienkung
