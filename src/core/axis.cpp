#include "src/core/axis.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "src/detail/errors.hpp"
#include "src/detail/json_fields.hpp"
#include "src/detail/json_text.hpp"
#include "src/detail/size_arg.hpp"
#include "src/detail/strings.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

// What a valid value of `a` is, for messages: "a power of two from 32 to 1024".
std::string expected(const Axis& a) {
  switch (a.kind) {
    case Axis::Kind::size:
      return fmt::format("a size (4194304, \"4M\", \"2^22\", \"2^16:2^30\"){}",
                         a.max < kMaxSize ? fmt::format(" up to {}", a.max) : "");
    case Axis::Kind::integer:
      if (!a.only.empty()) return fmt::format("one of {}", fmt::join(a.only, ", "));
      return fmt::format("{} from {} to {}", a.power_of_two ? "a power of two" : "an integer", a.min, a.max);
    case Axis::Kind::choice: break;
  }
  return fmt::format("one of {}", fmt::join(a.choices, ", "));
}

// Why a JSON number as_int64 refused is no axis value: past int64, or not
// an integer (4194304.0 included: a config writes integers as integers).
std::string number_problem(const Axis& a, const json& v) {
  const double d = v.get<double>();
  if (v.is_number_unsigned() || d >= 0x1p63) return "too large";
  if (d < -0x1p63) return fmt::format("must be at least {}", a.min);
  return d == std::floor(d) ? "write it without a decimal point" : "not a whole number";
}

bool in_range(const Axis& a, std::int64_t v) {
  return v >= a.min && v <= a.max && (!a.power_of_two || (v & (v - 1)) == 0) &&
         (a.only.empty() || std::find(a.only.begin(), a.only.end(), v) != a.only.end());
}

Axis make_axis(std::string name, std::string help, Axis::Kind kind, std::string fallback) {
  Axis a;
  a.name = std::move(name);
  a.help = std::move(help);
  a.kind = kind;
  a.fallback = std::move(fallback);
  return a;
}

// One item of an integer axis's list: a plain number as it is, sign and 0
// included (sizes refuse both), else a size (4K, 2^10).
std::int64_t integer_item(const Axis& a, const std::string& item) {
  const bool negative = item.size() > 1 && item[0] == '-';
  const std::optional<std::uint64_t> plain = whole_number(negative ? item.substr(1) : item);
  if (plain && *plain > std::uint64_t(kMaxSize)) throw UsageError(fmt::format("{}: must be {}", item, expected(a)));
  std::int64_t v = 0;
  if (plain) {
    v = negative ? -std::int64_t(*plain) : std::int64_t(*plain);
  } else {
    try {
      v = parse_size(item);
    } catch (const SizeError&) {  // its "size '3:15': ..." would call the axis a size
      throw UsageError(fmt::format("{}: must be {}", item, expected(a)));
    }
  }
  if (!in_range(a, v)) throw UsageError(fmt::format("{}: must be {}", v, expected(a)));
  return v;
}

}  // namespace

Axis size_axis(std::string name, std::string help, std::string fallback, std::int64_t max) {
  Axis a = make_axis(std::move(name), std::move(help), Axis::Kind::size, std::move(fallback));
  a.max = max;
  return a;
}

Axis integer_axis(std::string name, std::string help, std::string fallback, std::int64_t min, std::int64_t max,
                  bool power_of_two) {
  Axis a = make_axis(std::move(name), std::move(help), Axis::Kind::integer, std::move(fallback));
  a.min = min;
  a.max = max;
  a.power_of_two = power_of_two;
  return a;
}

Axis listed_axis(std::string name, std::string help, std::string fallback, std::vector<std::int64_t> values) {
  Axis a = integer_axis(std::move(name), std::move(help), std::move(fallback), values.front(), values.back());
  a.only = std::move(values);
  return a;
}

Axis choice_axis(std::string name, std::string help, std::vector<std::string> choices) {
  Axis a = make_axis(std::move(name), std::move(help), Axis::Kind::choice, choices.front());
  a.choices = std::move(choices);
  return a;
}

std::vector<json> values_from_text(const Axis& a, const std::string& text, const std::string& flag) {
  std::vector<json> out;
  try {
    if (a.kind == Axis::Kind::size) {
      for (const std::int64_t v : parse_size_list(text)) {
        if (!in_range(a, v)) throw UsageError(fmt::format("{}: must be from {} to {}", v, a.min, a.max));
        out.emplace_back(v);
      }
      return out;
    }
    for (const std::string& item : split(text, ',')) {
      if (a.kind != Axis::Kind::choice) {
        out.emplace_back(integer_item(a, item));
      } else if (std::find(a.choices.begin(), a.choices.end(), item) != a.choices.end()) {
        out.emplace_back(item);
      } else {
        throw UsageError(fmt::format("unknown value '{}'; valid: {}", item, fmt::join(a.choices, ", ")));
      }
    }
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", flag, e.what()));
  }
  return out;
}

std::vector<json> values_from_json(const Axis& a, const json& v, const std::string& path) {
  if (v.is_array()) {
    if (v.empty()) throw UsageError(path + ": an empty list");
    std::vector<json> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].is_array()) throw UsageError(fmt::format("{}[{}]: expected {}, got a list", path, i, expected(a)));
      for (json& x : values_from_json(a, v[i], fmt::format("{}[{}]", path, i))) out.push_back(std::move(x));
    }
    return out;
  }
  // "PATH: expected a size (...), got "2^70" (too large)": the reason, as
  // the command line gives it, where there is one.
  auto bad = [&](const std::string& why = "") -> std::vector<json> {
    throw UsageError(fmt::format("{}: expected {}, got {}{}", path, expected(a), quoted(v), why.empty() ? "" : " (" + why + ")"));
  };
  const std::optional<std::int64_t> whole = json_fields::as_int64(v);
  if (!whole && v.is_number() && a.kind != Axis::Kind::choice) return bad(number_problem(a, v));
  switch (a.kind) {
    case Axis::Kind::size: {
      std::vector<std::int64_t> sizes;
      if (whole) sizes = {*whole};
      else if (v.is_string()) {
        try {
          sizes = parse_size_list(v.get<std::string>());
        } catch (const SizeError& e) {
          return bad(e.text() != v.get<std::string>() ? fmt::format("{}: {}", e.text(), e.why()) : e.why());
        }
      } else return bad();
      std::vector<json> out;
      for (const std::int64_t s : sizes) {
        if (!in_range(a, s)) {
          const std::string why = s < a.min ? fmt::format("must be at least {}", a.min) : "too large";
          return bad(sizes.size() > 1 ? fmt::format("{}: {}", s, why) : why);
        }
        out.emplace_back(s);
      }
      return out;
    }
    case Axis::Kind::integer: {
      if (v.is_string()) break;
      if (!whole || !in_range(a, *whole)) return bad();
      return {v};
    }
    case Axis::Kind::choice: break;
  }
  if (!v.is_string()) return bad();
  // As the command line writes it: "2^10", "1K", "float32,float64".
  try {
    return values_from_text(a, v.get<std::string>(), path);
  } catch (const UsageError&) {
    return bad();
  }
}

}  // namespace gpubench
