// Summary statistics of a set of timing samples.
#pragma once

#include <cstddef>
#include <vector>

namespace gpubench {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  double noise = 0;  // relative standard deviation: sample stddev / mean
};

// Throws std::invalid_argument for an empty sample set.
Stats summarize(const std::vector<double>& samples_ms);

// The q-quantile (0 <= q <= 1) of the samples, interpolated linearly between
// the two nearest (the median at 0.5). Throws std::invalid_argument for none.
double quantile(std::vector<double> samples_ms, double q);

// Two-sided p-value of the Mann-Whitney U test that a and b come from the
// same distribution (normal approximation with tie correction; fine for the
// tens to thousands of samples a benchmark takes). 1 when either is empty.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// The smallest p-value mann_whitney_p can give for n1 and n2 samples: that of
// two sets with no value in common, every one of a set below the other's.
// It is 0.01 or more, however far apart the samples, for five or fewer a
// side, four against up to seven, three against up to thirteen, and one or
// two against any number.
double smallest_mann_whitney_p(std::size_t n1, std::size_t n2);

}  // namespace gpubench
