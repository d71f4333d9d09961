#include <catch2/catch.hpp>

#include <limits>
#include <tuple>
#include <vector>

#include "src/core/registry.hpp"
#include "src/patterns/gemm/gemm_check.hpp"
#include "src/patterns/gemm/openblas.hpp"
#include "src/patterns/gemm/tensor_peak.hpp"

using namespace gpubench;
using namespace gpubench::gemm;

namespace {

std::vector<float> iota_matrix(int rows, int cols, float scale) {
  std::vector<float> v(std::size_t(rows) * cols);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = scale * float(int(i % 7) - 3);
  return v;
}

}  // namespace

TEST_CASE("the host reference multiplies row-major matrices") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};  // 2 x 3
  const std::vector<float> b = {7, 8, 9, 10, 11, 12};  // 3 x 2
  CHECK(host_reference(a, b, 2, 2, 3) == std::vector<float>{58, 64, 139, 154});
}

TEST_CASE("the product check: exact passes, NaN and a dropped term fail, tolerance grows with k for fp32 and bf16") {
  const int m = 33, n = 17, k = 129;
  const auto a = iota_matrix(m, k, 0.25f), b = iota_matrix(k, n, 0.5f);
  const auto ref = host_reference(a, b, m, n, k);
  CHECK(check_product(ref, ref, Precision::fp32, k).ok);

  auto c = ref;
  c[5] = std::numeric_limits<float>::quiet_NaN();
  const Verdict nan = check_product(c, ref, Precision::fp32, k);
  CHECK_FALSE(nan.ok);
  CHECK(nan.detail.find("element 5 is NaN") != std::string::npos);

  c = ref;
  c[40] -= a[std::size_t(40 / n) * k] * b[40 % n];  // one of the k terms missing
  CHECK_FALSE(check_product(c, ref, Precision::fp32, k).ok);

  CHECK(tolerance(Precision::fp32, 4096) == Approx(2e-4));
  CHECK(tolerance(Precision::fp32, 1 << 24) > 2e-4);
  CHECK(tolerance(Precision::tf32, 1 << 24) == Approx(1e-2));
  // bf16: the fp32 tolerance up to k of about 5400, then one lost ulp in
  // each of the k/16 steps of a wgmma, on elements of up to 5 rms.
  CHECK(tolerance(Precision::bf16, 4096) == Approx(2e-4));
  CHECK(tolerance(Precision::bf16, 32768) == Approx(5 * 2048 * 0x1.0p-23));
}

TEST_CASE("a reference from elsewhere is checked at sampled elements") {
  const int m = 20, n = 30, k = 40;
  const auto a = iota_matrix(m, k, 0.1f), b = iota_matrix(k, n, 0.2f);
  auto ref = host_reference(a, b, m, n, k);
  CHECK(check_reference_samples(ref, a, b, m, n, k).ok);
  for (float& v : ref) v += 1.0f;  // every element wrong
  CHECK_FALSE(check_reference_samples(ref, a, b, m, n, k).ok);
}

TEST_CASE("the OpenBLAS cpu baseline loads and multiplies correctly", "[gemm]") {
  // scripts/setup.sh installs libopenblas0-pthread, so it must be here.
  REQUIRE(gpubench::gemm::openblas::unavailable() == nullptr);
  for (auto [m, n, k] : {std::tuple{1, 1, 1}, std::tuple{127, 513, 65}, std::tuple{64, 48, 300}}) {
    std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n), c(std::size_t(m) * n, 0.0f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 17) - 8) / 8;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 13) - 6) / 4;
    gpubench::gemm::openblas::sgemm(a.data(), b.data(), c.data(), m, n, k);
    INFO(m << "x" << n << "x" << k);
    CHECK(check_product(c, host_reference(a, b, m, n, k), Precision::fp32, k).ok);
  }
}

TEST_CASE("a gemm step's device scratch is counted in the point's footprint, only when the step runs", "[gemm]") {
  const Pattern& p = *builtin_patterns().find("gemm");
  const auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < p.steps.size(); ++i)
      if (p.steps[i].name == name) return i;
    FAIL("no gemm step " << name);
    return std::size_t(0);
  };
  DeviceInfo gpu;
  gpu.cc_major = 9;
  Env env;
  env.device = &gpu;
  const auto device_bytes = [&](std::vector<std::size_t> steps, int k) {
    env.steps = std::move(steps);
    return p.fixture({{"m", 1000}, {"n", 2000}, {"k", k}, {"seed", 1}})->footprint(env).device_bytes;
  };
  const double pipelined = device_bytes({index("pipelined")}, 1024);
  // B transposed: n x k floats; past a k that is not a multiple of 4, A's padded copy too (m x 1028).
  CHECK(device_bytes({index("pipelined"), index("wgmma_tf32")}, 1024) - pipelined == Approx(2000.0 * 1024 * 4).epsilon(1e-4));
  const double ragged = device_bytes({index("pipelined")}, 1025);
  CHECK(device_bytes({index("wgmma_tf32")}, 1025) - ragged == Approx((2000.0 + 1000.0) * 1028 * 4).epsilon(1e-4));
}

TEST_CASE("the tensor-core ceiling: bf16 and tf32 on 8.0 and 9.0, none for fp32 or other architectures", "[gemm]") {
  DeviceInfo a100;
  a100.cc_major = 8;
  a100.sm_count = 108;
  a100.sm_clock_mhz = 1410;
  CHECK(tensor_peak_tflops(a100, Precision::bf16).value() == Approx(312).epsilon(0.001));  // the A100's dense bf16 figure
  CHECK(tensor_peak_tflops(a100, Precision::tf32).value() == Approx(156).epsilon(0.001));
  DeviceInfo hopper = a100;
  hopper.cc_major = 9;
  hopper.sm_count = 132;
  hopper.sm_clock_mhz = 1980;
  CHECK(tensor_peak_tflops(hopper, Precision::bf16).value() == Approx(2 * 132 * 2048 * 1980e6 / 1e12));
  CHECK(tensor_peak_tflops(hopper, Precision::tf32).value() == Approx(132 * 2048 * 1980e6 / 1e12));
  CHECK_FALSE(tensor_peak_tflops(hopper, Precision::fp32));
  for (const auto& [major, minor] : {std::pair{8, 6}, {8, 9}, {10, 0}, {7, 0}}) {
    hopper.cc_major = major;
    hopper.cc_minor = minor;
    CHECK_FALSE(tensor_peak_tflops(hopper, Precision::bf16));
  }
}
