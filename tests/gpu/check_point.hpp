// Runs the chosen steps of a pattern at one point through the benchmark
// itself (output poisoned before each run, checked after the first and the
// last; steps that cannot take the point are skipped with a note) and
// expects every row verified.
#pragma once

#include <catch2/catch.hpp>

#include <iostream>
#include <string>

#include "src/core/registry.hpp"
#include "src/core/runner.hpp"

namespace gpubench::testing {

inline void check_point(const std::string& pattern, const Point& point, const std::string& variants = "all") {
  const RunRequest req{builtin_patterns().find(pattern), point, variants, 0, {0, 1, 0.0, 1, false}};
  const RunReport rep = run(req, std::cerr);
  CHECK(!rep.results.empty());
  for (const auto& r : rep.results) {
    INFO(r.variant << " " << r.params.dump() << ": " << r.error.value_or(""));
    CHECK(r.verified);
  }
}

}  // namespace gpubench::testing
