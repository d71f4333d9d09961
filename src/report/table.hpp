// Human-readable reports: the ladder table for a terminal, or as markdown.
#pragma once

#include <string>

#include "src/report/result.hpp"

namespace gpubench {

std::string format_device_line(const DeviceInfo& d);
std::string format_table(const RunReport& report);
std::string format_markdown(const RunReport& report);

// "12.35 us" below a millisecond, "3.142 ms" above.
std::string format_time(double ms);

}  // namespace gpubench
