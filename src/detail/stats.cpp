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

}  // namespace gpubench
