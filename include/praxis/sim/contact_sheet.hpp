#pragma once
// A contact sheet: the pictures of a run tiled into one image, row by row, so one file shows how a
// motion went. Frames are drawn in order, left to right then top to bottom.

#include <cstddef>
#include <span>

#include "praxis/sim/image.hpp"

namespace praxis::sim {

struct ContactSheetStyle {
  int gap = 4;                     // pixels between tiles and around the sheet
  Rgb background{40, 40, 40};      // the gaps and any empty tiles in the last row
};

// Tiles of the size of the largest frame, `columns` per row (at least 1); a smaller frame sits in
// its tile's top-left corner. Labels, if wanted, are drawn into the frames at render time
// (Renderer::render's label). An empty span gives an empty image. Throws std::invalid_argument when
// columns is 0.
[[nodiscard]] Image contact_sheet(std::span<const Image> frames, std::size_t columns,
                                  const ContactSheetStyle& style = {});

}  // namespace praxis::sim
