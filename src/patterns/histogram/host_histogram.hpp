// The histogram's inputs, its host reference and the CPU baseline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/histogram/histogram_bins.hpp"

namespace gpubench::histogram {

// uniform: every bit random; skewed: the AND of five random words, as
// CUB's benchmarks build their low-entropy inputs (about 0.2 bits of
// entropy per bit); constant: one seeded value n times, every sample in one
// bin. float32 inputs also hold NaN and values outside [0, 1) (one sample
// in 64, uniform and skewed).
enum class Entropy { uniform, skewed, constant };

// The --entropy names, in Entropy's order, and the entropy one names
// (std::invalid_argument for another name).
const std::vector<std::string>& entropy_names();
Entropy entropy_named(const std::string& name);

// The --sample names, in Sample's order, and the type one names
// (std::invalid_argument for another name).
const std::vector<std::string>& sample_names();
Sample sample_named(const std::string& name);

// Host memory the reference (and the cpu step, when it runs) needs beyond
// the samples: per-thread partial histograms.
double host_histogram_bytes(int bins, bool cpu_step);

// Writes n seeded samples of `type`.
void fill_samples(void* samples, std::int64_t n, Sample type, Entropy entropy, std::uint64_t seed);

// The exact counts, bin by bin in 64 bits, computed from the bins'
// definition ((s - lower) * bins / range in integers; HistogramEven's fp32
// product for float32), and the samples outside the range.
struct Reference {
  std::vector<std::uint64_t> counts;
  std::uint64_t outside = 0;
};
Reference reference_histogram(const void* samples, std::int64_t n, Sample type, int bins);

// Empty when hist holds the reference's counts exactly, else the first
// wrong bin and how the total is off.
std::string verify_histogram(const Reference& want, const std::uint32_t* hist, std::int64_t n);

// The CPU baseline: private histograms on every host thread, then a merge.
void cpu_histogram(const void* samples, std::int64_t n, Sample type, int bins, std::uint32_t* hist);

}  // namespace gpubench::histogram
