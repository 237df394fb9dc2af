#pragma once
// praxis-sim's --pictures: frames of the run every --picture-every simulated seconds, and at the end
// a contact sheet of them, so a user sees the robot stand up without a display.
//
// Drawing a frame takes llvmpipe tens of milliseconds, far longer than the 2 ms tick in which the
// simulation must publish its next state. So the simulation thread only copies the state (qpos, a
// few dozen numbers) into a slot; a thread of its own draws it from a second copy of the model, and
// a frame whose time comes while the previous one is still being drawn waits for the next tick. The
// pictures are written when the run ends.
//
// A run in simulated time (praxis_demo --backend mujoco) has no tick to keep: with every_frame the
// simulation waits for the drawing thread instead, so every frame is drawn at its own time and two
// equal runs give equal pictures.

#include <mujoco/mujoco.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <praxis/core/clock.hpp>
#include <praxis/sim/camera.hpp>
#include <praxis/sim/contact_sheet.hpp>
#include <praxis/sim/mujoco_world.hpp>
#include <praxis/sim/png.hpp>
#include <praxis/sim/renderer.hpp>

namespace sim {

struct PictureOptions {
  std::filesystem::path folder;  // empty: no pictures
  praxis::Duration every = std::chrono::milliseconds(500);
  int width = 320;
  int height = 240;
  std::size_t columns = 5;  // of the contact sheet
  bool every_frame = false;  // wait for the drawing thread rather than draw a frame late
  praxis::sim::Camera camera;  // follows the base sideways, keeps its height
};

// "WxH", both positive; throws std::invalid_argument naming the option.
inline std::pair<int, int> parse_picture_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w <= 0 || h <= 0 ||
      w > 4096 || h > 4096) {
    throw std::invalid_argument("--picture-size: expected WIDTHxHEIGHT of 1 to 4096 pixels each, got \"" + text + "\"");
  }
  return {w, h};
}

// From the front left, at the height of the body: a humanoid needs a longer view.
inline praxis::sim::Camera robot_view(bool humanoid) {
  praxis::sim::Camera view;
  view.lookat.z() = humanoid ? 0.7 : 0.25;
  view.distance = humanoid ? 3.0 : 1.5;
  view.elevation = humanoid ? -10.0 : -20.0;
  return view;
}

class Pictures {
 public:
  // Checks that a renderer can be made here and that the folder can be created; when no OpenGL
  // context can be made, says why on stderr and takes no pictures (the run itself goes on).
  Pictures(const PictureOptions& options, const std::filesystem::path& model,
           std::span<const std::string_view> joints, const char* program)
      : options_(options), program_(program) {
    if (options_.folder.empty()) return;
    std::string why;
    if (!praxis::sim::Renderer::available(&why)) {
      std::fprintf(stderr, "%s: no pictures: no OpenGL context for offscreen rendering (%s)\n", program, why.c_str());
      return;
    }
    std::filesystem::create_directories(options_.folder);
    // An OpenGL context is current in one thread at a time: the drawing thread makes it and keeps it.
    worker_ = std::thread([this, model, joints] { draw_loop(model, joints); });
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return ready_ || stopping_; });
    if (!ready_) {
      lock.unlock();
      worker_.join();
      std::fprintf(stderr, "%s: no pictures: %s\n", program, setup_error_.c_str());
    }
  }

  ~Pictures() { stop(); }
  Pictures(const Pictures&) = delete;
  Pictures& operator=(const Pictures&) = delete;

  // From the simulation thread, once per tick: hands the state over when a frame is due and the
  // drawing thread is free.
  void offer(const mjModel* model, const mjData* data, praxis::Duration elapsed) {
    if (!ready_ || elapsed < next_) return;
    std::unique_lock lock(mutex_, std::defer_lock);
    if (options_.every_frame) {
      lock.lock();
      taken_.wait(lock, [&] { return !has_pending_ || stopping_; });
      if (stopping_) return;
    } else if (!lock.try_lock() || has_pending_) {
      return;
    }
    std::copy_n(data->qpos, model->nq, pending_.begin());
    pending_time_ = elapsed;
    has_pending_ = true;
    next_ = elapsed + options_.every;
    lock.unlock();
    wake_.notify_one();
  }

  // Draws what is still pending, then writes frame_NNN.png and contact_sheet.png. Returns the sheet's
  // path (empty when there are no pictures).
  std::filesystem::path finish() {
    stop();
    if (frames_.empty()) return {};
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%03zu.png", i);
      praxis::sim::write_png(frames_[i], options_.folder / name);
    }
    const auto sheet = options_.folder / "contact_sheet.png";
    praxis::sim::write_png(praxis::sim::contact_sheet(frames_, options_.columns), sheet);
    return sheet;
  }

  [[nodiscard]] std::size_t frame_count() const noexcept { return frames_.size(); }

 private:
  void stop() {
    if (!worker_.joinable()) return;
    ready_ = false;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
  }

  void draw_loop(const std::filesystem::path& model, std::span<const std::string_view> joints) {
    std::unique_lock lock(mutex_);
    try {
      world_.emplace(model, joints);
      renderer_.emplace(*world_, options_.width, options_.height);
      pending_.resize(static_cast<std::size_t>(world_->model()->nq));
      ready_ = true;
    } catch (const std::exception& e) {
      setup_error_ = e.what();
      stopping_ = true;
    }
    wake_.notify_all();
    if (!ready_) return;
    for (;;) {
      wake_.wait(lock, [&] { return has_pending_ || stopping_; });
      if (!has_pending_) break;
      std::copy(pending_.begin(), pending_.end(), world_->data()->qpos);
      const double t = praxis::to_seconds(pending_time_);
      lock.unlock();
      char label[32];
      std::snprintf(label, sizeof label, "t = %.1f s", t);
      try {
        frames_.push_back(renderer_->render(*world_, praxis::sim::track_base(*world_, options_.camera, true), label));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: a picture failed: %s\n", program_, e.what());
      }
      lock.lock();
      has_pending_ = false;
      taken_.notify_all();
    }
    // The context goes with the thread it is current in.
    renderer_.reset();
    world_.reset();
  }

  PictureOptions options_;
  const char* program_;
  std::optional<praxis::sim::MujocoWorld> world_;  // the drawing thread's copy of the scene
  std::optional<praxis::sim::Renderer> renderer_;
  std::vector<praxis::sim::Image> frames_;  // drawing thread only, until joined
  praxis::Duration next_{};                  // simulation thread only

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable taken_;  // the drawing thread is free for the next frame
  std::vector<double> pending_;
  praxis::Duration pending_time_{};
  bool has_pending_ = false;
  bool stopping_ = false;
  std::atomic<bool> ready_{false};  // the drawing thread has its scene and renderer
  std::string setup_error_;
  std::thread worker_;
};

}  // namespace sim
