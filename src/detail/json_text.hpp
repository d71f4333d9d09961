// JSON values as text for tables, CSV and messages.
#pragma once

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/detail/strings.hpp"

namespace gpubench {

// A string as it is, anything else as JSON: int32, 1024, true.
inline std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// An object's members as key=value, `sep` between them: "dtype=int32 n=1024".
inline std::string params_text(const nlohmann::json& params, const char* sep) {
  std::string out;
  for (const auto& [key, value] : params.items())
    out += fmt::format("{}{}={}", out.empty() ? "" : sep, key, value_text(value));
  return out;
}

// A JSON value quoted in a message, cut so the message stays one readable
// line: control characters (C1 and bidirectional ones too) escaped, bytes
// that are not UTF-8 replaced.
inline std::string quoted(const nlohmann::json& v) {
  constexpr std::size_t kMax = 60;
  const std::string text =
      escape_display_controls(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return text.size() <= kMax ? text : cut_utf8(text, kMax) + "...";
}

}  // namespace gpubench
