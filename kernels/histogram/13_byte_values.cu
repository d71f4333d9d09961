// byte_values — beyond the course, for uint8 samples: per_lane's 32
// bank-striped copies, but counting the 256 byte values themselves; values
// become bins only in the merge (value v's count goes to bin(v)). A sample
// costs a byte extract, an address and a conflict-free atomic, with no
// binning arithmetic whatever the bin count. CUB's byte path counts values
// the same way.
#include <stdexcept>

#include "kernels/histogram/vector_loop.cuh"

namespace gpubench::histogram {
namespace {

constexpr int kLoads = 4, kByteThreads = 512;

template <class Bin>
__global__ void __launch_bounds__(kByteThreads) byte_values(const std::uint8_t* samples, std::int64_t n, Bin bin,
                                                            std::uint32_t* hist) {
  __shared__ std::uint32_t h[256 * 32];  // value v of copy l at 32 v + l
  zero_shared(h, 256 * 32);
  __syncthreads();
  std::uint32_t* column = h + threadIdx.x % 32;
  for_each_sample<kLoads>(samples, n, std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                          std::int64_t(gridDim.x) * blockDim.x,
                          [&](std::uint8_t v) { atomicAdd(&column[32 * v], 1u); });
  __syncthreads();
  for (int v = threadIdx.x; v < 256; v += blockDim.x) {
    std::uint32_t sum = 0;
    for (int j = 0; j < 32; ++j) sum += h[32 * v + (j + threadIdx.x) % 32];  // rotated: no bank conflicts
    if (sum) atomicAdd(&hist[bin(std::uint8_t(v))], sum);
  }
}

struct ByteValues {
  static std::size_t scratch_bytes(const Problem&) { return 0; }
  static int max_bins(std::size_t) { return 0; }
  static std::size_t shared_bytes(const Problem&) { return 0; }  // static: 32 KiB
  // Other sample types never reach the kernel (Step::uint8_only); their
  // instantiations name the uint8 one.
  template <class T, class Bin>
  static auto main_kernel() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return &byte_values<Bin>;
    else return &byte_values<ShiftBins<std::uint8_t>>;
  }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin bin) {
    if constexpr (std::is_same_v<T, std::uint8_t>)
      count_on_resident_grid(main_kernel<T, Bin>(), kByteThreads, 0, p, ws, bin, p.hist);
    else
      throw std::invalid_argument("byte_values takes uint8 samples only");
  }
};

}  // namespace

const Step& step_byte_values() {
  static const Step step{"byte_values",
                         Ladder::modern,
                         "uint8: per_lane over the 256 byte values, binned in the merge",
                         Where::device,
                         &ByteValues::scratch_bytes,
                         &run_dispatch<ByteValues>,
                         &ByteValues::max_bins,
                         &resources_dispatch<ByteValues>,
                         true};
  return step;
}

}  // namespace gpubench::histogram
