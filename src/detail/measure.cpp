#include "src/detail/measure.hpp"

#include <algorithm>
#include <chrono>

namespace gpubench {

std::vector<double> collect_samples(const MeasureOptions& opts, const std::function<double()>& sample,
                                    double* sampled_s, SampleWatch* watch) {
  for (int i = 0; i < opts.warmup; ++i) sample();
  std::vector<double> ms;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto more = [&] {
    return int(ms.size()) < opts.max_samples && (int(ms.size()) < opts.min_samples || elapsed_s() < opts.min_time_s);
  };
  // more() is asked once per sample, and the watch told its answer, so the
  // samples that end sampling are always the ones it judged last.
  for (bool go = more(); go;) {
    ms.push_back(sample());
    const bool stop = !more();
    const std::size_t drop = watch ? std::min(ms.size(), watch->after_sample(ms.size(), stop)) : 0;
    ms.resize(ms.size() - drop);
    go = !stop || drop > 0;
  }
  if (sampled_s) *sampled_s = elapsed_s();
  return ms;
}

}  // namespace gpubench
