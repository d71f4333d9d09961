// The regression gate and the fleet check, on a real H200 result and
// copies of it with known changes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "src/compare/compare.hpp"
#include "src/compare/fleet.hpp"
#include "src/detail/json_file.hpp"
#include "src/detail/errors.hpp"
#include "src/detail/stats.hpp"
#include "src/report/json_report.hpp"
#include "tests/host/cli_outcome.hpp"

using namespace gpubench;
using compare::Verdict;

namespace {

RunReport real_result() {
  return report_from_json(load_json_file(std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/reduce-2p28.json"));
}

void scale(BenchResult& r, double factor) {
  for (double& s : r.samples_ms) s *= factor;
  r.stats = summarize(r.samples_ms);
  for (Metric& m : r.metrics)
    if (m.name == r.primary) *m.value /= factor;
}

// r's samples made `median` times each of `factors`.
void resample(BenchResult& r, double median, const std::vector<double>& factors) {
  r.samples_ms.clear();
  for (const double f : factors) r.samples_ms.push_back(median * f);
  r.stats = summarize(r.samples_ms);
}

BenchResult& find(RunReport& rep, const std::string& variant) {
  for (auto& r : rep.results)
    if (r.variant == variant) return r;
  FAIL("no variant " << variant);
  throw;
}

const compare::Row& row_of(const compare::Comparison& c, const std::string& variant) {
  for (const auto& row : c.rows)
    if (row.variant == variant) return row;
  FAIL("no row " << variant);
  throw;
}

Verdict verdict_of(const compare::Comparison& c, const std::string& variant) { return row_of(c, variant).verdict; }

// base's rows on one device per name, device d named names[d].
RunReport on_gpus_named(const RunReport& base, const std::vector<std::string>& names) {
  RunReport r;
  for (std::size_t d = 0; d < names.size(); ++d) {
    DeviceInfo info = base.devices.at(0);
    info.index = int(d);
    info.name = names[d];
    r.devices.push_back(info);
    for (BenchResult row : base.results) {
      row.device = int(d);
      r.results.push_back(row);
    }
  }
  return r;
}

std::string why_of(const compare::Comparison& c, const std::string& variant) { return row_of(c, variant).why; }

}  // namespace

TEST_CASE("identical runs: every row the same, exit 0") {
  const RunReport base = real_result();
  const auto c = compare::compare(base, base, {});
  CHECK(c.rows.size() == base.results.size());
  for (const auto& row : c.rows) CHECK(row.verdict == Verdict::same);
  CHECK(compare::exit_code(c) == 0);
  CHECK(c.only_in_base.empty());
  CHECK(c.only_in_new.empty());
}

TEST_CASE("a variant 10% slower beyond its noise is a regression") {
  const RunReport base = real_result();
  RunReport fresh = base;
  scale(find(fresh, "reduce9"), 1.10);
  scale(find(fresh, "reduce6"), 1 / 1.10);
  const auto c = compare::compare(base, fresh, {});
  CHECK(verdict_of(c, "reduce9") == Verdict::slower);
  CHECK(verdict_of(c, "reduce6") == Verdict::faster);
  CHECK(verdict_of(c, "cub") == Verdict::same);
  CHECK(compare::exit_code(c) == 1);
  CHECK(compare::format_comparison(c, false).find("1 slower") != std::string::npos);
}

TEST_CASE("a row measured while the clock was held down is unclear, never slower, in either file") {
  const RunReport base = real_result();
  RunReport fresh = base;
  scale(find(fresh, "reduce9"), 1.10);
  find(fresh, "reduce9").clocks = {{"throttled", true}, {"reasons", {"hw_thermal"}}};
  RunReport throttled_base = base;
  find(throttled_base, "reduce6").clocks = {{"throttled", true}};
  scale(find(fresh, "reduce6"), 1.10);
  const auto c = compare::compare(throttled_base, fresh, {});
  CHECK(verdict_of(c, "reduce9") == Verdict::unclear);
  CHECK(verdict_of(c, "reduce6") == Verdict::unclear);
  CHECK(compare::exit_code(c) == 0);
  // The record survives the JSON round trip.
  const RunReport back = report_from_json(to_json(fresh));
  CHECK(back.results.at(0).throttled() == fresh.results.at(0).throttled());
  for (const BenchResult& r : back.results) CHECK(r.throttled() == (r.variant == "reduce9"));
}

TEST_CASE("noise alone is never a regression") {
  RunReport base = real_result();
  RunReport fresh = base;
  // Spikes: every tenth sample five times slower. The mean moves by 40%, the
  // median by a fraction of the run's spread.
  BenchResult& spiky = find(fresh, "reduce9");
  for (std::size_t i = 0; i < spiky.samples_ms.size(); i += 10) spiky.samples_ms[i] *= 5;
  spiky.stats = summarize(spiky.samples_ms);
  // Spread over a factor of three: 30 samples do not show a 6% change is real.
  std::vector<double> spread;
  for (int i = 0; i < 30; ++i) spread.push_back(0.5 + i / 30.0);
  const double m = find(base, "cub").stats.median_ms;
  resample(find(base, "cub"), m, spread);
  resample(find(fresh, "cub"), 1.06 * m, spread);
  const auto c = compare::compare(base, fresh, {});
  CHECK(verdict_of(c, "reduce9") == Verdict::same);
  CHECK(verdict_of(c, "cub") == Verdict::unclear);
  CHECK(why_of(c, "cub") == "noise");
  CHECK(compare::exit_code(c) == 0);
}

TEST_CASE("samples too few for the rank test: the change between the nearest samples decides") {
  // One sample a side can never give p < 0.01; neither can two against 77.
  CHECK(smallest_mann_whitney_p(1, 1) >= 0.01);
  CHECK(smallest_mann_whitney_p(77, 2) >= 0.01);
  CHECK(smallest_mann_whitney_p(77, 77) < 1e-20);
  RunReport base = real_result();
  for (BenchResult& r : base.results) {
    r.samples_ms.resize(1);
    r.stats = summarize(r.samples_ms);
  }
  RunReport fresh = base;
  scale(find(fresh, "reduce0"), 10);  // ten times slower
  scale(find(fresh, "reduce6"), 1.03);
  BenchResult& two = find(fresh, "cub");
  two.samples_ms = {two.stats.median_ms * 1.1, two.stats.median_ms * 1.1};
  two.stats = summarize(two.samples_ms);
  const auto c = compare::compare(base, fresh, {});
  CHECK(verdict_of(c, "reduce0") == Verdict::slower);
  CHECK(why_of(c, "reduce0") == "few samples");
  CHECK(verdict_of(c, "reduce6") == Verdict::same);
  CHECK(verdict_of(c, "cub") == Verdict::slower);
  CHECK(compare::exit_code(c) == 1);
  CHECK(compare::format_comparison(c, false).find("slower (few samples)") != std::string::npos);

  // Three samples a side whose medians are 10% apart but whose spreads
  // overlap: nothing shows the change is more than noise.
  RunReport base3 = real_result(), fresh3 = base3;
  const double m = find(base3, "reduce3").stats.median_ms;
  resample(find(base3, "reduce3"), m, {0.8, 1.0, 1.2});
  resample(find(fresh3, "reduce3"), m, {0.9, 1.1, 1.3});
  const auto c3 = compare::compare(base3, fresh3, {});
  CHECK(verdict_of(c3, "reduce3") == Verdict::unclear);
  CHECK(why_of(c3, "reduce3") == "few samples");
  CHECK(compare::exit_code(c3) == 0);
}

TEST_CASE("one stray sample does not hide a slowdown: the quartiles are apart") {
  RunReport base = real_result(), fresh = base;
  const double m = find(base, "reduce3").stats.median_ms;
  resample(find(base, "reduce3"), m, {1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07});
  resample(find(fresh, "reduce3"), m, {3.00, 3.01, 3.02, 3.03, 3.04, 3.05, 3.06, 0.9});  // three times slower, but one
  const auto c = compare::compare(base, fresh, {});
  CHECK(row_of(c, "reduce3").p_value > 0.01);  // the rank test alone would let it pass
  CHECK(verdict_of(c, "reduce3") == Verdict::slower);
  CHECK(compare::exit_code(c) == 1);
}

TEST_CASE("a row with too few samples for the rank test prints no p-value") {
  RunReport base = real_result(), fresh = base;
  for (RunReport* r : {&base, &fresh})
    for (BenchResult& x : r->results) {
      x.samples_ms.resize(1);
      x.stats = summarize(x.samples_ms);
    }
  scale(find(fresh, "reduce3"), 2);
  const auto c = compare::compare(base, fresh, {});
  const nlohmann::json doc = compare::to_json(c);
  CHECK(doc["rows"][3]["variant"] == "reduce3");
  CHECK(doc["rows"][3]["p_value"].is_null());
  CHECK(doc["rows"][3]["why"] == "few samples");
  CHECK(compare::format_comparison(c, false).find("  -  slower (few samples)") != std::string::npos);
}

TEST_CASE("rows matched per device index compare alike GPUs only") {
  // Two GPUs of different kinds, in the other order in the new run: device 0
  // is an H200 in one file and an H100 in the other.
  RunReport two = on_gpus_named(real_result(), {"NVIDIA H200", "NVIDIA H100"});
  RunReport swapped = on_gpus_named(real_result(), {"NVIDIA H100", "NVIDIA H200"});
  CHECK_THROWS_WITH(compare::compare(two, swapped, {}), Catch::Contains("device 0 is 'NVIDIA H200' in the baseline and "
                                                                         "'NVIDIA H100' in the new run"));
  compare::Options allow;
  allow.allow_device_mismatch = true;
  CHECK_NOTHROW(compare::compare(two, swapped, allow));
  CHECK_NOTHROW(compare::compare(two, two, {}));
}

TEST_CASE("a baseline row that did not verify sets no pace: unclear") {
  RunReport base = real_result();
  BenchResult& wrong = find(base, "reduce3");
  wrong.verified = false;
  scale(wrong, 0.5);  // wrong and twice as fast
  const auto c = compare::compare(base, real_result(), {});
  CHECK(verdict_of(c, "reduce3") == Verdict::unclear);
  CHECK(why_of(c, "reduce3") == "base FAIL");
  CHECK(compare::exit_code(c) == 0);
  CHECK(compare::to_json(c)["rows"][3]["why"] == "base FAIL");
  CHECK(compare::to_json(c)["exit_code"] == 0);
  CHECK(compare::to_json(compare::compare(real_result(), base, {}))["exit_code"] == 1);  // the new run is wrong
}

TEST_CASE("the base column holds the baseline's value of the new row's primary metric") {
  RunReport base = real_result();
  RunReport fresh = base;
  find(fresh, "reduce3").primary = "pct_of_peak";
  for (Metric& m : find(fresh, "reduce3").metrics)  // the base column must not read the new file's value
    if (m.name == "pct_of_peak") m.value = m.value.value() * 2;
  find(fresh, "reduce6").primary = "new_metric";
  find(fresh, "reduce6").metrics.emplace_back("new_metric", "new", "x", 1.0);
  const auto c = compare::compare(base, fresh, {});
  const Metric* was = find(base, "reduce3").metric("pct_of_peak");
  REQUIRE(was != nullptr);
  REQUIRE(was->value.has_value());
  CHECK(row_of(c, "reduce3").base == was->value);
  CHECK(row_of(c, "reduce3").fresh == *was->value * 2);
  CHECK_FALSE(row_of(c, "reduce6").base.has_value());
  CHECK(compare::format_comparison(c, false).find("  -  ") != std::string::npos);
  CHECK(compare::exit_code(c) == 0);
}

TEST_CASE("a pattern's own threshold judges its rows in place of the common one") {
  const RunReport base = real_result();
  RunReport fresh = base;
  scale(find(fresh, "reduce9"), 1.08);  // 7.4% slower
  compare::Options wide;
  wide.pattern_threshold = {{"reduce", 0.10}};
  CHECK(verdict_of(compare::compare(base, fresh, {}), "reduce9") == Verdict::slower);
  const auto c = compare::compare(base, fresh, wide);
  CHECK(verdict_of(c, "reduce9") == Verdict::same);
  CHECK(compare::format_comparison(c, false).find("threshold 5%, reduce 10%") != std::string::npos);
  CHECK(compare::to_json(c)["pattern_thresholds"]["reduce"] == 0.10);
  compare::Options unknown;
  unknown.pattern_threshold = {{"nope", 0.10}};
  CHECK_THROWS_WITH(compare::compare(base, fresh, unknown), Catch::Contains("neither file has a result of pattern \"nope\""));
}

TEST_CASE("an unverified new result fails whatever its speed") {
  const RunReport base = real_result();
  RunReport fresh = base;
  find(fresh, "reduce3").verified = false;
  const auto c = compare::compare(base, fresh, {});
  CHECK(verdict_of(c, "reduce3") == Verdict::failed);
  CHECK(compare::exit_code(c) == 1);
}

TEST_CASE("results in only one file are listed, and different GPUs are refused unless allowed") {
  const RunReport base = real_result();
  RunReport fresh = base;
  fresh.results.pop_back();
  auto c = compare::compare(base, fresh, {});
  REQUIRE(c.only_in_base.size() == 1);
  CHECK(c.only_in_base[0].find("cpu") != std::string::npos);

  fresh.devices.at(0).name = "NVIDIA H100";
  CHECK_THROWS_WITH(compare::compare(base, fresh, {}), Catch::Contains("different GPUs"));
  compare::Options allow;
  allow.allow_device_mismatch = true;
  CHECK_NOTHROW(compare::compare(base, fresh, allow));

  // Two kinds of GPU opened in the other order (--devices 1,0): the same GPUs.
  RunReport mixed = base, reordered = base;
  mixed.devices.push_back(fresh.devices.at(0));
  reordered.devices = {fresh.devices.at(0), base.devices.at(0)};
  CHECK_NOTHROW(compare::compare(mixed, reordered, {}));
}

TEST_CASE("Mann-Whitney p-values") {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> shifted;
  for (double x : a) shifted.push_back(x + 100);
  CHECK(mann_whitney_p(a, a) == Approx(1.0));
  CHECK(mann_whitney_p(a, shifted) < 0.001);
  CHECK(mann_whitney_p(a, {}) == 1.0);
  CHECK(mann_whitney_p({5, 5, 5}, {5, 5}) == 1.0);
}

TEST_CASE("a version 1 baseline reads as metrics and gates a version 2 run") {
  const std::string dir = std::string(GPUBENCH_SOURCE_DIR);
  const RunReport v1 = report_from_json(load_json_file(dir + "/tests/data/v1/ci.json"));
  const RunReport now = report_from_json(load_json_file(dir + "/results/h200/ci.json"));
  compare::Options allow_missing;
  allow_missing.allow_missing = true;
  const auto c = compare::compare(v1, now, allow_missing);
  // The gate has dropped cub at 2^24 (configs/ci.json says why); every other
  // row of the old baseline is matched, and the rows of other ladders are only in new.
  REQUIRE(c.only_in_base.size() == 1);
  CHECK(c.only_in_base.front().rfind("reduce cub ", 0) == 0);
  CHECK(c.only_in_base.front().find("16777216") != std::string::npos);
  CHECK(c.rows.size() == v1.results.size() - 1);
  for (const auto& row : c.rows) CHECK(row.unit == "GB/s");
  CHECK(compare::exit_code(c) == 0);

  const RunReport gemm = report_from_json(load_json_file(dir + "/tests/data/v1/gemm-4096.json"));
  REQUIRE_FALSE(gemm.results.empty());
  const BenchResult& naive = gemm.results.front();
  CHECK(naive.primary == "tflops");
  CHECK(naive.primary_value().value() == Approx(0.49828).epsilon(1e-4));  // its gflops field, 498.28
  CHECK(naive.tags.at("precision") == "fp32");
  REQUIRE(naive.metric("pct_of_library"));
  CHECK(naive.metric("pct_of_library")->value.has_value());
}

TEST_CASE("rows are matched per device: a run on two GPUs against a baseline on one") {
  RunReport base = real_result();
  for (BenchResult& r : base.results) r.device = 0;  // as files that record devices say
  RunReport fresh = base;
  fresh.devices.push_back(base.devices.at(0));
  fresh.devices.back().index = 1;
  for (const BenchResult& r : base.results) {
    fresh.results.push_back(r);
    fresh.results.back().device = 1;
  }
  scale(fresh.results.back(), 1.5);  // device 1's last row is slower: only in new, not judged
  const auto c = compare::compare(base, fresh, {});
  CHECK(c.rows.size() == base.results.size());
  for (const auto& row : c.rows) CHECK(row.verdict == Verdict::same);
  REQUIRE(c.only_in_new.size() == base.results.size());
  CHECK(c.only_in_new.back().find("device=1") != std::string::npos);
  CHECK(compare::exit_code(c) == 0);
  RunReport device0_only = fresh;  // device 0's first row missing: device 0 is named, not left implied
  device0_only.results.erase(device0_only.results.begin());
  const auto missing0 = compare::compare(fresh, device0_only, {});
  REQUIRE(missing0.only_in_base.size() == 1);
  CHECK(missing0.only_in_base.front().find(" device=0") != std::string::npos);
}

TEST_CASE("a point measured twice in each file: the second rows are compared with each other") {
  RunReport base = real_result();
  base.results.push_back(find(base, "reduce9"));
  RunReport fresh = base;
  scale(fresh.results.back(), 1.10);  // only the second measurement regressed
  const auto c = compare::compare(base, fresh, {});
  REQUIRE(c.rows.size() == base.results.size());
  CHECK(verdict_of(c, "reduce9") == Verdict::same);  // the first row of reduce9
  CHECK(c.rows.back().verdict == Verdict::slower);
  CHECK(compare::exit_code(c) == 1);

  fresh.results.pop_back();  // the new run measured it once: its second row is missing
  const auto missing = compare::compare(base, fresh, {});
  REQUIRE(missing.only_in_base.size() == 1);
  CHECK(missing.only_in_base.front().find("reduce9") != std::string::npos);
  CHECK(missing.only_in_base.front().find(" #2") != std::string::npos);
}

TEST_CASE("a run on one device matches a baseline on one other device") {
  RunReport base = real_result();
  for (BenchResult& r : base.results) r.device = 1;  // --device 1
  RunReport fresh = base;
  for (BenchResult& r : fresh.results) r.device = 0;  // --device 0, the same model
  const auto c = compare::compare(base, fresh, {});
  CHECK(c.rows.size() == base.results.size());
  CHECK(c.only_in_base.empty());
  CHECK(compare::exit_code(c) == 0);
}

TEST_CASE("a baseline from before rows recorded their device matches a run on any one device") {
  nlohmann::json doc = load_json_file(std::string(GPUBENCH_SOURCE_DIR) + "/results/h200/reduce-2p28.json");
  for (nlohmann::json& r : doc.at("results")) r.erase("device");  // as files written before rows had one
  const RunReport old = report_from_json(doc);
  REQUIRE(old.results.at(0).device == -1);
  RunReport fresh = old;
  for (BenchResult& r : fresh.results) r.device = 1;  // --device 1
  const auto c = compare::compare(old, fresh, {});
  CHECK(c.rows.size() == old.results.size());
  CHECK(c.only_in_base.empty());
  CHECK(compare::exit_code(c) == 0);
}

namespace {

// A report of `base`'s rows on `devices` GPUs, device d's rows `slower[d]` times slower.
RunReport on_gpus(const RunReport& base, const std::vector<double>& slower) {
  RunReport r;
  for (std::size_t d = 0; d < slower.size(); ++d) {
    DeviceInfo info = base.devices.at(0);
    info.index = int(d);
    info.uuid = fmt::format("GPU-0000000{}-0000-0000-0000-000000000000", d);
    r.devices.push_back(info);
    for (BenchResult row : base.results) {
      row.device = int(d);
      scale(row, slower[d]);
      r.results.push_back(row);
    }
  }
  return r;
}

}  // namespace

TEST_CASE("fleet: a GPU planted 10% slower is found against the fleet's lower median") {
  const RunReport base = real_result();
  const auto device_rows = std::size_t(
      std::count_if(base.results.begin(), base.results.end(), [](const BenchResult& r) { return r.on_device; }));
  REQUIRE(device_rows < base.results.size());  // the cpu row, which the fleet leaves out
  SECTION("four GPUs") {
    const auto f = fleet::judge({{"run.json", on_gpus(base, {1.0, 1.01, 1.10, 0.99})}}, 0.05);
    CHECK(f.rows.size() == device_rows);
    for (const auto& row : f.rows) {
      REQUIRE(row.devices.size() == 4);
      for (const auto& d : row.devices) CHECK(d.slow == (d.device.find("GPU-00000002") == 0));
    }
    CHECK(fleet::exit_code(f) == 1);
    CHECK(fleet::format(f, false).find("SLOW") != std::string::npos);
  }
  SECTION("two GPUs: the slower against the faster") {
    const auto f = fleet::judge({{"run.json", on_gpus(base, {1.10, 1.0})}}, 0.05);
    REQUIRE_FALSE(f.rows.empty());
    REQUIRE(f.rows.front().devices.size() == 2);
    CHECK(f.rows.front().devices.front().slow);
    CHECK_FALSE(f.rows.front().devices.back().slow);
  }
  SECTION("a healthy fleet, given as one file per node") {
    const RunReport two = on_gpus(base, {1.0, 1.02});
    RunReport first = two, second = two;
    first.results.resize(base.results.size());
    second.results.erase(second.results.begin(), second.results.begin() + long(base.results.size()));
    const auto f = fleet::judge({{"node1.json", first}, {"node2.json", second}}, 0.05);
    CHECK(f.rows.size() == device_rows);
    CHECK(fleet::exit_code(f) == 0);
  }
  SECTION("a wrong result fails the fleet whatever its speed, and does not set its pace") {
    RunReport r = on_gpus(base, {1.0, 1.0, 1.0});
    BenchResult& wrong = r.results.at(0);  // device 0's first row, fast and wrong
    wrong.verified = false;
    scale(wrong, 0.5);
    const auto f = fleet::judge({{"run.json", r}}, 0.05);
    CHECK(fleet::exit_code(f) == 1);
    REQUIRE_FALSE(f.rows.empty());
    for (const auto& row : f.rows)
      for (const auto& d : row.devices) CHECK_FALSE(d.slow);  // the healthy GPUs are judged against each other
  }
  SECTION("one GPU is no fleet") {
    CHECK_THROWS_AS(fleet::judge({{"run.json", base}}, 0.05), UsageError);
  }
  SECTION("a point one file measured twice on a GPU is judged by its first row") {
    RunReport r = on_gpus(base, {1.0, 1.0});
    const auto first = std::find_if(r.results.begin(), r.results.end(), [](const BenchResult& x) { return x.on_device; });
    BenchResult again = *first;
    scale(again, 2.0);  // slow: the GPU would fail if it counted
    r.results.push_back(again);
    const auto f = fleet::judge({{"run.json", r}}, 0.05);
    CHECK(f.repeated == 1);
    CHECK(fleet::exit_code(f) == 0);
    CHECK(fleet::format(f, false).find("1 rows measured again on the same GPU") != std::string::npos);
  }
  SECTION("GPUs of another kind are a fleet of their own, not slow against this one") {
    RunReport h100 = on_gpus(base, {2.0, 2.0});  // twice as slow, as another kind of GPU may be
    for (DeviceInfo& d : h100.devices) {
      d.name = "NVIDIA H100";
      d.uuid[4] = '1';
    }
    const auto f = fleet::judge({{"h200.json", on_gpus(base, {1.0, 1.0})}, {"h100.json", h100}}, 0.05);
    CHECK(f.kinds == 2);
    CHECK(f.rows.size() == 2 * device_rows);
    CHECK(fleet::exit_code(f) == 0);
    CHECK(fleet::format(f, false).find("GPUs of 2 kinds, each judged against its own kind") != std::string::npos);
    CHECK_THROWS_WITH(fleet::judge({{"h200.json", on_gpus(base, {1.0})}, {"h100.json", on_gpus(h100, {1.0})}}, 0.05),
                      Catch::Contains("no row ran on two GPUs of one kind or more"));
  }
  SECTION("a GPU that lacks rows of its kind fails the check unless allowed") {
    RunReport r = on_gpus(base, {1.0, 1.0});
    const auto last = std::find_if(r.results.rbegin(), r.results.rend(), [](const BenchResult& x) { return x.on_device; });
    UnavailableStep gone{*last, "needs compute capability 9.0"};  // as its run would say
    UnavailableStep other = gone;  // a step no GPU ran: no reason for what device 1 lacks
    other.row.variant = "never_ran";
    other.why = "not this one";
    r.results.erase(std::next(last).base());  // device 1's last device row
    r.unavailable = {other, gone};
    const auto f = fleet::judge({{"run.json", r}}, 0.05);
    REQUIRE(f.incomplete.size() == 1);
    CHECK(f.incomplete[0].device.find("GPU-00000001") == 0);
    CHECK(f.incomplete[0].lacking == 1);
    CHECK(f.incomplete[0].of == device_rows);
    CHECK(f.single == 1);
    CHECK(fleet::exit_code(f) == 1);
    CHECK(fleet::format(f, false).find("lacks 1 of the") != std::string::npos);
    CHECK(fleet::format(f, false).find(" rows of its kind (unavailable there: needs compute capability 9.0) (") !=
          std::string::npos);
    CHECK(fleet::format(f, false).find("not this one") == std::string::npos);
    CHECK(fleet::exit_code(fleet::judge({{"run.json", r}}, 0.05, true)) == 0);
  }
  SECTION("a wrong result on a GPU alone with its row fails, though no fleet judges its speed") {
    RunReport r = on_gpus(base, {1.0, 1.0});
    const auto last = std::find_if(r.results.rbegin(), r.results.rend(), [](const BenchResult& x) { return x.on_device; });
    const std::string variant = last->variant;
    r.results.erase(std::next(last).base());  // device 1 lacks it
    for (BenchResult& x : r.results)
      if (x.variant == variant) x.verified = false;  // and device 0 got it wrong
    const auto f = fleet::judge({{"run.json", r}}, 0.05, true);
    CHECK(fleet::exit_code(f) == 1);
    const std::string text = fleet::format(f, false);
    CHECK(text.find("alone  FAIL") != std::string::npos);
    CHECK(text.find(fmt::format("{} rows on several GPUs", device_rows - 1)) != std::string::npos);
    CHECK(text.find("1 of its " + std::to_string(device_rows) + " rows shown") != std::string::npos);
  }
  SECTION("a row that spanned GPUs is filed under its first, and the others do not lack it") {
    RunReport r = on_gpus(base, {1.0, 1.0});
    BenchResult spanned = r.results.front();
    spanned.measure["devices"] = {0, 1};
    r.results.push_back(spanned);  // on device 0 only, as a run across both GPUs is reported
    const auto f = fleet::judge({{"run.json", r}}, 0.05);
    CHECK(f.incomplete.empty());
    CHECK(fleet::exit_code(f) == 0);
  }
  SECTION("markdown: a blank line between the table and the lines after it") {
    const std::string md = fleet::format(fleet::judge({{"run.json", on_gpus(base, {1.0, 1.2})}}, 0.05), true);
    CHECK(md.find("|\n\n") != std::string::npos);
  }
  SECTION("one GPU's rows given twice are refused, not counted as two GPUs") {
    const RunReport one = on_gpus(base, {1.0});
    CHECK_THROWS_WITH(fleet::judge({{"node1.json", one}, {"copy.json", one}}, 0.05),
                      Catch::Contains("'node1.json' and 'copy.json' both hold"));
  }
}

TEST_CASE("gpubench fleet: exit 1 for a slow GPU, 0 for a healthy fleet, 2 for one GPU or a bad file") {
  const RunReport base = real_result();
  const std::string dir = std::filesystem::temp_directory_path() / ("gpubench-fleet-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const RunReport& r) {
    std::ofstream(dir + "/" + name) << to_json(r).dump();
    return dir + "/" + name;
  };
  auto fleet = [](std::vector<std::string> args) {
    args.insert(args.begin(), "fleet");
    return testing::run_gpubench(builtin_patterns(), args);
  };
  const std::string slow = write("slow.json", on_gpus(base, {1.0, 1.2})),
                    healthy = write("healthy.json", on_gpus(base, {1.0, 1.01})), one = write("one.json", base);
  CHECK(fleet({slow}).rc == 1);
  CHECK(fleet({slow, "--threshold", "25%"}).rc == 0);
  const auto ok = fleet({healthy});
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("0 slow, 0 FAIL") != std::string::npos);
  const auto lone = fleet({one});
  CHECK(lone.rc == 2);
  CHECK(lone.err.find("no row ran on two GPUs or more") != std::string::npos);
  CHECK(fleet({dir + "/missing.json"}).rc == 2);
  const auto twice = fleet({one, dir + "/../" + std::filesystem::path(dir).filename().string() + "/one.json"});
  CHECK(twice.rc == 2);
  CHECK(twice.err.find("is given twice") != std::string::npos);
  CHECK(fleet({slow, "--threshold", "x"}).rc == 2);
  // A GPU without a UUID is named by its file, whose name a terminal must not act on.
  RunReport no_uuid = base;
  for (DeviceInfo& d : no_uuid.devices) d.uuid.clear();
  const auto odd = fleet({write("odd\x1b[2J.json", no_uuid), write("plain.json", no_uuid)});
  CHECK(odd.rc == 0);
  CHECK(odd.out.find("odd\\u001b[2J.json device 0") != std::string::npos);
  CHECK(odd.out.find('\x1b') == std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a row measured with other devices running against one measured alone is unclear, however fast") {
  const RunReport base = real_result();
  RunReport fresh = base;
  for (BenchResult& r : fresh.results) {
    scale(r, 0.5);  // twice as fast
    r.measure["concurrent_devices"] = 2;
  }
  const auto c = compare::compare(base, fresh, {});
  REQUIRE(c.rows.size() == base.results.size());
  for (const auto& row : c.rows) CHECK(row.verdict == Verdict::unclear);
  RunReport both = fresh;
  for (BenchResult& r : both.results) scale(r, 2.0);
  const auto d = compare::compare(both, fresh, {});
  REQUIRE(d.rows.size() == base.results.size());
  for (const auto& row : d.rows) CHECK(row.verdict == Verdict::faster);
}

TEST_CASE("rows whose runs spanned different sets of GPUs are unclear, however fast") {
  const RunReport base = real_result();
  RunReport fresh = base;
  for (BenchResult& r : fresh.results) {
    scale(r, 0.5);
    r.measure["devices"] = {0, 1};
  }
  const auto c = compare::compare(base, fresh, {});
  REQUIRE(c.rows.size() == base.results.size());
  for (const auto& row : c.rows) CHECK(row.verdict == Verdict::unclear);
  RunReport same = fresh;
  for (BenchResult& r : same.results) scale(r, 2.0);
  const auto d = compare::compare(same, fresh, {});
  REQUIRE(d.rows.size() == base.results.size());
  for (const auto& row : d.rows) CHECK(row.verdict == Verdict::faster);
}
