// Every conv2d step through the benchmark itself (output poisoned before
// each run, checked after the first and the last run): 1 x 1, 1 x N, N x 1,
// a side of 3, sizes that are no tile multiple, masks larger than the image,
// heights past the grid's 65535 tile rows, and past 2^31 pixels (65536 x
// 32769, and 2^30 + 3 wide); an image
// that does not start on a 16-byte boundary through the steps directly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/conv2d/host_conv2d.hpp"
#include "src/patterns/conv2d/steps.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;

namespace {

void check_all(std::int64_t w, std::int64_t h, int side, DType t) {
  testing::check_point("conv2d", {{"width", w}, {"height", h}, {"mask", side}, {"dtype", dtype_name(t)},
                                  {"boundary", "zero"}, {"seed", 3 + w + h}});
}

}  // namespace

TEST_CASE("every conv2d step is correct at small, odd and tile-straddling sizes", "[gpu][conv2d]") {
  std::vector<std::pair<std::int64_t, std::int64_t>> sizes = {{1, 1}, {1, 1000}, {1000, 1}, {3, 3},  {2, 7},
                                                              {17, 33}, {63, 31}, {65, 129}, {4099, 67}};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) sizes.insert(sizes.end(), {{1001, 777}, {1024, 1024}});  // slow under a sanitizer
  for (const DType t : {DType::f32, DType::f64})
    for (const int side : conv2d::kMaskSides)
      for (const auto& [w, h] : sizes) check_all(w, h, side, t);
}

TEST_CASE("every conv2d step past 65535 rows of tiles (the grid steps down the image)", "[gpu][conv2d]") {
  const std::int64_t h = std::getenv("GPUBENCH_TEST_QUICK") ? 65536 * 32 + 1 : 2'100'001;
  for (const int side : {3, 15}) {
    check_all(5, h, side, DType::f32);  // rows of 20 bytes: the TMA rings fall back to loads_in_flight
    check_all(8, h, side, DType::f32);  // rows of 32 bytes: the TMA rings themselves
  }
}

TEST_CASE("every conv2d step past 2^31 pixels (float32)", "[gpu][conv2d][large]") {
  check_all(65536, 32769, 3, DType::f32);
  check_all((std::int64_t(1) << 30) + 3, 3, 5, DType::f32);
}

// The benchmark's buffers come from cudaMalloc, 256-byte aligned; a step
// given an image that is not must still be right (vectorized's 16-byte
// loads fall back to pixel loads).
TEST_CASE("every conv2d device step reads an image that does not start on a 16-byte boundary", "[gpu][conv2d]") {
  const std::int64_t w = 1024, h = 99;
  for (const DType t : {DType::f32, DType::f64})
    for (const int side : {3, 9}) {
      const std::size_t size = dtype_size(t), bytes = std::size_t(w * h) * size, mask_bytes = std::size_t(side * side) * size;
      std::vector<unsigned char> in(bytes), want(bytes), got(bytes), mask(mask_bytes);
      conv2d::fill_image(in.data(), w * h, t, 11);
      conv2d::fill_mask(mask.data(), side, t, 11);
      conv2d::reference_conv2d(in.data(), want.data(), mask.data(), w, h, side, t);
      DeviceBuffer d_in(bytes + size), d_out(bytes), d_mask(mask_bytes);
      void* in_ptr = static_cast<char*>(d_in.get()) + size;
      GPUBENCH_CUDA(cudaMemcpy(in_ptr, in.data(), bytes, cudaMemcpyHostToDevice));
      GPUBENCH_CUDA(cudaMemcpy(d_mask.get(), mask.data(), mask_bytes, cudaMemcpyHostToDevice));
      for (const conv2d::Step& s : conv2d::ladder()) {
        const conv2d::Problem p{in_ptr, d_out.get(), d_mask.get(), w, h, side, t};
        if (s.where != conv2d::Where::device || (s.unavailable && !s.unavailable(p).empty())) continue;
        const std::shared_ptr<void> plan = s.make_plan ? s.make_plan(p, nullptr) : nullptr;
        GPUBENCH_CUDA(cudaMemset(d_out.get(), 0xff, bytes));
        s.run(p, conv2d::Workspace{nullptr, plan.get()});
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        GPUBENCH_CUDA(cudaMemcpy(got.data(), d_out.get(), bytes, cudaMemcpyDeviceToHost));
        const Verdict v = conv2d::verify_conv2d(got.data(), want.data(), w * h, t, conv2d::tolerance(mask.data(), side, t));
        INFO(s.name << " " << dtype_name(t) << " mask " << side << ": " << v.detail);
        CHECK(v.ok);
      }
    }
}
