// The metrics patterns share, computed the same way for every ladder.
#pragma once

#include <optional>
#include <vector>

#include "kernels/common/resources.hpp"
#include "src/report/result.hpp"

namespace gpubench {

// GB/s of the bytes that must move.
Metric gbps_metric(double bytes, double median_ms);

// GB/s of the bytes that must move, and that as a percentage of the
// theoretical DRAM bandwidth and of the measured copy (device rows only:
// `device` null for host rows).
std::vector<Metric> bandwidth_metrics(double bytes, double median_ms, const DeviceInfo* device);

// TFLOP/s of the arithmetic the problem needs.
Metric tflops_metric(double flops, double median_ms);

// What the compiler gave a step's main kernel (kernels/common/resources.hpp):
// registers, shared memory and local memory; all absent ("-") for rows
// without one (library and host rows: nullopt).
std::vector<Metric> resource_metrics(const std::optional<Resources>& resources);

// The resources a step reports through its `resources` pointer (nullptr for
// library and host steps), asked only where a device runs it.
template <class Describe, class... Args>
std::optional<Resources> step_resources(Describe* describe, bool on_device, const Args&... args) {
  if (describe == nullptr || !on_device) return std::nullopt;
  return describe(args...);
}

// `value` as a percentage of `ceiling`, absent when either is.
std::optional<double> percent_of(std::optional<double> value, double ceiling);

}  // namespace gpubench
