// Hostile and careless input (issue "hardening"), one test per defect found:
// every case is one line on stderr and exit 2, nothing on disk is
// clobbered, and the gate fails when it cannot judge. No GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/cli/commands.hpp"
#include "tests/host/cli_outcome.hpp"
#include "src/detail/device.hpp"
#include "src/detail/errors.hpp"
#include "tests/toy/toy_pattern.hpp"
#include "tests/test_session.hpp"

using namespace gpubench;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using testing::Outcome;

Outcome cli(const std::vector<std::string>& args, std::ostream* out_stream = nullptr) {
  static const Registry all{{builtin_patterns().patterns[0], builtin_patterns().patterns[1],
                             builtin_patterns().patterns[2], &toy::toy_pattern()}};
  return testing::run_gpubench(all, args, out_stream);
}

// A fresh directory for one test's files.
struct Dir {
  fs::path path;
  explicit Dir(const std::string& name)
      : path(fs::temp_directory_path() / ("gpubench-hardening-" + name + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void expect_usage(const Outcome& r, const std::string& fragment) {
  INFO(r.err);
  CHECK(r.rc == kExitUsage);
  CHECK(r.err.find(fragment) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.size() < 400);
}

// A quick host-only run: the toy pattern's correct steps, a few samples.
std::vector<std::string> toy_run(std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"toy"};
  for (const auto& [flag, value] : {std::pair{"--n", "100"}, std::pair{"--variant", "loop,unrolled,library"}})
    if (std::find(more.begin(), more.end(), flag) == more.end()) args.insert(args.end(), {flag, value});
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("1: deep nesting is refused with the depth, not a crash") {
  Dir d("nesting");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  write(d / "deep.json", deep);
  expect_usage(cli({"run", d / "deep.json"}), "nested deeper than 64 levels");
  write(d / "name.json", R"({"name": )" + deep + R"(, "benchmarks": []})");
  expect_usage(cli({"run", d / "name.json"}), "nested deeper than 64 levels");
  expect_usage(cli({"compare", d / "deep.json", d / "deep.json"}), "nested deeper than 64 levels");
}

TEST_CASE("2: outputs never replace what is not a regular file, nor an input, nor a read-only file") {
  Dir d("clobber");
  // '-' is standard output; the table then goes to stderr.
  const Outcome dash = cli(toy_run({"--json", "-"}));
  REQUIRE(dash.rc == kExitOk);
  CHECK(json::parse(dash.out).at("results").size() == 3);
  CHECK(dash.err.find("variant") != std::string::npos);
  // /dev/null stays a device.
  REQUIRE(cli(toy_run({"--json", "/dev/null"})).rc == kExitOk);
  struct stat st {};
  REQUIRE(stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  // A FIFO is written through.
  const std::string fifo = d / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(cli(toy_run({"--csv", fifo})).rc == kExitOk);
  char buf[4096];
  const ssize_t got = ::read(reader, buf, sizeof buf);
  close(reader);
  CHECK(std::string(buf, std::size_t(std::max<ssize_t>(got, 0))).rfind("pattern,variant", 0) == 0);
  CHECK(fs::is_fifo(fifo));
  expect_usage(cli(toy_run({"--csv", fifo})), "no process is reading it");  // no reader: an error, not a hang
  // A link stays a link; its target gets the results.
  write(d / "target.json", "old");
  fs::create_symlink(d / "target.json", d / "link.json");
  REQUIRE(cli(toy_run({"--json", d / "link.json"})).rc == kExitOk);
  CHECK(fs::is_symlink(d / "link.json"));
  CHECK(json::parse(read(d / "target.json")).at("kind") == "results");
  // A link to a file yet to be made: the file is made, the link kept.
  fs::create_symlink(d / "new-target.json", d / "dangling.json");
  REQUIRE(cli(toy_run({"--json", d / "dangling.json"})).rc == kExitOk);
  CHECK(fs::is_symlink(d / "dangling.json"));
  CHECK(json::parse(read(d / "new-target.json")).at("kind") == "results");
  // A chain of links to a file yet to be made: the file at its end; a loop of links is refused.
  fs::create_symlink(d / "chain-2.json", d / "chain-1.json");
  fs::create_symlink("chain-3.json", d / "chain-2.json");
  REQUIRE(cli(toy_run({"--json", d / "chain-1.json"})).rc == kExitOk);
  CHECK((fs::is_symlink(d / "chain-1.json") && fs::is_symlink(d / "chain-2.json")));
  CHECK(json::parse(read(d / "chain-3.json")).at("kind") == "results");
  fs::create_symlink("loop.json", d / "loop.json");
  expect_usage(cli(toy_run({"--json", d / "loop.json", "--dry-run"})), "Too many levels of symbolic links");
  // A name longer than the file system takes is refused before the run, not after it.
  expect_usage(cli(toy_run({"--json", d / std::string(300, 'a'), "--dry-run"})), "File name too long");
  // Devices may be named twice: nothing is replaced.
  CHECK(cli(toy_run({"--json", "/dev/null", "--csv", "/dev/null"})).rc == kExitOk);
  // A read-only file is refused, even for root.
  write(d / "ro.json", "keep");
  fs::permissions(d / "ro.json", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  expect_usage(cli(toy_run({"--json", d / "ro.json"})), "read-only");
  CHECK(read(d / "ro.json") == "keep");
  // An output that is also an input is refused before anything runs.
  REQUIRE(cli(toy_run({"--json", d / "a.json"})).rc == kExitOk);
  const std::string a = read(d / "a.json");
  expect_usage(cli({"compare", d / "a.json", d / "a.json", "--json", d / "a.json"}), "it is an input");
  CHECK(read(d / "a.json") == a);
  write(d / "c.json", R"({"benchmarks": [{"pattern": "toy"}]})");
  expect_usage(cli({"run", d / "c.json", "--json", d / "c.json"}), "it is an input");
  CHECK(read(d / "c.json") == R"({"benchmarks": [{"pattern": "toy"}]})");
  // A hard link is the same file under another name.
  fs::create_hard_link(d / "a.json", d / "hard.json");
  expect_usage(cli({"compare", d / "a.json", d / "a.json", "--json", d / "hard.json"}), "it is an input");
  CHECK(read(d / "a.json") == a);
  expect_usage(cli(toy_run({"--json", d / "a.json", "--csv", d / "hard.json"})), "named as two outputs");
}

TEST_CASE("3: the same path for two outputs is refused before running") {
  Dir d("twice");
  expect_usage(cli(toy_run({"--json", d / "same.out", "--csv", d / "same.out"})), "named as two outputs");
  CHECK_FALSE(fs::exists(d / "same.out"));
}

TEST_CASE("4: every output is checked before the run, and all are written or none") {
  Dir d("partial");
  write(d / "locked.csv", "keep");
  fs::permissions(d / "locked.csv", fs::perms::owner_read);
  expect_usage(cli(toy_run({"--json", d / "ok.json", "--csv", d / "locked.csv"})), "read-only");
  CHECK_FALSE(fs::exists(d / "ok.json"));
  expect_usage(cli(toy_run({"--json", d / "ok.json", "--csv", d / "missing/x.csv"})), "cannot write");
  CHECK_FALSE(fs::exists(d / "ok.json"));
  CHECK(fs::directory_iterator(d.path) != fs::directory_iterator());  // only locked.csv: no temporary left
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);
}

TEST_CASE("5: a directory as a config or a result file is one line") {
  Dir d("dirs");
  REQUIRE(cli(toy_run({"--json", d / "a.json"})).rc == kExitOk);
  expect_usage(cli({"run", d.path.string()}), "is a directory");
  expect_usage(cli({"compare", d / "a.json", d.path.string()}), "is a directory");
}

TEST_CASE("6: a host step runs without a GPU (gemm cpu, which needs OpenBLAS)") {
  const Outcome r = cli({"gemm", "--variant", "cpu", "--m", "64", "--n", "33", "--k", "17"});
  INFO(r.err);
  if (r.rc == kExitUsage && r.err.find("OpenBLAS not found") != std::string::npos)  // refused by name
    return testing::skip_case("no OpenBLAS on this machine for gemm's cpu step");
  CHECK(r.rc == kExitOk);
}

TEST_CASE("6: a host step that cannot run is refused by name, by --dry-run too, and is an unavailable row of all") {
  expect_usage(cli(toy_run({"--variant", "library", "--mode", "b", "--dry-run"})), "not offered in mode b");
  expect_usage(cli(toy_run({"--variant", "library", "--mode", "b"})), "not offered in mode b");
  Dir d("unavailable");
  const Outcome r = cli(toy_run({"--variant", "all", "--mode", "b", "--min-samples", "1", "--json", d / "b.json"}));
  INFO(r.out << r.err);
  CHECK(r.rc == kExitVerifyFailed);  // `broken` runs and fails; the others run beside the unavailable row
  const std::size_t row = r.out.find("\nlibrary ");
  REQUIRE(row != std::string::npos);
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  CHECK(line.find("std::accumulate") != std::string::npos);
  CHECK(line.substr(line.size() - 13) == "  unavailable");
  CHECK(r.out.find("\nunavailable: toy library: not offered in mode b\n") != std::string::npos);
  const json doc = json::parse(read(d / "b.json"));
  CHECK(doc.at("results").size() == 4);
  REQUIRE(doc.at("unavailable").size() == 1);
  CHECK(doc.at("unavailable").at(0).at("variant") == "library");
  CHECK(doc.at("unavailable").at(0).at("why") == "not offered in mode b");
  CHECK(doc.at("unavailable").at(0).at("params").at("mode") == "b");
  CHECK(doc.at("unavailable").at(0).at("at") == 4);  // the ladder's last step: after the four that ran
  // Read back: the file compares with itself (exit 1: its failed row).
  const Outcome same = cli({"compare", d / "b.json", d / "b.json"});
  CHECK(same.rc == 1);
  CHECK(same.err.empty());
  // A baseline that ran the step: compare says why the new run lacks it.
  json base = doc;
  base.at("results").push_back(doc.at("results").at(0));
  base.at("results").back()["variant"] = "library";
  base.erase("unavailable");
  write(d / "base.json", base.dump());
  const Outcome missing = cli({"compare", d / "base.json", d / "b.json"});
  CHECK(missing.rc == 1);
  CHECK(missing.out.find("only in base: toy library {\"mode\":\"b\",\"n\":100,\"scale\":1,\"seed\":42} "
                         "(unavailable in the new run: not offered in mode b)\n") != std::string::npos);
}

TEST_CASE("6: unavailable rows keep their run: hot, markdown, a point measured twice, and a reader that checks them") {
  Dir d("unavailable-runs");
  // Markdown: the reason after a blank line, not as a row of the table.
  const Outcome md = cli(toy_run({"--variant", "all", "--mode", "b", "--min-samples", "1", "--md", "--hot",
                                  "--json", d / "hot.json"}));
  INFO(md.out << md.err);
  CHECK(md.out.find("| library | std::accumulate | std |") != std::string::npos);
  CHECK(md.out.find("|\n\nFAIL broken") != std::string::npos);
  const json hot = json::parse(read(d / "hot.json"));
  REQUIRE(hot.at("unavailable").size() == 1);
  CHECK(hot.at("unavailable").at(0).at("l2") == "hot");
  // Read back, a hot row still meets its baseline's key.
  json base = hot;
  base.at("results").push_back(hot.at("results").at(0));
  base.at("results").back()["variant"] = "library";
  write(d / "base.json", base.dump());
  CHECK(cli({"compare", d / "base.json", d / "hot.json"}).out.find("hot (unavailable in the new run: ") != std::string::npos);
  // The point in a run that did not choose the step, then in two that did:
  // the row is in their table only, once for each.
  write(d / "twice.json", R"({"defaults": {"measure": {"min_samples": 1, "min_time": 0}}, "benchmarks": [
      {"pattern": "toy", "variants": "loop", "params": {"mode": "b"}},
      {"pattern": "toy", "variants": "loop", "params": {"n": 5}},
      {"pattern": "toy", "variants": "all", "params": {"mode": "b"}},
      {"pattern": "toy", "variants": "all", "params": {"mode": "b"}}]})");
  const Outcome twice = cli({"run", d / "twice.json", "--json", d / "twice-out.json"});
  INFO(twice.out);
  std::size_t rows = 0;
  for (std::size_t at = twice.out.find("\nlibrary "); at != std::string::npos; at = twice.out.find("\nlibrary ", at + 1))
    ++rows;
  CHECK(rows == 2);
  CHECK(twice.out.find("\nlibrary ") > twice.out.find("toy mode=a n=5 "));
  // compare gives both missing rows of the point their reason, the second as " #2".
  const json runs = json::parse(read(d / "twice-out.json"));
  json both = runs;
  both.erase("unavailable");
  for (const json& r : runs.at("results"))
    if (r.at("variant") == "loop" && r.at("params").at("mode") == "b") {
      both.at("results").push_back(r);
      both.at("results").back()["variant"] = "library";
    }
  write(d / "both.json", both.dump());
  const Outcome again = cli({"compare", d / "both.json", d / "twice-out.json", "--json", d / "cmp.json"});
  INFO(again.out << again.err);
  CHECK(again.out.find("#2 (unavailable in the new run: not offered in mode b)") != std::string::npos);
  CHECK(json::parse(read(d / "cmp.json")).at("unavailable_in_new").size() == 2);
  // The reader names the path of a bad entry.
  const auto refused = [&](const json& entry, const std::string& fragment) {
    json doc = hot;
    doc["unavailable"] = json::array({entry});
    write(d / "bad.json", doc.dump());
    expect_usage(cli({"compare", d / "bad.json", d / "hot.json"}), fragment);
  };
  const json good = hot.at("unavailable").at(0);
  refused(5, "/unavailable/0: expected an object");
  json where = good;
  where["where"] = "mars";
  refused(where, "/unavailable/0/where: expected 'device' or 'host'");
  json l2 = good;
  l2["l2"] = "warm";
  refused(l2, "/unavailable/0/l2: expected 'flushed' or 'hot'");
  json why = good;
  why["why"] = "a\x1b[2Jb";
  refused(why, "/unavailable/0/why: expected text without control characters");
}

TEST_CASE("7: shared defaults apply where a benchmark's pattern has the parameter") {
  Dir d("defaults");
  write(d / "c.json", R"({"defaults": {"params": {"block": 128, "n": 64}, "measure": {"min_samples": 1, "min_time": 0}},
      "benchmarks": [{"pattern": "reduce", "variants": "cpu"}, {"pattern": "scan", "variants": "cpu"}]})");
  const Outcome r = cli({"run", d / "c.json", "--json", d / "out.json"});
  INFO(r.err);
  REQUIRE(r.rc == kExitOk);
  const json doc = json::parse(read(d / "out.json"));
  CHECK(doc.at("results").at(0).at("params").at("block") == 128);
  CHECK_FALSE(doc.at("results").at(1).at("params").contains("block"));
  write(d / "bad.json", R"({"defaults": {"params": {"blocks": 1}}, "benchmarks": [{"pattern": "toy"}]})");
  expect_usage(cli({"run", d / "bad.json"}), "defaults.params.blocks: no benchmark's pattern has this parameter");
}

TEST_CASE("8: seeds and devices may be lists, and quoted values are cut") {
  Dir d("seeds");
  write(d / "c.json", R"({"benchmarks": [{"pattern": "toy", "variants": "loop", "params": {"seed": [1, 2]}}]})");
  const Outcome r = cli({"run", d / "c.json", "--json", d / "out.json"});
  REQUIRE(r.rc == kExitOk);
  const json doc = json::parse(read(d / "out.json"));
  REQUIRE(doc.at("results").size() == 2);
  CHECK(doc.at("results").at(1).at("params").at("seed") == 2);
  CHECK(cli(toy_run({"--variant", "loop", "--seed", "1,2,3"})).out.find("seed=3") != std::string::npos);
  write(d / "dev.json", R"({"benchmarks": [{"pattern": "toy", "params": {"device": [0, 1, 0]}}]})");
  const Outcome devices = cli({"run", d / "dev.json", "--dry-run"});
  REQUIRE(devices.rc == kExitOk);
  CHECK(devices.out.find("[2/2]") != std::string::npos);  // device 0 once
  CHECK(devices.out.find("[3/") == std::string::npos);
  CHECK(devices.out.find("seed=42 device=1 variants=") != std::string::npos);
  write(d / "all.json", R"({"benchmarks": [{"pattern": "toy", "params": {"device": "all"}}]})");
  CHECK(cli({"run", d / "all.json", "--dry-run"}).rc == kExitOk);
  write(d / "bad.json", R"({"benchmarks": [{"pattern": "toy", "params": {"device": "some"}}]})");
  expect_usage(cli({"run", d / "bad.json"}), "benchmarks[0].params.device: expected an integer from 0 to 1023");
  expect_usage(cli(toy_run({"--devices", "0,-1"})), R"(--devices "0,-1": "-1" is not a device index; expected 'all')");
  expect_usage(cli(toy_run({"--devices", "0,,1"})), R"(--devices "0,,1": "" is not a device index)");
  expect_usage(cli(toy_run({"--devices", "0", "--device", "1"})), "--device excludes --devices");
  json big = json::parse(R"({"benchmarks": [{"pattern": "toy", "params": {"scale": []}}]})");
  for (int i = 0; i < 20000; ++i) big["benchmarks"][0]["params"]["scale"].push_back("x");
  write(d / "big.json", big.dump());
  expect_usage(cli({"run", d / "big.json"}), R"(benchmarks[0].params.scale[0]: expected an integer from 1 to 8, got "x")");
}

TEST_CASE("9: a runaway plan is refused before anything is built, and names are bounded strings") {
  expect_usage(cli({"reduce", "--variant", "cpu", "--n", "1:2^40", "--dtype", "int32,float32,float64", "--op",
                    "sum,min,max", "--block", "32,64,128,256,512,1024", "--max-runs", "1000"}),
               "the cross product has 2214 runs, more than the limit of 1000");
  Dir d("runaway");
  json many = json::parse(R"({"benchmarks": [{"pattern": "toy", "params": {"n": []}}]})");
  for (int i = 1; i <= 400; ++i) many["benchmarks"][0]["params"]["n"].push_back(i);
  many["benchmarks"][0]["params"]["scale"] = {1, 2, 3, 4, 5, 6, 7, 8};
  many["benchmarks"][0]["params"]["seed"] = json::array();
  for (int i = 0; i < 40; ++i) many["benchmarks"][0]["params"]["seed"].push_back(i);
  write(d / "many.json", many.dump());
  expect_usage(cli({"run", d / "many.json"}), "more than the limit of 100000");
  write(d / "name.json", R"({"name": ")" + std::string(5000, 'x') + R"(", "benchmarks": [{"pattern": "toy"}]})");
  expect_usage(cli({"run", d / "name.json"}), "name: expected a string of at most 1000 characters");
  std::string wide;  // 501 characters of two bytes each
  for (int i = 0; i < 501; ++i) wide += "\xc3\xa9";
  write(d / "wide.json", R"({"name": ")" + wide + R"(", "benchmarks": [{"pattern": "toy"}]})");
  CHECK(cli({"run", d / "wide.json", "--dry-run"}).rc == kExitOk);
  write(d / "name2.json", R"({"name": [1], "benchmarks": [{"pattern": "toy"}]})");
  expect_usage(cli({"run", d / "name2.json"}), "name: expected a string");
}

TEST_CASE("10: a seed that is not an integer from 0 to 2^63-1 is refused") {
  for (const char* seed : {"-1", "18446744073709551616", "99999999999999999999999", "9223372036854775808", "1e3", ""})
    expect_usage(cli(toy_run({"--seed", seed})), "--seed");
  CHECK(cli(toy_run({"--seed", "9223372036854775807"})).rc == kExitOk);
}

TEST_CASE("11: --min-time is decimal seconds, and results record the samples taken and the time spent") {
  expect_usage(cli(toy_run({"--min-time", "0x10"})), "--min-time");
  expect_usage(cli(toy_run({"--min-time", "inf"})), "--min-time");
  const Outcome r = cli(toy_run({"--variant", "loop", "--min-time", "0.05", "--json", "-"}));
  REQUIRE(r.rc == kExitOk);
  const json m = json::parse(r.out).at("results").at(0).at("measure");
  CHECK(m.at("min_time_s") == 0.05);
  CHECK(m.at("samples").get<int>() >= 3);
  CHECK(m.at("capped").is_boolean());
  CHECK((m.at("capped") == true || m.at("sampled_s").get<double>() >= 0.05));
  CHECK(m.at("timer") == "host_clock");  // a host step: the host's clock
  // The toy pattern caps sampling at 1000: as many asked for, and no time, is
  // not cut short; more is. Hot: a flush of the host's caches before each of
  // 3000 samples made this the slowest test in CI.
  auto measured = [](const char* samples) {
    const Outcome o =
        cli(toy_run({"--variant", "loop", "--min-samples", samples, "--min-time", "0", "--hot", "--json", "-"}));
    REQUIRE(o.rc == kExitOk);
    return json::parse(o.out).at("results").at(0).at("measure");
  };
  const json full = measured("1000");
  CHECK(full.at("samples") == 1000);
  CHECK(full.at("capped") == false);
  const json cut = measured("2000");
  CHECK(cut.at("samples") == 1000);
  CHECK(cut.at("capped") == true);
}

TEST_CASE("12: an empty output path, or one that reads as an option, is refused") {
  expect_usage(cli(toy_run({"--json", ""})), "--json: an empty path");
  expect_usage(cli(toy_run({"--csv", ""})), "--csv: an empty path");
  expect_usage(cli(toy_run({"--json", "--"})), "--json '--': looks like an option, not a path (write ./-- for");
  expect_usage(cli(toy_run({"--csv", "-x"})), "--csv '-x': looks like an option");
  Dir d("empty");
  REQUIRE(cli(toy_run({"--json", d / "a.json"})).rc == kExitOk);
  expect_usage(cli({"compare", d / "a.json", d / "a.json", "--json", ""}), "--json: an empty path");
}

TEST_CASE("13: a gate fails when the new run lacks the baseline's rows, unless allowed") {
  Dir d("gate");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  REQUIRE(cli(toy_run({"--variant", "loop", "--json", d / "part.json"})).rc == kExitOk);
  REQUIRE(cli(toy_run({"--n", "200", "--json", d / "other.json"})).rc == kExitOk);
  json empty = json::parse(read(d / "base.json"));
  empty["results"] = json::array();
  write(d / "empty.json", empty.dump());
  const Outcome none = cli({"compare", d / "base.json", d / "empty.json"});
  CHECK(none.rc == 1);
  CHECK(none.out.find("FAIL: no result of the new run matches") != std::string::npos);
  CHECK(cli({"compare", d / "base.json", d / "other.json"}).rc == 1);
  const Outcome part = cli({"compare", d / "base.json", d / "part.json"});
  CHECK(part.rc == 1);
  CHECK(part.out.find("2 results of the baseline are missing") != std::string::npos);
  // Two runs of three samples each, timed on a busy host: a 99% threshold
  // keeps their speed out of what this checks.
  CHECK(cli({"compare", d / "base.json", d / "part.json", "--allow-missing", "--threshold", "99%"}).rc == 0);
}

namespace {

// compare of a toy run's results against a copy that `change` has edited.
struct ChangedResults {
  Dir d;
  json base;
  explicit ChangedResults(const std::string& name) : d(name) {
    REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
    base = json::parse(read(d / "base.json"));
  }
  Outcome operator()(const std::function<void(json&)>& change) const {
    json doc = base;
    change(doc);
    write(d / "bad.json", doc.dump());
    return cli({"compare", d / "base.json", d / "bad.json"});
  }
};

}  // namespace

TEST_CASE("14: rows no run can have measured are refused, naming the row") {
  const ChangedResults changed("numbers");
  auto with = [&](const std::function<void(json&)>& change) {
    return changed([&](json& doc) { change(doc["results"][1]); });
  };
  expect_usage(with([](json& r) { r["median_ms"] = -1; }), "/results/1 (unrolled");
  expect_usage(with([](json& r) { r["median_ms"] = 0; }), "median_ms");
  expect_usage(with([](json& r) { r.erase("median_ms"); }), "/results/1/median_ms: missing");
  expect_usage(with([](json& r) { r["samples_ms"] = json::array(); }), "samples_ms is empty");
  expect_usage(with([](json& r) { r["metrics"][0]["value"] = 0; }), "not a positive number");
  // Numbers that contradict each other: a run's median lies between its extremes.
  expect_usage(with([](json& r) { r["median_ms"] = 1e308; }), "median_ms and mean_ms must lie between min_ms and max_ms");
  expect_usage(with([](json& r) { r["mean_ms"] = r["min_ms"].get<double>() / 2; }), "must lie between");
  expect_usage(with([](json& r) { r["noise"] = -1; }), "noise must be a number, 0 or more");
  // The statistics are those of the samples (compare reads both).
  expect_usage(with([](json& r) {
                 for (json& v : r["samples_ms"]) v = 100.0;
               }),
               "min_ms, max_ms and median_ms must be the least, the greatest and the median of samples_ms");
  // Three equal samples of 0.1 ms sum to a mean an ulp above them: that is no contradiction.
  const Outcome equal = changed([](json& doc) {
    json& r = doc["results"][1];
    r["samples_ms"] = {0.1, 0.1, 0.1};
    r["median_ms"] = r["min_ms"] = r["max_ms"] = 0.1;
    r["mean_ms"] = (0.1 + 0.1 + 0.1) / 3;
  });
  CHECK(equal.rc != kExitUsage);
  expect_usage(with([](json& r) { r["error"] = "out of memory"; }), "verified is true, yet the row has an error");
}

TEST_CASE("14b: a results file or a row that is not an object says so") {
  const ChangedResults changed("shapes");
  expect_usage(changed([](json& doc) { doc = json::array(); }), "(root): expected an object, got []");
  expect_usage(changed([](json& doc) { doc["results"][1] = "hello"; }), "/results/1: expected an object, got \"hello\"");
}

namespace {

// A stream whose every write fails, as stdout does on a full disk.
struct FullBuffer : std::streambuf {
  int overflow(int) override { return traits_type::eof(); }
};

}  // namespace

TEST_CASE("15: output that cannot be written is an error, not exit 0") {
  FullBuffer full;
  std::ostream out(&full);
  const Outcome r = cli({"list"}, &out);
  CHECK(r.rc == kExitUsage);
  CHECK(r.err == "gpubench: error: writing the standard output failed\n");
  // Exit 2 whatever the verdict was: a run's FAIL row (exit 1 had the table
  // been printed), and a comparison's slower rows (the same).
  std::ostream run_out(&full);
  expect_usage(cli(toy_run({"--variant", "broken", "--min-samples", "1"}), &run_out),
               "writing the standard output failed");
  Dir d("full-verdict");
  const std::string base = d / "base.json", slow = d / "slow.json";
  REQUIRE(cli(toy_run({"--json", base})).rc == kExitOk);
  json doc = json::parse(read(base));
  for (json& row : doc["results"])
    for (json& v : row["samples_ms"]) v = v.get<double>() * 2;
  for (json& row : doc["results"])
    for (const char* k : {"median_ms", "min_ms", "max_ms", "mean_ms"}) row[k] = row[k].get<double>() * 2;
  write(slow, doc.dump());
  REQUIRE(cli({"compare", base, slow}).rc == 1);
  std::ostream compare_out(&full);
  expect_usage(cli({"compare", base, slow}, &compare_out), "writing the standard output failed");
}

TEST_CASE("15b: a run or a comparison whose table cannot be printed replaces no file") {
  Dir d("full");
  FullBuffer full;
  std::ostream out(&full);
  write(d / "results.json", "old\n");
  expect_usage(cli(toy_run({"--json", d / "results.json"}), &out),
               "writing the standard output failed: no output file was written");
  CHECK(read(d / "results.json") == "old\n");

  const std::string base = d / "base.json";
  REQUIRE(cli(toy_run({"--json", base})).rc == kExitOk);
  write(d / "compare.json", "old\n");
  expect_usage(cli({"compare", base, base, "--json", d / "compare.json"}, &out), "standard output failed");
  CHECK(read(d / "compare.json") == "old\n");
}

TEST_CASE("15c: the file standard error goes to is not replaced by an output") {
  Dir d("stderr");
  const std::string log = d / "run.log";
  const int saved = dup(STDERR_FILENO);
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE((saved >= 0 && fd >= 0));
  dup2(fd, STDERR_FILENO);  // as `gpubench ... --json run.log 2>run.log`
  const Outcome r = cli(toy_run({"--json", log}));
  dup2(saved, STDERR_FILENO);
  close(fd);
  close(saved);
  expect_usage(r, "cannot write '" + log + "': standard error is written to it");
}

TEST_CASE("16: a long file name is written through a short temporary name") {
  Dir d("long");
  const std::string name = std::string(250, 'r') + ".json";  // 255 characters
  const Outcome r = cli(toy_run({"--json", d / name}));
  INFO(r.err);
  CHECK(r.rc == kExitOk);
  CHECK(fs::exists(d / name));
}

TEST_CASE("17: messages say what is wrong, once, in one line") {
  Dir d("messages");
  write(d / "arr.json", "[1, 2]");
  expect_usage(cli({"run", d / "arr.json"}), "arr.json: (root): expected an object");
  write(d / "trunc.json", R"({"benchmarks": [)");
  const Outcome trunc = cli({"run", d / "trunc.json"});
  expect_usage(trunc, "not valid JSON");
  CHECK(trunc.err.find(d / "trunc.json") != std::string::npos);
  CHECK(trunc.err.find(d / "trunc.json") == trunc.err.rfind(d / "trunc.json"));  // the path once
  expect_usage(cli({"reduce", "--variant", "all,cpu"}), "'all' cannot be combined with other steps");
  expect_usage(cli({"reduce", "--n", "2^3:2^5:2^7"}), "a sweep is FIRST:LAST, with one ':'");
  expect_usage(cli({"reduce", "--n", "-5"}), "size '-5': must be at least 1");
  REQUIRE(cli(toy_run({"--json", d / "a.json"})).rc == kExitOk);
  REQUIRE(cli({"compare", d / "a.json", d / "a.json", "--json", d / "cmp.json"}).rc == kExitOk);
  expect_usage(cli({"compare", d / "a.json", d / "cmp.json"}), "this is a comparison");
}

TEST_CASE("18: host rows say what was done to the host's caches") {
  Outcome r = cli(toy_run({"--variant", "loop", "--json", "-"}));
  REQUIRE(r.rc == kExitOk);
  json doc = json::parse(r.out);
  CHECK(doc.at("results").at(0).at("l2") == "flushed");
  CHECK(doc.at("l2") == "flushed");
  CHECK(doc.at("host").at("threads").get<int>() >= 1);
  CHECK(doc.at("host").at("llc_bytes").get<std::int64_t>() > 0);
  r = cli(toy_run({"--variant", "loop", "--hot", "--json", "-"}));
  REQUIRE(r.rc == kExitOk);
  doc = json::parse(r.out);
  CHECK(doc.at("results").at(0).at("l2") == "hot");
}

TEST_CASE("19: a point named twice runs once") {
  const Outcome r = cli(toy_run({"--variant", "loop", "--n", "4,4", "--scale", "2,2"}));
  REQUIRE(r.rc == kExitOk);
  CHECK(r.out.find("toy mode=a n=4 scale=2") != std::string::npos);
  CHECK(r.out.find("toy mode=a n=4 scale=2") == r.out.rfind("toy mode=a n=4 scale=2"));
  Dir d("dupes");
  write(d / "c.json", R"({"benchmarks": [{"pattern": "toy", "variants": "loop", "params": {"n": ["2^10", "2^10"]}}]})");
  REQUIRE(cli({"run", d / "c.json", "--json", d / "out.json"}).rc == kExitOk);
  CHECK(json::parse(read(d / "out.json")).at("results").size() == 1);
}

TEST_CASE("20: what needs no GPU is checked first, for every run") {
  if (cuda_device_count() > 0)
    return testing::skip_case("a CUDA device is present: the order against the no-device error cannot be seen");
  expect_usage(cli({"reduce", "--n", "2^0:2^40"}), "host memory");
  expect_usage(cli({"reduce", "--n", "1K", "--json", "/nonexistent-dir/x.json"}), "cannot write");
}

TEST_CASE("21: an output stream that fails leaves the command's files as they were") {
  Dir d("streams");
  write(d / "keep.json", "old");
  expect_usage(cli(toy_run({"--json", d / "keep.json", "--csv", "/dev/full"})), "cannot write '/dev/full'");
  CHECK(read(d / "keep.json") == "old");
}

TEST_CASE("22: a JSON syntax error names the file, line and column, and why") {
  Dir d("syntax");
  write(d / "comma.json", "{\n  \"benchmarks\": [\n    {\"pattern\": \"toy\"},\n  ]\n}\n");
  expect_usage(cli({"run", d / "comma.json"}), "comma.json:4:3: not valid JSON: syntax error");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  write(d / "cut.json", read(d / "base.json").substr(0, 100));
  expect_usage(cli({"compare", d / "base.json", d / "cut.json"}), "cut.json:");
  // The parser would stop at a NUL byte and take what comes before it.
  write(d / "nul.json", read(d / "base.json") + std::string("\0junk", 5));
  expect_usage(cli({"compare", d / "base.json", d / "nul.json"}), "not valid JSON: a NUL byte");
  write(d / "nul2.json", std::string("{\n  \"benchmarks\": []}\0", 22));
  expect_usage(cli({"run", d / "nul2.json"}), "nul2.json:2:20: not valid JSON: a NUL byte");
  // A number past a double's range: the parser's reason, with its line and column.
  write(d / "big.json", "{\"benchmarks\": [{\"pattern\": \"toy\",\n  \"params\": {\"seed\": 1e999}}]}");
  expect_usage(cli({"run", d / "big.json"}), "big.json:2:27: not valid JSON: number overflow parsing '1e999'");
}

TEST_CASE("23: a name with control characters stays on one line, escaped") {
  expect_usage(cli(toy_run({"--variant", "loop\nx"})), "unknown toy variant 'loop\\nx'");
  const Outcome esc = cli(toy_run({"--variant", "\x1b[31mred"}));
  expect_usage(esc, "\\x1b[31mred");
  CHECK(esc.err.find('\x1b') == std::string::npos);
  // C1 controls (U+009B is a terminal's one-byte CSI) and bidirectional overrides too.
  const Outcome c1 = cli(toy_run({"--variant", "a\xc2\x9b" "31mred\xe2\x80\xae" "b"}));
  expect_usage(c1, "a\\u009b31mred\\u202eb");
  CHECK(c1.err.find("\xc2\x9b") == std::string::npos);
  Dir d("control");
  write(d / "key.json", R"({"benchmarks": [{"pattern": "toy", "params": {"n\nx": 1}}]})");
  expect_usage(cli({"run", d / "key.json"}), "benchmarks[0].params");
}

TEST_CASE("24: a device file is refused as a config or results file, not read forever") {
  expect_usage(cli({"run", "/dev/zero"}), "cannot read '/dev/zero': it is a device, not a file");
  expect_usage(cli({"compare", "/dev/urandom", "/dev/zero"}), "it is a device");
}

TEST_CASE("25: a results row without its primary metric's value, or an integer field out of range, is refused") {
  const ChangedResults with("fields");
  expect_usage(with([](json& doc) { doc["results"][1]["primary"] = "nope"; }),
               "/results/1/primary: 'nope' is not one of the row's metrics");
  expect_usage(with([](json& doc) { doc["results"][1]["metrics"] = json::array(); }), "/results/1/primary");
  expect_usage(with([](json& doc) { doc["results"][1]["metrics"][0]["value"] = nullptr; }), "has no value");
  expect_usage(with([](json& doc) { doc["schema_version"] = 2.9; }), "/schema_version: expected an integer");
  expect_usage(with([](json& doc) { doc["schema_version"] = 4294967298; }), "/schema_version: expected an integer");
  expect_usage(with([](json& doc) { doc["results"][1]["device"] = 1e20; }), "/results/1/device: expected an integer");
  expect_usage(with([](json& doc) { doc["results"][1]["device"] = 18446744073709551615ull; }), "/results/1/device: expected an integer");
}

TEST_CASE("26: numbers on the command line are plain decimals in their range") {
  Dir d("numbers-cli");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  for (const char* t : {"0x10", "1e1", "nan", "-1", "100"})
    expect_usage(cli({"compare", d / "base.json", d / "base.json", "--threshold", t}), "--threshold");
  CHECK(cli({"compare", d / "base.json", d / "base.json", "--threshold", "2.5%"}).rc == kExitOk);
  expect_usage(cli(toy_run({"--device", "-1"})), "--device");
  expect_usage(cli(toy_run({"--device", "0x1"})), R"(--device: expected a whole number from 0 to 1023, got "0x1")");
  for (const char* n : {"0x10", "1e3"})
    expect_usage(cli(toy_run({"--min-samples", n})),
                 fmt::format(R"(--min-samples: expected a whole number from 1 to 100000, got "{}")", n));
  expect_usage(cli(toy_run({"--max-runs", "0"})), "expected a whole number from 1 up, got \"0\"");
  write(d / "two.json", R"({"benchmarks": [{"pattern": "toy", "variants": "loop", "params": {"n": 4}},
                                           {"pattern": "toy", "variants": "loop", "params": {"n": 8}}]})");
  expect_usage(cli({"run", d / "two.json", "--max-runs", "1"}), "more than 1 runs up to this benchmark");
}

