// Splits [0, n) into one contiguous chunk per hardware thread and runs
// f(chunk_index, begin, end) on each in its own std::thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace gpubench {

inline unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Chunks below min_chunk elements are not worth a thread of their own.
template <class F>
unsigned parallel_chunks(std::int64_t n, F&& f, std::int64_t min_chunk = 1 << 16) {
  const std::int64_t by_size = std::max<std::int64_t>(1, n / min_chunk);
  const unsigned chunks = static_cast<unsigned>(std::min<std::int64_t>(host_threads(), by_size));
  const std::int64_t per = (n + chunks - 1) / chunks;
  std::vector<std::thread> pool;
  for (unsigned c = 1; c < chunks; ++c)
    pool.emplace_back([&f, c, per, n] { f(c, std::min(n, c * per), std::min(n, (c + 1) * per)); });
  f(0u, std::int64_t(0), std::min(n, per));
  for (auto& t : pool) t.join();
  return chunks;
}

}  // namespace gpubench
