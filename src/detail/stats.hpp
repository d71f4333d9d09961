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

// Two-sided p-value of the Mann-Whitney U test that a and b come from the
// same distribution (normal approximation with tie correction; fine for the
// tens to thousands of samples a benchmark takes). 1 when either is empty.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace gpubench
