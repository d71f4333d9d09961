// Every map step through the benchmark itself (output poisoned before each
// run, checked after the first and the last run) at small, odd and large
// sizes for every op and type; arrays that do not start on a 16-byte
// boundary through the steps directly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/map/host_map.hpp"
#include "src/patterns/map/steps.hpp"
#include "tests/gpu/check_point.hpp"

using namespace gpubench;

namespace {

const char* op_name(map::Op op) { return op == map::Op::saxpy ? "saxpy" : op == map::Op::grayscale ? "grayscale" : "vecadd"; }

}  // namespace

TEST_CASE("every map step is correct at small, odd and vector-straddling sizes", "[gpu][map]") {
  std::vector<std::int64_t> sizes = {1, 2, 3, 15, 17, 1000, 4097, 65537};
  if (!std::getenv("GPUBENCH_TEST_QUICK")) sizes.push_back((1 << 24) + 3);  // slow under a sanitizer
  for (const map::Op op : {map::Op::vecadd, map::Op::saxpy, map::Op::grayscale})
    for (const DType t : {DType::f32, DType::f64}) {
      if (op == map::Op::grayscale && t == DType::f64) continue;
      for (const std::int64_t n : sizes)
        testing::check_point("map", {{"op", op_name(op)}, {"n", n}, {"dtype", dtype_name(t)}, {"seed", n}});
    }
}

TEST_CASE("every map step past 2^31 elements (vecadd float32) and pixels (grayscale)", "[gpu][map][large]") {
  const std::int64_t n = (std::int64_t(1) << 31) + 7;
  testing::check_point("map", {{"op", "vecadd"}, {"n", n}, {"dtype", "float32"}, {"seed", 1}});
  testing::check_point("map", {{"op", "grayscale"}, {"n", n}, {"dtype", "float32"}, {"seed", 1}});
}

TEST_CASE("every map device step takes arrays that do not start on a 16-byte boundary", "[gpu][map]") {
  const std::int64_t n = 4099;
  for (const map::Op op : {map::Op::vecadd, map::Op::saxpy, map::Op::grayscale}) {
    const std::size_t in = op == map::Op::grayscale ? 3 * n : 4 * n, out = op == map::Op::grayscale ? n : in;
    std::vector<unsigned char> a(in), b(in), want(out), got(out);
    map::Problem p{a.data(), b.data(), want.data(), n, op, DType::f32, map::alpha_for(DType::f32, 5)};
    map::fill_inputs(p, a.data(), b.data(), 5);
    map::reference_map(p);
    DeviceBuffer da(in + 4), db(in + 4), dout(out + 4);
    p.a = static_cast<char*>(da.get()) + 4;
    p.b = static_cast<char*>(db.get()) + 4;
    p.out = static_cast<char*>(dout.get()) + 4;
    GPUBENCH_CUDA(cudaMemcpy(const_cast<void*>(p.a), a.data(), in, cudaMemcpyHostToDevice));
    GPUBENCH_CUDA(cudaMemcpy(const_cast<void*>(p.b), b.data(), in, cudaMemcpyHostToDevice));
    for (const map::Step& s : map::ladder()) {
      if (s.where != map::Where::device || s.copies || (s.grayscale_only && op != map::Op::grayscale)) continue;
      GPUBENCH_CUDA(cudaMemset(p.out, 0xff, out));
      s.run(p, map::Workspace{nullptr});
      GPUBENCH_CUDA(cudaDeviceSynchronize());
      GPUBENCH_CUDA(cudaMemcpy(got.data(), p.out, out, cudaMemcpyDeviceToHost));
      const Verdict v = map::verify_map(p, got.data(), want.data());
      INFO(s.name << " " << op_name(op) << ": " << v.detail);
      CHECK(v.ok);
    }
  }
}
