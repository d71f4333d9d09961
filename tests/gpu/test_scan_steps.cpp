// Every scan step through the benchmark itself (output poisoned before each
// run, checked after the first and the last): the sizes, inclusive
// and exclusive, every element type.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "src/patterns/scan/scan_bench.hpp"

using namespace gpubench;

namespace {

void check_all(std::int64_t n, scan::DType dtype, scan::Kind kind, const char* variants = "all") {
  scan::Options o;
  o.variants = variants;
  o.n = n;
  o.dtype = dtype;
  o.kind = kind;
  o.measure = {0, 1, 0.0, 1, false};
  const RunReport rep = scan::run(o);
  for (const auto& r : rep.results) {
    INFO(r.variant << " n=" << n << " " << r.params.dump() << ": " << r.error.value_or(""));
    CHECK(r.verified);
  }
}

}  // namespace

TEST_CASE("every scan step is correct at small, odd and tile-straddling sizes", "[gpu][scan]") {
  std::vector<std::int64_t> sizes = {1, 2, 31, 1024, 1025, 4097, 65537, (1 << 20) + 3};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) sizes.push_back(std::int64_t(1) << 24);  // too slow under a sanitizer
  for (auto dtype : {scan::DType::i32, scan::DType::f32, scan::DType::f64})
    for (auto kind : {scan::Kind::inclusive, scan::Kind::exclusive})
      for (const std::int64_t n : sizes) check_all(n, dtype, kind);
}

TEST_CASE("every device scan step at 2^28 and past 2^31 elements (int32)", "[gpu][scan][large]") {
  for (auto kind : {scan::Kind::inclusive, scan::Kind::exclusive}) {
    check_all(std::int64_t(1) << 28, scan::DType::i32, kind);
    check_all((std::int64_t(1) << 31) + 4099, scan::DType::i32, kind,
              "kogge_stone_global,kogge_stone,kogge_stone_double_buffer,brent_kung,coarsened,warp_shuffle,"
              "reduce_then_scan,single_pass_chained,decoupled_lookback,cub");
  }
}
