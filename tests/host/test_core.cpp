// The generic core through a test-only pattern (tests/toy): the real CLI,
// config planner, runner, tables, JSON, CSV, markdown and compare, on a
// machine without a GPU. Nothing here knows a built-in pattern.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/cli/commands.hpp"
#include "tests/host/cli_outcome.hpp"
#include "src/config/config.hpp"
#include "src/detail/errors.hpp"
#include "src/report/json_report.hpp"
#include "tests/toy/toy_pattern.hpp"

using namespace gpubench;

namespace {

const Registry& toys() {
  static const Registry r{{&toy::toy_pattern()}};
  return r;
}

using testing::Outcome;

Outcome cli(const std::vector<std::string>& args) { return testing::run_gpubench(toys(), args); }

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("a pattern's axes, steps and ladders become a subcommand and a list") {
  const Outcome list = cli({"list"});
  CHECK(list.rc == kExitOk);
  CHECK(list.out.find("toy: a test-only host pattern") != std::string::npos);
  CHECK(list.out.find("  unrolled  fast      two accumulators") != std::string::npos);
  const Outcome help = cli({"toy", "--help"});
  for (const char* s : {"--n", "--scale", "--mode", "a, b, c, d", "--variant", "--seed", "--json"})
    CHECK(help.out.find(s) != std::string::npos);
  const Outcome bad = cli({"toy", "--mode", "e"});
  CHECK(bad.rc == kExitUsage);
  CHECK(bad.err == "gpubench: error: --mode: unknown value 'e'; valid: a, b, c, d\n");
  CHECK(cli({"toy", "--variant", "fast"}).err ==
        "gpubench: error: unknown toy variant 'fast'; valid: all, loop, unrolled, broken, stale, library\n");
  CHECK(cli({"toy", "--scale", "9"}).err == "gpubench: error: --scale: 9: must be an integer from 1 to 8\n");
}

TEST_CASE("a run is the cross product of the axes, one table each, with metrics, speedups and % lib") {
  const std::string json_path = "core_toy.json", csv_path = "core_toy.csv";
  const Outcome r = cli({"toy", "--variant", "loop,unrolled,library", "--n", "1000,2K", "--scale", "2,3",
                         "--json", json_path.c_str(), "--csv", csv_path.c_str()});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  CHECK(r.out.find("toy mode=a n=1000 scale=2 seed=42 L2=flushed") < r.out.find("toy mode=a n=2048 scale=2"));
  CHECK(r.out.find("toy mode=a n=2048 scale=2") < r.out.find("toy mode=a n=1000 scale=3"));
  CHECK(r.out.find("toy mode=a n=1000 scale=3") != std::string::npos);
  for (const char* s : {"variant", "impl", "median", "GB/s", "% lib", "elems", "step x", "total x", "100.0%", "std"})
    CHECK(r.out.find(s) != std::string::npos);

  const nlohmann::json doc = read_json(json_path);
  CHECK(doc.at("schema_version") == 2);
  CHECK(doc.at("kind") == "results");
  CHECK(doc.at("device").is_null());
  REQUIRE(doc.at("results").size() == 12);
  const auto& unrolled = doc.at("results").at(1);
  CHECK(unrolled.at("continues") == "basic");
  CHECK(unrolled.at("primary") == "gbps");
  CHECK(unrolled.at("params") == nlohmann::json{{"n", 1000}, {"scale", 2}, {"mode", "a"}, {"seed", 42}});
  CHECK(unrolled.at("metrics").at(1).at("name") == "pct_of_library");
  CHECK(unrolled.at("metrics").at(1).at("of") == "library");
  CHECK(doc.at("results").at(2).at("tags").at("impl") == "std");

  // The step speedup of the continuing ladder's first step is over the
  // continued ladder's last one.
  const RunReport back = report_from_json(doc);
  CHECK(step_speedup(back.results, 1).has_value());
  CHECK_FALSE(step_speedup(back.results, 2).has_value());  // a baseline
  CHECK(to_json(back) == doc);

  const std::string csv = read_text(csv_path);
  CHECK(csv.find("toy,unrolled,fast,mode=a;n=1000;scale=2;seed=42,") != std::string::npos);
  CHECK(csv.find(",gbps,GB/s,") != std::string::npos);

  const Outcome same = cli({"compare", json_path.c_str(), json_path.c_str()});
  CHECK(same.rc == kExitOk);
  CHECK(same.out.find("12 rows: 0 faster, 0 slower, 12 same") != std::string::npos);
  std::remove(json_path.c_str());
  std::remove(csv_path.c_str());
}

TEST_CASE("a step right on its first run and not after fails on the last run's check") {
  // The output is poisoned before every run (prepare), so a step that stops
  // writing it is caught, whether or not it wrote it the first time.
  const Outcome r = cli({"toy", "--variant", "loop,stale"});
  CHECK(r.rc == kExitVerifyFailed);
  CHECK(r.out.find("FAIL stale ({\"mode\":\"a\",\"n\":1000,\"scale\":1,\"seed\":42}): last timed run: got -1, expected ") !=
        std::string::npos);
}

TEST_CASE("a wrong result is a FAIL row, its reason under the table, and exit 1") {
  const Outcome r = cli({"toy", "--variant", "loop,broken", "--md"});
  CHECK(r.rc == kExitVerifyFailed);
  CHECK(r.out.find("| broken | misses the last element |") != std::string::npos);
  CHECK(r.out.find("| FAIL |") != std::string::npos);
  CHECK(r.out.find("FAIL broken ({\"mode\":\"a\",\"n\":1000,\"scale\":1,\"seed\":42}): first run: got ") !=
        std::string::npos);
}

TEST_CASE("a library call that fails is one CUDA error line naming the step (if any) and point, and exit 4") {
  const std::string json_path = "core_toy_library_failed.json";
  std::remove(json_path.c_str());
  const Outcome r = cli({"toy", "--mode", "c", "--variant", "loop,library", "--json", json_path.c_str()});
  CHECK(r.rc == kExitCudaError);
  CHECK(r.err ==
        "gpubench: CUDA error: library at toy n=1000 scale=1 mode=c seed=42: toyCreate failed: "
        "TOY_STATUS_NOT_INITIALIZED\n");
  CHECK_FALSE(std::ifstream(json_path).good());  // no half-written results
  const Outcome setup = cli({"toy", "--mode", "d", "--json", json_path.c_str()});
  CHECK(setup.rc == kExitCudaError);
  CHECK(setup.err ==
        "gpubench: CUDA error: setting up toy n=1000 scale=1 mode=d seed=42: toySetUp failed: "
        "TOY_STATUS_ALLOC_FAILED\n");
  CHECK_FALSE(std::ifstream(json_path).good());
}

TEST_CASE("configs are checked against the pattern's axes and expand like the command line") {
  using nlohmann::json;
  const auto plan = [](const char* text) { return config::plan(json::parse(text), toys()); };
  const auto runs = plan(R"({"defaults": {"params": {"scale": 2}},
      "benchmarks": [{"pattern": "toy", "variants": ["loop"], "params": {"n": "2^10:2^11", "mode": ["a", "b"]}}]})");
  REQUIRE(runs.size() == 4);
  CHECK(describe(runs[0]) == "toy n=1024 scale=2 mode=a seed=42 device=0 variants=loop");
  CHECK(describe(runs[3]) == "toy n=2048 scale=2 mode=b seed=42 device=0 variants=loop");
  CHECK(runs[0].measure.min_samples == 3);  // the pattern's sampling defaults
  // Integers and choices written as on the command line, in a string.
  const auto spelled = plan(R"({"benchmarks": [{"pattern": "toy", "params": {"n": 7, "scale": "2^1,4", "mode": "b,a"}}]})");
  REQUIRE(spelled.size() == 4);
  CHECK(describe(spelled[0]) == "toy n=7 scale=2 mode=b seed=42 device=0 variants=all");
  CHECK(describe(spelled[3]) == "toy n=7 scale=4 mode=a seed=42 device=0 variants=all");
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "toy", "params": {"scale": 0}}]})"),
                    "benchmarks[0].params.scale: expected an integer from 1 to 8, got 0");
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "toy", "params": {"scale": "2^4"}}]})"),
                    R"(benchmarks[0].params.scale: expected an integer from 1 to 8, got "2^4")");
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "toy", "params": {"mode": "a,z"}}]})"),
                    R"(benchmarks[0].params.mode: expected one of a, b, c, d, got "a,z")");
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "toy", "params": {"n": "2^21"}}]})"),
                    Catch::StartsWith("benchmarks[0].params.n: expected a size") && Catch::Contains("up to 1048576"));
  // A step named at a point it cannot take: the benchmark is named, before anything runs.
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "toy"}, {"pattern": "toy", "variants": "loop,library",
                                            "params": {"mode": ["a", "b"]}}]})"),
                    "benchmarks[1]: toy variant library: not offered in mode b");
  CHECK_THROWS_WITH(plan(R"({"defaults": {"params": {"blocks": 1}}, "benchmarks": [{"pattern": "toy"}]})"),
                    "defaults.params.blocks: no benchmark's pattern has this parameter");
  CHECK_THROWS_WITH(plan(R"({"benchmarks": [{"pattern": "other"}]})"),
                    R"(benchmarks[0].pattern: expected one of toy, got "other")");

  const std::string config_path = "core_config.json", out_path = "core_config_out.json";
  std::ofstream(config_path) << R"({"benchmarks": [{"pattern": "toy", "variants": "loop,library", "params": {"n": [5, 6]}}]})";
  const Outcome r = cli({"run", config_path.c_str(), "--json", out_path.c_str()});
  INFO(r.err);
  CHECK(r.rc == kExitOk);
  const json doc = read_json(out_path);
  CHECK(doc.at("results").size() == 4);
  CHECK(doc.at("config").at("benchmarks").at(0).at("pattern") == "toy");
  std::remove(config_path.c_str());
  std::remove(out_path.c_str());
}
