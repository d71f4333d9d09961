#include "src/patterns/gemm/gemm_check.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"

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

double tolerance(Precision p, int k) {
  const double fp32_accumulation = std::max(2e-4, 16 * 0x1.0p-24 * std::sqrt(double(k)));
  const double tensor_core_accumulation = 5 * (double(k) / 16) * 0x1.0p-23;
  switch (p) {
    case Precision::tf32: return 1e-2;
    case Precision::bf16: return std::max(fp32_accumulation, tensor_core_accumulation);  // see gemm_check.hpp
    case Precision::fp32: break;
  }
  return fp32_accumulation;
}

Verdict check_product(const std::vector<float>& c, const std::vector<float>& ref, Precision p, int k) {
  const double tol = tolerance(p, k);
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

Verdict check_reference_samples(const std::vector<float>& ref, const std::vector<float>& a,
                                const std::vector<float>& b, int m, int n, int k, int samples) {
  double sum_sq = 0;
  for (float v : ref) sum_sq += double(v) * v;
  const double rms = std::sqrt(sum_sq / double(ref.size()));
  const std::uint64_t base = mix(std::uint64_t(m) * 1000003u + std::uint64_t(n) * 1009u + std::uint64_t(k));
  for (int s = 0; s < samples; ++s) {
    const std::uint64_t r = mix(base + std::uint64_t(s));
    const std::int64_t i = std::int64_t(r % std::uint64_t(m)), j = std::int64_t((r >> 32) % std::uint64_t(n));
    double dot = 0;
    for (int p = 0; p < k; ++p) dot += double(a[std::size_t(i) * k + p]) * b[std::size_t(p) * n + j];
    const double err = std::fabs(dot - ref[std::size_t(i) * n + j]);
    if (!(err <= tolerance(Precision::fp32, k) * rms))
      return {false, fmt::format("reference element ({}, {}) is {}, the host computes {}", i, j,
                                 ref[std::size_t(i) * n + j], dot)};
  }
  return {true, ""};
}

}  // namespace gpubench::gemm
