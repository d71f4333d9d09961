// The map ladder's reference, check and cpu step on the host, and its bad
// axes: no GPU needed.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "src/patterns/map/host_map.hpp"
#include "tests/host/usage_errors.hpp"

using namespace gpubench;
using namespace gpubench::map;

TEST_CASE("the map reference: a + b exactly, alpha a + b within its tolerance, fixed-point luminance", "[map]") {
  std::vector<float> a = {1.5f, -0.25f, 3.0f}, b = {0.5f, 0.25f, -1.0f}, out(3);
  reference_map({a.data(), b.data(), out.data(), 3, Op::vecadd, DType::f32, 0.0});
  CHECK(out == std::vector<float>{2.0f, 0.0f, 2.0f});
  reference_map({a.data(), b.data(), out.data(), 3, Op::saxpy, DType::f32, 2.0});
  CHECK(out == std::vector<float>{3.5f, -0.25f, 5.0f});
  const std::vector<unsigned char> rgb = {255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0};
  std::vector<unsigned char> gray(4);
  reference_map({rgb.data(), nullptr, gray.data(), 4, Op::grayscale, DType::f32, 0.0});
  CHECK(gray == std::vector<unsigned char>{255, 0, 76, 149});  // (77 r + 150 g + 29 b) >> 8
}

TEST_CASE("the map cpu step passes the check, a changed element and NaN fail it", "[map]") {
  for (const Op op : {Op::vecadd, Op::saxpy, Op::grayscale})
    for (const DType t : {DType::f32, DType::f64}) {
      if (op == Op::grayscale && t == DType::f64) continue;
      const std::int64_t n = 100003;
      const std::size_t in = op == Op::grayscale ? 3 * n : n * dtype_size(t), outb = op == Op::grayscale ? n : in;
      std::vector<unsigned char> a(in), b(in), want(outb), got(outb);
      Problem p{a.data(), b.data(), want.data(), n, op, t, alpha_for(t, 3)};
      fill_inputs(p, a.data(), b.data(), 3);
      reference_map(p);
      p.out = got.data();
      cpu_map(p);
      const Verdict ok = verify_map(p, got.data(), want.data());
      INFO(int(op) << " " << dtype_name(t) << ": " << ok.detail);
      CHECK(ok.ok);
      got[outb / 2] ^= 0x10;  // one byte of one element
      CHECK_FALSE(verify_map(p, got.data(), want.data()).ok);
    }
  std::vector<double> want(4, 1.0), got = want;
  got[3] = std::numeric_limits<double>::quiet_NaN();
  const Problem p{nullptr, nullptr, nullptr, 4, Op::saxpy, DType::f64, 0.5};
  CHECK(verify_map(p, got.data(), want.data()).detail.find("1 of 4 elements wrong; first at index 3") == 0);
}

TEST_CASE("bad map axes are one line and exit 2 before anything runs", "[map][cli]") {
  testing::expect_usage_errors({"map", "--variant", "cpu"},
                               {{{"--op", "add"}, "valid: vecadd, saxpy, grayscale"},
                                {{"--n", "0"}, "--n"},
                                {{"--n", "2^39"}, "--n"},
                                {{"--dtype", "int32"}, "valid: float32, float64"},
                                {{"--op", "grayscale", "--dtype", "float64"}, "--dtype does not apply"}});
}
