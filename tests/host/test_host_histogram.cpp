// The histogram's bins, inputs, reference and CPU baseline, and its bad
// input on the CLI, without a GPU.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "src/core/pattern.hpp"
#include "src/core/registry.hpp"
#include "src/patterns/histogram/host_histogram.hpp"
#include "tests/host/usage_errors.hpp"

using namespace gpubench;
using namespace gpubench::histogram;

namespace {

// The bin histogram_bins.hpp's binner gives one sample.
template <class T>
int binned(T s, int bins) {
  const Sample type = std::is_same_v<T, float>           ? Sample::f32
                      : std::is_same_v<T, std::int32_t>  ? Sample::i32
                      : std::is_same_v<T, std::uint16_t> ? Sample::u16
                                                         : Sample::u8;
  return visit_bins(type, bins, [&](auto, auto bin) { return bin(s); });
}

// The reference's bin of one sample: the only bin its histogram counts.
template <class T>
int reference_bin(T s, Sample type, int bins) {
  const Reference r = reference_histogram(&s, 1, type, bins);
  for (int b = 0; b < bins; ++b)
    if (r.counts[std::size_t(b)]) return b;
  return -1;
}

const std::vector<int> kBins = {1, 2, 7, 256, 1000, 65536, 100003, kMaxBins};

}  // namespace

TEST_CASE("the kernels' bins are the definition's at the ends of every range and at bin edges", "[histogram]") {
  for (const int bins : kBins) {
    for (const std::uint8_t s : {0, 1, 36, 37, 127, 128, 254, 255})
      CHECK(binned(s, bins) == reference_bin(s, Sample::u8, bins));
    for (const std::uint16_t s : {0, 1, 9362, 9363, 32768, 65534, 65535})
      CHECK(binned(s, bins) == reference_bin(s, Sample::u16, bins));
    for (const std::int32_t s : {std::numeric_limits<std::int32_t>::min(), -1, 0, 1, 613566756, 613566757,
                                 std::numeric_limits<std::int32_t>::max()})
      CHECK(binned(s, bins) == reference_bin(s, Sample::i32, bins));
    for (const float s : {0.0f, 1e-30f, 0.5f, 1.0f / 7, std::nextafter(1.0f / 7, 1.0f), std::nextafter(1.0f, 0.0f)}) {
      CHECK(binned(s, bins) == reference_bin(s, Sample::f32, bins));
      CHECK(binned(s, bins) < bins);  // s < 1 never rounds up to bins (histogram_bins.hpp)
    }
    for (const float s : {-0.0f, -1e-30f, 1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()})
      CHECK(binned(s, bins) == reference_bin(s, Sample::f32, bins));
  }
  CHECK(binned(std::uint8_t(255), 256) == 255);
  CHECK(binned(std::int32_t(-1), 2) == 0);
  CHECK(binned(std::int32_t(0), 2) == 1);
  CHECK(binned(1.0f, 4) == -1);
  CHECK(binned(std::numeric_limits<float>::quiet_NaN(), 4) == -1);
}

TEST_CASE("histogram inputs: uniform covers every value, skewed is mostly zero bits, constant is one value",
          "[histogram]") {
  const std::int64_t n = 1 << 20;
  std::vector<std::uint8_t> a(n), b(n);
  fill_samples(a.data(), n, Sample::u8, Entropy::uniform, 5);
  fill_samples(b.data(), n, Sample::u8, Entropy::uniform, 5);
  CHECK(a == b);  // seeded
  CHECK(std::set<std::uint8_t>(a.begin(), a.end()).size() == 256);
  fill_samples(b.data(), n, Sample::u8, Entropy::skewed, 5);
  std::int64_t ones = 0, zeros = 0;
  for (const std::uint8_t x : b) {
    ones += __builtin_popcount(x);
    zeros += x == 0;
  }
  CHECK(std::fabs(double(ones) / (8.0 * n) - 1.0 / 32) < 0.002);  // the AND of five words: P(bit) = 1/32
  CHECK(std::fabs(double(zeros) / n - std::pow(31.0 / 32, 8)) < 0.01);
  fill_samples(b.data(), n, Sample::u8, Entropy::constant, 5);
  CHECK(std::set<std::uint8_t>(b.begin(), b.end()).size() == 1);
  for (const Entropy e : {Entropy::uniform, Entropy::skewed}) {
    std::vector<float> f(n);
    fill_samples(f.data(), n, Sample::f32, e, 9);
    const Reference r = reference_histogram(f.data(), n, Sample::f32, 16);
    CHECK(std::fabs(double(r.outside) / n - 1.0 / 64) < 0.002);  // NaN, negative, >= 1
    CHECK(std::any_of(f.begin(), f.end(), [](float x) { return std::isnan(x); }));
  }
}

