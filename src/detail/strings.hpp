#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace gpubench {

// 3221225472 -> "3.00 GiB".
inline std::string gib_text(double bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}.
inline std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find(sep, start), text.size());
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

}  // namespace gpubench
