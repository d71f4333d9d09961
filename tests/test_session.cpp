#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "src/detail/device.hpp"
#include "tests/test_session.hpp"

namespace gpubench::testing {

int run_tests(int argc, char** argv, int min_devices) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  if (min_devices > 0 && !listing && cuda_device_count() < min_devices) {
    std::cout << "SKIPPED: " << cuda_device_count() << " CUDA devices, these tests need " << min_devices << "\n";
    return 77;
  }
  return session.run();
}

}  // namespace gpubench::testing
