// Offscreen rendering: EGL on Mesa's surfaceless platform gives an OpenGL context without a display;
// libmujoco looks its GL functions up at run time from whatever GL library the process has loaded
// (it links none), so the context must exist and be current before mjr_makeContext.
#include "praxis/sim/renderer.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <mujoco/mujoco.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "praxis/sim/mujoco_world.hpp"

namespace praxis::sim {

namespace detail {

std::string egl_error_text(const char* what) {
  std::array<char, 32> code{};
  std::snprintf(code.data(), code.size(), "0x%04X", static_cast<unsigned>(eglGetError()));
  return std::string("EGL: ") + what + " (error " + code.data() + ")";
}

// One EGL context on the surfaceless display, current in the calling thread once made.
struct EglContext {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;

  EglContext() {
    // Client extensions are queried on no display; without this one, Mesa's EGL is not installed.
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (client == nullptr || std::strstr(client, "EGL_MESA_platform_surfaceless") == nullptr) {
      throw RenderError(
          "EGL: no surfaceless display (eglGetPlatformDisplayEXT: client extension "
          "EGL_MESA_platform_surfaceless missing; install libegl-mesa0 and libgl1-mesa-dri)");
    }
    auto get_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (get_display == nullptr) {
      throw RenderError("EGL: no surfaceless display (eglGetPlatformDisplayEXT not found)");
    }
    // EGL_DEFAULT_DISPLAY through eglGetDisplay fails without X or a DRM device; the surfaceless
    // platform needs neither.
    display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display == EGL_NO_DISPLAY) {
      throw RenderError(egl_error_text("no surfaceless display (eglGetPlatformDisplayEXT failed)"));
    }
    EGLint major = 0;
    EGLint minor = 0;
    if (eglInitialize(display, &major, &minor) != EGL_TRUE) {
      throw RenderError(egl_error_text(
          "eglInitialize failed on the surfaceless display; Mesa's llvmpipe driver comes with libgl1-mesa-dri"));
    }
    const std::array<EGLint, 17> config_attributes{
        EGL_RED_SIZE,   8, EGL_GREEN_SIZE,   8,           EGL_BLUE_SIZE,       8,
        EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE,   24,          EGL_STENCIL_SIZE,    8,
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (eglChooseConfig(display, config_attributes.data(), &config, 1, &count) != EGL_TRUE || count < 1) {
      throw RenderError(egl_error_text("no RGBA8 / depth 24 / stencil 8 OpenGL config (eglChooseConfig)"));
    }
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
      throw RenderError(egl_error_text("desktop OpenGL not supported (eglBindAPI)"));
    }
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, nullptr);
    if (context == EGL_NO_CONTEXT) {
      throw RenderError(egl_error_text("no OpenGL context (eglCreateContext)"));
    }
    make_current();
  }

  ~EglContext() {
    if (context != EGL_NO_CONTEXT) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display, context);
    }
    // The display is not terminated: EGL hands every caller the same display for the same platform,
    // and terminating it would pull it from under other renderers.
  }

  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  void make_current() {
    // No surface: MuJoCo renders into its own framebuffer object (EGL_KHR_surfaceless_context).
    if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
      throw RenderError(egl_error_text("cannot make the OpenGL context current without a surface (eglMakeCurrent)"));
    }
  }
};

}  // namespace detail

struct Renderer::State {
  detail::EglContext egl;
  const mjModel* source = nullptr;
  mjModel* model = nullptr;  // a copy whose offscreen size is the picture's
  mjData* data = nullptr;    // the world's state is copied here, so rendering never touches the world
  mjvScene scene{};
  mjvOption option{};
  mjrContext context{};
  bool scene_made = false;
  bool context_made = false;
  int width = 0;
  int height = 0;
  std::vector<unsigned char> buffer;  // rows bottom-up, as OpenGL reads them

  State(const mjModel* m, int w, int h) : source(m), width(w), height(h) {
    try {
      make(w, h);
    } catch (...) {
      release();
      throw;
    }
  }

