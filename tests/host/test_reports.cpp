#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/errors.hpp"
#include "src/detail/json_text.hpp"
#include "src/report/csv_report.hpp"
#include "src/report/json_report.hpp"
#include "src/report/output_file.hpp"
#include "src/report/table.hpp"

using namespace gpubench;

namespace {

BenchResult result(const char* variant, const char* ladder, double median_ms, bool ok) {
  BenchResult r;
  r.pattern = "reduce";
  r.variant = variant;
  r.ladder = ladder;
  r.summary = "a step";
  r.params = {{"n", 1024}, {"dtype", "int32"}, {"op", "sum"}, {"block", 256}};
  r.samples_ms = {median_ms, median_ms};
  r.stats = summarize(r.samples_ms);
  r.primary = "gbps";
  r.metrics = {{"gbps", "GB/s", "GB/s", 4096 / (median_ms * 1e-3) / 1e9, 1},
               {"pct_of_peak", "% peak", "%", 50.0, 1},
               {"pct_of_copy", "% copy", "%", std::nullopt, 1}};
  r.verified = ok;
  if (!ok) r.error = "first run: got 1, expected 2";
  return r;
}

RunReport sample_report() {
  RunReport rep;
  DeviceInfo d;
  d.name = "Test GPU";
  d.cc_major = 9;
  d.sm_count = 132;
  d.l2_bytes = 60 << 20;
  d.memory_bytes = std::size_t(80) << 30;
  d.theoretical_gbps = 4800;
  d.copy_gbps = 4000;
  rep.devices = {d};
  rep.results = {result("reduce0", "slides", 4.0, true), result("reduce1", "slides", 2.0, true),
                 result("cub", "baseline", 1.0, true), result("course1", "course", 8.0, false)};
  rep.results[2].details = {{"plan", "the library's algorithm"}};
  return rep;
}

}  // namespace

TEST_CASE("speedups: step within a ladder, total against the first row") {
  const auto rs = sample_report().results;
  CHECK_FALSE(step_speedup(rs, 0));
  CHECK(step_speedup(rs, 1).value() == Approx(2.0));
  CHECK_FALSE(step_speedup(rs, 2));  // baselines have no previous step
  CHECK_FALSE(step_speedup(rs, 3));  // first of its ladder
  CHECK(total_speedup(rs, 2).value() == Approx(4.0));
}

TEST_CASE("the JSON document carries the documented fields and reads back") {
  const RunReport rep = sample_report();
  const nlohmann::json doc = to_json(rep);
  CHECK(doc.at("schema_version") == kSchemaVersion);
  for (const char* key : {"name", "version", "git_commit"}) CHECK(doc.at("tool").contains(key));
  for (const char* key : {"name", "compute_capability", "sm_count", "l2_bytes", "memory_bytes", "theoretical_gbps",
                          "copy_gbps"})
    CHECK(doc.at("device").contains(key));
  for (const char* key : {"pattern", "variant", "params", "samples_ms", "median_ms", "min_ms", "max_ms", "noise",
                          "primary", "metrics", "verified", "error", "continues", "tags", "details"})
    CHECK(doc.at("results").at(0).contains(key));
  CHECK(doc.at("kind") == "results");
  CHECK(doc.at("results").at(0).at("error").is_null());
  const auto& gbps = doc.at("results").at(0).at("metrics").at(0);
  CHECK(gbps.at("name") == "gbps");
  CHECK(gbps.at("unit") == "GB/s");
  CHECK(gbps.at("value").get<double>() == Approx(1.024e-3));
  CHECK(doc.at("results").at(0).at("metrics").at(2).at("value").is_null());
  CHECK(doc.at("results").at(3).at("error") == "first run: got 1, expected 2");
  CHECK(doc.at("results").at(2).at("details").at("plan") == "the library's algorithm");

  const RunReport back = report_from_json(nlohmann::json::parse(doc.dump()));
  CHECK(to_json(back) == doc);
}

TEST_CASE("reading a malformed document names the JSON path") {
  nlohmann::json doc = to_json(sample_report());
  doc["results"][1].erase("median_ms");
  CHECK_THROWS_WITH(report_from_json(doc), "/results/1/median_ms: missing");
  doc = to_json(sample_report());
  doc["results"][0]["verified"] = "yes";
  CHECK_THROWS_WITH(report_from_json(doc), "/results/0/verified: expected true or false, got \"yes\"");
  doc["schema_version"] = 99;
  CHECK_THROWS_WITH(report_from_json(doc), Catch::Contains("schema_version"));
  for (const char* cc : {"9", "9.0x", " 9.0", "9.-1", "9.0.1", "100.0"}) {
    doc = to_json(sample_report());
    doc["devices"][0]["compute_capability"] = cc;
    CHECK_THROWS_WITH(report_from_json(doc), Catch::StartsWith("/devices/0/compute_capability: expected 'major.minor'"));
  }
}

