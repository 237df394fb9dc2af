#pragma once
// Loopback: an in-process transport with the same publisher / subscriber interface as the DDS one,
// for unit tests of backends and codecs without a network. Topics are matched by name and type.

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>

#include "praxis/core/mailbox.hpp"
#include "praxis/transport/stamped.hpp"

namespace praxis::transport {

class LoopbackBus {
 public:
  template <class T>
  LatestValue<Stamped<T>>& channel(std::string_view topic) {
    std::lock_guard lock(mutex_);  // only while creating endpoints, never per message
    auto& slot = channels_[{std::string(topic), std::type_index(typeid(T))}];
    if (!slot) slot = std::make_shared<Holder<T>>();
    return static_cast<Holder<T>&>(*slot).box;
  }

 private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <class T>
  struct Holder : HolderBase {
    LatestValue<Stamped<T>> box;
  };
  std::mutex mutex_;
  std::map<std::pair<std::string, std::type_index>, std::shared_ptr<HolderBase>> channels_;
};

template <class T>
class LoopbackPublisher {
 public:
  LoopbackPublisher(LoopbackBus& bus, std::string_view topic) : box_(&bus.channel<T>(topic)) {}
  // The DDS publisher's constructor shape, so a backend can take either transport.
  template <class Descriptor, class Qos>
  LoopbackPublisher(LoopbackBus& bus, std::string_view topic, Descriptor, Qos) : LoopbackPublisher(bus, topic) {}
  bool write(const T& message) {
    auto& slot = box_->back();
    slot.message = message;
    slot.received = Clock::now();
    slot.count = ++count_;
    box_->publish();
    return true;
  }

 private:
  LatestValue<Stamped<T>>* box_;
  std::uint64_t count_ = 0;
};

template <class T>
class LoopbackSubscriber {
 public:
  LoopbackSubscriber(LoopbackBus& bus, std::string_view topic) : box_(&bus.channel<T>(topic)) {}
  template <class Descriptor, class Qos>
  LoopbackSubscriber(LoopbackBus& bus, std::string_view topic, Descriptor, Qos) : LoopbackSubscriber(bus, topic) {}
  // The newest message not seen yet; false if nothing new arrived.
  bool fetch(Stamped<T>& out) {
    if (!box_->fetch()) return false;
    std::memcpy(&out, &box_->value(), sizeof out);  // bytes, as the DDS subscriber does
    return true;
  }

 private:
  LatestValue<Stamped<T>>* box_;
};

// The transport policy form (see praxis::dds::DdsTransport).
struct LoopbackTransport {
  using Context = LoopbackBus;
  template <class T>
  using Publisher = LoopbackPublisher<T>;
  template <class T>
  using Subscriber = LoopbackSubscriber<T>;
};

}  // namespace praxis::transport
