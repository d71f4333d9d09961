// The library baseline: cub::DeviceHistogram::HistogramEven, with the same
// even bins over the sample type's range (histogram_bins.hpp). Levels are
// int for uint8 and uint16, int64 for int32 (the range's upper end, 2^31,
// is past int32) and float for float32.
#include <cub/device/device_histogram.cuh>

#include "kernels/histogram/histogram_common.cuh"

namespace gpubench::histogram {
namespace {

template <class T> struct Levels { using type = int; static constexpr type lower = 0, upper = type(1) << (8 * sizeof(T)); };
template <> struct Levels<std::int32_t> { using type = long long; static constexpr type lower = -(1ll << 31), upper = 1ll << 31; };
template <> struct Levels<float> { using type = float; static constexpr type lower = 0.0f, upper = 1.0f; };

// One call of CUB's histogram; with scratch == nullptr it only sets bytes.
template <class T>
void cub_histogram(const Problem& p, void* scratch, std::size_t& bytes, cudaStream_t stream) {
  GPUBENCH_CUDA(cub::DeviceHistogram::HistogramEven(scratch, bytes, static_cast<const T*>(p.samples), p.hist,
                                                    p.bins + 1, Levels<T>::lower, Levels<T>::upper, p.n, stream));
}

template <class T>
std::size_t scratch_for(const Problem& p) {
  std::size_t bytes = 0;
  cub_histogram<T>(p, nullptr, bytes, nullptr);
  return std::max<std::size_t>(1, bytes);
}

struct CubHistogram {
  static std::size_t scratch_bytes(const Problem& p) {
    return visit_bins(p.type, p.bins, [&](auto tag, auto) { return scratch_for<typename decltype(tag)::type>(p); });
  }
  static int max_bins(std::size_t) { return 0; }

  template <class T, class Bin>
  static void run(const Problem& p, const Workspace& ws, Bin) {
    std::size_t bytes = scratch_for<T>(p);
    cub_histogram<T>(p, ws.scratch, bytes, ws.stream);
    GPUBENCH_CHECK_LAUNCH();
  }
};

}  // namespace
}  // namespace gpubench::histogram

namespace gpubench::histogram {
const Step& step_cub() {
  static const Step step{"cub", Ladder::baseline, "cub::DeviceHistogram::HistogramEven", Where::device,
                         &CubHistogram::scratch_bytes, &run_dispatch<CubHistogram>, &CubHistogram::max_bins, nullptr};
  return step;
}
}  // namespace gpubench::histogram
