#pragma once
// Renderer: offscreen pictures of a MuJoCo scene, without a display or a GPU.
//
// It owns an OpenGL context made through EGL on Mesa's surfaceless platform (llvmpipe renders on
// the CPU where there is no GPU), MuJoCo's visual scene and its rendering context, sized for one
// picture size. MuJoCo draws into its own offscreen framebuffer, so no window or surface exists.
// MuJoCo and EGL headers stay in the compiled part.
//
// Rendering reads the world without changing it: the state is copied into the renderer's own
// mjData first, so taking pictures never alters the simulation's course.
//
// Threads: an OpenGL context is current in one thread at a time; use a Renderer from one thread at
// a time (render() makes its context current each call, so several renderers may take turns).

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "praxis/sim/camera.hpp"
#include "praxis/sim/image.hpp"

struct mjModel_;

namespace praxis::sim {

class MujocoWorld;

// No OpenGL context could be made, or MuJoCo could not set up its rendering in it. The message
// names the step that failed, e.g. "EGL: no surfaceless display (eglGetPlatformDisplayEXT ...)".
class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Renderer {
 public:
  static constexpr int k_default_width = 640;
  static constexpr int k_default_height = 480;

  // For the world's model; the world must outlive the renderer. Throws RenderError (no GL) or
  // std::invalid_argument (a size that is not positive).
  explicit Renderer(const MujocoWorld& world, int width = k_default_width, int height = k_default_height);
  // For any model (kept by pointer: it must outlive the renderer).
  explicit Renderer(const mjModel_* model, int width = k_default_width, int height = k_default_height);
  ~Renderer();
  Renderer(Renderer&&) noexcept;
  Renderer& operator=(Renderer&&) noexcept;
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Whether a Renderer can be made here: an EGL surfaceless display and an OpenGL context on it.
  // When not, and `why` is given, says what is missing. Tests use it to skip; it costs one context.
  [[nodiscard]] static bool available(std::string* why = nullptr);

  [[nodiscard]] int width() const noexcept;
  [[nodiscard]] int height() const noexcept;

  // A picture of the world's current state from the camera, width() x height(), rows top-down.
  // `label`, if not empty, is written in the top-left corner (e.g. the time, for a contact sheet).
  // Throws std::invalid_argument when the world's model is not the one the renderer was made for.
  [[nodiscard]] Image render(const MujocoWorld& world, const Camera& camera, std::string_view label = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace praxis::sim
