// A pattern's parameters as typed axes. Every axis takes one value, a list
// or (sizes) a sweep, on the command line and in configs alike; a run is the
// cross product of its axes' values. Values are JSON, as results store them:
// sizes and integers as numbers, choices as strings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/detail/size_arg.hpp"

namespace gpubench {

struct Axis {
  enum class Kind {
    size,     // 4194304, 4M, 2^22, lists and sweeps 2^16:2^30
    integer,  // a comma-separated list of integers in [min, max]
    choice,   // a comma-separated list of names from `choices`
  };
  std::string name;   // the key in configs and results, and --name on the command line
  std::string flags;  // the command line's spelling when not --name, e.g. "-n,--n"
  std::string help;
  Kind kind = Kind::size;
  std::string fallback;  // the default, written as on the command line
  std::int64_t min = 1, max = kMaxSize;  // size and integer
  bool power_of_two = false;              // integer
  std::vector<std::int64_t> only;         // integer: the values allowed, where not all of [min, max] are
  std::vector<std::string> choices;       // choice
};

Axis size_axis(std::string name, std::string help, std::string fallback,
               std::int64_t max = kMaxSize);
Axis integer_axis(std::string name, std::string help, std::string fallback, std::int64_t min, std::int64_t max,
                  bool power_of_two = false);
// An integer axis that takes only `values` (ascending), such as the mask
// sides a ladder is built for.
Axis listed_axis(std::string name, std::string help, std::string fallback, std::vector<std::int64_t> values);
Axis choice_axis(std::string name, std::string help, std::vector<std::string> choices);  // default: the first

// The values `text` names as the command line writes them. Throws UsageError
// naming `flag`.
std::vector<nlohmann::json> values_from_text(const Axis& a, const std::string& text, const std::string& flag);

// The values of a config's entry (one value or a list of them). Throws
// UsageError naming the JSON path of the bad item.
std::vector<nlohmann::json> values_from_json(const Axis& a, const nlohmann::json& v, const std::string& path);

}  // namespace gpubench
