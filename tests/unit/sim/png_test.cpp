// PNG files (sim/png.hpp). What write_png writes is decoded here by hand (signature, chunk CRCs,
// IHDR, zlib-inflated and unfiltered scanlines), and read_png is fed files built here by hand, so
// neither direction is checked only against the other.

#include <catch2/catch.hpp>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "praxis/sim/image.hpp"
#include "praxis/sim/png.hpp"

namespace {
namespace png_test {

using praxis::sim::Image;
using praxis::sim::PngError;
using praxis::sim::Rgb;
using Bytes = std::vector<std::uint8_t>;

constexpr std::array<std::uint8_t, 8> k_signature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("praxis_png_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

Image gradient(int w, int h) {
  Image img(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      img.set(x, y, {static_cast<std::uint8_t>(x * 7), static_cast<std::uint8_t>(y * 13),
                     static_cast<std::uint8_t>((x + y) * 3)});
    }
  }
  return img;
}

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::uint32_t be32(const Bytes& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) |
         std::uint32_t{b[at + 3]};
}

void put32(Bytes& b, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(v >> shift));
}

// CRC-32 over the chunk type and data, as the PNG specification defines it (zlib's crc32 is that CRC).
std::uint32_t chunk_crc(const Bytes& type_and_data) {
  return static_cast<std::uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), type_and_data.data(), static_cast<uInt>(type_and_data.size())));
}

struct Chunk {
  std::string type;
  Bytes data;
  bool crc_ok = false;
};

// Splits a PNG file into its chunks after checking the signature.
std::vector<Chunk> chunks_of(const Bytes& file) {
  REQUIRE(file.size() >= k_signature.size());
  REQUIRE(std::equal(k_signature.begin(), k_signature.end(), file.begin()));
  std::vector<Chunk> out;
  std::size_t at = k_signature.size();
  while (at < file.size()) {
    REQUIRE(at + 12 <= file.size());
    const std::uint32_t length = be32(file, at);
    REQUIRE(at + 12 + length <= file.size());
    const Bytes type_and_data(file.begin() + static_cast<std::ptrdiff_t>(at + 4),
                              file.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
    Chunk c;
    c.type.assign(type_and_data.begin(), type_and_data.begin() + 4);
    c.data.assign(type_and_data.begin() + 4, type_and_data.end());
    c.crc_ok = chunk_crc(type_and_data) == be32(file, at + 8 + length);
    out.push_back(std::move(c));
    at += 12 + length;
  }
  return out;
}

Bytes chunk(const std::string& type, const Bytes& data) {
  Bytes type_and_data(type.begin(), type.end());
  type_and_data.insert(type_and_data.end(), data.begin(), data.end());
  Bytes out;
  put32(out, static_cast<std::uint32_t>(data.size()));
  out.insert(out.end(), type_and_data.begin(), type_and_data.end());
  put32(out, chunk_crc(type_and_data));
  return out;
}

// A PNG file of the given colour type and bit depth whose scanlines are `rows` (filter type 0).
Bytes make_png(int width, int height, std::uint8_t bit_depth, std::uint8_t colour_type, const std::vector<Bytes>& rows) {
  Bytes raw;
  for (const Bytes& row : rows) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), row.begin(), row.end());
  }
  Bytes compressed(compressBound(static_cast<uLong>(raw.size())));
  uLongf size = static_cast<uLongf>(compressed.size());
  REQUIRE(compress(compressed.data(), &size, raw.data(), static_cast<uLong>(raw.size())) == Z_OK);
  compressed.resize(size);

  Bytes ihdr;
  put32(ihdr, static_cast<std::uint32_t>(width));
  put32(ihdr, static_cast<std::uint32_t>(height));
  ihdr.insert(ihdr.end(), {bit_depth, colour_type, 0, 0, 0});

  Bytes file(k_signature.begin(), k_signature.end());
  for (const Bytes& c : {chunk("IHDR", ihdr), chunk("IDAT", compressed), chunk("IEND", {})}) {
    file.insert(file.end(), c.begin(), c.end());
  }
  return file;
}

int paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Undoes the PNG filters (types 0 to 4) of 8-bit RGB scanlines: the encoder may pick any per row.
Bytes unfilter_rgb8(const Bytes& raw, int width, int height) {
  const std::size_t stride = static_cast<std::size_t>(width) * 3;
  REQUIRE(raw.size() == static_cast<std::size_t>(height) * (stride + 1));
  Bytes out(static_cast<std::size_t>(height) * stride);
  for (std::size_t y = 0; y < static_cast<std::size_t>(height); ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    INFO("row " << y << " filter " << int(filter));
    REQUIRE(filter <= 4);
    for (std::size_t i = 0; i < stride; ++i) {
      const int x = raw[y * (stride + 1) + 1 + i];
      const int a = i >= 3 ? out[y * stride + i - 3] : 0;
      const int b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const int c = i >= 3 && y > 0 ? out[(y - 1) * stride + i - 3] : 0;
      int predictor = 0;
      switch (filter) {
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) / 2; break;
        case 4: predictor = paeth(a, b, c); break;
        default: break;
      }
      out[y * stride + i] = static_cast<std::uint8_t>((x + predictor) & 0xFF);
    }
  }
  return out;
}

TEST_CASE("png: the file written is an 8-bit RGB PNG whose pixels decode by hand", "[sim][png]") {
  const Image img = gradient(37, 21);
  const TempFile file("by_hand.png");
  praxis::sim::write_png(img, file.path());
  const auto chunks = chunks_of(read_file(file.path()));
  REQUIRE(chunks.size() >= 3);
  for (const Chunk& c : chunks) {
    INFO("chunk " << c.type);
    CHECK(c.crc_ok);
  }
  REQUIRE(chunks.front().type == "IHDR");
  const Bytes& ihdr = chunks.front().data;
  REQUIRE(ihdr.size() == 13);
  CHECK(be32(ihdr, 0) == 37);
  CHECK(be32(ihdr, 4) == 21);
  CHECK(ihdr[8] == 8);   // bit depth
  CHECK(ihdr[9] == 2);   // colour type: RGB, no alpha
  CHECK(ihdr[10] == 0);  // deflate
  CHECK(ihdr[11] == 0);  // adaptive filtering
  CHECK(ihdr[12] == 0);  // no interlace
  CHECK(chunks.back().type == "IEND");
  CHECK(chunks.back().data.empty());

  Bytes idat;
  for (const Chunk& c : chunks) {
    if (c.type == "IDAT") idat.insert(idat.end(), c.data.begin(), c.data.end());
  }
  REQUIRE_FALSE(idat.empty());
  Bytes raw(static_cast<std::size_t>(21) * (37 * 3 + 1));
  uLongf raw_size = static_cast<uLongf>(raw.size());
  REQUIRE(uncompress(raw.data(), &raw_size, idat.data(), static_cast<uLong>(idat.size())) == Z_OK);
  REQUIRE(raw_size == raw.size());
  CHECK(unfilter_rgb8(raw, 37, 21) == img.pixels);
}

TEST_CASE("png: an image written and read back is the same and a missing file is an error", "[sim][png]") {
  const Image img = gradient(37, 21);
  const TempFile file("gradient.png");
  praxis::sim::write_png(img, file.path());
  const Image back = praxis::sim::read_png(file.path());
  CHECK(back.width == 37);
  CHECK(back.height == 21);
  CHECK(back == img);
  CHECK_THROWS_AS(praxis::sim::read_png(file.path().string() + ".missing"), PngError);
  CHECK_THROWS_AS(praxis::sim::write_png(Image{}, file.path()), PngError);
  CHECK_THROWS_AS(praxis::sim::write_png(img, "/nonexistent-dir/x.png"), PngError);
}

TEST_CASE("png: an image whose pixel buffer does not match its size is refused", "[sim][png]") {
  const TempFile file("mismatch.png");
  Image img(4, 4);
  img.pixels.pop_back();
  CHECK_THROWS_WITH(praxis::sim::write_png(img, file.path()),
                    Catch::Contains(file.path().string()) && Catch::Contains("4 x 4"));
  img.pixels.resize(4 * 4 * 3 + 3);
  CHECK_THROWS_AS(praxis::sim::write_png(img, file.path()), PngError);
  CHECK_FALSE(std::filesystem::exists(file.path()));
}

TEST_CASE("png: an RGB file built by hand reads pixel for pixel", "[sim][png]") {
  const TempFile file("rgb8.png");
  write_file(file.path(), make_png(3, 2, 8, 2, {{255, 0, 0, 0, 255, 0, 0, 0, 255}, {1, 2, 3, 4, 5, 6, 250, 251, 252}}));
  const Image img = praxis::sim::read_png(file.path());
  REQUIRE(img.width == 3);
  REQUIRE(img.height == 2);
  CHECK(img.at(0, 0) == Rgb{255, 0, 0});
  CHECK(img.at(1, 0) == Rgb{0, 255, 0});
  CHECK(img.at(2, 0) == Rgb{0, 0, 255});
  CHECK(img.at(0, 1) == Rgb{1, 2, 3});
  CHECK(img.at(1, 1) == Rgb{4, 5, 6});
  CHECK(img.at(2, 1) == Rgb{250, 251, 252});
}