TEST_CASE("the histogram check names the wrong bin and the total, and the cpu step passes it", "[histogram]") {
  for (const Sample type : {Sample::u8, Sample::u16, Sample::i32, Sample::f32})
    for (const int bins : {1, 7, 256, 65536})
      for (const std::int64_t n : {1, 2, 1000, 1 << 20}) {
        std::vector<unsigned char> s(std::size_t(n) * sample_size(type));
        fill_samples(s.data(), n, type, Entropy::skewed, 3);
        const Reference want = reference_histogram(s.data(), n, type, bins);
        std::uint64_t total = want.outside;
        for (const std::uint64_t c : want.counts) total += c;
        CHECK(total == std::uint64_t(n));
        std::vector<std::uint32_t> hist(std::size_t(bins), 0xdededede);
        cpu_histogram(s.data(), n, type, bins, hist.data());
        INFO(sample_name(type) << " bins=" << bins << " n=" << n);
        CHECK(verify_histogram(want, hist.data(), n).empty());
        hist[std::size_t(bins) / 2] += 1;
        CHECK(verify_histogram(want, hist.data(), n).find("bin " + std::to_string(bins / 2) + ": got") == 0);
      }
  const std::vector<std::uint8_t> s = {0, 255, 128, 128};
  std::vector<std::uint32_t> hist(2);
  cpu_histogram(s.data(), 4, Sample::u8, 2, hist.data());
  CHECK(hist == std::vector<std::uint32_t>{1, 3});
}

TEST_CASE("bad histogram axes are one line and exit 2 before anything runs", "[histogram][cli]") {
  testing::expect_usage_errors({"histogram"}, {{{"--bins", "0"}, "--bins"},
                                               {{"--bins", "2000000"}, "--bins"},
                                               {{"--bins", "seven"}, "--bins"},
                                               {{"--sample", "uint32"}, "valid: uint8, uint16, int32, float32"},
                                               {{"--entropy", "low"}, "valid: uniform, skewed, constant"},
                                               {{"--n", "2^32"}, "--n"},
                                               {{"--variant", "atomics"}, "unknown histogram variant 'atomics'"}});
  const testing::Outcome ok = testing::run_gpubench(
      builtin_patterns(), {"histogram", "--variant", "cpu", "--n", "1000", "--bins", "7", "--sample", "float32"});
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CHECK(ok.out.find("bins=7 entropy=uniform n=1000 sample=float32") != std::string::npos);
}

TEST_CASE("histogram steps say which points they cannot take, with the reason", "[histogram]") {
  const Pattern& p = *builtin_patterns().find("histogram");
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.shared_per_block_bytes = 232448;  // 227 KiB, what a block may opt into on sm_90
  auto why = [&](const char* step, const char* sample, int bins) {
    const Point point = {{"n", 1000}, {"bins", bins}, {"sample", sample}, {"entropy", "uniform"}, {"seed", 1}};
    const std::size_t i = std::size_t(std::find_if(p.steps.begin(), p.steps.end(),
                                                   [&](const StepInfo& s) { return s.name == step; }) -
                                      p.steps.begin());
    REQUIRE(i < p.steps.size());
    return p.fixture(point)->unavailable(i, &h200);
  };
  CHECK(why("cub", "uint16", 65536).empty());
  CHECK(why("cub", "uint16", 65537).find("past 65536 bins") != std::string::npos);
  CHECK(why("cub", "uint8", 100003).empty());
  CHECK(why("cub", "int32", 1 << 20).empty());
  CHECK(why("byte_values", "int32", 256).find("uint8") != std::string::npos);
  CHECK(why("byte_values", "uint8", 1 << 20).empty());
  CHECK(why("per_lane", "uint8", 1816).empty());
  CHECK(why("per_lane", "uint8", 1817).find("at most 1816 bins") != std::string::npos);
  CHECK(why("vectorized", "float32", 58112).empty());
  CHECK(why("vectorized", "float32", 58113).find("at most 58112 bins") != std::string::npos);
  CHECK(why("multipass", "uint16", 1 << 20).empty());
  CHECK(why("cpu", "uint16", 1 << 20).empty());
}