TEST_CASE("27: standard output named twice, once as '-' and once by a path, is refused") {
  expect_usage(cli(toy_run({"--json", "/dev/stdout", "--csv", "-"})), "is named as two outputs");
}

TEST_CASE("28: --dry-run refuses what --concurrent would refuse: runs that do not fit in host memory at once") {
  std::string devices = "0";  // 1024 runs of about 1 GiB each: more than any host's memory
  for (int d = 1; d < 1024; ++d) devices += "," + std::to_string(d);
  expect_usage(cli({"reduce", "--variant", "cpu", "--n", "2^28", "--devices", devices, "--concurrent", "--dry-run"}),
               "--concurrent: the runs on 1024 devices need");
}

TEST_CASE("29: a key given twice in one object of a config or a results file is refused, naming its path") {
  Dir d("twice");
  write(d / "config.json", R"({"benchmarks": [{"pattern": "nope"}], "benchmarks": [{"pattern": "toy"}]})");
  expect_usage(cli({"run", d / "config.json", "--dry-run"}), "config.json: benchmarks: given twice in one object");
  write(d / "params.json", R"({"benchmarks": [{"pattern": "toy"}, {"pattern": "toy", "params": {"n": 4, "n": 8}}]})");
  expect_usage(cli({"run", d / "params.json", "--dry-run"}),
               "params.json: benchmarks[1].params.n: given twice in one object");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  std::string text = read(d / "base.json");
  text.insert(text.find('{') + 1, "\"schema_version\": 1, ");
  write(d / "new.json", text);
  expect_usage(cli({"compare", d / "base.json", d / "new.json"}),
               "new.json: schema_version: given twice in one object");
}

