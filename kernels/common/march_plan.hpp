// The arithmetic of march_length (march.cuh), apart from the GPU queries so
// that a host test can check it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpubench {

// `columns` blocks stand side by side and together march `length` units,
// cut into pieces of at most `longest` units and at most `max_pieces`
// pieces; `slots` blocks are resident at once, and a piece costs `start`
// units before its first (a ring's fill, a halo). Blocks of equal work
// finish together, so a grid takes ceil(blocks / slots) waves of one
// piece's time each: the length chosen is the one with the fewest waves
// times (length + start), the longer on a tie (fewer blocks). A ragged last
// wave thus costs what it costs, and a small grid is cut finer until every
// slot has a block.
inline std::int64_t march_piece_length(std::int64_t slots, std::int64_t columns, std::int64_t length,
                                       std::int64_t longest, std::int64_t start, std::int64_t max_pieces) {
  slots = std::max<std::int64_t>(slots, 1);
  columns = std::max<std::int64_t>(columns, 1);
  length = std::max<std::int64_t>(length, 1);
  const std::int64_t shortest = (length + max_pieces - 1) / max_pieces;
  std::int64_t best = std::max(shortest, std::min(longest, length)), best_cost = -1;
  for (std::int64_t piece = std::min(longest, length); piece >= shortest; --piece) {
    const std::int64_t pieces = (length + piece - 1) / piece;
    const std::int64_t waves = (columns * pieces + slots - 1) / slots;
    const std::int64_t cost = waves * (piece + start);
    if (best_cost < 0 || cost < best_cost) best = piece, best_cost = cost;
  }
  return best;
}

}  // namespace gpubench
