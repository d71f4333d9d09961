#include "src/detail/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpubench {

Stats summarize(const std::vector<double>& samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no samples");
  std::vector<double> s = samples_ms;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  Stats st;
  st.median_ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  st.min_ms = s.front();
  st.max_ms = s.back();
  st.mean_ms = std::accumulate(s.begin(), s.end(), 0.0) / double(n);
  if (n > 1 && st.mean_ms > 0) {
    double ss = 0;
    for (double x : s) ss += (x - st.mean_ms) * (x - st.mean_ms);
    st.noise = std::sqrt(ss / double(n - 1)) / st.mean_ms;
  }
  return st;
}

double quantile(std::vector<double> samples_ms, double q) {
  if (samples_ms.empty()) throw std::invalid_argument("quantile: no samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  const double at = q * double(samples_ms.size() - 1);
  const std::size_t below = std::size_t(at);
  if (below + 1 >= samples_ms.size()) return samples_ms.back();
  return samples_ms[below] + (at - double(below)) * (samples_ms[below + 1] - samples_ms[below]);
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const double n1 = double(a.size()), n2 = double(b.size()), n = n1 + n2;
  if (a.empty() || b.empty()) return 1.0;
  std::vector<std::pair<double, int>> all;  // value, which sample
  for (double x : a) all.push_back({x, 0});
  for (double x : b) all.push_back({x, 1});
  std::sort(all.begin(), all.end());
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double avg_rank = 0.5 * double(i + 1 + j);  // ranks i+1 .. j
    const double t = double(j - i);
    tie_term += t * t * t - t;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second == 0) rank_sum_a += avg_rank;
    i = j;
  }
  const double u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (var <= 0) return 1.0;  // every value equal
  const double z = (std::fabs(u - mean) - 0.5) / std::sqrt(var);
  return std::erfc(std::max(z, 0.0) / std::sqrt(2.0));
}

double smallest_mann_whitney_p(std::size_t n1, std::size_t n2) {
  std::vector<double> a(n1), b(n2);
  std::iota(a.begin(), a.end(), 0.0);
  std::iota(b.begin(), b.end(), double(n1));
  return mann_whitney_p(a, b);
}

}  // namespace gpubench
