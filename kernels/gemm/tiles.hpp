// Tile arithmetic of the GEMM steps, apart from the CUDA code so that a host
// test can check it: how many tiles cover a size, and the order in which
// the wgmma steps take their tiles.
#pragma once

#include "kernels/common/host_device.hpp"

namespace gpubench::gemm {

GPUBENCH_HD int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Cluster tiles are kClusterSize vertically adjacent BM x BN block tiles,
// block `rank` of the cluster on the rank-th. They are taken in bands of
// kBand cluster rows, each band walked column by column, so that the
// clusters running at once reuse each other's A rows and B columns in L2.
template <int kBM, int kBN, int kClusterSize, int kBand>
struct ClusterTileOrder {
  int rows, columns;  // cluster tiles down and across C
  GPUBENCH_HD ClusterTileOrder(int m, int n) : rows(ceil_div(ceil_div(m, kBM), kClusterSize)), columns(ceil_div(n, kBN)) {}
  GPUBENCH_HD int count() const { return rows * columns; }
  // The first row and column of C in block `rank`'s tile of the i-th cluster tile.
  GPUBENCH_HD void origin(int i, int rank, int& row0, int& col0) const {
    const int band = i / (kBand * columns), first = band * kBand;
    const int band_rows = rows - first < kBand ? rows - first : kBand, within = i - first * columns;
    row0 = ((first + within % band_rows) * kClusterSize + rank) * kBM;
    col0 = within / band_rows * kBN;
  }
};

}  // namespace gpubench::gemm
