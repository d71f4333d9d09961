// GPU tests: they need GPUBENCH_TEST_MIN_DEVICES CUDA devices (1 unless the
// build says otherwise), and without them are reported as skipped.
#include "tests/test_session.hpp"

#ifndef GPUBENCH_TEST_MIN_DEVICES
#define GPUBENCH_TEST_MIN_DEVICES 1
#endif

int main(int argc, char** argv) { return gpubench::testing::run_tests(argc, argv, GPUBENCH_TEST_MIN_DEVICES); }
