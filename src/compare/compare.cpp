#include "src/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/stats.hpp"
#include "src/report/columns.hpp"

namespace gpubench::compare {
namespace {

// A row's identity: with the device index where the rows are matched per
// device (by_device).
std::string key(const BenchResult& r, bool by_device) {
  return fmt::format("{} {} {}{}{}", r.pattern, r.variant, r.params.dump(), r.hot ? " hot" : "",
                     by_device && r.device >= 0 ? fmt::format(" device={}", r.device) : "");
}

// A key's n-th row (a config may measure a point twice) gets " #n" from the
// second on, so that it meets the n-th row of that key in the other file.
class KeyNumbering {
 public:
  std::string operator()(std::string k) {
    if (const int n = ++seen_[k]; n > 1) k += fmt::format(" #{}", n);
    return k;
  }

 private:
  std::unordered_map<std::string, int> seen_;
};

// Each row's key in file order, numbered.
std::vector<std::string> keys_of(const RunReport& r, bool by_device) {
  KeyNumbering number;
  std::vector<std::string> keys;
  for (const BenchResult& x : r.results) keys.push_back(number(key(x, by_device)));
  return keys;
}

bool records_devices(const RunReport& r) {
  return std::all_of(r.results.begin(), r.results.end(), [](const BenchResult& x) { return x.device >= 0; });
}

bool several_devices(const RunReport& r) {
  return std::any_of(r.results.begin(), r.results.end(),
                     [&](const BenchResult& x) { return x.device != r.results.front().device; });
}

// Rows are matched per device index where both files record each row's
// device and either ran on several (--devices). A run on one device matches
// whatever index it used (--device 1 against a baseline of device 0), and
// so do files from before rows recorded their device.
bool match_by_device(const RunReport& base, const RunReport& fresh) {
  return records_devices(base) && records_devices(fresh) && (several_devices(base) || several_devices(fresh));
}

// The kinds of GPU a run used, by name, each once and sorted, whatever the
// order the run opened them in ("no GPU" for none).
std::string device_name(const RunReport& r) {
  std::vector<std::string> names;
  for (const DeviceInfo& d : r.devices)
    if (std::find(names.begin(), names.end(), d.name) == names.end()) names.push_back(d.name);
  std::sort(names.begin(), names.end());
  return names.empty() ? "no GPU" : fmt::format("{}", fmt::join(names, ", "));
}

// The throughput a result is judged by: its primary metric.
double throughput(const BenchResult& r) { return r.primary_value().value_or(0.0); }

std::string unit_of(const BenchResult& r) {
  const Metric* m = r.metric(r.primary);
  return m ? m->unit : "";
}

// How many devices ran at once with the row's (1: it ran alone).
int concurrent_devices(const BenchResult& r) {
  const nlohmann::json* n = r.measure.is_object() && r.measure.contains("concurrent_devices") ? &r.measure.at("concurrent_devices") : nullptr;
  return n && n->is_number_integer() ? n->get<int>() : 1;
}

// The row's verdict, with a few words in row.why where it needs them.
Verdict judge(const BenchResult& base, const BenchResult& fresh, Row& row, const Options& o) {
  if (!fresh.verified) return Verdict::failed;
  // Where the times say nothing of the code:
  const char* why = !base.verified ? "base FAIL"   // a wrong baseline sets no pace: take it again
                    : base.throttled() || fresh.throttled() ? "throttled"  // a held-down clock
                    : concurrent_devices(base) != concurrent_devices(fresh) ? "other GPUs busy"
                    : base.spanned_devices() != fresh.spanned_devices() ? "other GPU set"
                                                                         : nullptr;
  if (why) {
    row.why = why;
    return Verdict::unclear;
  }
  const double threshold = o.threshold_for(row.pattern);
  if (std::fabs(row.change) < threshold) return Verdict::same;
  const Verdict direction = row.change > 0 ? Verdict::faster : Verdict::slower;
  // The middle halves of the two runs apart by the threshold: the new run's
  // nearer quartile beyond the base's other one (one stray sample moves
  // neither, as it can move the rank test).
  const double apart = row.change > 0 ? quantile(base.samples_ms, 0.25) / quantile(fresh.samples_ms, 0.75) - 1
                                      : quantile(base.samples_ms, 0.75) / quantile(fresh.samples_ms, 0.25) - 1;
  const bool quartiles_apart = std::fabs(apart) >= threshold && (apart > 0) == (row.change > 0);
  // Too few samples for the rank test ever to say "real" (or one sample a
  // side would let any slowdown pass): the quartiles alone decide.
  if (smallest_mann_whitney_p(base.samples_ms.size(), fresh.samples_ms.size()) >= o.alpha) {
    row.why = "few samples";
    row.p_value = std::nan("");
    return quartiles_apart ? direction : Verdict::unclear;
  }
  if (row.p_value < o.alpha || quartiles_apart) return direction;
  row.why = "noise";
  return Verdict::unclear;
}

}  // namespace

double Options::threshold_for(const std::string& pattern) const {
  const auto own = pattern_threshold.find(pattern);
  return own == pattern_threshold.end() ? threshold : own->second;
}

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::same: return "same";
    case Verdict::unclear: return "unclear";
    case Verdict::failed: return "FAIL";
  }
  return "?";
}

