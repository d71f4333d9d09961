#include "src/patterns/gemm/gemm_check.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"

namespace gpubench::gemm {

std::vector<float> host_reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
  std::vector<float> ref(std::size_t(m) * n);
  parallel_chunks(
      m,
      [&](unsigned, std::int64_t r0, std::int64_t r1) {
        std::vector<double> row(n);
        for (std::int64_t i = r0; i < r1; ++i) {
          std::fill(row.begin(), row.end(), 0.0);
          for (int p = 0; p < k; ++p) {
            const double av = a[std::size_t(i) * k + p];
            const float* brow = &b[std::size_t(p) * n];
            for (int j = 0; j < n; ++j) row[j] += av * brow[j];
          }
          for (int j = 0; j < n; ++j) ref[std::size_t(i) * n + j] = float(row[j]);
        }
      },
      1);
  return ref;
}

Verdict check_product(const std::vector<float>& c, const std::vector<float>& ref, Precision p) {
  const double tol = p == Precision::tf32 ? 1e-2 : 2e-4;
  std::mutex mu;
  double sum_sq = 0, worst = 0;
  std::int64_t worst_at = -1, nan_at = -1;
  parallel_chunks(std::int64_t(c.size()), [&](unsigned, std::int64_t b, std::int64_t e) {
    double local_sq = 0, local_worst = 0;
    std::int64_t local_at = -1, local_nan = -1;
    for (std::int64_t i = b; i < e; ++i) {
      local_sq += double(ref[i]) * ref[i];
      if (std::isnan(c[i])) {
        if (local_nan < 0) local_nan = i;
        continue;
      }
      const double d = std::fabs(double(c[i]) - ref[i]);
      if (d > local_worst) local_worst = d, local_at = i;
    }
    std::lock_guard<std::mutex> lock(mu);
    sum_sq += local_sq;
    if (local_worst > worst) worst = local_worst, worst_at = local_at;
    if (local_nan >= 0 && (nan_at < 0 || local_nan < nan_at)) nan_at = local_nan;
  });
  if (nan_at >= 0) return {false, fmt::format("element {} is NaN (unwritten or invalid)", nan_at)};
  const double rms = std::sqrt(sum_sq / double(std::max<std::size_t>(c.size(), 1)));
  if (worst <= tol * rms) return {true, ""};
  return {false, fmt::format("element {}: got {}, expected {} (|error| {:.3g} > {:.1g} x rms {:.3g})", worst_at,
                             c[worst_at], ref[worst_at], worst, tol, rms)};
}

}  // namespace gpubench::gemm
