#include "src/detail/measure.hpp"

#include <chrono>

namespace gpubench {

std::vector<double> collect_samples(const MeasureOptions& opts, const std::function<double()>& sample,
                                    double* sampled_s) {
  for (int i = 0; i < opts.warmup; ++i) sample();
  std::vector<double> ms;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (int(ms.size()) < opts.max_samples &&
         (int(ms.size()) < opts.min_samples || elapsed_s() < opts.min_time_s)) {
    ms.push_back(sample());
  }
  if (sampled_s) *sampled_s = elapsed_s();
  return ms;
}

}  // namespace gpubench
