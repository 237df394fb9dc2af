#include "praxis/sim/contact_sheet.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace praxis::sim {

Image contact_sheet(std::span<const Image> frames, std::size_t columns, const ContactSheetStyle& style) {
  if (columns == 0) throw std::invalid_argument("contact_sheet: columns must be at least 1");
  if (frames.empty()) return {};
  int tile_w = 0;
  int tile_h = 0;
  for (const Image& f : frames) {
    tile_w = std::max(tile_w, f.width);
    tile_h = std::max(tile_h, f.height);
  }
  const int gap = std::max(style.gap, 0);
  const int cols = static_cast<int>(std::min(columns, frames.size()));
  const int rows = static_cast<int>((frames.size() + columns - 1) / columns);
  Image sheet(cols * tile_w + (cols + 1) * gap, rows * tile_h + (rows + 1) * gap, style.background);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Image& f = frames[i];
    const int x0 = gap + static_cast<int>(i % columns) * (tile_w + gap);
    const int y0 = gap + static_cast<int>(i / columns) * (tile_h + gap);
    for (int y = 0; y < f.height; ++y) {
      const auto src = f.row(y);
      std::memcpy(sheet.pixels.data() + sheet.offset(x0, y0 + y), src.data(), src.size());
    }
  }
  return sheet;
}

}  // namespace praxis::sim
