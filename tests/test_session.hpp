// The tests' main: Catch2's implementation is compiled once, in
// test_session.cpp, for every test binary (the single header's
// implementation is the slowest part of the tests' build).
#pragma once

namespace gpubench::testing {

// Runs the tests the command line selects. With min_devices > 0 and fewer
// CUDA devices than that, runs nothing and returns 77, which ctest
// (SKIP_RETURN_CODE) reports as skipped rather than passed; listing the
// tests works everywhere, so ctest can discover them without a GPU.
int run_tests(int argc, char** argv, int min_devices);

}  // namespace gpubench::testing
