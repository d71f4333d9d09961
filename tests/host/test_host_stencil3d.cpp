// The 3D stencil's reference, check and cpu step on the host, and its bad
// axes: no GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "src/core/registry.hpp"
#include "src/patterns/stencil3d/host_stencil3d.hpp"
#include "tests/host/usage_errors.hpp"

using namespace gpubench;
using namespace gpubench::stencil3d;

TEST_CASE("the stencil3d reference is the definition: 7 points inside, copies on the boundary", "[stencil3d]") {
  for (const std::int64_t n : {1, 2, 3, 4, 9}) {
    const std::int64_t count = n * n * n;
    std::vector<double> in(static_cast<std::size_t>(count)), got(in.size());
    double c[7];
    fill_grid(in.data(), count, DType::f64, 5);
    fill_coefficients(c, DType::f64, 5);
    reference_stencil(in.data(), got.data(), n, c, DType::f64);
    auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) { return (long double)in[(z * n + y) * n + x]; };
    for (std::int64_t z = 0; z < n; ++z)
      for (std::int64_t y = 0; y < n; ++y)
        for (std::int64_t x = 0; x < n; ++x) {
          const bool inside = x > 0 && y > 0 && z > 0 && x < n - 1 && y < n - 1 && z < n - 1;
          const long double want =
              inside ? c[0] * at(x, y, z) + c[1] * at(x - 1, y, z) + c[2] * at(x + 1, y, z) + c[3] * at(x, y - 1, z) +
                           c[4] * at(x, y + 1, z) + c[5] * at(x, y, z - 1) + c[6] * at(x, y, z + 1)
                     : at(x, y, z);
          INFO("n=" << n << " at " << x << "," << y << "," << z);
          REQUIRE(got[(z * n + y) * n + x] == Approx(double(want)).epsilon(1e-14).margin(1e-14));
        }
  }
}

TEST_CASE("the stencil3d cpu step passes the check, a wrong neighbour and NaN fail it", "[stencil3d]") {
  for (const DType t : {DType::f32, DType::f64}) {
    const std::int64_t n = 37, count = n * n * n;
    const std::size_t bytes = std::size_t(count) * dtype_size(t);
    std::vector<unsigned char> in(bytes), want(bytes), got(bytes);
    double c[7];
    fill_grid(in.data(), count, t, 8);
    fill_coefficients(c, t, 8);
    reference_stencil(in.data(), want.data(), n, c, t);
    const double tol = tolerance(c, t);
    cpu_stencil(in.data(), got.data(), n, c, t);
    const Verdict ok = verify_stencil(got.data(), want.data(), count, t, tol);
    INFO(dtype_name(t) << ": " << ok.detail);
    CHECK(ok.ok);
    // The z+1 coefficient moved to z-1: every interior point is off.
    double swapped[7];
    std::copy(std::begin(c), std::end(c), swapped);
    std::swap(swapped[5], swapped[6]);
    cpu_stencil(in.data(), got.data(), n, swapped, t);
    const Verdict bad = verify_stencil(got.data(), want.data(), count, t, tol);
    CHECK_FALSE(bad.ok);
    CHECK(bad.detail.find("points wrong; first at index") != std::string::npos);
  }
  std::vector<double> want(5, 0.5), got = want;
  got[2] = std::numeric_limits<double>::quiet_NaN();
  CHECK(verify_stencil(got.data(), want.data(), 5, DType::f64, 1e-9).detail.find("1 of 5 points wrong; first at index 2") == 0);
}

TEST_CASE("bad stencil3d axes are one line and exit 2 before anything runs", "[stencil3d][cli]") {
  testing::expect_usage_errors({"stencil3d", "--variant", "cpu"}, {{{"--size", "0"}, "--size"},
                                                                     {{"--size", "2^40"}, "--size"},
                                                                     {{"--size", "cube"}, "--size"},
                                                                     {{"--dtype", "int32"}, "valid: float32, float64"}});
  testing::expect_usage_errors({"stencil3d"}, {{{"--variant", "tiled"}, "unknown stencil3d variant 'tiled'"}});
  const testing::Outcome ok =
      testing::run_gpubench(builtin_patterns(), {"stencil3d", "--variant", "cpu", "--size", "3", "--dtype", "float64"});
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("dtype=float64 seed=42 size=3") != std::string::npos);
}
