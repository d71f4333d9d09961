#include "src/core/metrics.hpp"

namespace gpubench {

std::optional<double> percent_of(std::optional<double> value, double ceiling) {
  if (!value || ceiling <= 0) return std::nullopt;
  return 100.0 * *value / ceiling;
}

Metric gbps_metric(double bytes, double median_ms) { return {"gbps", "GB/s", "GB/s", bytes / (median_ms * 1e-3) / 1e9, 1}; }

std::vector<Metric> bandwidth_metrics(double bytes, double median_ms, const DeviceInfo* device) {
  const Metric m = gbps_metric(bytes, median_ms);
  const double gbps = *m.value;
  return {m,
          {"pct_of_peak", "% peak", "%", device ? percent_of(gbps, device->theoretical_gbps) : std::nullopt, 1},
          {"pct_of_copy", "% copy", "%", device ? percent_of(gbps, device->copy_gbps) : std::nullopt, 1}};
}

std::vector<Metric> resource_metrics(const std::optional<Resources>& r) {
  auto resource = [&](const char* name, const char* label, int Resources::*field) {
    return Metric{name, label, "", r ? std::optional<double>((*r).*field) : std::nullopt, 0};
  };
  return {resource("registers", "regs", &Resources::registers), resource("shared_bytes", "smem", &Resources::shared_bytes),
          resource("local_bytes", "local", &Resources::local_bytes)};
}

Metric tflops_metric(double flops, double median_ms) {
  return {"tflops", "TFLOP/s", "TFLOP/s", flops / (median_ms * 1e-3) / 1e12, 2};
}

}  // namespace gpubench
