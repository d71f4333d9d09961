// GPU tests: without a CUDA device every test exits with 77, which ctest
// (SKIP_RETURN_CODE) reports as skipped rather than passed. Listing the tests
// works everywhere, so ctest can discover them on machines without a GPU.
// Built with GPUBENCH_TEST_MIN_DEVICES=N, they need N devices to run.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "src/detail/device.hpp"

#ifndef GPUBENCH_TEST_MIN_DEVICES
#define GPUBENCH_TEST_MIN_DEVICES 1
#endif

int main(int argc, char** argv) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  if (!listing && gpubench::cuda_device_count() < GPUBENCH_TEST_MIN_DEVICES) {
    std::cout << "SKIPPED: " << gpubench::cuda_device_count() << " CUDA devices, these tests need "
              << GPUBENCH_TEST_MIN_DEVICES << "\n";
    return 77;
  }
  return session.run();
}
