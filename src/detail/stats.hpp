// Summary statistics of a set of timing samples.
#pragma once

#include <vector>

namespace gpubench {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  double noise = 0;  // relative standard deviation: sample stddev / mean
};

// Throws std::invalid_argument for an empty sample set.
Stats summarize(const std::vector<double>& samples_ms);

}  // namespace gpubench
