// Picking ladder steps by name, shared by every pattern.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {

// The steps of `all` named in a comma-separated list ("all" for every one),
// in ladder order. Throws UsageError naming the valid steps for an unknown name.
template <class Step>
std::vector<Step> select_by_name(const std::vector<Step>& all, const std::string& names, const char* pattern) {
  if (names == "all") return all;
  const std::vector<std::string> wanted = split(names, ',');
  for (const std::string& w : wanted) {
    if (std::none_of(all.begin(), all.end(), [&](const Step& s) { return w == s.name; })) {
      std::vector<std::string> valid{"all"};
      for (const Step& s : all) valid.emplace_back(s.name);
      throw UsageError(fmt::format("unknown {} variant '{}'; valid: {}", pattern, w, fmt::join(valid, ", ")));
    }
  }
  std::vector<Step> chosen;
  for (const Step& s : all)
    if (std::find(wanted.begin(), wanted.end(), s.name) != wanted.end()) chosen.push_back(s);
  return chosen;
}

}  // namespace gpubench
