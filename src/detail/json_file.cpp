#include "src/detail/json_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;

// A SAX pass that only checks the nesting depth and where parsing stopped.
struct DepthCheck : nlohmann::json_sax<json> {
  int depth = 0;
  bool too_deep = false;
  std::string where;  // ":LINE:COLUMN: not valid JSON: why", for a syntax error

  bool open() {
    too_deep = ++depth > kMaxDepth;
    return !too_deep;
  }
  bool start_object(std::size_t) override { return open(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_object() override { return --depth, true; }
  bool end_array() override { return --depth, true; }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool key(string_t&) override { return true; }
  // nlohmann's message: "[json.exception.parse_error.101] parse error at
  // line 4, column 1: syntax error while parsing ...; last read: '...'",
  // where the last token read may be the rest of the file.
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    const std::string what = e.what();
    const std::size_t line = what.find("at line "), column = what.find(", column ", line), why = what.find(": ", column);
    where = why != std::string::npos
                ? fmt::format(":{}:{}: not valid JSON: {}", what.substr(line + 8, column - line - 8),
                              what.substr(column + 9, why - column - 9), cut_utf8(what.substr(why + 2), 160))
                : fmt::format(": not valid JSON at byte {}", position);
    return false;
  }
};

}  // namespace

json load_json_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw UsageError(fmt::format("cannot read '{}': it is a directory", path));
  // /dev/zero would be read until memory runs out (a pipe is fine: <(...)).
  if (std::filesystem::is_character_file(status) || std::filesystem::is_block_file(status))
    throw UsageError(fmt::format("cannot read '{}': it is a device, not a file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read '{}'", path));
  constexpr std::size_t kMaxBytes = std::size_t(4) << 30;  // results of 100000 runs are far smaller
  std::string text;
  std::vector<char> chunk(std::size_t(1) << 20);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), std::size_t(in.gcount()));
    if (text.size() > kMaxBytes) throw UsageError(fmt::format("cannot read '{}': it is larger than 4 GiB", path));
  }
  if (in.bad()) throw UsageError(fmt::format("cannot read '{}'", path));
  // The parser takes a NUL byte for the end of the input, and would accept
  // whatever follows it.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    const std::size_t line_start = text.rfind('\n', nul) + 1;  // 0 when none: npos + 1
    throw UsageError(fmt::format("{}:{}:{}: not valid JSON: a NUL byte", path,
                                 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n'),
                                 nul - line_start + 1));
  }
  // Every later step (messages, the copy embedded in results) walks the
  // document recursively: refuse deep nesting before building it.
  DepthCheck depth;
  if (!json::sax_parse(text, &depth)) {
    if (depth.too_deep)
      throw UsageError(fmt::format("{}: nested deeper than {} levels", path, kMaxDepth));
    throw UsageError(path + depth.where);
  }
  return json::parse(text);
}

}  // namespace gpubench
