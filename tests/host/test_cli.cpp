// The command line as a user meets it, on a machine with or without a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/cli/commands.hpp"
#include "tests/host/cli_outcome.hpp"
#include "src/detail/device.hpp"
#include "src/detail/errors.hpp"
#include "tests/test_session.hpp"

using namespace gpubench;

namespace {

using testing::Outcome;

Outcome cli(const std::vector<std::string>& args) { return testing::run_gpubench(builtin_patterns(), args); }

bool exists(const std::string& path) { return std::ifstream(path).good(); }

void expect_usage_error(const std::vector<std::string>& args, const std::string& fragment) {
  const Outcome r = cli(args);
  INFO(r.err);
  CHECK(r.rc == kExitUsage);
  CHECK(r.err.find(fragment) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
  CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("list works without a GPU and shows every step with its description") {
  const Outcome r = cli({"list"});
  CHECK(r.rc == kExitOk);
  for (const char* s : {"reduce0", "reduce6", "reduce9", "course1", "course4", "cub", "cpu", "divergent"})
    CHECK(r.out.find(s) != std::string::npos);
  CHECK(cli({"list", "reduce"}).rc == kExitOk);
  expect_usage_error({"list", "sort"}, "unknown pattern 'sort'; valid: reduce");
}

TEST_CASE("bad input is one line on stderr and exit 2") {
  expect_usage_error({"reduce", "--variant", "reduce42"}, "valid: all, reduce0");
  expect_usage_error({"reduce", "--n", "0"}, "at least 1");
  expect_usage_error({"reduce", "--n", "-4"}, "-4");
  expect_usage_error({"reduce", "--n", "lots"}, "--n: size 'lots'");
  expect_usage_error({"reduce", "--n", "1M,,2M"}, "--n: size ''");
  expect_usage_error({"reduce", "--block", "48"}, "power of two");
  expect_usage_error({"reduce", "--block", "2048"}, "power of two");
  expect_usage_error({"reduce", "--dtype", "int64"}, "--dtype");
  expect_usage_error({"reduce", "--op", "prod"}, "--op");
  expect_usage_error({"reduce", "--frobnicate"}, "frobnicate");
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "2^40"}, "host memory");
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "2^62"}, "host memory");  // bytes past 2^64
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "2^61", "--dtype", "float64"}, "host memory");
  expect_usage_error({"reduce", "--min-time", "nan"}, "--min-time");
  expect_usage_error({"reduce", "--throttle-threshold", "1.5"}, "--throttle-threshold");
  expect_usage_error({"reduce", "--throttle-threshold", "nan"}, "--throttle-threshold");
  expect_usage_error({"reduce", "--devices", ""}, "--devices");
  expect_usage_error({"reduce", "--energy-time", "0x10"}, "--energy-time");
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "1K", "--json", "/tmp"}, "is a directory");
  expect_usage_error({"gemm", "--m", "0"}, "--m: size '0'");
  expect_usage_error({"gemm", "--m", "2097121"}, "--m: 2097121: must be from 1 to 2097120");  // 65535 x 32: the grid's y
  expect_usage_error({"gemm", "--n", "2^21"}, "--n: 2097152: must be from 1 to 2097120");
  expect_usage_error({"gemm", "--k", "2^31"}, "--k: 2147483648: must be from 1 to 2147483391");
  expect_usage_error({"gemm", "--variant", "warp9"}, "unknown gemm variant 'warp9'");
  expect_usage_error({"scan", "--variant", "blelloch"}, "unknown scan variant 'blelloch'");
  expect_usage_error({"scan", "--kind", "both"}, "--kind");
  expect_usage_error({"scan", "--n", "0"}, "at least 1");
  expect_usage_error({"scan", "--variant", "cpu", "--n", "2^40"}, "host memory");
  expect_usage_error({"list", "sort"}, "valid: reduce, gemm, scan, histogram");
  expect_usage_error({"bogus"}, fmt::format("unknown command 'bogus'; valid: {}, list, info, run, compare",
                                            fmt::join(builtin_patterns().names(), ", ")));
  expect_usage_error({}, "subcommand is required");
  expect_usage_error({"--nope"}, "unknown option '--nope': a command comes first (reduce, ");
}

TEST_CASE("an unwritable output path fails before any work and leaves no file") {
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "1000", "--json", "/nonexistent-dir/r.json"},
                     "cannot write '/nonexistent-dir/r.json'");
  expect_usage_error({"reduce", "--variant", "cpu", "--n", "1000", "--csv", "/nonexistent-dir/r.csv"}, "cannot write");
}

