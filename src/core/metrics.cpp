#include "src/core/metrics.hpp"

namespace gpubench {

std::optional<double> percent_of(std::optional<double> value, double ceiling) {
  if (!value || ceiling <= 0) return std::nullopt;
  return 100.0 * *value / ceiling;
}

std::vector<Metric> bandwidth_metrics(double bytes, double median_ms, const DeviceInfo* device) {
  const double gbps = bytes / (median_ms * 1e-3) / 1e9;
  return {{"gbps", "GB/s", "GB/s", gbps, 1},
          {"pct_of_peak", "% peak", "%", device ? percent_of(gbps, device->theoretical_gbps) : std::nullopt, 1},
          {"pct_of_copy", "% copy", "%", device ? percent_of(gbps, device->copy_gbps) : std::nullopt, 1}};
}

Metric tflops_metric(double flops, double median_ms) {
  return {"tflops", "TFLOP/s", "TFLOP/s", flops / (median_ms * 1e-3) / 1e12, 2};
}

}  // namespace gpubench
