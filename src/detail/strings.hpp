#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace gpubench {

// 3221225472 -> "3.00 GiB".
inline std::string gib_text(double bytes) { return fmt::format("{:.2f} GiB", bytes / double(1ull << 30)); }

// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}.
inline std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find(sep, start), text.size());
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// At least one character, every one a decimal digit.
inline bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "4096" -> 4096: decimal digits only (no sign, 0x, spaces or exponent), and
// nothing when the value does not fit in 64 bits. The one parser of whole
// numbers in the project; callers check their own range.
inline std::optional<std::uint64_t> whole_number(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  if (!all_digits(text)) return std::nullopt;
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && stop == end ? std::optional<std::uint64_t>(value) : std::nullopt;
}

// "2.5" -> 2.5: a plain decimal (digits, at most one point, at most 30
// characters), where strtod alone would take 0x10, nan, inf, 1e3 and -1.
inline std::optional<double> plain_decimal(const std::string& text) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const std::size_t point = text.find('.');
  const bool shape = !text.empty() && text.size() <= 30 && text != "." &&
                     std::all_of(text.begin(), text.end(), [&](char c) { return digit(c) || c == '.'; }) &&
                     (point == std::string::npos || text.find('.', point + 1) == std::string::npos);
  return shape ? std::optional<double>(std::strtod(text.c_str(), nullptr)) : std::nullopt;
}

// Whether `c` continues a UTF-8 character (10xxxxxx) rather than starting one.
inline bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// At most `most` bytes of `text`, cut before a UTF-8 character rather than
// inside one.
inline std::string cut_utf8(const std::string& text, std::size_t most) {
  if (text.size() <= most) return text;
  std::size_t cut = most;
  while (cut > 0 && utf8_continuation(text[cut])) --cut;
  return text.substr(0, cut);
}

// The bytes of the character at text[i] when a terminal would act on it
// rather than show it: a C0 or C1 control, DEL, or a bidirectional
// embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069),
// which reorders what follows; 0 for any other character.
inline std::size_t display_control_at(const std::string& text, std::size_t i) {
  const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned c = at(i), b = at(i + 1), d = at(i + 2);
  if (c < 0x20 || c == 0x7f) return 1;
  if (c == 0xc2 && b >= 0x80 && b <= 0x9f) return 2;
  if (c == 0xe2 && ((b == 0x80 && d >= 0xaa && d <= 0xae) || (b == 0x81 && d >= 0xa6 && d <= 0xa9))) return 3;
  return 0;
}

// `text` with each character display_control_at finds written as \uXXXX.
inline std::string escape_display_controls(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = display_control_at(text, i);
    if (n == 0) {
      out += text[i++];
      continue;
    }
    const auto byte = [&](std::size_t k) { return unsigned(static_cast<unsigned char>(text[i + k])); };
    const unsigned code = n == 1 ? byte(0)
                          : n == 2 ? (byte(0) & 0x1fu) << 6 | (byte(1) & 0x3fu)
                                   : (byte(0) & 0x0fu) << 12 | (byte(1) & 0x3fu) << 6 | (byte(2) & 0x3fu);
    out += fmt::format("\\u{:04x}", code);
    i += n;
  }
  return out;
}

// The characters of UTF-8 `text`: its bytes but those that continue one.
inline std::size_t utf8_characters(const std::string& text) {
  return std::size_t(std::count_if(text.begin(), text.end(), [](char c) { return !utf8_continuation(c); }));
}

}  // namespace gpubench