TEST_CASE("the cpu variant runs without a GPU and writes JSON and CSV") {
  const std::string json_path = "cli_test.json", csv_path = "cli_test.csv";
  std::remove(json_path.c_str());
  std::remove(csv_path.c_str());
  const Outcome r = cli({"reduce", "--variant", "cpu", "--n", "4K", "--dtype", "float32", "--op", "max",
                         "--min-samples", "3", "--min-time", "0", "--json", json_path.c_str(), "--csv",
                         csv_path.c_str()});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  CHECK(r.out.find("PASS") != std::string::npos);
  std::ifstream in(json_path);
  const auto doc = nlohmann::json::parse(in);
  CHECK(doc.at("results").at(0).at("params").at("n") == 4096);
  CHECK(doc.at("results").at(0).at("params").at("dtype") == "float32");
  CHECK(doc.at("results").at(0).at("verified") == true);
  CHECK(exists(csv_path));
  std::remove(json_path.c_str());
  std::remove(csv_path.c_str());
}

TEST_CASE("with --concurrent each device's runs go on a thread of its own, and the report keeps the plan's order") {
  for (const bool concurrent : {false, true}) {
    std::vector<std::string> args = {"reduce", "--variant", "cpu", "--n", "4K,8K", "--devices", "0,1,2",
                                     "--min-samples", "3", "--min-time", "0", "--json", "-"};
    if (concurrent) args.push_back("--concurrent");
    const Outcome r = cli(args);
    INFO(r.err);
    REQUIRE(r.rc == kExitOk);
    const auto results = nlohmann::json::parse(r.out).at("results");
    REQUIRE(results.size() == 6);
    for (std::size_t i = 0; i < results.size(); ++i) {
      CHECK(results[i].at("device") == int(i / 2));
      CHECK(results[i].at("params").at("n") == (i % 2 ? 8192 : 4096));
      CHECK(results[i].at("verified") == true);
      const auto& m = results[i].at("measure");
      if (concurrent) CHECK(m.at("concurrent_devices") == 3);
      else CHECK_FALSE(m.contains("concurrent_devices"));
    }
  }
}

