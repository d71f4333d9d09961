#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>
#include <string>

#include <fmt/format.h>

#include "src/detail/device.hpp"
#include "tests/test_session.hpp"

namespace gpubench::testing {
namespace {

int cases_started = 0, cases_skipped = 0;
bool this_case_skipped = false;  // a case that skips twice (a helper called in a loop) counts once

struct CaseCounter : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo&) override {
    ++cases_started;
    this_case_skipped = false;
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(CaseCounter)

void skip_case(const std::string& why) {
  if (!this_case_skipped) ++cases_skipped;
  this_case_skipped = true;
  std::cout << "SKIPPED: " << Catch::getResultCapture().getCurrentTestName() << ": " << why << std::endl;
}

int run_tests(int argc, char** argv, int min_devices) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const auto& cfg = session.configData();
  const bool listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags || cfg.listReporters;
  const int gpus = min_devices > 0 && !listing ? cuda_device_count() : 0;
  if (min_devices > 0 && !listing && gpus < min_devices) {
    const std::string needs = fmt::format("these tests need {} NVIDIA GPU{}", min_devices, min_devices == 1 ? "" : "s");
    if (gpus == 0)
      std::cout << "SKIPPED: " << no_device_message(needs) << "\n";
    else
      std::cout << "SKIPPED: " << gpus << " CUDA devices, " << needs << "\n";
    return 77;
  }
  const int rc = session.run();
  if (cases_skipped) std::cout << cases_skipped << " of " << cases_started << " test cases skipped\n";
  return rc == 0 && cases_started > 0 && cases_skipped == cases_started ? 77 : rc;
}

}  // namespace gpubench::testing
