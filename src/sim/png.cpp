// PNG through libpng's simplified API (1.6): it reports errors in png_image::message instead of
// longjmp, which keeps setjmp out of C++ frames.
#include "praxis/sim/png.hpp"

#include <png.h>

#include <cstring>
#include <string>

namespace praxis::sim {

namespace {

std::string describe(const std::filesystem::path& path, const png_image& image) {
  return path.string() + ": " + image.message;
}

}  // namespace

void write_png(const Image& image, const std::filesystem::path& path) {
  if (image.empty() || image.pixels.size() != static_cast<std::size_t>(image.width) *
                                                  static_cast<std::size_t>(image.height) * 3) {
    throw PngError("PNG " + path.string() + ": the image is empty or its pixel buffer does not match " +
                   std::to_string(image.width) + " x " + std::to_string(image.height) + " RGB");
  }
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  if (png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), image.width * 3, nullptr) == 0) {
    throw PngError("PNG write " + describe(path, png));
  }
}

Image read_png(const std::filesystem::path& path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&png, path.c_str()) == 0) {
    throw PngError("PNG read " + describe(path, png));
  }
  // Alpha is composited onto black rather than kept: Image has no alpha channel.
  png.format = PNG_FORMAT_RGB;
  Image image(static_cast<int>(png.width), static_cast<int>(png.height));
  if (png_image_finish_read(&png, nullptr, image.pixels.data(), image.width * 3, nullptr) == 0) {
    png_image_free(&png);
    throw PngError("PNG read " + describe(path, png));
  }
  return image;
}

}  // namespace praxis::sim
