// The sampling policy shared by every benchmark: warm-up, then samples until
// both a minimum count and a minimum wall time are reached.
#pragma once

#include <functional>
#include <vector>

namespace gpubench {

struct MeasureOptions {
  int warmup = 3;           // untimed runs first: module load, clocks, caches of the driver
  int min_samples = 20;     // at least this many samples...
  double min_time_s = 0.2;  // ...and at least this much wall time spent sampling
  int max_samples = 100000; // a bound for very short kernels
  bool hot = false;         // skip the L2 flush between samples
};

// Runs sample() (which returns one measured time in ms) as the options say
// and returns the timed samples.
std::vector<double> collect_samples(const MeasureOptions& opts, const std::function<double()>& sample,
                                    double* sampled_s = nullptr);  // wall seconds the samples took

}  // namespace gpubench
