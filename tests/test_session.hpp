// The tests' main: Catch2's implementation is compiled once, in
// test_session.cpp, for every test binary (the single header's
// implementation is the slowest part of the tests' build).
#pragma once

#include <string>

namespace gpubench::testing {

// Runs the tests the command line selects. With min_devices > 0 and fewer
// CUDA devices than that, runs nothing and returns 77, which ctest
// (SKIP_RETURN_CODE) reports as skipped rather than passed; listing the
// tests works everywhere, so ctest can discover them without a GPU.
int run_tests(int argc, char** argv, int min_devices);

// Marks the running test case skipped (Catch2 2 has no skip of its own) and
// prints "SKIPPED: CASE: why"; the case must return right after, as in
// `return skip_case("...")` (a helper that skips may be called again in the
// same case: the case counts once). A run whose every test case skipped returns 77,
// so ctest, which runs one case a process, reports the case as skipped, not
// passed; in a run of many cases the others decide the exit status.
void skip_case(const std::string& why);

}  // namespace gpubench::testing
