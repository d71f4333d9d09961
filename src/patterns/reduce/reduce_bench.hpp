// Runs reduction steps: builds the input, checks every step against the host
// reference, times it, and reports one BenchResult per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/reduce/reduce_step.hpp"
#include "src/detail/measure.hpp"
#include "src/report/result.hpp"

namespace gpubench::reduce {

struct Options {
  std::string variants = "all";
  std::int64_t n = std::int64_t(1) << 28;
  DType dtype = DType::i32;
  Op op = Op::sum;
  int block = 256;
  int device = 0;
  std::uint64_t seed = 42;
  MeasureOptions measure;
};

std::string to_string(DType t);
std::string to_string(Op o);
const std::vector<std::string>& dtype_names();  // int32, float32, float64
const std::vector<std::string>& op_names();     // sum, min, max
// The inverse of to_string; the name must be one of the names above.
DType dtype_named(const std::string& name);
Op op_named(const std::string& name);

// Throws UsageError for bad options (unknown variant, n < 1, block size, an
// input too large for host or device memory), NoDeviceError when a device
// step is chosen and there is no GPU. Allocates nothing.
void check(const Options& opts);

// check(), then the run. A step whose result is wrong comes back with
// verified == false and the reason in error.
RunReport run(const Options& opts);

}  // namespace gpubench::reduce
