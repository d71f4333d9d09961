// The convolution's reference, check and cpu step on the host, and its bad
// axes: no GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "src/core/registry.hpp"
#include "src/patterns/conv2d/host_conv2d.hpp"
#include "tests/host/usage_errors.hpp"

using namespace gpubench;
using namespace gpubench::conv2d;

namespace {

// The definition, one pixel at a time, in long double.
std::vector<double> by_definition(const std::vector<double>& in, const std::vector<double>& mask, std::int64_t w,
                                  std::int64_t h, int side) {
  std::vector<double> out(std::size_t(w * h));
  const int r = side / 2;
  for (std::int64_t y = 0; y < h; ++y)
    for (std::int64_t x = 0; x < w; ++x) {
      long double sum = 0;
      for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
          const std::int64_t iy = y + i - r, ix = x + j - r;
          if (iy >= 0 && iy < h && ix >= 0 && ix < w) sum += (long double)mask[i * side + j] * in[iy * w + ix];
        }
      out[y * w + x] = double(sum);
    }
  return out;
}

}  // namespace

TEST_CASE("the conv2d reference is the definition: cross-correlation, zero outside the image", "[conv2d]") {
  for (const auto& [w, h] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {5, 3}, {3000, 4}, {2, 40}})
    for (const int side : {3, 5, 15}) {
      std::vector<double> in(std::size_t(w * h)), mask(std::size_t(side * side)), got(in.size());
      fill_image(in.data(), w * h, DType::f64, 9);
      fill_mask(mask.data(), side, DType::f64, 9);
      reference_conv2d(in.data(), got.data(), mask.data(), w, h, side, DType::f64);
      const std::vector<double> want = by_definition(in, mask, w, h, side);
      for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(w << "x" << h << " mask " << side << " pixel " << i);
        REQUIRE(got[i] == Approx(want[i]).epsilon(1e-13).margin(1e-13));  // not Approx's default 1.2e-5 relative
      }
    }
  // Orientation: a mask with one weight at its top-left takes the pixel up and to the left.
  std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9}, mask(9, 0.0f), out(9);
  mask[0] = 1;
  reference_conv2d(in.data(), out.data(), mask.data(), 3, 3, 3, DType::f32);
  CHECK(out == std::vector<float>{0, 0, 0, 0, 1, 2, 0, 4, 5});
}

TEST_CASE("the conv2d cpu step passes the check, a missed tap and NaN fail it", "[conv2d]") {
  for (const DType t : {DType::f32, DType::f64})
    for (const int side : {3, 9, 15}) {
      const std::int64_t w = 2049, h = 19;  // a row of two strips
      const std::size_t size = dtype_size(t), bytes = std::size_t(w * h) * size;
      std::vector<unsigned char> in(bytes), want(bytes), got(bytes), mask(std::size_t(side * side) * size);
      fill_image(in.data(), w * h, t, 4);
      fill_mask(mask.data(), side, t, 4);
      reference_conv2d(in.data(), want.data(), mask.data(), w, h, side, t);
      const double tol = tolerance(mask.data(), side, t);
      cpu_conv2d(in.data(), got.data(), mask.data(), w, h, side, t);
      const Verdict ok = verify_conv2d(got.data(), want.data(), w * h, t, tol);
      INFO(dtype_name(t) << " mask " << side << ": " << ok.detail);
      CHECK(ok.ok);
      // The centre weight left out: every pixel is off by |m x|.
      std::vector<unsigned char> missed = mask;
      std::fill_n(missed.begin() + std::size_t(side * side / 2) * size, size, 0);
      cpu_conv2d(in.data(), got.data(), missed.data(), w, h, side, t);
      const Verdict bad = verify_conv2d(got.data(), want.data(), w * h, t, tol);
      CHECK_FALSE(bad.ok);
      CHECK(bad.detail.find("pixels wrong; first at index") != std::string::npos);
    }
  std::vector<float> want(10, 1.0f), got = want;
  got[7] = std::numeric_limits<float>::quiet_NaN();
  const Verdict v = verify_conv2d(got.data(), want.data(), 10, DType::f32, 1e-3);
  CHECK_FALSE(v.ok);
  CHECK(v.detail.find("1 of 10 pixels wrong; first at index 7") == 0);
}

TEST_CASE("bad conv2d axes are one line and exit 2 before anything runs", "[conv2d][cli]") {
  testing::expect_usage_errors({"conv2d", "--variant", "cpu"}, {{{"--mask", "3,4"}, "--mask: 4: must be one of 3, 5, 7, 9, 15"},
                                                                  {{"--mask", "17"}, "--mask: 17: must be one of 3, 5"},
                                                                  {{"--mask", "1"}, "--mask"},
                                                                  {{"--width", "0"}, "--width"},
                                                                  {{"--height", "2^40"}, "--height"},
                                                                  {{"--dtype", "int32"}, "valid: float32, float64"},
                                                                  {{"--boundary", "clamp"}, "valid: zero"}});
  testing::expect_usage_errors({"conv2d"}, {{{"--variant", "tiled"}, "unknown conv2d variant 'tiled'"}});
  const testing::Outcome ok = testing::run_gpubench(
      builtin_patterns(), {"conv2d", "--variant", "cpu", "--width", "300", "--height", "1", "--mask", "15", "--dtype",
                           "float64"});
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("boundary=zero dtype=float64 height=1 mask=15 seed=42 width=300") != std::string::npos);
}
