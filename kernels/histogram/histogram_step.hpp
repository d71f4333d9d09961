// The contract between the histogram ladder and the host harness.
//
// A step counts n samples into `bins` even bins over the sample type's range
// (cub::DeviceHistogram::HistogramEven's bins, histogram_bins.hpp) and
// leaves the counts in hist[0..bins); samples outside the range (for
// float32: NaN and values outside [0, 1)) are counted nowhere. hist arrives
// poisoned: a step writes every bin. It knows nothing else about the run.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/common/course_ladder.hpp"
#include "kernels/common/resources.hpp"
#include "kernels/histogram/histogram_bins.hpp"

namespace gpubench::histogram {

// course: lecture 13's kernels and lecture 20's vote; modern: beyond the
// course; baseline: CUB, the CPU.
using Ladder = CourseLadder;

enum class Where { device, host };

struct Problem {
  const void* samples = nullptr;  // n samples of `type`, aligned to the type's size
  std::uint32_t* hist = nullptr;  // bins counters
  std::int64_t n = 0;             // >= 0, < 2^32 (the counters are 32-bit)
  Sample type = Sample::u8;
  int bins = 1;                   // 1 .. kMaxBins
};

struct Workspace {
  void* scratch = nullptr;  // scratch_bytes(problem) bytes, contents undefined
  cudaStream_t stream = nullptr;
};

struct Step {
  const char* name;
  Ladder ladder;
  const char* summary;  // what the step changes, in one line
  Where where;
  std::size_t (*scratch_bytes)(const Problem&);
  void (*run)(const Problem&, const Workspace&);
  // The most bins the step handles within an SM's shared memory
  // (shared_bytes: what one block may opt into); 0: any number.
  int (*max_bins)(std::size_t shared_bytes);
  Resources (*resources)(const Problem&);  // nullptr for library steps
  bool uint8_only = false;                 // counts byte values: takes uint8 samples alone
};

}  // namespace gpubench::histogram
