#include "src/report/table.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "src/report/columns.hpp"

namespace gpubench {
namespace {

const Cells kHeader = {"variant", "step", "median", "GB/s", "% peak", "% copy", "step x", "total x", "noise", "check"};
const std::vector<bool> kLeft = {true, true, false, false, false, false, false, false, false, false};

std::string opt_fmt(const std::optional<double>& v, const char* f) {
  return v ? fmt::format(fmt::runtime(f), *v) : "-";
}

// Rows of results [begin, end).
std::vector<std::vector<std::string>> rows(const RunReport& report, std::size_t begin, std::size_t end) {
  std::vector<std::vector<std::string>> out;
  const auto& rs = report.results;
  for (std::size_t i = begin; i < end; ++i) {
    const BenchResult& r = rs[i];
    const bool timed = !r.samples_ms.empty();
    out.push_back({r.variant, r.summary, timed ? format_time(r.stats.median_ms) : "-",
                   timed ? fmt::format("{:.1f}", r.gbps) : "-", opt_fmt(r.pct_of_peak, "{:.1f}%"),
                   opt_fmt(r.pct_of_copy, "{:.1f}%"), opt_fmt(step_speedup(rs, i), "{:.2f}x"),
                   opt_fmt(total_speedup(rs, i), "{:.2f}x"),
                   timed ? fmt::format("{:.1f}%", 100 * r.stats.noise) : "-", r.verified ? "PASS" : "FAIL"});
  }
  return out;
}

std::string params_line(const RunReport& report, std::size_t i) {
  const auto& p = report.results[i].params;
  return fmt::format("reduce n={} dtype={} op={} block={} L2={}", p.at("n").get<long long>(),
                     p.at("dtype").get<std::string>(), p.at("op").get<std::string>(), p.at("block").get<int>(),
                     report.results[i].hot ? "hot" : "flushed");
}

std::string failures(const RunReport& report) {
  std::string out;
  for (const auto& r : report.results)
    if (r.error) out += fmt::format("FAIL {} ({}): {}\n", r.variant, r.params.dump(), *r.error);
  return out;
}

// Calls f(begin, end) for each group of results with equal params.
template <class F>
void for_each_group(const RunReport& report, F&& f) {
  const auto& rs = report.results;
  for (std::size_t begin = 0, end = 0; begin < rs.size(); begin = end) {
    end = begin + 1;
    while (end < rs.size() && group_start(rs, end) == begin) ++end;
    f(begin, end);
  }
}

}  // namespace

std::string format_time(double ms) {
  return ms < 1.0 ? fmt::format("{:.2f} us", ms * 1e3) : fmt::format("{:.3f} ms", ms);
}

std::string format_device_line(const DeviceInfo& d) {
  return fmt::format("{} (cc {}.{}, {} SMs, L2 {} MiB, {:.1f} GiB): theoretical {:.0f} GB/s, measured copy {:.0f} GB/s",
                     d.name, d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / (1 << 20),
                     d.memory_bytes / double(1ull << 30), d.theoretical_gbps, d.copy_gbps);
}

std::string format_table(const RunReport& report) {
  std::string out;
  if (report.device) out += format_device_line(*report.device) + "\n";
  for_each_group(report, [&](std::size_t begin, std::size_t end) {
    out += "\n" + params_line(report, begin) + "\n" + text_columns(kHeader, rows(report, begin, end), kLeft, true);
  });
  return out + failures(report);
}

std::string format_markdown(const RunReport& report) {
  std::string out;
  if (report.device) out += format_device_line(*report.device) + "\n";
  for_each_group(report, [&](std::size_t begin, std::size_t end) {
    out += "\n" + params_line(report, begin) + "\n\n" + markdown_columns(kHeader, rows(report, begin, end), kLeft);
  });
  return out + failures(report);
}

}  // namespace gpubench