TEST_CASE("the table shows every row, PASS and FAIL, and the failure reason") {
  const std::string t = format_table(sample_report());
  for (const char* s : {"variant", "GB/s", "% peak", "50.0%", "reduce0", "reduce1", "cub", "PASS", "FAIL", "2.00x", "4.00x",
                        "4.000 ms", "Test GPU", "FAIL course1 ({\"block\":256,\"dtype\":\"int32\",\"n\":1024,\"op\":\"sum\"}): first run: got 1, expected 2"})
    CHECK(t.find(s) != std::string::npos);
  const std::string md = format_markdown(sample_report());
  CHECK(md.find("| variant | step |") != std::string::npos);
  CHECK(md.find("|---|---|---:|") != std::string::npos);
  CHECK(format_time(0.01234) == "12.34 us");
  CHECK(format_time(3.14159) == "3.142 ms");
}

TEST_CASE("the throttled column: YES, no, and no (power) with its legend for a step at the rated power limit") {
  RunReport rep = sample_report();
  rep.results.at(0).clocks = {{"throttled", true}};
  rep.results.at(1).clocks = {{"throttled", false}, {"power_limited", true}};
  rep.results.at(2).clocks = {{"throttled", false}};
  const std::string t = format_table(rep);
  for (const char* s : {"throttled", "YES", "no (power)", "no (power): at the GPU's rated power limit"})
    CHECK(t.find(s) != std::string::npos);
  rep.results.at(1).clocks = {{"throttled", false}};
  CHECK(format_table(rep).find("no (power)") == std::string::npos);
}

TEST_CASE("CSV has a header and one row per result") {
  const std::string csv = format_csv(sample_report());
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);
  CHECK(csv.rfind("pattern,variant,ladder,params,", 0) == 0);
  CHECK(csv.find("reduce,course1,course,block=256;dtype=int32;n=1024;op=sum,2,") != std::string::npos);
  CHECK(csv.find(",gbps,GB/s,0.0005,false,") != std::string::npos);
  CHECK(csv.rfind(",verified,device,l2\n", csv.find('\n')) != std::string::npos);
  CHECK(csv.find(",false,0,flushed\n") != std::string::npos);
  RunReport unrecorded = sample_report();
  unrecorded.results.at(0).device = -1;  // files from before rows recorded their device
  unrecorded.results.at(0).hot = true;
  CHECK(format_csv(unrecorded).find(",,hot\n") != std::string::npos);
}

TEST_CASE("a value quoted in a message is cut before a UTF-8 character, never inside one") {
  const std::string cut = quoted(nlohmann::json(std::string(58, 'a') + "\xc3\xa9" "b"));  // "aaa...aé b", é at bytes 59-60
  CHECK(cut == "\"" + std::string(58, 'a') + "...");
  CHECK(quoted(nlohmann::json("\xff")) == "\"\xef\xbf\xbd\"");  // not UTF-8: the replacement character
}

TEST_CASE("output files are written whole, and unwritable paths are refused up front") {
  const std::string path = "reports_test_output.txt";
  std::ostringstream out;
  write_outputs({{check_outputs({path}, {}).at(0), "hello\n"}}, out);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "hello\n");
  std::remove(path.c_str());

  CHECK_THROWS_AS(check_outputs({"/nonexistent-dir/x.json"}, {}), UsageError);
  CHECK_THROWS_WITH(check_outputs({"/tmp"}, {}), Catch::Contains("is a directory"));
  CHECK_THROWS_AS(check_outputs({"results/"}, {}), UsageError);
  CHECK_THROWS_WITH(check_outputs({path + "/"}, {}),  // a file's name with a '/' after it
                    Catch::EndsWith("a path that ends in '/' names a directory, not a file"));
}

