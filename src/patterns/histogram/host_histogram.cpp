#include "src/patterns/histogram/host_histogram.hpp"

#include <algorithm>
#include <stdexcept>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "src/detail/parallel.hpp"
#include "src/detail/random.hpp"

namespace gpubench::histogram {
namespace {

constexpr int kAndedWords = 5;  // P(bit) = 1/32: entropy 0.2 bits per bit

// The cpu step's private copies per thread: four interleaved ones for small
// bin counts, so that runs of one bin do not wait on their own previous store.
int cpu_copies(int bins) { return bins <= 4096 ? 4 : 1; }

// Random word k of sample i: independent for every (seed, k, i).
std::uint64_t word(std::uint64_t base, int k, std::int64_t i) { return mix(mix(base + std::uint64_t(k)) + std::uint64_t(i)); }

template <class T>
T from_bits(std::uint64_t w) {
  if constexpr (std::is_same_v<T, float>) return float(w >> 40) * 0x1.0p-24f;  // [0, 1)
  else return T(w);
}

template <class T>
T and_bits(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    std::uint32_t x, y;
    std::memcpy(&x, &a, 4);
    std::memcpy(&y, &b, 4);
    x &= y;
    std::memcpy(&a, &x, 4);
    return a;  // the AND of two floats in [0, 1) is one too
  } else {
    return T(a & b);
  }
}

// One float sample in 64 is NaN, negative or at least 1: counted nowhere.
float outside(std::uint64_t w, float x) {
  switch ((w >> 6) % 3) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return -x - 0x1.0p-24f;
    default: return 1.0f + x;
  }
}

template <class T>
void fill_typed(T* v, std::int64_t n, Entropy entropy, std::uint64_t seed) {
  const std::uint64_t base = mix(seed);
  const T constant = from_bits<T>(mix(base));
  parallel_chunks(n, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      if (entropy == Entropy::constant) {
        v[i] = constant;
        continue;
      }
      T x = from_bits<T>(word(base, 0, i));
      if (entropy == Entropy::skewed)
        for (int k = 1; k < kAndedWords; ++k) x = and_bits(x, from_bits<T>(word(base, k, i)));
      if constexpr (std::is_same_v<T, float>) {
        const std::uint64_t w = word(base, kAndedWords, i);
        if (w % 64 == 0) x = outside(w, x);
      }
      v[i] = x;
    }
  });
}

// The bin from the definition, apart from histogram_bins.hpp's shortcuts.
template <class T>
int bin_of(T s, int bins) {
  if constexpr (std::is_same_v<T, float>) {
    if (!(s >= 0.0f && s < 1.0f)) return -1;
    return int(s * float(bins));  // HistogramEven's fp32 product, (s - 0) * (bins / (1 - 0))
  } else {
    const std::int64_t lower = std::is_signed_v<T> ? std::int64_t(std::numeric_limits<T>::min()) : 0;
    const std::int64_t range = std::int64_t(1) << (8 * sizeof(T));
    return int((std::int64_t(s) - lower) * bins / range);  // < 2^32 * 2^20: exact in int64
  }
}

// The position of `name` in `names`, the enum value it names.
std::size_t index_named(const std::vector<std::string>& names, const std::string& name, const char* what) {
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end()) throw std::invalid_argument(fmt::format("no {} named '{}'", what, name));
  return std::size_t(at - names.begin());
}

}  // namespace

const std::vector<std::string>& entropy_names() {
  static const std::vector<std::string> names = {"uniform", "skewed", "constant"};  // in Entropy's order
  return names;
}

const std::vector<std::string>& sample_names() {
  static const std::vector<std::string> names = {sample_name(Sample::u8), sample_name(Sample::u16),
                                                 sample_name(Sample::i32), sample_name(Sample::f32)};
  return names;
}

Sample sample_named(const std::string& name) { return Sample(index_named(sample_names(), name, "sample type")); }

Entropy entropy_named(const std::string& name) { return Entropy(index_named(entropy_names(), name, "entropy")); }

void fill_samples(void* samples, std::int64_t n, Sample type, Entropy entropy, std::uint64_t seed) {
  visit_sample(type, [&](auto tag) {
    fill_typed(static_cast<typename decltype(tag)::type*>(samples), n, entropy, seed);
  });
}

Reference reference_histogram(const void* samples, std::int64_t n, Sample type, int bins) {
  std::vector<Reference> parts(host_threads());
  const unsigned chunks = visit_sample(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = static_cast<const T*>(samples);
    return parallel_chunks(n, [&](unsigned c, std::int64_t b, std::int64_t e) {
      Reference& r = parts[c];
      r.counts.assign(std::size_t(bins), 0);
      for (std::int64_t i = b; i < e; ++i) {
        const int bin = bin_of(s[i], bins);
        if (bin >= 0) ++r.counts[std::size_t(bin)];
        else ++r.outside;
      }
    });
  });
  Reference total;
  total.counts.assign(std::size_t(bins), 0);
  for (unsigned c = 0; c < chunks; ++c) {
    for (int b = 0; b < bins; ++b) total.counts[std::size_t(b)] += parts[c].counts[std::size_t(b)];
    total.outside += parts[c].outside;
  }
  return total;
}

std::string verify_histogram(const Reference& want, const std::uint32_t* hist, std::int64_t n) {
  std::uint64_t sum = 0;
  std::string first;
  for (std::size_t b = 0; b < want.counts.size(); ++b) {
    sum += hist[b];
    if (first.empty() && hist[b] != want.counts[b])
      first = fmt::format("bin {}: got {}, expected {}", b, hist[b], want.counts[b]);
  }
  if (first.empty()) return {};
  return fmt::format("{}; the bins hold {} samples, expected {} ({} of {} outside the range)", first, sum,
                     std::uint64_t(n) - want.outside, want.outside, n);
}

double host_histogram_bytes(int bins, bool cpu_step) {
  const double threads = host_threads();
  return threads * bins * sizeof(std::uint64_t) + (cpu_step ? threads * bins * cpu_copies(bins) * 4.0 : 0.0);
}

void cpu_histogram(const void* samples, std::int64_t n, Sample type, int bins, std::uint32_t* hist) {
  const int copies = cpu_copies(bins);
  std::vector<std::vector<std::uint32_t>> parts(host_threads());
  const unsigned chunks = visit_bins(type, bins, [&](auto tag, auto bin) {
    using T = typename decltype(tag)::type;
    const T* s = static_cast<const T*>(samples);
    return parallel_chunks(n, [&](unsigned c, std::int64_t b, std::int64_t e) {
      std::vector<std::uint32_t>& h = parts[c];
      h.assign(std::size_t(bins) * copies, 0);
      std::int64_t i = b;
      for (; copies == 4 && i + 3 < e; i += 4)
        for (int k = 0; k < 4; ++k) {
          const int x = bin(s[i + k]);
          if (x >= 0) ++h[std::size_t(k) * bins + x];
        }
      for (; i < e; ++i) {
        const int x = bin(s[i]);
        if (x >= 0) ++h[std::size_t(x)];
      }
    });
  });
  std::memset(hist, 0, std::size_t(bins) * 4);
  for (unsigned c = 0; c < chunks; ++c)
    for (std::size_t j = 0; j < parts[c].size(); ++j) hist[j % std::size_t(bins)] += parts[c][j];
}

}  // namespace gpubench::histogram
