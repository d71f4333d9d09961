// GPU tests: without a CUDA device every test exits with 77, which ctest
// (SKIP_RETURN_CODE) reports as skipped rather than passed. Listing the tests
// works everywhere, so ctest can discover them on machines without a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "src/detail/device.hpp"

int main(int argc, char** argv) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  if (!listing && gpubench::cuda_device_count() == 0) {
    std::cout << "SKIPPED: no CUDA device\n";
    return 77;
  }
  return session.run();
}
