// Compares two result documents row by row, for a regression gate.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/report/result.hpp"

namespace gpubench::compare {

struct Options {
  double threshold = 0.05;  // relative change below which a row is "same" (above 0)
  // A pattern's own threshold in place of `threshold` (rows that vary more
  // between processes, such as copies over PCIe, may need a wider one).
  std::map<std::string, double> pattern_threshold;
  double alpha = 0.01;      // Mann-Whitney p-value below which a change is real
  bool allow_device_mismatch = false;
  bool allow_missing = false;  // rows of the baseline absent from the new run do not fail the gate

  double threshold_for(const std::string& pattern) const;
};

// faster / slower: beyond the threshold, and significant or with the runs'
// middle halves apart by the threshold (the quartiles alone decide where the
// samples are too few for the rank test). same: within
// the threshold. unclear: the times say nothing of the code (Row::why), or the
// change is beyond the threshold but not significant (noise). failed: the new
// result did not verify, a regression whatever its speed.
enum class Verdict { faster, slower, same, unclear, failed };
std::string to_string(Verdict v);

struct Row {
  std::string pattern, variant;
  nlohmann::json params;
  bool hot = false;
  int device = -1;   // the rows' device, where both files record it
  std::string unit;  // of the results' primary metric: "GB/s", "TFLOP/s"
  std::optional<double> base;  // throughput in `unit`; none where the baseline lacks that metric
  double fresh = 0;
  double change = 0;  // new / base throughput - 1, from the medians
  double p_value = 1;  // NaN where the samples are too few for the rank test
  Verdict verdict = Verdict::same;
  std::string why{};  // a few words where the verdict needs them: "throttled", "few samples", ...
};

struct Comparison {
  std::string base_device, new_device;
  Options options;
  std::vector<Row> rows;
  std::vector<std::string> only_in_base, only_in_new;  // "variant {params}"
  std::map<std::string, std::string> unavailable_in_new;  // rows of only_in_base the new run could not run: why
};

// Matches results by pattern, variant, params and L2 mode. Throws UsageError
// when the two ran on different GPUs, unless allowed, or when a pattern given
// its own threshold has no result in either file.
Comparison compare(const RunReport& base, const RunReport& fresh, const Options& o);

// 1 when any row is slower or failed, when no row matched, or when the new
// run lacks rows of the baseline (unless allowed); else 0.
int exit_code(const Comparison& c);

std::string format_comparison(const Comparison& c, bool markdown);
nlohmann::json to_json(const Comparison& c);

}  // namespace gpubench::compare
