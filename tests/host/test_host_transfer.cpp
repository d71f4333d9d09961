// The transfer ladder without a GPU: the cpu step, its axes (a chunk of 0
// is automatic), and its bad input.
#include <catch2/catch.hpp>

#include <string>

#include "tests/host/usage_errors.hpp"

using namespace gpubench;

TEST_CASE("transfer: the cpu step runs without a GPU, chunk 0 is allowed, bad axes are one line and exit 2",
          "[transfer][cli]") {
  const testing::Outcome ok = testing::run_gpubench(
      builtin_patterns(), {"transfer", "--variant", "cpu", "--n", "1000", "--streams", "1,16", "--chunk", "0,7"});
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("chunk=7 n=1000 seed=42 streams=16") != std::string::npos);
  testing::expect_usage_errors({"transfer", "--variant", "cpu"}, {{{"--streams", "0"}, "--streams"},
                                                                  {{"--streams", "65"}, "--streams"},
                                                                  {{"--chunk", "-1"}, "--chunk: -1: must be an integer from 0 to"},
                                                                  {{"--chunk", "9223372036854775807"}, "--chunk: 9223372036854775807: must be an integer from 0 to"},
                                                                  {{"--chunk", "ten"}, "--chunk"},
                                                                  {{"--n", "0"}, "--n"},
                                                                  {{"--n", "2^22", "--chunk", "1"}, "more than 1048576"}});
  testing::expect_usage_errors({"transfer"}, {{{"--variant", "async"}, "unknown transfer variant 'async'"}});
}
