#include "src/report/result.hpp"

namespace gpubench {
namespace {

bool timed(const BenchResult& r) { return !r.samples_ms.empty() && r.stats.median_ms > 0; }

}  // namespace

std::optional<double> step_speedup(const std::vector<BenchResult>& rs, std::size_t i) {
  if (rs[i].ladder == "baseline" || !timed(rs[i])) return std::nullopt;
  for (std::size_t j = i; j-- > 0;) {
    if (rs[j].ladder != rs[i].ladder) continue;
    if (!timed(rs[j])) return std::nullopt;
    return rs[j].stats.median_ms / rs[i].stats.median_ms;
  }
  return std::nullopt;
}

std::optional<double> total_speedup(const std::vector<BenchResult>& rs, std::size_t i) {
  if (i == 0 || !timed(rs[0]) || !timed(rs[i])) return std::nullopt;
  return rs[0].stats.median_ms / rs[i].stats.median_ms;
}

}  // namespace gpubench
