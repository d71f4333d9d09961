#include "src/detail/size_arg.hpp"

#include <cctype>

#include <fmt/format.h>

#include "src/detail/strings.hpp"

namespace gpubench {

SizeError::SizeError(const std::string& text, const std::string& why)
    : UsageError(fmt::format("size '{}': {} (write e.g. 4194304, 4M, 2^22 or 1G)", text, why)), text_(text), why_(why) {}

namespace {

[[noreturn]] void bad(const std::string& text, const char* why) { throw SizeError(text, why); }

// Digits only, no sign, no overflow past kMaxSize.
std::int64_t parse_digits(const std::string& digits, const std::string& text) {
  if (!all_digits(digits)) bad(text, "not a number");
  const std::optional<std::uint64_t> v = whole_number(digits);
  if (!v || *v > std::uint64_t(kMaxSize)) bad(text, "too large");
  return std::int64_t(*v);
}

}  // namespace

std::int64_t parse_size(const std::string& text) {
  if (!text.empty() && text[0] == '-') bad(text, "must be at least 1");
  std::int64_t value = 0;
  if (const auto caret = text.find('^'); caret != std::string::npos) {
    const std::int64_t base = parse_digits(text.substr(0, caret), text);
    const std::int64_t exp = parse_digits(text.substr(caret + 1), text);
    // Bases 0 and 1 answer at once (their powers never grow past kMaxSize, so
    // the loop would run exp times); larger ones pass kMaxSize within 62 steps.
    value = exp == 0 ? 1 : base;
    if (base > 1)
      for (std::int64_t i = 1; i < exp; ++i) {
        if (value > kMaxSize / base) bad(text, "too large");
        value *= base;
      }
  } else {
    std::string digits = text;
    int shift = 0;
    if (!digits.empty()) {
      switch (std::toupper(static_cast<unsigned char>(digits.back()))) {
        case 'K': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        default: break;
      }
      if (shift) digits.pop_back();
    }
    value = parse_digits(digits, text);
    if (value > (kMaxSize >> shift)) bad(text, "too large");
    value <<= shift;
  }
  if (value < 1) bad(text, "must be at least 1");
  return value;
}

std::vector<std::int64_t> parse_size_list(const std::string& text) {
  std::vector<std::int64_t> sizes;
  for (const std::string& item : split(text, ',')) {
    if (const auto colon = item.find(':'); colon != std::string::npos) {
      if (item.find(':', colon + 1) != std::string::npos) bad(item, "a sweep is FIRST:LAST, with one ':'");
      const std::int64_t first = parse_size(item.substr(0, colon)), last = parse_size(item.substr(colon + 1));
      if (first > last) bad(item, "a sweep must go from the smaller size to the larger");
      for (std::int64_t v = first; v <= last; v *= 2) {
        sizes.push_back(v);
        if (v > last / 2) break;
      }
    } else {
      sizes.push_back(parse_size(item));
    }
  }
  return sizes;
}

}  // namespace gpubench
