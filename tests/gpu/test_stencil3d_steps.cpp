// Every stencil3d step through the benchmark itself (output poisoned before
// each run, checked after the first and the last run): sides 1 to 3, odd
// sides and sides that are no tile or vector multiple, 512^3 (cuSPARSE's
// matrix included) and past 2^31 points; grids that do not start on a
// 16-byte boundary through the steps directly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/stencil3d/host_stencil3d.hpp"
#include "src/patterns/stencil3d/steps.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;

namespace {

void check_all(std::int64_t n, DType t) {
  testing::check_point("stencil3d", {{"size", n}, {"dtype", dtype_name(t)}, {"seed", 9 + n}});
}

}  // namespace

TEST_CASE("every stencil3d step is correct at small, odd and tile-straddling sides", "[gpu][stencil3d]") {
  std::vector<std::int64_t> sides = {1, 2, 3, 4, 5, 17, 31, 33, 63, 65};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) sides.insert(sides.end(), {127, 130, 257, 260});  // slow under a sanitizer
  for (const DType t : {DType::f32, DType::f64})
    for (const std::int64_t n : sides) check_all(n, t);
}

TEST_CASE("every stencil3d step at 512^3 and past 2^31 points", "[gpu][stencil3d][large]") {
  check_all(512, DType::f32);
  check_all(512, DType::f64);   // slab_stores' and row_slabs' widest float64 side
  check_all(644, DType::f32);   // row_slabs with three boxes of 256 columns a row, the last mostly past the grid
  check_all(1291, DType::f32);  // 2^31 + 3.6 million points; cuSPARSE is skipped (its matrix)
  check_all(1292, DType::f32);  // the same past 2^31, with rows of whole 16-byte vectors: the 128-bit and TMA paths
}

// The benchmark's buffers come from cudaMalloc, 256-byte aligned; a step
// given grids that are not must still be right (vectorized's 16-byte
// accesses fall back to element accesses).
TEST_CASE("every stencil3d device step reads and writes grids that do not start on a 16-byte boundary",
          "[gpu][stencil3d]") {
  const std::int64_t n = 64, count = n * n * n;
  for (const DType t : {DType::f32, DType::f64}) {
    const std::size_t size = dtype_size(t), bytes = std::size_t(count) * size;
    std::vector<unsigned char> in(bytes), want(bytes), got(bytes);
    stencil3d::Problem p;
    p.n = n;
    p.dtype = t;
    stencil3d::fill_grid(in.data(), count, t, 2);
    stencil3d::fill_coefficients(p.c, t, 2);
    stencil3d::reference_stencil(in.data(), want.data(), n, p.c, t);
    DeviceBuffer d_in(bytes + size), d_out(bytes + size);
    p.in = static_cast<char*>(d_in.get()) + size;
    p.out = static_cast<char*>(d_out.get()) + size;
    GPUBENCH_CUDA(cudaMemcpy(const_cast<void*>(p.in), in.data(), bytes, cudaMemcpyHostToDevice));
    for (const stencil3d::Step& s : stencil3d::ladder()) {
      if (s.where != stencil3d::Where::device) continue;
      const std::shared_ptr<void> plan = s.make_plan ? s.make_plan(p, nullptr) : nullptr;
      GPUBENCH_CUDA(cudaMemset(p.out, 0xff, bytes));
      s.run(p, stencil3d::Workspace{nullptr, plan.get()});
      GPUBENCH_CUDA(cudaDeviceSynchronize());
      GPUBENCH_CUDA(cudaMemcpy(got.data(), p.out, bytes, cudaMemcpyDeviceToHost));
      const Verdict v = stencil3d::verify_stencil(got.data(), want.data(), count, t, stencil3d::tolerance(p.c, t));
      INFO(s.name << " " << dtype_name(t) << ": " << v.detail);
      CHECK(v.ok);
    }
  }
}
