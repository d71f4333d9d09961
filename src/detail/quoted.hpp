// A JSON value quoted in a message, cut so the message stays one readable line.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpubench {

inline std::string quoted(const nlohmann::json& v) {
  constexpr std::size_t kMax = 60;
  const std::string text = v.dump();
  return text.size() <= kMax ? text : text.substr(0, kMax) + "...";
}

}  // namespace gpubench
