// One CSV row per result, for spreadsheets.
#pragma once

#include <string>

#include "src/report/result.hpp"

namespace gpubench {

std::string format_csv(const RunReport& report);

}  // namespace gpubench
