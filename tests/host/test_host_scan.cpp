// The scan reference check and the CPU scan, without a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "src/patterns/scan/host_scan.hpp"

using namespace gpubench;
using namespace gpubench::scan;

TEST_CASE("the cpu scan passes the check, inclusive and exclusive, and a wrong element fails it", "[scan]") {
  for (std::int64_t n : {1, 2, 31, 100000, 1 << 20}) {
    std::vector<int> in(n), out(n);
    fill_input(in.data(), n, DType::i32, 7);
    for (Kind kind : {Kind::inclusive, Kind::exclusive}) {
      cpu_scan(in.data(), out.data(), n, DType::i32, kind);
      CHECK(verify_scan(in.data(), out.data(), n, DType::i32, kind).ok);
      out[n / 2] += 1;
      const Verdict v = verify_scan(in.data(), out.data(), n, DType::i32, kind);
      CHECK_FALSE(v.ok);
      CHECK(v.detail.find("element " + std::to_string(n / 2)) != std::string::npos);
    }
  }
  std::vector<int> in = {3, 1, 4, 1, 5}, out(5);
  cpu_scan(in.data(), out.data(), 5, DType::i32, Kind::exclusive);
  CHECK(out == std::vector<int>{0, 3, 4, 8, 9});
}

TEST_CASE("int64 scan inputs need the upper 32 bits, the check is exact there, and a low-32-bit sum fails it", "[scan]") {
  const std::int64_t n = 4097;
  std::vector<long long> in(n), out(n);
  fill_input(in.data(), n, DType::i64, 11);
  long long largest = 0;
  for (long long x : in) largest = std::max(largest, x < 0 ? -x : x);
  CHECK(largest > (1ll << 32));
  CHECK(largest <= (1ll << 40));
  for (Kind kind : {Kind::inclusive, Kind::exclusive}) {
    cpu_scan(in.data(), out.data(), n, DType::i64, kind);
    CHECK(verify_scan(in.data(), out.data(), n, DType::i64, kind).ok);
    std::vector<long long> low(out);
    for (long long& x : low) x = static_cast<long long>(static_cast<std::uint32_t>(x));  // a 32-bit accumulator's answer
    CHECK_FALSE(verify_scan(in.data(), low.data(), n, DType::i64, kind).ok);
  }
}

TEST_CASE("float scan inputs are multiples of 1/8 and NaN fails the check", "[scan]") {
  const std::int64_t n = 1 << 18;
  std::vector<float> in(n), out(n);
  fill_input(in.data(), n, DType::f32, 3);
  double sum = 0;
  for (float x : in) {
    CHECK(x * 8 == std::floor(x * 8));
    CHECK(std::fabs(x) <= 4);
    sum += x;
  }
  CHECK(std::fabs(sum / n) < 0.05);  // no drift: partial sums stay in float32's exact range
  cpu_scan(in.data(), out.data(), n, DType::f32, Kind::inclusive);
  CHECK(verify_scan(in.data(), out.data(), n, DType::f32, Kind::inclusive).ok);
  out[12345] = std::nanf("");
  CHECK_FALSE(verify_scan(in.data(), out.data(), n, DType::f32, Kind::inclusive).ok);
}
