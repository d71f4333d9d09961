// Every histogram step through the benchmark itself (counts poisoned before
// each run, checked after the first and the last run) at the sizes,
// bin counts, sample types and entropies; n = 0 and unaligned samples
// through the steps directly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/core/runner.hpp"
#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/histogram/host_histogram.hpp"
#include "src/patterns/histogram/steps.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;
using histogram::Sample;

namespace {

const std::vector<Sample> kTypes = {Sample::u8, Sample::u16, Sample::i32, Sample::f32};

// Runs `variants` (steps that cannot take the point are unavailable rows)
// and expects every row verified.
void check_all(std::int64_t n, int bins, Sample type, const char* entropy, const char* variants = "all") {
  testing::check_point("histogram",
                       {{"n", n}, {"bins", bins}, {"sample", histogram::sample_name(type)}, {"entropy", entropy},
                        {"seed", 7 + n}},
                       variants);
}

// Runs every device step that takes `type` directly on `samples` (device
// memory) and compares with the host reference of `host`.
void check_direct(const void* samples, const std::vector<unsigned char>& host, std::int64_t n, Sample type, int bins,
                  const std::string& what) {
  const histogram::Reference want = histogram::reference_histogram(host.data(), n, type, bins);
  DeviceBuffer hist(std::size_t(bins) * 4);
  std::vector<std::uint32_t> got(static_cast<std::size_t>(bins));
  for (const histogram::Step& s : histogram::ladder()) {
    if (s.where != histogram::Where::device || (s.uint8_only && type != Sample::u8)) continue;
    const histogram::Problem p{samples, static_cast<std::uint32_t*>(hist.get()), n, type, bins};
    DeviceBuffer scratch(s.scratch_bytes(p));
    GPUBENCH_CUDA(cudaMemset(hist.get(), 0xde, std::size_t(bins) * 4));
    s.run(p, histogram::Workspace{scratch.get(), nullptr});
    GPUBENCH_CUDA(cudaDeviceSynchronize());
    GPUBENCH_CUDA(cudaMemcpy(got.data(), hist.get(), std::size_t(bins) * 4, cudaMemcpyDeviceToHost));
    const std::string why = histogram::verify_histogram(want, got.data(), n);
    INFO(s.name << " " << what << " " << histogram::sample_name(type) << " n=" << n << " bins=" << bins << ": " << why);
    CHECK(why.empty());
  }
}

}  // namespace

TEST_CASE("every histogram step is correct at small, odd and tile-straddling sizes", "[gpu][histogram]") {
  std::vector<std::int64_t> sizes = {1, 2, 15, 17, 1000, 4097, 65537};
  if (!std::getenv("GPUBENCH_TEST_QUICK"))  // slow under a sanitizer
    sizes.insert(sizes.end(), {(1 << 20) + 3, (std::int64_t(1) << 24) + 1});
  for (const Sample type : kTypes)
    for (const char* entropy : {"uniform", "skewed", "constant"})
      for (const int bins : {1, 7, 256, 1000})
        for (const std::int64_t n : sizes) check_all(n, bins, type, entropy);
}

// Past shared memory, at the limits of the steps that keep their counts
// there (58112 bins in one copy, 1816 in per_lane's 32 on the H200) and at
// the most bins a run may ask for. cub does not run uint16 past 65536 bins
// (its counts differed there: docs/ladders/histogram.md): under `all` an unavailable row.
TEST_CASE("every histogram step is correct with bins past shared memory and at its limits", "[gpu][histogram]") {
  for (const Sample type : kTypes) {
    for (const std::int64_t n : {std::int64_t(1), std::int64_t(65537), std::int64_t(1) << 22})
      for (const int bins : {65536, 100003}) check_all(n, bins, type, "uniform");
    for (const int bins : {1816, 1817, 58112, 58113, histogram::kMaxBins}) check_all(100003, bins, type, "skewed");
  }
}

TEST_CASE("every histogram step leaves zeros for no samples", "[gpu][histogram]") {
  DeviceBuffer samples(16);
  for (const Sample type : kTypes) check_direct(samples.get(), {}, 0, type, 300, "empty");
}

TEST_CASE("every histogram step counts samples that do not start on a 16-byte boundary", "[gpu][histogram]") {
  for (const Sample type : kTypes)
    for (const std::int64_t n : {1, 5, 33, 4097, (1 << 20) + 3}) {
      const std::size_t size = histogram::sample_size(type);
      for (const std::size_t offset : {size, 3 * size, 16 - size}) {
        std::vector<unsigned char> host(std::size_t(n) * size);
        histogram::fill_samples(host.data(), n, type, histogram::Entropy::uniform, 11 + n);
        DeviceBuffer d(host.size() + 16);
        void* at = static_cast<char*>(d.get()) + offset;
        GPUBENCH_CUDA(cudaMemcpy(at, host.data(), host.size(), cudaMemcpyHostToDevice));
        check_direct(at, host, n, type, 256, "offset " + std::to_string(offset));
      }
    }
}

TEST_CASE("every device histogram step at 2^28 constant and past 2^31 samples", "[gpu][histogram][large]") {
  check_all(std::int64_t(1) << 28, 256, Sample::u8, "constant");
  check_all((std::int64_t(1) << 31) + 17, 256, Sample::u8, "uniform",
            "global_atomics,privatized_global,privatized_shared,coarsened_contiguous,coarsened_interleaved,"
            "aggregated,warp_aggregated,vectorized,per_warp,per_lane,privatized_l2,multipass,byte_values,cub");
  check_all((std::int64_t(1) << 31) + 17, 65536, Sample::u16, "skewed", "privatized_l2,multipass,cub");
  for (const Sample type : {Sample::i32, Sample::f32})
    check_all((std::int64_t(1) << 31) + 17, 1024, type, "uniform", "vectorized,per_lane,multipass,cub");
}
