#include "src/detail/host_cache.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "src/detail/parallel.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "32768K" -> 33554432; 0 for anything else.
std::int64_t cache_size(const std::string& text) {
  const std::size_t unit = std::min(text.find_first_not_of("0123456789"), text.size());
  const std::optional<std::uint64_t> v = whole_number(text.substr(0, unit));
  const std::string suffix = text.substr(unit);
  const int shift = suffix == "K" ? 10 : suffix == "M" ? 20 : 0;
  if (!v || *v >= (std::uint64_t(1) << 40) || !(shift || suffix.empty())) return 0;
  return std::int64_t(*v << shift);
}

}  // namespace

std::int64_t host_llc_bytes() {
  static const std::int64_t bytes = [] {
    // The highest level's instances, each once (named by the CPUs sharing it).
    int top = 0;
    std::int64_t total = 0;
    std::set<std::string> seen;
    const std::string root = "/sys/devices/system/cpu/cpu";
    for (int cpu = 0; std::filesystem::exists(root + std::to_string(cpu)); ++cpu) {
      for (int index = 0;; ++index) {
        const std::string at = root + std::to_string(cpu) + "/cache/index" + std::to_string(index) + "/";
        const int level = int(whole_number(read_line(at + "level")).value_or(0));
        if (level == 0) break;
        if (level < top) continue;
        if (level > top) top = level, total = 0, seen.clear();
        if (seen.insert(read_line(at + "shared_cpu_list")).second) total += cache_size(read_line(at + "size"));
      }
    }
    return total > 0 ? total : std::int64_t(256) << 20;
  }();
  return bytes;
}

void flush_host_caches() {
  static const std::int64_t words = 2 * host_llc_bytes() / std::int64_t(sizeof(std::uint64_t));
  static const std::unique_ptr<std::uint64_t[]> buffer = [] {
    auto b = std::make_unique<std::uint64_t[]>(std::size_t(words));
    parallel_chunks(words, [&](unsigned, std::int64_t lo, std::int64_t hi) { std::fill(&b[lo], &b[hi], lo); });
    return b;
  }();
  // Read, not written: the lines it leaves are clean, so the timed step pays
  // no write-back of the flush.
  static std::atomic<std::uint64_t> sink{0};
  parallel_chunks(words, [&](unsigned, std::int64_t lo, std::int64_t hi) {
    std::uint64_t sum = 0;
    for (std::int64_t i = lo; i < hi; ++i) sum += buffer[std::size_t(i)];
    sink.fetch_add(sum, std::memory_order_relaxed);
  });
}

}  // namespace gpubench
