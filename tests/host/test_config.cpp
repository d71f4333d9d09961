#include <catch2/catch.hpp>

#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/config/config.hpp"
#include "src/detail/json_file.hpp"
#include "src/core/registry.hpp"
#include "src/detail/errors.hpp"

using gpubench::UsageError;
using nlohmann::json;

namespace {

std::vector<gpubench::RunRequest> plan(const json& config) {
  return gpubench::config::plan(config, gpubench::builtin_patterns());
}

std::vector<std::string> descriptions(const json& config) {
  std::vector<std::string> out;
  for (const auto& r : plan(config)) out.push_back(gpubench::describe(r));
  return out;
}

}  // namespace

TEST_CASE("a config expands into the cross product of its parameter lists") {
  const json config = json::parse(R"({
    "defaults": {"params": {"block": 128}, "measure": {"min_time": 0}},
    "benchmarks": [
      {"pattern": "reduce", "variants": ["reduce0", "cub"], "params": {"n": ["1K", "2^11:2^12"], "dtype": ["int32", "float32"]}},
      {"pattern": "reduce", "variants": "reduce9", "params": {"n": 5, "op": ["min", "max"], "block": [64, 1024]}}
    ]})");
  const auto d = descriptions(config);
  REQUIRE(d.size() == 2 * 3 + 2 * 2);
  CHECK(d[0] == "reduce n=1024 dtype=int32 op=sum block=128 seed=42 device=0 variants=reduce0,cub");
  CHECK(d[2] == "reduce n=4096 dtype=int32 op=sum block=128 seed=42 device=0 variants=reduce0,cub");
  CHECK(d[3] == "reduce n=1024 dtype=float32 op=sum block=128 seed=42 device=0 variants=reduce0,cub");
  CHECK(d[6] == "reduce n=5 dtype=int32 op=min block=64 seed=42 device=0 variants=reduce9");
  CHECK(d[9] == "reduce n=5 dtype=int32 op=max block=1024 seed=42 device=0 variants=reduce9");
}

TEST_CASE("a malformed config is refused with the JSON path of the problem") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "abc"}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "abc" (not a number))"},
      {R"({"benchmarks": [{"pattern": "reduce"}, {"pattern": "reduce", "params": {"n": [1, 0]}}]})",
       R"(benchmarks[1].params.n[1]: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got 0 (must be at least 1))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "2^70"}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "2^70" (too large))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": 2.5}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got 2.5 (not a whole number))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": 4194304.0}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got 4194304.0 (write it without a decimal point))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": 9223372036854775808}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got 9223372036854775808 (too large))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "1,0"}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "1,0" (0: must be at least 1))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "2^20:2^70"}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "2^20:2^70" (2^70: too large))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "2^20:2^10"}}]})",
       R"(benchmarks[0].params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "2^20:2^10" (a sweep must go from the smaller size to the larger))"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"block": 48}}]})",
       "benchmarks[0].params.block: expected a power of two from 32 to 1024, got 48"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"block": 64.0}}]})",
       "benchmarks[0].params.block: expected a power of two from 32 to 1024, got 64.0 (write it without a decimal point)"},
      {R"({"benchmarks": [{"pattern": "conv2d", "params": {"mask": [3, 11]}}]})",
       "benchmarks[0].params.mask[1]: expected one of 3, 5, 7, 9, 15, got 11"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"dtype": "int8"}}]})",
       R"(benchmarks[0].params.dtype: expected one of int32, float32, float64, got "int8")"},
      {R"({"benchmarks": [{"pattern": "reduce", "params": {"sizes": 5}}]})",
       "benchmarks[0].params.sizes: unknown key (valid: n, dtype, op, block, seed, device)"},
      {R"({"benchmarks": [{"pattern": "reduce", "variants": ["reduce0", "reduce99"]}]})",
       "benchmarks[0].variants: unknown reduce variant 'reduce99'"},
      {R"({"benchmarks": [{"pattern": "reduce", "variants": 7}]})", "benchmarks[0].variants: expected"},
      {R"({"benchmarks": [{"pattern": "sort"}]})",
       fmt::format(R"(benchmarks[0].pattern: expected one of {}, got "sort")",
                   fmt::join(gpubench::builtin_patterns().names(), ", "))},
      {R"({"benchmarks": [{"variants": "all"}]})", "benchmarks[0].pattern: missing"},
      {R"({"benchmarks": []})", "benchmarks: expected a non-empty list, got []"},
      {R"({"benchmark": []})", "benchmark: unknown key"},
      {R"({})", "benchmarks: missing"},
      {R"([1, 2])", "(root): expected an object"},
      {R"({"defaults": {"params": {"op": "prod"}}, "benchmarks": [{"pattern": "reduce"}]})",
       R"(defaults.params.op: expected one of sum, min, max, got "prod")"},
      // A default every benchmark overrides is checked all the same.
      {R"({"defaults": {"params": {"n": "garbage"}}, "benchmarks": [{"pattern": "reduce", "params": {"n": 1024}}]})",
       R"(defaults.params.n: expected a size (4194304, "4M", "2^22", "2^16:2^30"), got "garbage" (not a number))"},
      {R"({"defaults": {"params": {"seed": -1}}, "benchmarks": [{"pattern": "reduce", "params": {"seed": 1}}]})",
       "defaults.params.seed: expected an integer from 0"},
      {R"({"defaults": {"params": {"device": []}}, "benchmarks": [{"pattern": "reduce", "params": {"device": 0}}]})",
       "defaults.params.device: an empty list"},
      {R"({"defaults": {"variants": 5}, "benchmarks": [{"pattern": "reduce", "variants": "cpu"}]})",
       "defaults.variants: expected"},
      {R"({"defaults": {"variants": "foo"}, "benchmarks": [{"pattern": "reduce", "variants": "cpu"}]})",
       "defaults.variants: unknown reduce variant 'foo'"},
      {R"({"defaults": {"measure": {"min_time": -1}}, "benchmarks": [{"pattern": "reduce"}]})",
       "defaults.measure.min_time: expected seconds from 0 to 3600, got -1"},
      {R"({"benchmarks": [{"pattern": "reduce", "measure": {"hot": "yes"}}]})",
       R"(benchmarks[0].measure.hot: expected true or false, got "yes")"},
      {R"({"benchmarks": [{"pattern": "reduce", "measure": {"min_samples": 0}}]})",
       "benchmarks[0].measure.min_samples: expected an integer from 1"},
      {R"({"benchmarks": [{"pattern": "reduce", "measure": {"throttle_threshold": 1.5}}]})",
       "benchmarks[0].measure.throttle_threshold: expected a fraction from 0 to 1, got 1.5"},
      {R"({"benchmarks": [{"pattern": "reduce", "measure": {"energy": 1}}]})",
       "benchmarks[0].measure.energy: expected true or false, got 1"},
      {R"({"benchmarks": [{"pattern": "reduce", "measure": {"energy_time": 601}}]})",
       "benchmarks[0].measure.energy_time: expected seconds from 0 to 600, got 601"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    CHECK_THROWS_WITH(plan(json::parse(text)), Catch::StartsWith(message));
  }
  // Where the expectation says it all, no reason follows.
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "reduce", "params": {"block": 48}}]})")),
                    "benchmarks[0].params.block: expected a power of two from 32 to 1024, got 48");
}

