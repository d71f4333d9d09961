// grid2d — lecture 3's image kernel: the image as rows of 8192 pixels, a 2D
// grid of 32 x 8 blocks, one thread per pixel at (column, row). It does the
// same work as one_per_element on the same image; what changes is the
// index arithmetic and that a block covers 8 short row pieces instead of
// 256 consecutive pixels, which the H200 should not mind (each warp still
// reads one contiguous row piece).
// It costs 2D index arithmetic, 21 registers against one_per_element's 12, and
// ran 0.86x of it; it takes grayscale only, in rows of 8192.
#include "kernels/map/map_common.cuh"

namespace gpubench::map {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__global__ void __launch_bounds__(kBlockX * kBlockY) gray_grid2d(const unsigned char* rgb, unsigned char* out, std::int64_t n) {
  const std::int64_t col = std::int64_t(blockIdx.x) * kBlockX + threadIdx.x;
  for (std::int64_t row = std::int64_t(blockIdx.y) * kBlockY + threadIdx.y; row * kImageWidth < n;
       row += std::int64_t(gridDim.y) * kBlockY) {  // gridDim.y stops at 65535
    const std::int64_t i = row * kImageWidth + col;
    if (i < n) out[i] = gray(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
  }
}

template <class T>
struct Kernels {
  static auto gray() { return &gray_grid2d; }
  static auto add() { return &gray_grid2d; }
  static auto saxpy() { return &gray_grid2d; }
};

struct Grid2d {
  static constexpr bool kBinary = false;  // grayscale_only
  static void grayscale(const unsigned char* rgb, unsigned char* out, std::int64_t n, cudaStream_t stream) {
    const std::int64_t rows = (n + kImageWidth - 1) / kImageWidth;
    const dim3 grid(unsigned(kImageWidth / kBlockX), unsigned(std::min<std::int64_t>((rows + kBlockY - 1) / kBlockY, 65535)));
    gray_grid2d<<<grid, dim3(kBlockX, kBlockY), 0, stream>>>(rgb, out, n);
  }
  static Resources resources(const Problem&) { return resources_of(&gray_grid2d); }
};

}  // namespace
}  // namespace gpubench::map

GPUBENCH_MAP_STEP(grid2d, Grid2d, Ladder::course, "grayscale: lecture 3's 2D grid over rows of 8192 pixels", true)