TEST_CASE("an output stream that fails leaves the files of the same command as they were") {
  const std::string path = "reports_test_kept.txt";
  auto content = [&] {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  std::ofstream(path) << "old\n";
  const OutputTarget file = check_outputs({path}, {}).at(0);

  std::ostringstream failed;  // a full disk behind standard output
  failed.setstate(std::ios::badbit);
  CHECK_THROWS_WITH(write_outputs({{file, "new\n"}, {check_outputs({"-"}, {}).at(0), "table\n"}}, failed),
                    Catch::Contains("standard output failed"));
  CHECK(content() == "old\n");

  std::ostringstream out;
  CHECK_THROWS_WITH(write_outputs({{file, "new\n"}, {check_outputs({"/dev/full"}, {}).at(0), "csv\n"}}, out),
                    Catch::Contains("/dev/full"));
  CHECK(content() == "old\n");

  write_outputs({{file, "new\n"}, {check_outputs({"/dev/null"}, {}).at(0), "csv\n"}}, out);
  CHECK(content() == "new\n");
  std::remove(path.c_str());
}

TEST_CASE("rows of several devices: a table per device and point, each device named, and the JSON reads back") {
  RunReport rep = sample_report();
  DeviceInfo second = rep.devices.front();
  second.index = 1;
  second.uuid = "GPU-00000000-0000-0000-0000-000000000001";
  rep.devices.push_back(second);
  const std::size_t per_device = rep.results.size();
  for (std::size_t i = 0; i < per_device; ++i) {
    BenchResult r = rep.results[i];
    r.device = 1;
    rep.results.push_back(r);
  }
  const std::string table = format_table(rep);
  CHECK(table.find("device 0: Test GPU") != std::string::npos);
  CHECK(table.find("device 1: Test GPU") != std::string::npos);
  CHECK(table.find("L2=flushed device=1") != std::string::npos);
  const RunReport back = report_from_json(to_json(rep));
  REQUIRE(back.devices.size() == 2);
  CHECK(back.devices[1].index == 1);
  CHECK(back.devices[1].uuid == second.uuid);
  CHECK(back.results.back().device == 1);
  CHECK(group_start(back.results, per_device) == per_device);  // a new device starts a group
  // One device: no device in the table lines, as before.
  CHECK(format_table(sample_report()).find("device=") == std::string::npos);
}

namespace {

// The variants of a table's rows, top to bottom (a row ends in its check).
std::vector<std::string> row_order(const std::string& table) {
  std::vector<std::string> order;
  std::istringstream in(table);
  for (std::string line; std::getline(in, line);) {
    const auto ends = [&](const std::string& s) {
      return line.size() > s.size() && line.compare(line.size() - s.size(), s.size(), s) == 0;
    };
    if (ends(" PASS") || ends(" FAIL") || ends(" unavailable")) order.push_back(line.substr(0, line.find(' ')));
  }
  return order;
}

}  // namespace

TEST_CASE("unavailable steps: a point measured twice shows each run's row in its place, after append and a file") {
  BenchResult gone = result("reduce9", "slides", 1.0, false);
  gone.error.reset();
  RunReport both = sample_report(), second = sample_report();
  both.unavailable = {{gone, "needs compute capability 10.0", 0, 4}};     // the run's last step
  second.unavailable = {{gone, "needs compute capability 10.0", 0, 1}};  // after its first row
  append(both, std::move(second));
  REQUIRE(both.unavailable.size() == 2);
  CHECK(both.unavailable[1].first == 4);
  const std::vector<std::string> want = {"reduce0", "reduce1", "cub",     "course1", "reduce9",
                                         "reduce0", "reduce9", "reduce1", "cub",     "course1"};
  CHECK(row_order(format_table(both)) == want);  // one table: the same point, device and L2 setting
  CHECK(row_order(format_table(report_from_json(to_json(both)))) == want);
}

TEST_CASE("unavailable steps: a row in their run's table, a table of their own for a run none of whose steps ran") {
  RunReport rep = sample_report();
  BenchResult gone = result("reduce9", "slides", 1.0, false);
  gone.error.reset();
  BenchResult alone = gone;  // a later run at another point, where nothing could run
  alone.params["n"] = 2048;
  // reduce9 in its ladder place, after two of its run's rows; the second entry as files before `at` have it.
  rep.unavailable = {{gone, "needs compute capability 10.0", 0, 2}, {alone, "needs compute capability 10.0", 4}};
  for (const RunReport& r : {rep, report_from_json(to_json(rep))}) {
    const std::string t = format_table(r);
    INFO(t);
    const std::size_t first = t.find("reduce block=256 dtype=int32 n=1024 op=sum"),
                      second = t.find("reduce block=256 dtype=int32 n=2048 op=sum");
    REQUIRE(first != std::string::npos);
    REQUIRE(second != std::string::npos);
    const std::size_t row = t.find("\nreduce9 ");
    CHECK((first < row && row < second));
    CHECK((t.find("\nreduce1 ") < row && row < t.find("\ncub ")));
    CHECK(t.find("\nreduce9 ", second) != std::string::npos);
    CHECK(t.find("unavailable\n") != std::string::npos);
    // Once a reason, after the tables.
    const std::size_t reason = t.find("\nunavailable: reduce reduce9: needs compute capability 10.0\n");
    CHECK(reason > second);
    CHECK(t.find("unavailable: reduce", reason + 2) == std::string::npos);
  }
  nlohmann::json doc = to_json(rep);
  CHECK(doc["unavailable"][0]["at"] == 2);
  CHECK_FALSE(doc["unavailable"][1].contains("at"));
  // Without `at`, after its run's rows.
  doc["unavailable"][0].erase("at");
  const std::string t = format_table(report_from_json(doc));
  CHECK(t.find("\nreduce9 ") > t.find("\ncourse1 "));
  doc["unavailable"][0]["at"] = 5;  // past every row from its run's start (the file does not say where a run ends)
  CHECK_THROWS_WITH(report_from_json(doc), Catch::Contains("/unavailable/0/at: expected a count from 0 to 4"));
  doc["unavailable"][0]["at"] = 0;
  doc["unavailable"][1]["first"] = 5;  // past the rows
  CHECK_THROWS_WITH(report_from_json(doc), Catch::Contains("/unavailable/1/first: expected an index from 0 to 4"));
}