TEST_CASE("the defaults' variants need fit only one benchmark's pattern where every benchmark names its own") {
  const auto d = descriptions(json::parse(
      R"({"defaults": {"variants": "cub"},
          "benchmarks": [{"pattern": "gemm", "variants": "cpu", "params": {"m": 64, "n": 64, "k": 64}},
                         {"pattern": "reduce", "variants": "cpu", "params": {"n": 1024}}]})"));
  REQUIRE(d.size() == 2);
  CHECK(d[0].find("variants=cpu") != std::string::npos);
  CHECK(d[1].find("variants=cpu") != std::string::npos);
}

TEST_CASE("the shipped configs are valid") {
  const std::filesystem::path dir = std::filesystem::path(GPUBENCH_SOURCE_DIR) / "configs";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    INFO(entry.path());
    CHECK_FALSE(plan(gpubench::load_json_file(entry.path().string())).empty());
    ++count;
  }
  CHECK(count >= 4);
}

TEST_CASE("unreadable and unparsable config files are named") {
  CHECK_THROWS_WITH(gpubench::load_json_file("/nonexistent/c.json"),
                    "cannot read '/nonexistent/c.json': No such file or directory");
}

TEST_CASE("gemm entries expand m x n x k and name bad dimensions") {
  const auto d = descriptions(json::parse(R"({"benchmarks": [
      {"pattern": "gemm", "variants": ["naive", "cublas"], "params": {"m": [127, "1K"], "n": 513, "k": "2^6:2^7"}}]})"));
  REQUIRE(d.size() == 4);
  CHECK(d[0] == "gemm m=127 n=513 k=64 seed=42 device=0 variants=naive,cublas");
  CHECK(d[3] == "gemm m=1024 n=513 k=128 seed=42 device=0 variants=naive,cublas");
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "gemm", "params": {"k": "2^40"}}]})")),
                    Catch::StartsWith("benchmarks[0].params.k: expected a size") && Catch::EndsWith("up to 2147483391, got \"2^40\" (too large)"));
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "gemm", "params": {"k": "4,2^31"}}]})")),
                    Catch::EndsWith("up to 2147483391, got \"4,2^31\" (2147483648: too large)"));
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "gemm", "params": {"n": 8, "dtype": "x"}}]})")),
                    Catch::StartsWith("benchmarks[0].params.dtype: unknown key (valid: m, n, k, seed, device)"));
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "gemm", "variants": "warp9"}]})")),
                    Catch::StartsWith("benchmarks[0].variants: unknown gemm variant 'warp9'"));
}

TEST_CASE("scan entries expand n x dtype x kind and name bad values") {
  const auto d = descriptions(json::parse(R"({"benchmarks": [
      {"pattern": "scan", "variants": "decoupled_lookback,cub",
       "params": {"n": "2^24,2^28", "dtype": ["int32", "float32"], "kind": "exclusive"}}]})"));
  REQUIRE(d.size() == 4);
  CHECK(d[0] == "scan n=16777216 dtype=int32 kind=exclusive seed=42 device=0 variants=decoupled_lookback,cub");
  CHECK(d[3] == "scan n=268435456 dtype=float32 kind=exclusive seed=42 device=0 variants=decoupled_lookback,cub");
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "scan", "params": {"kind": "both"}}]})")),
                    Catch::StartsWith(R"(benchmarks[0].params.kind: expected one of inclusive, exclusive, got "both")"));
  CHECK_THROWS_WITH(plan(json::parse(R"({"benchmarks": [{"pattern": "scan", "params": {"op": "max"}}]})")),
                    Catch::StartsWith("benchmarks[0].params.op: unknown key (valid: n, dtype, kind, seed, device)"));
}
