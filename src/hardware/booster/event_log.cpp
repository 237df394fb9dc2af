// The Booster backend's structured log through spdlog (kept out of the headers).
#include "praxis/hardware/booster/event_log.hpp"

#include <spdlog/async.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace praxis::booster {

namespace {
class SpdlogEventLog final : public EventLog {
 public:
  explicit SpdlogEventLog(std::shared_ptr<spdlog::logger> logger) : logger_(std::move(logger)) {
    logger_->set_pattern("%Y-%m-%dT%H:%M:%S.%e [%n] %v");
  }
  ~SpdlogEventLog() override { logger_->flush(); }
  void write(std::string_view category, std::string_view json) override {
    logger_->info("{} {}", category, json);
  }

 private:
  std::shared_ptr<spdlog::logger> logger_;
};
}  // namespace

std::shared_ptr<EventLog> make_spdlog_event_log(const std::filesystem::path& file) {
  if (file.empty()) {
    return std::make_shared<SpdlogEventLog>(
        std::make_shared<spdlog::logger>("booster_interface", std::make_shared<spdlog::sinks::stdout_sink_mt>()));
  }
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  // One background thread for all async loggers of the process (spdlog's shared pool).
  if (!spdlog::thread_pool()) spdlog::init_thread_pool(8192, 1);
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file.string(), true);
  auto logger = std::make_shared<spdlog::async_logger>("booster_interface", std::move(sink), spdlog::thread_pool(),
                                                       spdlog::async_overflow_policy::overrun_oldest);
  return std::make_shared<SpdlogEventLog>(std::move(logger));
}

}  // namespace praxis::booster
