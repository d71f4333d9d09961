// Every GEMM step at square, ragged and non-tile-multiple sizes, through the
// benchmark itself (which checks the first and last run against the
// reference, with C poisoned before each).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "kernels/gemm/tensor_map.hpp"
#include "src/detail/cuda_check.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;

namespace {

void check_every_step(int m, int n, int k) { testing::check_point("gemm", {{"m", m}, {"n", n}, {"k", k}, {"seed", 42}}); }

}  // namespace

TEST_CASE("every gemm step is correct at square, ragged and non-tile-multiple sizes", "[gpu][gemm]") {
  // Ragged against every tile; {130, 132, 20} and {257, 260, 36} keep n and k
  // multiples of 4, so the 16-byte paths run on partial tiles too. The 2100-row
  // sizes have more 128 x 256 tiles than an H200 holds stream_k blocks (153
  // against 132), so stream_k cuts tiles between blocks, in its 16-byte path
  // and its 4-byte one; at 2500 x 3844 (320 tiles) it takes a wave of whole
  // tiles first. Where a block's share plus a fix-up is shorter than a tile
  // (far fewer tiles than blocks), every tile is shared: 1000^3 (32 tiles of
  // 63 slabs) in 4 or 5 pieces a tile, 301 x 299 x 1999 (6 tiles of 125
  // slabs, the 4-byte path) in 21 to 25 (on 132 SMs).
  std::vector<std::tuple<int, int, int>> sizes = {{1, 1, 1},         {127, 513, 65},    {33, 17, 129},
                                                  {129, 128, 3},     {130, 132, 20},    {257, 260, 36},
                                                  {2100, 2100, 300}, {2100, 2101, 200}, {2500, 3844, 100}};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) {  // too slow under compute-sanitizer
    sizes.emplace_back(1000, 1000, 1000);
    sizes.emplace_back(301, 299, 1999);
    sizes.emplace_back(4097, 4097, 4097);
  }
  for (const auto& [m, n, k] : sizes) check_every_step(m, n, k);
}

TEST_CASE("a tensor map the driver refuses is a CUDA error naming the driver's error", "[gpu][gemm]") {
  // The driver wants a 16-byte-aligned address (it reads nothing from it),
  // and names its refusal (CUDA_ERROR_INVALID_VALUE, by its documentation).
  const void* misaligned = reinterpret_cast<const void*>(std::uintptr_t{2});
  const auto encode = [misaligned] {
    gemm::bf16_tensor_map(static_cast<const __nv_bfloat16*>(misaligned), 64, 64, 64, 64);
  };
  CHECK_THROWS_AS(encode(), CudaError);
  CHECK_THROWS_WITH(encode(), Catch::StartsWith("cuTensorMapEncodeTiled failed: CUDA_ERROR_"));
}

TEST_CASE("every gemm step past 2^31 elements of A and of C", "[gpu][gemm][large]") {
  // A of 65537 x 32769 (2^31 + 98305 elements) and C of 46341^2 (2^31 + 4633):
  // row offsets past 32 bits in the loads and in the epilogues' stores.
  const std::vector<std::tuple<int, int, int>> sizes = {{65537, 32, 32769}, {46341, 46341, 8}};
  for (const auto& [m, n, k] : sizes) check_every_step(m, n, k);
}
