// Every collective step across every GPU of the machine, through the
// benchmark itself (outputs poisoned before each run, every GPU's output
// checked after the first and the last): one element, counts that do not
// split evenly over the GPUs, both sides of p2p_direct's one-shot limit,
// every element type and both operators, and past 2^31 elements.
#include <catch2/catch.hpp>

#include <iostream>

#include "src/core/registry.hpp"
#include "src/core/runner.hpp"
#include "src/detail/device.hpp"

using namespace gpubench;

namespace {

void check_all(std::int64_t bytes, const char* dtype, const char* op) {
  RunRequest req{builtin_patterns().find("collective"),
                 {{"bytes", bytes}, {"dtype", dtype}, {"op", op}, {"seed", 7 + bytes}}, "all", 0, {0, 1, 0.0, 1, false}};
  for (int d = 0; d < cuda_device_count(); ++d) req.span.push_back(d);
  const RunReport rep = run(req, std::cerr);
  CHECK(!rep.results.empty());
  for (const auto& r : rep.results) {
    INFO(r.variant << " " << r.params.dump() << ": " << r.error.value_or(""));
    CHECK(r.verified);
  }
}

}  // namespace

TEST_CASE("every collective step is right at small, uneven and one-shot-straddling sizes", "[gpus][collective]") {
  for (const char* op : {"sum", "max"}) {
    for (const std::int64_t bytes : {4, 12, 1028, 262144, 262148, (1 << 24) + 20}) check_all(bytes, "float32", op);
    for (const std::int64_t bytes : {2, 6, 262146}) check_all(bytes, "bfloat16", op);
    for (const std::int64_t bytes : {8, 24, 262152}) check_all(bytes, "float64", op);
  }
}

TEST_CASE("every collective step past 2^31 elements (bfloat16)", "[gpus][collective][large]") {
  check_all(2 * ((std::int64_t(1) << 31) + 3), "bfloat16", "sum");
}
