#include "src/detail/json_fields.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/json_text.hpp"

namespace gpubench::json_fields {

using nlohmann::json;

void fail(const std::string& path, const std::string& what) {
  throw UsageError(fmt::format("{}: {}", path.empty() ? "(root)" : path, what));
}

void fail_got(const std::string& path, const std::string& expected, const json& got) {
  fail(path, fmt::format("expected {}, got {}", expected, quoted(got)));
}

void require_object(const json& j, const std::string& path) {
  if (!j.is_object()) fail_got(path, "an object", j);
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& path) {
  require_object(obj, path);
  for (const auto& [key, value] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(path.empty() ? key : path + "." + key, fmt::format("unknown key (valid: {})", fmt::join(allowed, ", ")));
  }
}

std::optional<std::int64_t> as_int64(const json& v) {
  if (!v.is_number_integer()) return std::nullopt;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return v.get<std::int64_t>();
}

std::int64_t integer(const json& v, const std::string& path, std::int64_t min, std::int64_t max) {
  const std::optional<std::int64_t> i = as_int64(v);
  if (i && *i >= min && *i <= max) return *i;
  fail_got(path, fmt::format("an integer from {} to {}", min, max), v);
}

bool boolean(const json& v, const std::string& path) {
  if (!v.is_boolean()) fail_got(path, "true or false", v);
  return v.get<bool>();
}

double number(const json& v, const std::string& path) {
  if (!v.is_number()) fail_got(path, "a number", v);
  return v.get<double>();
}

std::string string(const json& v, const std::string& path) {
  if (!v.is_string()) fail_got(path, "a string", v);
  return v.get<std::string>();
}

}  // namespace gpubench::json_fields
