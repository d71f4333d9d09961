// gpubench fleet: the same rows measured on several GPUs (--devices, or one
// result file per node), each GPU's median against the fleet's. A health
// check after a node comes back: a GPU slower than the fleet by more than
// the threshold, or one that computed a wrong result, fails it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "src/report/result.hpp"

namespace gpubench::fleet {

// One result file and what to call it in messages.
struct Input {
  std::string path;
  RunReport report;
};

struct OnDevice {
  std::string device;     // the GPU's UUID (or file and index where the file has none) and name
  double median_ms = 0;
  double vs_fleet = 0;    // median_ms / the fleet's - 1
  bool verified = true;
  bool slow = false;      // vs_fleet above the threshold
};

// A device row (pattern, variant, params, L2 mode) that ran on two GPUs of
// one kind or more, or on one GPU that computed a wrong result (FAIL needs
// no fleet); host rows are left out. GPUs of another kind (an H100
// beside H200s) make a row of their own: each kind is its own fleet.
struct Row {
  std::string what;        // "PATTERN VARIANT a=1 b=2 (L2 flushed)"
  std::string kind;        // the GPUs' name
  bool spans = false;      // one run across several GPUs, filed under the first
  double fleet_median_ms = 0;
  std::vector<OnDevice> devices;
};

// A GPU that lacks rows other GPUs of its kind ran.
struct Incomplete {
  std::string device;
  std::size_t lacking = 0, of = 0;  // rows it lacks, of the rows of its kind
  std::set<std::string> unavailable;  // why its file says the rows it lacks could not run on it, where it does
};

struct Fleet {
  double threshold = 0.05;
  bool allow_missing = false;  // a GPU's missing rows do not fail the check
  std::vector<Row> rows;
  std::size_t single = 0;    // rows that ran on one GPU only: nothing to compare
  std::size_t repeated = 0;  // rows one file holds twice for one GPU: the first is judged
  std::size_t kinds = 0;     // GPU names among the rows
  std::vector<Incomplete> incomplete;
};

// The fleet median is the lower median (of an even count, the smaller of
// the two middle values): of two GPUs, the slower is judged against the
// faster. Throws UsageError when no row ran on two GPUs of one kind or more,
// or when two inputs hold the same row of the same GPU (one GPU would count
// as two).
Fleet judge(const std::vector<Input>& inputs, double threshold, bool allow_missing = false);

std::string format(const Fleet& f, bool markdown);

// 1 when a GPU was slow, failed a check or lacks rows (unless allowed), else 0.
int exit_code(const Fleet& f);

}  // namespace gpubench::fleet