Comparison compare(const RunReport& base, const RunReport& fresh, const Options& o) {
  Comparison c;
  c.base_device = device_name(base);
  c.new_device = device_name(fresh);
  c.options = o;
  if (c.base_device != c.new_device && !o.allow_device_mismatch)
    throw UsageError(fmt::format("the runs used different GPUs ('{}' and '{}'); pass --allow-device-mismatch to compare "
                                 "them anyway",
                                 c.base_device, c.new_device));
  for (const auto& own : o.pattern_threshold) {
    const std::string& pattern = own.first;
    const auto of_pattern = [&](const BenchResult& r) { return r.pattern == pattern; };
    if (std::none_of(base.results.begin(), base.results.end(), of_pattern) &&
        std::none_of(fresh.results.begin(), fresh.results.end(), of_pattern))
      throw UsageError(fmt::format("--threshold: neither file has a result of pattern {}", quoted(nlohmann::json(pattern))));
  }
  const bool by_device = match_by_device(base, fresh);
  const std::vector<std::string> base_keys = keys_of(base, by_device), new_keys = keys_of(fresh, by_device);
  std::unordered_map<std::string, const BenchResult*> base_rows;
  for (std::size_t i = 0; i < base.results.size(); ++i) base_rows.emplace(base_keys[i], &base.results[i]);
  const std::unordered_set<std::string> fresh_keys(new_keys.begin(), new_keys.end());
  for (std::size_t i = 0; i < fresh.results.size(); ++i) {
    const BenchResult& n = fresh.results[i];
    const std::string& k = new_keys[i];
    const auto found = base_rows.find(k);
    if (found == base_rows.end()) {
      c.only_in_new.push_back(k);
      continue;
    }
    const BenchResult* b = found->second;
    if (by_device && !o.allow_device_mismatch) {  // rows meet by device index: the two GPUs must be alike
      const DeviceInfo *bd = device_of(base, b->device), *nd = device_of(fresh, n.device);
      if (bd && nd && bd->name != nd->name)
        throw UsageError(fmt::format("device {} is '{}' in the baseline and '{}' in the new run; pass "
                                     "--allow-device-mismatch to compare them anyway",
                                     n.device, bd->name, nd->name));
    }
    // The baseline's value of the new row's primary metric (a version 1 file may lead with another).
    const Metric* base_metric = b->metric(n.primary);
    Row row{n.pattern, n.variant, n.params, n.hot, by_device ? n.device : -1, unit_of(n),
            base_metric ? base_metric->value : std::nullopt, throughput(n)};
    row.change = b->stats.median_ms / n.stats.median_ms - 1;
    row.p_value = mann_whitney_p(b->samples_ms, n.samples_ms);
    row.verdict = judge(*b, n, row, o);
    c.rows.push_back(row);
  }
  for (const std::string& k : base_keys)
    if (!fresh_keys.count(k)) c.only_in_base.push_back(k);
  // An unavailable step's key as its row's would have been: numbered on
  // from the rows of that key that ran (a point measured twice).
  const std::unordered_set<std::string> missing(c.only_in_base.begin(), c.only_in_base.end());
  KeyNumbering number;
  for (const BenchResult& r : fresh.results) number(key(r, by_device));
  for (const UnavailableStep& u : fresh.unavailable)
    if (std::string k = number(key(u.row, by_device)); missing.count(k)) c.unavailable_in_new.emplace(k, u.why);
  return c;
}

