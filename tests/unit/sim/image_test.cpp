// Image (sim/image.hpp): the pixel layout (R G B per pixel, rows top to bottom), fill, emptiness,
// pixel access, rows and equality.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "praxis/sim/image.hpp"

namespace {
namespace image_test {

using praxis::sim::Image;
using praxis::sim::Rgb;

TEST_CASE("image: a new image is filled with one colour in R G B order", "[sim][image]") {
  const Image img(3, 2, {10, 20, 30});
  REQUIRE(img.pixels.size() == 3U * 2U * 3U);
  for (std::size_t i = 0; i < img.pixels.size(); i += 3) {
    CHECK(img.pixels[i] == 10);
    CHECK(img.pixels[i + 1] == 20);
    CHECK(img.pixels[i + 2] == 30);
  }
  // Without a fill colour: black.
  const Image black(2, 2);
  CHECK(black.pixels == std::vector<std::uint8_t>(12, 0));
}

TEST_CASE("image: empty means no width or no height", "[sim][image]") {
  CHECK(Image{}.empty());
  CHECK(Image{}.pixels.empty());
  CHECK(Image(0, 5).empty());
  CHECK(Image(5, 0).empty());
  CHECK_FALSE(Image(1, 1).empty());
  // A negative size gives an empty image with no pixels (it used to ask for 2^64 bytes and throw).
  const Image negative(-1, 5);
  CHECK(negative.empty());
  CHECK(negative.pixels.empty());
  CHECK(Image(3, -2).pixels.empty());
}

TEST_CASE("image: pixels are row by row from the top with 3 bytes each", "[sim][image]") {
  Image img(4, 3);
  CHECK(img.offset(0, 0) == 0);
  CHECK(img.offset(1, 0) == 3);
  CHECK(img.offset(0, 1) == 4 * 3);
  CHECK(img.offset(3, 2) == (2 * 4 + 3) * 3);

  img.set(2, 1, {1, 2, 3});
  const std::size_t i = (1 * 4 + 2) * 3;
  CHECK(img.pixels[i] == 1);
  CHECK(img.pixels[i + 1] == 2);
  CHECK(img.pixels[i + 2] == 3);
  CHECK(img.at(2, 1) == Rgb{1, 2, 3});
  // Its neighbours are untouched.
  CHECK(img.at(1, 1) == Rgb{});
  CHECK(img.at(3, 1) == Rgb{});
  CHECK(img.at(2, 0) == Rgb{});
  CHECK(img.at(2, 2) == Rgb{});
}

TEST_CASE("image: a row is that row's width times 3 bytes", "[sim][image]") {
  Image img(3, 2, {5, 5, 5});
  img.set(0, 1, {7, 8, 9});
  img.set(2, 1, {4, 4, 4});
  const auto top = img.row(0);
  const auto bottom = img.row(1);
  REQUIRE(top.size() == 9);
  REQUIRE(bottom.size() == 9);
  CHECK(top[0] == 5);
  CHECK(bottom[0] == 7);
  CHECK(bottom[1] == 8);
  CHECK(bottom[2] == 9);
  CHECK(bottom[3] == 5);
  CHECK(bottom[8] == 4);
  CHECK(bottom.data() == img.pixels.data() + 9);
}

TEST_CASE("image: equal means same size and same pixels", "[sim][image]") {
  CHECK(Rgb{1, 2, 3} == Rgb{1, 2, 3});
  CHECK_FALSE(Rgb{1, 2, 3} == Rgb{1, 2, 4});
  CHECK_FALSE(Rgb{1, 2, 3} == Rgb{3, 2, 1});

  const Image a(2, 3, {1, 1, 1});
  Image b(2, 3, {1, 1, 1});
  CHECK(a == b);
  b.set(1, 2, {1, 1, 2});
  CHECK_FALSE(a == b);
  // The same bytes in another shape are another image.
  const Image c(3, 2, {1, 1, 1});
  CHECK(c.pixels == a.pixels);
  CHECK_FALSE(a == c);
}

}  // namespace image_test
}  // namespace
