// The order in which the wgmma steps take their tiles (kernels/gemm/tiles.hpp),
// checked on the host: every tile of C once, each band down a column first.
#include <catch2/catch.hpp>

#include <set>
#include <utility>

#include "kernels/gemm/tiles.hpp"

using gpubench::gemm::ceil_div;
using gpubench::gemm::ClusterTileOrder;

namespace {

// Every block tile of an m x n C that lies on the matrix, each once, over
// all cluster tiles and ranks; a rank's tile past the last row (an odd
// number of tile rows in clusters of two) is off the matrix and skipped,
// as the kernels' stores drop it.
template <int kBM, int kBN, int kClusterSize, int kBand>
void check_covers_once(int m, int n) {
  const ClusterTileOrder<kBM, kBN, kClusterSize, kBand> order(m, n);
  std::set<std::pair<int, int>> seen;
  for (int i = 0; i < order.count(); ++i)
    for (int rank = 0; rank < kClusterSize; ++rank) {
      int row0 = -1, col0 = -1;
      order.origin(i, rank, row0, col0);
      REQUIRE((row0 >= 0 && col0 >= 0));
      REQUIRE(row0 % kBM == 0);
      REQUIRE(col0 % kBN == 0);
      REQUIRE(col0 < n);
      if (row0 >= m) continue;
      REQUIRE(seen.insert({row0 / kBM, col0 / kBN}).second);
    }
  CHECK(seen.size() == std::size_t(ceil_div(m, kBM)) * std::size_t(ceil_div(n, kBN)));
}

}  // namespace

TEST_CASE("the wgmma steps' tile order covers every tile of C once") {
  // 1 to 67 tile rows and 1 to 32 tile columns, with one block a cluster
  // (wgmma_tf32, wgmma_bf16: whole bands of 16 rows and last bands of 1 to
  // 4) and two (the multicast steps: odd numbers of tile rows, whose last
  // pair has one tile off the matrix).
  for (const int m : {1, 127, 128, 129, 2100, 2500, 4097, 8192, 8449})
    for (const int n : {1, 255, 256, 257, 3844, 8192}) {
      INFO("m " << m << ", n " << n);
      check_covers_once<128, 256, 1, 16>(m, n);
      check_covers_once<128, 256, 2, 8>(m, n);
    }
}

TEST_CASE("the blocks of a band walk down a column before the next") {
  const ClusterTileOrder<128, 256, 1, 16> order(17 * 128, 4 * 256);  // 17 tile rows: a band of 16, one of 1
  int row0 = 0, col0 = 0;
  order.origin(15, 0, row0, col0);
  CHECK((row0 == 15 * 128 && col0 == 0));
  order.origin(16, 0, row0, col0);
  CHECK((row0 == 0 && col0 == 256));
  order.origin(64, 0, row0, col0);  // the last band, one row walked along
  CHECK((row0 == 16 * 128 && col0 == 0));
  order.origin(65, 0, row0, col0);
  CHECK((row0 == 16 * 128 && col0 == 256));
  // Clusters of two: rank 1 takes the tile below rank 0's.
  const ClusterTileOrder<128, 256, 2, 8> pairs(4 * 128, 256);
  pairs.origin(1, 0, row0, col0);
  CHECK((row0 == 2 * 128 && col0 == 0));
  pairs.origin(1, 1, row0, col0);
  CHECK((row0 == 3 * 128 && col0 == 0));
}