int exit_code(const Comparison& c) {
  const bool regressed = std::any_of(c.rows.begin(), c.rows.end(), [](const Row& r) {
    return r.verdict == Verdict::slower || r.verdict == Verdict::failed;
  });
  const bool missing = !c.only_in_base.empty() && !c.options.allow_missing;
  return regressed || missing || c.rows.empty() ? 1 : 0;
}

std::string format_comparison(const Comparison& c, bool markdown) {
  const Cells header = {"variant", "params", "base", "new", "unit", "change", "p", "verdict"};
  std::vector<Cells> rows;
  const bool several_devices =
      std::any_of(c.rows.begin(), c.rows.end(), [&](const Row& r) { return r.device != c.rows.front().device; });
  for (const Row& r : c.rows) {
    std::string params = params_text(r.params, " ");
    if (r.hot) params += " hot";
    if (several_devices) params += fmt::format(" device={}", r.device);
    rows.push_back({r.variant, params, r.base ? fmt::format("{:.1f}", *r.base) : "-", fmt::format("{:.1f}", r.fresh),
                    r.unit, fmt::format("{:+.1f}%", 100 * r.change),
                    std::isnan(r.p_value) ? "-" : fmt::format("{:.2g}", r.p_value),
                    to_string(r.verdict) + (r.why.empty() ? "" : " (" + r.why + ")")});
  }
  std::string thresholds = fmt::format("{:g}%", 100 * c.options.threshold);
  for (const auto& [pattern, t] : c.options.pattern_threshold) thresholds += fmt::format(", {} {:g}%", pattern, 100 * t);
  std::string out = fmt::format("base: {}  new: {}  threshold {}  alpha {}\n", c.base_device, c.new_device,
                                thresholds, c.options.alpha);
  const std::vector<bool> left = {true, true, false, false, true, false, false, true};
  // Markdown: blank lines around the table, or the lines after it would read as its rows.
  out += markdown ? "\n" + markdown_columns(header, rows, left) + "\n" : text_columns(header, rows, left, false);
  for (const auto& k : c.only_in_base) {
    const auto why = c.unavailable_in_new.find(k);
    out += "only in base: " + k + (why == c.unavailable_in_new.end() ? "" : " (unavailable in the new run: " + why->second + ")") + "\n";
  }
  for (const auto& k : c.only_in_new) out += "only in new: " + k + "\n";
  const auto count = [&](Verdict v) {
    return std::count_if(c.rows.begin(), c.rows.end(), [v](const Row& r) { return r.verdict == v; });
  };
  out += fmt::format("{} rows: {} faster, {} slower, {} same, {} unclear, {} FAIL\n", c.rows.size(),
                     count(Verdict::faster), count(Verdict::slower), count(Verdict::same), count(Verdict::unclear),
                     count(Verdict::failed));
  if (c.rows.empty()) out += "FAIL: no result of the new run matches one of the baseline\n";
  if (!c.only_in_base.empty() && !c.options.allow_missing)
    out += fmt::format("FAIL: {} results of the baseline are missing from the new run (--allow-missing accepts that)\n",
                       c.only_in_base.size());
  return out;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json rows = nlohmann::json::array(), unavailable = nlohmann::json::object();
  for (const auto& [k, why] : c.unavailable_in_new) unavailable[k] = why;
  for (const Row& r : c.rows)
    rows.push_back({{"pattern", r.pattern},
                    {"variant", r.variant},
                    {"params", r.params},
                    {"l2", r.hot ? "hot" : "flushed"},
                    {"device", r.device < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.device)},
                    {"unit", r.unit},
                    {"base", r.base ? nlohmann::json(*r.base) : nlohmann::json(nullptr)},
                    {"new", r.fresh},
                    {"change", r.change},
                    {"p_value", std::isnan(r.p_value) ? nlohmann::json(nullptr) : nlohmann::json(r.p_value)},
                    {"verdict", to_string(r.verdict)},
                    {"why", r.why.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.why)}});
  // Version 2: throughput as unit/base/new (version 1 had base_gbps/new_gbps).
  return {{"schema_version", 2},
          {"kind", "comparison"},
          {"base_device", c.base_device},
          {"new_device", c.new_device},
          {"threshold", c.options.threshold},
          {"pattern_thresholds", c.options.pattern_threshold},
          {"alpha", c.options.alpha},
          {"allow_missing", c.options.allow_missing},
          {"exit_code", exit_code(c)},
          {"rows", rows},
          {"only_in_base", c.only_in_base},
          {"only_in_new", c.only_in_new},
          {"unavailable_in_new", unavailable}};
}

}  // namespace gpubench::compare
