// One unit of work that a pattern command or a config asks for: a line that
// describes it (for progress) and the call that runs it.
#pragma once

#include <functional>
#include <string>

#include "src/report/result.hpp"

namespace gpubench {

struct PlannedRun {
  std::string description;
  std::function<RunReport()> run;
};

}  // namespace gpubench
