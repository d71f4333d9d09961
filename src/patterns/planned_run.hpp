// One unit of work that a pattern command or a config asks for: a line that
// describes it (for progress), a check that every run passes before the
// first one starts, and the call that runs it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/report/result.hpp"

namespace gpubench {

struct PlannedRun {
  std::string description;
  std::function<void()> check;  // throws for what would make run() fail early; allocates nothing
  std::function<RunReport()> run;
};

// One run per size of a pattern whose Options has an `n`; the other options
// from base. check, run and describe are the pattern's.
template <class Options>
std::vector<PlannedRun> plan_each_size(const Options& base, const std::vector<std::int64_t>& sizes,
                                       void (*check)(const Options&), RunReport (*run)(const Options&),
                                       std::string (*describe)(const Options&)) {
  std::vector<PlannedRun> runs;
  for (const std::int64_t n : sizes) {
    Options o = base;
    o.n = n;
    runs.push_back({describe(o), [o, check] { check(o); }, [o, run] { return run(o); }});
  }
  return runs;
}

}  // namespace gpubench