TEST_CASE("30: names and values in a results file that would break a line or drive the terminal are refused") {
  Dir d("control-results");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  const json base = json::parse(read(d / "base.json"));
  struct Case {
    const char* command;  // compare and fleet print a results file's names and values
    std::function<void(json&)> edit;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"compare", [](json& doc) { doc["results"][0]["variant"] = "a\nb\x1b[31mred"; },
       R"(/results/0/variant: expected text without control characters, got "a\nb\u001b[31mred")"},
      {"compare", [](json& doc) { doc["results"][0]["params"]["mode"] = "a\tb"; },
       "/results/0/params/mode: expected text without"},
      {"compare",
       [](json& doc) { doc["results"][0]["params"]["list"] = json::array({"x", json::object({{"k", "y\xe2\x80\xaez"}})}); },
       "/results/0/params/list/1/k: expected text without"},
      {"compare", [](json& doc) { doc["results"][0]["variant"] = "a\xc2\x9b" "b\xe2\x81\xa6"; },
       R"(/results/0/variant: expected text without control characters, got "a\u009bb\u2066")"},
      {"compare", [](json& doc) { doc["results"][0]["tags"]["precision"] = "fp\x1b[2J"; },
       "/results/0/tags/precision: expected text without"},
      {"fleet", [](json& doc) { doc["host"]["name"] = "box\x1b[31m"; },
       "/host/name: expected text without control characters"},
      {"fleet", [](json& doc) { doc["results"][0]["measure"]["devices"] = json::array({"\xe2\x80\xae" "evil", 1}); },
       "/results/0/measure/devices/0: expected text without control characters"},
      // Not a control character, but a value the schema does not have.
      {"compare", [](json& doc) { doc["results"][0]["l2"] = "warm"; },
       R"(/results/0/l2: expected 'flushed', 'hot' or 'n/a', got "warm")"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    json doc = base;
    cases[i].edit(doc);
    const std::string edited = d / fmt::format("edited{}.json", i);
    write(edited, doc.dump());
    expect_usage(cli({cases[i].command, d / "base.json", edited}), cases[i].message);
  }
  // details are never printed: a step's own text there (collective's nvidia-smi topology) may hold lines and tabs.
  json doc = base;
  doc["results"][0]["details"]["topology"] = "\tGPU0\tGPU1\nGPU0\t X \tNV18\n";
  write(d / "details.json", doc.dump());
  CHECK(cli({"compare", d / "base.json", d / "details.json"}).rc == kExitOk);
}

TEST_CASE("31: list names an empty pattern as unknown, and an unreadable file says why") {
  expect_usage(cli({"list", ""}), "unknown pattern ''; valid: reduce");
  Dir d("unreadable");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  expect_usage(cli({"compare", d / "missing.json", d / "base.json"}), "missing.json': No such file or directory");
}

TEST_CASE("32: an error line that repeats a huge argument is cut, and a bad option is not blamed on the config") {
  const Outcome r = cli(toy_run({"--variant", std::string(100000, 'x')}));
  CHECK(r.rc == kExitUsage);
  CHECK(r.err.rfind("gpubench: error: unknown toy variant 'xxx", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.size() < 2100);
  CHECK(r.err.find(" ...\n") != std::string::npos);
  Dir d("devices");
  write(d / "c.json", R"({"benchmarks": [{"pattern": "toy"}]})");
  const Outcome devices = cli({"run", d / "c.json", "--devices", ""});
  expect_usage(devices, "--devices");
  CHECK(devices.err.find("c.json") == std::string::npos);
}

TEST_CASE("33: a results file whose params, measure, where, kind or host break the schema is refused, naming it") {
  const ChangedResults with("schema");
  expect_usage(with([](json& doc) { doc["results"][1]["params"] = "n=4"; }),
               R"(/results/1/params: expected an object, got "n=4")");
  expect_usage(with([](json& doc) { doc["results"][1]["params"] = nullptr; }), "/results/1/params: expected an object");
  expect_usage(with([](json& doc) { doc["results"][1]["measure"] = "hot"; }), "/results/1/measure: expected an object");
  expect_usage(with([](json& doc) { doc["results"][1]["where"] = "moon"; }),
               R"(/results/1/where: expected 'device' or 'host', got "moon")");
  expect_usage(with([](json& doc) { doc["kind"] = "other"; }), R"(/kind: expected 'results', got "other")");
  expect_usage(with([](json& doc) { doc["host"] = "box"; }), R"(/host: expected an object, got "box")");
  CHECK(with([](json& doc) { doc["results"][1]["measure"] = nullptr; }).rc == kExitOk);
  CHECK(with([](json& doc) { doc["host"] = nullptr; }).rc == kExitOk);
}

TEST_CASE("34: compare --md escapes a pipe in a name, so the table keeps its columns") {
  Dir d("pipe");
  REQUIRE(cli(toy_run({"--json", d / "base.json"})).rc == kExitOk);
  json doc = json::parse(read(d / "base.json"));
  for (json& r : doc["results"]) r["variant"] = r["variant"].get<std::string>() + "|x\\y µs";
  write(d / "pipe.json", doc.dump());
  const Outcome r = cli({"compare", d / "pipe.json", d / "pipe.json", "--md"});
  INFO(r.err);
  CHECK(r.rc == kExitOk);
  for (std::size_t at = r.out.find("|x"); at != std::string::npos; at = r.out.find("|x", at + 1))
    CHECK(r.out[at - 1] == '\\');  // every one escaped: no row has a column more
  CHECK(r.out.find("\\|x\\\\y µs |") != std::string::npos);
}

TEST_CASE("35: a config's point that needs more host memory than may be used names its benchmark") {
  Dir d("config-host");
  write(d / "big.json", R"({"benchmarks": [{"pattern": "reduce", "variants": "cpu", "params": {"n": 1024}},
                                           {"pattern": "reduce", "variants": "cpu", "params": {"n": "2^40"}}]})");
  const Outcome big = cli({"run", d / "big.json", "--dry-run"});
  expect_usage(big, "big.json: benchmarks[1]: reduce n=1099511627776 ");
  CHECK(big.err.find("may be used") != std::string::npos);
}

TEST_CASE("36: steps named twice or out of ladder order are planned, and listed, once each in ladder order") {
  const Outcome twice = cli({"reduce", "--variant", "cpu,reduce2,cpu,reduce1", "--n", "1K", "--dry-run"});
  INFO(twice.err);
  REQUIRE(twice.rc == kExitOk);
  CHECK(twice.out.find("variants=reduce1,reduce2,cpu\n") != std::string::npos);
  Dir d("config-twice");
  write(d / "twice.json", R"({"benchmarks": [{"pattern": "reduce", "variants": ["cpu", "cpu"], "params": {"n": 8}}]})");
  const Outcome config = cli({"run", d / "twice.json", "--dry-run"});
  INFO(config.err);
  REQUIRE(config.rc == kExitOk);
  CHECK(config.out.find("variants=cpu\n") != std::string::npos);
}

TEST_CASE("37: words left over after a command's options are named in the order given") {
  expect_usage(cli({"reduce", "--variant", "cpu", "--warmup", "0", "--dry-run"}), "not expected: --warmup 0 (see");
  expect_usage(cli({"list", "reduce", "one", "two"}), "not expected: one two (see");
}
