// Every scan step through the benchmark itself (output poisoned before each
// run, checked after the first and the last): the sizes, inclusive
// and exclusive, every element type.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/scan/host_scan.hpp"
#include "src/patterns/scan/steps.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;

namespace {

void check_all(std::int64_t n, DType dtype, scan::Kind kind, const char* variants = "all") {
  testing::check_point("scan",
                       {{"n", n}, {"dtype", dtype_name(dtype)},
                        {"kind", kind == scan::Kind::inclusive ? "inclusive" : "exclusive"}, {"seed", 42}},
                       variants);
}

}  // namespace

TEST_CASE("every scan step is correct at small, odd and tile-straddling sizes", "[gpu][scan]") {
  std::vector<std::int64_t> sizes = {1, 2, 31, 1024, 1025, 4097, 65537, (1 << 20) + 3};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) sizes.push_back(std::int64_t(1) << 24);  // too slow under a sanitizer
  for (auto dtype : {DType::i32, DType::f32, DType::f64, DType::i64})
    for (auto kind : {scan::Kind::inclusive, scan::Kind::exclusive})
      for (const std::int64_t n : sizes) check_all(n, dtype, kind);
}

TEST_CASE("every device scan step at 2^28 and past 2^31 elements (int32)", "[gpu][scan][large]") {
  for (auto kind : {scan::Kind::inclusive, scan::Kind::exclusive}) {
    check_all(std::int64_t(1) << 28, DType::i32, kind);
    check_all((std::int64_t(1) << 31) + 4099, DType::i32, kind,
              "kogge_stone_global,kogge_stone,kogge_stone_double_buffer,brent_kung,coarsened,warp_shuffle,"
              "reduce_then_scan,single_pass_chained,decoupled_lookback,cub");
  }
}

// The benchmark's buffers come from cudaMalloc, 256-byte aligned; a step
// given other pointers must still be right (look-back's 16-byte loads and
// stores fall back to element accesses).
TEST_CASE("every device scan step scans an input or output that does not start on a 16-byte boundary",
          "[gpu][scan]") {
  for (const std::size_t in_offset : {0, 1, 3})
    for (const std::size_t out_offset : {0, 1})
      for (const std::int64_t n : {1, 33, 4097, 65537, (1 << 20) + 3}) {
        if (in_offset == 0 && out_offset == 0) continue;  // covered by the tests above
        for (auto dtype : {DType::i32, DType::f64}) {
          const std::size_t size = dtype_size(dtype), bytes = std::size_t(n) * size;
          std::vector<unsigned char> in(bytes), out(bytes);
          scan::fill_input(in.data(), n, dtype, 5 + n);
          DeviceBuffer d_in(bytes + in_offset * size), d_out(bytes + out_offset * size);
          void* in_ptr = static_cast<char*>(d_in.get()) + in_offset * size;
          void* out_ptr = static_cast<char*>(d_out.get()) + out_offset * size;
          GPUBENCH_CUDA(cudaMemcpy(in_ptr, in.data(), bytes, cudaMemcpyHostToDevice));
          for (const scan::Step& s : scan::ladder()) {
            if (s.where != scan::Where::device) continue;
            const scan::Problem p{in_ptr, out_ptr, n, dtype, scan::Kind::inclusive};
            DeviceBuffer scratch(s.scratch_bytes(p));
            GPUBENCH_CUDA(cudaMemset(out_ptr, 0xff, bytes));
            s.run(p, scan::Workspace{scratch.get(), nullptr});
            GPUBENCH_CUDA(cudaDeviceSynchronize());
            GPUBENCH_CUDA(cudaMemcpy(out.data(), out_ptr, bytes, cudaMemcpyDeviceToHost));
            const Verdict v = scan::verify_scan(in.data(), out.data(), n, dtype, scan::Kind::inclusive);
            INFO(s.name << " n=" << n << " in+" << in_offset << " out+" << out_offset << ": " << v.detail);
            CHECK(v.ok);
          }
        }
      }
}

// The report's resource columns: every kernel of ours reports what the
// compiler gave it, at every element type, and none spills.
TEST_CASE("every hand-written scan step reports its kernel's resources, without spills", "[gpu][scan]") {
  open_device(0);
  for (const scan::Step& s : scan::ladder()) {
    if (s.where != scan::Where::device) continue;
    INFO(s.name);
    CHECK((s.resources != nullptr) == (std::string(s.name) != "cub"));
    if (!s.resources) continue;
    for (auto dtype : {DType::i32, DType::f32, DType::f64, DType::i64}) {
      scan::Problem p;
      p.n = 1 << 20;
      p.dtype = dtype;
      const Resources r = s.resources(p);
      INFO(dtype_name(dtype));
      CHECK(r.registers > 0);
      CHECK(r.local_bytes == 0);
    }
  }
}
