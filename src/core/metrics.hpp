// The metrics patterns share, computed the same way for every ladder.
#pragma once

#include <optional>
#include <vector>

#include "src/report/result.hpp"

namespace gpubench {

// GB/s of the bytes that must move, and that as a percentage of the
// theoretical DRAM bandwidth and of the measured copy (device rows only:
// `device` null for host rows).
std::vector<Metric> bandwidth_metrics(double bytes, double median_ms, const DeviceInfo* device);

// TFLOP/s of the arithmetic the problem needs.
Metric tflops_metric(double flops, double median_ms);

// What the compiler gave a step's main kernel: registers per thread, shared
// memory per block (static + dynamic) and local memory per thread (spills
// or a stack array); all absent ("-") when `known` is false (library and
// host rows).
std::vector<Metric> resource_metrics(bool known, int registers, int shared_bytes, int local_bytes);

// `value` as a percentage of `ceiling`, absent when either is.
std::optional<double> percent_of(std::optional<double> value, double ceiling);

}  // namespace gpubench
