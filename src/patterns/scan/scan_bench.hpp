// Runs prefix-sum steps: seeded input, every device step checked against
// the host reference after its first and last timed run (output poisoned
// before each), the cpu step after its last; one BenchResult per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/scan/scan_step.hpp"
#include "src/config/json_fields.hpp"
#include "src/detail/measure.hpp"
#include "src/patterns/planned_run.hpp"
#include "src/report/result.hpp"

namespace gpubench::scan {

struct Options {
  std::string variants = "all";
  std::int64_t n = std::int64_t(1) << 28;
  DType dtype = DType::i32;
  Kind kind = Kind::inclusive;
  int device = 0;
  std::uint64_t seed = 42;
  MeasureOptions measure;
};

std::string to_string(Kind k);
const std::vector<std::string>& kind_names();  // inclusive, exclusive
Kind kind_named(const std::string& name);

// Throws UsageError for bad options (unknown variant, n < 1, buffers too
// large for host or device memory), NoDeviceError when a device step is
// chosen and there is no GPU. Allocates nothing.
void check(const Options& o);

// check(), then the run. A wrong result comes back with verified == false.
RunReport run(const Options& o);

std::string describe(const Options& o);

// One run per size, the other options from base.
std::vector<PlannedRun> plan_sizes(const Options& base, const std::vector<std::int64_t>& sizes);

// The "scan" entries of a benchmark config (scan_config.cpp): one run per
// element of n x dtype x kind (each a value or a list; n also takes sweeps).
// Params: n (default 2^28), dtype, kind, seed, device.
std::vector<PlannedRun> plan_from_config(const config::Benchmark& b);

}  // namespace gpubench::scan