  void make(int w, int h) {
    // The size of MuJoCo's offscreen buffer comes from the model's <visual><global offwidth
    // offheight>; 2.2.2 has no call to resize it, so a copy of the model carries the wanted size.
    model = mj_copyModel(nullptr, source);
    if (model == nullptr) throw RenderError("MuJoCo: cannot copy the model for rendering");
    model->vis.global.offwidth = w;
    model->vis.global.offheight = h;
    data = mj_makeData(model);
    if (data == nullptr) throw RenderError("MuJoCo: cannot allocate the renderer's mjData");
    mjv_defaultOption(&option);
    mjv_defaultScene(&scene);
    mjv_makeScene(model, &scene, 2000);
    scene_made = true;
    mjr_defaultContext(&context);
    mjr_makeContext(model, &context, mjFONTSCALE_150);
    context_made = true;
    mjr_setBuffer(mjFB_OFFSCREEN, &context);
    if (context.currentBuffer != mjFB_OFFSCREEN) {
      throw RenderError("MuJoCo: no offscreen framebuffer in the OpenGL context (mjr_setBuffer)");
    }
    if (context.offWidth != w || context.offHeight != h) {
      throw RenderError("MuJoCo: offscreen buffer is " + std::to_string(context.offWidth) + " x " +
                        std::to_string(context.offHeight) + ", not the requested " + std::to_string(w) +
                        " x " + std::to_string(h));
    }
    buffer.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  }

  ~State() { release(); }

  void release() noexcept {
    // MuJoCo frees GL objects, which needs its context current.
    try {
      egl.make_current();
    } catch (const RenderError&) {
    }
    if (context_made) mjr_freeContext(&context);
    if (scene_made) mjv_freeScene(&scene);
    if (data != nullptr) mj_deleteData(data);
    if (model != nullptr) mj_deleteModel(model);
    context_made = false;
    scene_made = false;
    data = nullptr;
    model = nullptr;
  }

  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

Renderer::Renderer(const MujocoWorld& world, int width, int height) : Renderer(world.model(), width, height) {}

Renderer::Renderer(const mjModel* model, int width, int height) {
  if (model == nullptr) throw std::invalid_argument("Renderer: no model");
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("Renderer: picture size " + std::to_string(width) + " x " +
                                std::to_string(height) + " is not positive");
  }
  state_ = std::make_unique<State>(model, width, height);
}

Renderer::~Renderer() = default;
Renderer::Renderer(Renderer&&) noexcept = default;
Renderer& Renderer::operator=(Renderer&&) noexcept = default;

bool Renderer::available(std::string* why) {
  try {
    detail::EglContext probe;
  } catch (const RenderError& e) {
    if (why != nullptr) *why = e.what();
    return false;
  }
  return true;
}

int Renderer::width() const noexcept { return state_->width; }
int Renderer::height() const noexcept { return state_->height; }

Image Renderer::render(const MujocoWorld& world, const Camera& camera, std::string_view label) {
  State& s = *state_;
  if (world.model() != s.source) {
    throw std::invalid_argument("Renderer::render: the world " + world.file().string() +
                                " is not the model this renderer was made for");
  }
  s.egl.make_current();
  mj_copyData(s.data, s.model, world.data());
  // The world's body positions may lag its qpos by a step (mj_step computes them before it
  // integrates); recompute them from the current state.
  mj_forward(s.model, s.data);

  mjvCamera cam;
  mjv_defaultCamera(&cam);
  cam.type = mjCAMERA_FREE;
  cam.lookat[0] = camera.lookat.x();
  cam.lookat[1] = camera.lookat.y();
  cam.lookat[2] = camera.lookat.z();
  cam.distance = camera.distance;
  cam.azimuth = camera.azimuth;
  cam.elevation = camera.elevation;
  mjv_updateScene(s.model, s.data, &s.option, nullptr, &cam, mjCAT_ALL, &s.scene);

  const mjrRect viewport{0, 0, s.width, s.height};
  mjr_setBuffer(mjFB_OFFSCREEN, &s.context);
  mjr_render(viewport, &s.scene, &s.context);
  if (!label.empty()) {
    const std::string text(label);  // mjr_overlay wants a terminated string
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPLEFT, viewport, text.c_str(), nullptr, &s.context);
  }
  mjr_readPixels(s.buffer.data(), nullptr, viewport, &s.context);

  Image image(s.width, s.height);
  const std::size_t stride = static_cast<std::size_t>(s.width) * 3;
  for (int y = 0; y < s.height; ++y) {
    const std::size_t from = static_cast<std::size_t>(s.height - 1 - y) * stride;
    std::memcpy(image.pixels.data() + static_cast<std::size_t>(y) * stride, s.buffer.data() + from, stride);
  }
  return image;
}

}  // namespace praxis::sim