TEST_CASE("png: grey is expanded to three equal channels", "[sim][png]") {
  const TempFile file("grey8.png");
  write_file(file.path(), make_png(4, 1, 8, 0, {{0, 17, 128, 255}}));
  const Image img = praxis::sim::read_png(file.path());
  REQUIRE(img.width == 4);
  REQUIRE(img.height == 1);
  CHECK(img.at(0, 0) == Rgb{0, 0, 0});
  CHECK(img.at(1, 0) == Rgb{17, 17, 17});
  CHECK(img.at(2, 0) == Rgb{128, 128, 128});
  CHECK(img.at(3, 0) == Rgb{255, 255, 255});
}

TEST_CASE("png: alpha is composited onto black and 16-bit channels are encoded from linear light", "[sim][png]") {
  SECTION("RGBA: opaque pixels keep their colour and transparent ones are black and half is in between") {
    const TempFile file("rgba8.png");
    write_file(file.path(), make_png(3, 1, 8, 6, {{10, 200, 30, 255, 90, 90, 90, 0, 10, 200, 30, 128}}));
    const Image img = praxis::sim::read_png(file.path());
    REQUIRE(img.width == 3);
    CHECK(img.at(0, 0) == Rgb{10, 200, 30});
    CHECK(img.at(1, 0) == Rgb{0, 0, 0});
    const Rgb half = img.at(2, 0);
    CHECK(half.g > 100);  // blended in linear light: brighter than 200 / 2
    CHECK(half.g < 200);
    CHECK(half.r <= 10);
  }
  SECTION("16-bit RGB: 0 and 65535 map to 0 and 255 and values between follow the 1/2.2 power") {
    const TempFile file("rgb16.png");
    write_file(file.path(), make_png(1, 3, 16, 2,
                                     {{0xFF, 0xFF, 0, 0, 0xFF, 0xFF},
                                      {0, 0, 0xFF, 0xFF, 0, 0},
                                      {0x80, 0x00, 0x40, 0x00, 0xC0, 0x00}}));
    const Image img = praxis::sim::read_png(file.path());
    REQUIRE(img.width == 1);
    REQUIRE(img.height == 3);
    CHECK(img.at(0, 0) == Rgb{255, 0, 255});
    CHECK(img.at(0, 1) == Rgb{0, 255, 0});
    // Not the high byte (0x80, 0x40, 0xC0): linear 0.5, 0.25 and 0.75 gamma-encoded.
    const auto encoded = [](double linear) { return 255.0 * std::pow(linear, 1.0 / 2.2); };
    const Rgb mid = img.at(0, 2);
    CHECK(mid.r == Approx(encoded(0x8000 / 65535.0)).margin(1.0));
    CHECK(mid.g == Approx(encoded(0x4000 / 65535.0)).margin(1.0));
    CHECK(mid.b == Approx(encoded(0xC000 / 65535.0)).margin(1.0));
  }
}

TEST_CASE("png: a file that is not a PNG or is broken is an error naming the file", "[sim][png]") {
  const TempFile file("broken.png");
  write_file(file.path(), Bytes{'n', 'o', 't', ' ', 'a', ' ', 'p', 'n', 'g', '\n'});
  CHECK_THROWS_WITH(praxis::sim::read_png(file.path()), Catch::Contains(file.path().string()));
  CHECK_THROWS_AS(praxis::sim::read_png(file.path()), PngError);

  // A good file cut short inside its image data.
  Bytes good = make_png(8, 8, 8, 2, std::vector<Bytes>(8, Bytes(24, 77)));
  good.resize(good.size() - 30);
  write_file(file.path(), good);
  CHECK_THROWS_AS(praxis::sim::read_png(file.path()), PngError);

  // A damaged IHDR: its CRC no longer matches.
  Bytes damaged = make_png(2, 2, 8, 2, std::vector<Bytes>(2, Bytes(6, 1)));
  damaged[8 + 8 + 3] ^= 0x01;  // the low byte of the width
  write_file(file.path(), damaged);
  CHECK_THROWS_AS(praxis::sim::read_png(file.path()), PngError);
}

}  // namespace png_test
}  // namespace
