#include <catch2/catch.hpp>

#include "kernels/common/march_plan.hpp"

using gpubench::march_piece_length;

TEST_CASE("a march is cut so that the last wave of blocks is full") {
  // 660 slots, 256 columns, 512 planes, at most 32, 2 planes to start: 16
  // pieces of 32 make 4096 blocks, 6.2 waves; 18 of 29 make 6.98.
  CHECK(march_piece_length(660, 256, 512, 32, 2, 65535) == 29);
  // 264 slots, 16 columns, 64 tile rows, at most 3: 22 pieces of 3 make 352
  // blocks, two waves of 3 rows; 32 pieces of 2 make 512, two waves of 2.
  CHECK(march_piece_length(264, 16, 64, 3, 1, 65535) == 2);
  // Many waves: the longest length, the raggedness is small.
  CHECK(march_piece_length(396, 64, 256, 3, 1, 65535) == 3);
}

TEST_CASE("a small grid is cut until every slot has a block") {
  CHECK(march_piece_length(660, 4, 8, 32, 2, 65535) == 1);
  CHECK(march_piece_length(660, 1, 1, 32, 2, 65535) == 1);
}

TEST_CASE("a march keeps within the grid's limit on pieces") {
  // 200000 units in at most 65535 pieces need pieces of 4, past the longest.
  CHECK(march_piece_length(1, 1, 200000, 3, 1, 65535) == 4);
  CHECK(march_piece_length(132, 1, 100, 32, 2, 4) == 25);
}
