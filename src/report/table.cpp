#include "src/report/table.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "src/report/columns.hpp"
#include "src/detail/json_text.hpp"

namespace gpubench {
namespace {

std::string opt_fmt(const std::optional<double>& v, const char* f) {
  return v ? fmt::format(fmt::runtime(f), *v) : "-";
}

std::string metric_cell(const Metric* m) {
  if (!m || !m->value) return "-";
  return fmt::format("{:.{}f}{}", *m->value, m->digits, m->unit == "%" ? "%" : "");
}

// A group's columns: its rows' tags and metrics, each in the order first seen.
struct Layout {
  std::vector<std::string> tags;
  std::vector<const Metric*> metrics;  // one per metric name, for its label
};

Layout layout_of(const std::vector<const BenchResult*>& rows) {
  Layout l;
  for (const BenchResult* r : rows) {
    for (const auto& [key, value] : r->tags.items())
      if (std::find(l.tags.begin(), l.tags.end(), key) == l.tags.end()) l.tags.push_back(key);
    for (const Metric& m : r->metrics)
      if (std::none_of(l.metrics.begin(), l.metrics.end(), [&](const Metric* x) { return x->name == m.name; }))
        l.metrics.push_back(&m);
  }
  return l;
}

// The same point of the same pattern, on the same device and L2 setting.
bool same_run(const BenchResult& a, const BenchResult& b) {
  return a.pattern == b.pattern && a.params == b.params && a.hot == b.hot && a.device == b.device;
}

constexpr const char* kPowerCell = "no (power)";
constexpr const char* kPowerLegend =
    "no (power): at the GPU's rated power limit, the SM clock (MHz) held down by the step's own draw, not by heat "
    "or a lowered limit\n";

// The header, which columns are text, and the rows of results [begin, end).
struct Table {
  Cells header;
  std::vector<bool> left;
  std::vector<Cells> rows;
};

// Where an unavailable step's row stands: before results[place], or after
// its run's rows where its file does not say.
std::size_t place(const UnavailableStep& u) {
  return u.at == UnavailableStep::kAfterItsRun ? u.at : u.first + u.at;
}

// The rows of results [begin, end) and of `unavailable`, the steps of the
// same run that could not run, each in its ladder place.
Table table_of(const RunReport& report, std::size_t begin, std::size_t end,
               const std::vector<const UnavailableStep*>& unavailable) {
  const auto& rs = report.results;
  std::vector<const BenchResult*> rows;
  for (std::size_t i = begin; i < end; ++i) rows.push_back(&rs[i]);
  for (const UnavailableStep* u : unavailable) rows.push_back(&u->row);
  const Layout l = layout_of(rows);
  Table t;
  t.header = {"variant", "step"};
  t.header.insert(t.header.end(), l.tags.begin(), l.tags.end());
  t.header.push_back("median");
  for (const Metric* m : l.metrics) t.header.push_back(m->label);
  for (const char* h : {"step x", "total x", "noise"}) t.header.push_back(h);
  // Rows with a clock record say whether the clock was held down while sampled.
  const bool clocked =
      std::any_of(rs.begin() + long(begin), rs.begin() + long(end), [](const BenchResult& r) { return r.clocks.is_object(); });
  if (clocked) t.header.push_back("throttled");
  t.header.push_back("check");
  t.left.assign(t.header.size(), false);
  std::fill(t.left.begin(), t.left.begin() + 2 + long(l.tags.size()), true);
  const auto unavailable_row = [&](const BenchResult& u) {
    Cells row = {u.variant, u.summary};
    for (const std::string& tag : l.tags) row.push_back(u.tags.contains(tag) ? value_text(u.tags.at(tag)) : "-");
    row.resize(t.header.size() - 1, "-");
    row.push_back("unavailable");
    t.rows.push_back(std::move(row));
  };
  std::vector<bool> shown(unavailable.size(), false);
  const auto unavailable_rows_before = [&](std::size_t i) {  // i = end: all that are left
    for (std::size_t k = 0; k < unavailable.size(); ++k)
      if (!shown[k] && (i == end || place(*unavailable[k]) == i)) {
        unavailable_row(unavailable[k]->row);
        shown[k] = true;
      }
  };
  for (std::size_t i = begin; i < end; ++i) {
    unavailable_rows_before(i);
    const BenchResult& r = rs[i];
    const bool timed = !r.samples_ms.empty();
    Cells row = {r.variant, r.summary};
    for (const std::string& tag : l.tags) row.push_back(r.tags.contains(tag) ? value_text(r.tags.at(tag)) : "-");
    row.push_back(timed ? format_time(r.stats.median_ms) : "-");
    for (const Metric* m : l.metrics) row.push_back(timed ? metric_cell(r.metric(m->name)) : "-");
    row.push_back(opt_fmt(step_speedup(rs, i), "{:.2f}x"));
    row.push_back(opt_fmt(total_speedup(rs, i), "{:.2f}x"));
    row.push_back(timed ? fmt::format("{:.1f}%", 100 * r.stats.noise) : "-");
    if (clocked) row.push_back(!r.clocks.is_object() ? "-" : r.throttled() ? "YES" : r.power_limited() ? kPowerCell : "no");
    row.push_back(r.verified ? "PASS" : "FAIL");
    t.rows.push_back(std::move(row));
  }
  unavailable_rows_before(end);
  return t;
}

std::string params_line(const BenchResult& r) {
  return fmt::format("{} {} L2={}", r.pattern, params_text(r.params, " "), r.hot ? "hot" : "flushed");
}

// The failed rows, then why each step that could not run could not (once
// a reason and device: a sweep has it at every point). `on_each`: "device" or
// "rank" where the tables name theirs, else empty.
std::string failures(const RunReport& report, const std::string& on_each) {
  std::string out;
  for (const auto& r : report.results)
    if (r.error) out += fmt::format("FAIL {} ({}): {}\n", r.variant, r.params.dump(), *r.error);
  std::vector<std::string> said;
  for (const UnavailableStep& u : report.unavailable) {
    const std::string on = on_each.empty() ? "" : fmt::format(" on {} {}", on_each, u.row.device);
    const std::string line = fmt::format("unavailable: {} {}{}: {}\n", u.row.pattern, u.row.variant, on, u.why);
    if (std::find(said.begin(), said.end(), line) == said.end()) said.push_back(line);
  }
  for (const std::string& line : said) out += line;
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
  const std::string where = d.rank < 0 ? "" : fmt::format(" on {} (rank {}, CUDA device {})", d.host, d.rank, d.cuda_index);
  return fmt::format("{} (cc {}.{}, {} SMs, L2 {} MiB, {:.1f} GiB){}: theoretical {:.0f} GB/s, measured copy {:.0f} GB/s",
                     d.name, d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / (1 << 20),
                     d.memory_bytes / double(1ull << 30), where, d.theoretical_gbps, d.copy_gbps);
}

// One device: its line first. Several: each device's line before its
// first table, and every table's line names its device.
template <class Columns>
std::string format_groups(const RunReport& report, const std::string& gap, Columns&& columns) {
  std::string out;
  // A report merged from several ranks: each rank's tables, named by rank
  // (its GPU is device `rank`), also for host steps that opened no GPU.
  const nlohmann::json* launched =
      report.launch.is_object() && report.launch.contains("ranks") ? &report.launch.at("ranks") : nullptr;
  const bool ranks = launched && launched->is_number_integer() && launched->get<long long>() > 1;
  // Host rows run with --devices open no GPU, but still say which run they are.
  const bool rows_on_several = std::any_of(report.results.begin(), report.results.end(), [&](const BenchResult& r) {
    return r.device != report.results.front().device;
  });
  const bool several = report.devices.size() > 1 || ranks || rows_on_several;
  if (!several && report.devices.size() == 1) out += format_device_line(report.devices.front()) + "\n";
  int shown = -1;
  // One run's table: results [begin, end) (`first` the first) and its unavailable steps.
  const auto table = [&](const BenchResult& first, std::size_t begin, std::size_t end,
                         const std::vector<const UnavailableStep*>& unavailable) {
    const DeviceInfo* d = device_of(report, first.device);
    if (several && d && first.device != shown) {
      out += fmt::format("\ndevice {}: {}\n", d->index, format_device_line(*d));
      shown = first.device;
    }
    const Table t = table_of(report, begin, end, unavailable);
    out += "\n" + params_line(first) + (several ? fmt::format(" {}={}", ranks ? "rank" : "device", first.device) : "") +
           "\n" + gap + columns(t);
    const auto powered = [](const Cells& row) { return std::find(row.begin(), row.end(), kPowerCell) != row.end(); };
    if (std::any_of(t.rows.begin(), t.rows.end(), powered)) out += gap + kPowerLegend;
  };
  // The unavailable steps are in run order, each with where its run's rows
  // start: a group's come with it, and a run none of whose steps ran gets a
  // table of its own where its rows would have been.
  const auto& un = report.unavailable;
  std::size_t next = 0;
  const auto run_without_rows = [&] {
    const UnavailableStep& lead = un[next];
    std::vector<const UnavailableStep*> rows;
    while (next < un.size() && un[next].first == lead.first && same_run(un[next].row, lead.row))
      rows.push_back(&un[next++]);
    table(lead.row, 0, 0, rows);
  };
  for_each_group(report, [&](std::size_t begin, std::size_t end) {
    std::vector<const UnavailableStep*> rows;
    while (next < un.size() && un[next].first < end) {
      if (same_run(un[next].row, report.results[begin])) rows.push_back(&un[next++]);
      else run_without_rows();
    }
    table(report.results[begin], begin, end, rows);
  });
  while (next < un.size()) run_without_rows();
  const std::string footer = failures(report, several ? (ranks ? "rank" : "device") : "");
  // Markdown: a blank line, or the lines would read as the table's rows.
  return out + (footer.empty() ? "" : gap + footer);
}

std::string format_table(const RunReport& report) {
  return format_groups(report, "", [](const Table& t) { return text_columns(t.header, t.rows, t.left, true); });
}

std::string format_markdown(const RunReport& report) {
  return format_groups(report, "\n", [](const Table& t) { return markdown_columns(t.header, t.rows, t.left); });
}

}  // namespace gpubench
