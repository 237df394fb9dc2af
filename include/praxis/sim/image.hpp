#pragma once
// Image: an 8-bit RGB picture in memory, rows top to bottom, what the renderer produces and the PNG
// writer and the contact sheet consume.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace praxis::sim {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 3 bytes, R G B per pixel, first row on top

  Image() = default;
  // A negative size is an empty image (not a request for 2^64 bytes).
  Image(int w, int h, Rgb fill = {})
      : width(w), height(h),
        pixels(w > 0 && h > 0 ? static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3 : 0) {
    for (std::size_t i = 0; i < pixels.size(); i += 3) {
      pixels[i] = fill.r;
      pixels[i + 1] = fill.g;
      pixels[i + 2] = fill.b;
    }
  }

  [[nodiscard]] bool empty() const noexcept { return width <= 0 || height <= 0; }
  [[nodiscard]] std::size_t offset(int x, int y) const noexcept {
    return (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
  }
  [[nodiscard]] Rgb at(int x, int y) const noexcept {
    const std::size_t i = offset(x, y);
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
  }
  void set(int x, int y, Rgb c) noexcept {
    const std::size_t i = offset(x, y);
    pixels[i] = c.r;
    pixels[i + 1] = c.g;
    pixels[i + 2] = c.b;
  }
  [[nodiscard]] std::span<const std::uint8_t> row(int y) const noexcept {
    return std::span<const std::uint8_t>(pixels).subspan(offset(0, y), static_cast<std::size_t>(width) * 3);
  }

  friend bool operator==(const Image&, const Image&) = default;
};

}  // namespace praxis::sim
