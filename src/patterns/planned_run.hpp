// One unit of work that a pattern command or a config asks for: a line that
// describes it (for progress), a check that every run passes before the
// first one starts, and the call that runs it.
#pragma once

#include <functional>
#include <string>

#include "src/report/result.hpp"

namespace gpubench {

struct PlannedRun {
  std::string description;
  std::function<void()> check;  // throws for what would make run() fail early; allocates nothing
  std::function<RunReport()> run;
};

}  // namespace gpubench
