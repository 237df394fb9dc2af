#pragma once
// Loopback: an in-process transport with the same publisher / subscriber interface as the DDS one,
// for unit tests of backends and codecs without a network. Topics are matched by name and type.

#include <any>
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
  // The newest message not seen yet; false if nothing new arrived.
  bool fetch(Stamped<T>& out) {
    if (!box_->fetch()) return false;
    out = box_->value();
    return true;
  }

 private:
  LatestValue<Stamped<T>>* box_;
};

}  // namespace praxis::transport