TEST_CASE("without a GPU, GPU commands say so in one line with their own exit code") {
  if (cuda_device_count() > 0) return testing::skip_case("a CUDA device is present: the no-device path cannot run");
  for (const auto& args : {std::vector<std::string>{"reduce"}, std::vector<std::string>{"info"},
                           std::vector<std::string>{"gemm", "--m", "64,2^7:2^8"},
                           std::vector<std::string>{"reduce", "--variant", "reduce0,cpu"}}) {
    const Outcome r = cli(args);
    CHECK(r.rc == kExitNoDevice);
    CHECK(r.err.find("no CUDA device") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("a step named at a point it cannot take is refused before a GPU is looked for, and by --dry-run") {
  for (const char* dry : {"", "--dry-run"}) {
    std::vector<std::string> bytes{"histogram", "--variant", "per_lane,byte_values", "--sample", "uint8,uint16"};
    std::vector<std::string> grid{"map", "--variant", "grid2d", "--op", "vecadd"};
    if (*dry) {
      bytes.push_back(dry);
      grid.push_back(dry);
    }
    expect_usage_error(bytes, "histogram variant byte_values: counts byte values: takes uint8 samples only");
    expect_usage_error(grid, "map variant grid2d: the 2D grid is the grayscale image's kernel");
  }
}

TEST_CASE("the host-only gemm step runs without a GPU") {
  const Outcome r = cli({"gemm", "--variant", "cpu", "--m", "64", "--n", "33", "--k", "17", "--min-samples", "2",
                         "--min-time", "0"});
  INFO(r.err);
  if (r.rc == kExitUsage && r.err.find("OpenBLAS not found") != std::string::npos)  // the step is refused by name
    return testing::skip_case("no OpenBLAS on this machine for gemm's cpu step");
  CHECK(r.rc == kExitOk);
  CHECK(r.out.find("PASS") != std::string::npos);
}

TEST_CASE("every axis takes a list on the command line, the first varying fastest") {
  const Outcome r = cli({"reduce", "--variant", "cpu", "--n", "100,200", "--dtype", "int32,float64", "--op", "min",
                         "--min-samples", "1", "--min-time", "0"});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  const auto at = [&](const char* s) { return r.out.find(s); };
  CHECK(at("dtype=int32 n=100") < at("dtype=int32 n=200"));
  CHECK(at("dtype=int32 n=200") < at("dtype=float64 n=100"));
  CHECK(at("dtype=float64 n=100") != std::string::npos);
  expect_usage_error({"reduce", "--dtype", "int32,int8"}, "--dtype: unknown value 'int8'; valid: int32, float32, float64");
  expect_usage_error({"reduce", "--block", "64,48"}, "--block: 48: must be a power of two from 32 to 1024");
  // An integer axis that is no size says what it takes, not what a size is.
  expect_usage_error({"reduce", "--block", "3.0"}, "error: --block: 3.0: must be a power of two from 32 to 1024\n");
  expect_usage_error({"conv2d", "--mask", "3:15"}, "error: --mask: 3:15: must be one of 3, 5, 7, 9, 15\n");
  expect_usage_error({"scan", "--n", "2^41"}, "--n: 2199023255552: must be from 1 to 1099511627776");
}

TEST_CASE("help and version exit 0") {
  CHECK(cli({"--help"}).rc == kExitOk);
  CHECK(cli({"reduce", "--help"}).rc == kExitOk);
  const Outcome v = cli({"--version"});
  CHECK(v.rc == kExitOk);
  CHECK(v.out.find("gpubench") != std::string::npos);
  // After a command, before its required arguments are checked.
  const Outcome after = cli({"compare", "--version"});
  CHECK(after.rc == kExitOk);
  CHECK(after.out == v.out);
}

TEST_CASE("run: a config runs every benchmark and embeds the config in the JSON") {
  const std::string config_path = "cli_run_config.json", out_path = "cli_run_out.json";
  {
    std::ofstream f(config_path);
    f << R"({"defaults": {"measure": {"min_samples": 2, "min_time": 0}},
             "benchmarks": [{"pattern": "reduce", "variants": ["cpu"], "params": {"n": "1K:2K", "op": ["min", "max"]}}]})";
  }
  const Outcome r = cli({"run", config_path.c_str(), "--json", out_path.c_str()});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  std::ifstream in(out_path);
  const auto doc = nlohmann::json::parse(in);
  CHECK(doc.at("results").size() == 4);
  CHECK(doc.at("config").at("benchmarks").at(0).at("variants").at(0) == "cpu");
  std::remove(config_path.c_str());
  std::remove(out_path.c_str());
}

TEST_CASE("run: a malformed config is one line naming file and JSON path, exit 2, nothing written") {
  const std::string config_path = "cli_bad_config.json";
  {
    std::ofstream f(config_path);
    f << R"({"benchmarks": [{"pattern": "reduce", "params": {"n": "abc"}}]})";
  }
  expect_usage_error({"run", config_path.c_str(), "--json", "cli_never.json"},
                     "cli_bad_config.json: benchmarks[0].params.n: expected a size");
  CHECK_FALSE(exists("cli_never.json"));
  expect_usage_error({"run", "/nonexistent/config.json"}, "cannot read '/nonexistent/config.json'");
  std::remove(config_path.c_str());
}

TEST_CASE("compare: exit 0 on identical files, 2 on bad input") {
  const std::string path = std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/reduce-2p22.json";
  const Outcome same = cli({"compare", path.c_str(), path.c_str(), "--md"});
  CHECK(same.rc == 0);
  CHECK(same.out.find("| variant | params |") != std::string::npos);
  CHECK(same.out.find("0 slower") != std::string::npos);
  CHECK(same.out.find("|\n\n") != std::string::npos);  // a blank line ends the markdown table
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "lots"}, "--threshold \"lots\"");
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "0%"},
                     "--threshold \"0%\": expected a percentage above 0 and below 100");
  CHECK(cli({"compare", path.c_str(), path.c_str(), "--threshold", "3%", "--threshold", "reduce=10%"}).rc == 0);
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "3%", "--threshold", "4%"},
                     "a percentage for every row is given twice");
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "reduce=1%", "--threshold", "reduce=2%"},
                     "pattern \"reduce\" is given twice");
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "=10%"}, "expected PATTERN=PERCENT");
  expect_usage_error({"compare", path.c_str(), path.c_str(), "--threshold", "reduce=0"},
                     "--threshold \"reduce=0\": expected a percentage above 0");
  expect_usage_error({"compare", path.c_str(), "/nonexistent/new.json"}, "cannot read '/nonexistent/new.json'");
  const std::string bad = "cli_compare_bad.json";
  {
    std::ofstream f(bad);
    f << R"({"schema_version": 1, "device": null, "l2": "flushed", "results": [{"pattern": "reduce"}]})";
  }
  expect_usage_error({"compare", path.c_str(), bad.c_str()}, "cli_compare_bad.json: /results/0/variant: missing");
  std::remove(bad.c_str());
}

