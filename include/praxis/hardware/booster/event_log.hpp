#pragma once
// Where the Booster backend's structured log entries go: one JSON object per line, with a category
// (behaviour_input, button_input, primary_state, rpc — the JSON's "event" says scheduled, completed
// or failed). Written from the
// backend's I/O worker and executor threads, never from the control thread.
//
// make_spdlog_event_log() writes them through spdlog (asynchronously to a file, or to stdout),
// compiled in the praxis library so headers do not pull in spdlog; tests record them instead.

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/clock.hpp"

namespace praxis::booster {

class EventLog {
 public:
  virtual ~EventLog() = default;
  // `json` is one JSON object (no newline). Thread-safe.
  virtual void write(std::string_view category, std::string_view json) = 0;
};

// Drops everything (the default when nobody asked for logs).
class NoEventLog final : public EventLog {
 public:
  void write(std::string_view, std::string_view) override {}
};

// Keeps every entry, for tests and for reports at the end of a run.
class RecordingEventLog final : public EventLog {
 public:
  struct Entry {
    std::string category;
    std::string json;
    TimePoint time{};  // when it was written (Clock)
  };
  void write(std::string_view category, std::string_view json) override {
    const auto now = Clock::now();
    std::lock_guard lock(mutex_);
    entries_.push_back({std::string(category), std::string(json), now});
  }
  [[nodiscard]] std::vector<Entry> entries() const {
    std::lock_guard lock(mutex_);
    return entries_;
  }
  [[nodiscard]] std::vector<Entry> entries(std::string_view category) const {
    std::lock_guard lock(mutex_);
    std::vector<Entry> out;
    for (const auto& e : entries_) {
      if (e.category == category) out.push_back(e);
    }
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

// spdlog, "[booster_interface] <category> <json>" per line: to `file` (created with its folders;
// written by spdlog's background thread) or, when file is empty, to stdout.
std::shared_ptr<EventLog> make_spdlog_event_log(const std::filesystem::path& file = {});

// Both at once (e.g. a file for the run and a recorder for the printed story).
class TeeEventLog final : public EventLog {
 public:
  TeeEventLog(std::shared_ptr<EventLog> a, std::shared_ptr<EventLog> b) : a_(std::move(a)), b_(std::move(b)) {}
  void write(std::string_view category, std::string_view json) override {
    if (a_) a_->write(category, json);
    if (b_) b_->write(category, json);
  }

 private:
  std::shared_ptr<EventLog> a_, b_;
};

}  // namespace praxis::booster
