// Contact sheets (sim/contact_sheet.hpp): the sheet's size from the largest frame, where each frame
// sits, the gaps and empty tiles, columns beyond the frames, negative gaps and the refused inputs.

#include <catch2/catch.hpp>

#include <array>
#include <span>
#include <stdexcept>
#include <vector>

#include "praxis/sim/contact_sheet.hpp"
#include "praxis/sim/image.hpp"

namespace {
namespace contact_sheet_test {

using praxis::sim::ContactSheetStyle;
using praxis::sim::Image;
using praxis::sim::Rgb;

TEST_CASE("contact sheet: size and tile placement and gaps and empty tiles", "[sim][contact_sheet]") {
  const std::array<Image, 3> frames{Image(10, 8, {255, 0, 0}), Image(10, 8, {0, 255, 0}), Image(6, 5, {0, 0, 255})};
  ContactSheetStyle style;
  style.gap = 4;
  style.background = {9, 9, 9};
  const Image sheet = praxis::sim::contact_sheet(frames, 2, style);
  REQUIRE(sheet.width == 2 * 10 + 3 * 4);
  REQUIRE(sheet.height == 2 * 8 + 3 * 4);
  CHECK(sheet.at(0, 0) == Rgb{9, 9, 9});            // outer gap
  CHECK(sheet.at(4, 4) == Rgb{255, 0, 0});          // frame 0, top-left tile
  CHECK(sheet.at(13, 11) == Rgb{255, 0, 0});
  CHECK(sheet.at(14, 4) == Rgb{9, 9, 9});           // gap between columns
  CHECK(sheet.at(18, 4) == Rgb{0, 255, 0});         // frame 1, top-right tile
  CHECK(sheet.at(4, 16) == Rgb{0, 0, 255});         // frame 2, second row
  CHECK(sheet.at(9, 20) == Rgb{0, 0, 255});
  CHECK(sheet.at(10, 16) == Rgb{9, 9, 9});          // the smaller frame leaves its tile's rest empty
  CHECK(sheet.at(4, 21) == Rgb{9, 9, 9});
  CHECK(sheet.at(20, 18) == Rgb{9, 9, 9});          // no fourth frame
  CHECK(praxis::sim::contact_sheet(std::span<const Image>(frames).first(1), 4).width == 10 + 2 * 4);
  CHECK(praxis::sim::contact_sheet({}, 3).empty());
  CHECK_THROWS_AS(praxis::sim::contact_sheet(frames, 0), std::invalid_argument);
}

TEST_CASE("contact sheet: tiles take the widest and the tallest frame even when no frame is both",
          "[sim][contact_sheet]") {
  const std::array<Image, 2> frames{Image(12, 3, {1, 1, 1}), Image(5, 9, {2, 2, 2})};
  ContactSheetStyle style;
  style.gap = 2;
  const Image sheet = praxis::sim::contact_sheet(frames, 2, style);
  CHECK(sheet.width == 2 * 12 + 3 * 2);
  CHECK(sheet.height == 9 + 2 * 2);
  CHECK(sheet.at(2, 2) == Rgb{1, 1, 1});
  CHECK(sheet.at(13, 4) == Rgb{1, 1, 1});           // the wide frame's last pixel
  CHECK(sheet.at(2, 5) == style.background);        // below the short frame
  CHECK(sheet.at(2 + 12 + 2, 2) == Rgb{2, 2, 2});   // the second tile starts after a whole wide tile
  CHECK(sheet.at(2 + 12 + 2 + 4, 10) == Rgb{2, 2, 2});
  CHECK(sheet.at(2 + 12 + 2 + 5, 2) == style.background);
}

TEST_CASE("contact sheet: one column stacks the frames top to bottom in order", "[sim][contact_sheet]") {
  std::vector<Image> frames;
  for (std::uint8_t k = 0; k < 4; ++k) frames.emplace_back(3, 2, Rgb{k, static_cast<std::uint8_t>(10 * k), 0});
  ContactSheetStyle style;
  style.gap = 1;
  const Image sheet = praxis::sim::contact_sheet(frames, 1, style);
  REQUIRE(sheet.width == 3 + 2);
  REQUIRE(sheet.height == 4 * 2 + 5);
  for (std::uint8_t k = 0; k < 4; ++k) {
    INFO("frame " << int(k));
    CHECK(sheet.at(1, 1 + k * 3) == Rgb{k, static_cast<std::uint8_t>(10 * k), 0});
    CHECK(sheet.at(3, 2 + k * 3) == Rgb{k, static_cast<std::uint8_t>(10 * k), 0});
    CHECK(sheet.at(1, k * 3) == style.background);  // the gap above it
  }
}

TEST_CASE("contact sheet: the default style and a negative gap", "[sim][contact_sheet]") {
  const std::array<Image, 2> frames{Image(2, 2, {200, 0, 0}), Image(2, 2, {0, 200, 0})};
  SECTION("default: 4 pixels of dark grey") {
    const ContactSheetStyle style;
    CHECK(style.gap == 4);
    CHECK(style.background == Rgb{40, 40, 40});
    const Image sheet = praxis::sim::contact_sheet(frames, 2);
    CHECK(sheet.width == 2 * 2 + 3 * 4);
    CHECK(sheet.height == 2 + 2 * 4);
    CHECK(sheet.at(0, 0) == Rgb{40, 40, 40});
  }
  SECTION("a negative gap counts as none") {
    ContactSheetStyle style;
    style.gap = -3;
    const Image sheet = praxis::sim::contact_sheet(frames, 2, style);
    REQUIRE(sheet.width == 4);
    REQUIRE(sheet.height == 2);
    CHECK(sheet.at(0, 0) == Rgb{200, 0, 0});
    CHECK(sheet.at(1, 1) == Rgb{200, 0, 0});
    CHECK(sheet.at(2, 0) == Rgb{0, 200, 0});
    CHECK(sheet.at(3, 1) == Rgb{0, 200, 0});
  }
}

}  // namespace contact_sheet_test
}  // namespace
