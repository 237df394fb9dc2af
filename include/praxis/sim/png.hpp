#pragma once
// PNG files for Image, through libpng (8-bit RGB, no interlace). Compiled in praxis::sim only.

#include <filesystem>
#include <stdexcept>

#include "praxis/sim/image.hpp"

namespace praxis::sim {

// A PNG that could not be written or read: the message names the file and libpng's reason.
class PngError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes the image as an 8-bit RGB PNG (the parent folder must exist). Throws PngError.
void write_png(const Image& image, const std::filesystem::path& path);

// Reads any PNG libpng understands, converted to 8-bit RGB: grey expanded, alpha composited onto
// black, and 16-bit channels taken as linear light (libpng's reading) and gamma-encoded to 8 bits,
// so a 16-bit 0x8000 reads about 186, not 128. Throws PngError.
[[nodiscard]] Image read_png(const std::filesystem::path& path);

}  // namespace praxis::sim
