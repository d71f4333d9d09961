#include "src/detail/json_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;

// "LINE:COLUMN" of byte `at` of `text`, both counted from 1.
std::string line_column(const std::string& text, std::size_t at) {
  at = std::min(at, text.size());
  const std::size_t line_start = at ? text.rfind('\n', at - 1) + 1 : 0;  // 0 when none: npos + 1
  const auto line = 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n');
  return fmt::format("{}:{}", line, at - line_start + 1);
}

// A SAX pass that checks what the parser lets through: the nesting depth,
// and a key given twice in one object (the parser keeps the last silently,
// so a config could hide a bad value behind a good one). It also says where
// parsing stopped.
struct Check : nlohmann::json_sax<json> {
  explicit Check(const std::string& text) : text(text) {}

  const std::string& text;
  bool too_deep = false;
  std::string twice;  // the JSON path of a key given twice
  std::string where;  // ":LINE:COLUMN: not valid JSON: why", for a syntax error

  struct Open {
    bool array;
    std::string path;
    std::size_t items = 0;     // an array's, so far
    std::string key;           // an object's, last read
    std::set<std::string> keys;
  };
  std::vector<Open> open;

  // The path of the value that starts now: "benchmarks[2]", "defaults.params"; "" for the document.
  std::string next_path() {
    if (open.empty()) return "";
    Open& o = open.back();
    if (o.array) return fmt::format("{}[{}]", o.path, o.items++);
    return o.path.empty() ? o.key : o.path + "." + o.key;
  }
  bool start(bool array) {
    too_deep = open.size() >= kMaxDepth;
    if (!too_deep) open.push_back({array, next_path(), 0, {}, {}});
    return !too_deep;
  }
  bool value() {  // a scalar: counted, its path never needed
    if (!open.empty() && open.back().array) ++open.back().items;
    return true;
  }
  bool start_object(std::size_t) override { return start(false); }
  bool start_array(std::size_t) override { return start(true); }
  bool end_object() override { return open.pop_back(), true; }
  bool end_array() override { return open.pop_back(), true; }
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool key(string_t& k) override {
    Open& o = open.back();
    o.key = k;
    if (o.keys.insert(k).second) return true;
    twice = o.path.empty() ? k : o.path + "." + k;
    return false;
  }
  // nlohmann's message: "[json.exception.parse_error.101] parse error at
  // line 4, column 1: syntax error while parsing ...; last read: '...'",
  // where the last token read may be the rest of the file. Others (a number
  // too large, "[json.exception.out_of_range.406] number overflow parsing
  // '1e999'") have no line: it is counted here.
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    const std::string what = e.what();
    const std::size_t line = what.find("at line "), column = what.find(", column ", line), why = what.find(": ", column);
    if (line != std::string::npos && why != std::string::npos) {
      where = fmt::format(":{}:{}: not valid JSON: {}", what.substr(line + 8, column - line - 8),
                          what.substr(column + 9, why - column - 9), cut_utf8(what.substr(why + 2), 160));
    } else {
      const std::size_t reason = what.find("] ");
      where = fmt::format(":{}: not valid JSON: {}", line_column(text, position),
                          cut_utf8(reason == std::string::npos ? what : what.substr(reason + 2), 160));
    }
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
  if (!in) throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
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
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw UsageError(fmt::format("{}:{}: not valid JSON: a NUL byte", path, line_column(text, nul)));
  // Every later step (messages, the copy embedded in results) walks the
  // document recursively: refuse deep nesting before building it.
  Check check(text);
  if (!json::sax_parse(text, &check)) {
    if (check.too_deep) throw UsageError(fmt::format("{}: nested deeper than {} levels", path, kMaxDepth));
    if (!check.twice.empty())
      throw UsageError(fmt::format("{}: {}: given twice in one object", path, cut_utf8(check.twice, 160)));
    throw UsageError(path + check.where);
  }
  return json::parse(text);
}

}  // namespace gpubench