TEST_CASE("a pattern whose runs span GPUs plans one run on every listed device, and refuses fewer than it needs") {
  const Outcome planned = cli({"collective", "--devices", "0,1,2,1", "--bytes", "8,1K", "--dry-run"});
  INFO(planned.err);
  REQUIRE(planned.rc == kExitOk);
  CHECK(planned.out.find("[1/2] collective bytes=8 ") != std::string::npos);
  CHECK(planned.out.find("devices=0,1,2 variants=all") != std::string::npos);
  CHECK(planned.out.find("[3/") == std::string::npos);
  expect_usage_error({"collective", "--devices", "0", "--bytes", "8"}, "collective needs at least 2 GPUs at once; 1 is named");
  expect_usage_error({"collective", "--device", "0", "--bytes", "8"}, "1 is named");
  expect_usage_error({"collective", "--devices", "0,0", "--bytes", "8"}, "1 is named (one named twice counts once)");
  const std::string span = "span_config.json";  // a config's run is named by its benchmark
  std::ofstream(span) << R"({"benchmarks": [{"pattern": "collective", "params": {"bytes": 8, "device": [0, 0]}}]})";
  expect_usage_error({"run", span, "--dry-run"}, "span_config.json: benchmarks[0]: collective needs at least 2 GPUs");
  std::remove(span.c_str());
  expect_usage_error({"collective", "--devices", "0,1", "--bytes", "8", "--energy"},
                     "--energy (a config's measure.energy) reads one GPU's counter");
  expect_usage_error({"collective", "--devices", "0,1", "--bytes", "6"}, "not a whole number of float32 elements");
  expect_usage_error({"collective", "--devices", "0,1", "--dtype", "int8"}, "valid: float32, bfloat16, float64");
  expect_usage_error({"collective", "--devices", "0,1", "--op", "min"}, "valid: sum, max");
  expect_usage_error({"collective", "--devices", "0,1", "--bytes", "0"}, "--bytes: size '0'");
  const Outcome host_only = cli({"reduce", "--variant", "cpu", "--n", "1K", "--devices", "all"});  // on a GPU or not
  INFO(host_only.err);
  CHECK(host_only.rc == kExitOk);
  if (cuda_device_count() == 0) {  // every GPU, by default: none here is no device, not a usage error
    const Outcome none = cli({"collective", "--bytes", "8"});
    CHECK(none.rc == kExitNoDevice);
    CHECK(none.err == "gpubench: error: no CUDA device found (collective needs at least 2 NVIDIA GPUs at once and their driver)\n");
  }
}

TEST_CASE("run --devices puts every benchmark of a config on each listed device, and refuses it beside params.device") {
  const std::string ci = std::string(GPUBENCH_SOURCE_DIR) + "/configs/ci.json";
  const Outcome r = cli({"run", ci, "--devices", "0,1", "--dry-run"});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  CHECK(r.out.find("device=1 variants=reduce0") != std::string::npos);
  const Outcome one = cli({"run", ci, "--dry-run"});
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 2 * std::count(one.out.begin(), one.out.end(), '\n'));
  const std::string path = "run_devices_config.json";
  std::ofstream(path) << R"({"benchmarks": [{"pattern": "reduce", "params": {"device": 1}}]})";
  expect_usage_error({"run", path, "--devices", "0"}, "benchmarks[0].params.device: --devices names the devices");
  expect_usage_error({"run", ci, "--devices", "0,x"}, "--devices \"0,x\": \"x\" is not a device index");
  std::remove(path.c_str());
}

TEST_CASE("with --concurrent, a run that spans GPUs beside runs on other devices is refused before a GPU is looked for") {
  const std::string path = "span_concurrent_config.json";
  std::ofstream(path) << R"({"benchmarks": [{"pattern": "reduce", "variants": ["cpu"], "params": {"n": 4096, "device": [0, 1]}},
                                {"pattern": "collective", "params": {"bytes": 8, "device": [0, 1]}}]})";
  expect_usage_error({"run", path, "--concurrent"}, "--concurrent: collective runs span several GPUs");
  expect_usage_error({"collective", "--devices", "0,1,1", "--bytes", "8", "--energy"},
                     "--energy (a config's measure.energy) reads one GPU's counter, and a collective run spans 2 GPUs");
  std::remove(path.c_str());
}
