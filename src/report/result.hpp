// What a benchmark run produces, independent of how it is printed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/device.hpp"
#include "src/detail/measure.hpp"
#include "src/detail/stats.hpp"

namespace gpubench {

struct BenchResult {
  std::string pattern;  // "reduce", "gemm", "scan"
  std::string variant;  // "reduce3"
  std::string ladder;   // "slides", "modern", "course", "baseline"
  std::string summary;  // what the step changes
  std::string precision;  // gemm: "fp32", "tf32" or "bf16" inside the multiply; empty for patterns without one
  bool on_device = true;
  nlohmann::json params;   // n, dtype, op, block, seed
  nlohmann::json measure;  // the sampling settings: warmup, min_samples, min_time_s
  std::vector<double> samples_ms;
  Stats stats;
  double bytes = 0;  // bytes that must move: reduce reads the input once, scan also writes as much
  double gbps = 0;   // bytes / median time
  std::optional<double> pct_of_peak;  // of the theoretical DRAM bandwidth (device rows)
  std::optional<double> pct_of_copy;  // of the measured copy bandwidth (device rows)
  std::optional<double> gflops;            // arithmetic the problem needs / median time (gemm)
  std::optional<double> pct_of_library;    // of the library baseline in the same precision (gemm)
  std::optional<double> pct_of_fp32_peak;  // of the GPU's FP32 CUDA-core peak (gemm)
  nlohmann::json resources;                // registers, shared_bytes, local_bytes of the main kernel, or null
  std::optional<double> adds_per_element;  // operator applications per element the algorithm does (scan)
  bool verified = false;
  std::optional<std::string> error;  // why verification failed or the run broke
  bool hot = false;                  // the L2 was left warm between samples (--hot)
};

struct RunReport {
  std::optional<DeviceInfo> device;  // absent when only host steps ran without a GPU
  std::vector<BenchResult> results;
  std::optional<nlohmann::json> config;  // the config file a `gpubench run` expanded
};

// A result's `measure` field: the sampling settings it ran with.
inline nlohmann::json measure_settings(const MeasureOptions& m) {
  return {{"warmup", m.warmup}, {"min_samples", m.min_samples}, {"min_time_s", m.min_time_s}};
}

// Appends `more`'s results; the device is the first one seen.
void append(RunReport& into, RunReport&& more);

// Results with equal params form a group (one table). Within its group, the
// speedup of result i over the previous step of its ladder (step; the modern
// steps continue the slides' ladder) and over the group's first result
// (total); empty where there is none or either run failed.
std::optional<double> step_speedup(const std::vector<BenchResult>& rs, std::size_t i);
std::optional<double> total_speedup(const std::vector<BenchResult>& rs, std::size_t i);

// Index of the first result of result i's group.
std::size_t group_start(const std::vector<BenchResult>& rs, std::size_t i);

}  // namespace gpubench
