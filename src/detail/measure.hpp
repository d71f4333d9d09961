// The sampling policy shared by every benchmark: warm-up, then samples until
// both a minimum count and a minimum wall time are reached.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace gpubench {

struct MeasureOptions {
  int warmup = 3;           // untimed runs first: module load, clocks, caches of the driver
  int min_samples = 20;     // at least this many samples...
  double min_time_s = 0.2;  // ...and at least this much wall time spent sampling
  int max_samples = 100000; // a bound for very short kernels
  bool hot = false;         // skip the L2 flush between samples
  double throttle_threshold = 0.9;  // of the maximum SM clock: below it a sample is suspect
  bool discard_on_throttle = false; // retake suspect samples (ClockWatch's bound) instead of marking the row
  bool energy = false;              // after the samples, energy per run over back-to-back runs
  double energy_time_s = 2;         // ...for at least this long
};

// Watches sampling: told after each sample how many are kept so far and
// whether sampling would stop there, it may have the most recent ones
// dropped (and so retaken).
class SampleWatch {
 public:
  virtual ~SampleWatch() = default;
  virtual std::size_t after_sample(std::size_t taken, bool would_stop) = 0;  // how many to drop
};

// Runs sample() (which returns one measured time in ms) as the options say
// and returns the timed samples.
std::vector<double> collect_samples(const MeasureOptions& opts, const std::function<double()>& sample,
                                    double* sampled_s = nullptr,  // wall seconds the samples took
                                    SampleWatch* watch = nullptr);

}  // namespace gpubench
