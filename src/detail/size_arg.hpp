// Problem sizes as users write them: 4194304, 4M, 2^22, 1G, 16K.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/detail/errors.hpp"

namespace gpubench {

// What the parsers below throw. what() names the text and gives examples;
// text() is the bad item ("2^70" of "2^20:2^70") and why() the reason alone
// ("too large", "not a number"), for messages that quote the value their own
// way (a config's JSON path).
class SizeError : public UsageError {
 public:
  SizeError(const std::string& text, const std::string& why);
  const std::string& text() const { return text_; }
  const std::string& why() const { return why_; }

 private:
  std::string text_, why_;
};

// The largest size parse_size reads (2^62, far past any memory), and the
// default bound of a size or integer axis.
constexpr std::int64_t kMaxSize = std::int64_t(1) << 62;

// Binary suffixes (K = 2^10, M = 2^20, G = 2^30), a power "B^E", or a plain
// integer. Throws SizeError for anything else, for values below 1 and for
// values past kMaxSize.
std::int64_t parse_size(const std::string& text);

// A comma-separated list of sizes and sweeps: "2^22,2^28", "1M,4M,16M", or
// "2^16:2^30" (every power-of-two multiple of the first size up to the last:
// 2^16, 2^17, ..., 2^30). Throws SizeError naming the bad item.
std::vector<std::int64_t> parse_size_list(const std::string& text);

}  // namespace gpubench
