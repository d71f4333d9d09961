// Runs matrix-multiplication steps: seeded A and B, a reference C, every
// step checked against it and timed; one BenchResult per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/config/json_fields.hpp"
#include "src/detail/measure.hpp"
#include "src/patterns/planned_run.hpp"
#include "src/report/result.hpp"

namespace gpubench::gemm {

struct Options {
  std::string variants = "all";
  std::int64_t m = 4096, n = 4096, k = 4096;
  int device = 0;
  std::uint64_t seed = 42;
  MeasureOptions measure = {3, 10, 0.5, 100000, false};
};

// Throws UsageError for bad options (unknown variant, m or n outside
// 1..65535*32, k outside 1..2^31-257, matrices too large for host or device
// memory), NoDeviceError without a GPU. Allocates nothing.
void check(const Options& o);

// check(), then the run. A wrong result comes back with verified == false.
RunReport run(const Options& o);

std::string describe(const Options& o);

// One run per element of m x n x k (each a size or a list of sizes).
std::vector<PlannedRun> plan_from_config(const config::Benchmark& b);

// The runs of the cross product ms x ns x ks, the other options from base.
std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& ms,
                                   const std::vector<std::int64_t>& ns, const std::vector<std::int64_t>& ks);

}  // namespace gpubench::gemm
