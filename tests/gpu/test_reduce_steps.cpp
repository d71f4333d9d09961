// Every device step of the reduction ladder, for every dtype x operator, at
// awkward sizes and every block size, against the host reference; plus one
// input past 2^31 elements for 64-bit indexing. GPUBENCH_TEST_QUICK=1 keeps
// the sizes small enough for compute-sanitizer (scripts/sanitize.sh).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "src/detail/cuda_check.hpp"
#include "src/detail/device.hpp"
#include "src/detail/device_buffer.hpp"
#include "src/patterns/reduce/host_reduce.hpp"
#include "src/patterns/reduce/steps.hpp"
#include "tests/gpu/check_point.hpp"
#include "tests/test_session.hpp"

using namespace gpubench;
using namespace gpubench::reduce;

namespace {

bool quick() { return std::getenv("GPUBENCH_TEST_QUICK") != nullptr; }

std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> s = {1, 2, 31, 32, 33, 1000, 65537};
  if (!quick()) {
    s.push_back((1 << 20) + 7);
    s.push_back(1 << 24);
  }
  return s;
}

const std::vector<int> kBlocks = {32, 64, 128, 256, 512, 1024};

// An input on the device with its reference, and the step's working buffers.
struct Case {
  std::int64_t n;
  DType dtype;
  Op op;
  Reference ref;
  DeviceBuffer input, work, out, scratch;
  DeviceInfo dev = open_device(0);

  std::size_t offset;  // elements between the allocation and the input: > 0 misaligns it

  Case(std::int64_t n_, DType t, Op o, std::uint64_t seed, std::size_t offset_ = 0)
      : n(n_), dtype(t), op(o), offset(offset_) {
    const std::size_t bytes = std::size_t(n) * dtype_size(t);
    std::vector<unsigned char> host(bytes);
    fill_random(host.data(), n, t, o, seed);
    ref = host_reference(host.data(), n, t, o);
    input = DeviceBuffer(bytes + offset * dtype_size(t));
    out = DeviceBuffer(dtype_size(t));
    GPUBENCH_CUDA(cudaMemcpy(in_ptr(input), host.data(), bytes, cudaMemcpyHostToDevice));
  }

  void* in_ptr(const DeviceBuffer& b) const { return static_cast<char*>(b.get()) + offset * dtype_size(dtype); }

  // One run of `step` on a poisoned output; the verdict of its result.
  Verdict check(const Step& step, int block) {
    const std::size_t bytes = std::size_t(n) * dtype_size(dtype);
    const void* in = in_ptr(input);
    if (step.modifies_input) {
      if (!work.get()) work = DeviceBuffer(input.bytes());
      GPUBENCH_CUDA(cudaMemcpy(in_ptr(work), in_ptr(input), bytes, cudaMemcpyDeviceToDevice));
      in = in_ptr(work);
    }
    Problem p{in, out.get(), n, dtype, op, block};
    Workspace ws;
    ws.sm_count = dev.sm_count;
    ws.max_threads_per_sm = dev.max_threads_per_sm;
    const std::size_t scratch_bytes = step.scratch_bytes(p, ws);
    if (scratch.bytes() < scratch_bytes) scratch = DeviceBuffer(scratch_bytes);
    if (scratch_bytes) GPUBENCH_CUDA(cudaMemset(scratch.get(), 0, scratch_bytes));  // as the harness gives it
    ws.scratch = scratch.get();
    GPUBENCH_CUDA(cudaMemset(out.get(), 0xff, dtype_size(dtype)));
    step.run(p, ws);
    GPUBENCH_CUDA(cudaDeviceSynchronize());
    unsigned char value[8];
    GPUBENCH_CUDA(cudaMemcpy(value, out.get(), dtype_size(dtype), cudaMemcpyDeviceToHost));
    return verify(value, ref, n, dtype, op);
  }
};

