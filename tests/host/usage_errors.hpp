// Bad axis values through the real command line: each case is one line on
// stderr, containing what it names, and exit 2.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "src/core/registry.hpp"
#include "tests/host/cli_outcome.hpp"

namespace gpubench::testing {

// Runs `gpubench prefix... args...` for every {args, fragment} case.
inline void expect_usage_errors(const std::vector<std::string>& prefix,
                                const std::vector<std::pair<std::vector<std::string>, std::string>>& cases) {
  for (const auto& [args, fragment] : cases) {
    std::vector<std::string> argv = prefix;
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome r = run_gpubench(builtin_patterns(), argv);
    INFO(r.err);
    CHECK(r.rc == 2);
    CHECK(r.err.find(fragment) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

}  // namespace gpubench::testing
