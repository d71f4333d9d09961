#include "src/report/table.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "src/report/columns.hpp"

namespace gpubench {
namespace {

// The columns of a group: throughput columns differ by pattern.
struct Layout {
  Cells header;
  std::vector<bool> left;
};

const Layout kBandwidth = {
    {"variant", "step", "median", "GB/s", "% peak", "% copy", "step x", "total x", "noise", "check"},
    {true, true, false, false, false, false, false, false, false, false}};
const Layout kArithmetic = {{"variant", "step", "prec", "median", "TFLOP/s", "% lib", "% fp32", "step x", "total x",
                             "regs", "smem", "local", "noise", "check"},
                            {true, true, true, false, false, false, false, false, false, false, false, false, false,
                             false}};

const Layout kScan = {
    {"variant", "step", "median", "GB/s", "% peak", "% copy", "adds/elem", "step x", "total x", "noise", "check"},
    {true, true, false, false, false, false, false, false, false, false, false}};

const Layout& layout_of(const RunReport& report, std::size_t i) {
  const BenchResult& r = report.results[i];
  if (r.gflops) return kArithmetic;
  return r.pattern == "scan" ? kScan : kBandwidth;
}

std::string opt_fmt(const std::optional<double>& v, const char* f) {
  return v ? fmt::format(fmt::runtime(f), *v) : "-";
}

std::string resource(const BenchResult& r, const char* key) {
  return r.resources.is_object() ? std::to_string(r.resources.at(key).get<int>()) : "-";
}

// Rows of results [begin, end).
std::vector<Cells> rows(const RunReport& report, std::size_t begin, std::size_t end) {
  std::vector<Cells> out;
  const auto& rs = report.results;
  for (std::size_t i = begin; i < end; ++i) {
    const BenchResult& r = rs[i];
    const bool timed = !r.samples_ms.empty();
    const std::string median = timed ? format_time(r.stats.median_ms) : "-";
    const std::string noise = timed ? fmt::format("{:.1f}%", 100 * r.stats.noise) : "-";
    const std::string step = opt_fmt(step_speedup(rs, i), "{:.2f}x"), total = opt_fmt(total_speedup(rs, i), "{:.2f}x");
    const std::string check = r.verified ? "PASS" : "FAIL";
    if (r.gflops) {
      out.push_back({r.variant, r.summary, r.precision, median, fmt::format("{:.2f}", *r.gflops / 1000),
                     opt_fmt(r.pct_of_library, "{:.1f}%"), opt_fmt(r.pct_of_fp32_peak, "{:.1f}%"), step, total,
                     resource(r, "registers"), resource(r, "shared_bytes"), resource(r, "local_bytes"), noise, check});
    } else if (r.pattern == "scan") {
      out.push_back({r.variant, r.summary, median, timed ? fmt::format("{:.1f}", r.gbps) : "-",
                     opt_fmt(r.pct_of_peak, "{:.1f}%"), opt_fmt(r.pct_of_copy, "{:.1f}%"),
                     opt_fmt(r.adds_per_element, "{:.2f}"), step, total, noise, check});
    } else {
      out.push_back({r.variant, r.summary, median, timed ? fmt::format("{:.1f}", r.gbps) : "-",
                     opt_fmt(r.pct_of_peak, "{:.1f}%"), opt_fmt(r.pct_of_copy, "{:.1f}%"), step, total, noise, check});
    }
  }
  return out;
}

std::string params_line(const RunReport& report, std::size_t i) {
  const BenchResult& r = report.results[i];
  std::string params;
  for (const auto& [key, value] : r.params.items())
    params += fmt::format(" {}={}", key, value.is_string() ? value.get<std::string>() : value.dump());
  return fmt::format("{}{} L2={}", r.pattern, params, r.hot ? "hot" : "flushed");
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
    const Layout& l = layout_of(report, begin);
    out += "\n" + params_line(report, begin) + "\n" + text_columns(l.header, rows(report, begin, end), l.left, true);
  });
  return out + failures(report);
}

std::string format_markdown(const RunReport& report) {
  std::string out;
  if (report.device) out += format_device_line(*report.device) + "\n";
  for_each_group(report, [&](std::size_t begin, std::size_t end) {
    const Layout& l = layout_of(report, begin);
    out += "\n" + params_line(report, begin) + "\n\n" + markdown_columns(l.header, rows(report, begin, end), l.left);
  });
  return out + failures(report);
}

}  // namespace gpubench
