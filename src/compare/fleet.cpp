#include "src/compare/fleet.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/strings.hpp"
#include "src/report/columns.hpp"
#include "src/report/table.hpp"

namespace gpubench::fleet {
namespace {

// "HOST GPU-... (NAME)": the host where the file (or the GPU's entry) says it, the UUID where it
// has one, else the file and the device index (where the rows record one).
// d: the row's entry in the file's devices, or null.
std::string device_label(const Input& in, const BenchResult& r, const DeviceInfo* d) {
  std::string host = d && !d->host.empty() ? d->host : host_name(in.report);  // merged from ranks: the GPU's own
  if (!host.empty()) host += " ";
  if (d && !d->uuid.empty()) return fmt::format("{}{} ({})", host, d->uuid, d->name);
  const std::string index = r.device >= 0 ? fmt::format(" device {}", r.device) : "";  // files before rows had one
  // The path is the user's, and may hold what a terminal would act on.
  return fmt::format("{}{}{}", escape_display_controls(in.path), index, d ? " (" + d->name + ")" : "");
}

// A row's name across files: pattern, variant, point, L2 and the GPUs it spanned.
std::string row_name(const BenchResult& r) {
  const nlohmann::json span = r.spanned_devices();
  return fmt::format("{} {} {} (L2 {}{})", r.pattern, r.variant, params_text(r.params, " "), r.hot ? "hot" : "flushed",
                     span.is_null() ? "" : ", GPUs " + span.dump());
}

double lower_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

}  // namespace

Fleet judge(const std::vector<Input>& inputs, double threshold, bool allow_missing) {
  Fleet f;
  f.threshold = threshold;
  f.allow_missing = allow_missing;
  // By (GPU name, row), in the order of std::map: the same output for the same inputs.
  std::map<std::pair<std::string, std::string>, Row> by_row;
  std::map<std::pair<std::string, std::string>, const Input*> seen;  // (row, GPU) -> the file that holds it
  std::map<std::string, std::set<std::string>> gpus_of_kind;
  std::map<std::pair<std::string, std::string>, std::string> unavailable_on;  // (GPU, row) -> why its file lacks it
  for (const Input& in : inputs) {
    for (const UnavailableStep& u : in.report.unavailable)
      unavailable_on[{device_label(in, u.row, device_of(in.report, u.row.device)), row_name(u.row)}] = u.why;
    for (const BenchResult& r : in.report.results) {
      if (r.samples_ms.empty() || !r.on_device) continue;  // host rows say nothing of a GPU
      const nlohmann::json span = r.spanned_devices();
      const std::string what = row_name(r);
      const DeviceInfo* d = device_of(in.report, r.device);
      const std::string device = device_label(in, r, d);
      const auto [first, fresh] = seen.emplace(std::make_pair(what, device), &in);
      if (!fresh && first->second != &in)  // one GPU's results given twice would count as two GPUs
        throw UsageError(fmt::format("'{}' and '{}' both hold {} on {}", first->second->path, in.path, what, device));
      if (!fresh) {  // one run that measured the point twice (a config may): its first row speaks for the GPU
        ++f.repeated;
        continue;
      }
      const std::string kind = d ? d->name : "";
      gpus_of_kind[kind].insert(device);
      Row& row = by_row[{kind, what}];
      row.what = what;
      row.kind = kind;
      row.spans = !span.is_null();
      row.devices.push_back({device, r.stats.median_ms, 0, r.verified, false});
    }
  }
  f.kinds = gpus_of_kind.size();
  std::map<std::string, Incomplete> incomplete;
  for (auto& [key, row] : by_row) {
    // A row that spanned GPUs is filed under the first of them: the others do not lack it.
    if (!row.spans)
      for (const std::string& gpu : gpus_of_kind[row.kind]) {
        Incomplete& gap = incomplete[gpu];
        gap.device = gpu;
        ++gap.of;
        if (std::any_of(row.devices.begin(), row.devices.end(), [&](const OnDevice& d) { return d.device == gpu; }))
          continue;
        ++gap.lacking;
        if (const auto why = unavailable_on.find({gpu, row.what}); why != unavailable_on.end())
          gap.unavailable.insert(why->second);
      }
    if (row.devices.size() < 2) {
      ++f.single;
      // A wrong result needs no fleet to judge it: the row stays, as FAIL.
      if (!row.devices.front().verified) {
        row.fleet_median_ms = row.devices.front().median_ms;
        f.rows.push_back(std::move(row));
      }
      continue;
    }
    // A GPU that computed a wrong result may be fast: it fails, and does not set the pace.
    std::vector<double> medians;
    for (const OnDevice& d : row.devices)
      if (d.verified) medians.push_back(d.median_ms);
    if (medians.empty()) medians.push_back(row.devices.front().median_ms);
    row.fleet_median_ms = lower_median(medians);
    for (OnDevice& d : row.devices) {
      d.vs_fleet = d.median_ms / row.fleet_median_ms - 1;
      d.slow = d.vs_fleet > threshold;
    }
    f.rows.push_back(std::move(row));
  }
  for (const auto& [gpu, gap] : incomplete)
    if (gap.lacking) f.incomplete.push_back(gap);
  if (std::none_of(f.rows.begin(), f.rows.end(), [](const Row& r) { return r.devices.size() > 1; }))
    throw UsageError(fmt::format("no row ran on two GPUs {}or more, so there is no fleet to compare (run with --devices "
                                 "all, or give one result file per node)",
                                 f.kinds > 1 ? "of one kind " : ""));
  return f;
}

std::string format(const Fleet& f, bool markdown) {
  const Cells header = {"row", "GPU", "median", "vs fleet", "verdict"};
  const std::vector<bool> left = {true, true, false, false, true};
  std::vector<Cells> cells;
  std::size_t slow = 0, failed = 0;
  std::map<std::string, std::size_t> bad_rows, rows_of;  // per GPU: its slow and failed rows, and its rows shown
  std::size_t several = 0;
  for (const Row& row : f.rows) {
    several += row.devices.size() > 1;
    for (const OnDevice& d : row.devices) {
      const char* verdict = !d.verified ? "FAIL" : d.slow ? "SLOW" : "ok";
      slow += d.verified && d.slow;
      failed += !d.verified;
      ++rows_of[d.device];
      if (!d.verified || d.slow) ++bad_rows[d.device];
      const std::string vs = row.devices.size() > 1 ? fmt::format("{:+.1f}%", 100 * d.vs_fleet) : "alone";
      cells.push_back({row.what, d.device, format_time(d.median_ms), vs, verdict});
    }
  }
  // Markdown: a blank line after the table, or the lines after it would read as its rows.
  std::string out = markdown ? markdown_columns(header, cells, left) + "\n" : text_columns(header, cells, left, true);
  out += fmt::format("{} rows on several GPUs (threshold {:g}%): {} slow, {} FAIL", several, 100 * f.threshold, slow,
                     failed);
  if (f.single) out += fmt::format("; {} rows on one GPU only, not judged", f.single);
  if (f.repeated) out += fmt::format("; {} rows measured again on the same GPU in one file, its first row judged", f.repeated);
  if (f.kinds > 1) out += fmt::format("; GPUs of {} kinds, each judged against its own kind", f.kinds);
  out += "\n";
  for (const auto& [device, rows] : bad_rows)
    out += fmt::format("unhealthy: {}, {} of its {} rows shown\n", device, rows, rows_of[device]);
  for (const Incomplete& gap : f.incomplete)
    out += fmt::format("incomplete: {} lacks {} of the {} rows of its kind{}{}\n", gap.device, gap.lacking, gap.of,
                       gap.unavailable.empty() ? "" : fmt::format(" (unavailable there: {})", fmt::join(gap.unavailable, "; ")),
                       f.allow_missing ? "" : " (--allow-missing accepts that)");
  return out;
}

int exit_code(const Fleet& f) {
  if (!f.incomplete.empty() && !f.allow_missing) return 1;
  for (const Row& row : f.rows)
    for (const OnDevice& d : row.devices)
      if (d.slow || !d.verified) return 1;
  return 0;
}

}  // namespace gpubench::fleet
