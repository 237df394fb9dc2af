#pragma once
// Loopback: an in-process transport with the same publisher / subscriber interface as the DDS one,
// for unit tests of backends and codecs without a network. Topics are matched by name and type.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>

#include "praxis/core/mailbox.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/transport/stamped.hpp"

namespace praxis::transport {

// One topic's mailbox, and whom to wake when a message arrives (state-triggered control).
template <class T>
struct LoopbackChannel {
  LatestValue<Stamped<T>> box;
  std::atomic<Wakeup*> wakeup{nullptr};
  std::atomic<std::uint64_t> written{0};  // every message published, fetched or not
};

class LoopbackBus {
 public:
  template <class T>
  LoopbackChannel<T>& channel(std::string_view topic) {
    std::lock_guard lock(mutex_);  // only while creating endpoints, never per message
    auto& slot = channels_[{std::string(topic), std::type_index(typeid(T))}];
    if (!slot) slot = std::make_shared<Holder<T>>();
    return static_cast<Holder<T>&>(*slot).channel;
  }

 private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <class T>
  struct Holder : HolderBase {
    LoopbackChannel<T> channel;
  };
  std::mutex mutex_;
  std::map<std::pair<std::string, std::type_index>, std::shared_ptr<HolderBase>> channels_;
};

template <class T>
class LoopbackPublisher {
 public:
  LoopbackPublisher(LoopbackBus& bus, std::string_view topic) : channel_(&bus.channel<T>(topic)) {}
  // The DDS publisher's constructor shape, so a backend can take either transport.
  template <class Descriptor, class Qos>
  LoopbackPublisher(LoopbackBus& bus, std::string_view topic, Descriptor, Qos) : LoopbackPublisher(bus, topic) {}
  bool write(const T& message) {
    auto& slot = channel_->box.back();
    slot.message = message;
    slot.received = Clock::now();
    slot.count = ++count_;
    channel_->box.publish();
    channel_->written.fetch_add(1, std::memory_order_release);
    if (Wakeup* w = channel_->wakeup.load(std::memory_order_acquire)) w->notify();
    return true;
  }

 private:
  LoopbackChannel<T>* channel_;
  std::uint64_t count_ = 0;
};

template <class T>
class LoopbackSubscriber {
 public:
  LoopbackSubscriber(LoopbackBus& bus, std::string_view topic) : channel_(&bus.channel<T>(topic)) {}
  template <class Descriptor, class Qos>
  LoopbackSubscriber(LoopbackBus& bus, std::string_view topic, Descriptor, Qos) : LoopbackSubscriber(bus, topic) {}
  // The newest message not seen yet; false if nothing new arrived.
  bool fetch(Stamped<T>& out) {
    if (!channel_->box.fetch()) return false;
    std::memcpy(&out, &channel_->box.value(), sizeof out);  // bytes, as the DDS subscriber does
    return true;
  }
  // Every message that arrived, fetched or not (as the DDS subscriber counts them).
  [[nodiscard]] std::uint64_t received() const { return channel_->written.load(std::memory_order_acquire); }
  // Notified after each message a publisher writes to this topic (nullptr: nobody).
  void set_wakeup(Wakeup* wakeup) { channel_->wakeup.store(wakeup, std::memory_order_release); }

 private:
  LoopbackChannel<T>* channel_;
};

// The transport policy form (see praxis::transport::DdsTransport).
struct LoopbackTransport {
  using Context = LoopbackBus;
  template <class T>
  using Publisher = LoopbackPublisher<T>;
  template <class T>
  using Subscriber = LoopbackSubscriber<T>;
};

}  // namespace praxis::transport
