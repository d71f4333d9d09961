// Runs the chosen steps of a pattern at one point through the benchmark
// itself (output poisoned before each run, checked after the first and the
// last; steps that cannot take the point are skipped with a note), with
// `samples` timed runs after the first, and expects every row verified, and a
// row or a skip note for every chosen step.
#pragma once

#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <string>

#include "src/core/registry.hpp"
#include "src/core/runner.hpp"

namespace gpubench::testing {

inline void check_point(const std::string& pattern, const Point& point, const std::string& variants = "all",
                        int samples = 1) {
  const Pattern* p = builtin_patterns().find(pattern);
  REQUIRE(p != nullptr);
  const RunRequest req{p, point, variants, 0, {0, samples, 0.0, samples, false}};
  std::ostringstream notes;
  const RunReport rep = run(req, notes);
  const std::string text = notes.str();
  std::cerr << text;
  std::size_t skipped = 0;
  for (std::size_t at = text.find("note: skipped "); at != std::string::npos; at = text.find("note: skipped ", at + 1))
    ++skipped;
  INFO(pattern << " " << nlohmann::json(point).dump() << " variants=" << variants << "\n" << text);
  CHECK(!rep.results.empty());
  CHECK(rep.results.size() + skipped == select_steps(*p, variants).size());
  for (const auto& r : rep.results) {
    INFO(r.variant << " " << r.params.dump() << ": " << r.error.value_or(""));
    CHECK(r.verified);
  }
}

}  // namespace gpubench::testing