std::string describe(const Step& s, const Case& f, int block) {
  return std::string(s.name) + " n=" + std::to_string(f.n) + " dtype=" + dtype_name(f.dtype) +
         " op=" + std::to_string(int(f.op)) + " block=" + std::to_string(block);
}

}  // namespace

TEST_CASE("every device step reduces every dtype and operator at awkward sizes and every block size", "[gpu][reduce]") {
  for (const auto n : sizes()) {
    for (const DType t : {DType::i32, DType::f32, DType::f64}) {
      for (const Op o : {Op::sum, Op::min, Op::max}) {
        Case f(n, t, o, 1000 + std::uint64_t(n));
        for (const Step& s : ladder()) {
          if (s.where != Where::device) continue;
          for (const int block : kBlocks) {
            const Verdict v = f.check(s, block);
            INFO(describe(s, f, block) << ": " << v.detail);
            CHECK(v.ok);
          }
        }
      }
    }
  }
}

TEST_CASE("every device step reduces inputs that do not start on a 16-byte boundary", "[gpu][reduce]") {
  for (const std::size_t offset : {1, 2, 3}) {
    for (const std::int64_t n : {1, 2, 5, 33, 1000, 65537}) {
      for (const DType t : {DType::i32, DType::f64}) {
        Case f(n, t, Op::sum, 77 + offset, offset);
        for (const Step& s : ladder()) {
          if (s.where != Where::device) continue;
          const Verdict v = f.check(s, 256);
          INFO(describe(s, f, 256) << " offset=" << offset << ": " << v.detail);
          CHECK(v.ok);
        }
      }
    }
  }
}

TEST_CASE("every reduce step through the benchmark: runs after the first are right too", "[gpu][reduce]") {
  // The tests above run each step once on zeroed scratch. Here the runner
  // runs it four times at a point: the input restored for steps that fold in
  // place, the scratch left as the step found it (reduce9's counter), the
  // output poisoned before each run and checked after the first and the last.
  for (const char* dtype : {"int32", "float32", "float64"})
    for (const char* op : {"sum", "min", "max"})
      for (const std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(1 << 20) + 7})
        for (const int block : {256, 1024})
          testing::check_point("reduce", {{"n", n}, {"dtype", dtype}, {"op", op}, {"block", block}, {"seed", 42}}, "all", 3);
}

TEST_CASE("every device step indexes past 2^31 elements (int32 sum)", "[gpu][reduce][large]") {
  const std::int64_t n = (std::int64_t(1) << 31) + 12345;
  const std::size_t need = 2 * std::size_t(n) * 4 + (std::size_t(1) << 30);
  open_device(0);
  if (device_free_bytes() < need) return testing::skip_case("the device has too little memory for 2^31 int32 elements");
  Case f(n, DType::i32, Op::sum, 7);
  for (const Step& s : ladder()) {
    if (s.where != Where::device) continue;
    const Verdict v = f.check(s, 256);
    INFO(describe(s, f, 256) << ": " << v.detail);
    CHECK(v.ok);
  }
}

// The report's resource columns: every kernel of ours reports what the
// compiler gave it, at every type, operator and block size, and none spills.
TEST_CASE("every hand-written reduce step reports its kernel's resources, without spills", "[gpu][reduce]") {
  open_device(0);
  for (const Step& s : ladder()) {
    if (s.where != Where::device) continue;
    INFO(s.name);
    CHECK((s.resources != nullptr) == (std::string(s.name) != "cub"));
    if (!s.resources) continue;
    for (const DType t : {DType::i32, DType::f32, DType::f64})
      for (const Op o : {Op::sum, Op::min, Op::max})
        for (const int block : kBlocks) {
          const Resources r = s.resources(Problem{nullptr, nullptr, 1 << 20, t, o, block});
          INFO(dtype_name(t) << " op=" << int(o) << " block=" << block);
          CHECK(r.registers > 0);
          CHECK(r.local_bytes == 0);
        }
  }
}
