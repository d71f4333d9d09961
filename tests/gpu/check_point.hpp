// Runs the chosen steps of a pattern at one point through the benchmark
// itself (output poisoned before each run, checked after the first and the
// last; steps that cannot take the point are unavailable rows), with
// `samples` timed runs after the first, and expects every row verified, a row
// that ran or an unavailable one for every chosen step, and at least one row from the GPU. A
// point that needs more memory than the machine has free is not run and marks
// the test case skipped (the case's other points still run and are checked).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "src/core/registry.hpp"
#include "src/core/runner.hpp"
#include "src/detail/errors.hpp"
#include "tests/test_session.hpp"

namespace gpubench::testing {

inline void check_point(const std::string& pattern, const Point& point, const std::string& variants = "all",
                        int samples = 1) {
  const Pattern* p = builtin_patterns().find(pattern);
  REQUIRE(p != nullptr);
  const RunRequest req{p, point, variants, 0, {0, samples, 0.0, samples, false}};
  std::ostringstream notes;
  RunReport rep;
  try {
    rep = run(req, notes);
  } catch (const UsageError& e) {  // a point past this machine's memory is skipped, not failed
    const std::string why = e.what();
    if (why.find(" of device memory") == std::string::npos && why.find(" of host memory") == std::string::npos) throw;
    return skip_case(why);
  }
  const std::string text = notes.str();
  std::cerr << text;
  // Each reason once a process: a test walks many points that one step cannot take.
  static std::set<std::string> said;
  for (const UnavailableStep& u : rep.unavailable)
    if (const std::string line = "unavailable: " + pattern + " " + u.row.variant + ": " + u.why; said.insert(line).second)
      std::cerr << line << "\n";
  INFO(pattern << " " << nlohmann::json(point).dump() << " variants=" << variants << "\n" << text);
  // At least one row from the GPU: a run whose every device step was unavailable has checked none.
  CHECK(std::any_of(rep.results.begin(), rep.results.end(), [](const BenchResult& r) { return r.on_device; }));
  CHECK(rep.results.size() + rep.unavailable.size() == select_steps(*p, variants).size());
  for (const auto& r : rep.results) {
    INFO(r.variant << " " << r.params.dump() << ": " << r.error.value_or(""));
    CHECK(r.verified);
  }
}

}  // namespace gpubench::testing
